// Properties of spec/ops/sum.md, mean.md, reducesum.md and reducemean.md. The ideal of every element is
// restated on the test side exactly (gen/exact.hpp: s = Σ x, and for the means d·r compared with Σ x so
// that no division is rounded), the bound from the clauses' formulas (gen/accuracy_model.hpp), and the
// evaluations [Acc.hyp] and [Acc.divisor] allow are run in the IEEE arithmetic of each type; the
// operators are only called, never re-derived.
#include <algorithm>
#include <cmath>

#include "core/accuracy.hpp"
#include "gen/accuracy_model.hpp"
#include "gen/props.hpp"
#include "ops/mean.hpp"
#include "ops/reducemean.hpp"
#include "ops/reducesum.hpp"
#include "ops/sum.hpp"

namespace sonnx::props::sum_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

// One element's values and the ways to evaluate it. `n` inputs of shape (size) or one X of shape (size, n).
struct Case {
  DType t = DType::Float;
  int n = 1, size = 1;
  std::vector<std::vector<double>> x;  // x[m][i]: term m of element i
  bool mean = false;
  int version = 13;
};

rc::Gen<Case> a_case(bool mean) {
  return rc::gen::exec([mean] {
    Case c;
    c.mean = mean;
    c.t = *gen::one_of(std::vector<DType>{DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    c.n = *gen::index(1, 12);
    c.size = *gen::index(1, 5);
    const int cap = factor_exponent_cap(c.t, c.n);
    const int kind = *gen::index(0, 4);
    const exact::FormatFacts F = exact::facts(exact::fmt_of(c.t));
    const int lo = kind == 0 ? F.emin - F.frac_bits : kind == 1 ? -3 : -12, hi = kind == 1 ? 3 : cap;
    c.x.assign(static_cast<std::size_t>(c.n), std::vector<double>(static_cast<std::size_t>(c.size)));
    for (auto& row : c.x)
      for (double& v : row) v = *value_in(c.t, lo, hi);
    if (kind == 3 && c.n >= 3) {  // [Acc.situations] cancellation: the element's terms sum to 0, the largest first or last
      for (int i = 0; i < c.size; ++i) {
        double s = 0;
        for (int m = 1; m + 1 < c.n; ++m) c.x[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)] = *value_in(c.t, -3, 3);
        const double big = std::ldexp(1.0, F.frac_bits + 3);
        c.x[0][static_cast<std::size_t>(i)] = big;
        for (int m = 1; m + 1 < c.n; ++m) s += c.x[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)];
        c.x[static_cast<std::size_t>(c.n - 1)][static_cast<std::size_t>(i)] = -big;
        if (*gen::index(0, 2) == 1) std::swap(c.x[0][static_cast<std::size_t>(i)], c.x[static_cast<std::size_t>(c.n - 1)][static_cast<std::size_t>(i)]);
        (void)s;
      }
    }
    c.version = *gen::one_of(std::vector<int>{8, 13});
    if (c.t == DType::BFloat16) c.version = 13;
    return c;
  });
}

Tensor tensor_of(DType t, Shape shape, const std::vector<double>& v) {
  Tensor x(t, std::move(shape));
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(x, static_cast<std::int64_t>(k), exact::encode(t, v[k]));
  return x;
}

// The inputs of Sum / Mean, and the X of ReduceSum / ReduceMean of shape (size, n) reduced over axis 1.
std::vector<Tensor> inputs_of(const Case& c) {
  std::vector<Tensor> out;
  for (const auto& row : c.x) out.push_back(tensor_of(c.t, {c.size}, row));
  return out;
}
Tensor stacked(const Case& c) {
  std::vector<double> v;
  for (int i = 0; i < c.size; ++i)
    for (int m = 0; m < c.n; ++m) v.push_back(c.x[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)]);
  return tensor_of(c.t, {c.size, c.n}, v);
}
Tensor run_variadic(const Case& c) {
  const std::vector<Tensor> in = inputs_of(c);
  std::vector<const Tensor*> p;
  for (const Tensor& x : in) p.push_back(&x);
  return c.mean ? ops::mean(c.version, p) : ops::sum(c.version, p);
}
Tensor run_reduce(const Case& c, std::int64_t keepdims = 0) {
  ops::ReduceParams p;
  p.axes = std::vector<std::int64_t>{1};
  p.keepdims = keepdims;
  return c.mean ? ops::reduce_mean(13, stacked(c), p) : ops::reduce_sum(13, stacked(c), p);
}

// The restated c_d ([Acc.divisor]): 1 + max([1/d not in T], 2·[d not in T]), 0 for d = 1.
int cd_of(DType t, std::int64_t d) {
  if (d == 1) return 0;
  const bool d_in = representable(t, static_cast<double>(d)) && static_cast<long double>(d) < constants(t).omega;
  const bool r_in = (d & (d - 1)) == 0 && 1.0L / static_cast<long double>(d) >= constants(t).eta;
  return 1 + std::max(r_in ? 0 : 1, d_in ? 0 : 2);
}

