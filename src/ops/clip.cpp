// spec/ops/clip.md — read this file side by side with its sections.
// Named steps: check the types and the bounds -> the bounds as values of T -> the values.
//
// The definition, once: the bounds lo and hi of a node — the float attributes converted to T
// (versions 1 and 6: [Clip.bounds.attributes], [Clip.bounds.convert]), the optional rank-0 inputs
// (11 and later: [Clip.bounds.inputs]), the type's least and greatest finite values when absent
// ([Clip.bounds.default]) — and, for every index i, Y[i] = min_of(max_of(X[i], lo), hi)
// ([Clip.float.formula], [Clip.int.formula]): the max order's selection, then the min order's
// ([Common.order.max], [Common.order.min]), X first. `evaluate` applies it element by element;
// `decide` applies it to one index and says which clause decided the value.
#include "ops/clip.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

std::vector<DType> clip_types(int version) {
  // [Clip.v1] [Clip.v6] [Clip.v11] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 12)  // [Clip.v12] the eight integer types join
    t.insert(t.end(), {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Uint8, DType::Uint16,
                       DType::Uint32, DType::Uint64});
  if (version >= 13) t.push_back(DType::BFloat16);  // [Clip.v13]
  return t;
}

std::uint64_t clip_convert_bound(float value, DType t) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(value);
  switch (t) {
    case DType::Float: return u;  // exact
    case DType::Double: {
      // [Clip.bounds.convert] exact: a widening; a NaN keeps its sign and payload (shifted into the
      // top of the longer fraction) and is quiet, written out here rather than left to the hardware.
      if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return (std::uint64_t{u >> 31} << 63) | 0x7FF8000000000000ull | (std::uint64_t{u & 0x3FFFFFu} << 29);
      return std::bit_cast<std::uint64_t>(static_cast<double>(value));
    }
    case DType::Float16: {
      // [Clip.bounds.convert] binary32 to binary16, rounded to nearest, ties to even.
      const std::uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
      if (a > 0x7F800000u) return sign | 0x7E00u | ((a >> 13) & 0x3FFu);  // NaN: sign, leading payload, quiet
      if (a >= 0x477FF000u) return sign | 0x7C00u;  // |x| >= 65520 (the midpoint above 65504, odd): +-Inf
      if (a < 0x38800000u) {  // |x| < 2^-14: a subnormal (or zero) of binary16, in units of 2^-24
        const std::uint32_t e = a >> 23;
        if (e < 102) return sign;  // |x| < 2^-25: rounds to 0 (2^-25 itself: a tie, to the even 0)
        const std::uint32_t m = (a & 0x7FFFFFu) | 0x800000u, s = 126 - e;  // |x| = m * 2^(e - 150)
        std::uint32_t q = m >> s;
        const std::uint32_t rem = m & ((1u << s) - 1), half = 1u << (s - 1);
        q += (rem > half) || (rem == half && (q & 1u));
        return sign | q;  // q = 0x400 is the least normal, correctly
      }
      std::uint32_t h = ((((a >> 23) - 112) << 10) | ((a >> 13) & 0x3FFu));
      const std::uint32_t rem = a & 0x1FFFu;
      h += (rem > 0x1000u) || (rem == 0x1000u && (h & 1u));  // a carry moves to the next binade
      return sign | h;
    }
    default: return 0;  // no other type has a float attribute: versions 1 and 6 take float16, float, double
  }
}

