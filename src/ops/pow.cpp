// spec/ops/pow.md — read this file side by side with its sections.
//
// The definition, once: over the binary map of Add, Sub, Mul and Div (ops/arith.hpp's binary_map), the
// pair (x, y) = (Ẋ[i], Ė[i]) with y's exact value ([Pow.exponent]); for a float base the ideal x^y
// ([Pow.float.formula]) or the value of the special table ([Pow.special]), enclosed by the oracle of
// [Pow.oracle], within the bound of [Pow.bound] (ops/unary.hpp finishes each element as it does Exp's);
// for an integer base the truncated exact power ([Pow.int.formula]) or a refusal ([Pow.err.int-value]).
#include "ops/pow.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/computed.hpp"
#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> pow_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Pow.v1] [Pow.v7]
  if (version >= 12) t.insert(t.end(), {DType::Int32, DType::Int64});   // [Pow.v12]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Pow.v13]
  return t;
}

std::vector<DType> pow_exponent_types(int version, DType base) {
  if (version < 12) return {base};  // [Pow.v1] [Pow.v7] E is of X's type
  // [Pow.v12] T1: the integers and float16, float, double
  std::vector<DType> t = {DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64, DType::Int8, DType::Int16,
                          DType::Int32, DType::Int64, DType::Float16, DType::Float, DType::Double};
  if (version >= 15) t.push_back(DType::BFloat16);  // [Pow.v15]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

const BinaryClauses kMap{"Pow", "Pow.err.broadcast", "Pow.err.legacy"};  // [Pow.err.broadcast] [Pow.err.legacy]

// [Pow.exponent] y's exact value: a float of T1 as it is, an integer of T1 as that integer (kept exactly
// beyond 2^53, where its binary64 value y is rounded), and whether it is an (odd) integer.
struct Exponent {
  double y = 0;
  bool integral = false, odd = false;
  enum Kind { Real, Signed, Unsigned } kind = Real;
  std::int64_t si = 0;
  std::uint64_t ui = 0;
};
template <class U> Exponent exponent_of(U v) {
  Exponent e;
  if constexpr (is_float_v<U>) {
    e.y = real_value(v);
    e.integral = std::isfinite(e.y) && e.y == std::trunc(e.y);
    e.odd = e.integral && std::fabs(e.y) < 0x1p53 && std::fmod(e.y, 2.0) != 0;  // beyond 2^53 every double is even
  } else if constexpr (std::is_signed_v<U>) {
    e.kind = Exponent::Signed, e.si = static_cast<std::int64_t>(v), e.y = static_cast<double>(v);
    e.integral = true, e.odd = (e.si & 1) != 0;
  } else {
    e.kind = Exponent::Unsigned, e.ui = static_cast<std::uint64_t>(v), e.y = static_cast<double>(v);
    e.integral = true, e.odd = (e.ui & 1) != 0;
  }
  return e;
}
Exponent exponent_at(const Tensor& E, std::int64_t offset) {
  return dispatch(E.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    if constexpr (is_bool_v<U>) return Exponent{};
    else return exponent_of(E.values<U>()[static_cast<std::size_t>(offset)]);
  });
}
std::string exponent_text(const Exponent& e) {
  if (e.kind == Exponent::Signed) return std::to_string(e.si);
  if (e.kind == Exponent::Unsigned) return std::to_string(e.ui);
  return fmt::format("{:.17g}", e.y);
}

// The argument of the function: the pair (x, y), and t̂ = fl(ŷ·log_o|x|) of [Pow.oracle], computed once for
// the oracle's value and its ρ(t̂).
struct PowArg {
  double x = 0;
  Exponent e;
  double t = 0;
};
PowArg pow_arg(double x, const Exponent& e) { return {x, e, e.y * elementary::log_o(std::fabs(x))}; }

// [Pow.special] The table, row by row in its order: the value where a row applies.
std::optional<double> special(double x, const Exponent& e) {
  const double y = e.y;
  if (y == 0) return 1.0;        // x^±0 = 1, x a NaN included
  if (x == 1) return 1.0;        // 1^y = 1, y a NaN included
  if (x != x || y != y) return kNan;
  if (std::isinf(y)) {
    if (x == -1) return 1.0;
    return (std::fabs(x) < 1) == (y < 0) ? kInf : 0.0;  // |x| < 1: +Inf / +0; |x| > 1: +0 / +Inf
  }
  if (x == 0) return y < 0 ? std::copysign(kInf, e.odd ? x : 1.0) : (e.odd ? x : 0.0);
  if (x == -kInf) return y < 0 ? (e.odd ? -0.0 : 0.0) : (e.odd ? -kInf : kInf);
  if (x == kInf) return y < 0 ? 0.0 : kInf;
  if (x < 0 && !e.integral) return kNan;
  if (x == -1) return e.odd ? -1.0 : 1.0;
  return std::nullopt;
}

