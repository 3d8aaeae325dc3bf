// The element-wise binary map of Add, Sub, Mul and Div (ops/arith.hpp). Read it with
// spec/common/arithmetic.md and spec/ops/{add,sub,mul,div}.md side by side: each operator's file
// passes its own clause IDs, which the messages and the decisions cite.
#include "ops/arith.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/accuracy.hpp"
#include "core/broadcast.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

std::vector<DType> arith_types(int version) {
  // [Add.v1] [Sub.v1] [Mul.v1] [Div.v1] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 6)  // [Add.v6] [Sub.v6] [Mul.v6] [Div.v6] the 32- and 64-bit integers
    t.insert(t.end(), {DType::Int32, DType::Int64, DType::Uint32, DType::Uint64});
  if (version >= 13) t.push_back(DType::BFloat16);  // [Add.v13] [Sub.v13] [Mul.v13] [Div.v13]
  if (version >= 14)  // [Add.v14] [Sub.v14] [Mul.v14] [Div.v14] the 8- and 16-bit integers
    t.insert(t.end(), {DType::Int8, DType::Int16, DType::Uint8, DType::Uint16});
  return t;
}

namespace {

const char* symbol(BinaryOp k) {
  switch (k) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    default: return "/";
  }
}

// ---- the shapes --------------------------------------------------------------------------------

// Step 1: the checks of the Error conditions table that need no element: one T for both inputs,
// accepted by the version.
void check_types(const ArithClauses& c, int version, const Tensor& A, const Tensor& B) {
  if (A.dtype() != B.dtype())
    refuse(c.err_type, "{}-{}: A is {} but B is {}; both inputs must have the same type (no implicit conversion)", c.op,
           version, name(A.dtype()), name(B.dtype()));
  const auto allowed = arith_types(version);
  if (std::find(allowed.begin(), allowed.end(), A.dtype()) == allowed.end())
    refuse(c.err_dtype, "{}-{} does not accept {} (T in {{{}}})", c.op, version, name(A.dtype()), join_names(allowed));
}

using Geometry = BinaryMap;

// [Common.arith.legacy] versions 1 and 6: C has A's shape; B is A's shape (broadcast 0), one element
// of rank <= rA, or a contiguous run of A's dimensions from s = axis (suffix matching s = rA - rB
// when axis is absent), no size-1 dimension stretched.
Geometry legacy_geometry(const BinaryClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& l) {
  Geometry g;
  g.shape = A.shape();
  g.a = row_major_strides(A.shape());
  const auto rA = A.rank(), rB = B.rank();
  if (l.broadcast == 0) {
    if (B.shape() != A.shape())
      refuse(c.err_legacy, "{}-{}: A has shape {} but B has shape {}, and broadcast is 0 [Common.arith.legacy]", c.op,
             version, to_string(A.shape()), to_string(B.shape()));
    g.b = row_major_strides(B.shape());
    return g;
  }
  g.b.assign(static_cast<std::size_t>(rA), 0);
  g.broadcast = B.shape() != A.shape();
  if (B.size() == 1 && rB <= rA) return g;  // case 2: one element, read for every index
  const std::int64_t s = l.axis ? *l.axis : rA - rB;  // case 3: from axis, or suffix matching
  const Strides own = row_major_strides(B.shape());
  bool fits = s >= 0 && s + rB <= rA;
  for (std::int64_t k = 0; fits && k < rB; ++k) fits = B.shape()[k] == A.shape()[s + k];
  if (!fits)
    refuse(c.err_legacy, "{}-{}: B of shape {} does not match A of shape {} {} (broadcast 1; no dimension is stretched) "
           "[Common.arith.legacy]", c.op, version, to_string(B.shape()), to_string(A.shape()),
           l.axis ? fmt::format("from axis {}", *l.axis) : std::string("at its last dimensions (no axis: suffix matching)"));
  for (std::int64_t k = 0; k < rB; ++k) g.b[static_cast<std::size_t>(s + k)] = own[static_cast<std::size_t>(k)];
  return g;
}

