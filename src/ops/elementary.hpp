// spec/common/elementary.md — the elementary-function hypothesis every operator that calls exp, log,
// tanh or pow shares: the K of each function and type ([Elem.ulps]) and the perturbation it allows
// ([Elem.hyp]); the oracle's binary64 evaluations of those functions with their stated relative errors
// ([Elem.oracle]); its MPFR evaluation, for double and wherever the binary64 enclosure cannot decide
// the value `run` writes ([Elem.run]). Everything here is the same on every machine: binary64 + − × ÷
// and integer operations on bits (no libm), and MPFR's correctly rounded functions.
#pragma once
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace sonnx::elementary {

// ---- [Elem.hyp] [Elem.ulps] the hypothesis on an implementation's functions --------------------------

// The functions whose implementation an implementation under test brings (√ is correctly rounded,
// [Elem.sqrt], and has no K).
enum class Fn { Exp, Log, Tanh, Pow };
inline constexpr Fn kAllFns[] = {Fn::Exp, Fn::Log, Fn::Tanh, Fn::Pow};
const char* fn_name(Fn f);  // "exp", "log", "tanh", "pow"

// [Elem.ulps] K of f for the element type T: the default of the table, or the value the user set.
double default_ulps(Fn f, DType t);
double ulps(Fn f, DType t);
// [Elem.ulps] The user's K for f, every type (>= 0, finite, at most 2^20); replaces the default until
// reset_ulps(). Refuses (Elem.err.ulps) another value.
void set_ulps(Fn f, double K);
void reset_ulps();
// "exp=4,tanh=8" (function names of fn_name; K a decimal number): set_ulps for each. Refuses
// (Elem.err.ulps) an unknown function, a malformed or out-of-range K.
void parse_ulps(const std::string& spec);
// "exp=1 log=1 tanh=3 pow=7" for T, as in force (reports, explain).
std::string ulps_text(DType t);

// [Elem.hyp] |f̃(a) − f(a)| <= K·ulp_T(f(a)) <= κ·|f(a)| + α, with κ = 2K·u_T and α = K·η_T: the
// relative and absolute parts, each rounded up.
struct Perturbation {
  double kappa = 0, alpha = 0;
};
Perturbation perturbation(Fn f, DType t);

// ---- [Elem.oracle] binary64 evaluations -----------------------------------------------------------
// Each returns, for a finite double argument, a double within rel·|f(x)| + kAbs of f(x); the
// constants are the stated bounds of spec/common/elementary.md, each proved there. Inline and
// branch-free (selects, not jumps) so that a loop over them vectorises; the same operations in the
// same order at every instruction-set level (-ffp-contract=off): the same bits.
inline constexpr double kExpRel = 0x1p-46;
inline constexpr double kExpm1Rel = 0x1p-44;
inline constexpr double kLogRel = 0x1p-47;
inline constexpr double kTanhRel = 0x1p-43;
inline constexpr double kSigmoidRel = 0x1p-44;
inline constexpr double kAbs = 0x1p-1070;  // below binary64's normal range: the last scaling's rounding

namespace detail {
inline constexpr double kLog2e = 0x1.71547652b82fep0;
inline constexpr double kLn2Hi = 0x1.62e42feep-1;            // 33 significant bits: k·kLn2Hi is exact
inline constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;       // ln 2 − kLn2Hi, rounded
inline constexpr double kShifter = 0x1.8p52;                  // x + 1.5·2^52 − 1.5·2^52: x rounded to an integer
// 1/i!, i = 0..14, each rounded to nearest ([Elem.oracle.exp], [Elem.oracle.expm1])
inline constexpr double kInvFact[15] = {1.0,
                                        1.0,
                                        0.5,
                                        0x1.5555555555555p-3,
                                        0x1.5555555555555p-5,
                                        0x1.1111111111111p-7,
                                        0x1.6c16c16c16c17p-10,
                                        0x1.a01a01a01a01ap-13,
                                        0x1.a01a01a01a01ap-16,
                                        0x1.71de3a556c734p-19,
                                        0x1.27e4fb7789f5cp-22,
                                        0x1.ae64567f544e4p-26,
                                        0x1.1eed8eff8d898p-29,
                                        0x1.6124613a86d09p-33,
                                        0x1.93974a8c07c9dp-37};
// 1/(2i + 1), i = 0..9, rounded to nearest ([Elem.oracle.log])
inline constexpr double kInvOdd[10] = {1.0,
                                       0x1.5555555555555p-2,
                                       0x1.999999999999ap-3,
                                       0x1.2492492492492p-3,
                                       0x1.c71c71c71c71cp-4,
                                       0x1.745d1745d1746p-4,
                                       0x1.3b13b13b13b14p-4,
                                       0x1.1111111111111p-4,
                                       0x1.e1e1e1e1e1e1ep-5,
                                       0x1.af286bca1af28p-5};
inline double pow2(std::int64_t k) { return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52); }
}  // namespace detail

