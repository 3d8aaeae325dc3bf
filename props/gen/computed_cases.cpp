// Cases of MatMul, Gemm and Conv, their restated terms, and the check of [Acc.prop.accepted]
// (gen/computed_cases.hpp).
#include "gen/computed_cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include <fmt/format.h>

#include "gen/props.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::acc {

// [MatMul.v1] [MatMul.v9] [MatMul.v13] [Gemm.v1] .. [Gemm.v13] [Conv.v1] [Conv.v11] [Conv.v22]
std::vector<DType> float_types(const std::string& op, int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if ((op == "Conv" && version >= 22) || (op != "Conv" && version >= 13)) t.push_back(DType::BFloat16);
  return t;
}

const char* range_name(Range r) {
  switch (r) {
    case Range::Moderate: return "moderate";
    case Range::Wide: return "wide";
    case Range::Cancel: return "cancellation";
    default: return "NaN, infinities, near overflow";
  }
}

namespace {

std::vector<DType> usable(const std::vector<DType>& allowed, const std::vector<DType>& wanted) {
  std::vector<DType> out;
  for (DType t : allowed)
    if (std::find(wanted.begin(), wanted.end(), t) != wanted.end()) out.push_back(t);
  return out;
}

Tensor from_values(DType t, const Shape& shape, const std::vector<double>& v) {
  Tensor x(t, shape);
  for (std::size_t k = 0; k < v.size(); ++k) set_bits_at(x, static_cast<std::int64_t>(k), exact::encode(t, v[k]));
  return x;
}

// Binary32 attribute values: 1 and -1 (no factor), values every type holds, values float16 and bfloat16
// cannot hold (one conversion more, [Gemm.scalars]), 0.
std::vector<double> alphas() { return {1.0, 1.0, -1.0, 0.5, 2.0, 3.0, -0.75, static_cast<double>(0.1f), static_cast<double>(1e-6f), 0.0}; }
// 0x1p-22 · 1.25 = 5·2^-25 is 2.5 subnormal units of float16: its conversion rounds by half a unit.
std::vector<double> betas() {
  return {1.0, 1.0, -1.0, 0.5, 0.0, 2.0, static_cast<double>(0.1f), static_cast<double>(1e-6f), 5 * 0x1p-25, -3.0};
}

}  // namespace

rc::Gen<Tensor> tensor_of_range(DType t, const Shape& shape, Range range) {
  return rc::gen::exec([t, shape, range] {
    const exact::FormatFacts F = exact::facts(exact::fmt_of(t));
    const int cap = factor_exponent_cap(t, 64) - 2;  // 3-factor terms with |α| <= 3, up to 64 terms
    std::vector<double> pool;
    if (range == Range::Cancel)
      for (int i = 0; i < 3; ++i) pool.push_back(std::fabs(*value_in(t, -2, 2)));
    std::vector<double> v;
    for (std::int64_t k = 0; k < element_count(shape); ++k) {
      const int zero = *gen::index(0, 10);
      if (zero == 0) {
        v.push_back(*gen::index(0, 2) ? 0.0 : -0.0);
        continue;
      }
      switch (range) {
        case Range::Moderate: v.push_back(*value_in(t, -3, std::min(3, cap))); break;
        case Range::Wide: v.push_back(*value_in(t, F.emin - F.frac_bits, cap)); break;
        case Range::Cancel: {
          const double x = pool[*gen::index<std::size_t>(0, pool.size())];
          v.push_back(*gen::index(0, 2) ? -x : x);
          break;
        }
        default: {
          const int kind = *gen::index(0, 10);
          if (kind == 0) v.push_back(*gen::one_of<double>({NAN, INFINITY, -INFINITY}));
          else if (kind == 1 && t != DType::Double) v.push_back(*value_in(t, F.emax - 3, F.emax));
          else v.push_back(*value_in(t, -3, std::min(3, cap)));
        }
      }
    }
    return from_values(t, shape, v);
  });
}

