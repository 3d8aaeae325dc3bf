// spec/ops/cast.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = conv_{T1→T2}(X[i]) ([Cast.formula]), conv chosen by the families of
// T1 and T2: the same type copies the bits ([Cast.same]); float to float rounds to nearest even
// ([Cast.float.float]); float to integer truncates toward zero and refuses a NaN, an infinity or a
// value outside T2 ([Cast.float.int], [Cast.err.range]); integer to integer keeps the low bits
// ([Cast.int.int]); integer to float rounds to nearest even ([Cast.int.float]); to bool: zero or not
// ([Cast.to-bool]); from bool: 0 or 1 ([Cast.from-bool]). `evaluate` and `decide` call the one
// element function `convert`.
#include "ops/cast.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

std::vector<DType> cast_types(int version) {
  // [Cast.v6] [Cast.v9] every numeric type of [Common.dtype.set] and bool (9 adds string: refused)
  std::vector<DType> t = {DType::Bool,   DType::Int8,   DType::Int16,  DType::Int32,   DType::Int64,
                          DType::Uint8,  DType::Uint16, DType::Uint32, DType::Uint64,  DType::Float16,
                          DType::Float,  DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Cast.v13]
  return t;
}

DType cast_target(int version, std::int64_t to) {
  if (to == 8)  // [Cast.err.string] TensorProto.STRING
    refuse("Cast.err.string", "Cast-{}: 'to' = 8 (string): conversions to and from strings are outside this specification",
           version);
  if (to >= 17 && to <= 26)  // [Cast.err.float8] FLOAT8E4M3FN .. FLOAT4E2M1, FLOAT8E8M0 and the 4- and 2-bit integers
    refuse("Cast.err.float8",
           "Cast-{}: 'to' = {} (a float8, float4 or 4/2-bit integer type): outside this specification", version, to);
  const auto t = dtype_from_onnx(static_cast<int>(to));
  const auto allowed = cast_types(version);
  if (!t || std::find(allowed.begin(), allowed.end(), *t) == allowed.end())  // [Cast.err.to]
    refuse("Cast.err.to", "Cast-{}: 'to' = {} is not a type this version converts to ({{{}}})", version, to,
           join_names(allowed));
  return *t;
}