// σ of [Pow.float.formula]: −1 for a negative base and an odd integer exponent.
double sign_of(const PowArg& a) { return a.x < 0 && a.e.odd ? -1.0 : 1.0; }

struct PowDef {
  static constexpr elementary::Fn fn = elementary::Fn::Pow;
  static constexpr const char* name = "pow";
  static constexpr const char* formula = "Pow.float.formula";
  static constexpr const char* bound_clause = "Pow.bound";
  static constexpr const char* edge_clause = "Pow.special";
  static constexpr const char* overflow_clause = "Pow.overflow";
  // [Pow.oracle] ẑ = σ·exp_o(t̂), t̂ = fl(ŷ·log_o|x|) (pow_arg)
  static double oracle(const PowArg& a) { return sign_of(a) * elementary::exp_o(a.t); }
  // [Pow.oracle] ρ(t̂) = (ρ_exp + δ(1 + δ)(1 + ρ_exp))(1 + 2^-50), δ = |t̂|(1 + s)s + 2^-1073, s = 2^-47 + 2^-51
  static double rho_at(const PowArg& a) {
    constexpr double s = 0x1p-47 + 0x1p-51;
    const double delta = std::fabs(a.t) * (1 + s) * s + 0x1p-1073;
    const double d = std::min(delta, 1.0);
    return (elementary::kExpRel + d * (1 + d) * (1 + elementary::kExpRel)) * (1 + 0x1p-50);
  }
  // [Elem.oracle.mpfr] x^y in MPFR, the exponent exact
  static elementary::Pair mp(const PowArg& a) {
    if (a.e.kind == Exponent::Signed) return elementary::pow_mp(a.x, a.e.si);
    if (a.e.kind == Exponent::Unsigned) return elementary::pow_mp(a.x, a.e.ui);
    return elementary::pow_mp(a.x, a.e.y);
  }
  // [Pow.bound] B = κ·|x^y| + α (Y >= |x^y|); [Pow.square] fl(x·x) and fl(fl(x·x)·x) lie within it for K >= 1/2, 2
  static double bound(const UnaryConsts& k, const PowArg&, double Y) { return k.p.kappa * Y + k.p.alpha; }
  // [Pow.special] only the table's value conforms
  static std::optional<UnaryEdge> edge(const UnaryConsts&, const PowArg& a) {
    const std::optional<double> v = special(a.x, a.e);
    if (!v) return std::nullopt;
    if (*v != *v) return UnaryEdge{kNan, accuracy::kNan, 0};
    if (std::isinf(*v)) return UnaryEdge{*v, *v > 0 ? accuracy::kPosInf : accuracy::kNegInf, 0};
    return UnaryEdge{*v, accuracy::kFinite, 0};
  }
  // [Pow.overflow] |x^y|(1 + κ) + α >= Ω_T: the infinity of x^y's sign may be returned
  static std::uint8_t overflow(const UnaryConsts& k, const PowArg& a, double Y) {
    if ((Y * (1 + k.p.kappa) + k.p.alpha) * accuracy::kInflate < k.f.omega) return 0;
    return sign_of(a) < 0 ? accuracy::kNegInf : accuracy::kPosInf;
  }
};

// ---- the integer base: [Pow.int.formula] -----------------------------------------------------------

// The exact truncated x^y, or why it is not a value of T.
struct IntPower {
  bool ok = false;
  __int128 value = 0;
  const char* why = "";
};
IntPower int_power(std::int64_t x, const Exponent& e) {
  const auto value = [](__int128 v) { return IntPower{true, v, ""}; };
  const IntPower nan{false, 0, "x^y is a NaN"}, inf{false, 0, "x^y is an infinity"}, big{false, 0, "x^y is outside the range of T"};
  if (e.y == 0 || x == 1) return value(1);
  if (e.y != e.y) return nan;
  if (std::isinf(e.y)) {
    if (x == -1) return value(1);
    if (e.y > 0) return x == 0 ? value(0) : big;  // |x| >= 2: +Inf
    return x == 0 ? inf : value(0);
  }
  if (e.integral) {
    const bool negative = e.kind == Exponent::Signed ? e.si < 0 : e.y < 0;
    if (x == -1) return value(e.odd ? -1 : 1);
    if (negative) return x == 0 ? inf : value(0);  // |x| >= 2: 1/x^|y| truncated
    if (x == 0) return value(0);
    // |x| >= 2, y >= 1: x^y exact while |x^y| <= 2^64 (y <= 64), by repeated multiplication
    if (e.y > 64) return big;
    const auto n = static_cast<int>(e.y);
    __int128 p = 1;
    for (int q = 0; q < n; ++q) {
      p *= x;
      if (p > (static_cast<__int128>(1) << 64) || p < -(static_cast<__int128>(1) << 64)) return big;
    }
    return value(p);
  }
  if (x < 0) return nan;                     // a negative base, y not an integer
  if (x == 0) return e.y > 0 ? value(0) : inf;
  std::uint64_t t = 0;                       // x > 0: ⌊x^y⌋ by MPFR rounded toward zero
  if (!elementary::trunc_pow_mp(x, e.y, &t)) return big;
  return value(t);
}

