// spec/common/accuracy.md and the terms of MatMul, Gemm and Conv, restated on the test side
// (gen/accuracy_model.hpp).
#include "gen/accuracy_model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "gen/shapes.hpp"
#include "gen/values.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::acc {

// ---- Constants -------------------------------------------------------------------------------------

// spec/common/accuracy.md, Notation: p_T 11, 8, 24, 53; η_T 2^-24, 2^-133, 2^-149, 2^-1074; λ_T 2^-14,
// 2^-126, 2^-126, 2^-1022; Ω_T = (2 − 2^-p)·2^emax with emax 15, 127, 127, 1023.
Constants constants(DType t) {
  int p, eta, lambda, emax;
  switch (t) {
    case DType::Float16: p = 11, eta = -24, lambda = -14, emax = 15; break;
    case DType::BFloat16: p = 8, eta = -133, lambda = -126, emax = 127; break;
    case DType::Float: p = 24, eta = -149, lambda = -126, emax = 127; break;
    default: p = 53, eta = -1074, lambda = -1022, emax = 1023; break;
  }
  Constants c;
  c.p = p;
  c.u = std::ldexp(1.0L, -p);
  c.v = c.u + c.u * c.u * (1 + c.u);  // [Acc.hyp] 4 (exact in long double but for double's u³ term)
  c.eta = std::ldexp(1.0L, eta);
  c.lambda = std::ldexp(1.0L, lambda);
  c.omega = std::ldexp(2.0L - std::ldexp(1.0L, -p), emax);
  return c;
}

long double theta(DType t, std::int64_t D) {
  if (D <= 0) return 0;
  return std::expm1(static_cast<long double>(D) * std::log1p(constants(t).v));
}

bool representable(DType t, double x) {
  if (t == DType::Double || !std::isfinite(x)) return true;
  return exact::round_pair(exact::fmt_of(t), x, 0.0) == x;
}

VTerm make_term(DType t, const std::vector<double>& elements, const std::vector<double>& attributes) {
  VTerm term;
  for (double x : elements) term.factors.push_back({x, false});
  int conversions = 0;
  for (double a : attributes) {
    if (a == 1) continue;                   // [Acc.terms] 1 is no factor
    if (a == -1) {                          // nor is −1: its product is exact
      term.negate = !term.negate;
      continue;
    }
    term.factors.push_back({a, true});
    if (!representable(t, a)) ++conversions;  // [Gemm.scalars] converting it to T rounds once
  }
  const int f = static_cast<int>(term.factors.size());
  term.e = std::max(f - 1, 0) + conversions;  // [Acc.terms] e_k = (f_k − 1) + c_k
  term.M = 1;
  for (const Factor& x : term.factors)  // [Acc.bound.underflow] over the finite factors
    if (std::isfinite(x.value)) term.M = std::max(term.M, std::fabs(x.value));
  return term;
}

std::string allowed_text(std::uint8_t a) {
  std::string s;
  auto add = [&](std::uint8_t flag, const char* name) {
    if (a & flag) s += (s.empty() ? "" : ", ") + std::string(name);
  };
  add(kFinite, "finite");
  add(kPosInf, "+Inf");
  add(kNegInf, "-Inf");
  add(kNan, "NaN");
  return "{" + s + "}";
}

// ---- The model -----------------------------------------------------------------------------------

namespace {

long double gamma53(long double m) {  // γ_m(2^-53)
  const long double mu = m * std::ldexp(1.0L, -53);
  return mu / (1 - mu);
}

struct TermClass {
  bool nan = false, inf = false, negative = false;
};
TermClass classify_term(const VTerm& term) {
  TermClass c;
  bool has_inf = false, has_zero = false;
  c.negative = term.negate;
  for (const Factor& f : term.factors) {
    if (std::isnan(f.value)) c.nan = true;
    if (std::isinf(f.value)) has_inf = true;
    if (f.value == 0) has_zero = true;
    if (std::signbit(f.value)) c.negative = !c.negative;
  }
  if (has_inf && has_zero) c.nan = true;  // [Acc.nonfinite] 1: ∞·0
  c.inf = has_inf && !c.nan;
  return c;
}

}  // namespace

