// Properties of spec/common/elementary.md and of the operators that call its functions (spec/ops/exp.md,
// log.md, tanh.md, sigmoid.md).
//
// Every expected value is computed here, on the test side, with GNU MPFR (mpfr.h) at 256 bits or more, or
// is derived by hand in a comment. Nothing here calls the library's MPFR evaluations (elementary::exp_mp
// and the others) or uses its binary64 functions (exp_o, ...) as an expectation: [Elem.prop.oracle] judges
// those functions against MPFR. What an implementation under test (IUT) may return is judged by the
// operators' own annex (accuracy::judge), and the bounds it must meet are restated from the spec's formulas.
//
// The correctly rounded value fl_T(f(x)) (test side, `cr`): MPFR gives f(x) at P bits with a stated
// error (one correctly rounded function: half an ulp of P bits; Sigmoid's three operations: at most 4 ulps
// of P bits), i.e. an interval [lo, hi] that holds f(x). Each end is rounded to T by `round_to_type`
// (to nearest, ties to even, with T's subnormals and overflow, see there); when both ends give the same
// value of T, that is fl_T(f(x)) (rounding to nearest is monotonic). Otherwise P is doubled (Ziv's
// strategy) up to 4096 bits; an argument that needs more fails the test (none is known).
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "ops/elementary.hpp"
#include "gen/exact.hpp"
#include "gen/props.hpp"
#include "ops/exp.hpp"
#include "ops/log.hpp"
#include "ops/sigmoid.hpp"
#include "ops/tanh.hpp"

namespace sonnx::props::elementary_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kFloatTypes[] = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};

// ---- MPFR, test side --------------------------------------------------------------------------------

