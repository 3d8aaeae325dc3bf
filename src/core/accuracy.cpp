// spec/common/accuracy.md — read this file side by side with its clauses.
#include "core/accuracy.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "core/float16.hpp"

namespace sonnx::accuracy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEta64 = 0x1p-1074;  // the least positive subnormal of binary64

// One unit up: an upper bound of a non-negative real whose nearest binary64 is x.
inline double up(double x) { return std::nextafter(x, kInf); }

Format make_format(int p, int bias, int emin, int emax, double eta) {
  Format f;
  f.p = p;
  f.u = std::ldexp(1.0, -p);
  // [Acc.hyp] v = u + u²(1 + u): exact in binary64 for p <= 17, rounded up for float and double
  f.v = up(f.u + f.u * f.u * (1 + f.u));
  f.eta_bar = eta;  // [Acc.bound.underflow] η̄ = η_T: η_T / 2 for a rounding to T, η_F / 2 more through F
  f.lambda = std::ldexp(1.0, emin);                           // λ_T
  f.omega = std::ldexp(2.0 - std::ldexp(1.0, -p), emax);      // [Acc.overflow] Ω_T = (2 − 2^-p)·2^emax
  f.bias = bias;
  return f;
}

// γ_m(2^-53) = m·2^-53 / (1 − m·2^-53), rounded up ([Acc.oracle]).
inline double gamma64(double m) {
  const double mu = m * 0x1p-53;  // exact
  return up(mu / (1 - mu));       // 1 − mu is exact for m < 2^52
}

// θ(D) by binary powering on θ itself, every operation rounded up (all quantities are positive, and
// every operation increasing in its arguments, so the result bounds the exact θ from above):
// θ(2a) = 2θ(a) + θ(a)², θ(a + 1) = θ(a) + v + θ(a)·v. No subtraction: no cancellation.
double theta_exact_up(double v, std::int64_t D) {
  double t = 0;  // θ(0)
  for (int bit = 62; bit >= 0; --bit) {
    t = up(2 * t + up(t * t));
    if ((D >> bit) & 1) t = up(t + up(v + up(t * v)));
  }
  return t;
}

// θ(D) of each type, as the operators ask for it: a handful of distinct D per node (the number of
// terms of its interior elements and of its border ones), each computed once per process.
struct ThetaCache {
  std::mutex mutex;
  std::map<std::pair<int, std::int64_t>, double> values;
};
ThetaCache& theta_cache() {
  static ThetaCache cache;
  return cache;
}

// Round to nearest even, once, to a binary format of precision p (hidden bit included) whose least
// normal exponent is emin and whose overflow threshold is omega: the value, as a double (exact).
double round_to(double x, int p, int emin, double omega) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const double a = std::fabs(x);
  if (a >= omega) return std::copysign(kInf, x);
  int e = 0;
  std::frexp(a, &e);                                     // a = m·2^e, m in [0.5, 1): floor(log2 a) = e − 1
  const int quantum = std::max(e - 1, emin) - (p - 1);   // the spacing of T's values near a
  const double r = std::nearbyint(std::ldexp(a, -quantum));  // exact scaling, then ties to even
  return std::copysign(std::ldexp(r, quantum), x);
}

}  // namespace

const Format& format_of(DType t) {
  static const Format f16 = make_format(11, 15, -14, 15, 0x1p-24);
  static const Format bf16 = make_format(8, 127, -126, 127, 0x1p-133);
  static const Format f32 = make_format(24, 127, -126, 127, 0x1p-149);
  static const Format f64 = make_format(53, 1023, -1022, 1023, 0x1p-1074);
  switch (t) {
    case DType::Float16: return f16;
    case DType::BFloat16: return bf16;
    case DType::Float: return f32;
    case DType::Double: return f64;
    default: refuse("Common.dtype.set", "internal: the accuracy model has no format for {}", name(t));
  }
}

double theta(DType t, std::int64_t D) {
  if (D <= 0) return 0;
  ThetaCache& cache = theta_cache();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  auto [it, fresh] = cache.values.try_emplace({static_cast<int>(t), D}, 0.0);
  if (fresh) it->second = theta_exact_up(format_of(t).v, D);
  return it->second;
}