Model restate(DType t, const std::vector<VTerm>& terms, int steps) {
  const Constants C = constants(t);
  Model m;
  m.t = t;
  m.n = static_cast<std::int64_t>(terms.size());
  Exact pos, neg;  // S⁺ and S⁻ of the finite terms
  bool nan_term = false, pos_inf = false, neg_inf = false, three_inf = false;
  int max_e = 0, max_e_finite = 0;
  std::int64_t n_finite = 0;
  long double lambda_all = 0, lambda_finite = 0, lambda_upper_all = 0;
  for (const VTerm& term : terms) {
    max_e = std::max(max_e, term.e);
    // [Acc.bound.underflow] λ_k = e_k·η̄·((1 + v)·M_k)^(e_k − 1), 0 for e_k = 0
    long double lambda = 0, lambda_upper = 0;
    if (term.e >= 1) {
      lambda = lambda_upper = term.e * C.eta;
      const double M_upper = std::max(term.M, term.M_upper);
      for (int i = 1; i < term.e; ++i) {
        lambda *= (1 + C.v) * static_cast<long double>(term.M);
        lambda_upper *= (1 + C.v) * static_cast<long double>(M_upper);
      }
    }
    lambda_upper_all += lambda_upper;
    // [Acc.overflow] P: the partial product of a three-factor term, at most (1 + v)·M_k² + η̄, and an
    // attribute factor T cannot represent, converted, at most (1 + v)·|x|
    if (term.factors.size() == 3)
      m.P = std::max(m.P, (1 + C.v) * static_cast<long double>(term.M) * static_cast<long double>(term.M) + C.eta);
    for (const Factor& x : term.factors)
      if (x.attribute && !representable(t, x.value)) m.P = std::max(m.P, (1 + C.v) * std::fabs(static_cast<long double>(x.value)));
    lambda_all += lambda;
    const TermClass c = classify_term(term);
    if (c.nan) {
      nan_term = true;
      continue;
    }
    if (c.inf) {
      (c.negative ? neg_inf : pos_inf) = true;
      // [Acc.nonfinite] 3: an infinite factor whose two other factors multiply to at most η_T/2 (the
      // product may round to zero before it meets the infinity)
      if (term.factors.size() == 3)
        for (std::size_t q = 0; q < 3; ++q) {
          const double o1 = term.factors[(q + 1) % 3].value, o2 = term.factors[(q + 2) % 3].value;
          const bool small = std::isfinite(o1) && std::isfinite(o2) && o1 != 0 && o2 != 0 &&
                             std::fabs(static_cast<long double>(o1) * o2) <= C.eta / 2;
          if (std::isinf(term.factors[q].value) && small) three_inf = true;
        }
      continue;
    }
    ++n_finite;
    max_e_finite = std::max(max_e_finite, term.e);
    lambda_finite += lambda;
    std::vector<double> magnitudes;
    for (const Factor& f : term.factors) magnitudes.push_back(std::fabs(f.value));
    (c.negative ? neg : pos).add_product(magnitudes.data(), static_cast<int>(magnitudes.size()));
  }
  m.D = m.n == 0 ? 0 : (m.n - 1) + max_e;  // [Acc.terms] D = (n − 1) + max e_k
  m.s = pos;
  m.s.add(neg, true);
  Exact S = pos;
  S.add(neg);
  m.S = S.approx(), m.Spos = pos.approx(), m.Sneg = neg.approx();
  m.theta = theta(t, m.D);
  // [Acc.bound.underflow] U = (1 + θ(n − 1))·(Σ λ_k + (n − 1)·η̄)
  const std::int64_t adds = std::max<std::int64_t>(m.n - 1, 0);
  m.U = (1 + theta(t, m.n - 1)) * (lambda_all + static_cast<long double>(adds) * C.eta);
  m.B = m.theta * m.S + m.U;  // [Acc.bound]
  m.B_upper = m.theta * m.S + (1 + theta(t, m.n - 1)) * (lambda_upper_all + static_cast<long double>(adds) * C.eta);
  // [Acc.oracle] e_o with m counted as every binary64 addition and multiplication of the oracle (at most
  // 2n + steps + 1, plus one): γ_m(2^-53)·Ŝ↑ for the short types; γ_2m(2^-53)²·Ŝ↑ + 2m·2^-1074 for
  // double, where Ŝ↑ <= S·(1 + 2γ_{m+1}) (+ m·2^-1074 for double). For double the implementation adds
  // 8·2^-106·Ŝ↑ and 2m·2^-1074 more (a more generous constant than the clause's, reported): allowed here.
  const long double ops = 2.0L * static_cast<long double>(m.n) + steps + 2;
  const long double eta64 = std::ldexp(1.0L, -1074);
  if (t == DType::Double) {
    const long double S_up = (m.S + ops * eta64) * (1 + 2 * gamma53(ops + 1));
    m.eo = gamma53(2 * ops) * gamma53(2 * ops) * S_up + 2 * ops * eta64 + std::ldexp(8.0L, -106) * S_up + 2 * ops * eta64;
  } else {
    m.eo = gamma53(ops) * m.S * (1 + 2 * gamma53(ops + 1));
  }
  m.finite_terms = !nan_term && !pos_inf && !neg_inf;
  {
    Exact omega;
    omega.add(C.omega);
    m.ideal_beyond_range = m.finite_terms && m.s.compare_abs(omega) >= 0;  // |s| >= Ω_T
  }
  // The comparisons with Ω_T: a quantity within 2^-30 of it leaves the flag to either answer (the
  // oracle decides on bounds rounded up by less than 2^-40).
  const long double margin = std::ldexp(C.omega, -30);
  auto reaches = [&](long double x, std::uint8_t flag) {
    if (std::fabs(x - C.omega) <= margin) m.ambiguous |= flag;
    return x >= C.omega;
  };
  if (nan_term || (pos_inf && neg_inf)) {  // [Acc.nonfinite] 1 and 2
    m.allowed = kNan;
    return m;
  }
  if (pos_inf || neg_inf) {  // [Acc.nonfinite] 3
    m.allowed = pos_inf ? kPosInf : kNegInf;
    const long double other = pos_inf ? m.Sneg : m.Spos;
    // [Acc.overflow] applied to the finite terms: D and U of the element, or of the finite terms alone
    // (the clause may be read either way: a difference leaves the NaN to either answer)
    const bool whole = reaches(other + m.theta * m.S + m.U, kNan) || reaches(m.P, kNan);
    const std::int64_t D_f = n_finite == 0 ? 0 : (n_finite - 1) + max_e_finite;
    const long double U_f = (1 + theta(t, n_finite - 1)) * (lambda_finite + static_cast<long double>(std::max<std::int64_t>(n_finite - 1, 0)) * C.eta);
    const bool alone = reaches(other + theta(t, D_f) * m.S + U_f, kNan) || reaches(m.P, kNan);
    if (whole != alone) m.ambiguous |= kNan;
    if (three_inf || whole || alone) m.allowed |= kNan;
    if (three_inf) m.ambiguous &= static_cast<std::uint8_t>(~kNan);
    return m;
  }
  m.allowed = kFinite;  // [Acc.overflow]
  const bool p_big = reaches(m.P, kPosInf | kNegInf | kNan);
  const bool up = reaches(m.Spos + m.theta * m.S + m.U, kPosInf | kNan) || p_big;
  const bool down = reaches(m.Sneg + m.theta * m.S + m.U, kNegInf | kNan) || p_big;
  if (up) m.allowed |= kPosInf;
  if (down) m.allowed |= kNegInf;
  if (up && down) m.allowed |= kNan;
  return m;
}

