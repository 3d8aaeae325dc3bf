#include "oracle/compare.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/format.hpp"
#include "core/order.hpp"

namespace sonnx::compare {

namespace {

// [Check.ulp] The rank of a non-NaN float in the total order of its type's values
// ([Common.order.total]): consecutive values (including -0 and +0) have consecutive ranks.
template <class T> std::int64_t ordinal(T x) {
  constexpr int bits = sizeof(T) * 8;
  const std::uint64_t u = bit_pattern(x);
  const std::uint64_t sign = u >> (bits - 1);
  const std::uint64_t magnitude = u & ((std::uint64_t{1} << (bits - 1)) - 1);
  // +0 -> 0, +smallest -> 1, ...; -0 -> -1, -smallest -> -2, ...
  return sign ? -static_cast<std::int64_t>(magnitude) - 1 : static_cast<std::int64_t>(magnitude);
}

template <class T> bool is_infinite(T x) { return !is_nan(x) && std::isinf(real_value(x)); }

template <class T> bool conforms(T expected, T actual, const Options& o) {
  if constexpr (is_float_v<T>) {
    if (is_nan(expected) || is_nan(actual)) return is_nan(expected) && is_nan(actual);  // any NaN = any NaN
    if (!o.ulp_mode) return bit_pattern(expected) == bit_pattern(actual);  // [Check.bitwise] +0 != -0
    if (is_infinite(expected) || is_infinite(actual)) return bit_pattern(expected) == bit_pattern(actual);
    const std::int64_t d = ordinal(expected) - ordinal(actual);
    return static_cast<std::uint64_t>(d < 0 ? -d : d) <= o.ulp;  // [Check.ulp]
  } else {
    return expected == actual;  // integers and bool: always exact
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
        r.first.push_back({k, unravel(expected.shape(), k), element_text(expected, k), element_text(actual, k),
                           element_bits_text(expected, k), element_bits_text(actual, k)});
    }
  });
  r.conforms = r.mismatches == 0;
  return r;
}

}  // namespace sonnx::compare
