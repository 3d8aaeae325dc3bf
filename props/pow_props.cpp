// Properties of spec/ops/pow.md. Every expected value is computed on the test side: x^y by MPFR at 200 bits,
// rounded once to T (exact::round_pair); an implementation's pow as any value of T within K ulps of T of it
// ([Elem.hyp]); the special values from the table of [Pow.special], written out by hand; integer powers by MPFR's
// exact integer arithmetic at 200 bits, and the truncated half-integer powers as integer square roots. Nothing
// here calls the library's oracle (elementary::*_o, *_mp): the operator's annex is what is judged.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include <mpfr.h>

#include "core/accuracy.hpp"
#include "ops/elementary.hpp"
#include "gen/exact.hpp"
#include "gen/props.hpp"
#include "ops/pow.hpp"

namespace sonnx::props::pow_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using elementary::Fn;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const DType kFloats[] = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};

Tensor tensor_of(DType t, Shape s, const std::vector<double>& v) {
  Tensor out(t, std::move(s));
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(out, static_cast<std::int64_t>(k), exact::encode(t, v[k]));
  return out;
}
// An exponent tensor of an integer type from integer values (two's complement in the type's width).
Tensor int_tensor(DType t, Shape s, const std::vector<std::int64_t>& v) {
  Tensor out(t, std::move(s));
  const int w = 8 * static_cast<int>(info(t).size);
  const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(out, static_cast<std::int64_t>(k), static_cast<std::uint64_t>(v[k]) & mask);
  return out;
}
double value(const Tensor& Y, std::int64_t k) { return exact::decode(Y.dtype(), bits_at(Y, k)); }
bool conforms(const Tensor& Y, std::int64_t k, double r) { return accuracy::judge(Y.dtype(), Y.annex->at(k), r).conforms; }

// The values of T numbered in increasing order, 0 at ±0.
std::int64_t index_of(DType t, double v) {
  const std::uint64_t b = exact::encode(t, v);
  const int bits = t == DType::Double ? 64 : t == DType::Float ? 32 : 16;
  const std::uint64_t sign = 1ull << (bits - 1);
  const auto mag = static_cast<std::int64_t>(b & (sign - 1));
  return (b & sign) ? -mag : mag;
}
double value_of_index(DType t, std::int64_t i) {
  const int bits = t == DType::Double ? 64 : t == DType::Float ? 32 : 16;
  const std::uint64_t sign = 1ull << (bits - 1);
  return exact::decode(t, i < 0 ? (sign | static_cast<std::uint64_t>(-i)) : static_cast<std::uint64_t>(i));
}
double move(DType t, double v, std::int64_t k) { return value_of_index(t, index_of(t, v) + k); }

// ---- MPFR at 200 bits --------------------------------------------------------------------------------------

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 200); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};
// x^y at 200 bits: y a double, or an exact 64-bit integer.
struct Exp {
  bool is_int = false;
  double y = 0;
  std::int64_t i = 0;
};
void pow200(Mp& z, double x, const Exp& e) {
  Mp a, b;
  mpfr_set_d(a.v, x, MPFR_RNDN);
  if (e.is_int) {
    mpfr_set_si(b.v, static_cast<long>(e.i), MPFR_RNDN);
  } else {
    mpfr_set_d(b.v, e.y, MPFR_RNDN);
  }
  mpfr_pow(z.v, a.v, b.v, MPFR_RNDN);
}
double to_T(DType t, const mpfr_t x) {
  const double hi = mpfr_get_d(x, MPFR_RNDN);
  if (t == DType::Double || !std::isfinite(hi)) return hi;
  Mp r;
  mpfr_sub_d(r.v, x, hi, MPFR_RNDN);
  return exact::round_pair(exact::fmt_of(t), hi, mpfr_get_d(r.v, MPFR_RNDN));
}
// |f − v| <= K·ulp_T(f) ([Elem.hyp]): ulp_T(f) = 2^(E − p) for f = m·2^E, m in [1/2, 1), at least η_T.
bool within_K(DType t, const mpfr_t f, double v, double K) {
  const int p = t == DType::Float16 ? 11 : t == DType::BFloat16 ? 8 : t == DType::Float ? 24 : 53;
  const long emin = t == DType::Float16 ? -24 : t == DType::BFloat16 ? -133 : t == DType::Float ? -149 : -1074;
  const long e = std::max(mpfr_zero_p(f) ? emin : static_cast<long>(mpfr_get_exp(f)) - p, emin);
  Mp lim, diff;
  mpfr_set_d(lim.v, K, MPFR_RNDN);
  mpfr_mul_2si(lim.v, lim.v, e, MPFR_RNDN);
  mpfr_sub_d(diff.v, f, v, MPFR_RNDN);
  mpfr_abs(diff.v, diff.v, MPFR_RNDN);
  return mpfr_cmp(diff.v, lim.v) <= 0;
}
double omega(DType t) {
  return t == DType::Float16 ? 65504.0 : t == DType::BFloat16 ? 0x1.FEp127 : t == DType::Float ? 0x1.FFFFFEp127 : 0x1.FFFFFFFFFFFFFp1023;
}