Verdict within_bound(const Model& m, double r, long double extra) {
  Verdict v;
  if (std::isnan(r)) {
    v.ok = (m.allowed & kNan) || (m.ambiguous & kNan);
    if (!v.ok) v.why = fmt::format("a NaN, but the allowed set is {}", allowed_text(m.allowed));
    return v;
  }
  if (std::isinf(r)) {
    const std::uint8_t flag = r > 0 ? kPosInf : kNegInf;
    v.ok = (m.allowed & flag) || (m.ambiguous & flag);
    if (!v.ok) v.why = fmt::format("{}, but the allowed set is {}", r > 0 ? "+Inf" : "-Inf", allowed_text(m.allowed));
    return v;
  }
  if (!(m.allowed & kFinite)) {
    v.ok = false;
    v.why = fmt::format("finite, but the allowed set is {}", allowed_text(m.allowed));
    return v;
  }
  Exact d = m.s;
  d.add(r, true);
  const long double bound = m.B * (1 + std::ldexp(1.0L, -52)) + extra;
  v.ok = d.abs_le(bound);
  if (!v.ok)
    v.why = fmt::format("|r - s| = {:.17Lg} exceeds B = θ(D)·S + U = {:.17Lg} (+ {:.6Lg}): s = {}, S = {:.17Lg}, n = {}, D = {}, "
                        "θ(D) = {:.17Lg}, U = {:.6Lg}",
                        d.abs().approx(), m.B, extra, m.s.text(), m.S, m.n, m.D, m.theta, m.U);
  return v;
}

long double fraction_of_bound(const Model& m, double r) {
  if (!std::isfinite(r) || m.B == 0) return 0;
  Exact d = m.s;
  d.add(r, true);
  return d.abs().approx() / m.B;
}

// ---- Trees -----------------------------------------------------------------------------------------

namespace {
int add_leaf(Tree& t, int leaf) {
  t.nodes.push_back(Node{leaf, -1, -1});
  return static_cast<int>(t.nodes.size()) - 1;
}
int add_node(Tree& t, int l, int r) {
  t.nodes.push_back(Node{-1, l, r});
  return static_cast<int>(t.nodes.size()) - 1;
}
int chain(Tree& t, const std::vector<int>& order, std::size_t lo, std::size_t hi) {  // left to right over [lo, hi)
  int acc = add_leaf(t, order[lo]);
  for (std::size_t i = lo + 1; i < hi; ++i) acc = add_node(t, acc, add_leaf(t, order[i]));
  return acc;
}
}  // namespace

std::vector<int> identity_order(int n) {
  std::vector<int> o(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) o[static_cast<std::size_t>(i)] = i;
  return o;
}

Tree left_to_right(const std::vector<int>& order) {
  Tree t;
  if (!order.empty()) t.root = chain(t, order, 0, order.size());
  return t;
}

Tree pairwise(const std::vector<int>& order) {
  Tree t;
  std::function<int(std::size_t, std::size_t)> build = [&](std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) return add_leaf(t, order[lo]);
    const std::size_t mid = lo + (hi - lo) / 2;
    const int l = build(lo, mid);
    const int r = build(mid, hi);
    return add_node(t, l, r);
  };
  if (!order.empty()) t.root = build(0, order.size());
  return t;
}