// [Common.arith.map] versions 7 and later: the multidirectional broadcast of Max and Min
// ([Common.broadcast.rank], [Common.broadcast.dims], [Common.broadcast.map]).
}  // namespace

BinaryMap binary_map(const BinaryClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& l) {
  if (version < 7) return legacy_geometry(c, version, A, B, l);
  auto s = broadcast_shape({A.shape(), B.shape()});
  if (!s)
    refuse(c.err_broadcast, "{}-{}: the input shapes are not broadcastable (A {}, B {}) [Common.broadcast.error]", c.op,
           version, to_string(A.shape()), to_string(B.shape()));
  Geometry g;
  g.shape = *s;
  g.a = broadcast_strides(A.shape(), g.shape);
  g.b = broadcast_strides(B.shape(), g.shape);
  g.broadcast = A.shape() != g.shape || B.shape() != g.shape;
  return g;
}

namespace {

Geometry geometry(const ArithClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& l) {
  return binary_map({c.op, c.err_broadcast, c.err_legacy}, version, A, B, l);
}

// ---- one operation -------------------------------------------------------------------------------

// float16 and bfloat16 widened to float: exact (every value of the two is a float).
inline float widen(float16 h) {
  // The fraction and exponent fields shifted into float's, scaled by 2^112 (exact: the rebias of the
  // exponent, subnormals included); an infinity or NaN gets float's all-ones exponent.
  const std::uint32_t h32 = bits(h);
  const std::uint32_t sign = (h32 & 0x8000u) << 16;
  float o = std::bit_cast<float>((h32 & 0x7FFFu) << 13) * 0x1p112f;
  std::uint32_t u = std::bit_cast<std::uint32_t>(o);
  if (o >= 65536.0f) u |= 0x7F800000u;  // exponent 31: Inf or NaN
  return std::bit_cast<float>(u | sign);
}
inline float widen(bfloat16 b) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits(b)) << 16); }

// float rounded once to float16 / bfloat16, to nearest, ties to even; a NaN gives the canonical quiet
// NaN ([Common.arith.nan]).
inline float16 narrow_float16(float f) {
  // Scaling by 2^112 then 2^-110 saturates what overflows to infinity; adding 2^(e+13) for the
  // float16 exponent e of f (at least the subnormal one) makes float's own rounding round f at
  // float16's last place, ties to even — the fraction and exponent are then read off the sum.
  float base = (std::fabs(f) * 0x1p112f) * 0x1p-110f;
  const std::uint32_t w = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t shl1_w = w + w;
  const std::uint32_t sign = w & 0x80000000u;
  std::uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = std::bit_cast<float>((bias >> 1) + 0x07800000u) + base;
  const std::uint32_t b = std::bit_cast<std::uint32_t>(base);
  const std::uint32_t nonsign = ((b >> 13) & 0x7C00u) + (b & 0x0FFFu);
  return float16{static_cast<std::uint16_t>(shl1_w > 0xFF000000u ? 0x7E00u : (sign >> 16) | nonsign)};  // a NaN: sign clear
}
inline bfloat16 narrow_bfloat16(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
  return bfloat16{static_cast<std::uint16_t>(nan ? 0x7FC0u : (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)};
}

// [Common.arith.rounding] [Common.arith.zero] the IEEE 754 operation of the machine (SSE/AVX,
// -ffp-contract=off): one rounding to nearest even, gradual underflow, the signs of zeros as IEEE fixes them
template <BinaryOp K, class X> inline X ieee(X a, X b) {
  if constexpr (K == BinaryOp::Add) return a + b;
  else if constexpr (K == BinaryOp::Sub) return a - b;
  else if constexpr (K == BinaryOp::Mul) return a * b;
  else return a / b;
}

// [Common.arith.nan] the canonical quiet NaN of T for a NaN result, else the result.
template <class X> inline X canonical(X r) {
  if constexpr (std::is_same_v<X, float>) return r != r ? std::bit_cast<float>(0x7FC00000u) : r;
  else return r != r ? std::bit_cast<double>(0x7FF8000000000000ull) : r;
}

// [Common.arith.rounding] One element, as `run` computes it: float and double by the native IEEE
// operation; float16 and bfloat16 widened exactly to float, the operation in float, rounded once to
// T — the same bits as fl_T(a ∘ b) by the double-rounding theorem (24 >= 2·11 + 2, 24 >= 2·8 + 2).
// [Common.arith.int] the integers modulo 2^w (unsigned arithmetic: wrap-around, never undefined);
// [Div.int.formula] truncation toward zero, min / -1 wrapping to min (the divisor is never 0 here:
// [Div.err.zero] was checked before).
template <BinaryOp K, class T> inline T apply(T a, T b) {
  if constexpr (std::is_same_v<T, float16>) {
    return narrow_float16(ieee<K>(widen(a), widen(b)));
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return narrow_bfloat16(ieee<K>(widen(a), widen(b)));
  } else if constexpr (std::is_floating_point_v<T>) {
    return canonical(ieee<K>(a, b));
  } else {
    using U = std::make_unsigned_t<T>;
    using W = std::conditional_t<(sizeof(T) < 4), std::uint32_t, U>;  // no promotion to a signed int
    if constexpr (K == BinaryOp::Add) return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) + static_cast<W>(static_cast<U>(b))));
    else if constexpr (K == BinaryOp::Sub) return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) - static_cast<W>(static_cast<U>(b))));
    else if constexpr (K == BinaryOp::Mul) return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
    else if constexpr (std::is_signed_v<T>) return b == T(-1) ? static_cast<T>(static_cast<U>(U{0} - static_cast<U>(a))) : static_cast<T>(a / b);
    else return static_cast<T>(a / b);
  }
}