namespace {

// ---- the exact value of an element, and its rounding ------------------------------------------------

// [Cast.float.float] [Cast.int.float] Rounds the exact value (-1)^sign · M · 2^E (M > 0) to the 16-bit
// binary format of precision p and maximum exponent emax (float16: 11, 15; bfloat16: 8, 127), to
// nearest, ties to even; beyond the greatest finite value: infinity with the sign. One rounding of the
// exact value: never through an intermediate format (a double rounding).
std::uint16_t round16(bool sign, std::uint64_t M, int E, int p, int emax) {
  const int emin = 1 - emax, bias = emax;
  const std::uint16_t s = sign ? 0x8000 : 0;
  const int e = static_cast<int>(std::bit_width(M)) - 1 + E;  // 2^e <= M·2^E < 2^(e+1)
  int q = std::max(e, emin) - (p - 1);                       // the quantum's exponent
  std::uint64_t r;
  if (q <= E) {
    r = M << (E - q);  // exact
  } else {
    const int shift = q - E;
    if (shift > 64) {
      r = 0;  // below half the quantum: rounds to zero
    } else {
      r = shift == 64 ? 0 : M >> shift;
      const std::uint64_t rem = shift == 64 ? M : M & ((std::uint64_t{1} << shift) - 1);
      const std::uint64_t half = std::uint64_t{1} << (shift - 1);
      if (rem > half || (rem == half && (r & 1))) ++r;  // to nearest, ties to even
    }
  }
  if (r == (std::uint64_t{1} << p)) r >>= 1, ++q;  // the rounding carried into the next binade
  if (r < (std::uint64_t{1} << (p - 1))) return static_cast<std::uint16_t>(s | r);  // subnormal or zero
  const int exponent = q + p - 1;
  if (exponent > emax) return static_cast<std::uint16_t>(s | (((1u << (15 - (p - 1))) - 1) << (p - 1)));  // infinity
  return static_cast<std::uint16_t>(s | (static_cast<std::uint64_t>(exponent + bias) << (p - 1)) |
                                    (r - (std::uint64_t{1} << (p - 1))));
}

template <class D> constexpr int precision_of() { return std::is_same_v<D, float16> ? 11 : 8; }
template <class D> constexpr int emax_of() { return std::is_same_v<D, float16> ? 15 : 127; }

// [Cast.float.nan] A NaN to a float type: a NaN with X's sign, the top bits of X's payload, the quiet
// bit set.
template <class D> D nan_from(bool sign, std::uint64_t payload52) {
  if constexpr (std::is_same_v<D, double>) {
    return std::bit_cast<double>((sign ? 0x8000000000000000ull : 0) | 0x7FF8000000000000ull | payload52);
  } else if constexpr (std::is_same_v<D, float>) {
    return std::bit_cast<float>(static_cast<std::uint32_t>((sign ? 0x80000000u : 0) | 0x7FC00000u | (payload52 >> 29)));
  } else {
    constexpr int p = precision_of<D>();
    const std::uint64_t fraction = payload52 >> (53 - p);
    const std::uint16_t exp_all = static_cast<std::uint16_t>(((1u << (16 - p)) - 1) << (p - 1));
    return D{static_cast<std::uint16_t>((sign ? 0x8000 : 0) | exp_all | (1u << (p - 2)) | fraction)};
  }
}

// A float value widened exactly to double, its NaN payload kept (to_double of float16 drops it).
template <class S> double exact_double(S x) {
  if constexpr (std::is_same_v<S, double>) return x;
  else if constexpr (std::is_same_v<S, float>) return static_cast<double>(x);
  else {
    constexpr int p = precision_of<S>();
    const std::uint16_t b = bits(x);
    const std::uint16_t exp_all = static_cast<std::uint16_t>(((1u << (16 - p)) - 1) << (p - 1));
    if ((b & exp_all) == exp_all && (b & ((1u << (p - 1)) - 1)) != 0)
      return nan_from<double>(b >> 15, static_cast<std::uint64_t>(b & ((1u << (p - 1)) - 1)) << (53 - p));
    return to_double(x);
  }
}

// The exact double x to the float type D ([Cast.float.float]).
template <class D> D round_double(double x) {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(x);
  const bool sign = b >> 63;
  if (std::isnan(x)) return nan_from<D>(sign, b & 0x0007FFFFFFFFFFFFull);  // [Cast.float.nan]
  if constexpr (std::is_same_v<D, double>) return x;
  else if constexpr (std::is_same_v<D, float>) return static_cast<float>(x);  // IEEE 754 RNE, overflow to Inf
  else {
    if (std::isinf(x)) return D{static_cast<std::uint16_t>((sign ? 0x8000 : 0) | (((1u << (16 - precision_of<D>())) - 1)
                                                                                   << (precision_of<D>() - 1)))};
    if (x == 0) return D{static_cast<std::uint16_t>(sign ? 0x8000 : 0)};  // [Cast.float.float] signed zeros kept
    const int biased = static_cast<int>((b >> 52) & 0x7FF);
    std::uint64_t M = b & 0x000FFFFFFFFFFFFFull;
    int E = biased - 1075;
    if (biased == 0) E = -1074;
    else M |= std::uint64_t{1} << 52;
    return D{round16(sign, M, E, precision_of<D>(), emax_of<D>())};
  }
}

template <class D> D round_integer(bool negative, std::uint64_t magnitude) {
  if (magnitude == 0) return D{};  // +0
  if constexpr (std::is_same_v<D, float> || std::is_same_v<D, double>) {
    const D m = static_cast<D>(magnitude);  // IEEE 754 RNE of the integer (one rounding)
    return negative ? -m : m;
  } else {
    return D{round16(negative, magnitude, 0, precision_of<D>(), emax_of<D>())};
  }
}

// The outcome of one element: its value, or the refusal of [Cast.err.range].
template <class D> struct Converted {
  D value{};
  bool in_range = true;
};

// [Cast.formula] Y[i] = conv(X[i]), for X of type S and Y of type D.
template <class S, class D> Converted<D> convert(S x) {
  Converted<D> out;
  if constexpr (std::is_same_v<S, D>) {
    out.value = x;  // [Cast.same] the bits, NaN payloads and signed zeros included
  } else if constexpr (is_bool_v<S>) {
    // [Cast.from-bool] False -> 0, True -> 1
    if constexpr (is_float_v<D>) out.value = round_integer<D>(false, x ? 1 : 0);
    else out.value = static_cast<D>(x ? 1 : 0);
  } else if constexpr (is_bool_v<D>) {
    // [Cast.to-bool] ±0 (integers: 0) -> False; everything else, NaN included -> True
    if constexpr (is_float_v<S>) out.value = exact_double(x) != 0.0;  // NaN != 0 holds
    else out.value = x != 0;
  } else if constexpr (is_float_v<S> && is_float_v<D>) {
    out.value = round_double<D>(exact_double(x));  // [Cast.float.float]
  } else if constexpr (is_float_v<S>) {
    // [Cast.float.int] truncation toward zero; [Cast.err.range] NaN, ±Inf, or outside D
    const double t = std::trunc(exact_double(x));
    constexpr int n = static_cast<int>(sizeof(D) * 8);
    const double lo = std::is_signed_v<D> ? -std::ldexp(1.0, n - 1) : 0.0;
    const double hi = std::ldexp(1.0, std::is_signed_v<D> ? n - 1 : n);  // excluded
    if (!(t >= lo && t < hi)) out.in_range = false;
    else out.value = static_cast<D>(t);
  } else if constexpr (is_float_v<D>) {
    // [Cast.int.float] the integer rounded to nearest even, beyond the greatest finite value: ±Inf
    const bool negative = std::is_signed_v<S> && x < 0;
    const std::uint64_t magnitude =
        negative ? std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) : static_cast<std::uint64_t>(x);
    out.value = round_integer<D>(negative, magnitude);
  } else {
    // [Cast.int.int] the low bits of the two's complement representation (modulo 2^n)
    out.value = static_cast<D>(x);  // C++20: integral conversions are modulo 2^n
  }
  return out;
}