Tree blocked(const std::vector<int>& order, int block) {
  Tree t;
  int acc = -1;
  for (std::size_t lo = 0; lo < order.size(); lo += static_cast<std::size_t>(block)) {
    const int b = chain(t, order, lo, std::min(order.size(), lo + static_cast<std::size_t>(block)));
    acc = acc < 0 ? b : add_node(t, acc, b);
  }
  t.root = acc;
  return t;
}

Tree random_splits(const std::vector<int>& order, const std::vector<std::uint32_t>& r) {
  if (r.empty()) return pairwise(order);
  Tree t;
  std::size_t next = 0;
  std::function<int(std::size_t, std::size_t)> build = [&](std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) return add_leaf(t, order[lo]);
    const std::size_t mid = lo + 1 + r[next++ % r.size()] % (hi - lo - 1);
    const int l = build(lo, mid);
    const int rr = build(mid, hi);
    return add_node(t, l, rr);
  };
  if (!order.empty()) t.root = build(0, order.size());
  return t;
}

int height(const Tree& tree) {
  std::function<int(int)> h = [&](int i) -> int {
    const Node& n = tree.nodes[static_cast<std::size_t>(i)];
    return n.leaf >= 0 ? 0 : 1 + std::max(h(n.left), h(n.right));
  };
  return tree.root < 0 ? 0 : h(tree.root);
}

// ---- Evaluation ------------------------------------------------------------------------------------

Evaluation uniform(const Tree& tree, DType t, Fmt f, Mode mode, bool fuse, std::string name) {
  Evaluation e;
  e.t = exact::fmt_of(t);
  e.f = f;
  e.ops.assign(tree.nodes.size(), OpChoice{mode, fuse});
  e.name = std::move(name);
  return e;
}

// A factor as an operand: an attribute T cannot represent is converted to T (one rounding, [Acc.hyp]
// 5) when the operation is in T; in F (binary32 or wider) it is exact.
Quad operand(const Factor& x, Fmt t, Mode mode) {
  if (x.attribute && mode == Mode::T) return exact::round(t, static_cast<Quad>(x.value));
  return x.value;
}

Quad op_mul(Quad a, Quad b, Fmt t, Fmt f, Mode mode) {
  switch (mode) {
    case Mode::T: return exact::mul(t, exact::round(t, a), exact::round(t, b));
    case Mode::F: return exact::mul(f, a, b);
    default: return exact::round(t, exact::mul(f, a, b));
  }
}

Quad op_add(Quad a, Quad b, Fmt t, Fmt f, Mode mode) {
  switch (mode) {
    case Mode::T: return exact::add(t, exact::round(t, a), exact::round(t, b));
    case Mode::F: return exact::add(f, a, b);
    default: return exact::round(t, exact::add(f, a, b));
  }
}

Quad op_fma(Quad a, Quad b, Quad c, Fmt t, Fmt f, Mode mode) {
  switch (mode) {
    case Mode::T: return exact::fma(t, exact::round(t, a), exact::round(t, b), exact::round(t, c));
    case Mode::F: return exact::fma(f, a, b, c);
    default: return exact::round(t, exact::fma(f, a, b, c));
  }
}

namespace {

// The product of the first `count` factors of `term`, left to right, in `mode` (its sign applied to the
// first factor, exactly).
Quad partial_product(const VTerm& term, std::size_t count, Fmt t, Fmt f, Mode mode) {
  if (count == 0) return term.negate ? -1.0 : 1.0;
  Quad acc = operand(term.factors[0], t, mode);
  if (term.negate) acc = -acc;
  for (std::size_t i = 1; i < count; ++i) acc = op_mul(acc, operand(term.factors[i], t, mode), t, f, mode);
  return acc;
}

int fusable_child(const Tree& tree, const std::vector<VTerm>& terms, const Node& n) {
  for (int c : {n.right, n.left}) {
    const Node& child = tree.nodes[static_cast<std::size_t>(c)];
    if (child.leaf >= 0 && terms[static_cast<std::size_t>(child.leaf)].factors.size() >= 2) return c;
  }
  return -1;
}

}  // namespace

Quad term_value(const VTerm& term, Fmt t, Fmt f, Mode mode) {
  if (term.factors.empty()) return term.negate ? -1.0 : 1.0;
  return partial_product(term, term.factors.size(), t, f, mode);
}