namespace {

// Step 1: [Clip.err.dtype] T accepted by the version; [Clip.err.type] a bound input has X's type;
// [Clip.err.bound-rank] a bound input is rank 0.
void check_inputs(int version, const Tensor& X, const ClipBounds& b) {
  const auto allowed = clip_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())
    refuse("Clip.err.dtype", "Clip-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
  for (const auto& [bound, what] : {std::pair{b.min_input, "min"}, std::pair{b.max_input, "max"}}) {
    if (!bound) continue;
    if (bound->dtype() != X.dtype())
      refuse("Clip.err.type", "Clip-{}: input '{}' is {} but X is {}; the bounds have X's type (no implicit conversion)",
             version, what, name(bound->dtype()), name(X.dtype()));
    if (bound->rank() != 0)
      refuse("Clip.err.bound-rank", "Clip-{}: input '{}' has shape {}; a bound is a scalar (rank 0)", version, what,
             to_string(bound->shape()));
  }
}

// The least and greatest finite values of T (numeric_limits<T>::lowest() and max()).
template <class T> T least_finite() {
  if constexpr (is_float_v<T>) return std::bit_cast<T>(static_cast<bits_t<T>>(bits_of(lowest<T>()) - 1));
  else return lowest<T>();
}
template <class T> T greatest_finite() {
  if constexpr (is_float_v<T>) return std::bit_cast<T>(static_cast<bits_t<T>>(bits_of(highest<T>()) - 1));
  else return highest<T>();
}

// Step 2: the bounds as values of T, and whether each took its default.
template <class T> struct Bounds {
  T lo, hi;
  bool lo_default, hi_default;
};
template <class T> T from_bits(std::uint64_t b) { return std::bit_cast<T>(static_cast<bits_t<T>>(b)); }

template <class T> Bounds<T> bounds_of(int version, const ClipBounds& b) {
  Bounds<T> out{};
  if (version < 11) {
    // [Clip.bounds.attributes] [Clip.bounds.convert] [Clip.bounds.default] the float attributes, their
    // default -FLT_MAX and FLT_MAX (numeric_limits<float>::lowest(), max()), converted to T
    constexpr float kLowest = std::numeric_limits<float>::lowest(), kMax = std::numeric_limits<float>::max();
    if constexpr (is_float_v<T>) {
      out.lo = from_bits<T>(clip_convert_bound(b.min_attribute.value_or(kLowest), dtype_of<T>()));
      out.hi = from_bits<T>(clip_convert_bound(b.max_attribute.value_or(kMax), dtype_of<T>()));
    }
    out.lo_default = !b.min_attribute, out.hi_default = !b.max_attribute;
    return out;
  }
  // [Clip.bounds.inputs] the rank-0 inputs; [Clip.bounds.default] absent: numeric_limits<T>::lowest(), max()
  out.lo = b.min_input ? b.min_input->values<T>()[0] : least_finite<T>();
  out.hi = b.max_input ? b.max_input->values<T>()[0] : greatest_finite<T>();
  out.lo_default = !b.min_input, out.hi_default = !b.max_input;
  return out;
}

// [Clip.float.formula] [Clip.int.formula] [Clip.shape] For every index i of Y (X's shape):
//   Y[i] = min_of(max_of(X[i], lo), hi)
// X and Y are walked as their contiguous storage, block by block: within a block, y = max_of(x, lo)
// for every element, then y = min_of(y, hi) — the same two steps in the same order for each element,
// as two plain loops the compiler vectorises (one loop of both selections is beyond its pattern
// matching), while the block stays in the first-level cache.
template <class T> void evaluate(const Tensor& X, T lo, T hi, Tensor& Y) {
  constexpr std::int64_t kBlock = 2048;
  const T* const x = X.values<T>().data();
  T* const y = Y.values<T>().data();
  for (std::int64_t b = 0, n = X.size(); b < n; b += kBlock) {
    const std::int64_t m = std::min(kBlock, n - b);
    T* const yb = y + b;
    const T* const xb = x + b;
    for (std::int64_t t = 0; t < m; ++t) yb[t] = max_of(xb[t], lo);
    for (std::int64_t t = 0; t < m; ++t) yb[t] = min_of(yb[t], hi);
  }
}

// Every type, for the level chosen at run time (core/isa.hpp).
void evaluate_level(int version, const Tensor& X, const ClipBounds& b, Tensor& Y) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) {  // bool is refused by check_inputs
      const Bounds<T> bounds = bounds_of<T>(version, b);
      at_active_level([&] { evaluate<T>(X, bounds.lo, bounds.hi, Y); });
    }
  });
}

}  // namespace

