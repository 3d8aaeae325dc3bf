// spec/ops/sigmoid.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = 1/(1 + e^(−X[i])) ([Sigmoid.float.formula]); the ideal enclosed by the
// oracle's sigmoid ([Elem.oracle.sigmoid]); the bound of [Sigmoid.bound], composed from exp's K and the
// roundings of the two forms [Sigmoid.hyp] allows; the edges of [Sigmoid.edge]. ops/unary.hpp walks X
// with it and decides one element with it.
#include "ops/sigmoid.hpp"

#include <algorithm>
#include <limits>

#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> sigmoid_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Sigmoid.v1] [Sigmoid.v6]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Sigmoid.v13]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct SigmoidDef {
  static constexpr elementary::Fn fn = elementary::Fn::Exp;  // [Sigmoid.hyp] the implementation's exp
  static constexpr const char* name = "sigmoid";
  static constexpr const char* formula = "Sigmoid.float.formula";
  static constexpr const char* bound_clause = "Sigmoid.bound";
  static constexpr const char* edge_clause = "Sigmoid.edge";
  static constexpr const char* overflow_clause = "Sigmoid.overflow";
  static constexpr double rho = elementary::kSigmoidRel;
  static double oracle(double x) { return elementary::sigmoid_o(x); }
  static elementary::Pair mp(double x) { return elementary::sigmoid_mp(x); }
  // [Sigmoid.bound] B = y·(φ + κ(1 + φ)/c²) + α(1 + φ)/c² + η_T/2, φ = (1 + v)²/(1 − v) − 1, c = 1 − κ − α;
  // [Sigmoid.overflow] and B >= y where e^(−x) may overflow (the result 0 conforms)
  static double bound(const UnaryConsts& k, double x, double Y) {
    const double v = k.f.v;
    // (1 + v)²/(1 − v) − 1 = (3v + v²)/(1 − v): for double, 1 + v is not a binary64 number (v = 2^-53 + ...)
    // and the first form rounded φ from 3u to 5u, a B̂ 27% above [Sigmoid.bound]'s
    const double phi = (3 * v + v * v) / (1 - v);
    const double c = 1 - k.p.kappa - k.p.alpha;
    const double q = (1 + phi) / (c * c);
    double B = Y * (phi + k.p.kappa * q) + k.p.alpha * q + k.f.eta_bar / 2;
    if (may_overflow(k, x)) B = std::max(B, Y);
    return B;
  }
  static bool may_overflow(const UnaryConsts& k, double x) {
    const double E = elementary::exp_o(-x) * (1 + 0x1p-45);  // >= e^(−x) ([Elem.oracle.exp])
    return (E * (1 + k.p.kappa) + k.p.alpha + 1) * accuracy::kInflate >= k.f.omega;
  }
  // [Sigmoid.edge] NaN: a NaN; +Inf: 1; −Inf: 0
  static std::optional<UnaryEdge> edge(const UnaryConsts&, double x) {
    if (x != x) return UnaryEdge{x, accuracy::kNan, 0};
    if (x == kInf) return UnaryEdge{1.0, accuracy::kFinite, 0};
    if (x == -kInf) return UnaryEdge{0.0, accuracy::kFinite, 0};
    return std::nullopt;
  }
  // 0 <= y <= 1: no infinity ([Sigmoid.overflow] widens B instead)
  static std::uint8_t overflow(const UnaryConsts&, double, double) { return 0; }
  static std::vector<Situation> situations(const UnaryConsts& k, double x, const accuracy::Element& e) {
    if (x != x) return {{edge_clause, "NaN"}};
    if (x == kInf) return {{edge_clause, "+Inf: 1"}};
    if (x == -kInf) return {{edge_clause, "-Inf: 0"}};
    std::vector<Situation> out = {{formula, ""}};
    if (x < 0) out.push_back({formula, "x < 0: a result below 1/2"});
    if (may_overflow(k, x)) out.push_back({overflow_clause, ""});
    else if (e.hi < k.f.lambda) out.push_back({bound_clause, "a result below λ_T"});
    if (e.hi > 1 - k.f.u) out.push_back({formula, "saturation: the result rounds to 1"});
    return out;
  }
  static std::vector<std::pair<Situation, double>> witnesses(DType t) {
    const double over = t == DType::Float16 ? -12.0 : t == DType::Double ? -720.0 : -90.0;
    const double sub = t == DType::Float16 ? -10.5 : t == DType::Double ? -708.5 : -87.5;
    return {{{formula, ""}, 0.5},
            {{formula, "x < 0: a result below 1/2"}, -2.0},
            {{overflow_clause, ""}, over},
            {{bound_clause, "a result below λ_T"}, sub},
            {{formula, "saturation: the result rounds to 1"}, t == DType::Double ? 40.0 : 20.0},
            {{edge_clause, "NaN"}, std::numeric_limits<double>::quiet_NaN()},
            {{edge_clause, "+Inf: 1"}, kInf},
            {{edge_clause, "-Inf: 0"}, -kInf}};
  }
};

void check_type(int version, const Tensor& X) {
  const auto allowed = sigmoid_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Sigmoid.err.dtype]
    refuse("Sigmoid.err.dtype", "Sigmoid-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

}  // namespace

Tensor sigmoid_op(int version, const Tensor& X) {
  check_type(version, X);
  return unary_evaluate<SigmoidDef>(X, "Sigmoid output Y");  // [Sigmoid.shape] Y has X's shape
}

Decision decide_sigmoid(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  check_type(version, *v.inputs[0]);
  return unary_decide<SigmoidDef>(v, i);
}

std::vector<Reach> reach_sigmoid(int, const NodeValues& v, const std::vector<Source>& sources) {
  return unary_reach<SigmoidDef>(v, sources);
}

}  // namespace sonnx::ops
