// Progress of long runs (golden, conformance, the folder form of check) on standard error: cases
// done, rate and time left, one line rewritten in place with \r. Shown only when standard error is
// a terminal and --quiet was not given: never in a CI log or a redirected file. `conformance
// --progress` also asks for it where stderr is not a terminal: then a plain line every 2 s.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace sonnx::cli {

class Progress {
 public:
  // `command` names the line ("golden", "conformance", "check"); `quiet`: --quiet; `lines`: print
  // plain lines every 2 s when stderr is not a terminal (conformance --progress).
  Progress(std::string command, bool quiet, bool lines = false);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool shown() const { return enabled_; }
  // `done` of `total` cases in phase `phase` ("judged", "read", "written", ...); total 0: unknown.
  // `extra` is appended ("3 failed"). Redrawn at most every 100 ms (the first call and a change of
  // phase at once).
  void update(const std::string& phase, std::size_t done, std::size_t total, const std::string& extra = "");
  // Erases the line (before other output to the terminal, and at the end).
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  std::string command_, phase_;
  bool enabled_ = false, tty_ = false, drawn_ = false;
  Clock::time_point phase_start_, last_, last_seen_;
};

}  // namespace sonnx::cli
