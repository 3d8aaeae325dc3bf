// spec/ops/tanh.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = tanh X[i] ([Tanh.float.formula]); the ideal enclosed by the oracle's tanh
// ([Elem.oracle.tanh]); the bound B = κ·|tanh x| + α of [Tanh.bound]; the edges of [Tanh.edge].
// ops/unary.hpp walks X with it and decides one element with it.
#include "ops/tanh.hpp"

#include <algorithm>
#include <limits>

#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> tanh_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Tanh.v1] [Tanh.v6]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Tanh.v13]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct TanhDef {
  static constexpr elementary::Fn fn = elementary::Fn::Tanh;
  static constexpr const char* name = "tanh";
  static constexpr const char* formula = "Tanh.float.formula";
  static constexpr const char* bound_clause = "Tanh.bound";
  static constexpr const char* edge_clause = "Tanh.edge";
  static constexpr const char* overflow_clause = "Tanh.overflow";
  static constexpr double rho = elementary::kTanhRel;
  static double oracle(double x) { return elementary::tanh_o(x); }
  static elementary::Pair mp(double x) { return elementary::tanh_mp(x); }
  // [Tanh.bound] |r − tanh x| <= κ·|tanh x| + α (Y >= |tanh x|)
  static double bound(const UnaryConsts& k, double, double Y) { return k.p.kappa * Y + k.p.alpha; }
  // [Tanh.edge] NaN: a NaN; ±Inf: ±1; ±0: ±0
  static std::optional<UnaryEdge> edge(const UnaryConsts&, double x) {
    if (x != x) return UnaryEdge{x, accuracy::kNan, 0};
    if (x == kInf || x == -kInf) return UnaryEdge{x > 0 ? 1.0 : -1.0, accuracy::kFinite, 0};
    if (x == 0) return UnaryEdge{x, accuracy::kFinite, 0};
    return std::nullopt;
  }
  // [Tanh.overflow] |tanh x| <= 1: never
  static std::uint8_t overflow(const UnaryConsts&, double, double) { return 0; }
  static std::vector<Situation> situations(const UnaryConsts& k, double x, const accuracy::Element& e) {
    if (x != x) return {{edge_clause, "NaN"}};
    if (x == kInf || x == -kInf) return {{edge_clause, "±Inf: ±1"}};
    if (x == 0) return {{edge_clause, "±0"}};
    std::vector<Situation> out = {{formula, ""}};
    if (std::fabs(e.hi) > 1 - k.f.u) out.push_back({formula, "saturation: tanh x rounds to ±1"});
    if (std::fabs(x) < k.f.lambda) out.push_back({formula, "a subnormal x"});
    return out;
  }
  static std::vector<std::pair<Situation, double>> witnesses(DType t) {
    const double sub = accuracy::format_of(t).eta_bar;
    return {{{formula, ""}, 0.5},
            {{formula, "saturation: tanh x rounds to ±1"}, t == DType::Double ? 20.0 : 10.0},
            {{formula, "a subnormal x"}, sub},
            {{edge_clause, "NaN"}, std::numeric_limits<double>::quiet_NaN()},
            {{edge_clause, "±Inf: ±1"}, -kInf},
            {{edge_clause, "±0"}, -0.0}};
  }
};

void check_type(int version, const Tensor& X) {
  const auto allowed = tanh_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Tanh.err.dtype]
    refuse("Tanh.err.dtype", "Tanh-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

}  // namespace

Tensor tanh_op(int version, const Tensor& X) {
  check_type(version, X);
  return unary_evaluate<TanhDef>(X, "Tanh output Y");  // [Tanh.shape] Y has X's shape
}

Decision decide_tanh(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  check_type(version, *v.inputs[0]);
  return unary_decide<TanhDef>(v, i);
}

std::vector<Reach> reach_tanh(int, const NodeValues& v, const std::vector<Source>& sources) {
  return unary_reach<TanhDef>(v, sources);
}

}  // namespace sonnx::ops
