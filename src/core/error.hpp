// Errors of sonnx-ref: every refusal carries the spec ID of the clause it enforces
// (spec/README.md, "Error reporting"). Tests match the ID, never the message text.
#pragma once
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace sonnx {

// A refused input: printed as "error: [ID] message", exit code 1.
class SpecError : public std::runtime_error {
 public:
  SpecError(std::string id, const std::string& message)
      : std::runtime_error(message), id_(std::move(id)) {}
  const std::string& id() const { return id_; }
  // "error: [ID] message" — the one format every front-end prints.
  std::string report() const { return "error: [" + id_ + "] " + what(); }

 private:
  std::string id_;
};

// Throws SpecError(id, formatted message).
template <class... Args>
[[noreturn]] void refuse(const std::string& id, fmt::format_string<Args...> f, Args&&... args) {
  throw SpecError(id, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace sonnx