void showValue(const MatMulCase& c, std::ostream& os) {
  os << "MatMul-" << c.version << " (" << range_name(c.range) << ")\n    A = " << describe(c.A) << "\n    B = " << describe(c.B);
}
void showValue(const GemmCase& c, std::ostream& os) {
  os << fmt::format("Gemm-{} ({}) alpha = {:a}, beta = {:a}, transA = {}, transB = {}, broadcast = {}", c.version,
                    range_name(c.range), c.p.alpha, c.p.beta, c.p.trans_a, c.p.trans_b, c.p.broadcast)
     << "\n    A = " << describe(c.A) << "\n    B = " << describe(c.B);
  if (c.C) os << "\n    C = " << describe(*c.C);
}
void showValue(const ConvCase& c, std::ostream& os) {
  const auto& w = c.p.window;
  os << fmt::format("Conv-{} ({}) group = {}, kernel_shape {}, strides {}, dilations {}, pads {}, auto_pad {}", c.version,
                    range_name(c.range), c.p.group, c.p.has_kernel_shape ? to_string(w.kernel_shape) : "absent",
                    w.has_strides ? to_string(w.strides) : "absent", w.has_dilations ? to_string(w.dilations) : "absent",
                    w.has_pads ? to_string(w.pads) : "absent", w.auto_pad)
     << "\n    X = " << describe(c.X) << "\n    W = " << describe(c.W);
  if (c.B) os << "\n    B = " << describe(*c.B);
}

rc::Gen<MatMulCase> matmul_case(CaseOpts o) {
  return rc::gen::exec([o] {
    MatMulCase c;
    c.version = *gen::one_of(kMatMulVersions);
    const DType t = *gen::dtype_of(usable(float_types("MatMul", c.version), o.types));
    c.range = *gen::one_of(o.ranges);
    auto dim = [] { return *gen::weighted<std::int64_t>({{1, 0}, {6, 1}, {4, 2}, {3, 3}, {2, 4}}); };
    std::int64_t M = dim(), N = dim();
    const std::int64_t K = *gen::index<std::int64_t>(0, 9);
    const int a_kind = *gen::index(0, 4), b_kind = *gen::index(0, 4);  // 0: a vector, 1: a matrix, 2-3: batched
    Shape batch;
    for (int r = *gen::index(0, 3); r > 0; --r) batch.push_back(*gen::index<std::int64_t>(1, 4));
    auto batch_of = [&](int kind) {  // some leading axes dropped, some dimensions 1: broadcastable by construction
      Shape b;
      if (kind < 2) return b;
      const std::size_t keep = *gen::index<std::size_t>(0, batch.size() + 1);
      for (std::size_t d = batch.size() - keep; d < batch.size(); ++d) b.push_back(*gen::index(0, 3) == 0 ? 1 : batch[d]);
      return b;
    };
    Shape a = batch_of(a_kind), b = batch_of(b_kind);
    std::int64_t batches = 1;
    for (auto x : a) batches *= x;
    for (auto x : b) batches *= x;
    if (batches * M * N > 48) M = std::min<std::int64_t>(M, 2), N = 1;
    if (a_kind == 0) a = {K};
    else a.push_back(M), a.push_back(K);
    if (b_kind == 0) b = {K};
    else b.push_back(K), b.push_back(N);
    c.A = *tensor_of_range(t, a, c.range);
    c.B = *tensor_of_range(t, b, c.range);
    return c;
  });
}

