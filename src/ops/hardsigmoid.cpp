// spec/ops/hardsigmoid.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = max(0, min(1, α·X[i] + β)) ([HardSigmoid.float.formula]): the inner sum
// has the two terms α·x and β of [Acc.terms], accumulated and enclosed by the accuracy model
// ([Acc.oracle]); the clamp is monotonic and 1-Lipschitz, so it keeps the radius ([HardSigmoid.bound])
// and maps the centre; `run` writes the clamped fl_T of the centre ([Acc.run]). One element at a time,
// for evaluation and for `decide`.
#include "ops/hardsigmoid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/accuracy.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"
#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> hardsigmoid_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [HardSigmoid.v1] [HardSigmoid.v6]
  if (version >= 22) t.push_back(DType::BFloat16);                       // [HardSigmoid.v22]
  return t;
}

namespace {

void check_type(int version, const Tensor& X) {
  const auto allowed = hardsigmoid_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [HardSigmoid.err.dtype]
    refuse("HardSigmoid.err.dtype", "HardSigmoid-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
}

// Whether the float attribute a is a value of T (float and double hold every float).
bool in_type(DType t, double a) {
  if (!std::isfinite(a)) return true;
  if (t == DType::Float16) return exact_float16(a).has_value();
  if (t == DType::BFloat16) return exact_bfloat16(a).has_value();
  return true;
}

// The inner sum α·x + β and what the accuracy model says of it ([HardSigmoid.float.formula]).
struct Inner {
  accuracy::Sums sums;
  accuracy::Element e;
};
Inner inner(DType t, const HardSigmoidParams& p, double x) {
  const double a = p.alpha, b = p.beta;
  accuracy::Accumulator acc(t);
  acc.add_product(a, x);  // [HardSigmoid.float.formula] the term α·x: two factors, α converted to T when it is not a value of T
  acc.add_value(b);       // the term β: one factor, converted when it is not a value of T
  const bool a_conv = !in_type(t, a), b_conv = !in_type(t, b);
  const double M = std::max({1.0, std::fabs(a), std::isfinite(x) ? std::fabs(x) : 0.0});
  const double converted = std::max(a_conv ? std::fabs(a) : 0.0, b_conv ? std::fabs(b) : 0.0);
  Inner r;
  r.sums = acc.result(1, 1 + (a_conv ? 1 : 0), M, 1, b_conv ? 1 : 0, 0, std::max(1.0, std::fabs(b)), converted);
  // [Acc.overflow] P: α·x has two factors, its e = 2 (α converted) is no three-factor term, whose partial
  // product (1 + v)·M² count_terms assumes for e >= 2; only the converted attribute, (1 + v)·|x|, enters P
  r.sums.partial = (1 + accuracy::format_of(t).v) * converted;
  r.e = accuracy::enclose(t, r.sums);
  return r;
}

// [HardSigmoid.bound] [HardSigmoid.edge] The clamp applied to an enclosure: the centre clamped, the radius
// kept; an infinite centre (an infinite x, or an overflow the model allows) clamps to 1 or 0 exactly; a
// NaN stays a NaN.
accuracy::Element clamp(const accuracy::Element& in) {
  accuracy::Element e = in;
  const bool finite_allowed = in.allowed & accuracy::kFinite;
  const double c = in.hi + in.lo;
  if (!finite_allowed && !(in.allowed & (accuracy::kPosInf | accuracy::kNegInf))) return e;  // only a NaN
  if (!finite_allowed || !std::isfinite(c)) {  // an infinity: max(0, min(1, ±Inf)) = 1 or 0, exactly
    const bool up = (in.allowed & accuracy::kPosInf) || c > 0;
    e.hi = up ? 1.0 : 0.0, e.lo = 0, e.radius = e.bound = e.oracle = 0;
    e.allowed = accuracy::kFinite | (in.allowed & accuracy::kNan);
    return e;
  }
  // an evaluation that overflowed gives ±Inf before the clamp, 1 or 0 after: within the radius of the
  // clamped centre when the centre is near 1 or 0, and allowed as such
  if (c <= 0) e.hi = 0, e.lo = 0;
  else if (c >= 1) e.hi = 1, e.lo = 0;
  e.allowed = accuracy::kFinite | (in.allowed & accuracy::kNan);
  if (in.allowed & (accuracy::kPosInf | accuracy::kNegInf)) e.radius = e.bound = std::max(e.radius, 1.0);
  return e;
}

accuracy::Element element(DType t, const HardSigmoidParams& p, double x) { return clamp(inner(t, p, x).e); }

}  // namespace

Tensor hardsigmoid(int version, const Tensor& X, const HardSigmoidParams& p) {
  check_type(version, X);
  Tensor Y(X.dtype(), X.shape(), "HardSigmoid output Y", Fill::Unspecified);  // [HardSigmoid.shape]
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = "HardSigmoid.float.formula";
  annex->resize(static_cast<std::size_t>(Y.size()));
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      for (std::int64_t k = 0, n = X.size(); k < n; ++k) {
        const accuracy::Element e = element(X.dtype(), p, real_value(x[k]));
        store_element(*annex, y, static_cast<std::size_t>(k), e, accuracy::run_bits(X.dtype(), e));  // [Acc.run]
      }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_hardsigmoid(int version, const NodeValues& v, const HardSigmoidParams& p, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  check_type(version, X);
  const DType t = X.dtype();
  const std::int64_t offset = offset_of(i, row_major_strides(X.shape()));
  const double x = member_real(v, Member{0, offset});
  const Inner in = inner(t, p, x);
  Computation c;
  c.formula = fmt::format("max(0, min(1, alpha·{} + beta))", element_name(v.input_names[0], i));
  const std::vector<Term> terms = {Term{{Member{0, offset}}, {{"alpha", p.alpha}}}, Term{{}, {{"beta", p.beta}}}};
  c.terms = 2;
  c.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  c.sums = in.sums;
  c.element = clamp(in.e);
  const std::vector<TermFactors> values = {{p.alpha, x}, {p.beta}};
  const std::string parameters = fmt::format("alpha = {}, beta = {}", p.alpha, p.beta);
  const double centre = in.e.hi + in.e.lo;
  std::vector<std::string> more = {"HardSigmoid.bound"};
  if (!std::isfinite(x)) more.insert(more.begin(), "HardSigmoid.edge");
  Decision d = computed_decision(v, i, std::move(c), parameters, "HardSigmoid.float.formula", more, values);
  if (centre <= 0 && std::isfinite(centre)) d.situations.push_back({"HardSigmoid.float.formula", "alpha·x + beta <= 0: the result 0"});
  if (centre >= 1 && std::isfinite(centre)) d.situations.push_back({"HardSigmoid.float.formula", "alpha·x + beta >= 1: the result 1"});
  return d;
}

std::vector<Reach> reach_hardsigmoid(int, const NodeValues& v, const HardSigmoidParams& p, const std::vector<Source>& sources) {
  const DType t = v.inputs[0]->dtype();
  std::vector<std::pair<Situation, double>> given;
  if (p.alpha != 0) {  // x with α·x + β well below 0 and well above 1
    const double lo = std::ldexp(1.0, std::ilogb(std::fabs((p.beta + 1) / p.alpha)) + 2);
    given.push_back({{"HardSigmoid.float.formula", "alpha·x + beta <= 0: the result 0"}, p.alpha > 0 ? -lo : lo});
    given.push_back({{"HardSigmoid.float.formula", "alpha·x + beta >= 1: the result 1"}, p.alpha > 0 ? lo : -lo});
  }
  given.push_back({{"Acc.nonfinite", "a NaN factor"}, std::numeric_limits<double>::quiet_NaN()});
  return unary_reaches(t, given, sources[0], v.input_names[0]);
}

}  // namespace sonnx::ops