Quad evaluate(const Tree& tree, const std::vector<VTerm>& terms, const Evaluation& e, bool round_result) {
  if (tree.root < 0) return 0.0;  // the empty sum
  std::function<Quad(int)> eval = [&](int i) -> Quad {
    const Node& n = tree.nodes[static_cast<std::size_t>(i)];
    const OpChoice& oc = e.ops[static_cast<std::size_t>(i)];
    if (n.leaf >= 0) return term_value(terms[static_cast<std::size_t>(n.leaf)], e.t, e.f, oc.mode);
    if (oc.fuse) {
      const int c = fusable_child(tree, terms, n);
      if (c >= 0) {  // [Acc.hyp] 3: fma(a, b, rest), a the product of all factors but the last
        const Node& leaf = tree.nodes[static_cast<std::size_t>(c)];
        const VTerm& term = terms[static_cast<std::size_t>(leaf.leaf)];
        const Mode leaf_mode = e.ops[static_cast<std::size_t>(c)].mode;
        const Quad a = partial_product(term, term.factors.size() - 1, e.t, e.f, leaf_mode);
        const Quad b = operand(term.factors.back(), e.t, oc.mode);
        const Quad rest = eval(c == n.right ? n.left : n.right);
        return op_fma(a, b, rest, e.t, e.f, oc.mode);
      }
    }
    const Quad x = eval(n.left);
    const Quad y = eval(n.right);
    return op_add(x, y, e.t, e.f, oc.mode);
  };
  const Quad v = eval(tree.root);
  return round_result ? exact::round(e.t, v) : v;  // the result rounded to T
}

bool any_fused(const Tree& tree, const std::vector<VTerm>& terms, const Evaluation& e) {
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const Node& n = tree.nodes[i];
    if (n.leaf < 0 && e.ops[i].fuse && fusable_child(tree, terms, n) >= 0) return true;
  }
  return false;
}

Quad kahan(const std::vector<VTerm>& terms, const std::vector<int>& order, Fmt t) {
  Quad sum = 0.0, c = 0.0;
  for (int k : order) {
    const Quad x = term_value(terms[static_cast<std::size_t>(k)], t, t, Mode::T);
    const Quad y = exact::add(t, x, -c);
    const Quad s = exact::add(t, sum, y);
    c = exact::add(t, exact::add(t, s, -sum), -y);
    sum = s;
  }
  return sum;
}

// ---- Operator terms --------------------------------------------------------------------------------

namespace {
// [Common.broadcast.rank] [Common.broadcast.dims] the multidirectional broadcast of two shapes.
std::optional<Shape> broadcast2(const Shape& a, const Shape& b) {
  const std::size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t x = d + a.size() >= r ? a[d + a.size() - r] : 1;
    const std::int64_t y = d + b.size() >= r ? b[d + b.size() - r] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[d] = x == 1 ? y : x;
  }
  return out;
}

struct Promoted {
  Shape a, b, batch_a, batch_b;
  bool a_vector = false, b_vector = false;
};
Promoted promote(const Shape& a, const Shape& b) {
  Promoted p;
  p.a = a, p.b = b;
  p.a_vector = a.size() == 1, p.b_vector = b.size() == 1;
  if (p.a_vector) p.a.insert(p.a.begin(), 1);
  if (p.b_vector) p.b.push_back(1);
  p.batch_a.assign(p.a.begin(), p.a.end() - 2);
  p.batch_b.assign(p.b.begin(), p.b.end() - 2);
  return p;
}
}  // namespace

std::optional<Shape> matmul_shape(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  const Promoted p = promote(a, b);
  if (p.a.back() != p.b[p.b.size() - 2]) return std::nullopt;
  auto batch = broadcast2(p.batch_a, p.batch_b);
  if (!batch) return std::nullopt;
  Shape y = *batch;
  if (!p.a_vector) y.push_back(p.a[p.a.size() - 2]);
  if (!p.b_vector) y.push_back(p.b.back());
  return y;
}

std::vector<OpTerm> matmul_terms(const Shape& a, const Shape& b, const Index& y) {
  const Promoted p = promote(a, b);
  const Shape batch = *broadcast2(p.batch_a, p.batch_b);
  const Index bi(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(batch.size()));
  std::size_t at = batch.size();
  const std::int64_t i = p.a_vector ? 0 : y[at++];
  const std::int64_t j = p.b_vector ? 0 : y[at++];
  const std::int64_t K = p.a.back();
  Index ai = broadcast_source(bi, p.batch_a, batch), bj = broadcast_source(bi, p.batch_b, batch);
  ai.push_back(i), ai.push_back(0);
  bj.push_back(0), bj.push_back(j);
  std::vector<OpTerm> terms;
  for (std::int64_t k = 0; k < K; ++k) {  // [MatMul.order] k ascending
    ai.back() = k;
    bj[bj.size() - 2] = k;
    terms.push_back(OpTerm{{{0, ravel(ai, p.a)}, {1, ravel(bj, p.b)}}, {}});
  }
  return terms;
}

GemmGeometry gemm_geometry(const Shape& a, const Shape& b, const ops::GemmParams& p) {
  GemmGeometry g;
  g.M = p.trans_a ? a[1] : a[0];
  g.K = p.trans_a ? a[0] : a[1];
  g.N = p.trans_b ? b[0] : b[1];
  return g;
}

