// Properties of spec/ops/batchnormalization.md (float types). Every evaluation form of
// [BatchNormalization.hyp] is restated here in the IEEE arithmetic of gen/exact.hpp (each operation
// rounded once in its format: float16 and bfloat16 emulated, binary32 and binary64 native; a division
// or square root of float16, bfloat16 or binary32 values is the binary64 one rounded once more to the
// format, which gives the correctly rounded result since 53 >= 2p + 2); the ideal is computed on the
// test side to within 2^-100·S (the radicand exact, its square root in binary128 by Newton's method
// from the binary64 one, checked by squaring); the bound θ(D)·S + U of [BatchNormalization.counts] is
// restated from the spec's text. Nothing here calls src/core/accuracy.* to compute an expected value:
// the implementation's annex is what is judged.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/accuracy.hpp"
#include "gen/exact.hpp"
#include "gen/props.hpp"
#include "ops/batchnormalization.hpp"

namespace sonnx::props::batchnormalization_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using exact::Fmt;
using exact::Quad;

// ---- the IEEE operations of one format ------------------------------------------------------------------

double rnd(Fmt f, double x) { return exact::to_double(exact::round(f, x)); }
double add(Fmt f, double x, double y) { return exact::to_double(exact::add(f, x, y)); }
double sub(Fmt f, double x, double y) { return add(f, x, -y); }
double mul(Fmt f, double x, double y) { return exact::to_double(exact::mul(f, x, y)); }
double fma(Fmt f, double a, double b, double c) { return exact::to_double(exact::fma(f, a, b, c)); }
double div(Fmt f, double x, double y) { return f == Fmt::F64 ? x / y : rnd(f, x / y); }  // innocuous double rounding
double sqrt_(Fmt f, double x) { return f == Fmt::F64 ? std::sqrt(x) : rnd(f, std::sqrt(x)); }

// The spec's constants of T, restated (spec/common/accuracy.md, Notation).
struct Consts {
  int p;
  double u, v, eta, lambda, omega;
};
Consts consts(DType t) {
  const auto c = [](int p, int emin, int emax, double eta) {
    const double u = std::ldexp(1.0, -p);
    return Consts{p, u, u + u * u * (1 + u), eta, std::ldexp(1.0, emin), std::ldexp(2.0 - u, emax)};
  };
  switch (t) {
    case DType::Float16: return c(11, -14, 15, std::ldexp(1.0, -24));
    case DType::BFloat16: return c(8, -126, 127, std::ldexp(1.0, -133));
    case DType::Float: return c(24, -126, 127, std::ldexp(1.0, -149));
    default: return c(53, -1022, 1023, std::ldexp(1.0, -1074));
  }
}

// ---- one channel, one element ----------------------------------------------------------------------------

struct Params {
  double gamma, beta, mu, var, eps;
};

// The forms of [BatchNormalization.hyp] evaluated in format f (inputs are values of T ⊂ f), the result
// rounded to T. `fused`: products followed by an addition fused. `round_coefficients`: a' and b' rounded to T
// (a model folded in T, then evaluated in f).
enum Form { Direct, DirectRecip, Ort, FoldedDiv, ScaledDiff, NumForms };
const char* form_name(Form k) {
  static const char* n[] = {"direct", "direct with 1/s", "onnxruntime's folded", "folded with a division", "scaled difference"};
  return n[k];
}

double evaluate(Form form, Fmt t, Fmt f, bool fused, bool round_coefficients, const Params& p, double x) {
  const double w = add(f, p.var, rnd(f, p.eps));  // w' = σ² ⊕ ε'
  const double s = sqrt_(f, w);
  const double q = div(f, 1.0, s);
  double y = 0;
  auto coeff = [&](double a) { return round_coefficients ? rnd(t, a) : a; };
  switch (form) {
    case Direct: y = add(f, mul(f, div(f, sub(f, x, p.mu), s), p.gamma), p.beta); break;
    case DirectRecip: {
      const double d = mul(f, sub(f, x, p.mu), q);
      y = fused ? fma(f, d, p.gamma, p.beta) : add(f, mul(f, d, p.gamma), p.beta);
      break;
    }
    case Ort:
    case FoldedDiv: {
      const double a = coeff(form == Ort ? mul(f, q, p.gamma) : div(f, p.gamma, s));
      const double b = coeff(fused ? fma(f, -p.mu, a, p.beta) : sub(f, p.beta, mul(f, p.mu, a)));
      y = fused ? fma(f, x, a, b) : add(f, mul(f, x, a), b);
      break;
    }
    default: {
      const double a = coeff(mul(f, q, p.gamma));
      const double d = sub(f, x, p.mu);
      y = fused ? fma(f, d, a, p.beta) : add(f, mul(f, d, a), p.beta);
    }
  }
  return rnd(t, y);
}