class Mp {
 public:
  explicit Mp(mpfr_prec_t p = 256) { mpfr_init2(v_, p); }
  Mp(mpfr_prec_t p, double x) {
    mpfr_init2(v_, p);
    mpfr_set_d(v_, x, MPFR_RNDN);  // exact for p >= 53
  }
  ~Mp() { mpfr_clear(v_); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
  operator mpfr_ptr() { return v_; }
  operator mpfr_srcptr() const { return v_; }
  double d() const { return mpfr_get_d(v_, MPFR_RNDN); }

 private:
  mpfr_t v_;
};

// The functions: the four operators' and expm1 (which only [Elem.oracle.expm1] has).
enum class F { Exp, Expm1, Log, Tanh, Sigmoid };
const char* f_name(F f) {
  switch (f) {
    case F::Exp: return "exp";
    case F::Expm1: return "expm1";
    case F::Log: return "log";
    case F::Tanh: return "tanh";
    case F::Sigmoid: return "sigmoid";
  }
  return "?";
}
constexpr F kOps[] = {F::Exp, F::Log, F::Tanh, F::Sigmoid};

// f(x) into y (y's precision P): returns a bound on |y − f(x)| in ulps of P bits at y (0: y is exact).
// Needs x finite, x > 0 for log, |x| <= 1e8 for exp, expm1 and sigmoid (e^(1e8) is within MPFR's range).
int mp_eval(F f, double x, mpfr_ptr y) {
  Mp a(64, x);
  switch (f) {
    case F::Exp: return mpfr_exp(y, a, MPFR_RNDN) != 0;  // correctly rounded: half an ulp
    case F::Expm1: return mpfr_expm1(y, a, MPFR_RNDN) != 0;
    case F::Log: return mpfr_log(y, a, MPFR_RNDN) != 0;
    case F::Tanh: return mpfr_tanh(y, a, MPFR_RNDN) != 0;
    case F::Sigmoid: {
      // 1/(1 + e^(−x)): three roundings of relative 2^-P each (the sum's operands are positive), so
      // |y − σ| <= ((1 + 2^-P)^3 − 1)·σ·(1 + 2^-P) < 3.01·2^-P·|y| < 4 ulps of P bits at y
      Mp e(mpfr_get_prec(y));
      mpfr_neg(a, a, MPFR_RNDN);
      const int t1 = mpfr_exp(e, a, MPFR_RNDN);
      const int t2 = mpfr_add_ui(e, e, 1, MPFR_RNDN);
      const int t3 = mpfr_ui_div(y, 1, e, MPFR_RNDN);
      return (t1 != 0 || t2 != 0 || t3 != 0) ? 4 : 0;
    }
  }
  return 0;
}

// The formats, restated from spec/common/dtypes.md through gen/exact (p, least normal exponent, greatest
// exponent) and spec/common/accuracy.md's notation: η_T the least subnormal, λ_T the least normal, Ω_T the
// least magnitude that rounds to infinity, u_T = 2^-p.
struct Tf {
  int p, emin, emax;
  double u, eta, lambda, omega;
};
Tf tf(DType t) {
  const exact::FormatFacts f = exact::facts(exact::fmt_of(t));
  return {f.p,
          f.emin,
          f.emax,
          std::ldexp(1.0, -f.p),
          std::ldexp(1.0, f.emin - f.p + 1),
          std::ldexp(1.0, f.emin),
          std::ldexp(2.0 - std::ldexp(1.0, -f.p), f.emax)};
}

// v rounded once to T (to nearest, ties to even), as a double (a value of T, ±0 or ±Inf). Equivalent to
// mpfr_set_emin/emax and mpfr_subnormalize, without changing MPFR's global exponent range (which the
// library's MPFR evaluations share): |v| in [2^b, 2^(b+1)) has its last place of T at 2^(max(b, emin) − p + 1),
// so rounding it to T is rounding it to q = p − max(0, emin − b) significant bits (MPFR's RNDN at q bits is
// ties to even on that same last place); q <= 0 means |v| < η_T: 0 or η_T, η_T/2 itself a tie to the even 0.
// A result at or above 2^(emax + 1) is ±Inf (a value at or beyond Ω_T rounds there).
double round_to_type(DType t, mpfr_srcptr v) {
  if (mpfr_nan_p(v)) return kNaN;
  const bool neg = mpfr_signbit(v) != 0;
  if (mpfr_inf_p(v)) return neg ? -kInf : kInf;
  if (mpfr_zero_p(v)) return neg ? -0.0 : 0.0;
  const Tf c = tf(t);
  const long b = static_cast<long>(mpfr_get_exp(v)) - 1;  // MPFR: |v| = m·2^E, m in [1/2, 1)
  if (b > c.emax) return neg ? -kInf : kInf;
  const long q = b >= c.emin ? c.p : c.p - (c.emin - b);
  double r = 0;
  if (q >= 1) {
    Mp w(q);
    mpfr_set(w, v, MPFR_RNDN);
    r = w.d();  // exact: q <= 53 bits, the last place at or above 2^-1074
  } else {
    Mp half(64, c.eta / 2);
    r = (q == 0 && mpfr_cmpabs(v, half) > 0) ? c.eta : 0.0;
    if (neg) r = -r;
  }
  if (std::fabs(r) >= std::ldexp(1.0, c.emax + 1)) return neg ? -kInf : kInf;
  return r;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// fl_T(f(x)) for finite x in mp_eval's domain (Ziv's strategy, see the top of this file).
double cr(F f, DType t, double x) {
  for (mpfr_prec_t P = 256; P <= 4096; P *= 2) {
    Mp y(P), lo(P), hi(P);
    const int k = mp_eval(f, x, y);
    mpfr_set(lo, y, MPFR_RNDN);
    mpfr_set(hi, y, MPFR_RNDN);
    for (int i = 0; i < k; ++i) mpfr_nextbelow(lo), mpfr_nextabove(hi);
    const double a = round_to_type(t, lo), b = round_to_type(t, hi);
    if (same_bits(a, b)) return a;
  }
  throw std::runtime_error(fmt::format("{}({:a}) in {}: not decided at 4096 bits", f_name(f), x, name(t)));
}

// What the spec says the operator's element is, as a double: the special values of [Elem.special] and of
// the operators' edge clauses by hand, fl_T(f(x)) otherwise ([Elem.run]).
double expected(F f, DType t, double x) {
  if (std::isnan(x)) return kNaN;
  switch (f) {
    case F::Exp:
    case F::Expm1:
      // e^(+Inf) = +Inf, e^(−Inf) = +0; e^x for x > 10^8 exceeds 2^1024, for x < −10^8 is below 2^-1076
      if (x > 1e8) return kInf;
      if (x < -1e8) return f == F::Exp ? 0.0 : -1.0;
      break;
    case F::Log:
      if (x < 0) return kNaN;         // ln of a negative number (−Inf included): a NaN
      if (x == 0) return -kInf;       // ln ±0 = −Inf
      if (x == kInf) return kInf;     // ln +Inf = +Inf
      break;
    case F::Tanh:
      if (std::isinf(x)) return x > 0 ? 1.0 : -1.0;  // tanh ±Inf = ±1
      break;                                        // ±0: MPFR's tanh(±0) is ±0, exact
    case F::Sigmoid:
      if (x > 1e8) return 1.0;   // 1 − σ(x) < e^(−x): far below half an ulp of 1 (+Inf: 1)
      if (x < -1e8) return 0.0;  // σ(x) < e^x < 2^-1076 (−Inf: 0)
      break;
  }
  return cr(f, t, x);
}

// ---- tensors and operators --------------------------------------------------------------------------

// The canonical quiet NaN of T ([Acc.run]): sign 0, exponent all ones, the first fraction bit alone.
std::uint64_t nan_bits(DType t) {
  switch (t) {
    case DType::Float16: return 0x7E00;  // 0 11111 1000000000
    case DType::BFloat16: return 0x7FC0;  // 0 11111111 1000000
    case DType::Float: return 0x7FC00000;
    default: return 0x7FF8000000000000ull;
  }
}
std::uint64_t bits_of(DType t, double v) { return std::isnan(v) ? nan_bits(t) : exact::encode(t, v); }
double value_of(DType t, std::uint64_t bits) { return exact::decode(t, bits); }

Tensor tensor_of(DType t, const std::vector<double>& v) {
  Tensor X(t, {static_cast<std::int64_t>(v.size())}, "test tensor");
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(X, static_cast<std::int64_t>(k), bits_of(t, v[k]));
  return X;
}

Tensor run_op(F f, int version, const Tensor& X) {
  switch (f) {
    case F::Exp: return ops::exp_op(version, X);
    case F::Log: return ops::log_op(version, X);
    case F::Tanh: return ops::tanh_op(version, X);
    case F::Sigmoid: return ops::sigmoid_op(version, X);
    default: throw std::logic_error("expm1 is no operator");
  }
}

// The function of [Elem.hyp] whose K the operator's bound takes (Sigmoid: the implementation's exp).
elementary::Fn fn_of(F f) {
  switch (f) {
    case F::Log: return elementary::Fn::Log;
    case F::Tanh: return elementary::Fn::Tanh;
    default: return elementary::Fn::Exp;
  }
}

// [Elem.ulps] the defaults, restated from the spec's table (glibc 2.41's largest listed errors; 1 for the
// 16-bit types).
double spec_default_K(elementary::Fn fn, DType t) {
  if (t == DType::Float16 || t == DType::BFloat16) return 1;
  switch (fn) {
    case elementary::Fn::Exp: return 1;
    case elementary::Fn::Log: return 1;
    case elementary::Fn::Tanh: return t == DType::Double ? 3 : 2;
    case elementary::Fn::Pow: return t == DType::Double ? 1 : 7;
  }
  return 1;
}

// Resets the user's K when it goes out of scope (the K is process-wide).
struct UlpsReset {
  ~UlpsReset() { elementary::reset_ulps(); }
};

// v moved by k steps of T along the reals (k > 0: towards +Inf), through the total order of T's
// patterns (spec/common/order.md: sign and magnitude); a finite v of T. Beyond the largest finite value:
// ±Inf. ±Inf stays where it is.
double step(DType t, double v, int k) {
  if (std::isinf(v) || k == 0) return v;
  const exact::FormatFacts f = exact::facts(exact::fmt_of(t));
  const int width = f.exp_bits + f.frac_bits + 1;
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const std::uint64_t inf_mag = ((std::uint64_t{1} << f.exp_bits) - 1) << f.frac_bits;
  const std::uint64_t b = bits_of(t, v);
  const std::int64_t mag = static_cast<std::int64_t>(b & (sign - 1));
  std::int64_t ord = (b & sign) ? -mag : mag;  // −0 and +0 both 0
  ord += k;
  const std::uint64_t m = static_cast<std::uint64_t>(ord < 0 ? -ord : ord);
  if (m >= inf_mag) return ord < 0 ? -kInf : kInf;
  return value_of(t, (ord < 0 ? sign : 0) | m);
}

// ulp_T(y) of [Acc.verdict] for the real y (MPFR): 2^(max(b, emin) − p + 1), |y| in [2^b, 2^(b+1)).
double ulp_of(DType t, mpfr_srcptr y) {
  const Tf c = tf(t);
  const long b = mpfr_zero_p(y) ? c.emin : static_cast<long>(mpfr_get_exp(y)) - 1;
  return std::ldexp(1.0, static_cast<int>(std::max<long>(b, c.emin)) - c.p + 1);
}

// |r − y| for a double r and a real y (MPFR at 512 bits: exact for the values here), as a double rounded
// up, or down.
double dist(double r, mpfr_srcptr y, mpfr_rnd_t dir = MPFR_RNDU) {
  Mp d(512);
  mpfr_set_d(d, r, MPFR_RNDN);
  mpfr_sub(d, d, y, MPFR_RNDN);
  mpfr_abs(d, d, MPFR_RNDN);
  return mpfr_get_d(d, dir);
}

// ---- arguments ------------------------------------------------------------------------------------

// A value of T rounded from v (test side, gen/exact).
double rnd(DType t, double v) { return exact::to_double(exact::round(exact::fmt_of(t), v)); }

// An argument of f in T: mostly ±(1 + m)·2^e with e uniform over the exponents where f is not trivial
// (log: positive, over the whole range of T), some next to 1 (log) or 0, some any pattern of T (NaN and
// infinities included).
double draw_x(F f, DType t) {
  const Tf c = tf(t);
  const int kind = *rc::gen::inRange(0, 12);
  if (kind == 0) {  // any pattern
    const exact::FormatFacts ff = exact::facts(exact::fmt_of(t));
    const int width = ff.exp_bits + ff.frac_bits + 1;
    std::uint64_t b = *rc::gen::arbitrary<std::uint64_t>();
    if (width < 64) b &= (std::uint64_t{1} << width) - 1;
    return value_of(t, b);
  }
  const double m = 1 + static_cast<double>(*rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 52)) * 0x1p-52;
  if (kind == 1 && f == F::Log) {  // next to 1: 1 ± j·2^-s
    const int s = *rc::gen::inRange(c.p - 1, c.p + 2);
    const int j = *rc::gen::inRange(1, 40);
    return rnd(t, *rc::gen::arbitrary<bool>() ? 1 + j * std::ldexp(1.0, -s) : 1 - j * std::ldexp(1.0, -s - 1));
  }
  int lo = -2 * c.p - 4, hi = 0;
  switch (f) {
    case F::Log: lo = c.emin - c.p + 1, hi = c.emax; break;
    case F::Tanh: hi = t == DType::Double ? 5 : 4; break;
    default: hi = t == DType::Double ? 9 : t == DType::Float16 ? 4 : 6; break;  // past overflow and underflow
  }
  const int e = *rc::gen::inRange(lo, hi + 1);
  double v = std::ldexp(m, e);
  if (f != F::Log && *rc::gen::arbitrary<bool>()) v = -v;
  return rnd(t, v);
}

int draw_version(DType t) { return t == DType::BFloat16 ? 13 : *rc::gen::element(1, 6, 13); }

// ---- one element of run ---------------------------------------------------------------------------

// "" when the element k of Y (the operator's output on x) holds MPFR's f(x) rounded once to T and
// conforms by its own annex; what is wrong otherwise.
std::string run_mismatch(F f, DType t, double x, const Tensor& Y, std::int64_t k) {
  const double want = expected(f, t, x);
  const std::uint64_t got = bits_at(Y, k), wb = bits_of(t, want);
  if (got != wb)
    return fmt::format("{}-{} {}({:a}) = {:a} (0x{:x}), expected fl_T of MPFR's value {:a} (0x{:x})", f_name(f), name(t), f_name(f), x,
                       value_of(t, got), got, want, wb);
  const accuracy::Element e = Y.annex->at(k);
  const accuracy::Judgement j = accuracy::judge(t, e, value_of(t, got));
  if (!j.conforms)
    return fmt::format("{}-{} {}({:a}): run's own value {:a} does not conform (centre {:a}, R = {:a})", f_name(f), name(t), f_name(f), x,
                       value_of(t, got), e.hi, e.radius);
  return "";
}

void run_self_property(F f) {
  check("run writes MPFR's value rounded once to T, and it conforms", [f] {
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
    const int version = draw_version(t);
    const int n = *rc::gen::inRange(1, 17);
    std::vector<double> xs;
    for (int k = 0; k < n; ++k) xs.push_back(draw_x(f, t));
    const Tensor X = tensor_of(t, xs);
    const Tensor Y = run_op(f, version, X);
    RC_ASSERT(Y.dtype() == t);
    RC_ASSERT(Y.shape() == X.shape());
    for (int k = 0; k < n; ++k) {
      const std::string why = run_mismatch(f, t, xs[static_cast<std::size_t>(k)], Y, k);
      PROP_EXPECT(why.empty(), "{}", why);
    }
    RC_TAG(name(t));
  });
}

// ---- [Elem.hyp]: the bound, restated ------------------------------------------------------------------

// B = κ·|y| + α with κ = 2K·u_T and α = K·η_T ([Elem.hyp], [Exp.bound] [Log.bound] [Tanh.bound]), rounded up.
double hyp_bound(DType t, double K, mpfr_srcptr y) {
  const Tf c = tf(t);
  Mp b(512);
  mpfr_abs(b, y, MPFR_RNDN);
  mpfr_mul_d(b, b, 2 * K * c.u, MPFR_RNDU);
  mpfr_add_d(b, b, K * c.eta, MPFR_RNDU);
  return mpfr_get_d(b, MPFR_RNDU);
}

// Counters of the literal reading "fl_T(f(x)) moved by j <= K ulps" (see [Elem.prop.hyp] below).
struct Literal {
  long moved = 0, beyond = 0;
};
Literal& literal() {
  static Literal l;
  return l;
}

// [Elem.prop.hyp] [X.prop.hyp] [X.prop.tight] for Exp, Log, Tanh (the operator is one call of f).
void hyp_property(F f) {
  literal() = {};
  check("values of T within K ulps of f(x) conform, values K + 1 ulps away do not", [f] {
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
    const int version = draw_version(t);
    const int n = *rc::gen::inRange(1, 9);
    std::vector<double> xs;
    for (int k = 0; k < n; ++k) xs.push_back(draw_x(f, t));
    const Tensor Y = run_op(f, version, tensor_of(t, xs));
    const elementary::Fn fn = fn_of(f);
    const double K = spec_default_K(fn, t);
    RC_ASSERT(elementary::ulps(fn, t) == K);
    const Tf c = tf(t);
    const int steps = static_cast<int>(K) + 2;
    for (int k = 0; k < n; ++k) {
      const double x = xs[static_cast<std::size_t>(k)];
      const double want = expected(f, t, x);
      if (!std::isfinite(x) || !std::isfinite(want)) continue;  // the edges: [Exp.edge] and the others
      if (f == F::Log && x <= 0) continue;
      if (f == F::Tanh && x == 0) continue;
      Mp y(256);
      mp_eval(f, x, y);
      const accuracy::Element e = Y.annex->at(k);
      const double B = hyp_bound(t, K, y), ay = std::fabs(y.d());
      // the radius R = B̂ + e_o: at least B, and not loose beyond the oracle's share (e_o <= 2^-42·|y| + 2^-1069)
      PROP_EXPECT(e.radius >= B, "{}-{} {}({:a}): R = {:a} below the spec's B = {:a}", f_name(f), name(t), f_name(f), x, e.radius, B);
      const double slack = B * 0x1p-30 + ay * 0x1p-42 + 0x1p-1060;
      PROP_EXPECT(e.radius <= B + slack, "{}-{} {}({:a}): R = {:a} exceeds the spec's B = {:a} by more than the oracle's share", f_name(f),
                  name(t), f_name(f), x, e.radius, B);
      for (int j = -steps; j <= steps; ++j) {
        const double r = step(t, want, j);
        if (!std::isfinite(r)) continue;
        const double d = dist(r, y);
        const bool conforms = accuracy::judge(t, e, r).conforms;
        if (d <= B)  // [Elem.hyp]: within K·ulp_T(f(x)) <= B of f(x)
          PROP_EXPECT(conforms, "{}-{} {}({:a}): {:a} ({} steps from fl_T) is {:.3g} from f(x), within B = {:.3g}, and does not conform",
                      f_name(f), name(t), f_name(f), x, r, j, d, B);
        else if (d > B + slack)
          PROP_EXPECT(!conforms, "{}-{} {}({:a}): {:a} ({} steps from fl_T) is {:.3g} from f(x), beyond B = {:.3g}, and conforms", f_name(f),
                      name(t), f_name(f), x, r, j, d, B);
        if (j != 0 && std::abs(j) <= K) {  // the literal reading of the property tables
          ++literal().moved;
          if (!conforms) ++literal().beyond;
        }
      }
      // [X.prop.tight]: a result K + 1 ulps of T or more from f(x) does not conform where f(x) is a normal value
      // of T, |f(x)| = m·2^b, with K·m + K·η_T/ulp_T < K + 1: there B = K·m·ulp_T + K·η_T < (K + 1)·ulp_T. For
      // K = 1 that is every m but the top of each binade (m < 2 − η_T/ulp_T), for tanh's K = 2 (float) m < 1.5,
      // K = 3 (double) m < 1.33; in float16's low binades K·η_T is a large part of an ulp (all of it at λ_T).
      // The value K + 1 steps from fl_T(f(x)) away from f(x) is such a result unless it crosses a power of two.
      // (m, the binade and the side of f(x) from MPFR: near a power of two binary64 cannot tell.)
      const double ulp = ulp_of(t, y);
      const long b = mpfr_zero_p(y) ? c.emin - 1 : static_cast<long>(mpfr_get_exp(y)) - 1;
      Mp mm(256);
      mpfr_abs(mm, y, MPFR_RNDN);
      mpfr_mul_2si(mm, mm, -b, MPFR_RNDN);
      const double m = mpfr_get_d(mm, MPFR_RNDU);
      // (and the spec's absolute parts besides α: 2^-1072 in B̂ and in R, and e_o's 2^-1074 for double: below
      // 2^-1070, which only double's lowest binades see)
      if (b >= c.emin && K * m + (K * c.eta + 0x1p-1070) / ulp < (K + 1) * (1 - 0x1p-20)) {
        const int side = mpfr_cmp_d(y, want);
        const int away = side < 0 ? 1 : side > 0 ? -1 : (*rc::gen::arbitrary<bool>() ? 1 : -1);
        const double r = step(t, want, away * (static_cast<int>(K) + 1));
        if (std::isfinite(r) && dist(r, y, MPFR_RNDD) >= (K + 1) * ulp) {
          PROP_EXPECT(!accuracy::judge(t, e, r).conforms, "{}-{} {}({:a}): {:a}, K + 1 = {} ulps or more from f(x), conforms (R = {:.3g})",
                      f_name(f), name(t), f_name(f), x, r, K + 1, e.radius);
          RC_CLASSIFY(true, "K + 1 ulps away checked");
        }
      }
    }
    RC_TAG(name(t));
  });
  std::printf("[Elem.prop.hyp] %s: fl_T(f(x)) moved by 1..K steps: %ld values, %ld of them more than K ulps from f(x) and not "
              "conforming (K counts from f(x), [Elem.hyp])\n",
              f_name(f), literal().moved, literal().beyond);
}

// ---- [Sigmoid.hyp]: the forms, in T and in binary64 -------------------------------------------------------

// v rounded to T: float16 and bfloat16 by the library's conversions (their arithmetic emulated by rounding the
// exact binary64 result of +, × or ÷ of two of their values once: innocuous, 53 >= 2p + 2), binary32 natively.
double to_t(DType t, double v) {
  switch (t) {
    case DType::Float16: return value_of(t, accuracy::to_float16_bits(v));
    case DType::BFloat16: return value_of(t, accuracy::to_bfloat16_bits(v));
    case DType::Float: return static_cast<double>(static_cast<float>(v));
    default: return v;
  }
}

// [Sigmoid.bound] restated: B = y(φ + κ(1 + φ)/c²) + α(1 + φ)/c² + η_T/2, φ = (1 + v)²/(1 − v) − 1, c = 1 − κ − α,
// v = u + u²(1 + u) ([Acc.hyp]); and B >= y where e^(−x)(1 + κ) + α + 1 >= Ω_T ([Sigmoid.overflow]). In long
// double (64 bits; φ as (3v + v²)/(1 − v), without the cancellation), then 2^-50 added relatively.
long double sigmoid_bound(DType t, double K, long double y, long double e_minus_x, bool* overflow) {
  const Tf c = tf(t);
  const long double u = c.u, v = u + u * u * (1 + u);
  const long double kappa = 2 * K * u, alpha = K * static_cast<long double>(c.eta);
  const long double phi = (3 * v + v * v) / (1 - v), cc = 1 - kappa - alpha, q = (1 + phi) / (cc * cc);
  long double B = y * (phi + kappa * q) + alpha * q + static_cast<long double>(c.eta) / 2;
  const long double omega = std::ldexp(2 - std::ldexp(1.0L, -c.p), c.emax);  // exact in long double (binary64's too)
  *overflow = e_minus_x * (1 + kappa) + alpha + 1 >= omega;
  if (*overflow) B = std::max(B, y);
  return B * (1 + 0x1p-50L);
}

double draw_sigmoid_x(DType t) {
  const int kind = *rc::gen::inRange(0, 6);
  const double over_lo = t == DType::Double ? -760 : t == DType::Float16 ? -20 : -110;
  const double over_hi = t == DType::Double ? -700 : t == DType::Float16 ? -11 : -88.5;
  const double r = static_cast<double>(*rc::gen::inRange(0, 1 << 30)) * 0x1p-30;
  switch (kind) {
    case 0: return rnd(t, -30 + 60 * r);
    case 1: return rnd(t, 15 + 5 * r);                                // saturation
    case 2: return rnd(t, over_lo + (over_hi - over_lo) * r);         // e^(−x) overflows T
    case 3: return rnd(t, (r - 0.5) * 1e-3);                          // near 0
    default: return draw_x(F::Sigmoid, t);
  }
}

}  // namespace