std::uint16_t to_float16_bits(double x) {
  if (std::isnan(x)) return 0x7E00;
  const double r = round_to(x, 11, -14, format_of(DType::Float16).omega);
  return bits(*exact_float16(r));  // r is a float16 value (or ±Inf, ±0)
}

std::uint16_t to_bfloat16_bits(double x) {
  if (std::isnan(x)) return 0x7FC0;
  const double r = round_to(x, 8, -126, format_of(DType::BFloat16).omega);
  const float f = static_cast<float>(r);  // exact: r is a bfloat16 value
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<std::uint16_t>(u >> 16);
}

// [Acc.bound] [Acc.bound.underflow] [Acc.oracle] what depends on the counters alone
Coefficients coefficients(DType t, const Sums& s) {
  const Format& f = format_of(t);
  Coefficients c;
  const double m = static_cast<double>(s.ops);
  c.theta = theta(t, s.depth);
  // [Acc.bound.underflow] U = (1 + θ(n − 1))·(Σ λ_k + (n − 1)·η̄)
  c.U = (1 + theta(t, s.n - 1)) * (f.eta_bar * (s.lambda_units + static_cast<double>(std::max<std::int64_t>(s.n - 1, 0))));
  // [Acc.oracle] Ŝ↑: the binary64 sum of the magnitudes bounds S once multiplied by 1 + 2γ_{m+1}; for
  // double the products were rounded, and TwoProduct may lose a subnormal unit per operation
  c.mag_factor = 1 + 2 * gamma64(m + 1);
  c.mag_add = s.double_type ? m * kEta64 : 0.0;
  // [Acc.oracle] e_o: γ_m(2^-53)·Ŝ↑ in binary64; (γ_2m² + 8·2^-106)·Ŝ↑ + 4m·2^-1074 in double-double
  c.oracle_factor = s.double_type ? gamma64(2 * m) * gamma64(2 * m) + 8 * 0x1p-106 : gamma64(m);
  c.oracle_add = s.double_type ? 4 * m * kEta64 : 0.0;
  c.omega = f.omega;
  c.partial = s.partial;
  c.divisor = s.divisor;  // [Acc.divisor]
  return c;
}

// [Acc.bound] [Acc.overflow] [Acc.nonfinite] [Acc.verdict] the rest, per element
Element finish(const Coefficients& c, const Sums& s) {
  Element e;
  const double S = (s.mag + c.mag_add) * c.mag_factor;  // Ŝ↑
  const double eo = c.oracle_factor * S + c.oracle_add;  // [Acc.oracle] e_o
  const Radius r = radius_of(c, s.mag);                  // [Acc.bound] θ(D)·S + U, e_o, R
  e.bound = r.bound, e.oracle = r.oracle, e.radius = r.radius;
  e.hi = s.n == 0 ? 0.0 : s.sigma;  // [Acc.ideal] the empty sum is +0
  e.lo = s.tau;
  // [Acc.overflow] a subtree of the evaluation reaches S± + θ(D)·S + U at most, a partial product P
  // [Acc.divisor] d times for a formula (1/d)·Σ t_k: the undivided partial sums
  auto overflow_side = [&](double side) {
    return (c.divisor * (side + c.theta * S + c.U)) * kInflate >= c.omega || c.partial * kInflate >= c.omega;
  };
  const double center = s.sigma + s.tau;
  const double s_pos = (S + center + eo) / 2 * kInflate, s_neg = (S - center + eo) / 2 * kInflate;
  if (s.nan_term || (s.pos_inf_term && s.neg_inf_term)) {  // [Acc.nonfinite] 1 and 2: a NaN
    e.allowed = kNan;
    e.hi = std::numeric_limits<double>::quiet_NaN(), e.lo = 0;
    return e;
  }
  if (s.pos_inf_term || s.neg_inf_term) {  // [Acc.nonfinite] 3: that infinity; a NaN when the other can come
    const bool pos = s.pos_inf_term;
    e.allowed = pos ? kPosInf : kNegInf;
    if (s.three_factor_inf || overflow_side(pos ? s_neg : s_pos)) e.allowed |= kNan;
    e.hi = pos ? kInf : -kInf, e.lo = 0;
    return e;
  }
  e.allowed = kFinite;
  // [Acc.overflow] G_Σ = (1 + θ(D))·S + U and P below Ω_T: no evaluation overflows
  if (may_overflow(c, s.mag)) {
    const bool pos = overflow_side(s_pos), neg = overflow_side(s_neg);
    if (pos) e.allowed |= kPosInf;
    if (neg) e.allowed |= kNegInf;
    if (pos && neg) e.allowed |= kNan;
  }
  return e;
}

