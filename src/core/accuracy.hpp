// spec/common/accuracy.md — the accuracy model every computing operator (Conv, Gemm, MatMul) shares:
// the constants of each float type, the bound θ(D)·S + U of [Acc.bound], what an element may be
// ([Acc.nonfinite], [Acc.overflow]), the oracle's enclosure of the ideal ([Acc.oracle]), the value
// `run` writes ([Acc.run]) and the verdict on an implementation's element ([Acc.verdict]). The
// operators say what their terms are; everything else about a computed element is stated here once.
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "core/dtype.hpp"

namespace sonnx::accuracy {

// The constants of a float type T (spec/common/accuracy.md, Notation).
struct Format {
  int p = 0;            // precision in bits, the hidden bit included
  double u = 0;         // unit roundoff 2^-p
  double v = 0;         // [Acc.hyp] v = u + u²(1 + u), rounded up: one rounding to T, or to F then T
  double eta_bar = 0;   // [Acc.bound.underflow] η̄ = η_T, an operation's largest absolute error below λ_T
  double lambda = 0;    // the least positive normal λ_T
  double omega = 0;     // [Acc.overflow] Ω_T, the least magnitude that rounds to infinity
  int bias = 0;         // exponent bias, for ulp_T
};
const Format& format_of(DType t);  // float types only

// [Acc.bound] θ(D) = (1 + v)^D − 1 for T, an upper bound (relative excess below 2^-44), computed with
// + and × only (correctly rounded, the same on every machine): θ(a + b) = θ(a) + θ(b) + θ(a)θ(b).
double theta(DType t, std::int64_t D);

// What an element may be besides a finite value within its radius ([Acc.nonfinite], [Acc.overflow]).
enum Allowed : std::uint8_t { kFinite = 1, kPosInf = 2, kNegInf = 4, kNan = 8 };

// One computed element as the oracle accumulated it ([Acc.oracle]): the terms' count, the depth, the
// centre (σ, τ: τ is the double-double correction, 0 for the short types), the binary64 sum of the
// terms' magnitudes, and what the non-finite clauses need. The operator's evaluation fills it, in
// bulk or for one element; `enclose` turns it into the radius and the allowed set.
struct Sums {
  std::int64_t n = 0;        // [Acc.terms] number of terms
  std::int64_t depth = 0;    // [Acc.terms] D = (n − 1) + max e_k (0 for n = 0)
  std::int64_t ops = 0;      // m: the binary64 (double-double) operations of the oracle's evaluation
  double sigma = -0.0;       // ŝ: the binary64 sum (double: σ of the pair)
  double tau = 0.0;          // double: the pair's correction τ
  double mag = 0.0;          // Ŝ: the binary64 sum of the finite terms' magnitudes
  double lambda_units = 0;   // [Acc.bound.underflow] Σ λ_k / η̄
  double partial = 0;        // [Acc.overflow] P, the largest partial product of a three-factor term
  // [Acc.nonfinite] (the finite terms' centre is `sigma`, `tau` when an infinite term is present)
  bool nan_term = false, pos_inf_term = false, neg_inf_term = false;
  bool three_factor_inf = false;  // a three-factor term has an infinite factor and a product of the others <= η_T/2
  bool double_type = false;       // T is double: the double-double enclosure
  // [Acc.divisor] d of a formula (1/d)·Σ t_k (1 when there is none): an evaluation may sum the undivided
  // terms before it divides, so [Acc.overflow]'s G_Σ, S⁺ and S⁻ are taken d times. Accumulator::divide
  // sets it; a bulk evaluation that divides sets it itself.
  double divisor = 1.0;
};

// The enclosure of one element ([Acc.verdict]): centre ŝ = hi + lo, the radius R = B̂ + e_o, what it
// may be. `bound` (B̂) and `oracle` (e_o) are kept for the reports.
struct Element {
  double hi = 0, lo = 0;
  double radius = 0;
  double bound = 0, oracle = 0;
  std::uint8_t allowed = kFinite;
};

// [Acc.bound] [Acc.bound.underflow] [Acc.overflow] [Acc.nonfinite] [Acc.oracle]
Element enclose(DType t, const Sums& s);

// `enclose` in two steps, for evaluations that enclose many elements with the same counters (every
// element of an interior window has the same n and D): what depends on the counters alone (n, D, m,
// Σλ, P), computed once, and the rest, per element. enclose(t, s) is finish(coefficients(t, s), s).
struct Coefficients {
  double theta = 0, U = 0;      // θ(D), U
  double mag_factor = 0;        // 1 + 2γ_{m+1}(2^-53): Ŝ↑ = (Ŝ [+ m·2^-1074 for double]) times this
  double mag_add = 0;           // double: m·2^-1074
  double oracle_factor = 0;     // e_o = this · Ŝ↑ (+ oracle_add)
  double oracle_add = 0;
  double omega = 0, partial = 0;
  double divisor = 1.0;         // [Acc.divisor] d: the overflow bounds are taken d times
};
Coefficients coefficients(DType t, const Sums& counts);
Element finish(const Coefficients& c, const Sums& s);

// finish's arithmetic for a finite element, in its order (so the same bits), inline for evaluations
// that enclose a whole row at once: B̂ = θ(D)·Ŝ↑ + U, e_o, R = B̂ + e_o, each computed to nearest from
// upper bounds then multiplied by 1 + 2^-44 (which exceeds the relative effect of their roundings),
// plus 2^-1072 (the absolute one below the normal range) — [Acc.bound] [Acc.oracle] [Acc.verdict].
inline constexpr double kInflate = 1 + 0x1p-44, kTiny = 0x1p-1072;
struct Radius {
  double bound, oracle, radius;
};
inline Radius radius_of(const Coefficients& c, double mag) {
  const double S = (mag + c.mag_add) * c.mag_factor;  // Ŝ↑
  const double B = c.theta * S + c.U;                  // θ(D)·S + U
  const double eo = c.oracle_factor * S + c.oracle_add;
  // 2^-1072 only for a quantity that is not 0: a 0 is exact (no term that can round, nothing to enclose)
  return {B * kInflate + (B != 0 ? kTiny : 0.0), eo * kInflate + (eo != 0 ? kTiny : 0.0),
          (B + eo) * kInflate + (B + eo != 0 ? kTiny : 0.0)};
}
// [Acc.overflow] whether some evaluation may overflow: G_Σ = (1 + θ(D))·S + U or P at Ω_T or above.
// [Acc.divisor] for a formula (1/d)·Σ t_k a partial sum of undivided terms reaches d·G_Σ.
inline bool may_overflow(const Coefficients& c, double mag) {
  const double S = (mag + c.mag_add) * c.mag_factor;
  return (c.divisor * ((1 + c.theta) * S + c.U)) * kInflate >= c.omega || c.partial * kInflate >= c.omega;
}

// [Acc.divisor] c_d, the rounding count the factor 1/d adds to every term of a formula (1/d)·Σ_k t_k
// (d >= 1): 0 when d = 1, else 1 + max([1/d ∉ T], 2·[d ∉ T]) — the division (or the multiplication by
// the reciprocal), plus the rounding of the reciprocal, or the rounding of d, which counts 2.
int divisor_roundings(DType t, std::int64_t d);

// [Acc.terms] [Acc.bound.underflow] The counters of an element whose terms are `products` products of
// rounding count e (factor bound M for e >= 2) and `values` terms of rounding count value_e (one factor,
// or Gemm's β·c: factor bound value_M), plus the oracle's `steps` operations after the sum (Gemm's α·σ
// and +β·c): n, D, m, Σλ_k/η̄ and P — `converted`, the largest attribute factor T cannot represent
// (0 for none), is converted to T by an evaluation and may overflow there ([Acc.overflow]). The bulk
// evaluations and the Accumulator both take their counters from here.
void count_terms(DType t, Sums& s, std::int64_t products, int e, double M, std::int64_t values, int value_e,
                 std::int64_t steps, double value_M = 1.0, double converted = 0.0);

// [Acc.oracle] The oracle's accumulation of one element's terms, in the order they are added: the
// definition the operators' bulk evaluations reproduce bit for bit (the same operations in the same
// order). For float16, bfloat16 and float every factor is exact as a double, a product of two of them
// is exact, and the sum is binary64 from −0; for double the products are split exactly and summed
// in double-double (TwoProduct, TwoSum). Only finite terms enter σ and Ŝ; NaN and infinite terms
// are counted apart ([Acc.nonfinite]).
class Accumulator {
 public:
  explicit Accumulator(DType t);
  // An accumulation whose finite terms so far summed to σ (and τ) with magnitude Ŝ: the state a bulk
  // evaluation reached term by term, from which the oracle's later steps continue (Gemm's order of steps).
  static Accumulator seeded(DType t, double sigma, double tau, double mag);
  // A term a·b of two factors ([Acc.terms]).
  void add_product(double a, double b);
  // A term of one factor c (Conv's bias, Gemm's C with beta = ±1).
  void add_value(double c);
  // Gemm's α after the sum of the products: σ ← α·σ, Ŝ ← |α|·Ŝ (spec/ops/gemm.md's order).
  void scale(double alpha);
  // A term β·c after the sum (spec/ops/gemm.md's order): the product first (exact for the short types).
  void add_scaled(double beta, double c);
  // [Acc.divisor] [Acc.oracle] ŝ/d after the sum (d >= 1; d <= 0 is not a division and changes nothing:
  // the operator states its empty case): for the short types one binary64 division σ ← σ/d; for double
  // the double-double quotient q1 = σ/d, r = fma(−q1, d, σ) (exact), q2 = (r + τ)/d; Ŝ ← Ŝ/d. Two
  // steps of m (the caller's `steps`); the terms' value_e is divisor_roundings(t, d). The NaN and
  // infinite terms are left as they are (an infinity divided by d is that infinity). result() then
  // carries d (Sums::divisor, for [Acc.overflow]).
  void divide(std::int64_t d);
  // The counters: the terms' rounding counts as the operator states them ([Acc.terms]).
  Sums result(std::int64_t products, int e, double M, std::int64_t values, int value_e, std::int64_t steps,
              double value_M = 1.0, double converted = 0.0) const;
  double sigma() const { return sigma_; }
  // [Acc.nonfinite] 3: a three-factor term has an infinite factor and its two other factors' product is
  // at most η_T/2 in magnitude (an evaluation may round it to zero before it meets the infinity).
  void note_three_factor_infinity() { three_factor_inf_ = true; }