void check_input(int version, const Tensor& X) {
  const auto allowed = cast_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Cast.err.dtype]
    refuse("Cast.err.dtype", "Cast-{} does not accept X of type {} (T1 in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
}

[[noreturn]] void out_of_range(const Tensor& X, std::int64_t offset, DType to) {
  const auto index = index_of(X.shape(), offset);
  refuse("Cast.err.range", "Cast: X{} = {} has no value in {}: NaN, an infinity, or outside {}'s range after "
         "truncation (ONNX: undefined)", to_string(index), element_text(X, offset), name(to), name(to));
}

// [Cast.formula] [Cast.shape] Y has X's shape; X and Y are walked as their contiguous storage.
template <class S, class D> void evaluate(const Tensor& X, Tensor& Y) {
  const S* const x = X.values<S>().data();
  D* const y = Y.values<D>().data();
  for (std::int64_t t = 0, n = X.size(); t < n; ++t) {
    const Converted<D> c = convert<S, D>(x[t]);
    if (!c.in_range) out_of_range(X, t, Y.dtype());  // [Cast.err.range]
    y[t] = c.value;
  }
}

template <class F> decltype(auto) dispatch2(DType s, DType d, F&& f) {
  return dispatch(s, [&](auto ts) {
    return dispatch(d, [&](auto td) { return f(ts, td); });
  });
}

// The clause that decides conv for the pair of types, and for X[i]'s value.
const char* clause_of(DType s, DType d) {
  const auto& a = info(s);
  const auto& b = info(d);
  if (s == d) return "Cast.same";
  if (s == DType::Bool) return "Cast.from-bool";
  if (d == DType::Bool) return "Cast.to-bool";
  if (a.is_float && b.is_float) return "Cast.float.float";
  if (a.is_float) return "Cast.float.int";
  if (b.is_float) return "Cast.int.float";
  return "Cast.int.int";
}

}  // namespace

Tensor cast(int version, const Tensor& X, DType to) {
  check_input(version, X);
  Tensor Y(to, X.shape(), "Cast output Y", Fill::Unspecified);  // every Y[i] is written
  dispatch2(X.dtype(), to, [&](auto ts, auto td) {
    evaluate<typename decltype(ts)::type, typename decltype(td)::type>(X, Y);
  });
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

std::vector<Reach> reach_cast(int, const NodeValues& v, const std::vector<Source>& sources) {
  const DType s = v.inputs[0]->dtype(), d = v.output->dtype();
  return {reach_by_pattern({clause_of(s, d), ""}, Pattern::Plain, 1, s, {sources[0]}, {v.input_names[0]})};
}

Decision decide_cast(int, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  Decision d;
  d.set.name = "X at the same index: conv(X[i])";
  d.set.size = 1;
  d.set.member = [offset](std::int64_t) { return Member{0, offset}; };
  d.chosen = 0;
  d.copies_chosen = X.dtype() == Y.dtype();
  d.selection = X.dtype() == Y.dtype();
  const char* clause = clause_of(X.dtype(), Y.dtype());
  d.clauses = {clause, "Cast.shape"};
  d.situations = {{clause, ""}};
  const std::string y = output_name(v, i), x = member_name(v, d.set.member(0));
  d.reason = fmt::format("{} = {} because {} = {} converted from {} to {} ({})", y, element_text(Y, offset), x,
                         element_text(X, offset), name(X.dtype()), name(Y.dtype()), clause);
  const bool agrees = dispatch2(X.dtype(), Y.dtype(), [&](auto ts, auto td) {
    using S = typename decltype(ts)::type;
    using D = typename decltype(td)::type;
    const Converted<D> c = convert<S, D>(X.values<S>()[offset]);
    return c.in_range && bits_of(c.value) == bits_of(Y.values<D>()[offset]);
  });
  if (!agrees) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