Element enclose(DType t, const Sums& s) { return finish(coefficients(t, s), s); }

std::uint64_t run_bits(DType t, const Element& e) {
  double y;
  if (!(e.allowed & kFinite) && !(e.allowed & (kPosInf | kNegInf))) y = std::numeric_limits<double>::quiet_NaN();
  else y = e.lo == 0 ? e.hi : e.hi + e.lo;  // [Acc.run] double: fl(σ + τ); the short types: τ = 0 (and -0 stays -0)
  switch (t) {
    case DType::Float16: return to_float16_bits(y);  // canonical 0x7E00 for a NaN
    case DType::BFloat16: return to_bfloat16_bits(y);  // 0x7FC0
    case DType::Float: {
      const float v = std::isnan(y) ? std::bit_cast<float>(0x7FC00000u) : static_cast<float>(y);
      return std::bit_cast<std::uint32_t>(v);
    }
    default: {
      const double v = std::isnan(y) ? std::bit_cast<double>(0x7FF8000000000000ull) : y;
      return std::bit_cast<std::uint64_t>(v);
    }
  }
}

double ulp(DType t, double x) {
  const Format& f = format_of(t);
  int e = 0;
  if (x != 0 && std::isfinite(x)) std::frexp(x, &e);
  const int exponent = (x != 0 && std::isfinite(x)) ? std::max(e - 1, 1 - f.bias) : 1 - f.bias;
  return std::ldexp(1.0, exponent - f.p + 1);
}

double flush_margin(DType t, const Sums& s, double L, double M) {
  if (s.n == 0) return 0;
  const Format& f = format_of(t);
  const std::int64_t max_e = s.depth - (s.n - 1);
  double scale = 1;  // M^(max e − 1), 1 for max e <= 1 (M >= 1)
  for (std::int64_t q = 1; q < max_e; ++q) scale *= M;
  const double ops_count = static_cast<double>(2 * s.n - 1);
  const double F = f.lambda * (L + ops_count * (1 + theta(t, s.depth)) * scale);
  // Each of the n - 1 additions of L (non-negative terms), its products, the power and the few
  // operations above add a relative error of at most 2^-53 each: (1 + 2^-53)^(n + max e + 8) - 1 is
  // below (n + max e + 8)·2^-52 while that is below 1, and the absolute error of a result below λ is
  // below 2^-1074 (2^-1072 covers it).
  const double count = static_cast<double>(s.n + std::max<std::int64_t>(max_e, 0) + 8);
  return F * (1 + count * 0x1p-52) + 0x1p-1072;
}

double widened_radius(double radius, double flush) {
  // fl(R + F) is within half an ulp of R + F: the next double above it is at least R + F
  return std::nextafter(radius + flush, kInf);
}