// A random pair: x a value of T (negative only with an integer exponent), y a value of a float T1 or an integer,
// x^y within T's range.
struct Pair {
  DType t, t1;
  double x;
  Exp e;
};
Pair draw_pair() {
  Pair c;
  c.t = *rc::gen::elementOf(std::vector<DType>(std::begin(kFloats), std::end(kFloats)));
  const bool int_exp = *rc::gen::arbitrary<bool>();
  c.t1 = int_exp ? *rc::gen::element(DType::Int8, DType::Int32, DType::Int64, DType::Uint16) : c.t;
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const double maxlog = std::log(omega(c.t)) * 0.9;  // |y ln x| below: x^y finite in T
  const exact::Fmt tf = exact::fmt_of(c.t);
  for (;;) {
    const double x = exact::to_double(exact::round(tf, std::exp(std::uniform_real_distribution<double>(-6, 6)(rng))));
    if (x == 1 || x == 0 || !std::isfinite(x)) continue;
    double y;
    if (int_exp) {
      const double lim = std::min(maxlog / std::fabs(std::log(x)), c.t1 == DType::Int8 ? 127.0 : 2000.0);
      if (lim < 1) continue;
      c.e.is_int = true;
      c.e.i = std::uniform_int_distribution<std::int64_t>(c.t1 == DType::Uint16 ? 1 : -static_cast<std::int64_t>(lim),
                                                           static_cast<std::int64_t>(lim))(rng);
      if (c.e.i == 0) continue;
      c.e.y = static_cast<double>(c.e.i);
      c.x = rng() % 2 ? -x : x;
    } else {
      y = exact::to_double(exact::round(tf, std::uniform_real_distribution<double>(-1, 1)(rng) * maxlog / std::fabs(std::log(x))));
      if (y == 0 || !std::isfinite(y)) continue;
      c.e.y = y;
      c.x = x;
      if (y == std::trunc(y) && rng() % 2) c.x = -x;
    }
    return c;
  }
}
Tensor run_pair(const Pair& c) {
  const Tensor X = tensor_of(c.t, {1}, {c.x});
  const Tensor E = c.e.is_int ? int_tensor(c.t1, {1}, {c.e.i}) : tensor_of(c.t1, {1}, {c.e.y});
  return ops::pow_op(15, X, E, {});
}

// Values of T within K ulps of f, drawn among the K + 2 on each side of the correctly rounded one.
std::vector<double> within(DType t, const mpfr_t f, double K) {
  const double cr = to_T(t, f);
  std::vector<double> out;
  const auto Ki = static_cast<std::int64_t>(std::ceil(K)) + 1;
  for (std::int64_t k = -Ki; k <= Ki; ++k) {
    const double v = move(t, cr, k);
    if (std::isfinite(v) && within_K(t, f, v, K)) out.push_back(v);
  }
  return out;
}

}  // namespace