// The ideal, to within 2^-100·S: the radicand σ² + ε exact (Exact), its square root in binary128.
struct Ideal {
  long double s;  // centre
  double S;       // Σ|t_k|, to within 2^-60
  double a;       // γ/√w to binary64
  double w;
};
Ideal ideal(const Params& p, double x) {
  exact::Exact we(p.var);
  we.add(p.eps);
  const long double wl = we.approx();  // relative error below 2^-63
  // √w in binary128 by Newton from the binary64 root, on w to 64 bits: error far below 2^-100 relative to S
  Quad r = std::sqrt(static_cast<double>(wl));
  const Quad wq = wl;
  for (int k = 0; k < 3; ++k) r = (r + wq / r) / 2;
  const Quad a = Quad(p.gamma) / r;
  const Quad s = a * Quad(x) - a * Quad(p.mu) + Quad(p.beta);
  Ideal id;
  id.s = static_cast<long double>(s);
  id.a = static_cast<double>(a);
  id.S = std::fabs(id.a) * (std::fabs(x) + std::fabs(p.mu)) + std::fabs(p.beta);
  id.w = static_cast<double>(wl);
  return id;
}

// [BatchNormalization.counts] restated: D and B = θ(D)·S + U for a regular channel of T (parameters of T).
double spec_bound(DType t, const Params& p, double x, const Ideal& id, int* depth) {
  const Consts c = consts(t);
  const Fmt tf = exact::fmt_of(t);
  const double xi = rnd(tf, p.eps) == p.eps ? 0.0 : std::max(c.v * std::fabs(p.eps), c.eta);
  const double r = xi / id.w;
  long c_in = r == 0 ? 0 : r <= c.u ? 1 : static_cast<long>(std::ceil(r / ((1 - r) * c.u)));
  const long D = c_in + 8;
  *depth = static_cast<int>(D);
  const double theta = std::expm1(static_cast<double>(D) * std::log1p(c.v));  // (1 + v)^D − 1 (1 + v is not a double for double's v)
  const double chi = std::fabs(id.a) * (1 - theta) < 2 * c.lambda && p.gamma != 0 ? 1.0 : 0.0;
  const double U = (1 + theta) * (1 + theta) * c.eta *
                   (6 + std::fabs(p.gamma) + std::fabs(id.a) + chi * (std::fabs(x) + std::fabs(p.mu)) * std::max(1.0, 1 / std::sqrt(id.w)));
  return (theta * id.S + U) * (1 + 1e-9);
}

// ---- generated channels ----------------------------------------------------------------------------------

// A value of T near `mag` (random sign when `sign`), drawn on the test side and rounded to T.
double draw(DType t, double mag, bool sign = true) {
  const double m = *rc::gen::inRange(1, 1 << 20) / double(1 << 20);
  const int e = *rc::gen::inRange(-3, 4);
  double v = mag * (0.5 + m) * std::ldexp(1.0, e);
  if (sign && *rc::gen::arbitrary<bool>()) v = -v;
  return rnd(exact::fmt_of(t), v);
}

struct Case {
  DType t;
  Params p;
  std::vector<double> x;
  std::string kind;
};