// c ? a : b on the bits: both computed, no branch (a compiler may not move a's or b's operations under
// the condition, where it could no longer vectorise the loop: they may raise floating-point flags).
inline double pick(bool c, double a, double b) {
  const std::uint64_t m = 0 - static_cast<std::uint64_t>(c);
  return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & m) | (std::bit_cast<std::uint64_t>(b) & ~m));
}

// [Elem.oracle.exp] e^x: x clamped to [−746, 710] (beyond, e^x is below 2^-1076 or above binary64's
// range), k the integer nearest x·log2(e), r = (x − k·ln2_hi) − k·ln2_lo, e^r by its Taylor polynomial
// of degree 13 (Horner), scaled by 2^⌊k/2⌋·2^(k − ⌊k/2⌋). NaN gives NaN, +Inf gives +Inf, −Inf gives +0.
inline double exp_o(double x) {
  using namespace detail;
  const double xc = pick(x < -746.0, -746.0, pick(x > 710.0, 710.0, x));
  const double t = xc * kLog2e + kShifter;
  const double kd = t - kShifter;
  const std::int64_t k = std::bit_cast<std::int64_t>(t) - std::bit_cast<std::int64_t>(kShifter);
  const double r = (xc - kd * kLn2Hi) - kd * kLn2Lo;
  double p = kInvFact[13];
  for (int i = 12; i >= 0; --i) p = p * r + kInvFact[i];
  const std::int64_t k1 = k >> 1;
  return p * pow2(k1) * pow2(k - k1);
}

// [Elem.oracle.expm1] e^x − 1 for |x| < 0.35: x times the Taylor polynomial of (e^x − 1)/x of degree 13
// (expm1_o's value there; a loop that knows its arguments are small computes no exp_o).
inline double expm1_small_o(double x) {
  using namespace detail;
  double q = kInvFact[14];
  for (int i = 12; i >= 0; --i) q = q * x + kInvFact[i + 1];
  return x * q;
}

// [Elem.oracle.expm1] e^x − 1: for |x| < 0.35 expm1_small_o(x); otherwise exp_o(x) − 1.
inline double expm1_o(double x) {
  const double small = expm1_small_o(x);
  const double large = exp_o(x) - 1.0;
  return (x > -0.35 && x < 0.35) ? small : large;
}

// [Elem.oracle.log] log x for x > 0 finite: x = 2^e·m with m in [√½, √2) (a subnormal x scaled by 2^54
// first), s = (m − 1)/(m + 1), log m = 2s·Σ_{i<=9} s^(2i)/(2i + 1), log x = e·ln2_hi + (log m + e·ln2_lo).
// No operation under a condition (x·1 is x), so that a loop over it vectorises; log_o adds the special values.
inline double log_finite_o(double x) {
  using namespace detail;
  const bool sub = x < 0x1p-1022;
  const double xs = x * (sub ? 0x1p54 : 1.0);
  const std::uint64_t b = std::bit_cast<std::uint64_t>(xs);
  // m = xs/2^e in [√½, √2): the patterns of positive doubles are ordered as their values, so the
  // pattern minus √½'s has e in its exponent field (two's complement below √½)
  const std::uint64_t shifted = b - 0x3fe6a09e667f3bcdULL;
  const std::int64_t e = static_cast<std::int64_t>(shifted) >> 52;
  const double m = std::bit_cast<double>(b - (shifted & (0xfffULL << 52)));
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = kInvOdd[9];
  for (int i = 8; i >= 0; --i) p = p * z + kInvOdd[i];
  const double lm = 2.0 * (s * p);
  const double ed = static_cast<double>(e - (sub ? 54 : 0));
  return ed * kLn2Hi + (lm + ed * kLn2Lo);
}

// [Elem.oracle.log] log_finite_o, and the special values: x = +Inf gives +Inf; +0 gives −Inf; x < 0 and NaN
// give NaN.
inline double log_o(double x) {
  const double y = log_finite_o(x);
  const bool special = !(x > 0.0) || x == __builtin_inf();
  return special ? (x == 0.0 ? -__builtin_inf() : (x == __builtin_inf() ? x : __builtin_nan(""))) : y;
}