TEST_CASE("[Pow.prop.hyp] [Pow.bound] [Pow.float.formula] [Pow.exponent] [Elem.hyp] every value of T within K ulps of the real x^y "
          "conforms, float and integer exponents, negative bases with integer exponents",
          "[pow][props]") {
  check("random (x, y) of every type", [] {
    const Pair c = draw_pair();
    const Tensor Z = run_pair(c);
    Mp f;
    pow200(f, c.x, c.e);
    for (double v : within(c.t, f.v, elementary::ulps(Fn::Pow, c.t)))
      PROP_EXPECT(conforms(Z, 0, v), "{} x = {:.17g}, y = {:.17g}: {:.17g} within K of x^y = {:.17g} does not conform", name(c.t), c.x, c.e.y, v,
                  mpfr_get_d(f.v, MPFR_RNDN));
    RC_TAG(name(c.t));
  });
}

TEST_CASE("[Pow.prop.tight] [Pow.bound] a value K + 1 ulps or more from x^y does not conform where |x^y| = m 2^b with K m < K + 1",
          "[pow][props]") {
  check("random (x, y) of every type", [] {
    const Pair c = draw_pair();
    const Tensor Z = run_pair(c);
    Mp f;
    pow200(f, c.x, c.e);
    const double fd = mpfr_get_d(f.v, MPFR_RNDN), K = elementary::ulps(Fn::Pow, c.t);
    const double lambda = c.t == DType::Float16 ? 0x1p-14 : c.t == DType::Double ? 0x1p-1022 : 0x1p-126;
    int b = 0;
    const double m = 2 * std::frexp(std::fabs(fd), &b);  // |f| = m·2^(b − 1), m in [1, 2)
    const int p = c.t == DType::Float16 ? 11 : c.t == DType::BFloat16 ? 8 : c.t == DType::Float ? 24 : 53;
    const double eta = c.t == DType::Float16 ? 0x1p-24 : c.t == DType::BFloat16 ? 0x1p-133 : c.t == DType::Float ? 0x1p-149 : 0x1p-1074;
    const double ulp = std::ldexp(1.0, b - p);  // ulp_T(f) = 2^(b − 1 − (p − 1))
    const bool normal_and_tight = std::fabs(fd) >= 2 * lambda && K * m + K * eta / ulp < (K + 1) * (1 - 0x1p-10);
    RC_PRE(normal_and_tight);
    // from the correctly rounded value (or the next value away from zero if it lies below |f|), K + 1 values away
    // from zero: at least (K + 1)·ulp_T(f) from f
    const double dir = fd > 0 ? 1 : -1;
    double r = to_T(c.t, f.v);
    if (dir > 0 ? mpfr_cmp_d(f.v, r) > 0 : mpfr_cmp_d(f.v, r) < 0) r = move(c.t, r, static_cast<std::int64_t>(dir));  // |r| < |f|
    r = move(c.t, r, static_cast<std::int64_t>(dir * (K + 1)));
    RC_PRE(std::isfinite(r));
    const accuracy::Judgement j = accuracy::judge(c.t, Z.annex->at(0), r);
    PROP_EXPECT(!j.conforms, "{} x = {:.17g}, y = {:.17g}: {:.17g}, K + 1 ulps from x^y = {:.17g}, conforms (error {:.6g}, R = {:.6g})", name(c.t),
                c.x, c.e.y, r, fd, j.error, Z.annex->at(0).radius);
  });
}