Tensor clip(int version, const Tensor& X, const ClipBounds& b) {
  check_inputs(version, X, b);
  Tensor Y(X.dtype(), X.shape(), "Clip output Y", Fill::Unspecified);  // every Y[i] is written
  evaluate_level(version, X, b, Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// [Check.coverage] The situations of Clip's clauses.
enum Case {
  kWithin,      // X between the bounds: Y = X
  kBelow,       // X below lo: Y = lo
  kAbove,       // X above hi: Y = hi
  kCrossed,     // lo above hi: Y = hi
  kNanX,        // X is a NaN
  kNanLo,       // lo is the first NaN
  kNanHi,       // hi is the first NaN
  kZeroLo,      // X = -0 against lo = +0: +0
  kZeroHi,      // X = +0 against hi = -0: -0
  kDefault,     // the value is a default bound
  kSubnormal,   // X is a subnormal, kept
  kExtreme,     // integers: X is the type's least or greatest value
  kCases
};
Situation situation(Case c, bool is_float) {
  const char* formula = is_float ? "Clip.float.formula" : "Clip.int.formula";
  switch (c) {
    case kWithin: return {formula, ""};
    case kBelow: return {formula, "below the lower bound"};
    case kAbove: return {formula, "above the upper bound"};
    case kCrossed: return {"Clip.bounds.crossed", ""};
    case kNanX: return {"Clip.float.nan", "X is a NaN"};
    case kNanLo: return {"Clip.float.nan", "the lower bound is a NaN"};
    case kNanHi: return {"Clip.float.nan", "the upper bound is a NaN"};
    case kZeroLo: return {"Clip.float.zero", "-0 against a lower bound +0"};
    case kZeroHi: return {"Clip.float.zero", "+0 against an upper bound -0"};
    case kDefault: return {"Clip.bounds.default", "the value is a default bound"};
    case kSubnormal: return {formula, "a subnormal kept"};
    case kExtreme: return {formula, "the type's extremes"};
    default: return {formula, "?"};
  }
}

// What decided Y = min_of(max_of(x, lo), hi), case by case.
template <class T> std::vector<Case> classify(T x, const Bounds<T>& b) {
  std::vector<Case> out;
  const T y = min_of(max_of(x, b.lo), b.hi);
  // [Clip.float.nan] the first NaN of (X[i], lo, hi), in the order of the fold
  if (is_nan(x)) return {kNanX};
  if (is_nan(b.lo)) return {kNanLo};
  if (is_nan(b.hi)) return {kNanHi};
  const bool crossed = greater(b.lo, b.hi);  // [Clip.bounds.crossed] lo above hi: every non-NaN X gives hi
  if (crossed) out.push_back(kCrossed);
  if (bits_of(y) == bits_of(x)) {
    out.push_back(kWithin);
    if constexpr (is_float_v<T>) {
      if (is_subnormal(x)) out.push_back(kSubnormal);
    }
  } else if (bits_of(y) == bits_of(b.lo) && !crossed) {
    out.push_back(kBelow);
    if ((b.lo_default)) out.push_back(kDefault);
  } else {
    if (!crossed) out.push_back(kAbove);
    if (b.hi_default) out.push_back(kDefault);
  }
  if constexpr (is_float_v<T>) {  // [Clip.float.zero] -0 below +0 in both selections
    const auto pz = bits_of(zero<T>()), nz = bits_of(negative_zero<T>());
    if (bits_of(x) == nz && bits_of(b.lo) == pz && !crossed) out.push_back(kZeroLo);
    if (bits_of(x) == pz && bits_of(b.hi) == nz) out.push_back(kZeroHi);
  } else if constexpr (!is_bool_v<T>) {
    if (x == lowest<T>() || x == highest<T>()) out.push_back(kExtreme);
  }
  return out;
}

// Small values of T: k as an element of T (float16 and bfloat16 by their patterns).
template <class T> T small(int k) {
  if constexpr (std::is_same_v<T, float16>) return *exact_float16(k);
  else if constexpr (std::is_same_v<T, bfloat16>) return *exact_bfloat16(k);
  else return static_cast<T>(k);
}

// The set of element i: X[i], then the bound inputs present (versions 11 and later), in that order.
struct Layout {
  bool lo_member, hi_member;
  std::int64_t size() const { return 1 + lo_member + hi_member; }
};
Layout layout(int version, const ClipBounds& b) { return {version >= 11 && b.min_input, version >= 11 && b.max_input}; }

// The printed form of one value of T (core/format).
template <class T> std::string element_text_of(T value) {
  Tensor t(dtype_of<T>(), Shape{}, "a bound");
  t.values<T>()[0] = value;
  return element_text(t, 0);
}

std::string bound_text(const char* what, bool is_default, bool attribute, const std::string& value) {
  return fmt::format("{} = {}{}", what, value, is_default ? " (default)" : attribute ? " (attribute)" : "");
}

}  // namespace

std::vector<Reach> reach_clip(int version, const NodeValues& v, const ClipBounds& cb, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const DType t = X.dtype();
  const bool is_float = info(t).is_float;
  const Layout l = layout(version, cb);
  return dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<Reach> out;
    if constexpr (!is_bool_v<T>) {
      const Bounds<T> now = bounds_of<T>(version, cb);
      // A bound member can take the witness's value when its source is Free; else it keeps its own.
      const bool w_lo = l.lo_member && sources.at(1) == Source::Free, w_hi = l.hi_member && sources.at(2) == Source::Free;
      const std::vector<std::string> names = v.input_names;
      for (int c = 0; c < kCases; ++c) {
        const auto k = static_cast<Case>(c);
        if constexpr (!is_float_v<T>) {  // NaN, signed zeros and subnormals are float situations
          if (k == kNanX || k == kNanLo || k == kNanHi || k == kZeroLo || k == kZeroHi || k == kSubnormal) continue;
        } else if (k == kExtreme) {  // the type's extremes are an integer situation
          continue;
        }
        // The witness (x, lo, hi): writable bounds set to values that make the case, the others as they are.
        Bounds<T> b = now;
        T x = small<T>(2);
        const auto set_lo = [&](T value) { if (w_lo) b.lo = value; };
        const auto set_hi = [&](T value) { if (w_hi) b.hi = value; };
        set_lo(small<T>(1)), set_hi(small<T>(3));
        switch (k) {
          case kWithin: if (!(w_lo && w_hi)) x = b.lo; break;
          case kBelow: x = lowest<T>(); break;
          case kAbove: x = highest<T>(); break;
          case kCrossed: set_lo(small<T>(3)), set_hi(small<T>(1)); break;
          case kNanX: if constexpr (is_float_v<T>) x = from_bits<T>(bits_of(negative_zero<T>()) | bits_of(highest<T>()) | 2); break;
          case kNanLo: if constexpr (is_float_v<T>) set_lo(from_bits<T>(bits_of(highest<T>()) | 1)); break;
          case kNanHi: if constexpr (is_float_v<T>) set_hi(from_bits<T>(bits_of(highest<T>()) | 1)); break;
          case kZeroLo: if constexpr (is_float_v<T>) x = negative_zero<T>(), set_lo(zero<T>()); break;
          case kZeroHi: if constexpr (is_float_v<T>) x = zero<T>(), set_lo(dual(small<T>(1))), set_hi(negative_zero<T>()); break;
          case kDefault: x = now.lo_default ? lowest<T>() : highest<T>(); break;
          case kSubnormal: if constexpr (is_float_v<T>) x = from_bits<T>(1), set_lo(dual(small<T>(1))); break;
          case kExtreme: x = lowest<T>(); break;
          default: break;
        }
        const auto got = classify<T>(x, b);
        const Situation s = situation(k, is_float);
        if (k == kDefault && !now.lo_default && !now.hi_default) {
          out.push_back(reach_by_shape(s, false, "both bounds are given: neither takes its default"));
          continue;
        }
        if (std::find(got.begin(), got.end(), k) == got.end()) {
          out.push_back(reach_by_shape(s, false,
                                       fmt::format("the bounds are fixed by the model or the given inputs ({}, {})",
                                                   bound_text("lo", now.lo_default, version < 11, element_text_of(now.lo)),
                                                   bound_text("hi", now.hi_default, version < 11, element_text_of(now.hi)))));
          continue;
        }
        std::vector<std::uint64_t> bits = {bits_of(x)};
        if (l.lo_member) bits.push_back(bits_of(b.lo));
        if (l.hi_member) bits.push_back(bits_of(b.hi));
        // Only X, and the bounds the witness changes, must be writable.
        std::vector<Source> need = {sources[0]};
        if (l.lo_member) need.push_back(bits_of(b.lo) == bits_of(now.lo) ? Source::Free : sources[1]);
        if (l.hi_member) need.push_back(bits_of(b.hi) == bits_of(now.hi) ? Source::Free : sources[2]);
        out.push_back(reach_by_given(s, bits, l.size(), need, names));
      }
    }
    return out;
  });
}

