// What the element-wise operators that compute a function share (Exp, Log, Tanh, Sigmoid:
// spec/common/elementary.md): Y[i] = f(X[i]) enclosed by the oracle's binary64 function, the bound
// B of the operator's clause, the value run writes ([Elem.run]), the walk over X's storage, and the
// Decision of one element. Each operator file states its function as a Def (its clauses, oracle,
// bound and edges); this file applies it, once, for evaluation and for `decide`.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "ops/elementary.hpp"
#include "core/error.hpp"
#include "core/float16.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The constants of one evaluation: T, its format, and the perturbation of [Elem.hyp] for the function
// whose K the operator's bound takes.
struct UnaryConsts {
  DType t = DType::Float;
  accuracy::Format f;
  elementary::Perturbation p;
};
UnaryConsts unary_consts(DType t, elementary::Fn fn);

// An element the operator's edge clause decides: its centre (exact), the radius (0: only that value
// conforms, as a real), and what else it may be.
struct UnaryEdge {
  double value = 0;
  std::uint8_t allowed = accuracy::kFinite;
  double radius = 0;
};

// One element: its enclosure and the bits run writes.
struct UnaryResult {
  accuracy::Element e;
  std::uint64_t bits = 0;
};

// The bits of the canonical quiet NaN of T, and of x rounded to T (x a value of T or an infinity).
std::uint64_t unary_bits(DType t, double x);

// The oracle's relative error at the argument: Def's constant, or Def::rho_at(x) where it depends on the
// argument (Pow's ρ(t̂)). Arg is the function's argument: a double, or Pow's pair (x, y).
template <class Def, class Arg> double oracle_rho(const Arg& x) {
  if constexpr (requires { Def::rho_at(x); }) return Def::rho_at(x);
  else return Def::rho;
}

// [Elem.oracle] [Elem.verdict] [Elem.run] Finishes element x from the oracle's binary64 value c (the
// short types), or from MPFR (double, and wherever the rounding is undecided):
//   Y  = (|c| + a)·(1 + 2ρ), an upper bound of the ideal's magnitude (a = 2^-1070, double's MPFR pair 2^-1074)
//   e_o = ρ·Y + a, B̂ = Def::bound(Y), R = (B̂ + e_o)·(1 + 2^-44) + 2^-1072
template <class Def, class Arg> UnaryResult unary_finish(const UnaryConsts& k, const Arg& x, double c) {
  UnaryResult out;
  if (const std::optional<UnaryEdge> edge = Def::edge(k, x)) {  // the operator's edge clause
    out.e.hi = edge->value, out.e.allowed = edge->allowed, out.e.radius = out.e.bound = edge->radius;
    out.bits = unary_bits(k.t, edge->value);
    return out;
  }
  double rho = oracle_rho<Def>(x), centre = c, lo = 0, abs = elementary::kAbs;
  std::uint64_t bits = 0;
  const bool is_double = k.t == DType::Double;
  std::optional<elementary::Pair> mp;
  if (is_double) {  // [Elem.oracle.mpfr] the pair: within rel·|hi| + 2^-1074 (not the binary64 functions' 2^-1070)
    mp = Def::mp(x);
    centre = mp->hi, lo = mp->lo, rho = mp->rel, abs = 0x1p-1074;
  }
  const double Y = (std::fabs(centre) + abs) * (1 + 2 * rho);
  const double eo = (rho * Y + abs) * accuracy::kInflate;
  const double B = Def::bound(k, x, Y) * accuracy::kInflate + accuracy::kTiny;
  if (std::isinf(centre)) {  // [Elem.oracle] the ideal beyond binary64's range: only that infinity conforms
    out.e.hi = centre, out.e.allowed = centre > 0 ? accuracy::kPosInf : accuracy::kNegInf;
    out.bits = unary_bits(k.t, centre);
    return out;
  }
  out.e.hi = centre, out.e.lo = lo, out.e.oracle = eo, out.e.bound = B;
  out.e.radius = (B + eo) * accuracy::kInflate + accuracy::kTiny;
  out.e.allowed = accuracy::kFinite | Def::overflow(k, x, Y);
  if (!is_double && elementary::rounding_decided(k.t, centre, eo, &bits)) {
    out.bits = bits;
  } else {
    if (!mp) mp = Def::mp(x);  // [Elem.run] the MPFR value decides
    out.bits = elementary::round_pair(k.t, *mp);
  }
  return out;
}