TEST_CASE("[Pow.prop.self] [Pow.oracle] [Elem.run] [Pow.float.formula] run's value is MPFR's x^y rounded to T, conforms, and the "
          "oracle's enclosure holds it",
          "[pow][props]") {
  check("random (x, y) of every type", [] {
    const Pair c = draw_pair();
    const Tensor Z = run_pair(c);
    Mp f;
    pow200(f, c.x, c.e);
    const double y = to_T(c.t, f.v), r = value(Z, 0);
    PROP_EXPECT(exact::encode(c.t, r) == exact::encode(c.t, y), "{} x = {:.17g}, y = {:.17g}: run {:.17g}, MPFR {:.17g}", name(c.t), c.x, c.e.y, r, y);
    PROP_EXPECT(conforms(Z, 0, r), "{}: run's value does not conform", name(c.t));
    // [Pow.oracle] the centre within e_o of MPFR's x^y
    const accuracy::Element e = Z.annex->at(0);
    Mp diff;
    mpfr_sub_d(diff.v, f.v, e.hi, MPFR_RNDN);
    mpfr_sub_d(diff.v, diff.v, e.lo, MPFR_RNDN);
    PROP_EXPECT(std::fabs(mpfr_get_d(diff.v, MPFR_RNDU)) <= e.oracle, "{} x = {:.17g}, y = {:.17g}: |ideal - centre| = {:.3g} > e_o = {:.3g}",
                name(c.t), c.x, c.e.y, mpfr_get_d(diff.v, MPFR_RNDU), e.oracle);
  });
}

TEST_CASE("[Pow.prop.self] [Pow.shape] [Common.broadcast.map] [Common.arith.legacy] [Pow.v1] [Pow.v7] broadcast shapes: X [3, 1] "
          "and Y [4] give Z [3, 4], version 1 with broadcast 1 and axis 0 reads Y[i0], each element MPFR's x^y",
          "[pow][props]") {
  for (DType t : {DType::Float16, DType::Float, DType::Double}) {
    const std::vector<double> xs = {0.5, 3, 7.25}, ys = {-2, 0.5, 1.5, 3};
    const Tensor Z = ops::pow_op(7, tensor_of(t, {3, 1}, xs), tensor_of(t, {4}, ys), {});
    REQUIRE(Z.shape() == Shape{3, 4});
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t j = 0; j < 4; ++j) {
        Mp f;
        pow200(f, xs[static_cast<std::size_t>(i)], Exp{false, ys[static_cast<std::size_t>(j)], 0});
        CHECK(value(Z, i * 4 + j) == to_T(t, f.v));
      }
    // version 1: Y of shape [3] along axis 0 of X [3, 2]
    ops::LegacyBroadcast l;
    l.broadcast = 1, l.axis = 0;
    const Tensor Z1 = ops::pow_op(1, tensor_of(t, {3, 2}, {2, 2, 2, 2, 2, 2}), tensor_of(t, {3}, {1, 2, 3}), l);
    REQUIRE(Z1.shape() == Shape{3, 2});
    for (std::int64_t k = 0; k < 6; ++k) CHECK(value(Z1, k) == std::ldexp(1.0, static_cast<int>(k / 2) + 1));
    CHECK(Z.annex != nullptr);
    const Tensor Ze = ops::pow_op(13, tensor_of(t, {0, 3}, {}), tensor_of(t, {3}, {1, 2, 3}), {});
    CHECK(Ze.shape() == Shape{0, 3});
  }
}