Case draw_case() {
  Case c;
  c.t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double);
  const Fmt tf = exact::fmt_of(c.t);
  c.p.eps = static_cast<double>(*rc::gen::element(1e-5f, 1e-3f, 0.0f, 1e-2f, 1e-8f));
  const int kind = *rc::gen::inRange(0, 6);
  c.p.gamma = draw(c.t, 1), c.p.beta = draw(c.t, 1), c.p.mu = draw(c.t, 1), c.p.var = draw(c.t, 1, false);
  switch (kind) {
    case 0: c.kind = "random"; break;
    case 1: c.kind = "variance near epsilon", c.p.var = rnd(tf, c.p.eps * *rc::gen::element(0.0, 0.5, 1.0, 2.0, 0.01)); break;
    case 2: c.kind = "variance about 1e-3", c.p.var = draw(c.t, 1e-3, false); break;
    case 3:  // negative variance above -ε
      c.kind = "negative variance above -epsilon";
      c.p.var = rnd(tf, -c.p.eps * *rc::gen::element(0.5, 0.9, 0.25));
      break;
    case 4: c.kind = "large scale, small variance", c.p.gamma = draw(c.t, 64), c.p.var = draw(c.t, 1e-2, false); break;
    default: c.kind = "cancellation: bias opposite to a·x"; break;
  }
  const int n = *rc::gen::inRange(1, 9);
  for (int k = 0; k < n; ++k) c.x.push_back(draw(c.t, *rc::gen::element(1.0, 8.0, 0.125)));
  if (kind == 5) {  // β = −(a·x0 − a·μ) rounded to T: the terms cancel
    const double a = c.p.gamma / std::sqrt(c.p.var + c.p.eps);
    c.p.beta = rnd(tf, -(a * c.x[0] - a * c.p.mu));
  }
  return c;
}

Tensor tensor_of(DType t, Shape s, const std::vector<double>& v) {
  Tensor out(t, std::move(s));
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(out, static_cast<std::int64_t>(k), exact::encode(t, v[k]));
  return out;
}

Tensor run(const Case& c) {
  const auto n = static_cast<std::int64_t>(c.x.size());
  ops::BatchNormParams bp;
  bp.epsilon = c.p.eps;
  return ops::batch_normalization(15, tensor_of(c.t, {n, 1}, c.x), tensor_of(c.t, {1}, {c.p.gamma}), tensor_of(c.t, {1}, {c.p.beta}),
                                  tensor_of(c.t, {1}, {c.p.mu}), tensor_of(c.t, {1}, {c.p.var}), bp);
}

std::vector<Fmt> formats_for(DType t) {
  std::vector<Fmt> f = {exact::fmt_of(t)};
  if (t == DType::Float16 || t == DType::BFloat16) f.push_back(Fmt::F32);
  if (t != DType::Double) f.push_back(Fmt::F64);
  return f;
}

// [BatchNormalization.edge] a regular channel: w = σ² + ε above the conversion error ξ of ε (restated)
bool regular(const Case& c) {
  const Consts k = consts(c.t);
  const double xi = rnd(exact::fmt_of(c.t), c.p.eps) == c.p.eps ? 0.0 : std::max(k.v * std::fabs(c.p.eps), k.eta);
  return c.p.var + c.p.eps > 2 * xi && c.p.var + c.p.eps > 0 && std::isfinite(c.p.gamma);
}

// The largest fraction of R reached, per type, over the run (for [BatchNormalization.prop.tight]).
std::map<DType, double>& worst() {
  static std::map<DType, double> w;
  return w;
}

}  // namespace