// [Elem.run] [Acc.verdict] Elements finished a block at a time (the element-wise functions' blocks,
// Softmax's row, LRN's run of positions), as arrays, so that the loops over them vectorise: the operator
// writes each element's centre (hi), e_o (oracle) and B̂ (bound), each inflated as its clause says, and
// what it allows; decide() adds R = (B̂ + e_o)·(1 + 2^-44) + 2^-1072 and, where every real within e_o
// of the centre rounds to one value of T, the bits run writes (rounding_decided); it marks the others
// undecided, for the operator's MPFR evaluation. An element the operator finishes on its own (an
// edge, a case its loops leave out) it puts with set().
struct FinishBlock {
  std::vector<double> hi, lo, oracle, bound, radius;  // lo: double only
  std::vector<std::uint8_t> allowed;
  std::vector<std::uint64_t> bits, undecided;  // undecided: not 0
  void resize(DType t, std::size_t n);
  accuracy::Element element(std::size_t q) const;
  void set(std::size_t q, const accuracy::Element& e, std::uint64_t b) {
    hi[q] = e.hi, oracle[q] = e.oracle, bound[q] = e.bound, radius[q] = e.radius, allowed[q] = e.allowed;
    if (!lo.empty()) lo[q] = e.lo;
    bits[q] = b, undecided[q] = 0;
  }
  // Elements [0, count): R and the bits where the rounding is decided; whether one is undecided
  // (double: every one).
  bool decide(DType t, std::size_t count);
};

// The one writer of a function's output: element `at`'s bits (the low bytes of `bits`) to y[at] and its
// enclosure to the annex.
template <class T> void store_element(accuracy::Annex& a, T* y, std::size_t at, const accuracy::Element& e, std::uint64_t bits) {
  std::memcpy(y + at, &bits, sizeof(T));
  a.set(at, e);
}
// Elements [0, count) of b to positions at + q·stride of y and of the annex.
template <class T> void store_block(const FinishBlock& b, std::size_t count, accuracy::Annex& a, T* y, std::size_t at, std::size_t stride) {
  if (stride != 1) {
    for (std::size_t q = 0; q < count; ++q) store_element(a, y, at + q * stride, b.element(q), b.bits[q]);
    return;
  }
  std::copy_n(b.hi.data(), count, a.hi.data() + at);
  std::copy_n(b.oracle.data(), count, a.oracle.data() + at);
  std::copy_n(b.bound.data(), count, a.bound.data() + at);
  std::copy_n(b.radius.data(), count, a.radius.data() + at);
  std::copy_n(b.allowed.data(), count, a.allowed.data() + at);
  if (!a.lo.empty()) std::copy_n(b.lo.data(), count, a.lo.data() + at);
  for (std::size_t q = 0; q < count; ++q) std::memcpy(y + at + q, &b.bits[q], sizeof(T));
}

// unary_finish's arithmetic for a finite element, n of them (a loop that vectorises); special[q] not 0
// where unary_finish itself must finish the element (an edge clause decides it, or its centre is
// infinite); whether one is.
template <class Def, class Arg>
bool unary_fill(const UnaryConsts& k, const Arg* __restrict x, const double* __restrict c, double* __restrict hi, double* __restrict eo,
                double* __restrict B, std::uint8_t* __restrict allowed, std::uint8_t* __restrict special, std::size_t n) {
  unsigned some = 0;
  for (std::size_t q = 0; q < n; ++q) {
    special[q] = static_cast<std::uint8_t>(Def::edge(k, x[q]).has_value() | (std::fabs(c[q]) == __builtin_inf()));
    some |= special[q];
  }
  for (std::size_t q = 0; q < n; ++q) {
    const double rho = oracle_rho<Def>(x[q]);
    const double Y = (std::fabs(c[q]) + elementary::kAbs) * (1 + 2 * rho);
    hi[q] = c[q];
    eo[q] = (rho * Y + elementary::kAbs) * accuracy::kInflate;
    B[q] = Def::bound(k, x[q], Y) * accuracy::kInflate + accuracy::kTiny;
    allowed[q] = static_cast<std::uint8_t>(accuracy::kFinite | Def::overflow(k, x[q], Y));
  }
  return some != 0;
}

// The elements unary_evaluate finishes at once (count <= this in unary_block).
inline constexpr std::size_t kFinishBlock = 1024;

// unary_finish for count elements x[q] whose oracle values are c[q]: its arithmetic in plain loops
// (the same operations in the same order: the same values), then one by one the elements an edge
// clause decides or whose centre is infinite (unary_finish itself) and those whose rounding is
// undecided (MPFR); double, one by one.
template <class Def, class Arg> void unary_block(const UnaryConsts& k, const Arg* x, const double* c, std::size_t count, FinishBlock& b) {
  if (k.t == DType::Double) {
    for (std::size_t q = 0; q < count; ++q) {
      const UnaryResult r = unary_finish<Def>(k, x[q], c[q]);
      b.set(q, r.e, r.bits);
    }
    return;
  }
  std::uint8_t special[kFinishBlock];
  bool some = false;
  at_active_level(
      [&] { some = unary_fill<Def>(k, x, c, b.hi.data(), b.oracle.data(), b.bound.data(), b.allowed.data(), special, count); });
  const bool undecided = b.decide(k.t, count);
  if (some)
    for (std::size_t q = 0; q < count; ++q)
      if (special[q]) {
        const UnaryResult r = unary_finish<Def>(k, x[q], c[q]);
        b.set(q, r.e, r.bits);
      }
  if (undecided)
    for (std::size_t q = 0; q < count; ++q)
      if (b.undecided[q]) b.bits[q] = elementary::round_pair(k.t, Def::mp(x[q]));  // [Elem.run] the MPFR value decides
}

