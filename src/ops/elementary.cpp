// spec/common/elementary.md — read this file side by side with its sections.
#include "ops/elementary.hpp"

#include <mpfr.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/accuracy.hpp"
#include "core/error.hpp"
#include "core/float16.hpp"
#include "core/format.hpp"

namespace sonnx::elementary {

namespace {

constexpr std::size_t kFns = 4;
std::size_t index_of(Fn f) { return static_cast<std::size_t>(f); }

// [Elem.ulps] the user's K per function (negative: none set, the default applies)
std::array<std::atomic<double>, kFns>& user_ulps() {
  static std::array<std::atomic<double>, kFns> k = {-1.0, -1.0, -1.0, -1.0};
  return k;
}

}  // namespace

const char* fn_name(Fn f) {
  switch (f) {
    case Fn::Exp: return "exp";
    case Fn::Log: return "log";
    case Fn::Tanh: return "tanh";
    case Fn::Pow: return "pow";
  }
  return "?";
}

double default_ulps(Fn f, DType t) {
  // [Elem.ulps] the largest error glibc 2.41 lists for the function, over all its architectures
  // (sysdeps/*/libm-test-ulps, round to nearest); 1 for the 16-bit types (a binary32 evaluation
  // rounded once to T)
  if (t == DType::Float16 || t == DType::BFloat16) return 1;
  const bool is_double = t == DType::Double;
  switch (f) {
    case Fn::Exp: return 1;
    case Fn::Log: return 1;
    case Fn::Tanh: return is_double ? 3 : 2;
    case Fn::Pow: return is_double ? 1 : 7;
  }
  return 1;
}

double ulps(Fn f, DType t) {
  const double k = user_ulps()[index_of(f)].load(std::memory_order_relaxed);
  return k >= 0 ? k : default_ulps(f, t);
}

void set_ulps(Fn f, double K) {
  if (!(K >= 0 && K <= 0x1p20))  // [Elem.err.ulps]
    refuse("Elem.err.ulps", "K = {} for {}: K must be a number from 0 to 1048576 (ULPs of the element type)", K, fn_name(f));
  user_ulps()[index_of(f)].store(K, std::memory_order_relaxed);
}

void reset_ulps() {
  for (auto& k : user_ulps()) k.store(-1.0, std::memory_order_relaxed);
}

void parse_ulps(const std::string& spec) {
  std::size_t at = 0;
  while (at <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string item = spec.substr(at, comma - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)  // [Elem.err.ulps]
      refuse("Elem.err.ulps", "'{}': each item must be FUNCTION=K (functions: exp, log, tanh, pow)", item);
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const Fn* found = nullptr;
    for (const Fn& f : kAllFns)
      if (name == fn_name(f)) found = &f;
    if (!found) refuse("Elem.err.ulps", "'{}' names no function of the hypothesis (exp, log, tanh, pow)", name);
    char* end = nullptr;
    errno = 0;
    const double K = std::strtod(value.c_str(), &end);
    // a decimal number: digits, a point, an exponent (strtod alone would also take leading blanks, a sign,
    // hexadecimal numbers, "inf" and "nan")
    const bool decimal = !value.empty() && value.find_first_not_of("0123456789.eE+-") == std::string::npos &&
                         (std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '.');
    if (!decimal || end != value.c_str() + value.size() || errno != 0)
      refuse("Elem.err.ulps", "'{}': K must be a decimal number, as in exp=4", item);
    set_ulps(*found, K);
    at = comma + 1;
  }
}

std::string ulps_text(DType t) {
  std::string out;
  for (Fn f : kAllFns) out += fmt::format("{}{}={:g}", out.empty() ? "" : " ", fn_name(f), ulps(f, t));
  return out;
}

Perturbation perturbation(Fn f, DType t) {
  // [Elem.hyp] ulp_T(y) <= 2u_T·|y| for |y| >= λ_T and = η_T below: K·ulp_T(y) <= 2K·u_T·|y| + K·η_T.
  // Products of K with powers of two: exact unless K has more bits than binary64 keeps (then rounded up).
  const accuracy::Format& fmt = accuracy::format_of(t);
  const double K = ulps(f, t);
  Perturbation p;
  p.kappa = std::nextafter(K * 2 * fmt.u, std::numeric_limits<double>::infinity());
  p.alpha = std::nextafter(K * fmt.eta_bar, std::numeric_limits<double>::infinity());
  if (K == 0) p.kappa = p.alpha = 0;  // a correctly rounded... no: K = 0 is an exact function
  return p;
}

// ---- [Elem.oracle.mpfr] --------------------------------------------------------------------------

namespace {

// MPFR keeps caches per thread (the constants of mpfr_exp, ...): freed when the thread ends, so that a
// worker thread of `conformance -j N` leaves nothing behind (LeakSanitizer).
struct CacheGuard {
  ~CacheGuard() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};
void keep_cache_guard() {
  thread_local CacheGuard guard;
  (void)guard;
}

// An MPFR number at kBits bits, every operation to nearest.
struct Mp {
  mpfr_t v;
  Mp() {
    keep_cache_guard();
    mpfr_init2(v, kBits);
  }
  explicit Mp(double x) {
    keep_cache_guard();
    mpfr_init2(v, kBits);
    mpfr_set_d(v, x, MPFR_RNDN);  // exact: 160 >= 53 bits
  }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// The pair of v: hi = v rounded to binary64, lo = (v − hi) rounded (v − hi is exact at kBits bits).
// |hi + lo − v| <= 2^-53·|v − hi| <= 2^-106·|v|, or 2^-1075 in binary64's subnormal range; `ops`
// operations of kBits bits before (each relative 2^-160, compounded) bring the total within rel.
Pair pair_of(const Mp& x, int ops) {
  Pair p;
  p.hi = mpfr_get_d(x.v, MPFR_RNDN);
  if (std::isfinite(p.hi)) {
    Mp rest;
    mpfr_sub_d(rest.v, x.v, p.hi, MPFR_RNDN);
    p.lo = mpfr_get_d(rest.v, MPFR_RNDN);
  }
  // (1 + 2^-160)^ops − 1 <= ops·2^-159 for ops <= 2^40; plus 2^-106: below 2^-105 for ops <= 2^50
  p.rel = ops <= (1 << 30) ? 0x1p-105 : 0x1p-60;
  return p;
}

}  // namespace

Pair exp_mp(double x) {
  if (std::isnan(x)) return {x, 0, 0};
  Mp a(x), y;
  mpfr_exp(y.v, a.v, MPFR_RNDN);
  return pair_of(y, 1);
}

Pair log_mp(double x) {
  if (!(x > 0) || std::isinf(x)) return {log_o(x), 0, 0};  // the special values of [Elem.oracle.log]
  Mp a(x), y;
  mpfr_log(y.v, a.v, MPFR_RNDN);
  return pair_of(y, 1);
}

Pair tanh_mp(double x) {
  if (std::isnan(x)) return {x, 0, 0};
  Mp a(x), y;
  mpfr_tanh(y.v, a.v, MPFR_RNDN);
  return pair_of(y, 1);
}

Pair sigmoid_mp(double x) {
  if (std::isnan(x)) return {x, 0, 0};
  Mp a(x), y;
  mpfr_neg(a.v, a.v, MPFR_RNDN);     // exact
  mpfr_exp(y.v, a.v, MPFR_RNDN);     // e^(−x)
  mpfr_add_ui(y.v, y.v, 1, MPFR_RNDN);
  mpfr_ui_div(y.v, 1, y.v, MPFR_RNDN);
  return pair_of(y, 3);
}

Pair pow_mp(double x, double y) {
  Mp a(x), b(y), z;
  mpfr_pow(z.v, a.v, b.v, MPFR_RNDN);
  return pair_of(z, 1);
}

Pair pow_mp(double x, std::int64_t y) {
  Mp a(x), z;
  mpfr_pow_si(z.v, a.v, static_cast<long>(y), MPFR_RNDN);
  return pair_of(z, 1);
}

Pair pow_mp(double x, std::uint64_t y) {
  Mp a(x), z;
  mpfr_pow_ui(z.v, a.v, static_cast<unsigned long>(y), MPFR_RNDN);
  return pair_of(z, 1);
}

bool trunc_pow_mp(std::int64_t x, double y, std::uint64_t* out) {
  Mp a, b(y), z;
  mpfr_set_sj(a.v, x, MPFR_RNDN);  // exact: 64 <= kBits bits
  mpfr_pow(z.v, a.v, b.v, MPFR_RNDZ);
  if (mpfr_cmp_ui_2exp(z.v, 1, 64) >= 0) return false;
  *out = mpfr_get_uj(z.v, MPFR_RNDZ);
  return true;
}

void softmax_mp(const double* x, std::size_t n, bool log_form, Pair* y, const std::uint8_t* want) {
  std::size_t jm = 0;  // the first maximum, whose term is 1 exactly
  for (std::size_t j = 1; j < n; ++j) jm = x[j] > x[jm] ? j : jm;
  const double m = x[jm];
  // W = 1 + W1, W1 the sum of the other terms: log W = log1p(W1), whose relative error is W1's (the condition
  // of log1p in W1 is at most 1). log of W rounded to 160 bits would lose every W1 below 2^-160: log W = 0
  // where the ideal is −W1 (a maximum's element of LogSoftmax, double, the other logits 115 below it).
  Mp W, W1, d, w;
  mpfr_set_zero(W1.v, 1);
  for (std::size_t j = 0; j < n; ++j) {
    if (j == jm) continue;
    mpfr_set_d(d.v, x[j], MPFR_RNDN);
    mpfr_sub_d(d.v, d.v, m, MPFR_RNDN);  // x_j − m (a difference beyond 2^20 in magnitude: a term below 2^-(2^20))
    mpfr_exp(w.v, d.v, MPFR_RNDN);
    mpfr_add(W1.v, W1.v, w.v, MPFR_RNDN);
  }
  mpfr_add_ui(W.v, W1.v, 1, MPFR_RNDN);
  Mp L;
  if (log_form) mpfr_log1p(L.v, W1.v, MPFR_RNDN);
  const int ops = static_cast<int>(std::min<std::size_t>(n, 1u << 29)) + 4;
  for (std::size_t j = 0; j < n; ++j) {
    if (want && !want[j]) continue;
    mpfr_set_d(d.v, x[j], MPFR_RNDN);
    mpfr_sub_d(d.v, d.v, m, MPFR_RNDN);
    if (log_form) {
      // (x_j − m) − log W: two terms of one sign, no cancellation; with the precision that keeps every bit of a
      // log W far below x_j − m (bfloat16 (−51.75, −178): y = −126.25 − 1.5e-55, a midpoint of T at 160 bits)
      const long extra = mpfr_zero_p(d.v) || mpfr_zero_p(L.v) ? 0 : static_cast<long>(mpfr_get_exp(d.v)) - static_cast<long>(mpfr_get_exp(L.v));
      mpfr_set_prec(w.v, kBits + static_cast<mpfr_prec_t>(std::clamp(extra, 0L, 1L << 18)));
      mpfr_sub(w.v, d.v, L.v, MPFR_RNDN);
    } else {
      mpfr_exp(w.v, d.v, MPFR_RNDN);
      mpfr_div(w.v, w.v, W.v, MPFR_RNDN);
    }
    y[j] = pair_of(w, ops);
  }
}

Pair lrn_mp(double x, const double* w, std::size_t n, double alpha, std::int64_t size, double bias, double beta) {
  Mp S, t, q;
  mpfr_set_zero(S.v, 1);
  for (std::size_t j = 0; j < n; ++j) {
    mpfr_set_d(t.v, w[j], MPFR_RNDN);
    mpfr_sqr(t.v, t.v, MPFR_RNDN);  // exact: 106 bits
    mpfr_add(S.v, S.v, t.v, MPFR_RNDN);
  }
  mpfr_mul_d(q.v, S.v, alpha, MPFR_RNDN);
  mpfr_div_si(q.v, q.v, static_cast<long>(size), MPFR_RNDN);
  const double cS = std::fabs(mpfr_get_d(q.v, MPFR_RNDU));
  mpfr_add_d(q.v, q.v, bias, MPFR_RNDN);  // q = bias + (alpha/size)·S
  const double qd = std::fabs(mpfr_get_d(q.v, MPFR_RNDZ));
  // q's relative error: n + 3 roundings of 2^-160 relative to |bias| + |c·S| (cancellation when the signs
  // differ), multiplied by |beta| in q^beta
  const double ratio = (std::fabs(bias) + cS) / qd;
  mpfr_set_d(t.v, beta, MPFR_RNDN);
  mpfr_pow(q.v, q.v, t.v, MPFR_RNDN);     // q^beta
  mpfr_set_d(t.v, x, MPFR_RNDN);
  mpfr_div(t.v, t.v, q.v, MPFR_RNDN);
  Pair p = pair_of(t, 3);
  p.rel += (static_cast<double>(n) + 8) * 0x1p-158 * ratio * std::max(1.0, std::fabs(beta)) * (1 + 0x1p-20);
  if (!std::isfinite(p.rel)) p.rel = std::numeric_limits<double>::infinity();
  return p;
}

// ---- [Elem.run] ----------------------------------------------------------------------------------

namespace {
std::uint64_t round_to(DType t, double x) {
  switch (t) {
    case DType::Float16: return accuracy::to_float16_bits(x);
    case DType::BFloat16: return accuracy::to_bfloat16_bits(x);
    case DType::Float: return std::bit_cast<std::uint32_t>(static_cast<float>(x));
    default: return std::bit_cast<std::uint64_t>(x);
  }
}
// The value of a pattern of T (float16, bfloat16, float).
double value_of(DType t, std::uint64_t bits) {
  switch (t) {
    case DType::Float16: return to_double(static_cast<float16>(bits));
    case DType::BFloat16: return to_double(static_cast<bfloat16>(bits));
    default: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  }
}
}  // namespace

bool rounding_decided(DType t, double c, double eo, std::uint64_t* bits) {
  if (t == DType::Double) return false;
  if (t == DType::Float) return rounding_decided_float(c, eo, bits);
  // [lo, hi] contains [c − eo, c + eo]: each end moved one binary64 step outward after its rounding
  const double lo = next_down(c - eo), hi = next_up(c + eo);
  const std::uint64_t a = round_to(t, lo), b = round_to(t, hi);
  if (a != b) return false;  // rounding to nearest is monotonic: equal ends, every value between the same
  *bits = a;
  return true;
}

std::uint64_t round_pair(DType t, const Pair& p) {
  if (t == DType::Double || p.lo == 0 || !std::isfinite(p.hi)) return round_to(t, p.hi);
  // hi a midpoint of T (its two binary64 neighbours round apart): lo decides the side
  // (hi's neighbours also round apart when hi is one binary64 step from a midpoint, whose tie goes to the even
  // side: hi is a midpoint only when it is the mean of the two values, exactly)
  const std::uint64_t below = round_to(t, next_down(p.hi)), above = round_to(t, next_up(p.hi));
  if (below != above && p.hi - value_of(t, below) == value_of(t, above) - p.hi) return p.lo > 0 ? above : below;
  return round_to(t, p.hi);
}

}  // namespace sonnx::elementary