// ---- evaluation ----------------------------------------------------------------------------------

// The formula, for every index i of C: C[i] = Ȧ[i] ∘ Ḃ[i]. C's indices are walked in runs
// (core/index.hpp); along a run A and B each advance by 1 or by 0 (a broadcast operand: one element
// for the whole run), four plain loops the compiler vectorises. Nothing is copied or materialised.
template <BinaryOp K, class T>
void evaluate(const Tensor& A, const Tensor& B, const Geometry& g, Tensor& C) {
  const T* const a0 = A.values<T>().data();
  const T* const b0 = B.values<T>().data();
  T* const c0 = C.values<T>().data();
  for (RunWalker run(g.shape, {g.a, g.b, row_major_strides(g.shape)}); !run.done(); run.next()) {
    const std::int64_t n = run.length();
    const T* const a = a0 + run.offset(0);
    const T* const b = b0 + run.offset(1);
    T* const y = c0 + run.offset(2);  // C's stride along a run is 1
    const bool sa = run.stride(0) != 0, sb = run.stride(1) != 0;
    // [Common.arith.map] C[i] = Ȧ[i] ∘ Ḃ[i], the operand of stride 0 held in a register
    if (sa && sb) {
      for (std::int64_t t = 0; t < n; ++t) y[t] = apply<K>(a[t], b[t]);
    } else if (sa) {
      const T v = b[0];
      for (std::int64_t t = 0; t < n; ++t) y[t] = apply<K>(a[t], v);
    } else if (sb) {
      const T u = a[0];
      for (std::int64_t t = 0; t < n; ++t) y[t] = apply<K>(u, b[t]);
    } else {
      const T r = apply<K>(a[0], b[0]);
      for (std::int64_t t = 0; t < n; ++t) y[t] = r;
    }
  }
}

template <class T> bool is_zero_int(T x) {
  if constexpr (is_int_v<T>) return x == T(0);
  else return false;
}

