// spec/common/elementary.md — what the operators that compute a function share: the decision of one
// element and the constants of one evaluation (ops/unary.hpp holds the element-wise walk).
#include "ops/unary.hpp"

#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

UnaryConsts unary_consts(DType t, elementary::Fn fn) {
  UnaryConsts k;
  k.t = t;
  k.f = accuracy::format_of(t);
  k.p = elementary::perturbation(fn, t);
  return k;
}

std::uint64_t unary_bits(DType t, double x) {
  accuracy::Element e;
  e.hi = x;
  e.allowed = std::isnan(x) ? accuracy::kNan : accuracy::kFinite;  // [Acc.run] a NaN: the canonical quiet NaN of T
  return accuracy::run_bits(t, e);
}

Decision function_decision(const NodeValues& v, const std::vector<std::int64_t>& index, const std::vector<Member>& members,
                           const accuracy::Element& e, std::uint64_t bits, const std::string& formula,
                           const std::string& parameters, std::vector<std::string> clauses, const std::string& hypothesis) {
  Decision d;
  d.parameters = parameters;
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(index, row_major_strides(Y.shape()));
  d.set.name = fmt::format("the {} element{} {} reads", members.size(), members.size() == 1 ? "" : "s", output_name(v, index));
  d.set.size = static_cast<std::int64_t>(members.size());
  d.set.member = [members](std::int64_t k) { return members[static_cast<std::size_t>(k)]; };
  clauses.push_back("Elem.verdict");
  d.clauses = std::move(clauses);
  const std::string y = output_name(v, index);
  if (!(e.allowed & accuracy::kFinite))
    d.reason = fmt::format("{} = {}: {} ({}): only {} conforms", y, element_text(Y, offset), formula, hypothesis,
                           e.allowed == accuracy::kNan ? "a NaN" : "that infinity");
  else
    d.reason = fmt::format("{} = {}: {}; ideal {} (oracle's error {:.3g}); {}: B = {:.6g}, R = {:.6g}{}", y,
                           element_text(Y, offset), formula, fmt::format("{:.17g}", e.hi + e.lo), e.oracle, hypothesis, e.bound, e.radius,
                           (e.allowed & (accuracy::kPosInf | accuracy::kNegInf)) ? "; an evaluation may overflow to an infinity"
                                                                                 : "");
  d.stop = "a computed value depends on every element its formula reads: the chain stops here";
  d.situations.push_back({d.clauses.front(), ""});
  // [Elem.run] the evaluation wrote the value the definition derives, and its annex the same enclosure
  if (element_bits(Y, offset) != bits) disagree(v, index);
  if (Y.annex) {
    const accuracy::Element a = Y.annex->at(offset);
    if (std::bit_cast<std::uint64_t>(a.hi) != std::bit_cast<std::uint64_t>(e.hi) ||
        std::bit_cast<std::uint64_t>(a.lo) != std::bit_cast<std::uint64_t>(e.lo) || a.radius != e.radius ||
        a.allowed != e.allowed)
      disagree(v, index);
  }
  Computation c;
  c.formula = formula;
  c.terms = static_cast<std::int64_t>(members.size());
  c.term = [members](std::int64_t k) { return Term{{members[static_cast<std::size_t>(k)]}, {}}; };
  c.element = e;
  c.sums.n = c.terms;
  c.function = hypothesis;
  d.computed = std::move(c);
  return d;
}

std::vector<Reach> unary_reaches(DType t, const std::vector<std::pair<Situation, double>>& given, Source source,
                                 const std::string& name) {
  std::vector<Reach> out;
  for (const auto& [situation, x] : given) out.push_back(reach_by_given(situation, {bits_in(t, x)}, 1, {source}, {name}));
  return out;
}

}  // namespace sonnx::ops

namespace sonnx::ops {

std::string unary_hypothesis(const UnaryConsts& k, elementary::Fn fn) {
  return fmt::format("K_{} = {} ({}): κ = {:.3g}, α = {:.3g}", elementary::fn_name(fn), fmt::format("{:g}", elementary::ulps(fn, k.t)),
                     elementary::ulps_text(k.t), k.p.kappa, k.p.alpha);
}

}  // namespace sonnx::ops
