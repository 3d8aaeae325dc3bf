// spec/ops/log.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = ln X[i] ([Log.float.formula]); the ideal enclosed by the oracle's log
// ([Elem.oracle.log]); the bound B = κ·|ln x| + α of [Log.bound]; the edges of [Log.edge]. ops/unary.hpp
// walks X with it and decides one element with it.
#include "ops/log.hpp"

#include <algorithm>
#include <limits>

#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> log_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Log.v1] [Log.v6]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Log.v13]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct LogDef {
  static constexpr elementary::Fn fn = elementary::Fn::Log;
  static constexpr const char* name = "ln";
  static constexpr const char* formula = "Log.float.formula";
  static constexpr const char* bound_clause = "Log.bound";
  static constexpr const char* edge_clause = "Log.edge";
  static constexpr const char* overflow_clause = "Log.overflow";
  static constexpr double rho = elementary::kLogRel;
  static double oracle(double x) { return elementary::log_o(x); }
  static elementary::Pair mp(double x) { return elementary::log_mp(x); }
  // [Log.bound] |r − ln x| <= κ·|ln x| + α (Y >= |ln x|)
  static double bound(const UnaryConsts& k, double, double Y) { return k.p.kappa * Y + k.p.alpha; }
  // [Log.edge] NaN and x < 0: a NaN; ±0: −Inf; +Inf: +Inf
  static std::optional<UnaryEdge> edge(const UnaryConsts&, double x) {
    if (x != x || x < 0) return UnaryEdge{kNaN, accuracy::kNan, 0};
    if (x == 0) return UnaryEdge{-kInf, accuracy::kNegInf, 0};
    if (x == kInf) return UnaryEdge{kInf, accuracy::kPosInf, 0};
    return std::nullopt;
  }
  // [Log.overflow] |ln x| <= 745: never
  static std::uint8_t overflow(const UnaryConsts&, double, double) { return 0; }
  static std::vector<Situation> situations(const UnaryConsts& k, double x, const accuracy::Element& e) {
    if (x != x) return {{edge_clause, "NaN"}};
    if (x < 0) return {{edge_clause, "x < 0: a NaN"}};
    if (x == 0) return {{edge_clause, "±0: -Inf"}};
    if (x == kInf) return {{edge_clause, "+Inf"}};
    std::vector<Situation> out = {{formula, ""}};
    if (x == 1) out.push_back({formula, "x = 1: ln 1 = 0"});
    if (x < k.f.lambda) out.push_back({formula, "a subnormal x"});
    (void)e;
    return out;
  }
  static std::vector<std::pair<Situation, double>> witnesses(DType t) {
    const double sub = accuracy::format_of(t).eta_bar;  // the least subnormal of T
    return {{{formula, ""}, 2.0},          {{formula, "x = 1: ln 1 = 0"}, 1.0}, {{formula, "a subnormal x"}, sub},
            {{edge_clause, "NaN"}, kNaN},  {{edge_clause, "x < 0: a NaN"}, -1.0}, {{edge_clause, "±0: -Inf"}, -0.0},
            {{edge_clause, "+Inf"}, kInf}};
  }
};

void check_type(int version, const Tensor& X) {
  const auto allowed = log_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Log.err.dtype]
    refuse("Log.err.dtype", "Log-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

}  // namespace

Tensor log_op(int version, const Tensor& X) {
  check_type(version, X);
  return unary_evaluate<LogDef>(X, "Log output Y");  // [Log.shape] Y has X's shape
}

Decision decide_log(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  check_type(version, *v.inputs[0]);
  return unary_decide<LogDef>(v, i);
}

std::vector<Reach> reach_log(int, const NodeValues& v, const std::vector<Source>& sources) {
  return unary_reach<LogDef>(v, sources);
}

}  // namespace sonnx::ops