// [Div.err.zero] An integer Div whose Ḃ[i] is 0 at some index i of C: refused, naming the first such
// index in row-major order (an empty C reads no element of B).
void check_integer_zero(const ArithClauses& c, int version, const Tensor& A, const Tensor& B, const Geometry& g) {
  if (c.err_zero == nullptr || (!info(B.dtype()).is_signed_int && !info(B.dtype()).is_unsigned_int)) return;
  dispatch(B.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_int_v<T>) {
      const auto b = B.values<T>();
      if (std::none_of(b.begin(), b.end(), [](T x) { return x == T(0); })) return;
      const Strides y_map = row_major_strides(g.shape);
      for (RunWalker run(g.shape, {g.a, g.b, y_map}); !run.done(); run.next())
        for (std::int64_t t = 0; t < run.length(); ++t)
          if (is_zero_int(b[static_cast<std::size_t>(run.offset(1) + t * run.stride(1))])) {
            const std::int64_t yo = run.offset(2) + t, bo = run.offset(1) + t * run.stride(1), ao = run.offset(0) + t * run.stride(0);
            refuse(c.err_zero, "{}-{}: integer division by zero at C{}: B{} = 0 divides A{} = {}", c.op, version,
                   to_string(index_of(g.shape, yo)), to_string(index_of(B.shape(), bo)), to_string(index_of(A.shape(), ao)),
                   element_text(A, ao));
          }
    }
  });
}

template <BinaryOp K> void evaluate_level(const Tensor& A, const Tensor& B, const Geometry& g, Tensor& C) {
  dispatch(C.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) at_active_level([&] { evaluate<K, T>(A, B, g, C); });  // bool is refused by check_types
  });
}

}  // namespace

Tensor arith(const ArithClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy) {
  check_types(c, version, A, B);
  const Geometry g = geometry(c, version, A, B, legacy);
  if (g.shape.empty() || std::all_of(g.shape.begin(), g.shape.end(), [](std::int64_t d) { return d > 0; }))
    check_integer_zero(c, version, A, B, g);
  Tensor C(A.dtype(), g.shape, fmt::format("{} output C", c.op), Fill::Unspecified);  // every C[i] is written
  switch (c.kind) {
    case BinaryOp::Add: evaluate_level<BinaryOp::Add>(A, B, g, C); break;
    case BinaryOp::Sub: evaluate_level<BinaryOp::Sub>(A, B, g, C); break;
    case BinaryOp::Mul: evaluate_level<BinaryOp::Mul>(A, B, g, C); break;
    case BinaryOp::Div: evaluate_level<BinaryOp::Div>(A, B, g, C); break;
  }
  return C;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

double binary64(BinaryOp k, double a, double b) {
  switch (k) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    default: return a / b;
  }
}

// [Common.arith.rounding] The oracle's route: a ∘ b in binary64, rounded once to T ([Acc.run]'s
// rounding: the canonical quiet NaN for a NaN). Independent of `apply` for float16, bfloat16 and float.
std::uint64_t oracle_bits(DType t, BinaryOp k, double a, double b) {
  const double r = binary64(k, a, b);
  switch (t) {
    case DType::Float16: return accuracy::to_float16_bits(r);
    case DType::BFloat16: return accuracy::to_bfloat16_bits(r);
    case DType::Float: return std::isnan(r) ? 0x7FC00000u : std::bit_cast<std::uint32_t>(static_cast<float>(r));
    default: return std::isnan(r) ? 0x7FF8000000000000ull : std::bit_cast<std::uint64_t>(r);
  }
}

// The real value of bits of a float type.
double real_of_bits(DType t, std::uint64_t bits) {
  return dispatch(t, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      T x;
      const auto b = static_cast<bits_t<T>>(bits);
      std::memcpy(&x, &b, sizeof x);
      return real_value(x);
    } else {
      return 0;
    }
  });
}