TEST_CASE("[BatchNormalization.prop.forms] [BatchNormalization.hyp] [BatchNormalization.counts] [BatchNormalization.float.formula] "
          "[BatchNormalization.div.ort-folded] "
          "every evaluation form, fused or not, in T or wider, conforms and lies within the spec's bound of the exact ideal",
          "[batchnormalization][props]") {
  check("direct, reciprocal, onnxruntime's folded, folded with a division, scaled difference: all conform", [] {
    const Case c = draw_case();
    RC_PRE(regular(c));
    const Tensor Y = run(c);
    const Fmt tf = exact::fmt_of(c.t);
    for (std::size_t i = 0; i < c.x.size(); ++i) {
      const double x = c.x[i];
      const Ideal id = ideal(c.p, x);
      int D = 0;
      const double B = spec_bound(c.t, c.p, x, id, &D);
      const accuracy::Element e = Y.annex->at(static_cast<std::int64_t>(i));
      for (Fmt f : formats_for(c.t))
        for (int form = 0; form < NumForms; ++form)
          for (bool fused : {false, true})
            for (bool rc_ : {false, true}) {
              if (rc_ && f == tf) continue;
              const double r = evaluate(static_cast<Form>(form), tf, f, fused, rc_, c.p, x);
              if (!std::isfinite(r)) continue;  // an overflow [Acc.overflow] (the cases stay far from it)
              const accuracy::Judgement j = accuracy::judge(c.t, e, r);
              PROP_EXPECT(j.conforms, "{} {} ({}, {}{}) on x = {:.17g}: {:.17g} does not conform (error {:.3g}, R = {:.3g}, ideal {:.17g})",
                          name(c.t), form_name(static_cast<Form>(form)), exact::fmt_name(f), fused ? "fused" : "not fused",
                          rc_ ? ", a' b' rounded to T" : "", x, r, j.error, e.radius, static_cast<double>(id.s));
              const double err = std::fabs(static_cast<long double>(r) - id.s);
              PROP_EXPECT(err <= B + std::ldexp(id.S, -100), "{} {} ({}) on x = {:.17g}: |r − s| = {:.3g} above the spec's B = {:.3g} (D = {})",
                          name(c.t), form_name(static_cast<Form>(form)), exact::fmt_name(f), x, err, B, D);
              double& w = worst()[c.t];
              w = std::max(w, j.fraction);
            }
    }
    RC_TAG(name(c.t));
    RC_CLASSIFY(true, c.kind);
  });
  for (const auto& [t, w] : worst()) std::printf("[BatchNormalization.prop.tight] %s: largest fraction of R reached %.3f\n", std::string(name(t)).c_str(), w);
}

TEST_CASE("[BatchNormalization.prop.enclosure] [BatchNormalization.order] [Acc.prop.self] the oracle's centre is within e_o of the "
          "exact ideal and run's value conforms",
          "[batchnormalization][props]") {
  check("|ŷ − s| <= e_o and fl_T(ŷ) conforms", [] {
    const Case c = draw_case();
    RC_PRE(regular(c));
    const Tensor Y = run(c);
    for (std::size_t i = 0; i < c.x.size(); ++i) {
      const Ideal id = ideal(c.p, c.x[i]);
      const accuracy::Element e = Y.annex->at(static_cast<std::int64_t>(i));
      const long double centre = static_cast<long double>(e.hi) + e.lo;
      PROP_EXPECT(std::fabs(centre - id.s) <= e.oracle + std::ldexp(id.S, -100), "{}: |ŷ − s| = {:.3g} > e_o = {:.3g}", name(c.t),
                  static_cast<double>(std::fabs(centre - id.s)), e.oracle);
      const double r = exact::decode(c.t, bits_at(Y, static_cast<std::int64_t>(i)));
      PROP_EXPECT(accuracy::judge(c.t, e, r).conforms, "{}: run's value {:.17g} does not conform", name(c.t), r);
    }
    RC_TAG(name(c.t));
  });
}

TEST_CASE("[BatchNormalization.prop.tight] [BatchNormalization.counts] the bound is not loose: on a float16 witness a correct form "
          "reaches a stated fraction of R",
          "[batchnormalization][props]") {
  // A search over float16 channels (fixed seed, test side): the largest fraction of R any form reaches.
  double best = 0;
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-53;
  };
  const Fmt tf = Fmt::F16;
  for (int trial = 0; trial < 4000; ++trial) {
    Params p;
    p.eps = static_cast<double>(1e-5f);
    p.gamma = rnd(tf, 0.5 + next()), p.beta = rnd(tf, -(0.5 + next())), p.mu = rnd(tf, 2 * next() - 1), p.var = rnd(tf, 0.5 + next());
    const double x = rnd(tf, 4 * next() - 2);
    Case c{DType::Float16, p, {x}, "tight"};
    const Tensor Y = run(c);
    const accuracy::Element e = Y.annex->at(0);
    for (int form = 0; form < NumForms; ++form)
      for (bool fused : {false, true}) {
        const double r = evaluate(static_cast<Form>(form), tf, tf, fused, false, p, x);
        best = std::max(best, accuracy::judge(DType::Float16, e, r).fraction);
      }
  }
  std::printf("[BatchNormalization.prop.tight] float16: largest fraction of R over 4000 witnesses %.3f\n", best);
  CHECK(best >= 0.15);
  CHECK(best <= 1.0);
}