 private:
  void add_term(double p, double q, bool nonfinite_factors, double magnitude);
  DType t_;
  bool dd_;
  double sigma_ = -0.0, tau_ = 0, mag_ = 0;
  double divisor_ = 1.0;
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false, overflowed_ = false, three_factor_inf_ = false;
};

// [Acc.run] The value `run` writes: fl_T(ŝ) (double: fl(σ + τ)), the canonical quiet NaN of T for a
// NaN of [Acc.nonfinite]. As the bits of T, in the low bytes.
std::uint64_t run_bits(DType t, const Element& e);

// [Acc.hyp.ftz] The margin F an implementation that declares flush to zero adds to an element's radius,
// an upper bound of λ_T·(L + (2n − 1)·(1 + θ(D))·M^(max e_k − 1)): L the sum over the element's finite
// terms of the products of all their factors but one, M the largest factor bound, max e_k = D − (n − 1).
double flush_margin(DType t, const Sums& s, double L, double M);
// The radius R + F, rounded up.
double widened_radius(double radius, double flush);

// [Acc.verdict] The verdict on one element r of an implementation: whether it conforms, its error
// |r − ŝ|, as a fraction of R, and in units in the last place of T at ŝ.
struct Judgement {
  bool conforms = false;
  double error = 0, fraction = 0, ulps = 0;
};
Judgement judge(DType t, const Element& e, double r);  // r: the element read as a double (exact)
double ulp(DType t, double x);  // ulp_T(x) of [Acc.verdict]

// The enclosures of a whole computed output, one per element in row-major order, kept with the
// tensor the operator wrote (Tensor::annex): `compare` judges an implementation's output by them.
// `lo` is empty unless T is double.
// An array whose elements the operator writes, every one, before any is read: allocated without
// being filled (a computed output's annex is as large as the output several times over).
// Its storage is a core/buffer.hpp Buffer: large arrays in huge pages, reused from one evaluation to
// the next like a tensor's.
template <class T> class Array {
 public:
  void resize(std::size_t n) { buffer_ = Buffer(n * sizeof(T), Fill::Unspecified), size_ = n; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return reinterpret_cast<T*>(buffer_.data()); }
  const T* data() const { return reinterpret_cast<const T*>(buffer_.data()); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t k) { return data()[k]; }
  const T& operator[](std::size_t k) const { return data()[k]; }

 private:
  Buffer buffer_;
  std::size_t size_ = 0;
};

struct Annex {
  DType dtype = DType::Float;
  Array<double> hi, lo, radius;
  Array<double> bound, oracle;  // for the reports (the verdict reads `radius`)
  Array<std::uint8_t> allowed;
  // Room for `size` elements (lo only for double).
  void resize(std::size_t size);
  // Element k.
  void set(std::size_t k, const Element& e) {
    hi[k] = e.hi, radius[k] = e.radius, bound[k] = e.bound, oracle[k] = e.oracle;
    allowed[k] = e.allowed;
    if (!lo.empty()) lo[k] = e.lo;
  }
  std::string clause;  // the operator's formula clause, as the operator names it
  Element at(std::int64_t k) const;
};

// [Acc.run] [Acc.verdict] Encloses `count` consecutive elements that share their counters (`c`: the
// same n and D), from their binary64 sums σ (and τ, double) and magnitudes, writing their annex entries
// from `at` and the values run writes to y[at...] — finish()'s arithmetic in simple loops the compiler
// vectorises, for the common element: finite, no overflow possible, n >= 1. Returns whether some element
// is not such an element: the caller then encloses those one by one (finish, or the operator's
// one-element definition), which overwrites them.
template <class T, class ToT>
bool enclose_run(const Coefficients& c, const double* sigma, const double* tau, const double* mag, std::size_t count, Annex& a,
                 std::size_t at, T* y, ToT to_t) {
  double* const hi = a.hi.data() + at;
  double* const radius = a.radius.data() + at;
  double* const bound = a.bound.data() + at;
  double* const oracle = a.oracle.data() + at;
  for (std::size_t t = 0; t < count; ++t) {
    const Radius r = radius_of(c, mag[t]);
    radius[t] = r.radius, bound[t] = r.bound, oracle[t] = r.oracle;
  }
  for (std::size_t t = 0; t < count; ++t) hi[t] = sigma[t];
  std::uint8_t* const allowed = a.allowed.data() + at;
  for (std::size_t t = 0; t < count; ++t) allowed[t] = kFinite;
  if (tau) {
    double* const lo = a.lo.data() + at;
    for (std::size_t t = 0; t < count; ++t) lo[t] = tau[t], y[at + t] = to_t(tau[t] == 0 ? sigma[t] : sigma[t] + tau[t]);
  } else {
    for (std::size_t t = 0; t < count; ++t) y[at + t] = to_t(sigma[t]);
  }
  int bad = 0;
  for (std::size_t t = 0; t < count; ++t) bad |= (sigma[t] - sigma[t] != 0.0) | (mag[t] - mag[t] != 0.0) | may_overflow(c, mag[t]);
  return bad != 0;
}
// Whether element t of such a run needs the one-by-one path.
inline bool exceptional(const Coefficients& c, double sigma, double tau, double mag) {
  return !std::isfinite(sigma + tau) || !std::isfinite(mag) || may_overflow(c, mag);
}

// Rounds the double x to T, to nearest, ties to even, once (not through float for the 16-bit types).
std::uint16_t to_float16_bits(double x);
std::uint16_t to_bfloat16_bits(double x);

}  // namespace sonnx::accuracy