// [Common.arith.int] [Div.int.formula] The exact integer result, and its representative modulo 2^w.
struct IntResult {
  std::uint64_t bits;
  bool wrapped;     // the exact result is outside T
  bool truncated;   // Div: a non-zero remainder with a negative quotient (trunc differs from floor)
};
IntResult int_result(DType t, BinaryOp k, __int128 a, __int128 b) {
  __int128 exact = 0;
  bool truncated = false;
  switch (k) {
    case BinaryOp::Add: exact = a + b; break;
    case BinaryOp::Sub: exact = a - b; break;
    case BinaryOp::Mul: {
      // |a·b| < 2^128 for 64-bit operands: computed on magnitudes, unsigned
      const unsigned __int128 m = static_cast<unsigned __int128>(a < 0 ? -a : a) * static_cast<unsigned __int128>(b < 0 ? -b : b);
      const bool negative = (a < 0) != (b < 0);
      const unsigned __int128 low = negative ? ~m + 1 : m;
      const int w = 8 * info(t).size;
      const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
      const std::uint64_t r = static_cast<std::uint64_t>(low) & mask;
      // wrapped: m beyond the range of T
      const bool is_signed = info(t).is_signed_int;
      const unsigned __int128 limit = is_signed ? (static_cast<unsigned __int128>(1) << (w - 1)) - (negative ? 0 : 1)
                                                : (negative ? 0 : (static_cast<unsigned __int128>(1) << w) - 1);
      return {r, m > limit, false};
    }
    default:
      exact = a / b;  // C++: toward zero
      truncated = a % b != 0 && ((a < 0) != (b < 0));
      break;
  }
  const int w = 8 * info(t).size;
  const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  const __int128 lo = info(t).is_signed_int ? -(static_cast<__int128>(1) << (w - 1)) : 0;
  const __int128 hi = info(t).is_signed_int ? (static_cast<__int128>(1) << (w - 1)) - 1 : (static_cast<__int128>(1) << w) - 1;
  return {static_cast<std::uint64_t>(exact) & mask, exact < lo || exact > hi, truncated};
}

__int128 int_value(const Tensor& x, std::int64_t offset) {
  return dispatch(x.dtype(), [&](auto tag) -> __int128 {
    using T = typename decltype(tag)::type;
    if constexpr (is_int_v<T>) return static_cast<__int128>(x.values<T>()[static_cast<std::size_t>(offset)]);
    else return 0;
  });
}

// The format facts of a float type: precision, least normal, greatest finite, least subnormal.
struct Facts {
  int p;
  double lambda, max, eta;
};
Facts facts_of(DType t) {
  switch (t) {
    case DType::Float16: return {11, 0x1p-14, 65504.0, 0x1p-24};
    case DType::BFloat16: return {8, 0x1p-126, 0x1.FEp127, 0x1p-133};
    case DType::Float: return {24, 0x1p-126, static_cast<double>(std::numeric_limits<float>::max()), 0x1p-149};
    default: return {53, 0x1p-1022, std::numeric_limits<double>::max(), 0x1p-1074};
  }
}

// A rounding tie: the exact a ∘ b lies halfway between two values of T. The exact result in binary128
// (sums and products of two elements of T are exact there unless their exponents are far apart,
// which makes no tie; a quotient is a tie only when exact, checked by its residual).
bool is_tie(DType t, BinaryOp k, double a, double b, double r) {
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(r)) return false;
  using Q = __float128;
  Q z;
  switch (k) {
    case BinaryOp::Add: z = static_cast<Q>(a) + static_cast<Q>(b); break;
    case BinaryOp::Sub: z = static_cast<Q>(a) - static_cast<Q>(b); break;
    case BinaryOp::Mul: z = static_cast<Q>(a) * static_cast<Q>(b); break;
    default: {
      if (b == 0) return false;
      z = static_cast<Q>(a) / static_cast<Q>(b);
      if (z * static_cast<Q>(b) != static_cast<Q>(a)) return false;  // not exact: no tie
    }
  }
  if (z == static_cast<Q>(r)) return false;
  const Q other = 2 * z - static_cast<Q>(r);  // the reflection of r through z
  const double o = static_cast<double>(other);
  if (static_cast<Q>(o) != other || o == r) return false;
  return oracle_bits(t, BinaryOp::Add, o, 0.0) == bits_in(t, o) && real_of_bits(t, bits_in(t, o)) == o;
}