rc::Gen<GemmCase> gemm_case(CaseOpts o) {
  return rc::gen::exec([o] {
    GemmCase c;
    c.version = *gen::one_of(kGemmVersions);
    const DType t = *gen::dtype_of(usable(float_types("Gemm", c.version), o.types));
    c.range = *gen::one_of(o.ranges);
    auto dim = [] { return *gen::weighted<std::int64_t>({{1, 0}, {6, 1}, {4, 2}, {3, 3}, {2, 4}}); };
    const std::int64_t M = dim(), N = dim(), K = *gen::index<std::int64_t>(0, 9);
    c.p.trans_a = *gen::one_of<std::int64_t>({0, 0, 1, 1, 3});  // [Gemm.trans] any non-zero value transposes
    c.p.trans_b = *gen::one_of<std::int64_t>({0, 0, 1, 1, 2});
    c.p.alpha = *gen::one_of(alphas());
    c.p.beta = *gen::one_of(betas());
    const Shape a = c.p.trans_a ? Shape{K, M} : Shape{M, K};
    const Shape b = c.p.trans_b ? Shape{N, K} : Shape{K, N};
    c.A = *tensor_of_range(t, a, c.range);
    c.B = *tensor_of_range(t, b, c.range);
    // [Gemm.c] C: optional from version 11; exactly (M, N) in versions 1 and 6 unless broadcast = 1
    const bool optional = c.version >= 11;
    const int which = *gen::index(optional ? 0 : 1, 9);
    if (c.version < 7) c.p.broadcast = *gen::index(0, 2);
    const bool any_shape = c.version >= 7 || c.p.broadcast == 1;
    if (which > 0) {
      const std::vector<Shape> shapes = {{M, N}, {N}, {1, N}, {M, 1}, {1}, {}, {1, 1}, {M, N}};
      const Shape cs = any_shape ? shapes[static_cast<std::size_t>(which - 1)] : Shape{M, N};
      if (c.range != Range::Cancel && c.range != Range::Special && *gen::index(0, 2) == 0) {
        // C larger than the products (its term's factor bound is then |c|, [Acc.bound.underflow])
        const int hi = std::min(10, exact::facts(exact::fmt_of(t)).emax - 5);
        std::vector<double> v;
        for (std::int64_t k = 0; k < element_count(cs); ++k) v.push_back(*value_in(t, hi - 4, hi));
        c.C = from_values(t, cs, v);
      } else {
        c.C = *tensor_of_range(t, cs, c.range);
      }
    }
    return c;
  });
}

rc::Gen<ConvCase> conv_case(CaseOpts o) {
  return rc::gen::exec([o] {
    ConvCase c;
    c.version = *gen::one_of(kConvVersions);
    const DType t = *gen::dtype_of(usable(float_types("Conv", c.version), o.types));
    c.range = *gen::one_of(o.ranges);
    const std::size_t l = *gen::index<std::size_t>(1, 3);
    const std::int64_t G = *gen::one_of<std::int64_t>({1, 1, 2, 3});
    const std::int64_t Cg = *gen::weighted<std::int64_t>({{1, 0}, {5, 1}, {4, 2}, {3, 3}});
    const std::int64_t Mg = *gen::index<std::int64_t>(1, 3), N = *gen::index<std::int64_t>(1, 3);
    auto& w = c.p.window;
    w.auto_pad = *gen::weighted<std::string>({{4, "NOTSET"}, {2, "NOTSET "}, {1, "VALID"}, {1, "SAME_UPPER"}, {1, "SAME_LOWER"}});
    // "NOTSET" with pads (given, or sometimes spelled out as zeros), "NOTSET " without them
    const bool pads_given = w.auto_pad == "NOTSET";
    if (w.auto_pad == "NOTSET ") w.auto_pad = "NOTSET";
    const bool zero_pads = pads_given && *gen::index(0, 4) == 0;
    Shape x = {N, Cg * G}, k_shape = {Mg * G, Cg};
    std::vector<std::int64_t> pb(l), pe(l);
    for (std::size_t d = 0; d < l; ++d) {
      const std::int64_t k = *gen::index<std::int64_t>(1, 4), s = *gen::index<std::int64_t>(1, 4),
                         dil = *gen::index<std::int64_t>(1, 3);
      const std::int64_t e = (k - 1) * dil + 1;
      pb[d] = pads_given && !zero_pads ? *gen::index<std::int64_t>(0, l == 1 ? 4 : 3) : 0;  // a pad may reach the kernel
      pe[d] = pads_given && !zero_pads ? *gen::index<std::int64_t>(0, l == 1 ? 4 : 3) : 0;
      std::int64_t D;
      if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") D = *gen::index<std::int64_t>(1, 6);
      else {
        const std::int64_t low = std::max<std::int64_t>(1, e - pb[d] - pe[d]);  // [Conv.err.window] never refused
        D = *gen::index<std::int64_t>(low, low + (l == 1 ? 4 : 2));
      }
      x.push_back(D), k_shape.push_back(k);
      w.kernel_shape.push_back(k), w.strides.push_back(s), w.dilations.push_back(dil);
    }
    w.has_strides = *gen::index(0, 3) > 0 || std::any_of(w.strides.begin(), w.strides.end(), [](auto s) { return s != 1; });
    if (!w.has_strides) w.strides.clear();
    w.has_dilations = *gen::index(0, 3) > 0 || std::any_of(w.dilations.begin(), w.dilations.end(), [](auto s) { return s != 1; });
    if (!w.has_dilations) w.dilations.clear();
    w.has_pads = pads_given;
    if (w.has_pads) {
      w.pads = pb;
      w.pads.insert(w.pads.end(), pe.begin(), pe.end());
    }
    c.p.has_kernel_shape = *gen::index(0, 2) == 1;
    if (!c.p.has_kernel_shape) w.kernel_shape.clear();
    c.p.group = G;
    c.X = *tensor_of_range(t, x, c.range);
    c.W = *tensor_of_range(t, k_shape, c.range);
    if (*gen::index(0, 2)) c.B = *tensor_of_range(t, {Mg * G}, c.range);
    return c;
  });
}

