#include "oracle/compare.hpp"

#include "core/index.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/accuracy.hpp"
#include "core/format.hpp"
#include "core/order.hpp"

namespace sonnx::compare {

namespace {

// [Check.ulp] The rank of a non-NaN float in the total order of its type's values: consecutive
// values (-0 and +0 included) have consecutive ranks, +0 has rank 0 — the order key of
// [Common.order.total] (core/order.hpp), widened so that a difference of two ranks never overflows.
template <class T> __int128 ordinal(T x) { return static_cast<__int128>(order_key(x)); }

template <class T> bool conforms(T expected, T actual, const Options& o, bool nan_free) {
  if constexpr (is_float_v<T>) {
    if (is_nan(expected) || is_nan(actual)) {
      if (!is_nan(expected) || !is_nan(actual)) return false;  // a NaN conforms only to a NaN
      if (nan_free) return true;  // [Check.nan-payload.free] an arithmetic NaN: any NaN, in both modes
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

// An element as the real number it denotes (float16 and bfloat16 decoded exactly).
template <class T> double real_of(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return to_double(x);
  else return static_cast<double>(x);
}

// [Acc.verdict] Every element of a computed output judged by its enclosure.
template <class T>
void judge_computed(const Tensor& expected, const Tensor& actual, const Options& o, Result& r) {
  const accuracy::Annex& annex = *expected.annex;
  auto a = actual.values<T>();
  r.accuracy = true;
  double worst = -1;
  auto note = [&](std::int64_t k, const accuracy::Element& e, const accuracy::Judgement& j, double flush) {
    Mismatch m{k, index_of(expected.shape(), k), element_text(expected, k), element_text(actual, k),
               element_bits_text(expected, k), element_bits_text(actual, k), std::nullopt};
    m.accuracy = AccuracyNote{e.hi + e.lo, e.oracle, e.bound, e.radius, flush, j.error, j.fraction, j.ulps, e.allowed};
    return m;
  };
  for (std::int64_t k = 0; k < expected.size(); ++k) {
    accuracy::Element e = annex.at(k);
    const double x = real_of(a[k]);
    accuracy::Judgement j = accuracy::judge(expected.dtype(), e, x);
    double flush = 0;
    if (!j.conforms && o.flush_subnormals && o.flush_margin && std::isfinite(x)) {
      // [Acc.hyp.ftz] F >= 0 only widens R: an element within R conforms either way, so F is computed
      // only for those that are not
      flush = o.flush_margin(k);
      e.radius = accuracy::widened_radius(e.radius, flush);
      j = accuracy::judge(expected.dtype(), e, x);
    }
    const double fraction = std::isnan(j.fraction) ? INFINITY : j.fraction;
    if (fraction > worst) worst = fraction, r.worst = note(k, e, j, flush);  // [Acc.report] the largest fraction of R
    if (j.conforms) continue;
    ++r.mismatches;
    if (r.offsets.size() < o.max_offsets) r.offsets.push_back(k);
    if (r.first.size() < o.max_listed) r.first.push_back(note(k, e, j, flush));
  }
}

}  // namespace

std::string AccuracyNote::allowed_text() const {
  std::string out;
  auto add = [&](bool b, const char* what) {
    if (b) out += (out.empty() ? "" : ", ") + std::string(what);
  };
  add(allowed & accuracy::kFinite, "finite");
  add(allowed & accuracy::kPosInf, "+inf");
  add(allowed & accuracy::kNegInf, "-inf");
  add(allowed & accuracy::kNan, "nan");
  return out;
}

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
  if (expected.annex && info(expected.dtype()).is_float) {  // [Acc.verdict] a computed output
    dispatch(expected.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) judge_computed<T>(expected, actual, o, r);
    });
    r.conforms = r.mismatches == 0;
    return r;
  }
  // [Check.nan-payload.free] the reference's tensor says its NaNs are arithmetic (conformance passes the
  // reference as `actual` when the case's value is judged as an implementation's: either side)
  const bool nan_free = expected.nan_payload_free || actual.nan_payload_free;
  dispatch(expected.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto e = expected.values<T>();
    auto a = actual.values<T>();
    for (std::int64_t k = 0; k < expected.size(); ++k) {
      const bool ok = conforms<T>(e[k], a[k], o, nan_free);
      if constexpr (is_float_v<T>)
        if (!nan_free && is_nan(e[k]) && is_nan(a[k]) && bit_pattern(e[k]) != bit_pattern(a[k])) {
          ++r.nan_payload_only;  // [Check.nan-payload.any] a payload-only difference, counted in both modes
          if (ok && r.nan_payload_first.size() < o.max_listed)  // listed as a note when it conforms
            r.nan_payload_first.push_back({k, index_of(expected.shape(), k), element_text(expected, k),
                                           element_text(actual, k), element_bits_text(expected, k),
                                           element_bits_text(actual, k), std::nullopt});
        }
      if (ok) continue;
      ++r.mismatches;
      if (r.offsets.size() < o.max_offsets) r.offsets.push_back(k);
      if (r.first.size() < o.max_listed)
        r.first.push_back({k, index_of(expected.shape(), k), element_text(expected, k), element_text(actual, k),
                           element_bits_text(expected, k), element_bits_text(actual, k), std::nullopt});
    }
  });
  r.conforms = r.mismatches == 0;
  return r;
}

}  // namespace sonnx::compare