// The situations of the clauses, each with its witness pair (values of T, as doubles) for the float
// types, or as integers.
struct FloatWitness {
  Situation situation;
  double a, b;
};
std::vector<FloatWitness> float_witnesses(const ArithClauses& c, DType t) {
  const Facts f = facts_of(t);
  const double inf = INFINITY, nan = NAN, u = std::ldexp(1.0, -f.p);
  std::vector<FloatWitness> w = {{{c.float_formula, ""}, 6, 4}};
  const Situation tie{"Common.arith.rounding", "a tie rounded to even"}, over{"Common.arith.rounding", "overflow to infinity"},
      sub{"Common.arith.rounding", "a subnormal result"}, nan_in{"Common.arith.nan", "a NaN operand"};
  switch (c.kind) {
    case BinaryOp::Add:
      w.insert(w.end(), {{tie, 1, u}, {over, f.max, f.max}, {sub, 1.5 * f.lambda, -f.lambda},
                         {{"Common.arith.zero", "-0 + -0 = -0"}, -0.0, -0.0},
                         {{"Common.arith.zero", "an exact cancellation gives +0"}, 3, -3}, {nan_in, nan, 1},
                         {{"Common.arith.nan", "+Inf + -Inf"}, inf, -inf}});
      break;
    case BinaryOp::Sub:
      w.insert(w.end(), {{tie, 1, u / 2}, {over, f.max, -f.max}, {sub, 1.5 * f.lambda, f.lambda},
                         {{"Common.arith.zero", "-0 - +0 = -0"}, -0.0, 0.0},
                         {{"Common.arith.zero", "an exact cancellation gives +0"}, 3, 3}, {nan_in, nan, 1},
                         {{"Common.arith.nan", "+Inf - +Inf"}, inf, inf}});
      break;
    case BinaryOp::Mul:
      w.insert(w.end(), {{tie, 1 + 2 * u, 1.5}, {over, f.max, 2}, {sub, f.lambda, 0.5},
                         {{"Common.arith.rounding", "a tie below the least subnormal, to +0"}, f.eta, 0.5},
                         {{"Common.arith.zero", "the exclusive or of the signs"}, -1, 0.0}, {nan_in, nan, 1},
                         {{"Common.arith.nan", "0 * Inf"}, 0.0, inf}});
      break;
    case BinaryOp::Div:
      w.insert(w.end(), {{{"Common.arith.rounding", "a tie rounded to even (a subnormal quotient)"}, 3 * f.eta, 2},
                         {over, f.max, 0.5}, {sub, f.lambda, 2},
                         {{c.float_formula, "a quotient a reciprocal estimate a * fl(1/b) misses"}, 5, 3},
                         {{"Common.arith.rounding", "division of a non-zero value by zero"}, 1, -0.0},
                         {{"Common.arith.zero", "the exclusive or of the signs"}, 0.0, -3}, {nan_in, nan, 1},
                         {{"Common.arith.nan", "0 / 0"}, 0.0, 0.0}, {{"Common.arith.nan", "Inf / Inf"}, inf, inf}});
      break;
  }
  return w;
}

struct IntWitness {
  Situation situation;
  __int128 a, b;
};
std::vector<IntWitness> int_witnesses(const ArithClauses& c, DType t) {
  const int w = 8 * info(t).size;
  const bool is_signed = info(t).is_signed_int;
  const __int128 max = is_signed ? (static_cast<__int128>(1) << (w - 1)) - 1 : (static_cast<__int128>(1) << w) - 1;
  const __int128 min = is_signed ? -(static_cast<__int128>(1) << (w - 1)) : 0;
  const Situation wrap{"Common.arith.int", "wrap-around"};
  std::vector<IntWitness> out = {{{c.int_formula, ""}, 6, 4}};
  switch (c.kind) {
    case BinaryOp::Add: out.push_back({wrap, max, 1}); break;
    case BinaryOp::Sub: out.push_back({wrap, min, 1}); break;
    case BinaryOp::Mul: out.push_back({wrap, max, 2}); break;
    case BinaryOp::Div:
      if (is_signed) {
        out.push_back({{c.int_formula, "min / -1 wraps to min"}, min, -1});
        out.push_back({{c.int_formula, "a negative quotient truncated toward zero"}, -7, 2});
      }
      break;
  }
  return out;
}