std::vector<OpTerm> gemm_terms(const Shape& a, const Shape& b, const Shape* c, const ops::GemmParams& p, std::int64_t i,
                               std::int64_t j) {
  const GemmGeometry g = gemm_geometry(a, b, p);
  std::vector<OpTerm> terms;
  for (std::int64_t k = 0; k < g.K; ++k) {  // [Gemm.trans] A'[i, k] = A[k, i] when transA; likewise B'
    const std::int64_t ao = p.trans_a ? k * a[1] + i : i * a[1] + k;
    const std::int64_t bo = p.trans_b ? j * b[1] + k : k * b[1] + j;
    terms.push_back(OpTerm{{{0, ao}, {1, bo}}, {p.alpha}});
  }
  if (c && p.beta != 0) {  // [Gemm.scalars] β = 0: C is not read; [Gemm.c] Ċ[i, j] by the broadcast map
    const Index ci = broadcast_source({i, j}, *c, {g.M, g.N});
    terms.push_back(OpTerm{{{2, ravel(ci, *c)}}, {p.beta}});
  }
  return terms;
}

namespace {
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }
}  // namespace

ConvGeometry conv_geometry(const Shape& x, const Shape& w, const ops::ConvParams& p) {
  ConvGeometry g;
  const std::size_t l = x.size() - 2;
  const auto& a = p.window;
  for (std::size_t d = 0; d < l; ++d) {
    const std::int64_t D = x[2 + d], k = w[2 + d];  // [Conv.shape] the kernel is W's spatial shape
    const std::int64_t s = a.has_strides ? a.strides[d] : 1, dil = a.has_dilations ? a.dilations[d] : 1;
    const std::int64_t e = (k - 1) * dil + 1;
    std::int64_t pb = 0, pe = 0, O;
    if (a.auto_pad == "SAME_UPPER" || a.auto_pad == "SAME_LOWER") {  // [MaxPool.pads.auto]
      O = ceil_div(D, s);
      const std::int64_t P = std::max<std::int64_t>(0, (O - 1) * s + e - D);
      pb = a.auto_pad == "SAME_UPPER" ? P / 2 : P - P / 2;
      pe = P - pb;
    } else {  // [MaxPool.shape], ceil_mode 0
      if (a.auto_pad == "NOTSET" && a.has_pads) pb = a.pads[d], pe = a.pads[l + d];
      O = floor_div(D + pb + pe - e, s) + 1;
    }
    g.k.push_back(k), g.s.push_back(s), g.dil.push_back(dil), g.pb.push_back(pb), g.pe.push_back(pe), g.out.push_back(O);
  }
  return g;
}

Shape conv_shape(const Shape& x, const Shape& w, const ConvGeometry& g) {
  Shape y = {x[0], w[0]};
  y.insert(y.end(), g.out.begin(), g.out.end());
  return y;
}

std::vector<OpTerm> conv_terms(const Shape& x, const Shape& w, bool bias, const ops::ConvParams& p, const ConvGeometry& g,
                               const Index& y) {
  const std::size_t l = x.size() - 2;
  const std::int64_t n = y[0], m = y[1], Cg = w[1], Mg = w[0] / p.group, grp = m / Mg;  // [Conv.group] g(m)
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> along(l);  // (q, position) inside X
  for (std::size_t d = 0; d < l; ++d)
    for (std::int64_t q = 0; q < g.k[d]; ++q) {
      const std::int64_t pos = y[2 + d] * g.s[d] - g.pb[d] + q * g.dil[d];  // x_d(o, q)
      if (pos >= 0 && pos < x[2 + d]) along[d].push_back({q, pos});       // [Conv.window.padding]
    }
  std::vector<OpTerm> terms;
  bool empty = false;
  for (const auto& a : along) empty = empty || a.empty();
  for (std::int64_t c = 0; c < Cg && !empty; ++c) {  // [Conv.order] c' ascending, then q row-major
    std::vector<std::size_t> at(l, 0);
    bool done = false;
    while (!done) {
      Index xi = {n, grp * Cg + c}, wi = {m, c};
      for (std::size_t d = 0; d < l; ++d) xi.push_back(along[d][at[d]].second), wi.push_back(along[d][at[d]].first);
      terms.push_back(OpTerm{{{0, ravel(xi, x)}, {1, ravel(wi, w)}}, {}});
      done = true;  // odometer, the last axis fastest
      for (std::size_t d = l; d-- > 0;) {
        if (++at[d] < along[d].size()) {
          done = false;
          break;
        }
        at[d] = 0;
      }
    }
  }
  if (bias) terms.push_back(OpTerm{{{2, m}}, {}});
  return terms;
}

double value_at(const Tensor& x, std::int64_t offset) { return exact::decode(x.dtype(), bits_at(x, offset)); }