TEST_CASE("[Pow.prop.square] [Pow.square] fl(x x) for y = 2 conforms with K = 1/2, fl(fl(x x) x) for y = 3 with K = 2",
          "[pow][props]") {
  check("random x of float16 and float", [] {
    const DType t = *rc::gen::element(DType::Float16, DType::Float);
    const exact::Fmt f = exact::fmt_of(t);
    std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
    const double span = t == DType::Float16 ? 3.5 : 25;  // x^3 within T's normal range
    const double x = exact::to_double(exact::round(f, (rng() % 2 ? -1 : 1) * std::exp2(std::uniform_real_distribution<double>(-span, span)(rng))));
    const bool useful = x != 0 && std::fabs(x) != 1;
    RC_PRE(useful);
    const Tensor X = tensor_of(t, {1}, {x});
    elementary::set_ulps(Fn::Pow, 0.5);
    const Tensor Z2 = ops::pow_op(13, X, tensor_of(t, {1}, {2}), {});
    elementary::set_ulps(Fn::Pow, 2);
    const Tensor Z3 = ops::pow_op(13, X, tensor_of(t, {1}, {3}), {});
    elementary::reset_ulps();
    const double sq = exact::to_double(exact::mul(f, x, x)), cube = exact::to_double(exact::mul(f, exact::mul(f, x, x), x));
    PROP_EXPECT(conforms(Z2, 0, sq), "{} x = {:.17g}: fl(x x) = {:.17g} does not conform with K = 1/2", name(t), x, sq);
    PROP_EXPECT(conforms(Z3, 0, cube), "{} x = {:.17g}: fl(fl(x x) x) = {:.17g} does not conform with K = 2", name(t), x, cube);
  });
}

TEST_CASE("[Pow.prop.special] [Pow.special] [Pow.overflow] [Pow.div.sonnx-draft] the table of Annex F, row by row: run writes the value "
          "and only it conforms (0^-1 = +Inf and int32 2^-1 = 0, which the SONNX draft leaves undefined)",
          "[pow][props]") {
  struct Row {
    double x, y, z;
  };
  // The table of spec/ops/pow.md [Pow.special], written out
  const std::vector<Row> rows = {
      {kNaN, 0, 1},      {kNaN, -0.0, 1},    {3, 0, 1},          {1, kNaN, 1},     {1, -kInf, 1},    {kNaN, 2, kNaN},
      {2, kNaN, kNaN},   {-1, kInf, 1},      {-1, -kInf, 1},     {0.5, -kInf, kInf}, {0.5, kInf, 0}, {-0.5, kInf, 0},
      {2, -kInf, 0},     {-2, kInf, kInf},   {kInf, kInf, kInf}, {-kInf, -kInf, 0}, {0.0, -3, kInf}, {-0.0, -3, -kInf},
      {-0.0, -2, kInf},  {-0.0, -0.5, kInf}, {0.0, 3, 0.0},      {-0.0, 3, -0.0},  {-0.0, 2, 0.0},   {-0.0, 0.5, 0.0},
      {-kInf, -3, -0.0}, {-kInf, -2, 0.0},   {-kInf, 3, -kInf},  {-kInf, 0.5, kInf}, {kInf, -2, 0.0}, {kInf, 0.5, kInf},
      {-8, 0.5, kNaN},   {-2, -1.5, kNaN},   {-1, 3, -1},        {-1, -4, 1},      {-1, 2.5, kNaN}};
  for (DType t : {DType::Float16, DType::Float, DType::Double})
    for (const Row& r : rows) {
      const Tensor Z = ops::pow_op(13, tensor_of(t, {1}, {r.x}), tensor_of(t, {1}, {r.y}), {});
      INFO(name(t) << " x = " << r.x << ", y = " << r.y);
      const double z = value(Z, 0);
      if (r.z != r.z) {
        CHECK(z != z);
        CHECK(conforms(Z, 0, kNaN));
        CHECK_FALSE(conforms(Z, 0, 1.0));
      } else {
        CHECK(exact::encode(t, z) == exact::encode(t, r.z));  // run writes the table's value, its sign included
        CHECK(conforms(Z, 0, r.z));
        if (r.z == 0) CHECK(conforms(Z, 0, -r.z));  // [Acc.zero] a zero of either sign
        CHECK_FALSE(conforms(Z, 0, kNaN));
        CHECK_FALSE(conforms(Z, 0, r.z == 0 ? 0.5 : std::isinf(r.z) ? 1.0 : 0.5));
      }
    }
  // [Pow.overflow] 2^128 in float: +Inf conforms (and float's maximum, within B); 2^120: +Inf does not; (−2)^129: −Inf
  const Tensor Zo = ops::pow_op(13, tensor_of(DType::Float, {3}, {2, 2, -2}), tensor_of(DType::Float, {3}, {128, 120, 129}), {});
  CHECK(conforms(Zo, 0, kInf));
  CHECK_FALSE(conforms(Zo, 0, -kInf));
  CHECK_FALSE(conforms(Zo, 1, kInf));
  CHECK(conforms(Zo, 2, -kInf));
  CHECK(value(Zo, 0) == kInf);  // fl(2^128) = +Inf
  // [Pow.div.sonnx-draft] where the draft is silent or undefined: 0^-1 = +Inf, int32 2^-1 = 0, int32 3^-2 = 0
  CHECK(value(ops::pow_op(15, tensor_of(DType::Float, {1}, {0.0}), tensor_of(DType::Float, {1}, {-1}), {}), 0) == kInf);
  CHECK(bits_at(ops::pow_op(15, int_tensor(DType::Int32, {2}, {2, 3}), int_tensor(DType::Int32, {2}, {-1, -2}), {}), 0) == 0);
  CHECK(bits_at(ops::pow_op(15, int_tensor(DType::Int32, {2}, {2, 3}), int_tensor(DType::Int32, {2}, {-1, -2}), {}), 1) == 0);
}