// [Pow.err.int-value] x^y a value of T: a NaN, an infinity or an integer outside T is refused.
template <class T> bool fits(const IntPower& p) {
  return p.ok && p.value >= std::numeric_limits<T>::min() && p.value <= std::numeric_limits<T>::max();
}

// ---- the checks -------------------------------------------------------------------------------------

void check_types(int version, const Tensor& X, const Tensor& E) {
  const auto allowed = pow_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Pow.err.dtype]
    refuse("Pow.err.dtype", "Pow-{} does not accept a base X of {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
  const auto exponents = pow_exponent_types(version, X.dtype());
  if (std::find(exponents.begin(), exponents.end(), E.dtype()) == exponents.end())  // [Pow.err.exponent-type]
    refuse("Pow.err.exponent-type", "Pow-{} does not accept an exponent Y of {} with a base of {} (T1 in {{{}}}) [Common.gr.no-conversion]",
           version, name(E.dtype()), name(X.dtype()), join_names(exponents));
}

std::string pair_text(const Tensor& X, const Tensor& E, const BinaryMap& g, std::int64_t zo) {
  const auto idx = index_of(g.shape, zo);
  const std::int64_t xo = offset_of(idx, g.a), eo = offset_of(idx, g.b);
  return fmt::format("Z{}: X{} = {}, Y{} = {}", to_string(idx), to_string(index_of(X.shape(), xo)), element_text(X, xo),
                     to_string(index_of(E.shape(), eo)), element_text(E, eo));
}

// ---- evaluation ---------------------------------------------------------------------------------------

// A float base: for every index i of Z, the pair read through the map, a block at a time: the oracle (not for
// double, which MPFR evaluates) in a loop, then the block finished as Exp's are ([Elem.run], unary_block). Z's
// indices are walked in row-major order, so a block's elements are consecutive in Z.
template <class T, class U>
void evaluate_float(const UnaryConsts& k, const Tensor& X, const Tensor& E, const BinaryMap& g, Tensor& Z, accuracy::Annex& annex) {
  const T* const x0 = X.values<T>().data();
  const U* const e0 = E.values<U>().data();
  T* const z0 = Z.values<T>().data();
  const bool is_double = k.t == DType::Double;
  std::vector<PowArg> args(kFinishBlock);
  double cs[kFinishBlock];
  FinishBlock b;
  b.resize(k.t, kFinishBlock);
  std::size_t count = 0, at = 0;
  const auto finish = [&] {
    if (!is_double) {
      at_active_level([&] {
        for (std::size_t q = 0; q < count; ++q) cs[q] = PowDef::oracle(args[q]);
      });
    } else {
      std::fill(cs, cs + count, 0.0);
    }
    unary_block<PowDef>(k, args.data(), cs, count, b);
    store_block(b, count, annex, z0, at, 1);
    at += count, count = 0;
  };
  for (RunWalker run(g.shape, {g.a, g.b, row_major_strides(g.shape)}); !run.done(); run.next()) {
    for (std::int64_t t = 0; t < run.length(); ++t) {
      args[count++] = pow_arg(real_value(x0[run.offset(0) + t * run.stride(0)]), exponent_of(e0[run.offset(1) + t * run.stride(1)]));
      if (count == kFinishBlock) finish();
    }
  }
  if (count > 0) finish();
}