// =====================================================================================================
// [Elem.prop.oracle]
// =====================================================================================================

namespace {

// One function's record: the checks, the failures (the first kept), the largest relative error seen on
// normal results in units of 2^-53, and where.
struct Record {
  long checks = 0, failures = 0;
  double worst = 0, worst_x = 0;
  std::string first;
};

// |got − y| <= ρ·|y|·(1 − 2^-190) + 2^-1070 (y is within 2^-250·|f(x)| of f(x): the margin covers it), or
// got = +Inf where y·(1 + ρ) reaches binary64's overflow threshold (the oracle may overflow there; above
// it only +Inf is right, [Elem.oracle.exp]).
void judge_oracle(Record& rec, F f, double x, double rho, double got, mpfr_srcptr y) {
  ++rec.checks;
  static Mp diff(512), bound(512), ay(512), grown(512), om(64);
  static const bool om_set = [] {
    mpfr_set_d(om, 0x1.fffffffffffffp1023, MPFR_RNDN);  // DBL_MAX
    mpfr_add_d(om, om, 0x1p970, MPFR_RNDN);            // exact: Ω of binary64, 2^1024·(1 − 2^-54)
    return true;
  }();
  (void)om_set;
  mpfr_abs(ay, y, MPFR_RNDN);
  bool ok = false;
  if (std::isnan(got)) {
    ok = false;
  } else if (std::isinf(got)) {
    mpfr_mul_d(grown, ay, 1 + rho, MPFR_RNDU);
    ok = got > 0 && mpfr_sgn(y) > 0 && mpfr_cmp(grown, om) >= 0;
  } else {
    mpfr_set_d(diff, got, MPFR_RNDN);
    mpfr_sub(diff, diff, y, MPFR_RNDN);
    mpfr_abs(diff, diff, MPFR_RNDN);
    mpfr_mul_d(bound, ay, rho, MPFR_RNDD);         // exact: ρ is a power of two
    mpfr_div_2ui(grown, bound, 190, MPFR_RNDN);     // exact
    mpfr_sub(bound, bound, grown, MPFR_RNDD);       // ρ·|y|·(1 − 2^-190)
    mpfr_add_d(bound, bound, 0x1p-1070, MPFR_RNDD);
    ok = mpfr_cmp(diff, bound) <= 0;
    if (mpfr_cmp_d(ay, 0x1p-1022) >= 0 && mpfr_inf_p(ay) == 0) {
      mpfr_div(diff, diff, ay, MPFR_RNDN);
      const double units = std::ldexp(mpfr_get_d(diff, MPFR_RNDN), 53);
      if (units > rec.worst) rec.worst = units, rec.worst_x = x;
    }
  }
  if (!ok) {
    if (rec.failures++ == 0)
      rec.first = fmt::format("{}_o({:a}) = {:a}, MPFR: {:.20g}", f_name(f), x, got, mpfr_get_d(y, MPFR_RNDN));
  }
}

double oracle(F f, double x) {
  switch (f) {
    case F::Exp: return elementary::exp_o(x);
    case F::Expm1: return elementary::expm1_o(x);
    case F::Log: return elementary::log_o(x);
    case F::Tanh: return elementary::tanh_o(x);
    case F::Sigmoid: return elementary::sigmoid_o(x);
  }
  return kNaN;
}

double rho_of(F f) {
  switch (f) {
    case F::Exp: return elementary::kExpRel;
    case F::Expm1: return elementary::kExpm1Rel;
    case F::Log: return elementary::kLogRel;
    case F::Tanh: return elementary::kTanhRel;
    case F::Sigmoid: return elementary::kSigmoidRel;
  }
  return 0;
}

// The stated constants, restated from the spec ([Elem.oracle.exp] ... [Elem.oracle.sigmoid]).
double spec_rho(F f) {
  switch (f) {
    case F::Exp: return 0x1p-46;
    case F::Expm1: return 0x1p-44;
    case F::Log: return 0x1p-47;
    case F::Tanh: return 0x1p-43;
    case F::Sigmoid: return 0x1p-44;
  }
  return 0;
}

std::uint64_t oracle_seed() {
  if (const char* s = std::getenv("SONNX_ELEM_SEED")) return std::strtoull(s, nullptr, 0);
  return std::random_device{}() * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

// A double uniform in exponent and mantissa: with probability 7/8 |x| = (1 + m)·2^e, e uniform in
// [elo, ehi]; else any finite pattern (subnormals and huge values included, exponent field up to emax_field).
double draw_double(std::mt19937_64& g, int elo, int ehi, bool both_signs, int emax_field = 2046) {
  std::uint64_t b = 0;
  if ((g() & 7) != 0) {
    const int e = elo + static_cast<int>(g() % static_cast<std::uint64_t>(ehi - elo + 1));
    b = (static_cast<std::uint64_t>(e + 1023) << 52) | (g() >> 12);
  } else {
    b = (static_cast<std::uint64_t>(g() % static_cast<std::uint64_t>(emax_field + 1)) << 52) | (g() >> 12);
  }
  if (both_signs && (g() & 1)) b |= 0x8000000000000000ull;
  return std::bit_cast<double>(b);
}

void print_records(const char* what, const std::vector<std::pair<F, Record*>>& recs, std::uint64_t seed, double seconds) {
  for (const auto& [f, r] : recs)
    std::printf("[Elem.prop.oracle] %s: %s_o, %ld arguments, largest relative error %.2f units of 2^-53 (bound %.0f) at x = %a%s%s\n", what,
                f_name(f), r->checks, r->worst, std::ldexp(rho_of(f), 53), r->worst_x, r->failures ? ", FAILURES: " : "",
                r->failures ? r->first.c_str() : "");
  std::printf("[Elem.prop.oracle] %s: seed %llu (SONNX_ELEM_SEED replays), %.1f s\n", what, static_cast<unsigned long long>(seed), seconds);
  std::fflush(stdout);
}

}  // namespace

TEST_CASE("[Elem.prop.oracle] [Elem.oracle.exp] [Elem.oracle.expm1] [Elem.oracle.tanh] [Elem.oracle.sigmoid] exp_o, expm1_o, tanh_o "
          "and sigmoid_o are within their stated rho of MPFR on 10^6 random arguments each",
          "[elementary][props]") {
  for (F f : {F::Exp, F::Expm1, F::Tanh, F::Sigmoid}) CHECK(rho_of(f) == spec_rho(f));
  // One MPFR evaluation per draw serves four functions: t drawn, z = 2t (exact), then at 256 bits
  // X = e^z and E = e^z − 1 (mpfr_expm1 for |z| < 1, where e^z − 1 cancels; X − 1 otherwise, at least
  // 0.63 in magnitude: no cancellation), tanh t = E/(E + 2) (E + 2 > 1), σ(z) = X/(1 + X), σ(−z) = 1/(1 + X):
  // each within 2^-250 of the function relatively. |z| > 10^8 by hand: e^z is +Inf or below 2^-1076.
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t seed = oracle_seed();
  std::mt19937_64 g(seed);
  Record rexp, rexpm1, rtanh, rsig;
  constexpr long kDraws = 1000000;
  Mp X(256), E(256), Q(256), T(256), one(256, 1.0);
  for (long i = 0; i < kDraws; ++i) {
    const double t = draw_double(g, -60, 10, true, 2045);  // |t| < 2^1022: 2t is finite
    const double z = 2 * t;
    if (z > 1e8) {
      mpfr_set_inf(X, 1), mpfr_set_inf(E, 1);
    } else if (z < -1e8) {
      mpfr_set_zero(X, 1), mpfr_set_si(E, -1, MPFR_RNDN);  // e^z below 2^-10^8: 0 within 2^-1070
    } else if (std::fabs(z) < 1) {
      mpfr_set_d(Q, z, MPFR_RNDN);
      mpfr_expm1(E, Q, MPFR_RNDN);
      mpfr_add(X, E, one, MPFR_RNDN);
    } else {
      mpfr_set_d(Q, z, MPFR_RNDN);
      mpfr_exp(X, Q, MPFR_RNDN);
      mpfr_sub(E, X, one, MPFR_RNDN);
    }
    judge_oracle(rexp, F::Exp, z, rho_of(F::Exp), elementary::exp_o(z), X);
    judge_oracle(rexpm1, F::Expm1, z, rho_of(F::Expm1), elementary::expm1_o(z), E);
    if (mpfr_inf_p(X)) {
      mpfr_set_d(T, 1.0, MPFR_RNDN);  // tanh(t) = 1 − 2/(e^z + 1) for z > 10^8: 1 within 2^-10^8
    } else {
      mpfr_add_ui(Q, E, 2, MPFR_RNDN);
      mpfr_div(T, E, Q, MPFR_RNDN);
    }
    judge_oracle(rtanh, F::Tanh, t, rho_of(F::Tanh), elementary::tanh_o(t), T);
    mpfr_add_ui(Q, X, 1, MPFR_RNDN);
    if (mpfr_inf_p(X)) mpfr_set_d(T, 1.0, MPFR_RNDN);
    else mpfr_div(T, X, Q, MPFR_RNDN);
    judge_oracle(rsig, F::Sigmoid, z, rho_of(F::Sigmoid), elementary::sigmoid_o(z), T);
    mpfr_ui_div(T, 1, Q, MPFR_RNDN);  // 1/(1 + Inf) = 0: σ(−z) < 2^-10^8
    judge_oracle(rsig, F::Sigmoid, -z, rho_of(F::Sigmoid), elementary::sigmoid_o(-z), T);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_records("random", {{F::Exp, &rexp}, {F::Expm1, &rexpm1}, {F::Tanh, &rtanh}, {F::Sigmoid, &rsig}}, seed, seconds);
  for (const Record* r : {&rexp, &rexpm1, &rtanh, &rsig}) {
    INFO(r->first);
    CHECK(r->failures == 0);
  }
  WARN(fmt::format("[Elem.prop.oracle] largest relative errors (units of 2^-53): exp {:.2f}, expm1 {:.2f}, tanh {:.2f}, sigmoid {:.2f}",
                   rexp.worst, rexpm1.worst, rtanh.worst, rsig.worst));
}

TEST_CASE("[Elem.prop.oracle] [Elem.oracle.log] log_o is within its stated rho of MPFR on 10^6 random positive arguments, subnormals "
          "and arguments next to 1 included",
          "[elementary][props]") {
  CHECK(rho_of(F::Log) == spec_rho(F::Log));
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t seed = oracle_seed() + 1;
  std::mt19937_64 g(seed);
  Record rec;
  constexpr long kDraws = 1000000;
  Mp Y(256), A(64);
  for (long i = 0; i < kDraws; ++i) {
    double x;
    if ((g() % 5) == 0) {  // next to 1: 1 + δ, δ = ±(1 + m)·2^e, e in [−60, −1]
      const double delta = draw_double(g, -60, -1, true);
      x = 1 + (std::fabs(delta) < 0.5 ? delta : delta / 4);
    } else {  // every binade of binary64, subnormals included: the exponent field uniform
      x = std::fabs(draw_double(g, -1022, 1023, false));
      if ((g() & 15) == 0) x = std::bit_cast<double>(g() >> 12);  // a subnormal
    }
    if (!(x > 0) || std::isinf(x)) continue;
    mpfr_set_d(A, x, MPFR_RNDN);
    mpfr_log(Y, A, MPFR_RNDN);
    judge_oracle(rec, F::Log, x, rho_of(F::Log), elementary::log_o(x), Y);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_records("random", {{F::Log, &rec}}, seed, seconds);
  INFO(rec.first);
  CHECK(rec.failures == 0);
  WARN(fmt::format("[Elem.prop.oracle] largest relative error of log_o: {:.2f} units of 2^-53", rec.worst));
}

TEST_CASE("[Elem.prop.oracle] [Elem.oracle] [Elem.special] the binary64 functions on their edges: +-0.35, +-22, -745, -746, 709.78, "
          "710 and their neighbours, subnormals, x next to 1 for log, 0, +-Inf and NaN",
          "[elementary][props]") {
  const double dmax = std::numeric_limits<double>::max(), dmin = std::numeric_limits<double>::min();
  const double tiny = std::numeric_limits<double>::denorm_min();
  std::vector<double> centres = {0.35,   0.175,     22,   44,       11,        745,          745.1332191019412, 746,  708.39641853226408,
                                 709.78, 709.782712893384, 710,  1,        0.5,       0x1p-26,      0x1p-54, 1e-300, dmin,
                                 tiny,   3 * tiny,  dmin - tiny, 0x1p-1060, 36.7368005696771, 19.06154746539849, 103.972077083991796};
  std::vector<double> args;
  for (double c : centres)
    for (double s : {1.0, -1.0}) {
      double v = s * c;
      args.push_back(v);
      double up = v, down = v;
      for (int k = 0; k < 3; ++k) {
        up = std::nextafter(up, kInf), down = std::nextafter(down, -kInf);
        args.push_back(up), args.push_back(down);
      }
    }
  // the log reduction's boundaries (√½, √2 and their binades), 1 and its neighbours, the extremes
  std::vector<double> log_args = {1, 2, 0.5, dmax, dmin, tiny, 2 * tiny, dmin - tiny, 0x1.6a09e667f3bcdp-1, 0x1.6a09e667f3bcdp0,
                                  0x1.6a09e667f3bcdp-1000, 0x1.6a09e667f3bcdp+1000, 0x1.6a09e667f3bcdp-1060, 2.718281828459045};
  for (std::size_t n = log_args.size(), k = 0; k < n; ++k) {
    double up = log_args[k], down = log_args[k];
    for (int j = 0; j < 4; ++j) {
      up = std::nextafter(up, kInf), down = std::nextafter(down, 0.0);
      log_args.push_back(up), log_args.push_back(down);
    }
  }
  for (double e = 0x1p-30; e >= 0x1p-53; e /= 2) log_args.push_back(1 + e), log_args.push_back(1 - e / 2);
  for (double a : args)
    if (a > 0) log_args.push_back(a);
  Record recs[5];
  Mp y(256);
  for (F f : {F::Exp, F::Expm1, F::Log, F::Tanh, F::Sigmoid}) {
    Record& rec = recs[static_cast<int>(f)];
    for (double x : f == F::Log ? log_args : args) {
      if (f == F::Log && !(x > 0 && std::isfinite(x))) continue;
      if (f == F::Sigmoid) {
        mp_eval(f, x, y);
      } else {
        Mp a(64, x);
        switch (f) {
          case F::Exp: mpfr_exp(y, a, MPFR_RNDN); break;
          case F::Expm1: mpfr_expm1(y, a, MPFR_RNDN); break;
          case F::Log: mpfr_log(y, a, MPFR_RNDN); break;
          default: mpfr_tanh(y, a, MPFR_RNDN); break;
        }
      }
      judge_oracle(rec, f, x, rho_of(f), oracle(f, x), y);
    }
    INFO(rec.first);
    CHECK(rec.failures == 0);
    std::printf("[Elem.prop.oracle] edges: %s_o, %ld arguments, largest relative error %.2f units of 2^-53 at x = %a\n", f_name(f), rec.checks,
                rec.worst, rec.worst_x);
  }
  // The check itself is not vacuous: e (MPFR) moved by 2ρ = 2^-45 relatively is refused, by 2^-47 accepted.
  {
    Record r;
    mpfr_exp(y, Mp(64, 1.0), MPFR_RNDN);
    judge_oracle(r, F::Exp, 1.0, rho_of(F::Exp), y.d() * (1 + 0x1p-45), y);
    CHECK(r.failures == 1);
    judge_oracle(r, F::Exp, 1.0, rho_of(F::Exp), y.d() * (1 + 0x1p-47), y);
    CHECK(r.failures == 1);
  }
  // The special arguments, by hand ([Elem.special] and each function's clause): NaN gives a NaN;
  // e^(+Inf) = +Inf, e^(−Inf) = +0, e^(±0) = 1; e^(+Inf) − 1 = +Inf, e^(−Inf) − 1 = −1; ln(+Inf) = +Inf,
  // ln(±0) = −Inf, ln of a negative number a NaN; tanh(±Inf) = ±1; σ(+Inf) = 1, σ(−Inf) = 0, σ(±0) = 1/2.
  for (F f : {F::Exp, F::Expm1, F::Log, F::Tanh, F::Sigmoid}) CHECK(std::isnan(oracle(f, kNaN)));
  CHECK(elementary::exp_o(kInf) == kInf);
  CHECK(same_bits(elementary::exp_o(-kInf), 0.0));
  CHECK(elementary::exp_o(0.0) == 1.0);
  CHECK(elementary::exp_o(-0.0) == 1.0);
  CHECK(elementary::expm1_o(kInf) == kInf);
  CHECK(elementary::expm1_o(-kInf) == -1.0);
  CHECK(elementary::expm1_o(0.0) == 0.0);
  CHECK(elementary::log_o(kInf) == kInf);
  CHECK(elementary::log_o(0.0) == -kInf);
  CHECK(elementary::log_o(-0.0) == -kInf);
  CHECK(std::isnan(elementary::log_o(-1.0)));
  CHECK(std::isnan(elementary::log_o(-kInf)));
  CHECK(std::isnan(elementary::log_o(-tiny)));
  CHECK(same_bits(elementary::log_o(1.0), 0.0));
  CHECK(elementary::tanh_o(kInf) == 1.0);
  CHECK(elementary::tanh_o(-kInf) == -1.0);
  CHECK(elementary::tanh_o(0.0) == 0.0);
  CHECK(elementary::sigmoid_o(kInf) == 1.0);
  CHECK(same_bits(elementary::sigmoid_o(-kInf), 0.0));
  CHECK(elementary::sigmoid_o(0.0) == 0.5);
  CHECK(elementary::sigmoid_o(-0.0) == 0.5);
}

// =====================================================================================================
// [Elem.prop.run] and the operators' [X.prop.self]
// =====================================================================================================

TEST_CASE("[Exp.prop.self] [Elem.prop.run] [Elem.run] [Exp.float.formula] [Exp.shape] Exp: run writes MPFR's e^x rounded once to T, "
          "and it conforms",
          "[exp][elementary][props]") {
  run_self_property(F::Exp);
}

TEST_CASE("[Log.prop.self] [Elem.prop.run] [Elem.run] [Log.float.formula] [Log.shape] Log: run writes MPFR's ln x rounded once to T, "
          "and it conforms",
          "[log][elementary][props]") {
  run_self_property(F::Log);
}

TEST_CASE("[Tanh.prop.self] [Elem.prop.run] [Elem.run] [Tanh.float.formula] [Tanh.shape] Tanh: run writes MPFR's tanh x rounded once "
          "to T, and it conforms",
          "[tanh][elementary][props]") {
  run_self_property(F::Tanh);
}

TEST_CASE("[Sigmoid.prop.self] [Elem.prop.run] [Elem.run] [Sigmoid.float.formula] [Sigmoid.shape] Sigmoid: run writes MPFR's "
          "1/(1 + e^-x) rounded once to T, and it conforms",
          "[sigmoid][elementary][props]") {
  run_self_property(F::Sigmoid);
}

TEST_CASE("[Elem.prop.run] [Elem.run] [Exp.prop.self] [Log.prop.self] [Tanh.prop.self] [Sigmoid.prop.self] every float16 and bfloat16 "
          "pattern, each operator writes MPFR's value rounded once to T, and it conforms",
          "[elementary][props]") {
  for (DType t : {DType::Float16, DType::BFloat16}) {
    std::vector<double> xs(65536);
    for (std::uint64_t b = 0; b < 65536; ++b) xs[b] = value_of(t, b);
    Tensor X(t, {65536}, "every pattern");
    for (std::int64_t b = 0; b < 65536; ++b) set_bits_at(X, b, static_cast<std::uint64_t>(b));  // NaN payloads as they are
    for (F f : kOps) {
      const Tensor Y = run_op(f, 13, X);
      long bad = 0;
      std::string first;
      for (std::int64_t b = 0; b < 65536; ++b) {
        const std::string why = run_mismatch(f, t, xs[static_cast<std::size_t>(b)], Y, b);
        if (!why.empty() && bad++ < 3) first += why + "\n";
      }
      INFO(first);
      CHECK(bad == 0);
    }
  }
}

namespace {

// [Elem.run] a float argument next to a midpoint of float: the prescreen (glibc's binary64 function,
// within a few binary64 ulps) keeps x when f(x) is within 2^-36 of a midpoint relatively.
double prescreen(F f, double x) {
  switch (f) {
    case F::Exp: return std::exp(x);
    case F::Log: return std::log(x);
    case F::Tanh: return std::tanh(x);
    default: return 1 / (1 + std::exp(-x));
  }
}
bool near_float_midpoint(double d, double rel) {
  if (!(std::fabs(d) >= 0x1p-126) || !(std::fabs(d) < 0x1p127)) return false;
  int e = 0;
  std::frexp(d, &e);
  const double q = std::ldexp(1.0, e - 24);  // float's spacing in d's binade
  const double rem = std::fabs(std::fmod(d, q));
  return std::fabs(rem - q / 2) <= rel * std::fabs(d);
}

// σ(x) = 1/2 + x/4 − x³/48 + O(x⁵): for x = j·2^-23, j odd, σ(x) lies δ = x³/48 below the midpoint 1/2 + j·2^-25
// of float's grid 2^-24 in [1/2, 1); for j in 117..145, δ = j³·2^-69/48 is between half a binary64 ulp (2^-54)
// and one (2^-53), so the binary64 value nearest σ(x) is the double just below the midpoint and the rest is
// positive: σ(x) rounds down (to 1/2 + (j − 1)·2^-25), whatever the midpoint's even neighbour. The same for
// x = −j·2^-24, j odd in 185..231: σ(x) = 1/2 − j·2^-26 + δ, δ = j³·2^-72/48 in (2^-55, 2^-54], above the
// midpoint of the grid 2^-25 of [1/4, 1/2) by less than one binary64 ulp (2^-54): it rounds up. Half of them
// have the midpoint's even neighbour on the other side (j = 3 mod 4, and j = 1 mod 4 below).
std::vector<float> sigmoid_pinned() {
  std::vector<float> v;
  for (int j = 117; j <= 145; j += 2) v.push_back(static_cast<float>(std::ldexp(j, -23)));
  for (int j = 185; j <= 231; j += 2) v.push_back(static_cast<float>(-std::ldexp(j, -24)));
  return v;
}

}  // namespace

TEST_CASE("[Elem.prop.run] [Elem.run] float arguments whose value lies next to a midpoint of float, where the binary64 enclosure "
          "cannot decide, get MPFR's value rounded once",
          "[elementary][props]") {
  // Scanned windows of consecutive floats (deterministic), chosen so that each function has arguments
  // whose binary64 enclosure [ŷ − e_o, ŷ + e_o] holds a midpoint of float: there [Elem.run] takes the MPFR
  // value. The pinned arguments put f(x) within one binary64 ulp of a midpoint: there the binary64 value
  // nearest f(x) is the midpoint's neighbour, and only its rest (MPFR's lo) tells the side.
  struct Window {
    F f;
    float start;
    std::uint32_t count;
    std::vector<float> pinned;
  };
  const std::vector<Window> windows = {
      {F::Exp, 1.0f, 1u << 22, {}},
      // the three floats (of all 2^31 positive ones) whose ln x lies less than one binary64 ulp from a midpoint
      // of float on the side away from the midpoint's even neighbour (a scan with glibc's log, then MPFR)
      {F::Log, 3.0f, 1u << 22, {0x1.cb534cp+13f, 0x1.d1309cp+62f, 0x1.cfd86ep+116f}},
      {F::Tanh, 0.25f, 1u << 21, {}},
      {F::Sigmoid, -3.0f, 1u << 21, sigmoid_pinned()},
  };
  for (const Window& w : windows) {
    std::vector<double> xs;
    std::uint32_t b = std::bit_cast<std::uint32_t>(w.start);
    for (std::uint32_t k = 0; k < w.count; ++k, ++b) {
      const double x = std::bit_cast<float>(b);
      if (near_float_midpoint(prescreen(w.f, x), 0x1p-36)) xs.push_back(x);
    }
    for (float p : w.pinned) xs.push_back(p);
    const Tensor Y = run_op(w.f, 13, tensor_of(DType::Float, xs));
    long bad = 0, undecided = 0;
    std::string first;
    Mp y(256);
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const auto i = static_cast<std::int64_t>(k);
      const std::string why = run_mismatch(w.f, DType::Float, xs[k], Y, i);
      if (!why.empty() && bad++ < 3) first += why + "\n";
      // the midpoint next to f(x), from MPFR: fl(f(x)) and its neighbour on f(x)'s side
      mp_eval(w.f, xs[k], y);
      const double c = expected(w.f, DType::Float, xs[k]);
      const double other = step(DType::Float, c, mpfr_cmp_d(y, c) > 0 ? 1 : -1);
      const double mid = (c + other) / 2;  // exact: two neighbouring floats
      const accuracy::Element e = Y.annex->at(i);
      if (std::fabs(e.hi - mid) <= e.oracle) ++undecided;
    }
    std::printf("[Elem.prop.run] %s, float: %zu arguments next to a midpoint, %ld undecided by the binary64 enclosure\n", f_name(w.f),
                xs.size(), undecided);
    INFO(f_name(w.f) << ": " << first);
    CHECK(bad == 0);
    CHECK(undecided >= 1);
  }
}

// =====================================================================================================
// [Elem.prop.hyp], [Elem.prop.ulps] and the operators' [X.prop.hyp] [X.prop.tight]
// =====================================================================================================

TEST_CASE("[Exp.prop.hyp] [Exp.prop.tight] [Exp.bound] [Elem.prop.hyp] [Elem.hyp] Exp: a value of T within K ulps of e^x conforms, "
          "one K + 1 ulps away does not",
          "[exp][elementary][props]") {
  hyp_property(F::Exp);
}

TEST_CASE("[Log.prop.hyp] [Log.prop.tight] [Log.bound] [Elem.prop.hyp] [Elem.hyp] Log: a value of T within K ulps of ln x conforms, "
          "one K + 1 ulps away does not",
          "[log][elementary][props]") {
  hyp_property(F::Log);
}

TEST_CASE("[Tanh.prop.hyp] [Tanh.prop.tight] [Tanh.bound] [Elem.prop.hyp] [Elem.hyp] Tanh: a value of T within K ulps of tanh x "
          "conforms, saturation included, one K + 1 ulps away does not",
          "[tanh][elementary][props]") {
  hyp_property(F::Tanh);
}

TEST_CASE("[Elem.prop.hyp] [Elem.hyp] [Exp.prop.hyp] K ulps count from f(x), not from fl_T(f(x)): a pinned float example where "
          "fl_T(e^x) moved by K = 1 ulp is 1.48 ulps from e^x and does not conform",
          "[exp][elementary][props]") {
  // x = 0.9375 (15/16). e^x = 2.55358945806292692... = 2^1 · 1.2767947...; in [2, 4) the ulp of float is
  // 2^-22, and e^x / 2^-22 = 10710530.478..., so fl(e^x) = 10710530·2^-22 (below e^x by 0.478 ulp). One step
  // down, 10710529·2^-22, is 1.478 ulps from e^x; B = κ·e^x = 2·2^-24·2.5536 = 1.2768·2^-22: outside. One
  // step up, 10710531·2^-22, is 0.522 ulp away: inside. (Values from the series of e^x by hand, to 8 digits;
  // MPFR below.)
  const Tensor Y = ops::exp_op(13, tensor_of(DType::Float, {0.9375}));
  const accuracy::Element e = Y.annex->at(0);
  const double c = 10710530 * 0x1p-22;
  CHECK(value_of(DType::Float, bits_at(Y, 0)) == c);
  Mp y(256);
  mp_eval(F::Exp, 0.9375, y);
  CHECK(dist(c - 0x1p-22, y) / 0x1p-22 > 1.47);
  CHECK_FALSE(accuracy::judge(DType::Float, e, c - 0x1p-22).conforms);
  CHECK(accuracy::judge(DType::Float, e, c + 0x1p-22).conforms);
  CHECK(accuracy::judge(DType::Float, e, c).conforms);
}

TEST_CASE("[Elem.prop.ulps] [Elem.ulps] [Elem.hyp] the K set by parse_ulps moves kappa = 2K u_T and alpha = K eta_T and the radius with "
          "them, reset_ulps restores the defaults",
          "[elementary][props]") {
  UlpsReset reset;
  elementary::reset_ulps();
  for (DType t : kFloatTypes)
    for (elementary::Fn fn : elementary::kAllFns) {
      INFO(elementary::fn_name(fn) << " " << name(t));
      CHECK(elementary::default_ulps(fn, t) == spec_default_K(fn, t));
      CHECK(elementary::ulps(fn, t) == spec_default_K(fn, t));
    }
  check("K from parse_ulps scales B as K does", [] {
    UlpsReset guard;
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
    const F f = *rc::gen::element(F::Exp, F::Log, F::Tanh, F::Sigmoid);
    const elementary::Fn fn = fn_of(f);
    const double K1 = *rc::gen::element(0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 7.0, 16.0, 1000.0, 1048576.0);
    double x = draw_x(f, t);
    if (f == F::Sigmoid) x = rnd(t, std::fmod(x, 16.0));
    const double want = expected(f, t, x);
    RC_PRE(std::isfinite(x));
    RC_PRE(std::isfinite(want));
    RC_PRE(want != 0);
    const Tensor X = tensor_of(t, {x});
    const accuracy::Element e0 = run_op(f, 13, X).annex->at(0);
    const double K0 = spec_default_K(fn, t);
    elementary::parse_ulps(fmt::format("{}={}", elementary::fn_name(fn), K1));
    RC_ASSERT(elementary::ulps(fn, t) == K1);
    const Tf c = tf(t);
    const elementary::Perturbation p = elementary::perturbation(fn, t);
    PROP_EXPECT(p.kappa >= 2 * K1 * c.u, "κ = {:a} below 2K·u_T", p.kappa);
    PROP_EXPECT(p.kappa <= 2 * K1 * c.u * (1 + 0x1p-50), "κ = {:a} above 2K·u_T", p.kappa);
    PROP_EXPECT(p.alpha >= K1 * c.eta, "α = {:a} below K·η_T", p.alpha);
    // (rounded up by one binary64 step: for double's η_T = 2^-1074, that step is η_T itself)
    PROP_EXPECT(p.alpha <= K1 * c.eta * (1 + 0x1p-50) + 0x1p-1074, "α = {:a} above K·η_T", p.alpha);
    const accuracy::Element e1 = run_op(f, 13, X).annex->at(0);
    Mp y(256);
    mp_eval(f, x, y);
    if (f == F::Sigmoid) {  // [Sigmoid.bound] with κ and α of K1
      Mp em(256);
      mp_eval(F::Exp, -x, em);
      bool over = false;
      const long double B = sigmoid_bound(t, K1, mpfr_get_ld(y, MPFR_RNDU), mpfr_get_ld(em, MPFR_RNDU), &over);
      PROP_EXPECT(e1.bound >= B * (1 - 0x1p-48L), "Sigmoid {} K = {}: B̂ = {:a} below the spec's B = {:a}", name(t), K1, e1.bound,
                  static_cast<double>(B));
      if (!over) PROP_EXPECT(e1.bound <= B * (1 + 0x1p-30L) + 0x1p-1060L, "Sigmoid {} K = {}: B̂ = {:a} above the spec's B = {:a}", name(t),
                             K1, e1.bound, static_cast<double>(B));
    } else {  // B = κ|y| + α scales with K: B̂ follows the restated B for both K (up to its rounding up: 2^-40
              // relatively, and the absolute 2^-1072 and one binary64 step of α in the subnormal range)
      for (const auto& [Kk, ek] : {std::pair{K0, e0}, std::pair{K1, e1}}) {
        const double Bk = hyp_bound(t, Kk, y);
        PROP_EXPECT(ek.bound >= Bk, "{} {} K = {}: B̂ = {:a} below the spec's B = {:a}", f_name(f), name(t), Kk, ek.bound, Bk);
        PROP_EXPECT(ek.bound <= Bk * (1 + 0x1p-40) + 0x1p-1069, "{} {} K = {}: B̂ = {:a} above the spec's B = {:a}", f_name(f), name(t), Kk,
                    ek.bound, Bk);
      }
      // and so does the radius R = B̂ + e_o where f(x) is a normal value of T (e_o <= 2^-42·|y| is then below
      // 2^-17 of B̂ >= 2K·u_T·|y| for K >= 1/2), away from double's lowest binades (where the absolute 2^-1072
      // of B̂ and R is some ulps)
      if (K1 >= 0.5 && mpfr_cmpabs(y, Mp(64, std::max(c.lambda, 0x1p-1000))) >= 0) {
        const double ratio = e1.radius / e0.radius;
        PROP_EXPECT(std::fabs(ratio / (K1 / K0) - 1) <= 0x1p-16, "{} {}: R = {:a} with K = {}, {:a} with K = {}: not in proportion",
                    f_name(f), name(t), e1.radius, K1, e0.radius, K0);
        RC_CLASSIFY(true, "radius in proportion");
      }
    }
    PROP_EXPECT(e1.hi == e0.hi, "the centre moved with K");
    elementary::reset_ulps();
    RC_ASSERT(elementary::ulps(fn, t) == K0);
    const accuracy::Element e2 = run_op(f, 13, X).annex->at(0);
    PROP_EXPECT(same_bits(e2.radius, e0.radius), "reset_ulps: R = {:a}, before {:a}", e2.radius, e0.radius);
    PROP_EXPECT(same_bits(e2.bound, e0.bound), "reset_ulps: B̂ = {:a}, before {:a}", e2.bound, e0.bound);
    RC_TAG(name(t));
    RC_TAG(f_name(f));
  });
}

TEST_CASE("[Elem.prop.ulps] [Elem.err.ulps] malformed --elementary-ulps items are refused with Elem.err.ulps, well-formed ones accepted",
          "[elementary][props]") {
  UlpsReset reset;
  for (const char* bad : {"exp", "exp=", "foo=1", "exp=-1", "exp=1e30", "exp=4,", "", "=4", ",exp=4", "exp=4,,log=1", "exp=nan",
                          "exp=inf", "exp=1048577", "EXP=4", "exp=4x", "exp=4,tanh", "sqrt=1", "exp=0x10", "exp= 4", "exp=-0"}) {
    INFO("'" << bad << "'");
    CHECK(refusal_id([&] { elementary::parse_ulps(bad); }) == "Elem.err.ulps");
    elementary::reset_ulps();
  }
  for (const char* good : {"exp=4", "exp=0", "pow=1048576", "exp=2,log=3,tanh=4,pow=5", "tanh=0.5", "log=1e3", "exp=2.5e0"}) {
    INFO("'" << good << "'");
    CHECK(refusal_id([&] { elementary::parse_ulps(good); }) == "(accepted)");
    elementary::reset_ulps();
  }
  elementary::parse_ulps("exp=2,log=3,tanh=4,pow=5");
  CHECK(elementary::ulps(elementary::Fn::Exp, DType::Float) == 2);
  CHECK(elementary::ulps(elementary::Fn::Log, DType::Float16) == 3);
  CHECK(elementary::ulps(elementary::Fn::Tanh, DType::Double) == 4);
  CHECK(elementary::ulps(elementary::Fn::Pow, DType::BFloat16) == 5);
  CHECK(refusal_id([] { elementary::set_ulps(elementary::Fn::Exp, -1); }) == "Elem.err.ulps");
  CHECK(refusal_id([] { elementary::set_ulps(elementary::Fn::Exp, kNaN); }) == "Elem.err.ulps");
  elementary::reset_ulps();
  CHECK(elementary::ulps(elementary::Fn::Tanh, DType::Double) == 3);
}

// =====================================================================================================
// Sigmoid
// =====================================================================================================

TEST_CASE("[Sigmoid.prop.forms] [Sigmoid.hyp] [Sigmoid.bound] [Sigmoid.overflow] both forms, with exp correctly rounded and moved by up "
          "to K ulps, every operation in T and in binary64, conform, saturation and overflow included",
          "[sigmoid][elementary][props]") {
  check("1/(1 + E), E/(1 + E) and E·(1/(1 + E)) conform", [] {
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
    const int n = *rc::gen::inRange(1, 9);
    std::vector<double> xs;
    for (int k = 0; k < n; ++k) xs.push_back(draw_sigmoid_x(t));
    const Tensor Y = run_op(F::Sigmoid, draw_version(t), tensor_of(t, xs));
    const double K = spec_default_K(elementary::Fn::Exp, t);
    RC_ASSERT(elementary::ulps(elementary::Fn::Exp, t) == K);
    const int Ki = static_cast<int>(K);
    for (int k = 0; k < n; ++k) {
      const double x = xs[static_cast<std::size_t>(k)];
      if (!std::isfinite(x)) continue;
      const accuracy::Element e = Y.annex->at(k);
      // the restated bound
      Mp y(256), em(256);
      mp_eval(F::Sigmoid, x, y);
      mp_eval(F::Exp, -x, em);
      bool over = false;
      const long double B = sigmoid_bound(t, K, mpfr_get_ld(y, MPFR_RNDU), mpfr_get_ld(em, MPFR_RNDU), &over);
      PROP_EXPECT(e.radius >= B * (1 - 0x1p-48L), "Sigmoid {} x = {:a}: R = {:a} below the spec's B = {:a}", name(t), x, e.radius,
                  static_cast<double>(B));
      RC_CLASSIFY(over, "e^-x may overflow T");
      // every evaluation of the forms
      auto judge = [&](double r, const char* form, const char* arith, double E) {
        const accuracy::Judgement j = accuracy::judge(t, e, r);
        PROP_EXPECT(j.conforms, "Sigmoid {} x = {:a}: form {} in {} with E = {:a} gives {:a}: does not conform (error {:.3g}, R = {:.3g}, "
                    "centre {:a})", name(t), x, form, arith, E, r, j.error, e.radius, e.hi);
      };
      const bool wide = t != DType::Double;
      // form 1: E = ẽxp(−x) = fl_T(e^(−x)) moved by up to K ulps of T
      const double cr_em = expected(F::Exp, t, -x);
      for (int j = -Ki; j <= Ki; ++j) {
        const double E = step(t, cr_em, j);
        judge(to_t(t, 1 / to_t(t, 1 + E)), "1/(1 + E)", "T", E);
        if (wide && std::isfinite(E)) judge(to_t(t, 1 / (1 + E)), "1/(1 + E)", "binary64", E);
      }
      if (wide) {  // an exp computed in binary64 ([Acc.hyp] 4): fl64(e^(−x)) itself
        const double E = expected(F::Exp, DType::Double, -x);
        judge(to_t(t, 1 / (1 + E)), "1/(1 + E)", "binary64, E in binary64", E);
      }
      if (x < 0) {  // form 2: E = ẽxp(x)
        const double cr_ep = expected(F::Exp, t, x);
        for (int j = -Ki; j <= Ki; ++j) {
          const double E = step(t, cr_ep, j);
          judge(to_t(t, E / to_t(t, 1 + E)), "E/(1 + E)", "T", E);
          judge(to_t(t, E * to_t(t, 1 / to_t(t, 1 + E))), "E·(1/(1 + E))", "T", E);
          if (wide) {
            judge(to_t(t, E / (1 + E)), "E/(1 + E)", "binary64", E);
            judge(to_t(t, E * (1 / (1 + E))), "E·(1/(1 + E))", "binary64", E);
          }
        }
        if (wide) {
          const double E = expected(F::Exp, DType::Double, x);
          judge(to_t(t, E / (1 + E)), "E/(1 + E)", "binary64, E in binary64", E);
        }
      }
      RC_CLASSIFY(x >= 15, "saturation");
    }
    RC_TAG(name(t));
  });
}

TEST_CASE("[Sigmoid.prop.faults] [Sigmoid.bound] 0.5(1 + tanh(x/2)) in float does not conform for x < -20, and sigmoid moved by 6K + 4 "
          "ulps does not conform",
          "[sigmoid][elementary][props]") {
  // By hand: for x = −20.5, x/2 = −10.25 is exact; tanh(−10.25) = −0.9999999975 rounds to −1 in float (1 − 2.5e-9
  // is within half an ulp below 1, 2^-25 = 3e-8); 1 + (−1) = 0; 0.5·0 = 0. σ(−20.5) = 1.2502e-9, a normal float;
  // B ≈ 5·2^-24·σ ≈ 3.7e-16: 0 is 1.25e-9 away, it does not conform.
  {
    const double x = -20.5;
    const double th = expected(F::Tanh, DType::Float, x / 2);
    CHECK(th == -1.0);
    const double r = to_t(DType::Float, 0.5 * to_t(DType::Float, 1 + th));
    CHECK(r == 0.0);
    const Tensor Y = ops::sigmoid_op(13, tensor_of(DType::Float, {x}));
    CHECK_FALSE(accuracy::judge(DType::Float, Y.annex->at(0), r).conforms);
  }
  check("the tanh form in float is found on x in [-80, -20], sigmoid moved by 6K + 4 ulps is found", [] {
    {
      const double r01 = static_cast<double>(*rc::gen::inRange(0, 1 << 30)) * 0x1p-30;
      const double x = rnd(DType::Float, -80 + 60 * r01);
      const double th = expected(F::Tanh, DType::Float, to_t(DType::Float, x / 2));
      const double r = to_t(DType::Float, 0.5 * to_t(DType::Float, 1 + th));
      const Tensor Y = ops::sigmoid_op(13, tensor_of(DType::Float, {x}));
      PROP_EXPECT(!accuracy::judge(DType::Float, Y.annex->at(0), r).conforms, "x = {:a}: 0.5(1 + tanh(x/2)) = {:a} conforms", x, r);
    }
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
    const double x = draw_sigmoid_x(t);
    RC_PRE(std::isfinite(x));
    const double K = spec_default_K(elementary::Fn::Exp, t);
    const Tf c = tf(t);
    Mp y(256);
    mp_eval(F::Sigmoid, x, y);
    RC_PRE(mpfr_cmp_d(y, c.lambda) >= 0);  // a normal σ(x)
    const double want = expected(F::Sigmoid, t, x);
    const int away = mpfr_cmp_d(y, want) < 0 ? 1 : -1;
    const double r = step(t, want, away * static_cast<int>(6 * K + 4));
    RC_PRE(dist(r, y, MPFR_RNDD) >= (6 * K + 4) * ulp_of(t, y));  // not shortened by a power of two
    // B <= (3 + 2K)·ulp_T(σ) + (K + 1/2)·η_T for a normal σ (φ ≈ 3u_T, κ = 2K·u_T, u_T·σ < ulp_T(σ)), and R adds
    // e_o and 2^-1071 at most: 6K + 4 ulps is beyond unless double's absolute parts (2^-1070) weigh (near λ_T)
    RC_PRE((6 * K + 4) * ulp_of(t, y) > (3 + 2 * K) * 1.01 * ulp_of(t, y) + (K + 0.5) * c.eta + 0x1p-1070);
    const Tensor Y = ops::sigmoid_op(13, tensor_of(t, {x}));
    PROP_EXPECT(!accuracy::judge(t, Y.annex->at(0), r).conforms, "Sigmoid {} x = {:a}: σ moved by 6K + 4 ulps ({:a}) conforms", name(t), x, r);
    RC_TAG(name(t));
  });
}

// =====================================================================================================
// Edges, overflow, refusals (pinned, by hand)
// =====================================================================================================

namespace {

// The element of f on the single argument x in T.
struct One {
  std::uint64_t bits;
  accuracy::Element e;
};
One one(F f, DType t, double x, int version = 13) {
  const Tensor Y = run_op(f, version, tensor_of(t, {x}));
  return {bits_at(Y, 0), Y.annex->at(0)};
}
bool conforms(DType t, const One& o, double r) { return accuracy::judge(t, o.e, r).conforms; }
double max_finite(DType t) { return value_of(t, bits_of(t, kInf) - 1); }

}  // namespace

TEST_CASE("[Exp.edge] [Elem.special] Exp: NaN gives a NaN, +Inf gives +Inf, -Inf gives 0, only those conform", "[exp][elementary][props]") {
  for (DType t : kFloatTypes) {
    INFO(name(t));
    const double eta = tf(t).eta;
    One o = one(F::Exp, t, kNaN);
    CHECK(o.bits == nan_bits(t));
    CHECK(conforms(t, o, -kNaN));
    CHECK_FALSE(conforms(t, o, 0.0));
    CHECK_FALSE(conforms(t, o, kInf));
    o = one(F::Exp, t, kInf);
    CHECK(o.bits == bits_of(t, kInf));
    CHECK(conforms(t, o, kInf));
    CHECK_FALSE(conforms(t, o, max_finite(t)));
    CHECK_FALSE(conforms(t, o, kNaN));
    o = one(F::Exp, t, -kInf);
    CHECK(o.bits == 0);  // +0
    CHECK(conforms(t, o, 0.0));
    CHECK(conforms(t, o, -0.0));  // [Acc.zero] a zero of either sign
    CHECK_FALSE(conforms(t, o, eta));
    CHECK_FALSE(conforms(t, o, kNaN));
    o = one(F::Exp, t, -0.0);  // e^0 = 1 exactly
    CHECK(o.bits == bits_of(t, 1.0));
  }
}

TEST_CASE("[Log.edge] [Elem.special] Log: NaN and negative arguments give a NaN, +-0 gives -Inf, +Inf gives +Inf, only those conform",
          "[log][elementary][props]") {
  for (DType t : kFloatTypes) {
    INFO(name(t));
    for (double x : {kNaN, -1.0, -kInf, -tf(t).eta}) {
      const One o = one(F::Log, t, x);
      CHECK(o.bits == nan_bits(t));
      CHECK(conforms(t, o, kNaN));
      CHECK_FALSE(conforms(t, o, -kInf));
      CHECK_FALSE(conforms(t, o, 0.0));
    }
    for (double x : {0.0, -0.0}) {
      const One o = one(F::Log, t, x);
      CHECK(o.bits == bits_of(t, -kInf));
      CHECK(conforms(t, o, -kInf));
      CHECK_FALSE(conforms(t, o, -max_finite(t)));
      CHECK_FALSE(conforms(t, o, kNaN));
    }
    One o = one(F::Log, t, kInf);
    CHECK(o.bits == bits_of(t, kInf));
    CHECK(conforms(t, o, kInf));
    CHECK_FALSE(conforms(t, o, max_finite(t)));
    o = one(F::Log, t, 1.0);  // ln 1 = 0 exactly: +0; B = α = K·η_T, and e_o holds the oracle's 2^-1070
    CHECK(o.bits == 0);
    CHECK(conforms(t, o, -0.0));
    CHECK(conforms(t, o, tf(t).eta));
    CHECK_FALSE(conforms(t, o, t == DType::Double ? 0x1p-1060 : 2 * tf(t).eta));
  }
}

TEST_CASE("[Tanh.edge] [Elem.special] Tanh: NaN gives a NaN, +-Inf gives +-1, +-0 gives +-0, only those conform",
          "[tanh][elementary][props]") {
  for (DType t : kFloatTypes) {
    INFO(name(t));
    One o = one(F::Tanh, t, kNaN);
    CHECK(o.bits == nan_bits(t));
    CHECK(conforms(t, o, kNaN));
    CHECK_FALSE(conforms(t, o, 1.0));
    for (double s : {1.0, -1.0}) {
      o = one(F::Tanh, t, s * kInf);
      CHECK(o.bits == bits_of(t, s));
      CHECK(conforms(t, o, s));
      CHECK_FALSE(conforms(t, o, step(t, s, s > 0 ? -1 : 1)));  // the value of T next to ±1 towards 0
      CHECK_FALSE(conforms(t, o, kNaN));
      o = one(F::Tanh, t, s * 0.0);
      CHECK(o.bits == bits_of(t, s * 0.0));
      CHECK(conforms(t, o, 0.0));
      CHECK(conforms(t, o, -0.0));
      CHECK_FALSE(conforms(t, o, tf(t).eta));
    }
  }
}

TEST_CASE("[Sigmoid.edge] Sigmoid: NaN gives a NaN, +Inf gives 1, -Inf gives 0, only those conform", "[sigmoid][elementary][props]") {
  for (DType t : kFloatTypes) {
    INFO(name(t));
    One o = one(F::Sigmoid, t, kNaN);
    CHECK(o.bits == nan_bits(t));
    CHECK(conforms(t, o, kNaN));
    CHECK_FALSE(conforms(t, o, 0.5));
    o = one(F::Sigmoid, t, kInf);
    CHECK(o.bits == bits_of(t, 1.0));
    CHECK(conforms(t, o, 1.0));
    CHECK_FALSE(conforms(t, o, step(t, 1.0, -1)));
    o = one(F::Sigmoid, t, -kInf);
    CHECK(o.bits == 0);
    CHECK(conforms(t, o, 0.0));
    CHECK_FALSE(conforms(t, o, tf(t).eta));
    o = one(F::Sigmoid, t, 0.0);  // σ(0) = 1/2 exactly
    CHECK(o.bits == bits_of(t, 0.5));
  }
}

TEST_CASE("[Exp.overflow] [Elem.oracle.exp] Exp: +Inf conforms where e^x (1 + kappa) + alpha reaches Omega_T, only +Inf beyond "
          "binary64's range, pinned examples",
          "[exp][elementary][props]") {
  // float, x = 89: e^89 = 4.4896e38 (e^89 = e^88.72284·e^0.27716 = Ω·1.3194, ln Ω = 127 ln 2 + ln(2 − 2^-24)
  // = 88.7228391) exceeds Ω_float = 3.40282367e38: run writes +Inf, +Inf conforms, FLT_MAX is 1.09e38 away
  // (B = 2^-23·4.49e38 = 5.4e31): it does not.
  One o = one(F::Exp, DType::Float, 89);
  CHECK(o.bits == 0x7F800000);
  CHECK(conforms(DType::Float, o, kInf));
  CHECK_FALSE(conforms(DType::Float, o, 0x1.fffffep127));
  // float, x = 88.5: e^88.5 = 2.7231e38 = Ω·0.8002: (1 + 2^-23)·e^x < Ω: +Inf does not conform, the finite
  // fl(e^x) does (run writes it).
  o = one(F::Exp, DType::Float, 88.5);
  CHECK(std::isfinite(value_of(DType::Float, o.bits)));
  CHECK(std::fabs(value_of(DType::Float, o.bits) / 2.7230878250681116e38 - 1) < 1e-7);
  CHECK_FALSE(conforms(DType::Float, o, kInf));
  CHECK(conforms(DType::Float, o, value_of(DType::Float, o.bits)));
  // float16, x = 11: e^11 = 59874.14; float16's spacing in [32768, 65536) is 32: 59874.14/32 = 1871.07, so
  // fl(e^11) = 1871·32 = 59872 = 1.827...·2^15: exponent field 30, fraction 1871 − 1024 = 847 = 0x34F: 0x7B4F.
  // (1 + 2^-10)·59874.14 = 59932.6 < Ω16 = 65520: +Inf does not conform.
  o = one(F::Exp, DType::Float16, 11);
  CHECK(o.bits == 0x7B4F);
  CHECK_FALSE(conforms(DType::Float16, o, kInf));
  // float16, x = 11.125: e^11.125 = e^11·e^0.125 = 59874.14·1.1331485 = 67846.3 > 65520: +Inf (0x7C00).
  o = one(F::Exp, DType::Float16, 11.125);
  CHECK(o.bits == 0x7C00);
  CHECK(conforms(DType::Float16, o, kInf));
  CHECK_FALSE(conforms(DType::Float16, o, 65504));
  // bfloat16, x = 89: 4.49e38 > Ω_bf16 = (2 − 2^-8)·2^127 = 3.396e38: +Inf (0x7F80).
  o = one(F::Exp, DType::BFloat16, 89);
  CHECK(o.bits == 0x7F80);
  CHECK(conforms(DType::BFloat16, o, kInf));
  // double, x = 709.78: e^x = 1.79282e308 < DBL_MAX = 1.79769e308 (ln DBL_MAX = 709.782712893384): finite,
  // and with κ = 2^-52 far from Ω: +Inf does not conform.
  o = one(F::Exp, DType::Double, 709.78);
  CHECK(std::isfinite(value_of(DType::Double, o.bits)));
  CHECK_FALSE(conforms(DType::Double, o, kInf));
  // double, x = 710: e^710 = 2.23399e308 exceeds binary64's range: only +Inf conforms, DBL_MAX does not.
  o = one(F::Exp, DType::Double, 710);
  CHECK(o.bits == 0x7FF0000000000000ull);
  CHECK(conforms(DType::Double, o, kInf));
  CHECK_FALSE(conforms(DType::Double, o, 0x1.fffffffffffffp1023));
  // "besides a finite value within B": with K_exp = 4096 (κ = 2^-11 for float), x = 88.7225 (a float:
  // 88.72250366...) has e^x = Ω·e^(x − ln Ω) = Ω·(1 − 3.36e-4) and (1 + 2^-11)·e^x > Ω: +Inf conforms, and so
  // does fl(e^x), the finite value run writes.
  {
    UlpsReset reset;
    elementary::parse_ulps("exp=4096");
    const double x = static_cast<float>(88.7225);
    o = one(F::Exp, DType::Float, x);
    const double r = value_of(DType::Float, o.bits);
    CHECK(std::isfinite(r));
    CHECK(conforms(DType::Float, o, kInf));
    CHECK(conforms(DType::Float, o, r));
  }
}

TEST_CASE("[Sigmoid.overflow] Sigmoid: where e^-x may overflow T, 0 conforms, pinned examples", "[sigmoid][elementary][props]") {
  // float, x = −89: e^89 = 4.49e38 overflows float, form 1 gives 1/(1 + Inf) = 0. σ(−89) = 1/(1 + e^89) =
  // 2.22736356e-39 (= e^-89·(1 − e^-89)), subnormal: 2.22736356e-39/2^-149 = 1589499.75, so run writes
  // 1589500·2^-149, the pattern 1589500 = 0x001840FC. B >= σ: 0 conforms, 3σ does not.
  One o = one(F::Sigmoid, DType::Float, -89);
  CHECK(o.bits == 1589500u);
  CHECK(conforms(DType::Float, o, 0.0));
  CHECK(conforms(DType::Float, o, value_of(DType::Float, o.bits)));
  CHECK_FALSE(conforms(DType::Float, o, 3 * 2.2273635617957437e-39));
  // float, x = −80: e^80 = 5.54e34 < Ω: no overflow; σ(−80) = 1.80485e-35 is a normal float, B ≈ 5·2^-24·σ:
  // 0 does not conform.
  o = one(F::Sigmoid, DType::Float, -80);
  CHECK_FALSE(conforms(DType::Float, o, 0.0));
  // float16, x = −12: e^12 = 162754.8 > 65520 overflows; σ(−12) = 6.14417e-6 = 103.082·2^-24 (subnormal):
  // run writes 103·2^-24 = 0x0067, and 0 conforms.
  o = one(F::Sigmoid, DType::Float16, -12);
  CHECK(o.bits == 0x0067);
  CHECK(conforms(DType::Float16, o, 0.0));
  // float16, x = −11: (1 + 2^-10)·e^11 + 1 = 59933.6 < 65520: no overflow; σ(−11) = 1.6701e-5 = 280.2·2^-24
  // while B ≈ 1.5·2^-24 + 5·2^-11·σ: 0 does not conform.
  o = one(F::Sigmoid, DType::Float16, -11);
  CHECK_FALSE(conforms(DType::Float16, o, 0.0));
  // double, x = −746: e^746 overflows binary64 (ln DBL_MAX = 709.78); σ(−746) < e^-746 = 9.8e-325, below
  // 2^-1075 = 2.47e-324 (half the least subnormal): run writes +0, and 0 conforms.
  o = one(F::Sigmoid, DType::Double, -746);
  CHECK(o.bits == 0);
  CHECK(conforms(DType::Double, o, 0.0));
}

TEST_CASE("[Exp.err.dtype] [Log.err.dtype] [Tanh.err.dtype] [Sigmoid.err.dtype] [Exp.v13] [Log.v13] [Tanh.v13] [Sigmoid.v13] "
          "[Exp.v1] [Exp.v6] [Log.v1] [Log.v6] [Tanh.v1] [Tanh.v6] [Sigmoid.v1] [Sigmoid.v6] an int32 tensor is refused, "
          "float16, float and double accepted by every version, bfloat16 only from version 13",
          "[elementary][props]") {
  const struct {
    F f;
    const char* id;
  } cases[] = {{F::Exp, "Exp.err.dtype"}, {F::Log, "Log.err.dtype"}, {F::Tanh, "Tanh.err.dtype"}, {F::Sigmoid, "Sigmoid.err.dtype"}};
  for (const auto& c : cases) {
    INFO(f_name(c.f));
    for (DType bad : {DType::Int32, DType::Int64, DType::Bool, DType::Uint8}) {
      const Tensor X(bad, {2}, "bad");
      for (int v : {1, 6, 13}) CHECK(refusal_id([&] { run_op(c.f, v, X); }) == c.id);
    }
    const Tensor B = tensor_of(DType::BFloat16, {1.0});
    CHECK(refusal_id([&] { run_op(c.f, 6, B); }) == c.id);
    CHECK(refusal_id([&] { run_op(c.f, 1, B); }) == c.id);
    CHECK(refusal_id([&] { run_op(c.f, 13, B); }) == "(accepted)");
    for (DType t : {DType::Float16, DType::Float, DType::Double}) CHECK(refusal_id([&] { run_op(c.f, 1, tensor_of(t, {0.5})); }) == "(accepted)");
    const Tensor E = tensor_of(DType::Float, {});  // [X.shape] an empty X gives an empty Y
    CHECK(run_op(c.f, 13, E).size() == 0);
  }
}

TEST_CASE("[Log.overflow] [Tanh.overflow] no finite argument overflows: ln of the largest finite values and of the "
          "least subnormal, tanh of the largest, are finite and only a finite value conforms",
          "[elementary][props]") {
  // |ln x| <= ln(2^1024) < 710 for every finite positive double, |tanh x| <= 1: the enclosures allow no infinity
  for (DType t : kFloatTypes) {
    INFO(name(t));
    const accuracy::Format& f = accuracy::format_of(t);
    // the greatest finite value (Ω_double itself is beyond binary64: +Inf as a double)
    const double big = t == DType::Double ? DBL_MAX : std::ldexp(2.0 - 2 * f.u, static_cast<int>(std::ilogb(f.omega)));
    const Tensor L = run_op(F::Log, 13, tensor_of(t, {big, f.eta_bar}));
    const Tensor H = run_op(F::Tanh, 13, tensor_of(t, {big, -big}));
    for (std::int64_t i = 0; i < 2; ++i) {
      CHECK(L.annex->at(i).allowed == accuracy::kFinite);
      CHECK(H.annex->at(i).allowed == accuracy::kFinite);
      CHECK(std::isfinite(L.annex->at(i).hi));
    }
    CHECK(H.annex->at(0).hi == 1.0);  // tanh saturates: the oracle's ±1 ([Elem.oracle.tanh] beyond 22)
    CHECK(H.annex->at(1).hi == -1.0);
  }
}

TEST_CASE("[Elem.verdict] [Elem.oracle.mpfr] the radius is B + e_o: a value at the centre plus R conforms, one beyond does "
          "not, and double elements take MPFR's pair, within 2^-105 of the ideal",
          "[elementary][props]") {
  // float Exp at 0.5: R = B̂ + e_o (both inflated); the centre ± R, computed exactly as doubles, conform; a value
  // 2R away does not (e^0.5 = 1.6487212707001282, R about 2e-7)
  const Tensor Y = run_op(F::Exp, 13, tensor_of(DType::Float, {0.5}));
  const accuracy::Element e = Y.annex->at(0);
  CHECK(e.radius >= e.bound + e.oracle);
  CHECK(accuracy::judge(DType::Float, e, e.hi + e.radius * (1 - 0x1p-20)).conforms);
  CHECK(accuracy::judge(DType::Float, e, e.hi - e.radius * (1 - 0x1p-20)).conforms);
  CHECK_FALSE(accuracy::judge(DType::Float, e, e.hi + 2 * e.radius).conforms);
  // double: the centre hi + lo is MPFR's value at 160 bits, within 2^-105·e^x + 2^-1074 of e^x (MPFR at 400 bits,
  // test side; the absolute part where lo is subnormal: e^-700 = 9.9e-305, lo below 2^-1022)
  for (double x : {0.5, -3.25, 700.0, -700.0, 1e-300}) {
    INFO(x);
    const Tensor D = run_op(F::Exp, 13, tensor_of(DType::Double, {x}));
    const accuracy::Element d = D.annex->at(0);
    Mp ref(400), c(400);
    mpfr_set_d(ref, x, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    mpfr_set_d(c, d.hi, MPFR_RNDN);
    mpfr_add_d(c, c, d.lo, MPFR_RNDN);
    mpfr_sub(c, c, ref, MPFR_RNDN);
    mpfr_abs(c, c, MPFR_RNDN);
    Mp allowed(400);
    mpfr_mul_d(allowed, ref, 0x1p-105, MPFR_RNDN);
    mpfr_add_d(allowed, allowed, 0x1p-1074, MPFR_RNDN);
    CHECK(mpfr_cmp(c, allowed) <= 0);
    CHECK(d.oracle <= std::fabs(d.hi) * 0x1p-100 + 0x1p-1060);
  }
}

}  // namespace sonnx::props::elementary_props