// The one-element definition: Def's oracle at x, then unary_finish.
template <class Def> UnaryResult unary_element(const UnaryConsts& k, double x) {
  return unary_finish<Def>(k, x, Def::oracle(x));
}

// Y = f(X) over X's storage (one shape): the oracle in blocks (a loop the compiler vectorises), then
// the block finished (unary_block). Writes the annex of [Acc.verdict].
template <class Def> Tensor unary_evaluate(const Tensor& X, const char* what) {
  Tensor Y(X.dtype(), X.shape(), what, Fill::Unspecified);
  const UnaryConsts k = unary_consts(X.dtype(), Def::fn);
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = Def::formula;
  annex->resize(static_cast<std::size_t>(Y.size()));
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      constexpr std::size_t kBlock = kFinishBlock;
      double xs[kBlock], cs[kBlock];
      FinishBlock b;
      b.resize(k.t, kBlock);
      const auto n = static_cast<std::size_t>(X.size());
      for (std::size_t at = 0; at < n; at += kBlock) {
        const std::size_t count = std::min(kBlock, n - at);
        for (std::size_t q = 0; q < count; ++q) xs[q] = real_value(x[at + q]);
        at_active_level([&] {
          for (std::size_t q = 0; q < count; ++q) cs[q] = Def::oracle(xs[q]);
        });
        unary_block<Def>(k, xs, cs, count, b);
        store_block(b, count, *annex, y, at, 1);
      }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

// The Decision of one element computed by a function (element-wise, Softmax's row, LRN's window,
// Pow's pair): the members it reads (its set, for golden and explain), the formula at the element,
// the clauses, the reason with the hypothesis' numbers, and the check that the evaluated output and
// its annex hold what the one-element definition derives (disagree() otherwise).
Decision function_decision(const NodeValues& v, const std::vector<std::int64_t>& index, const std::vector<Member>& members,
                           const accuracy::Element& e, std::uint64_t bits, const std::string& formula,
                           const std::string& parameters, std::vector<std::string> clauses, const std::string& hypothesis);

// What golden can reach through such a node: a computed output (no witness is written through it);
// the element-wise operators name the situations of their edge clauses with values of X.
std::vector<Reach> unary_reaches(DType t, const std::vector<std::pair<Situation, double>>& given, Source source,
                                 const std::string& name);

}  // namespace sonnx::ops

namespace sonnx::ops {

// The hypothesis' numbers of an element-wise function's bound, for explain and the reasons:
// "K_exp = 1 (exp=1 log=1 tanh=2 pow=7): κ = 1.19e-07, α = 1.4e-45".
std::string unary_hypothesis(const UnaryConsts& k, elementary::Fn fn);

// [Check.coverage] The element at `index` of an element-wise function's output, as Def decides it:
// its enclosure (unary_element), the clauses (the edge clause, or the formula and the bound), the
// situations Def names for x.
template <class Def> Decision unary_decide(const NodeValues& v, const std::vector<std::int64_t>& index) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t offset = offset_of(index, row_major_strides(X.shape()));
  const double x = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return real_value(X.values<T>()[static_cast<std::size_t>(offset)]);
    else return 0.0;
  });
  const UnaryConsts k = unary_consts(X.dtype(), Def::fn);
  const UnaryResult r = unary_element<Def>(k, x);
  const bool edge = Def::edge(k, x).has_value();
  std::vector<std::string> clauses;
  if (edge) clauses = {Def::edge_clause, Def::formula};
  else clauses = {Def::formula, Def::bound_clause, "Elem.hyp"};
  if (!edge && (r.e.allowed & (accuracy::kPosInf | accuracy::kNegInf))) clauses.insert(clauses.begin() + 2, Def::overflow_clause);
  const std::string formula = fmt::format("{} = {}({}) with {} = {}", output_name(v, index), Def::name,
                                          element_name(v.input_names[0], index), element_name(v.input_names[0], index), fmt::format("{:.17g}", x));
  Decision d = function_decision(v, index, {Member{0, offset}}, r.e, r.bits, formula, "", clauses, unary_hypothesis(k, Def::fn));
  d.situations = Def::situations(k, x, r.e);
  return d;
}

// [Check.golden-coverage] The situations Def names, each with the value of X that reaches it.
template <class Def> std::vector<Reach> unary_reach(const NodeValues& v, const std::vector<Source>& sources) {
  return unary_reaches(v.inputs[0]->dtype(), Def::witnesses(v.inputs[0]->dtype()), sources[0], v.input_names[0]);
}

}  // namespace sonnx::ops
