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

void FinishBlock::resize(DType t, std::size_t n) {
  hi.resize(n), oracle.resize(n), bound.resize(n), radius.resize(n), allowed.resize(n), undecided.resize(n), bits.resize(n);
  if (t == DType::Double) lo.assign(n, 0.0);
  else lo.clear();
}

accuracy::Element FinishBlock::element(std::size_t q) const {
  accuracy::Element e;
  e.hi = hi[q], e.lo = lo.empty() ? 0.0 : lo[q];
  e.oracle = oracle[q], e.bound = bound[q], e.radius = radius[q], e.allowed = allowed[q];
  return e;
}

namespace {

// [Acc.verdict] R = (B̂ + e_o)·(1 + 2^-44) + 2^-1072.
void radii(const double* __restrict B, const double* __restrict eo, double* __restrict R, std::size_t n) {
  for (std::size_t q = 0; q < n; ++q) R[q] = (B[q] + eo[q]) * accuracy::kInflate + accuracy::kTiny;
}

// [Elem.run] rounding_decided_float for n elements: the ends, then their roundings (two loops, each
// vectorises); y the bits, u not 0 where undecided; whether one is.
bool decide_float(const double* __restrict c, const double* __restrict eo, std::uint64_t* __restrict y,
                  std::uint64_t* __restrict u, std::size_t n) {
  for (std::size_t q = 0; q < n; ++q) {
    y[q] = std::bit_cast<std::uint64_t>(elementary::next_down(c[q] - eo[q]));
    u[q] = std::bit_cast<std::uint64_t>(elementary::next_up(c[q] + eo[q]));
  }
  std::uint64_t some = 0;
  for (std::size_t q = 0; q < n; ++q) {
    const std::uint32_t a = std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(y[q])));
    const std::uint32_t b = std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(u[q])));
    y[q] = a, u[q] = a ^ b, some |= a ^ b;
  }
  return some != 0;
}

}  // namespace

bool FinishBlock::decide(DType t, std::size_t count) {
  bool any = false;
  at_active_level([&] {
    radii(bound.data(), oracle.data(), radius.data(), count);
    if (t == DType::Float) any = decide_float(hi.data(), oracle.data(), bits.data(), undecided.data(), count);
  });
  if (t == DType::Double) {  // [Elem.oracle.mpfr] the centre itself is MPFR's
    std::fill_n(undecided.data(), count, std::uint64_t{1});
    return count > 0;
  }
  if (t != DType::Float)
    for (std::size_t q = 0; q < count; ++q) {
      const bool decided = elementary::rounding_decided(t, hi[q], oracle[q], &bits[q]);
      undecided[q] = !decided, any |= !decided;
    }
  return any;
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
  c.function = hypothesis + " [Elem.hyp]";  // explain cites the hypothesis with its clause
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
