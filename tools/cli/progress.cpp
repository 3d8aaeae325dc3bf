#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <fmt/format.h>

namespace sonnx::cli {

namespace {

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

Progress::Progress(std::string command, bool quiet, bool lines) : command_(std::move(command)) {
  tty_ = isatty(STDERR_FILENO) != 0;
  phase_start_ = last_seen_ = Clock::now();
  enabled_ = tty_ ? !quiet || lines : lines;  // a terminal unless --quiet; elsewhere only when asked for
}

void Progress::update(const std::string& phase, std::size_t done, std::size_t total, const std::string& extra) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (phase != phase_) {  // a phase's work began when the previous one's last update came (or at the start)
    phase_ = phase;
    phase_start_ = last_seen_;
  } else if (now - last_ < (tty_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(2000))) {
    last_seen_ = now;
    return;
  }
  last_ = last_seen_ = now;
  const double elapsed = std::chrono::duration<double>(now - phase_start_).count();
  const std::size_t since = done;
  std::string line = total ? fmt::format("{}: {}/{} {}", command_, done, total, phase) : fmt::format("{}: {} {}", command_, done, phase);
  if (since > 0 && elapsed > 0) {
    const double rate = static_cast<double>(since) / elapsed;
    line += fmt::format(", {:.1f}/s", rate);
    if (total > done) line += fmt::format(", {} left", duration_text(static_cast<double>(total - done) / rate));
  }
  if (!extra.empty()) line += ", " + extra;
  std::fflush(stdout);  // what was printed before the line stays before it
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());  // rewritten in place
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void Progress::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace sonnx::cli
