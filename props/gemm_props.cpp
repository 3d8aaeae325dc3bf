// Properties of spec/ops/gemm.md (float types). The terms of each element are restated in
// gen/accuracy_model.cpp from [Gemm.trans], [Gemm.c], [Gemm.scalars] and [Gemm.float.formula] (the
// factor bound M_ij of three-factor terms included); B is transposed on the test side, element by
// element; the evaluations of [Gemm.prop.bound] scale the products by α before the sum (each term
// α·a·b, [Acc.prop.accepted]) or after it (α·Σ a·b, then + β·c, fused or not).
#include <cmath>

#include "core/accuracy.hpp"
#include "gen/accuracy_model.hpp"
#include "gen/computed_cases.hpp"
#include "gen/props.hpp"
#include "ops/gemm.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::gemm_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

Tensor transposed(const Tensor& x) {
  const std::int64_t r = x.shape()[0], c = x.shape()[1];
  Tensor out(x.dtype(), {c, r});
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) set_bits_at(out, j * r + i, bits_at(x, i * c + j));
  return out;
}

void expect_same(const Tensor& Y, const Tensor& Z, const char* what) {
  RC_ASSERT(Y.shape() == Z.shape());
  for (std::int64_t k = 0; k < Y.size(); ++k) {
    PROP_EXPECT(bits_at(Y, k) == bits_at(Z, k), "Y[{}] = {} but {} gives {}", k, describe(Y.dtype(), bits_at(Y, k)), what,
                describe(Z.dtype(), bits_at(Z, k)));
    const accuracy::Element a = Y.annex->at(k), b = Z.annex->at(k);
    PROP_EXPECT(same_element(a, b), "Y[{}]: enclosure {} but {} gives {}", k, element_text(a), what, element_text(b));
  }
}

}  // namespace

TEST_CASE("[Gemm.prop.matmul] [Gemm.order] [MatMul.order] Gemm with alpha 1 and no C term and no transposes is MatMul on the same "
          "A and B bit for bit with the same enclosures",
          "[gemm][props]") {
  check("alpha = 1, transA = transB = 0, C absent or beta = 0: Gemm(A, B) = MatMul(A, B), annexes included", [] {
    CaseOpts o;
    o.ranges = {Range::Moderate, Range::Wide, Range::Cancel, Range::Special};
    GemmCase c = *gemm_case(o);
    c.p.alpha = 1;
    if (c.p.trans_a) c.A = transposed(c.A), c.p.trans_a = 0;
    if (c.p.trans_b) c.B = transposed(c.B), c.p.trans_b = 0;
    if (c.C) c.p.beta = 0;  // [Gemm.scalars] C is not read
    const Tensor Y = ops::gemm(c.version, c.A, c.B, c.C ? &*c.C : nullptr, c.p);
    const Tensor Z = ops::matmul(13, c.A, c.B);
    expect_same(Y, Z, "MatMul");
    RC_TAG(name(c.A.dtype()));
    RC_CLASSIFY(c.C.has_value(), "C given, beta = 0");
  });
}

TEST_CASE("[Gemm.prop.transpose] [Gemm.trans] Gemm with transB or transA on B or A equals Gemm without it on the matrix "
          "transposed on the test side bit for bit with the same enclosures",
          "[gemm][props]") {
  check("Gemm(A, B, transB = 1) = Gemm(A, Bᵀ, transB = 0), and likewise for A: outputs and annexes", [] {
    CaseOpts o;
    o.ranges = {Range::Moderate, Range::Wide, Range::Cancel, Range::Special};
    const GemmCase c = *gemm_case(o);
    const Tensor Y = ops::gemm(c.version, c.A, c.B, c.C ? &*c.C : nullptr, c.p);
    GemmCase d = c;
    if (d.p.trans_b) d.B = transposed(d.B), d.p.trans_b = 0;
    if (d.p.trans_a) d.A = transposed(d.A), d.p.trans_a = 0;
    const bool transposed = c.p.trans_a != 0 || c.p.trans_b != 0;
    RC_PRE(transposed);
    expect_same(Y, ops::gemm(d.version, d.A, d.B, d.C ? &*d.C : nullptr, d.p), "the untransposed Gemm");
    RC_TAG(name(c.A.dtype()));
    RC_CLASSIFY(c.p.trans_a != 0, "transA");
    RC_CLASSIFY(c.p.trans_b != 0, "transB");
  });
}

