// spec/ops/exp.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = e^X[i] ([Exp.float.formula]); the ideal enclosed by the oracle's exp
// ([Elem.oracle.exp]); the bound B = κ·|y| + α of [Exp.bound] (the hypothesis of [Elem.hyp] itself);
// the edges of [Exp.edge] and the overflow of [Exp.overflow]. ops/unary.hpp walks X with it and
// decides one element with it.
#include "ops/exp.hpp"

#include <algorithm>
#include <limits>

#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> exp_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Exp.v1] [Exp.v6]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Exp.v13]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct ExpDef {
  static constexpr elementary::Fn fn = elementary::Fn::Exp;
  static constexpr const char* name = "exp";
  static constexpr const char* formula = "Exp.float.formula";
  static constexpr const char* bound_clause = "Exp.bound";
  static constexpr const char* edge_clause = "Exp.edge";
  static constexpr const char* overflow_clause = "Exp.overflow";
  static constexpr double rho = elementary::kExpRel;
  static double oracle(double x) { return elementary::exp_o(x); }
  static elementary::Pair mp(double x) { return elementary::exp_mp(x); }
  // [Exp.bound] |r − e^x| <= κ·e^x + α (Y >= e^x)
  static double bound(const UnaryConsts& k, double, double Y) { return k.p.kappa * Y + k.p.alpha; }
  // [Exp.edge] NaN, +Inf and −Inf: exactly IEEE's results
  static std::optional<UnaryEdge> edge(const UnaryConsts&, double x) {
    if (x != x) return UnaryEdge{x, accuracy::kNan, 0};
    if (x == kInf) return UnaryEdge{kInf, accuracy::kPosInf, 0};
    if (x == -kInf) return UnaryEdge{0.0, accuracy::kFinite, 0};
    return std::nullopt;
  }
  // [Exp.overflow] e^x·(1 + κ) + α >= Ω_T: an implementation may return +Inf
  static std::uint8_t overflow(const UnaryConsts& k, double, double Y) {
    return (Y * (1 + k.p.kappa) + k.p.alpha) * accuracy::kInflate >= k.f.omega ? accuracy::kPosInf : 0;
  }
  static std::vector<Situation> situations(const UnaryConsts& k, double x, const accuracy::Element& e) {
    if (x != x) return {{edge_clause, "NaN"}};
    if (x == kInf) return {{edge_clause, "+Inf"}};
    if (x == -kInf) return {{edge_clause, "-Inf"}};
    std::vector<Situation> out = {{formula, ""}};
    if (x == 0) out.push_back({formula, "x = ±0: e^0 = 1"});
    if (e.allowed & accuracy::kPosInf) out.push_back({overflow_clause, ""});
    if (std::fabs(e.hi) < k.f.lambda) out.push_back({bound_clause, "a result below λ_T (α decides)"});
    return out;
  }
  // the values of X that reach them, in T
  static std::vector<std::pair<Situation, double>> witnesses(DType t) {
    const double over = t == DType::Float16 ? 11.125 : t == DType::Double ? 710.0 : 89.0;
    const double under = t == DType::Float16 ? -12.0 : t == DType::Double ? -720.0 : -90.0;
    return {{{formula, ""}, 1.0},           {{formula, "x = ±0: e^0 = 1"}, -0.0}, {{overflow_clause, ""}, over},
            {{bound_clause, "a result below λ_T (α decides)"}, under}, {{edge_clause, "NaN"}, std::numeric_limits<double>::quiet_NaN()},
            {{edge_clause, "+Inf"}, kInf},  {{edge_clause, "-Inf"}, -kInf}};
  }
};

void check_type(int version, const Tensor& X) {
  const auto allowed = exp_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Exp.err.dtype]
    refuse("Exp.err.dtype", "Exp-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

}  // namespace

Tensor exp_op(int version, const Tensor& X) {
  check_type(version, X);
  return unary_evaluate<ExpDef>(X, "Exp output Y");  // [Exp.shape] Y has X's shape
}

Decision decide_exp(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  check_type(version, *v.inputs[0]);
  return unary_decide<ExpDef>(v, i);
}

std::vector<Reach> reach_exp(int, const NodeValues& v, const std::vector<Source>& sources) {
  return unary_reach<ExpDef>(v, sources);
}

}  // namespace sonnx::ops