Decision decide_clip(int version, const NodeValues& v, const ClipBounds& cb, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const DType t = X.dtype();
  const bool is_float = info(t).is_float;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  const Layout l = layout(version, cb);
  Decision d;
  d.set.size = l.size();
  d.set.member = [offset, l](std::int64_t k) {
    if (k == 0) return Member{0, offset};
    return Member{k == 1 && l.lo_member ? std::size_t{1} : std::size_t{2}, 0};
  };
  d.set.name = "X at the same index, then the bound inputs: min_of(max_of(X[i], lo), hi)";
  d.selection = true;
  const std::string y = output_name(v, i), x = member_name(v, d.set.member(0)), value = element_text(X, offset);
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) {
      const Bounds<T> b = bounds_of<T>(version, cb);
      const T xv = X.values<T>()[offset];
      const T yv = min_of(max_of(xv, b.lo), b.hi);
      d.parameters = fmt::format("{}, {}", bound_text("min", b.lo_default, version < 11, element_text_of(b.lo)),
                                 bound_text("max", b.hi_default, version < 11, element_text_of(b.hi)));
      const auto cases = classify<T>(xv, b);
      for (Case c : cases) d.situations.push_back(situation(c, is_float));
      // The member whose bits Y has: X, else the lower bound's, else the upper bound's (first in the fold's order).
      if (bits_of(yv) == bits_of(xv)) d.chosen = 0;
      else if (bits_of(yv) == bits_of(b.lo) && l.lo_member) d.chosen = 1;
      else if (bits_of(yv) == bits_of(b.hi) && l.hi_member) d.chosen = l.lo_member ? 2 : 1;
      d.copies_chosen = d.chosen.has_value();
      const std::string lo = element_text_of(b.lo), hi = element_text_of(b.hi), yt = element_text_of(yv);
      switch (cases.front()) {
        case kNanX:
          d.clauses = {"Clip.float.nan", "Common.order.nan-payload"};
          d.reason = fmt::format("{} is NaN because {} = {} is a NaN: the first NaN of (X[i], lo, hi) is kept, bit for bit", y, x, value);
          break;
        case kNanLo:
        case kNanHi:
          d.clauses = {"Clip.float.nan", "Common.order.nan-payload"};
          d.reason = fmt::format("{} is NaN because the {} bound {} is the first NaN of (X[i], lo, hi) = ({}, {}, {}): it is kept, bit for bit",
                                 y, cases.front() == kNanLo ? "lower" : "upper", cases.front() == kNanLo ? lo : hi, value, lo, hi);
          break;
        case kCrossed:
          d.clauses = {"Clip.bounds.crossed", is_float ? "Clip.float.formula" : "Clip.int.formula"};
          d.reason = fmt::format("{} = {} because the lower bound {} is above the upper bound {}: min_of(max_of({}, {}), {}) is the upper bound",
                                 y, yt, lo, hi, value, lo, hi);
          break;
        default:
          d.clauses = {is_float ? "Clip.float.formula" : "Clip.int.formula"};
          if (std::find(cases.begin(), cases.end(), kZeroLo) != cases.end() ||
              std::find(cases.begin(), cases.end(), kZeroHi) != cases.end())
            d.clauses.insert(d.clauses.begin(), "Clip.float.zero");
          d.reason = cases.front() == kWithin
                         ? fmt::format("{} = {} because {} = {} lies between the bounds {} and {}: it is kept", y, yt, x, value, lo, hi)
                     : cases.front() == kBelow
                         ? fmt::format("{} = {} because {} = {} is below the lower bound {}: max_of gives the bound", y, yt, x, value, lo)
                         : fmt::format("{} = {} because {} = {} is above the upper bound {}: min_of gives the bound", y, yt, x, value, hi);
      }
      if (std::find(cases.begin(), cases.end(), kDefault) != cases.end()) d.clauses.push_back("Clip.bounds.default");
      if (version < 11) d.clauses.push_back("Clip.bounds.attributes");
      else if (l.lo_member || l.hi_member) d.clauses.push_back("Clip.bounds.inputs");
      d.clauses.push_back("Clip.shape");
      if (bits_of(Y.values<T>()[offset]) != bits_of(yv)) disagree(v, i);
    }
  });
  return d;
}

}  // namespace sonnx::ops