TEST_CASE("[Pow.exponent] [Pow.v12] [Pow.v15] integer exponents are exact: int64 2^53 + 1 keeps its parity, uint64 beyond 2^63, "
          "every T1 of the version gives the same value as the float exponent",
          "[pow][props]") {
  // double: (−(1 + 2^-52))^(2^53 + 1) is negative (an odd exponent), about −e^2; rounding y to 2^53 would make it positive
  const double x = -(1 + 0x1p-52);
  const Tensor Z = ops::pow_op(15, tensor_of(DType::Double, {1}, {x}), int_tensor(DType::Int64, {1}, {(std::int64_t{1} << 53) + 1}), {});
  Mp f;
  pow200(f, x, Exp{true, 0, (std::int64_t{1} << 53) + 1});
  CHECK(value(Z, 0) == to_T(DType::Double, f.v));
  CHECK(value(Z, 0) < -7.3);
  // float: the parity of an int64 exponent is the integer's own, never that of its double (2^53 + 1 rounds to
  // 2^53 + 2, even): (−1)^(2^53 + 1) = −1 and (−0.5)^(−(2^53 + 1)) = −2^(2^53 + 1), beyond float: −Inf
  const std::int64_t odd = (std::int64_t{1} << 53) + 1;
  CHECK(value(ops::pow_op(15, tensor_of(DType::Float, {1}, {-1}), int_tensor(DType::Int64, {1}, {odd}), {}), 0) == -1);
  CHECK(value(ops::pow_op(15, tensor_of(DType::Float, {1}, {-0.5}), int_tensor(DType::Int64, {1}, {-odd}), {}), 0) == -kInf);
  // uint64 2^63 + 1 with base −1: −1 (odd)
  Tensor U(DType::Uint64, {1});
  set_bits_at(U, 0, (std::uint64_t{1} << 63) + 1);
  CHECK(value(ops::pow_op(15, tensor_of(DType::Float, {1}, {-1}), U, {}), 0) == -1);
  for (DType t1 : {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64}) {
    const Tensor Zi = ops::pow_op(12, tensor_of(DType::Float, {2}, {1.5, -3}), int_tensor(t1, {2}, {5, 3}), {});
    const Tensor Zf = ops::pow_op(12, tensor_of(DType::Float, {2}, {1.5, -3}), tensor_of(DType::Float, {2}, {5, 3}), {});
    CHECK(Zi.bitwise_equal(Zf));
    CHECK(value(Zi, 1) == -27);
  }
}

