#include "core/format.hpp"

#include <fmt/format.h>

#include "core/order.hpp"

namespace sonnx {

namespace {

template <class T> std::string text_of(T x) {
  if constexpr (is_bool_v<T>) {
    return x ? "true" : "false";
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return fmt::format("{}", static_cast<std::int64_t>(x));
    else return fmt::format("{}", static_cast<std::uint64_t>(x));
  } else {
    if (is_nan(x)) return fmt::format("nan(0x{:0{}x})", bit_pattern(x), 2 * sizeof(T));
    if (real_value(x) == 0.0) return negative_sign(x) ? "-0" : "+0";
    if constexpr (std::is_floating_point_v<T>) return fmt::format("{}", x);  // shortest round-trip
    else return fmt::format("{}", real_value(x));  // float16/bfloat16: exact value as a double
  }
}

}  // namespace

std::uint64_t element_bits(const Tensor& t, std::int64_t offset) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return bit_pattern<T>(t.values<T>()[static_cast<std::size_t>(offset)]);
  });
}

std::string element_bits_text(const Tensor& t, std::int64_t offset) {
  return fmt::format("0x{:0{}x}", element_bits(t, offset), 2 * info(t.dtype()).size);
}

std::string element_text(const Tensor& t, std::int64_t offset) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return text_of<T>(t.values<T>()[static_cast<std::size_t>(offset)]);
  });
}

}  // namespace sonnx
