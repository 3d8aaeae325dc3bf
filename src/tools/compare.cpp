#include "tools/compare.hpp"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "core/order.hpp"

namespace sonnx::compare {

namespace {

template <class T> std::uint64_t raw_bits(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return x.bits;
  } else if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else {
    std::uint64_t u = 0;
    std::memcpy(&u, &x, sizeof x);
    return u;
  }
}

// [Check.ulp] The rank of a non-NaN float in the total order of its type's values
// ([Common.order.total]): consecutive values (including -0 and +0) have consecutive ranks.
template <class T> std::int64_t ordinal(T x) {
  constexpr int bits = sizeof(T) * 8;
  const std::uint64_t u = raw_bits(x);
  const std::uint64_t sign = u >> (bits - 1);
  const std::uint64_t magnitude = u & ((std::uint64_t{1} << (bits - 1)) - 1);
  // +0 -> 0, +smallest -> 1, ...; -0 -> -1, -smallest -> -2, ...
  return sign ? -static_cast<std::int64_t>(magnitude) - 1 : static_cast<std::int64_t>(magnitude);
}

template <class T> bool is_infinite(T x) { return !is_nan(x) && std::isinf(real_value(x)); }

template <class T> bool conforms(T expected, T actual, const Options& o) {
  if constexpr (is_float_v<T>) {
    if (is_nan(expected) || is_nan(actual)) return is_nan(expected) && is_nan(actual);  // any NaN = any NaN
    if (!o.ulp_mode) return raw_bits(expected) == raw_bits(actual);  // [Check.bitwise] +0 != -0
    if (is_infinite(expected) || is_infinite(actual)) return raw_bits(expected) == raw_bits(actual);
    const std::int64_t d = ordinal(expected) - ordinal(actual);
    return static_cast<std::uint64_t>(d < 0 ? -d : d) <= o.ulp;  // [Check.ulp]
  } else {
    return expected == actual;  // integers and bool: always exact
  }
}

template <class T> std::string format_value(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "true" : "false";
  } else if constexpr (is_float_v<T>) {
    if (is_nan(x)) return "nan";
    const double v = real_value(x);
    if (v == 0.0) return std::signbit(v) ? "-0" : "0";
    if (std::is_same_v<T, double>) return fmt::format("{}", v);
    if (std::is_same_v<T, float>) return fmt::format("{}", static_cast<float>(v));
    return fmt::format("{}", v);  // float16/bfloat16: their exact double value
  } else if constexpr (sizeof(T) == 1) {
    return fmt::format("{}", static_cast<int>(x));
  } else {
    return fmt::format("{}", x);
  }
}

}  // namespace

std::vector<std::int64_t> unravel(const Shape& shape, std::int64_t offset) {
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 0) break;
    index[k] = offset % shape[k];
    offset /= shape[k];
  }
  return index;
}

std::string format_element(const Tensor& t, std::int64_t offset) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return format_value<T>(t.values<T>()[offset]);
  });
}

std::string format_bits(const Tensor& t, std::int64_t offset) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return fmt::format("0x{:0{}x}", raw_bits<T>(t.values<T>()[offset]), 2 * sizeof(T));
  });
}

Result compare(const Tensor& expected, const Tensor& actual, const Options& o) {
  Result r;
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape()) {  // [Check.shape]
    r.conforms = false;
    r.structural = fmt::format("expected {} {}, got {} {}", name(expected.dtype()), to_string(expected.shape()),
                               name(actual.dtype()), to_string(actual.shape()));
    return r;
  }
  dispatch(expected.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto e = expected.values<T>();
    auto a = actual.values<T>();
    for (std::int64_t k = 0; k < expected.size(); ++k) {
      if (conforms<T>(e[k], a[k], o)) continue;
      ++r.mismatches;
      if (r.first.size() < o.max_listed)
        r.first.push_back({k, unravel(expected.shape(), k), format_value<T>(e[k]), format_value<T>(a[k]),
                           format_bits(expected, k), format_bits(actual, k)});
    }
  });
  r.conforms = r.mismatches == 0;
  return r;
}

}  // namespace sonnx::compare