TEST_CASE("[Pow.bound] [Elem.hyp] a subnormal x^y: a value K eta away conforms (alpha), K + 1 eta away does not",
          "[pow][props]") {
  // float 0.5^140.5 = 2^-140.5 = 2^8.5 eta = 362.0387 eta (eta = 2^-149): run writes 362 eta; with K_pow = 7 the
  // bound is kappa |x^y| + alpha, alpha = 7 eta, so 369 eta (6.96 eta away) conforms and 370 eta (7.96) does not.
  // Without alpha, kappa |x^y| = 2 * 7 * 2^-24 * 362 eta is far below one eta and neither would.
  elementary::set_ulps(Fn::Pow, 7);
  const double eta = 0x1p-149;
  const Tensor Z = ops::pow_op(15, tensor_of(DType::Float, {1}, {0.5}), tensor_of(DType::Float, {1}, {140.5}), {});
  CHECK(value(Z, 0) == 362 * eta);
  CHECK(conforms(Z, 0, 369 * eta));
  CHECK(conforms(Z, 0, 356 * eta));  // 6.04 eta below
  CHECK_FALSE(conforms(Z, 0, 370 * eta));
  CHECK_FALSE(conforms(Z, 0, 355 * eta));  // 7.04 eta below
  elementary::reset_ulps();
}

TEST_CASE("[Pow.prop.int] [Pow.int.formula] [Pow.err.int-value] integer bases: exact powers, truncations and refusals against MPFR's "
          "exact integers and integer square roots",
          "[pow][props]") {
  for (DType t : {DType::Int32, DType::Int64}) {
    const bool is32 = t == DType::Int32;
    const __int128 lo = is32 ? INT32_MIN : INT64_MIN, hi = is32 ? INT32_MAX : INT64_MAX;
    for (std::int64_t x = -20; x <= 20; ++x)
      for (std::int64_t y = -3; y <= 70; ++y) {
        INFO(name(t) << " " << x << "^" << y);
        const auto run = [&](DType t1) { return ops::pow_op(15, int_tensor(t, {1}, {x}), int_tensor(t1, {1}, {y}), {}); };
        // the expected value: MPFR's exact x^y (|x^y| <= 20^70 < 2^303: 400 bits), truncated
        mpfr_t z, b;
        mpfr_init2(z, 400), mpfr_init2(b, 400);
        mpfr_set_si(b, static_cast<long>(x), MPFR_RNDN);
        mpfr_pow_si(z, b, static_cast<long>(y), MPFR_RNDN);
        mpfr_trunc(z, z);
        const bool infinite = mpfr_inf_p(z) != 0;
        const bool fits = !infinite && mpfr_fits_slong_p(z, MPFR_RNDN) && mpfr_get_si(z, MPFR_RNDN) >= lo && mpfr_get_si(z, MPFR_RNDN) <= hi;
        const long expected = fits ? mpfr_get_si(z, MPFR_RNDN) : 0;
        mpfr_clear(z), mpfr_clear(b);
        for (DType t1 : {DType::Int64, DType::Int8}) {
          if (t1 == DType::Int8 && y > 127) continue;
          if (fits) {
            const Tensor Z = run(t1);
            CHECK(static_cast<long>(static_cast<std::int64_t>(bits_at(Z, 0) << (is32 ? 32 : 0)) >> (is32 ? 32 : 0)) == expected);
          } else {
            CHECK(refusal_id([&] { (void)run(t1); }) == "Pow.err.int-value");
          }
        }
      }
    // y = k + 1/2: ⌊x^(k + 1/2)⌋ = ⌊√(x^(2k + 1))⌋, an integer square root (x >= 1)
    for (std::int64_t x = 1; x <= 30; ++x)
      for (int k = 0; k <= 4; ++k) {
        unsigned __int128 p = 1;
        for (int q = 0; q < 2 * k + 1; ++q) p *= static_cast<unsigned __int128>(x);
        unsigned __int128 r = static_cast<unsigned __int128>(std::sqrt(static_cast<long double>(p)));
        while (r * r > p) --r;
        while ((r + 1) * (r + 1) <= p) ++r;
        const Tensor Z = ops::pow_op(15, int_tensor(t, {1}, {x}), tensor_of(DType::Float, {1}, {k + 0.5}), {});
        INFO(name(t) << " " << x << "^" << k << ".5");
        CHECK(static_cast<std::uint64_t>(r) == (bits_at(Z, 0) & (is32 ? 0xFFFFFFFFu : ~std::uint64_t{0})));
      }
    // the refusals of [Pow.err.int-value]: a NaN, an infinity
    const auto refused = [&](std::int64_t x, double y) {
      return refusal_id([&] { (void)ops::pow_op(15, int_tensor(t, {1}, {x}), tensor_of(DType::Double, {1}, {y}), {}); });
    };
    CHECK(refused(-8, 0.5) == "Pow.err.int-value");
    CHECK(refused(2, kNaN) == "Pow.err.int-value");
    CHECK(refused(0, -0.5) == "Pow.err.int-value");
    CHECK(refused(2, kInf) == "Pow.err.int-value");
    CHECK(refused(1, kNaN) == "(accepted)");   // 1^NaN = 1
    CHECK(refused(2, -kInf) == "(accepted)");  // 0
    CHECK(refused(-1, kInf) == "(accepted)");  // 1
  }
}

