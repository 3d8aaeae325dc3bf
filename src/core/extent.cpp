#include "core/extent.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace sonnx {

std::optional<std::int64_t> dims_product(std::span<const std::int64_t> dims) {
  if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return 0;  // [Common.tensor.empty]
  std::int64_t p = 1;
  for (std::int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(p, d, &p)) return std::nullopt;
  return p;
}

std::int64_t checked_product(std::span<const std::int64_t> dims, const std::string& what) {
  if (auto p = dims_product(dims)) return *p;
  std::string text;
  for (std::int64_t d : dims) text += (text.empty() ? "" : ", ") + std::to_string(d);
  refuse("Common.tensor.size-limit", "{}: the product of the dimensions [{}] is larger than int64 can count", what, text);
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what) {
  const std::int64_t dims[] = {a, b};
  return checked_product(dims, what);
}

}  // namespace sonnx