std::vector<VTerm> values_of(DType t, const std::vector<OpTerm>& terms, const std::vector<const Tensor*>& inputs,
                             std::optional<double> gemm_bound) {
  std::vector<VTerm> out;
  for (const OpTerm& term : terms) {
    std::vector<double> elements;
    for (const auto& [input, offset] : term.members) elements.push_back(value_at(*inputs[static_cast<std::size_t>(input)], offset));
    VTerm v = make_term(t, elements, term.attributes);
    if (gemm_bound && v.factors.size() == 3) v.M = *gemm_bound;  // [Gemm.float.formula] M_ij
    if (gemm_bound && term.members.size() == 1) v.M_upper = *gemm_bound;
    out.push_back(std::move(v));
  }
  return out;
}

// ---- Generators --------------------------------------------------------------------------------------

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Narrow: return "narrow";
    case Kind::Wide: return "wide exponent range";
    case Kind::Underflow: return "products near and below the normal range";
    case Kind::Cancel: return "exact cancellation";
    case Kind::NearZero: return "near cancellation";
    case Kind::Absorb: return "absorption";
    case Kind::Zeros: return "zeros";
    default: return "mixed";
  }
}

rc::Gen<double> value_in(DType t, int lo, int hi) {
  return rc::gen::exec([t, lo, hi] {
    const exact::FormatFacts F = exact::facts(exact::fmt_of(t));
    const int low = std::max(lo, F.emin - F.frac_bits);
    const int e = *gen::index(low, std::max(low, hi) + 1);
    const bool negative = *gen::index(0, 2) == 1;
    const bool short_fraction = *gen::index(0, 3) == 0;  // few significant bits: sums cancel exactly
    std::uint64_t frac = *gen::index<std::uint64_t>(0, std::uint64_t{1} << F.frac_bits);
    if (short_fraction) frac &= ~((std::uint64_t{1} << std::max(0, F.frac_bits - 3)) - 1);
    std::uint64_t bits;
    if (e >= F.emin) {
      bits = (static_cast<std::uint64_t>(e + F.emax) << F.frac_bits) | frac;
    } else {  // a subnormal of T whose leading bit weighs 2^e
      const int lead = e - (F.emin - F.frac_bits);
      bits = (std::uint64_t{1} << lead) | (frac & ((std::uint64_t{1} << lead) - 1));
    }
    if (negative) bits |= std::uint64_t{1} << (F.frac_bits + F.exp_bits);
    return exact::decode(t, bits);
  });
}

int factor_exponent_cap(DType t, std::int64_t n) {
  const int emax = exact::facts(exact::fmt_of(t)).emax;
  int lg = 0;
  while ((std::int64_t{1} << lg) < n + 2) ++lg;
  return (emax - 2 - lg) / 2;
}

std::vector<VTerm> TermsCase::terms() const {
  std::vector<VTerm> out;
  for (const auto& [a, b] : products) out.push_back(make_term(t, {a, b}));
  if (bias) out.push_back(make_term(t, {*bias}));
  return out;
}

void showValue(const TermsCase& c, std::ostream& os) {
  os << name(c.t) << ", " << kind_name(c.kind) << ", " << c.products.size() << " products";
  for (const auto& [a, b] : c.products) os << fmt::format("\n    {:a} * {:a}", a, b);
  if (c.bias) os << fmt::format("\n    + bias {:a}", *c.bias);
}

