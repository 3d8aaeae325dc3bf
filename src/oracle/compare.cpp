#include "oracle/compare.hpp"

#include "core/index.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/format.hpp"
#include "core/order.hpp"

namespace sonnx::compare {

namespace {

// [Check.ulp] The rank of a non-NaN float in the total order of its type's values: consecutive
// values (-0 and +0 included) have consecutive ranks, +0 has rank 0 — the order key of
// [Common.order.total] (core/order.hpp), widened so that a difference of two ranks never overflows.
template <class T> __int128 ordinal(T x) { return static_cast<__int128>(order_key(x)); }

template <class T> bool conforms(T expected, T actual, const Options& o) {
  if constexpr (is_float_v<T>) {
    if (is_nan(expected) || is_nan(actual)) {
      if (!is_nan(expected) || !is_nan(actual)) return false;  // a NaN conforms only to a NaN
      // [Check.nan-payload.strict] bit for bit, as [Common.order.nan-payload] gives the expected NaN;
      // [Check.nan-payload.any] any NaN = any NaN (the payload-only difference is noted by compare)
      return !o.nan_payload_strict || bit_pattern(expected) == bit_pattern(actual);
    }
    if (!o.ulp_mode) return bit_pattern(expected) == bit_pattern(actual);  // [Check.bitwise] +0 != -0
    if (is_infinite(expected) || is_infinite(actual)) return bit_pattern(expected) == bit_pattern(actual);
    const __int128 d = ordinal(expected) - ordinal(actual);
    return (d < 0 ? -d : d) <= static_cast<__int128>(o.ulp);  // [Check.ulp]
  } else {
    return expected == actual;  // integers and bool: always exact
  }
}

}  // namespace

Options options_for(std::optional<std::uint64_t> ulp, std::size_t max_listed) {
  Options o;
  o.ulp_mode = ulp.has_value() && *ulp > 0;  // [Check.ulp] N = 0 is [Check.bitwise]
  o.ulp = o.ulp_mode ? *ulp : 0;
  o.max_listed = max_listed;
  return o;
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
      const bool ok = conforms<T>(e[k], a[k], o);
      if constexpr (is_float_v<T>)
        if (is_nan(e[k]) && is_nan(a[k]) && bit_pattern(e[k]) != bit_pattern(a[k])) {
          ++r.nan_payload_only;  // [Check.nan-payload.any] a payload-only difference, counted in both modes
          if (ok && r.nan_payload_first.size() < o.max_listed)  // listed as a note when it conforms
            r.nan_payload_first.push_back({k, index_of(expected.shape(), k), element_text(expected, k),
                                           element_text(actual, k), element_bits_text(expected, k),
                                           element_bits_text(actual, k)});
        }
      if (ok) continue;
      ++r.mismatches;
      if (r.offsets.size() < o.max_offsets) r.offsets.push_back(k);
      if (r.first.size() < o.max_listed)
        r.first.push_back({k, index_of(expected.shape(), k), element_text(expected, k), element_text(actual, k),
                           element_bits_text(expected, k), element_bits_text(actual, k)});
    }
  });
  r.conforms = r.mismatches == 0;
  return r;
}

}  // namespace sonnx::compare