// What decided one float element, as the witnesses' situations name it.
std::vector<Situation> float_situations(const ArithClauses& c, DType t, double a, double b, std::uint64_t bits) {
  const double r = real_of_bits(t, bits);
  const Facts f = facts_of(t);
  std::vector<Situation> out;
  for (const FloatWitness& w : float_witnesses(c, t)) {
    const Situation& s = w.situation;
    bool holds = false;
    if (s.detail.empty()) holds = !std::isnan(r) && r != 0 && std::isfinite(r) && std::fabs(r) >= f.lambda && !is_tie(t, c.kind, a, b, r);
    else if (s.detail == "a NaN operand") holds = std::isnan(a) || std::isnan(b);
    else if (s.clause == "Common.arith.nan")  // an invalid operation (Div: 0 / 0 or Inf / Inf, told by a)
      holds = std::isnan(r) && !std::isnan(a) && !std::isnan(b) && (c.kind != BinaryOp::Div || std::isinf(w.a) == std::isinf(a));
    else if (s.detail == "overflow to infinity") holds = std::isinf(r) && std::isfinite(a) && std::isfinite(b) && !(c.kind == BinaryOp::Div && b == 0);
    else if (s.detail == "a subnormal result") holds = std::isfinite(r) && r != 0 && std::fabs(r) < f.lambda;
    else if (s.detail.rfind("a tie", 0) == 0) holds = is_tie(t, c.kind, a, b, r) && (s.detail.find("+0") == std::string::npos || r == 0);
    else if (s.detail == "division of a non-zero value by zero") holds = b == 0 && a != 0 && !std::isnan(a);
    else if (s.detail.rfind("a quotient a reciprocal", 0) == 0) {
      const double rec = real_of_bits(t, oracle_bits(t, BinaryOp::Div, 1.0, b));
      holds = std::isfinite(r) && oracle_bits(t, BinaryOp::Mul, a, rec) != bits;
    } else if (s.clause == "Common.arith.zero") {
      const bool negative = std::signbit(r);
      if (r != 0 || std::isnan(r)) holds = false;
      else if (s.detail == "an exact cancellation gives +0") holds = !negative && a != 0;
      else if (s.detail == "the exclusive or of the signs") holds = negative && (c.kind == BinaryOp::Mul || c.kind == BinaryOp::Div);
      else holds = negative;  // -0 + -0, -0 - +0
    }
    if (holds) out.push_back(s);
  }
  return out;
}

std::vector<Situation> int_situations(const ArithClauses& c, DType t, const IntResult& r) {
  std::vector<Situation> out;
  for (const IntWitness& w : int_witnesses(c, t)) {
    const Situation& s = w.situation;
    const bool holds = s.detail.empty() ? true
                       : s.detail == "wrap-around" || s.detail == "min / -1 wraps to min" ? r.wrapped
                                                                                          : r.truncated;
    if (holds) out.push_back(s);
  }
  return out;
}

}  // namespace

std::vector<Reach> reach_arith(const ArithClauses& c, int version, const NodeValues& v, const LegacyBroadcast& legacy,
                               const std::vector<Source>& sources) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const DType t = A.dtype();
  const std::vector<std::string> names = {v.input_names[0], v.input_names[1]};
  const std::vector<Source> src = {sources[0], sources.size() > 1 ? sources[1] : sources[0]};
  std::vector<Reach> out;
  if (info(t).is_float) {
    for (const FloatWitness& w : float_witnesses(c, t))
      out.push_back(reach_by_given(w.situation, {bits_in(t, w.a), bits_in(t, w.b)}, 2, src, names));
  } else {
    const int width = 8 * info(t).size;
    const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    for (const IntWitness& w : int_witnesses(c, t))
      out.push_back(reach_by_given(w.situation, {static_cast<std::uint64_t>(w.a) & mask, static_cast<std::uint64_t>(w.b) & mask}, 2,
                                   src, names));
  }
  Geometry g;
  bool shapes_ok = true;
  try {
    g = geometry(c, version, A, B, legacy);
  } catch (const SpecError&) {
    shapes_ok = false;
  }
  out.push_back(reach_by_shape({"Common.broadcast.map", ""}, shapes_ok && g.broadcast && version >= 7,
                               version < 7 ? fmt::format("{0}-1 and {0}-6 broadcast by their legacy rule", c.op)
                                           : std::string("both inputs have the output's shape")));
  out.push_back(reach_by_shape({"Common.arith.legacy", ""}, shapes_ok && g.broadcast && version < 7,
                               version >= 7 ? fmt::format("{}-{} broadcasts multidirectionally", c.op, version)
                                            : std::string("B has A's shape")));
  return out;
}

