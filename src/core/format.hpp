// The one printed form of an element, used by run, check, explain and reports:
//   float types: "+0" and "-0" (the sign matters: [Common.order.total]), "inf", "-inf",
//                NaN with its bits "nan(0x7fc00001)" ([Common.order.nan-payload]), otherwise the
//                shortest decimal that reads back to the same value (float16 and bfloat16 are
//                printed as their exact value, [Common.dtype.float16] [Common.dtype.bfloat16]);
//   integers in decimal; bool as "true" / "false".
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "core/order.hpp"
#include "core/tensor.hpp"

namespace sonnx {

// The bit pattern of one element, as an unsigned integer of its width (bool: 0 or 1).
template <class T> std::uint64_t bit_pattern(T x) { return bits_of(x); }

// The bit pattern of element `offset` of `t`, as an unsigned integer of the element's width.
std::uint64_t element_bits(const Tensor& t, std::int64_t offset);
// "0x80000000": the bit pattern, 2 hex digits per byte.
std::string element_bits_text(const Tensor& t, std::int64_t offset);
// The printed form above.
std::string element_text(const Tensor& t, std::int64_t offset);

}  // namespace sonnx