Computed run(const MatMulCase& c) {
  Computed r;
  r.op = "MatMul";
  {
    std::ostringstream os;
    showValue(c, os);
    r.description = os.str();
  }
  r.t = c.A.dtype();
  r.Y = ops::matmul(c.version, c.A, c.B);
  const auto shape = matmul_shape(c.A.shape(), c.B.shape());
  RC_ASSERT(shape.has_value());
  RC_ASSERT(r.Y.shape() == *shape);
  for (std::int64_t k = 0; k < r.Y.size(); ++k)
    r.terms.push_back(values_of(r.t, matmul_terms(c.A.shape(), c.B.shape(), unravel(k, *shape)), {&c.A, &c.B}));
  return r;
}

Computed run(const GemmCase& c) {
  Computed r;
  r.op = "Gemm";
  {
    std::ostringstream os;
    showValue(c, os);
    r.description = os.str();
  }
  r.t = c.A.dtype();
  r.Y = ops::gemm(c.version, c.A, c.B, c.C ? &*c.C : nullptr, c.p);
  const GemmGeometry g = gemm_geometry(c.A.shape(), c.B.shape(), c.p);
  RC_ASSERT(r.Y.shape() == (Shape{g.M, g.N}));
  const bool c_term = c.C && c.p.beta != 0;
  r.steps = (c.p.alpha != 1 ? 1 : 0) + (c_term ? 1 : 0);
  for (std::int64_t i = 0; i < g.M; ++i)
    for (std::int64_t j = 0; j < g.N; ++j) {
      // [Gemm.float.formula] M_ij = max(1, |α|, max_k |A'[i, k]|, max_k |B'[k, j]|) over the finite factors
      double bound = std::max(1.0, std::fabs(c.p.alpha));
      const auto terms = gemm_terms(c.A.shape(), c.B.shape(), c.C ? &c.C->shape() : nullptr, c.p, i, j);
      auto finite_abs = [](double x) { return std::isfinite(x) ? std::fabs(x) : 0.0; };
      for (const OpTerm& term : terms)
        if (term.members.size() == 2)
          bound = std::max({bound, finite_abs(value_at(c.A, term.members[0].second)), finite_abs(value_at(c.B, term.members[1].second))});
      r.terms.push_back(values_of(r.t, terms, {&c.A, &c.B, c.C ? &*c.C : nullptr}, bound));
    }
  return r;
}

Computed run(const ConvCase& c) {
  Computed r;
  r.op = "Conv";
  {
    std::ostringstream os;
    showValue(c, os);
    r.description = os.str();
  }
  r.t = c.X.dtype();
  r.Y = ops::conv(c.version, c.X, c.W, c.B ? &*c.B : nullptr, c.p);
  const ConvGeometry g = conv_geometry(c.X.shape(), c.W.shape(), c.p);
  const Shape y = conv_shape(c.X.shape(), c.W.shape(), g);
  RC_ASSERT(r.Y.shape() == y);
  for (std::int64_t k = 0; k < r.Y.size(); ++k)
    r.terms.push_back(values_of(r.t, conv_terms(c.X.shape(), c.W.shape(), c.B.has_value(), c.p, g, unravel(k, y)),
                                {&c.X, &c.W, c.B ? &*c.B : nullptr}));
  return r;
}

rc::Gen<Computed> any_computed(CaseOpts o) {
  return rc::gen::exec([o] {
    switch (*gen::index(0, 3)) {
      case 0: return run(*matmul_case(o));
      case 1: return run(*gemm_case(o));
      default: return run(*conv_case(o));
    }
  });
}