// |d·r − Σx| <= d·bound, exactly.
bool within(const Exact& s, double r, double bound, std::int64_t d) {
  Exact diff = s;
  const double f[2] = {r, static_cast<double>(d)};
  diff.add_product(f, 2, true);
  Exact lim;
  const double g[2] = {bound, static_cast<double>(d)};
  lim.add_product(g, 2);
  return diff.compare_abs(lim) <= 0;
}

Quad div_in(Fmt f, Quad a, Quad b) {
  if (f == Fmt::F128) return a / b;
  const double q = static_cast<double>(a) / static_cast<double>(b);  // 53 >= 2p + 2: the double rounding is innocuous
  return f == Fmt::F64 ? Quad(q) : exact::round(f, Quad(q));
}

// Every element of Y judged against the restated model, with evaluations of H: the terms summed in
// the order `order` (forward, reverse, shuffled) left to right, pairwise, in T and in F; for a mean,
// the sum divided by fl(d) or times fl(1/d), and each term divided first.
void check_element(const Case& c, const Tensor& Y, int i, const std::string& via) {
  const accuracy::Element e = Y.annex->at(i);
  const std::int64_t d = c.mean ? c.n : 1;
  const int cd = c.mean ? cd_of(c.t, d) : 0;
  std::vector<VTerm> terms;
  for (int m = 0; m < c.n; ++m) terms.push_back(VTerm{{Factor{c.x[static_cast<std::size_t>(m)][static_cast<std::size_t>(i)], false}}, false, cd, 1.0, 0.0});
  const Model model = restate(c.t, terms, c.mean ? 2 : 0);
  RC_ASSERT(model.allowed == kFinite);
  const long double B = model.theta * (model.S / static_cast<long double>(d)) + model.U;
  PROP_EXPECT(e.radius >= B * (1 - 0x1p-52L), "{} Y[{}]: the radius {:a} is below the restated B = {:.17Lg} (n = {}, c_d = {})", via, i,
              e.radius, B, c.n, cd);
  PROP_EXPECT(e.radius <= B * (1 + 0x1p-30L) + model.eo / static_cast<long double>(d) + 0x1p-1060L,
              "{} Y[{}]: the radius {:a} exceeds B(1 + 2^-30) + e_o", via, i, e.radius);
  const Fmt T = exact::fmt_of(c.t);
  const Fmt F = *gen::one_of(exact::wider_formats(T));
  std::vector<int> order;
  for (std::size_t k : *gen::permutation(static_cast<std::size_t>(c.n))) order.push_back(static_cast<int>(k));
  const std::vector<int> forward = identity_order(c.n);
  const std::vector<int> reverse(forward.rbegin(), forward.rend());
  const Tree trees[3] = {left_to_right(order), pairwise(identity_order(c.n)), left_to_right(reverse)};
  auto judge = [&](Quad q, const std::string& what) {
    const double r = static_cast<double>(q);
    PROP_EXPECT(within(model.s, r, e.radius, d), "{} Y[{}]: {} gives {:a}, beyond the reported radius {:a} of the exact ideal", via, i,
                what, r, e.radius);
    PROP_EXPECT(accuracy::judge(c.t, e, r).conforms, "{} Y[{}]: {} gives {:a}, which accuracy::judge refuses", via, i, what, r);
    PROP_EXPECT(within(model.s, r, static_cast<double>(B * (1 + 0x1p-52L)), d), "{} Y[{}]: {} gives {:a}, beyond the restated B", via, i,
                what, r);
  };
  for (const Tree& tree : trees)
    for (const Mode mode : {Mode::T, Mode::F}) {
      const bool in_t = mode == Mode::T;
      const Quad sum = evaluate(tree, terms, uniform(tree, c.t, F, mode, false, ""), in_t);
      const Fmt g = in_t ? T : F;
      if (!c.mean) {
        judge(exact::round(T, sum), in_t ? "a sum in T" : "a sum in F");
        continue;
      }
      const Quad fd = exact::round(g, Quad(d)), rd = exact::round(g, Quad(1) / Quad(d));
      if (!exact::is_inf(fd)) judge(exact::round(T, div_in(g, sum, fd)), in_t ? "the sum in T divided by fl(d)" : "the sum in F divided by fl(d)");
      judge(exact::round(T, exact::mul(g, sum, rd)), in_t ? "the sum in T times fl(1/d)" : "the sum in F times fl(1/d)");
      std::vector<VTerm> divided = terms;  // [Acc.divisor] each term divided first, then summed
      for (VTerm& term : divided) term.factors[0].value = static_cast<double>(div_in(g, Quad(term.factors[0].value), fd));
      if (in_t && !exact::is_inf(fd)) judge(evaluate(tree, divided, uniform(tree, c.t, F, Mode::T, false, ""), true), "each term divided by fl(d) in T, then summed");
    }
  // [Acc.prop.self] run's value
  judge(Quad(exact::decode(c.t, bits_at(Y, i))), "run's value");
}

}  // namespace