TEST_CASE("[Pow.err.dtype] [Pow.err.exponent-type] [Pow.err.broadcast] [Pow.err.legacy] [Pow.v1] [Pow.v7] [Pow.v12] [Pow.v13] "
          "[Pow.v15] the types of each version, shapes that do not broadcast, a legacy Y that does not fit",
          "[pow][props]") {
  const auto call = [](int v, const Tensor& X, const Tensor& E) { return refusal_id([&] { (void)ops::pow_op(v, X, E, {}); }); };
  const Tensor f = tensor_of(DType::Float, {1}, {2}), d = tensor_of(DType::Double, {1}, {2});
  const Tensor b = tensor_of(DType::BFloat16, {1}, {2}), i32 = int_tensor(DType::Int32, {1}, {2});
  for (int v : {1, 7}) {
    CHECK(call(v, f, f) == "(accepted)");
    CHECK(call(v, f, d) == "Pow.err.exponent-type");
    CHECK(call(v, i32, i32) == "Pow.err.dtype");
    CHECK(call(v, b, b) == "Pow.err.dtype");
  }
  CHECK(call(12, i32, f) == "(accepted)");
  CHECK(call(12, f, d) == "(accepted)");
  CHECK(call(12, b, f) == "Pow.err.dtype");
  CHECK(call(13, b, f) == "(accepted)");
  CHECK(call(13, f, b) == "Pow.err.exponent-type");
  CHECK(call(15, f, b) == "(accepted)");
  CHECK(call(15, int_tensor(DType::Int8, {1}, {2}), f) == "Pow.err.dtype");
  CHECK(call(15, f, Tensor(DType::Bool, {1})) == "Pow.err.exponent-type");
  CHECK(call(7, tensor_of(DType::Float, {3}, {1, 2, 3}), tensor_of(DType::Float, {4}, {1, 2, 3, 4})) == "Pow.err.broadcast");
  CHECK(call(1, tensor_of(DType::Float, {3}, {1, 2, 3}), tensor_of(DType::Float, {1}, {1})) == "Pow.err.legacy");  // broadcast 0
  ops::LegacyBroadcast l;
  l.broadcast = 1;
  CHECK(refusal_id([&] { (void)ops::pow_op(1, tensor_of(DType::Float, {3}, {1, 2, 3}), tensor_of(DType::Float, {2}, {1, 2}), l); }) ==
        "Pow.err.legacy");
  CHECK(refusal_id([&] { (void)ops::pow_op(1, tensor_of(DType::Float, {3}, {1, 2, 3}), tensor_of(DType::Float, {1}, {2}), l); }) ==
        "(accepted)");
}

}  // namespace sonnx::props::pow_props