Judgement judge(DType t, const Element& e, double r) {
  Judgement j;
  if (std::isnan(r)) {  // [Acc.nonfinite] any NaN, whatever its payload
    j.conforms = e.allowed & kNan;
    j.error = j.fraction = j.ulps = j.conforms ? 0 : kInf;
    return j;
  }
  if (std::isinf(r)) {  // [Acc.nonfinite] [Acc.overflow] an infinity the clauses allow
    j.conforms = e.allowed & (r > 0 ? kPosInf : kNegInf);
    if (j.conforms) return j;
    j.error = j.fraction = j.ulps = kInf;
    return j;
  }
  // [Acc.verdict] a finite r: finite values allowed, a finite enclosure, |r − ŝ| <= R
  if (!(e.allowed & kFinite) || !std::isfinite(e.hi) || !std::isfinite(e.radius)) {
    j.error = j.fraction = j.ulps = kInf;
    return j;
  }
  j.error = std::fabs((r - e.hi) - e.lo);
  j.conforms = j.error <= e.radius;
  j.fraction = j.error == 0 ? 0 : (e.radius > 0 ? j.error / e.radius : kInf);
  j.ulps = j.error / ulp(t, e.hi);
  return j;
}

int divisor_roundings(DType t, std::int64_t d) {
  if (d <= 1) return 0;  // [Acc.divisor] d = 1: no division
  const Format& f = format_of(t);
  const int zeros = std::countr_zero(static_cast<std::uint64_t>(d));
  const bool power_of_two = (d >> zeros) == 1;
  // 1/d = 2^-k is a value of T when k is at most T's least exponent (subnormals included): 2^-24,
  // 2^-133, 2^-149, 2^-1074 — every k of an int64 but for float16
  const bool reciprocal_in_t = power_of_two && -zeros >= 1 - f.bias - (f.p - 1);  // η_T = 2^(1 − bias − (p − 1))
  // d is a value of T when its odd part has at most p bits and d is below Ω_T
  const bool d_in_t = (d >> zeros) < (std::int64_t{1} << std::min(f.p, 62)) && static_cast<double>(d) < f.omega;
  return 1 + std::max(reciprocal_in_t ? 0 : 1, d_in_t ? 0 : 2);
}

void count_terms(DType t, Sums& s, std::int64_t products, int e, double M, std::int64_t values, int value_e,
                 std::int64_t steps, double value_M, double converted) {
  const Format& f = format_of(t);
  s.n = products + values;
  const int max_e = std::max(products > 0 ? e : 0, values > 0 ? value_e : 0);
  s.depth = s.n == 0 ? 0 : (s.n - 1) + max_e;  // [Acc.terms] D = (n − 1) + max e_k
  s.ops = s.n + steps + 1;                    // m: one binary64 addition per term, the steps, the first
  // [Acc.bound.underflow] λ_k = e·η̄·((1 + v)·M)^(e − 1) for e >= 1, in units of η̄
  auto lambda = [&](int ek, double bound) {
    double l = ek;
    for (int i = 1; i < ek; ++i) l *= (1 + f.v) * bound;
    return ek >= 1 ? l : 0.0;
  };
  s.lambda_units = static_cast<double>(products) * lambda(e, M) + static_cast<double>(values) * lambda(value_e, value_M);
  // [Acc.overflow] P: the partial product of a three-factor term, at most (1 + v)·M² + η̄, and an attribute
  // factor converted to T, at most (1 + v)·|x|
  s.partial = products > 0 && e >= 2 ? (1 + f.v) * M * M + f.eta_bar : 0.0;
  s.partial = std::max(s.partial, (1 + f.v) * converted);
  s.double_type = t == DType::Double;
}

Accumulator::Accumulator(DType t) : t_(t), dd_(t == DType::Double) {}

Accumulator Accumulator::seeded(DType t, double sigma, double tau, double mag) {
  Accumulator a(t);
  a.sigma_ = sigma, a.tau_ = tau, a.mag_ = mag;
  return a;
}

void Accumulator::add_term(double p, double q, bool nonfinite_factors, double magnitude) {
  if (std::isnan(p)) {  // [Acc.nonfinite] a NaN factor, or an infinity times a zero
    nan_ = true;
    return;
  }
  if (std::isinf(p)) {
    // [Acc.nonfinite] an infinite term; [Acc.oracle] for double, finite factors whose product is beyond
    // binary64's range are taken as the infinity every binary64 evaluation gives that product
    if (!nonfinite_factors) overflowed_ = true;
    (p > 0 ? pos_inf_ : neg_inf_) = true;
    return;
  }
  if (!dd_) {
    sigma_ = sigma_ + p;  // [Acc.oracle] binary64, the products exact
  } else {
    const double s = sigma_ + p, bb = s - sigma_;  // TwoSum: s + err = σ + p exactly
    const double err = (sigma_ - (s - bb)) + (p - bb);
    sigma_ = s;
    tau_ = tau_ + (q + err);
  }
  mag_ = mag_ + magnitude;
}