TEST_CASE("[Sum.prop.bound] [Sum.float.formula] [Sum.order] every order of the additions in T or F lies within the radius and the "
          "restated bound of the exact sum",
          "[sum][props]") {
  check("random inputs of every float type, cancellations: each element against the exact sum", [] {
    const Case c = *a_case(false);
    const Tensor Y = run_variadic(c);
    for (int i = 0; i < c.size; ++i) check_element(c, Y, i, fmt::format("Sum-{} of {} {} inputs", c.version, c.n, name(c.t)));
    RC_TAG(name(c.t));
  });
}

TEST_CASE("[Mean.prop.bound] [Mean.float.formula] [Mean.order] [Acc.divisor] every order and every way of applying 1/n lies within the "
          "radius and the restated bound of the exact mean",
          "[mean][props]") {
  check("random inputs of every float type, cancellations: each element against the exact mean", [] {
    const Case c = *a_case(true);
    const Tensor Y = run_variadic(c);
    for (int i = 0; i < c.size; ++i) check_element(c, Y, i, fmt::format("Mean-{} of {} {} inputs", c.version, c.n, name(c.t)));
    RC_TAG(name(c.t));
  });
}

TEST_CASE("[ReduceSum.prop.bound] [ReduceMean.prop.bound] [ReduceSum.float.formula] [ReduceMean.float.formula] [ReduceSum.order] "
          "[ReduceMean.order] the reductions over the last axis against the exact sum and mean",
          "[reducesum][props]") {
  check("X of shape (size, n) reduced over axis 1: each element against the exact ideal", [] {
    Case c = *a_case(*gen::index(0, 2) == 1);
    const Tensor Y = run_reduce(c);
    for (int i = 0; i < c.size; ++i) check_element(c, Y, i, fmt::format("{}-13 over {} {} elements", c.mean ? "ReduceMean" : "ReduceSum", c.n, name(c.t)));
    RC_TAG(c.mean ? "ReduceMean" : "ReduceSum");
    RC_TAG(name(c.t));
  });
}

TEST_CASE("[Sum.prop.reduce] [Mean.prop.reduce] [ReduceSum.prop.slices] [ReduceMean.prop.slices] Sum of the slices equals ReduceSum "
          "over the stacked axis, bit for bit with the same radii",
          "[sum][props]") {
  check("n inputs of one shape against their stack reduced over its last axis", [] {
    Case c = *a_case(*gen::index(0, 2) == 1);
    c.version = 13;
    const Tensor A = run_variadic(c), B = run_reduce(c);
    RC_ASSERT(A.shape() == B.shape());
    for (int i = 0; i < c.size; ++i) {
      RC_ASSERT(bits_at(A, i) == bits_at(B, i));
      RC_ASSERT(A.annex->at(i).radius == B.annex->at(i).radius);
      RC_ASSERT(A.annex->at(i).hi == B.annex->at(i).hi);
    }
  });
}

TEST_CASE("[ReduceSum.prop.keepdims] [ReduceMean.prop.keepdims] keepdims 1 and 0 give the same elements in the same order", "[reducesum][props]") {
  check("the two keepdims", [] {
    const Case c = *a_case(*gen::index(0, 2) == 1);
    const Tensor A = run_reduce(c, 0), B = run_reduce(c, 1);
    RC_ASSERT(B.shape() == (Shape{c.size, 1}));
    for (int i = 0; i < c.size; ++i) RC_ASSERT(bits_at(A, i) == bits_at(B, i));
  });
}

TEST_CASE("[Sum.prop.unary] [Mean.prop.unary] one input is the input (NaNs as NaNs)", "[sum][props]") {
  check("Sum and Mean of one tensor of any float type", [] {
    const DType t = *gen::one_of(std::vector<DType>{DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Tensor X = *gen::tensor(t, *gen::shape());
    for (bool mean : {false, true}) {
      const Tensor Y = mean ? ops::mean(13, {&X}) : ops::sum(13, {&X});
      for (std::int64_t k = 0; k < X.size(); ++k) {
        const double x = exact::decode(t, bits_at(X, k)), y = exact::decode(t, bits_at(Y, k));
        if (std::isnan(x)) RC_ASSERT(std::isnan(y));
        else RC_ASSERT(bits_at(X, k) == bits_at(Y, k));
      }
    }
  });
}

TEST_CASE("[ReduceMean.prop.sum] ReduceMean's centre is ReduceSum's divided by n, within one binary64 rounding", "[reducemean][props]") {
  check("the same X and axes", [] {
    Case c = *a_case(false);
    const Tensor S = run_reduce(c);
    c.mean = true;
    const Tensor M = run_reduce(c);
    for (int i = 0; i < c.size; ++i) {
      const double s = S.annex->at(i).hi, m = M.annex->at(i).hi;
      RC_ASSERT(std::fabs(m - s / c.n) <= std::fabs(s / c.n) * 0x1p-52 + (c.t == DType::Double ? std::fabs(M.annex->at(i).lo) + 0x1p-1070 : 0.0));
    }
  });
}

}  // namespace sonnx::props::sum_props