TEST_CASE("[Gemm.prop.bound] [Acc.prop.accepted] [Gemm.float.formula] [Gemm.scalars] every evaluation order of Gemm's terms with "
          "the products scaled by alpha before or after the sum conforms",
          "[gemm][props]") {
  // float16, α = 1, K = 0, C = [[64]], β = 1e-6f: a binary32 value below float16's normal range, which T
  // cannot represent, so the one term β·c has e_k = 2 ([Gemm.scalars], [Acc.terms]) and s = β·64 =
  // 6.39999998e-5. H converts β to float16 (17·2^-24, [Acc.hyp] 5) and multiplies in float16: r =
  // fl(17·2^-24·64) = 0x1.1p-14 = 6.4849854e-5, |r - s| = 8.5e-7. [Acc.bound.underflow] with M_k at least
  // max(1, |β|, |c|) = 64 gives U = 2η̄(1 + v)·64 = 7.6e-6 and B = θ(2)·S + U covers r; the conversion's
  // absolute error η̄/2, scaled by |c|, is what U's factor bound is for.
  {
    const DType t = DType::Float16;
    Tensor A(t, {1, 0}), B(t, {0, 1}), C(t, {1, 1});
    set_bits_at(C, 0, 0x5400);  // 64
    ops::GemmParams p;
    p.beta = static_cast<double>(1e-6f);
    const Tensor Y = ops::gemm(13, A, B, &C, p);
    const auto terms = values_of(t, gemm_terms(A.shape(), B.shape(), &C.shape(), p, 0, 0), {&A, &B, &C}, 1.0);
    REQUIRE(terms.size() == 1);
    REQUIRE(terms[0].e == 2);
    const Model m = restate(t, terms, 1);
    const double r = exact::to_double(term_value(terms[0], Fmt::F16, Fmt::F32, Mode::T));
    CHECK(r == 0x1.1p-14);
    CHECK(within_bound(m, r).ok);
    const accuracy::Element e = Y.annex->at(0);
    INFO("reported " << element_text(e) << ", restated B = " << static_cast<double>(m.B));
    CHECK(e.radius >= static_cast<double>(m.B));
    CHECK(accuracy::judge(t, e, r).conforms);
  }
  check("up to 4 elements: the terms alpha·a·b and beta·c by every strategy, and alpha·(Σ a·b) + beta·c in T, F, F then T, "
        "fused or not",
        [] {
          const GemmCase c = *gemm_case();
          const Computed r = run(c);
          const Fmt T = exact::fmt_of(r.t);
          int judged = 0;
          const GemmGeometry g = gemm_geometry(c.A.shape(), c.B.shape(), c.p);
          for (int i = 0; i < 4 && r.Y.size() > 0; ++i) {
            const std::int64_t k = *gen::index<std::int64_t>(0, r.Y.size());
            const auto& terms = r.terms[static_cast<std::size_t>(k)];
            const accuracy::Element e = r.Y.annex->at(k);
            const Model m = restate(r.t, terms, r.steps);
            const std::string where = fmt::format("Gemm Y[{}]", k);
            judged += check_accepted(r.t, terms, e, m, where);
            // α after the sum: σ = Σ_k a·b by a tree, then α·σ, then + β·c (or fma(β, c, α·σ))
            const auto op_terms = gemm_terms(c.A.shape(), c.B.shape(), c.C ? &c.C->shape() : nullptr, c.p, k / g.N, k % g.N);
            std::vector<VTerm> products;
            std::optional<VTerm> c_term;
            for (const OpTerm& t : op_terms) {
              if (t.members.size() == 2)
                products.push_back(make_term(r.t, {value_at(c.A, t.members[0].second), value_at(c.B, t.members[1].second)}));
              else
                c_term = values_of(r.t, {t}, {&c.A, &c.B, c.C ? &*c.C : nullptr})[0];
            }
            const Factor alpha{c.p.alpha, true};
            const int n = static_cast<int>(products.size());
            const Tree trees[2] = {left_to_right(identity_order(n)), pairwise(identity_order(n))};
            for (int which = 0; which < 2; ++which)
              for (Fmt F : exact::wider_formats(T))
                for (Mode mode : {Mode::T, Mode::F, Mode::FT})
                  for (bool fuse : {false, true}) {
                    const Tree& tree = trees[which];
                    const Evaluation ev = uniform(tree, r.t, F, mode, fuse, "");
                    Quad v = evaluate(tree, products, ev, mode != Mode::F);  // in F: σ stays in F
                    if (c.p.alpha == -1) v = -v;
                    else if (c.p.alpha != 1) v = op_mul(operand(alpha, T, mode), v, T, F, mode);
                    if (c_term) {
                      if (fuse && c_term->factors.size() == 2) {
                        const Quad beta = operand(c_term->factors[0], T, mode), cv = operand(c_term->factors[1], T, mode);
                        v = op_fma(c_term->negate ? -beta : beta, cv, v, T, F, mode);
                      } else {
                        v = op_add(v, term_value(*c_term, T, F, mode), T, F, mode);
                      }
                    }
                    const double y = exact::to_double(exact::round(T, v));
                    const std::string name = fmt::format("{}: α after the sum, {} {}, {}{}", where, which == 0 ? "forward" : "pairwise",
                                                         mode == Mode::T ? "in T" : mode == Mode::F ? "in F" : "F then T",
                                                         exact::fmt_name(F), fuse ? ", fused" : "");
                    const accuracy::Judgement j = accuracy::judge(r.t, e, y);
                    PROP_EXPECT(j.conforms, "{} gives {:a}, refused ({:.6g} of R; {})", name, y, j.fraction, element_text(e));
                    const Verdict v2 = within_bound(m, y);
                    PROP_EXPECT(v2.ok, "{} gives {:a}: {} (test side)", name, y, v2.why);
                    ++judged;
                  }
          }
          RC_TAG(name(r.t));
          RC_CLASSIFY(c.p.alpha != 1 && c.p.alpha != -1, "alpha a factor");
          RC_CLASSIFY(!representable(r.t, c.p.alpha) || (c.C && !representable(r.t, c.p.beta)), "an attribute T cannot represent");
          RC_CLASSIFY(c.C && c.p.beta == 0, "beta = 0");
          RC_CLASSIFY(judged == 0, "empty Y");
        });
}

}  // namespace sonnx::props::gemm_props