void Accumulator::add_product(double a, double b) {
  const double p = a * b;
  const double q = dd_ ? std::fma(a, b, -p) : 0.0;  // TwoProduct: p + q = a·b (double)
  add_term(p, q, std::isinf(a) || std::isinf(b) || std::isnan(a) || std::isnan(b), std::fabs(p));
}

void Accumulator::add_value(double c) { add_term(c, 0.0, !std::isfinite(c), std::fabs(c)); }

void Accumulator::scale(double alpha) {
  if (!dd_) {
    sigma_ = alpha * sigma_;
  } else {
    const double h = alpha * sigma_, l = std::fma(alpha, sigma_, -h);
    tau_ = l + alpha * tau_;
    sigma_ = h;
  }
  mag_ = std::fabs(alpha) * mag_;
  if (alpha == 0 && (pos_inf_ || neg_inf_)) nan_ = true;   // 0·∞
  if (alpha < 0) std::swap(pos_inf_, neg_inf_);            // the infinite terms change sign
  if (std::isnan(alpha)) nan_ = true;
}

void Accumulator::add_scaled(double beta, double c) {
  const double p = beta * c;
  const double q = dd_ ? std::fma(beta, c, -p) : 0.0;
  add_term(p, q, !std::isfinite(beta) || !std::isfinite(c), std::fabs(p));
}

void Accumulator::divide(std::int64_t d) {
  if (d <= 0) return;  // not a division: the operator states its empty case
  const double q = static_cast<double>(d);  // exact: d is a count of elements, below 2^53
  if (!dd_) {
    sigma_ = sigma_ / q;  // [Acc.oracle] one binary64 division (σ is 0 or at least 2^-298: no underflow)
  } else {
    // [Acc.divisor] the double-double quotient: q1 = fl(σ/d); r = σ − q1·d is a double, so the fma gives
    // it exactly; q2 = fl(fl(r + τ)/d). (σ + τ)/d = q1 + (r + τ)/d exactly.
    const double q1 = sigma_ / q;
    const double r = std::fma(-q1, q, sigma_);
    const double q2 = (r + tau_) / q;
    sigma_ = q1, tau_ = q2;
  }
  mag_ = mag_ / q;
  divisor_ = divisor_ * q;
}

Sums Accumulator::result(std::int64_t products, int e, double M, std::int64_t values, int value_e,
                         std::int64_t steps, double value_M, double converted) const {
  Sums s;
  count_terms(t_, s, products, e, M, values, value_e, steps, value_M, converted);
  s.sigma = sigma_, s.tau = tau_, s.mag = mag_;
  s.nan_term = nan_, s.pos_inf_term = pos_inf_, s.neg_inf_term = neg_inf_;
  s.three_factor_inf = three_factor_inf_;
  s.divisor = divisor_;  // [Acc.divisor]
  if (overflowed_) s.three_factor_inf = true;  // [Acc.overflow] a NaN where the other infinity can come too
  return s;
}

void Annex::resize(std::size_t size) {
  hi.resize(size), radius.resize(size), bound.resize(size), oracle.resize(size), allowed.resize(size);
  if (dtype == DType::Double) lo.resize(size);
}

Element Annex::at(std::int64_t k) const {
  const auto i = static_cast<std::size_t>(k);
  Element e;
  e.hi = hi[i];
  e.lo = lo.empty() ? 0.0 : lo[i];
  e.radius = radius[i];
  e.bound = bound[i];
  e.oracle = oracle[i];
  e.allowed = allowed[i];
  return e;
}

}  // namespace sonnx::accuracy