Decision decide_arith(const ArithClauses& c, int version, const NodeValues& v, const LegacyBroadcast& legacy,
                      const std::vector<std::int64_t>& i) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const Tensor& C = *v.output;
  const Geometry g = geometry(c, version, A, B, legacy);
  const std::int64_t ao = offset_of(i, g.a), bo = offset_of(i, g.b), co = offset_of(i, row_major_strides(C.shape()));
  Decision d;
  if (version < 7)
    d.parameters = fmt::format("broadcast = {}, axis = {}", legacy.broadcast, legacy.axis ? std::to_string(*legacy.axis) : "absent");
  d.set.name = "the pair {Ȧ[i], Ḃ[i]}: A and B at the index broadcasting maps i to";
  d.set.size = 2;
  d.set.member = [ao, bo](std::int64_t m) { return m == 0 ? Member{0, ao} : Member{1, bo}; };
  d.stop = fmt::format("C[i] is computed by {}: a ∘ b rounded once, not a copy of an input element", c.op);
  const std::string y = output_name(v, i), an = member_name(v, d.set.member(0)), bn = member_name(v, d.set.member(1));
  const std::string av = element_text(A, ao), bv = element_text(B, bo), cv = element_text(C, co);
  const DType t = C.dtype();
  const std::uint64_t got = element_bits(C, co);
  if (info(t).is_float) {
    const double a = member_real(v, d.set.member(0)), b = member_real(v, d.set.member(1));
    const std::uint64_t expected = oracle_bits(t, c.kind, a, b);  // [Common.arith.rounding] the binary64 route
    const double r = real_of_bits(t, expected);
    if (std::isnan(r)) {
      d.clauses = {"Common.arith.nan", c.float_formula, "Check.nan-payload.free"};
      d.reason = fmt::format("{} is NaN because {} {} {} is {}: {} {} {}; its payload is free, run writes the canonical quiet NaN",
                             y, an, symbol(c.kind), bn, std::isnan(a) || std::isnan(b) ? "a NaN operand" : "an invalid operation",
                             av, symbol(c.kind), bv);
    } else {
      d.clauses = {c.float_formula, r == 0 ? "Common.arith.zero" : "Common.arith.rounding"};
      d.reason = fmt::format("{} = {} because {} {} {} = {} {} {}: the exact result rounded once to {}, to nearest, ties to even",
                             y, cv, an, symbol(c.kind), bn, av, symbol(c.kind), bv, name(t));
    }
    d.situations = float_situations(c, t, a, b, expected);
    if (got != expected) disagree(v, i);  // run's route and the oracle's give the same bits
  } else {
    const IntResult r = int_result(t, c.kind, int_value(A, ao), int_value(B, bo));
    d.clauses = {c.int_formula, "Common.arith.int"};
    d.reason = fmt::format("{} = {} because {} {} {} = {} {} {}{}", y, cv, an, symbol(c.kind), bn, av, symbol(c.kind), bv,
                           r.wrapped ? fmt::format(", taken modulo 2^{} in {}", 8 * info(t).size, name(t))
                                     : r.truncated ? ", truncated toward zero" : "");
    d.situations = int_situations(c, t, r);
    if (got != r.bits) disagree(v, i);
  }
  d.clauses.push_back("Common.arith.map");
  if (g.broadcast) {
    d.clauses.push_back(version >= 7 ? "Common.broadcast.map" : "Common.arith.legacy");
    d.situations.push_back({version >= 7 ? "Common.broadcast.map" : "Common.arith.legacy", ""});
  }
  return d;
}

}  // namespace sonnx::ops