// [Elem.oracle.tanh] tanh x = sign(x)·E/(E + 2), E = expm1_o(2|x|), for |x| < 22; sign(x)·1 beyond.
inline double tanh_o(double x) {
  const double a = x < 0 ? -x : x;
  const double E = expm1_o(2.0 * (a < 22.0 ? a : 22.0));
  const double t = a < 22.0 ? E / (E + 2.0) : 1.0;
  return x < 0 ? -t : (x == x ? t : x);
}

// [Elem.oracle.sigmoid] 1/(1 + e^(−x)) for x >= 0, e^x/(1 + e^x) for x < 0.
inline double sigmoid_o(double x) {
  const double E = exp_o(x < 0 ? x : -x);
  return x < 0 ? E / (1.0 + E) : (x == x ? 1.0 / (1.0 + E) : x);
}

// ---- [Elem.oracle.mpfr] the MPFR evaluation -------------------------------------------------------

// A real known as the unevaluated pair hi + lo (hi = the real rounded to binary64, lo the rest rounded)
// within rel·|hi| + 2^-1074 of it.
struct Pair {
  double hi = 0, lo = 0;
  double rel = 0;
};
inline constexpr int kBits = 160;  // MPFR's precision: each operation correctly rounded to 160 bits

// e^x, log x, tanh x, 1/(1 + e^(−x)) in MPFR (the special values as exp_o etc. give them).
Pair exp_mp(double x);
Pair log_mp(double x);
Pair tanh_mp(double x);
Pair sigmoid_mp(double x);
// x^y in MPFR for x, y finite and non-zero (x < 0 only with an integer y): y a binary64 value, a signed or
// an unsigned 64-bit integer (exact, mpfr_pow_si / mpfr_pow_ui).
Pair pow_mp(double x, double y);
Pair pow_mp(double x, std::int64_t y);
Pair pow_mp(double x, std::uint64_t y);
// The truncation toward zero of x^y for an integer x > 0 and a finite binary64 y: MPFR's x^y rounded toward
// zero (the largest kBits-bit value at most x^y, whose truncation is x^y's). False when it exceeds 2^64.
bool trunc_pow_mp(std::int64_t x, double y, std::uint64_t* out);
// Softmax's and LogSoftmax's formulas (spec/ops/softmax.md, logsoftmax.md): a row x[0..n) (every x finite, n >= 1):
// y[j] = e^(x_j − m)/Σ_k e^(x_k − m), or x_j − m − log Σ_k e^(x_k − m) (log_form), m = max_k x_k; only the
// y[j] with want[j] not 0 when want is given (the others left as they are).
void softmax_mp(const double* x, std::size_t n, bool log_form, Pair* y, const std::uint8_t* want = nullptr);
// LRN's formula (spec/ops/lrn.md): y = x / (bias + (alpha/size)·Σ_j w_j²)^beta for a window w[0..n) (every value finite,
// the base positive).
Pair lrn_mp(double x, const double* w, std::size_t n, double alpha, std::int64_t size, double bias, double beta);

// ---- [Elem.run] the value run writes --------------------------------------------------------------

// nextafter(x, +∞) and nextafter(x, −∞), the same values (+Inf and a NaN give themselves), on the bits:
// selects, no library call (a loop over them vectorises).
inline double next_up(double x) {
  const std::int64_t u = std::bit_cast<std::int64_t>(x);
  const std::int64_t mag = u & 0x7fffffffffffffff, inf = 0x7ff0000000000000;
  const std::int64_t step = u + (1 + 2 * (u >> 63));                  // x < 0: the magnitude one step down
  const std::int64_t r = mag == 0 ? 1 : step;                          // ±0: the least subnormal
  return std::bit_cast<double>(mag > inf || u == inf ? u : r);         // a NaN, +Inf: x
}
inline double next_down(double x) { return -next_up(-x); }

// Whether every real within eo of c rounds to one value of T (round to nearest, ties to even): the
// bits of that value when it does. [lo, hi] contains [c − eo, c + eo]: each end moved one binary64
// step outward after its rounding; rounding to nearest is monotonic, so equal ends round every value
// between them the same.
bool rounding_decided(DType t, double c, double eo, std::uint64_t* bits);
// The same for float, inline (a loop over it vectorises): *bits the float's bits.
inline bool rounding_decided_float(double c, double eo, std::uint64_t* bits) {
  const std::uint32_t a = std::bit_cast<std::uint32_t>(static_cast<float>(next_down(c - eo)));
  const std::uint32_t b = std::bit_cast<std::uint32_t>(static_cast<float>(next_up(c + eo)));
  *bits = a;
  return a == b;
}
// The bits of the pair's value rounded to T once (hi, then lo breaking a tie of hi).
std::uint64_t round_pair(DType t, const Pair& p);

}  // namespace sonnx::elementary