// An integer base: the exact truncated power, or the refusal naming the first index.
template <class T, class U> void evaluate_int(int version, const Tensor& X, const Tensor& E, const BinaryMap& g, Tensor& Z) {
  const T* const x0 = X.values<T>().data();
  const U* const e0 = E.values<U>().data();
  T* const z0 = Z.values<T>().data();
  for (RunWalker run(g.shape, {g.a, g.b, row_major_strides(g.shape)}); !run.done(); run.next()) {
    for (std::int64_t t = 0; t < run.length(); ++t) {
      const IntPower p = int_power(static_cast<std::int64_t>(x0[run.offset(0) + t * run.stride(0)]),
                                   exponent_of(e0[run.offset(1) + t * run.stride(1)]));
      const std::int64_t zo = run.offset(2) + t;
      if (!fits<T>(p))  // [Pow.err.int-value]
        refuse("Pow.err.int-value", "Pow-{}: the integer base's power at {} is not a value of {}: {}{} [Pow.int.formula]", version,
               pair_text(X, E, g, zo), name(Z.dtype()), p.ok ? "x^y is outside the range of T" : p.why,
               p.ok ? fmt::format(" (x^y = {:.17g})", static_cast<double>(p.value)) : "");
      z0[zo] = static_cast<T>(p.value);
    }
  }
}

template <class F> void dispatch_pair(const Tensor& X, const Tensor& E, F&& f) {
  dispatch(X.dtype(), [&](auto xt) {
    dispatch(E.dtype(), [&](auto et) {
      using T = typename decltype(xt)::type;
      using U = typename decltype(et)::type;
      if constexpr (!is_bool_v<U> && (is_float_v<T> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>)) f(xt, et);
    });
  });
}

}  // namespace

Tensor pow_op(int version, const Tensor& X, const Tensor& E, const LegacyBroadcast& legacy) {
  check_types(version, X, E);
  const BinaryMap g = binary_map(kMap, version, X, E, legacy);  // [Pow.shape]
  Tensor Z(X.dtype(), g.shape, "Pow output Z", Fill::Unspecified);
  if (info(X.dtype()).is_float) {
    const UnaryConsts k = unary_consts(X.dtype(), elementary::Fn::Pow);
    auto annex = std::make_shared<accuracy::Annex>();
    annex->dtype = X.dtype();
    annex->clause = PowDef::formula;
    annex->resize(static_cast<std::size_t>(Z.size()));
    dispatch_pair(X, E, [&](auto xt, auto et) {
      using T = typename decltype(xt)::type;
      using U = typename decltype(et)::type;
      if constexpr (is_float_v<T>) evaluate_float<T, U>(k, X, E, g, Z, *annex);
    });
    Z.annex = std::move(annex);
  } else {
    dispatch_pair(X, E, [&](auto xt, auto et) {
      using T = typename decltype(xt)::type;
      using U = typename decltype(et)::type;
      if constexpr (!is_float_v<T>) evaluate_int<T, U>(version, X, E, g, Z);
    });
  }
  return Z;
}

Decision decide_pow(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& E = *v.inputs[1];
  check_types(version, X, E);
  const BinaryMap g = binary_map(kMap, version, X, E, legacy);
  const std::int64_t xo = offset_of(i, g.a), eo = offset_of(i, g.b);
  const Exponent e = exponent_at(E, eo);
  const std::vector<Member> members = {Member{0, xo}, Member{1, eo}};
  const std::string parameters =
      version < 7 ? fmt::format("broadcast = {}, axis = {}", legacy.broadcast, legacy.axis ? std::to_string(*legacy.axis) : "absent") : "";
  const std::string xn = element_name(v.input_names[0], index_of(X.shape(), xo)), en = element_name(v.input_names[1], index_of(E.shape(), eo));
  Decision d;
  if (info(X.dtype()).is_float) {
    const PowArg a = pow_arg(member_real(v, members[0]), e);
    const UnaryConsts k = unary_consts(X.dtype(), elementary::Fn::Pow);
    const UnaryResult r = unary_finish<PowDef>(k, a, X.dtype() == DType::Double ? 0.0 : PowDef::oracle(a));
    const bool edge = PowDef::edge(k, a).has_value();
    std::vector<std::string> clauses = edge ? std::vector<std::string>{"Pow.special", "Pow.float.formula"}
                                            : std::vector<std::string>{"Pow.float.formula", "Pow.bound", "Elem.hyp"};
    if (!edge && (r.e.allowed & (accuracy::kPosInf | accuracy::kNegInf))) clauses.insert(clauses.begin() + 2, "Pow.overflow");
    clauses.push_back("Pow.exponent");
    const std::string formula = fmt::format("{} = {}^{} with {} = {:.17g}, {} = {}", output_name(v, i), xn, en, xn, a.x, en, exponent_text(e));
    d = function_decision(v, i, members, r.e, r.bits, formula, parameters, clauses, unary_hypothesis(k, elementary::Fn::Pow));
    if (edge) d.situations.push_back({"Pow.special", ""});
    if (r.e.allowed & (accuracy::kPosInf | accuracy::kNegInf)) d.situations.push_back({"Pow.overflow", ""});
    if (!edge && std::fabs(r.e.hi) < k.f.lambda) d.situations.push_back({"Pow.bound", "a result below λ_T (α decides)"});
  } else {
    const std::int64_t xi = dispatch(X.dtype(), [&](auto tag) -> std::int64_t {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) return static_cast<std::int64_t>(X.values<T>()[static_cast<std::size_t>(xo)]);
      else return 0;
    });
    const IntPower p = int_power(xi, e);
    d.parameters = parameters;
    d.set.name = "the pair {Ẋ[i], Ẏ[i]}: the base and the exponent at the index broadcasting maps i to";
    d.set.size = 2;
    d.set.member = [members](std::int64_t m) { return members[static_cast<std::size_t>(m)]; };
    d.clauses = {"Pow.int.formula", "Pow.exponent", "Common.arith.map"};
    const std::int64_t zo = offset_of(i, row_major_strides(v.output->shape()));
    d.reason = fmt::format("{} = {} because {}^{} = {}^{}{}: the exact power truncated toward zero", output_name(v, i),
                           element_text(*v.output, zo), xn, en, xi, exponent_text(e),
                           e.integral ? "" : " (a non-integer exponent)");
    d.stop = "Z[i] is computed by Pow: the truncated power, not a copy of an input element";
    d.situations.push_back({"Pow.int.formula", ""});
    if (!e.integral || (e.y < 0 && xi != 1 && xi != -1)) d.situations.push_back({"Pow.int.formula", "a truncated power"});
    if (static_cast<__int128>(element_bits(*v.output, zo)) != (p.value & ((static_cast<__int128>(1) << (8 * info(X.dtype()).size)) - 1)))
      disagree(v, i);
  }
  if (g.broadcast) {
    d.clauses.push_back(version >= 7 ? "Common.broadcast.map" : "Common.arith.legacy");
    d.situations.push_back({version >= 7 ? "Common.broadcast.map" : "Common.arith.legacy", ""});
  }
  return d;
}