rc::Gen<TermsCase> terms_case(TermsOpts o) {
  return rc::gen::exec([o] {
    TermsCase c;
    c.t = *gen::dtype_of(o.types);
    const exact::FormatFacts F = exact::facts(exact::fmt_of(c.t));
    const int K = *gen::index(0, o.max_products + 1);
    c.kind = *gen::weighted<Kind>({{3, Kind::Narrow}, {3, Kind::Wide}, {2, Kind::Underflow}, {3, Kind::Cancel},
                                   {2, Kind::NearZero}, {2, Kind::Absorb}, {1, Kind::Zeros}, {3, Kind::Mixed}});
    const bool with_bias = *gen::index(0, 3) == 0;
    const int cap = factor_exponent_cap(c.t, K + 1);
    const int sub = F.emin - F.frac_bits;
    auto factor = [&](Kind k) -> double {
      switch (k) {
        case Kind::Wide: return *value_in(c.t, sub, cap);
        case Kind::Underflow: return *value_in(c.t, std::max(sub, F.emin / 2 - F.p / 2 - 4), F.emin / 2 + 4);
        case Kind::Zeros: return *gen::index(0, 3) ? (*gen::index(0, 2) ? 0.0 : -0.0) : *value_in(c.t, -2, 2);
        default: return *value_in(c.t, -3, std::min(3, cap));
      }
    };
    auto mixed = [&] { return *gen::one_of<Kind>({Kind::Narrow, Kind::Wide, Kind::Underflow, Kind::Zeros}); };
    switch (c.kind) {
      case Kind::Cancel: {  // t and −t, shuffled: the ideal is 0 (or the few extra terms)
        std::vector<std::pair<double, double>> half;
        for (int k = 0; k < K / 2; ++k) half.push_back({factor(mixed()), factor(Kind::Narrow)});
        for (const auto& [a, b] : half) {
          c.products.push_back({a, b});
          if (*gen::index(0, 2)) c.products.push_back({-a, b});
          else c.products.push_back({a, -b});
        }
        if (K % 2) c.products.push_back({factor(Kind::Narrow), factor(Kind::Narrow)});
        const auto perm = *gen::permutation(c.products.size());
        std::vector<std::pair<double, double>> shuffled;
        for (std::size_t i : perm) shuffled.push_back(c.products[i]);
        c.products = shuffled;
        break;
      }
      case Kind::Absorb: {  // one term near 1, the others near u_T / 2
        if (K > 0) c.products.push_back({*value_in(c.t, 0, 0), 1.0});
        for (int k = 1; k < K; ++k) c.products.push_back({*value_in(c.t, -F.p - 1, -F.p + 1), *value_in(c.t, 0, 0)});
        break;
      }
      default: {
        for (int k = 0; k < K; ++k) {
          const Kind kk = c.kind == Kind::Mixed ? mixed() : c.kind == Kind::NearZero ? Kind::Narrow : c.kind;
          c.products.push_back({factor(kk), factor(kk == Kind::Wide ? Kind::Narrow : kk)});
        }
      }
    }
    if (with_bias) c.bias = factor(c.kind == Kind::Wide || c.kind == Kind::Underflow ? c.kind : Kind::Narrow);
    if (c.kind == Kind::NearZero && !c.products.empty()) {  // the last product cancels the others, to T's precision
      Exact s;
      for (std::size_t k = 0; k + 1 < c.products.size(); ++k) {
        const double f[2] = {c.products[k].first, c.products[k].second};
        s.add_product(f, 2);
      }
      if (c.bias) s.add(*c.bias);
      c.products.back() = {-s.round_to(exact::fmt_of(c.t)), 1.0};
    }
    // NaN and infinite factors ([Acc.nonfinite])
    if (o.nonfinite && !c.products.empty()) {
      const int count = *gen::index(0, 4);
      for (int i = 0; i < count; ++i) {
        auto& pr = c.products[*gen::index<std::size_t>(0, c.products.size())];
        const double v = *gen::one_of<double>({INFINITY, -INFINITY, NAN, INFINITY, -INFINITY});
        (*gen::index(0, 2) ? pr.first : pr.second) = v;
      }
      if (c.bias && *gen::index(0, 6) == 0) c.bias = *gen::one_of<double>({INFINITY, -INFINITY, NAN});
    }
    // products near and beyond Ω_T / n ([Acc.overflow]): one factor near 2^emax, the other near 1
    if (o.near_overflow && c.t != DType::Double && !c.products.empty()) {
      const int count = *gen::index(1, static_cast<int>(c.products.size()) + 1);
      int lg = 0;
      while ((1 << lg) < static_cast<int>(c.products.size())) ++lg;
      for (int i = 0; i < count; ++i) {
        auto& pr = c.products[*gen::index<std::size_t>(0, c.products.size())];
        pr.first = *value_in(c.t, F.emax - lg - 2, F.emax);
        pr.second = *value_in(c.t, -2, 1);
      }
    }
    return c;
  });
}

namespace {
Tensor tensor_of_values(DType t, const Shape& shape, const std::vector<double>& v) {
  Tensor x(t, shape);
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(x, static_cast<std::int64_t>(k), exact::encode(t, v[k]));
  return x;
}
}  // namespace

Tensor through_operator(const TermsCase& c, int via) {
  const auto K = static_cast<std::int64_t>(c.products.size());
  std::vector<double> a, b;
  for (const auto& [x, y] : c.products) a.push_back(x), b.push_back(y);
  if (via == 2) {
    const Tensor X = tensor_of_values(c.t, {1, K, 1}, a), W = tensor_of_values(c.t, {1, K, 1}, b);
    const Tensor B = tensor_of_values(c.t, {1}, {c.bias.value_or(0.0)});
    return ops::conv(22, X, W, c.bias ? &B : nullptr, ops::ConvParams{});
  }
  const Tensor A = tensor_of_values(c.t, {1, K}, a), Bm = tensor_of_values(c.t, {K, 1}, b);
  if (via == 0 && !c.bias) return ops::matmul(13, A, Bm);
  const Tensor C = tensor_of_values(c.t, {1, 1}, {c.bias.value_or(0.0)});
  return ops::gemm(13, A, Bm, c.bias ? &C : nullptr, ops::GemmParams{});
}

rc::Gen<Tensor> tensor_in(DType t, const Shape& shape, int lo, int hi) {
  return rc::gen::exec([t, shape, lo, hi] {
    std::vector<double> v;
    for (std::int64_t k = 0; k < element_count(shape); ++k)
      v.push_back(*gen::index(0, 8) == 0 ? (*gen::index(0, 2) ? 0.0 : -0.0) : *value_in(t, lo, hi));
    return tensor_of_values(t, shape, v);
  });
}

}  // namespace sonnx::props::acc
