// [Common.tensor.size-limit] The one place where dimensions are multiplied: products of dimensions
// evaluated without overflow, zero dimensions included. Every element count, stride, row length
// and output size of sonnx-ref is computed here.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace sonnx {

// The product of `dims` (1 for none), or nullopt when it exceeds 2^63 - 1. A zero factor makes the
// product 0 whatever the others are (no intermediate product is formed past it).
std::optional<std::int64_t> dims_product(std::span<const std::int64_t> dims);

// The same, refused with [Common.tensor.size-limit] when it cannot be represented; `what` names
// the tensor (or view) whose dimensions they are.
std::int64_t checked_product(std::span<const std::int64_t> dims, const std::string& what);

// a * b for non-negative a and b, refused with [Common.tensor.size-limit] past 2^63 - 1.
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what);

}  // namespace sonnx