std::vector<Reach> reach_pow(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const Tensor& E = *v.inputs[1];
  const DType t = X.dtype(), t1 = E.dtype();
  const std::vector<std::string> names = {v.input_names[0], v.input_names[1]};
  const std::vector<Source> src = {sources[0], sources.size() > 1 ? sources[1] : sources[0]};
  // the bits of a value in X's or E's type (an integer type: the integer's two's complement)
  const auto in = [](DType d, double value) -> std::uint64_t {
    if (info(d).is_float) return bits_in(d, value);
    const int w = 8 * info(d).size;
    const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(value)) & mask;
  };
  const bool real_exponent = info(t1).is_float;
  std::vector<std::pair<Situation, std::pair<double, double>>> w;
  if (info(t).is_float) {
    // 2^e squared overflows T, 2^-e squared is below λ_T (e = 9, 65, 513 for float16, float and bfloat16, double)
    const double e = t == DType::Float16 ? 9 : t == DType::Double ? 513 : 65;
    w = {{{"Pow.float.formula", ""}, {3, 2}},
         {{"Pow.special", ""}, {-2, 0}},
         {{"Pow.overflow", ""}, {std::ldexp(1.0, static_cast<int>(e)), 2}},
         {{"Pow.bound", "a result below λ_T (α decides)"}, {std::ldexp(1.0, -static_cast<int>(e)), 2}}};
    if (real_exponent) w.push_back({{"Pow.special", "a negative base, a non-integer exponent: NaN"}, {-8, 0.5}});
  } else {
    w = {{{"Pow.int.formula", ""}, {3, 4}}, {{"Pow.int.formula", "a truncated power"}, {2, -1}}};
  }
  std::vector<Reach> out;
  for (const auto& [s, xy] : w) out.push_back(reach_by_given(s, {in(t, xy.first), in(t1, xy.second)}, 2, src, names));
  BinaryMap g;
  bool shapes_ok = true;
  try {
    g = binary_map(kMap, version, X, E, legacy);
  } catch (const SpecError&) {
    shapes_ok = false;
  }
  out.push_back(reach_by_shape({"Common.broadcast.map", ""}, shapes_ok && g.broadcast && version >= 7,
                               version < 7 ? std::string("Pow-1 broadcasts by its legacy rule") : std::string("both inputs have the output's shape")));
  out.push_back(reach_by_shape({"Common.arith.legacy", ""}, shapes_ok && g.broadcast && version < 7,
                               version >= 7 ? fmt::format("Pow-{} broadcasts multidirectionally", version) : std::string("Y has X's shape")));
  return out;
}

}  // namespace sonnx::ops