TEST_CASE("[BatchNormalization.prop.faults] [BatchNormalization.counts] the bound rejects epsilon left out, scale and bias swapped, "
          "the mean not subtracted, the square root left out, it accepts binary64 evaluation",
          "[batchnormalization][props]") {
  check("faulty evaluations are found on variances about 1e-3", [] {
    const DType t = *rc::gen::element(DType::Float, DType::Double, DType::Float16);
    const Fmt tf = exact::fmt_of(t);
    Case c;
    c.t = t;
    c.p.eps = static_cast<double>(1e-5f);
    c.p.gamma = draw(t, 1), c.p.beta = draw(t, 1), c.p.mu = draw(t, 1), c.p.var = draw(t, 1e-3, false);
    c.x = {draw(t, 1), draw(t, 1), draw(t, 1), draw(t, 1)};
    c.p.beta = c.p.beta == c.p.gamma ? rnd(tf, c.p.gamma * 2) : c.p.beta;
    const Tensor Y = run(c);
    int no_eps = 0, swapped = 0, no_mean = 0, no_sqrt = 0, distinct = 0;
    for (std::size_t i = 0; i < c.x.size(); ++i) {
      const double x = c.x[i];
      const accuracy::Element e = Y.annex->at(static_cast<std::int64_t>(i));
      auto fails = [&](double r) { return !accuracy::judge(t, e, r).conforms; };
      Params q = c.p;
      q.eps = 0;
      // Where ε left out moves Y by at least 2^-13 of S = |a·x| + |a·μ| + |β| (the ideal, test side): R is
      // θ(D)·S ≈ 2^-21·S for float, so the fault lies 2^8 radii away. Where x is within a few ulps of μ,
      // a·(x − μ) is itself below R and ε's 0.5% of it is no fault the bound can see (seed 2521265627442903457).
      const double a = c.p.gamma / std::sqrt(c.p.var + c.p.eps), a0 = c.p.gamma / std::sqrt(c.p.var);
      const double moved = std::fabs((a0 - a) * (x - c.p.mu)), S = std::fabs(a * x) + std::fabs(a * c.p.mu) + std::fabs(c.p.beta);
      if (moved >= 0x1p-13 * S) ++distinct, no_eps += fails(evaluate(Ort, tf, tf, false, false, q, x));
      q = c.p, std::swap(q.gamma, q.beta);
      swapped += fails(evaluate(Ort, tf, tf, false, false, q, x));
      q = c.p, q.mu = 0;
      no_mean += fails(evaluate(Ort, tf, tf, false, false, q, x));
      const double nos = rnd(tf, (x - c.p.mu) / (c.p.var + c.p.eps) * c.p.gamma + c.p.beta);
      no_sqrt += fails(nos);
      if (t != DType::Double)  // accepted: the direct formula in binary64, rounded once
        PROP_EXPECT(!fails(evaluate(Direct, tf, Fmt::F64, false, false, c.p, x)), "{}: binary64 evaluation rejected", name(t));
    }
    // ε left out changes a by ~0.5% (far above R for float and double; float16's R is ~0.4%: some elements)
    if (t != DType::Float16) PROP_EXPECT(no_eps == distinct, "{}: ε left out found on {} of the {} elements it moves by 2^-13·S", name(t), no_eps, distinct);
    RC_CLASSIFY(distinct > 0, "ε left out moves some element by 2^-13·S");
    PROP_EXPECT(swapped + no_mean + no_sqrt >= 1, "{}: no fault found", name(t));
    RC_TAG(name(t));
  });
}

}  // namespace sonnx::props::batchnormalization_props