void showValue(const Computed& c, std::ostream& os) { os << c.description; }

bool same_element(const accuracy::Element& a, const accuracy::Element& b) {
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return same(a.hi, b.hi) && same(a.lo, b.lo) && same(a.radius, b.radius) && same(a.bound, b.bound) && same(a.oracle, b.oracle) &&
         a.allowed == b.allowed;
}

std::string element_text(const accuracy::Element& e) {
  return fmt::format("centre {:a} + {:a}, R = {:a} (B = {:a}, e_o = {:a}), allowed {}", e.hi, e.lo, e.radius, e.bound, e.oracle,
                     allowed_text(e.allowed));
}

// ---- [Acc.prop.accepted] ----------------------------------------------------------------------------

int check_accepted(DType t, const std::vector<VTerm>& terms, const accuracy::Element& e, const Model& m,
                   const std::string& where) {
  const Fmt T = exact::fmt_of(t);
  const int n = static_cast<int>(terms.size());
  std::vector<int> forward = identity_order(n), reverse(forward.rbegin(), forward.rend()), shuffled;
  for (std::size_t i : *gen::permutation(static_cast<std::size_t>(n))) shuffled.push_back(static_cast<int>(i));
  const auto splits = *rc::gen::container<std::vector<std::uint32_t>>(static_cast<std::size_t>(std::max(n, 1)),
                                                                     gen::index<std::uint32_t>(0, 1u << 30));
  const std::vector<Fmt> wider = exact::wider_formats(T);
  struct Plan {
    Tree tree;
    Evaluation e;
  };
  std::vector<Plan> plans;
  auto add = [&](const Tree& tree, Fmt f, Mode mode, bool fuse, const std::string& name) {
    plans.push_back({tree, uniform(tree, t, f, mode, fuse, name)});
  };
  const Tree fwd = left_to_right(forward), rev = left_to_right(reverse), pw = pairwise(forward), blk = blocked(forward, 8);
  for (bool fuse : {false, true}) {
    const std::string f = fuse ? ", fused" : "";
    add(fwd, wider[0], Mode::T, fuse, "forward in T" + f);
    add(rev, wider[0], Mode::T, fuse, "reverse in T" + f);
    add(pw, wider[0], Mode::T, fuse, "pairwise in T" + f);
    add(blk, wider[0], Mode::T, fuse, "blocks of 8 in T" + f);
    for (Fmt F : wider) {
      add(fwd, F, Mode::F, fuse, fmt::format("forward in {}{}, rounded to T once", exact::fmt_name(F), f));
      add(pw, F, Mode::F, fuse, fmt::format("pairwise in {}{}, rounded to T once", exact::fmt_name(F), f));
      add(rev, F, Mode::FT, fuse, fmt::format("reverse, each operation in {} then rounded to T{}", exact::fmt_name(F), f));
    }
  }
  {  // a random tree over a random order, each operation's format and fusion drawn
    const Tree rnd = random_splits(shuffled, splits);
    Evaluation ev = uniform(rnd, t, *gen::one_of(wider), Mode::T, false, "random tree, random formats and fusions");
    for (auto& op : ev.ops) {
      const int v = *gen::index(0, 6);
      op.mode = static_cast<Mode>(v % 3);
      op.fuse = v >= 3;
    }
    plans.push_back({rnd, ev});
  }
  int judged = 0;
  auto judge = [&](double r, const std::string& name) {
    ++judged;
    const accuracy::Judgement j = accuracy::judge(t, e, r);
    PROP_EXPECT(j.conforms, "{}: {} gives {:a}, which does not conform: |r - ŝ| = {:.6g}, R = {:.6g} ({:.4g} of R), allowed {}",
                where, name, r, j.error, e.radius, j.fraction, allowed_text(e.allowed));
    const Verdict v = within_bound(m, r);
    PROP_EXPECT(v.ok, "{}: {} gives {:a}: {} (test side)", where, name, r, v.why);
  };
  for (const Plan& p : plans) judge(exact::to_double(evaluate(p.tree, terms, p.e)), p.e.name);
  judge(exact::to_double(kahan(terms, forward, T)), "Kahan's compensated sum in T");
  if (m.finite_terms) judge(m.s.round_to(T), "the ideal rounded once to T");
  return judged;
}

}  // namespace sonnx::props::acc
