// Errors of sonnx-ref (spec/README.md, "Error reporting"). Every error is one line,
// "error: [ID] message" — ID the spec clause — and says which of three things happened:
//   a refusal: the input violates the clause (exit status 3);
//   an I/O failure: a file or folder could not be found, read, created or written at all, so its
//     content was never judged (exit status 4; the ID is the clause under which it was to be read
//     or written);
//   a usage error: an option or argument of the command line is malformed or names nothing in the
//     model (exit status 2; no ID, "error: message").
// Tests match the ID and the kind, never the message text.
#pragma once
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace sonnx {

enum class Failure { Refused, Io, Usage };

class SpecError : public std::runtime_error {
 public:
  SpecError(std::string id, const std::string& message, Failure kind = Failure::Refused)
      : std::runtime_error(message), id_(std::move(id)), kind_(kind) {}
  const std::string& id() const { return id_; }
  Failure kind() const { return kind_; }
  // "error: [ID] message" ("error: message" for a usage error) — the one format every front-end prints.
  std::string report() const { return id_.empty() ? "error: " + std::string(what()) : "error: [" + id_ + "] " + what(); }

 private:
  std::string id_;
  Failure kind_;
};

// The exit status of each kind (spec/README.md, "Error reporting"; [Check.exit]).
inline int exit_status(Failure kind) {
  switch (kind) {
    case Failure::Usage: return 2;
    case Failure::Io: return 4;
    default: return 3;
  }
}

// Throws a refusal: SpecError(id, formatted message).
template <class... Args>
[[noreturn]] void refuse(const std::string& id, fmt::format_string<Args...> f, Args&&... args) {
  throw SpecError(id, fmt::format(f, std::forward<Args>(args)...));
}

// Throws an I/O failure of the file or folder read or written under clause `id`.
template <class... Args>
[[noreturn]] void io_failure(const std::string& id, fmt::format_string<Args...> f, Args&&... args) {
  throw SpecError(id, fmt::format(f, std::forward<Args>(args)...), Failure::Io);
}

// Throws a usage error (a malformed option, or an option naming nothing in the model).
template <class... Args>
[[noreturn]] void usage_error(fmt::format_string<Args...> f, Args&&... args) {
  throw SpecError("", fmt::format(f, std::forward<Args>(args)...), Failure::Usage);
}

}  // namespace sonnx
