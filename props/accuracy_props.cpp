// Properties of spec/common/accuracy.md. The elements are built through the operators (MatMul of
// (1, K) by (K, 1), Gemm with a 1 × 1 C, Conv of (1, K, 1) by (1, K, 1) with a bias: their terms are the
// generated products, and their one output element's enclosure is Y.annex->at(0)); everything they are
// compared with is restated on the test side (gen/exact.hpp, gen/accuracy_model.hpp): the ideal s and
// S exactly (a fixed-point integer of 70 limbs), θ(D), U and B from the clauses' formulas in long
// double, the allowed set of [Acc.nonfinite] and [Acc.overflow], and the evaluations H allows in the
// IEEE arithmetic of each type (float16 and bfloat16 emulated from their layouts, binary32 and binary64
// on the machine, binary128 by __float128).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/accuracy.hpp"
#include "gen/accuracy_model.hpp"
#include "gen/computed_cases.hpp"
#include "gen/props.hpp"
#include "ops/conv.hpp"
#include "ops/gemm.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::accuracy_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

constexpr long double kMargin = 0x1p-30L;  // the reported radius may exceed B by this much (and e_o)

// The reported radius bounds the restated B from above, and exceeds it by at most 2^-30·B + e_o (the
// clause's acceptance margin is 2^-40·B + e_o, [Acc.verdict]) and the subnormal slack of 2^-1070.
void check_radius(const Model& m, const accuracy::Element& e, const std::string& where) {
  const long double lower = m.B * (1 - 0x1p-52L);
  PROP_EXPECT(e.radius >= lower, "{}: the reported radius {:a} is below the restated B = θ(D)·S + U = {:.17Lg} (θ(D) = {:.17Lg}, "
              "S = {:.17Lg}, U = {:.6Lg}, n = {}, D = {})",
              where, e.radius, m.B, m.theta, m.S, m.U, m.n, m.D);
  const long double upper = m.B_upper * (1 + kMargin) + m.eo + 0x1p-1070L;
  PROP_EXPECT(e.radius <= upper, "{}: the reported radius {:a} exceeds B·(1 + 2^-30) + e_o = {:.17Lg} (B = {:.17Lg}, e_o <= {:.6Lg})",
              where, e.radius, upper, m.B_upper, m.eo);
}

// r within the reported radius of s, exactly, and conforming by accuracy::judge.
void check_reported(DType t, const Model& m, const accuracy::Element& e, double r, const std::string& what) {
  Exact d = m.s;
  d.add(r, true);
  if (std::isfinite(r)) {
    PROP_EXPECT(d.abs_le(e.radius), "{} gives {:a}: |r - s| = {} exceeds the reported radius {:a}", what, r, d.abs().text(), e.radius);
  }
  const accuracy::Judgement j = accuracy::judge(t, e, r);
  PROP_EXPECT(j.conforms, "{} gives {:a}, which accuracy::judge refuses ({:.6g} of R = {:a})", what, r, j.fraction, e.radius);
}

bool has_subnormal_product(const TermsCase& c) {
  const long double lambda = constants(c.t).lambda;
  for (const auto& [a, b] : c.products)
    if (a != 0 && b != 0 && std::fabs(static_cast<long double>(a) * b) < lambda) return true;
  return false;
}

}  // namespace

TEST_CASE("[Acc.prop.sound] [Acc.bound] [Acc.bound.underflow] [Acc.hyp] every summation tree of the terms in IEEE arithmetic "
          "of T or of a wider format with or without fma lies within the reported radius and the restated B of s",
          "[accuracy][props]") {
  check("random products and a bias, random trees and formats: |r - s| <= R and <= θ(D)·S + U, R within 2^-30 of B + e_o", [] {
    const TermsCase c = *terms_case();
    const int via = *gen::index(0, 3);
    const Tensor Y = through_operator(c, via);
    RC_ASSERT(static_cast<bool>(Y.annex));
    const accuracy::Element e = Y.annex->at(0);
    const std::vector<VTerm> terms = c.terms();
    const Model m = restate(c.t, terms);
    RC_ASSERT(m.allowed == kFinite);  // by construction: no factor beyond Ω_T / (4n)
    check_radius(m, e, "the element");
    const Fmt T = exact::fmt_of(c.t);
    const int n = static_cast<int>(terms.size());
    std::vector<int> forward = identity_order(n), reverse(forward.rbegin(), forward.rend()), shuffled;
    for (std::size_t i : *gen::permutation(static_cast<std::size_t>(n))) shuffled.push_back(static_cast<int>(i));
    const auto splits = *rc::gen::container<std::vector<std::uint32_t>>(static_cast<std::size_t>(std::max(n, 1)),
                                                                       gen::index<std::uint32_t>(0, 1u << 30));
    const auto wider = exact::wider_formats(T);
    const Fmt F = *gen::one_of(wider);
    const Tree fwd = left_to_right(forward), rev = left_to_right(reverse), pw = pairwise(forward),
               rnd = random_splits(shuffled, splits), blk = blocked(shuffled, 8);
    struct Plan {
      const Tree* tree;
      Evaluation e;
    };
    std::vector<Plan> plans = {
        {&fwd, uniform(fwd, c.t, F, Mode::T, false, "left to right in T")},
        {&fwd, uniform(fwd, c.t, F, Mode::T, true, "left to right in T, fused")},
        {&rev, uniform(rev, c.t, F, Mode::F, true, "right to left in F, fused, rounded once")},
        {&pw, uniform(pw, c.t, F, Mode::T, false, "pairwise in T")},
        {&pw, uniform(pw, c.t, F, Mode::FT, true, "pairwise, each operation in F then T, fused")},
        {&rnd, uniform(rnd, c.t, F, Mode::F, false, "random splits of a random order in F")},
        {&rnd, uniform(rnd, c.t, F, Mode::T, false, "random splits of a random order, random formats and fusions")},
        {&blk, uniform(blk, c.t, F, Mode::T, false, "blocks of 8 of a random order, random formats and fusions")},
    };
    for (std::size_t p : {std::size_t{6}, std::size_t{7}})
      for (auto& op : plans[p].e.ops) {
        const int v = *gen::index(0, 6);
        op.mode = static_cast<Mode>(v % 3);
        op.fuse = v >= 3;
      }
    long double worst = 0;
    bool fused = false;
    for (const Plan& p : plans) {
      const double r = exact::to_double(evaluate(*p.tree, terms, p.e));
      const std::string what = fmt::format("{} ({} F = {}, via {})", p.e.name, name(c.t), exact::fmt_name(F),
                                           via == 0 && !c.bias ? "MatMul" : via == 2 ? "Conv" : "Gemm");
      PROP_EXPECT(std::isfinite(r), "{} gives {:a}: no evaluation may overflow here", what, r);
      check_reported(c.t, m, e, r, what);
      const Verdict v = within_bound(m, r);
      PROP_EXPECT(v.ok, "{} gives {:a}: {} (test side)", what, r, v.why);
      worst = std::max(worst, fraction_of_bound(m, r));
      fused = fused || any_fused(*p.tree, terms, p.e);
    }
    RC_TAG(name(c.t));
    RC_CLASSIFY(fused, "an fma used");
    RC_CLASSIFY(m.s.sign() == 0 && n > 0, "s = 0 exactly");
    RC_CLASSIFY(has_subnormal_product(c), "a product below λ_T");
    RC_CLASSIFY(worst > 0.25, "an evaluation beyond 1/4 of B");
    RC_CLASSIFY(n > 32, "more than 32 terms");
  });
}

TEST_CASE("[Acc.prop.tight] [Acc.bound] left-to-right summation in T of 1 and n - 1 terms u_T reaches (n - 1)/(n + 1) of the "
          "reported radius where n(n - 1)u_T <= 1/2 and the restated fraction for every n up to 200",
          "[accuracy][props]") {
  // The deterministic family: terms 1·1, u·1, ..., u·1. Each addition 1 + u is a tie rounded down to
  // the even 1, so r = 1 and |r - s| = (n - 1)·u_T exactly, while R = θ(n)·(1 + (n - 1)u) + U + e_o.
  // (n - 1)u / R is about (n - 1)/(n·(1 + 1.5(n - 1)u)): at least (n - 1)/(n + 1) when n(n - 1)u <= 1/2
  // (every n <= 200 for float and double, n <= 32 for float16, n <= 11 for bfloat16); a radius widened
  // by a factor 2 gives (n - 1)/(2n) < (n - 1)/(n + 1), and fails.
  int reached = 0, restated_only = 0;
  for (DType t : {DType::Float16, DType::BFloat16, DType::Float, DType::Double})
    for (int n = 2; n <= 200; ++n) {
      const long double u = constants(t).u;
      TermsCase c;
      c.t = t;
      c.products.push_back({1.0, 1.0});
      for (int k = 1; k < n; ++k) c.products.push_back({static_cast<double>(u), 1.0});
      const Tensor Y = through_operator(c, 0);
      const accuracy::Element e = Y.annex->at(0);
      const auto terms = c.terms();
      const Tree tree = left_to_right(identity_order(n));
      const double r = exact::to_double(evaluate(tree, terms, uniform(tree, t, exact::wider_formats(exact::fmt_of(t))[0], Mode::T, false, "")));
      INFO(name(t) << " n = " << n);
      REQUIRE(r == 1.0);  // every addition a tie, rounded to the even 1
      const long double error = (n - 1) * u;
      const long double fraction = error / e.radius;
      CHECK(fraction <= 1.0L);
      CHECK(accuracy::judge(t, e, r).conforms);
      const Model m = restate(t, terms);
      CHECK(fraction >= (error / (m.B + m.eo)) * (1 - 0x1p-30L));  // as tight as the restated B
      if (n * (n - 1) * u <= 0.5L) {
        CHECK(fraction >= static_cast<long double>(n - 1) / (n + 1));
        ++reached;
      } else {
        ++restated_only;
      }
    }
  INFO(reached << " (type, n) pairs reach (n - 1)/(n + 1), " << restated_only << " the restated fraction only");
  CHECK(reached > 400);
  check("random absorption-prone terms summed left to right in T: the fraction of R reached (reported), never above 1", [] {
    TermsOpts o;
    o.max_products = 48;
    TermsCase c = *terms_case(o);
    const Tensor Y = through_operator(c, c.bias ? 1 : 0);
    const accuracy::Element e = Y.annex->at(0);
    const auto terms = c.terms();
    const Tree tree = left_to_right(identity_order(static_cast<int>(terms.size())));
    const double r = exact::to_double(evaluate(tree, terms, uniform(tree, c.t, exact::wider_formats(exact::fmt_of(c.t))[0], Mode::T, false, "")));
    const accuracy::Judgement j = accuracy::judge(c.t, e, r);
    RC_ASSERT(j.conforms);
    RC_TAG(name(c.t));
    RC_CLASSIFY(j.fraction > 0.5, "beyond 1/2 of R");
    RC_CLASSIFY(j.fraction > 0.1, "beyond 1/10 of R");
    RC_CLASSIFY(j.fraction > 0.01, "beyond 1/100 of R");
  });
}

TEST_CASE("[Acc.prop.self] [Acc.run] the value run writes conforms to its own radius and lies within the restated B and e_o of the "
          "exact ideal for every element of random Conv Gemm and MatMul outputs of every float type",
          "[accuracy][props]") {
  check("every element of Y: accuracy::judge(annex, Y) conforms, |Y - s| <= B + e_o (test side), R bounds the restated B", [] {
    const Computed c = *any_computed();
    RC_CLASSIFY(c.Y.size() == 0, "empty Y");
    if (c.Y.size() == 0) return;  // nothing to judge (and no annex)
    RC_ASSERT(static_cast<bool>(c.Y.annex));
    int zero_terms = 0, underflow = 0;
    for (std::int64_t k = 0; k < c.Y.size(); ++k) {
      const auto& terms = c.terms[static_cast<std::size_t>(k)];
      const Model m = restate(c.t, terms, c.steps);
      const accuracy::Element e = c.Y.annex->at(k);
      const double y = exact::decode(c.t, bits_at(c.Y, k));
      const std::string where = fmt::format("{} Y[{}]", c.op, k);
      const accuracy::Judgement j = accuracy::judge(c.t, e, y);
      PROP_EXPECT(j.conforms, "{} = {:a} does not conform to its own radius {:a} (centre {:a} + {:a}, {:.6g} of R)", where, y,
                  e.radius, e.hi, e.lo, j.fraction);
      const Verdict v = within_bound(m, y, m.eo);
      PROP_EXPECT(v.ok, "{} = {:a}: {} (test side)", where, y, v.why);
      PROP_EXPECT(e.allowed == m.allowed, "{}: allowed {} reported, {} restated", where, allowed_text(e.allowed), allowed_text(m.allowed));
      if (m.allowed == kFinite) check_radius(m, e, where);
      zero_terms += terms.empty();
      underflow += std::fabs(y) < constants(c.t).lambda && y != 0;
    }
    RC_TAG(c.op);
    RC_TAG(name(c.t));
    RC_CLASSIFY(zero_terms > 0, "an element with no term");
    RC_CLASSIFY(underflow > 0, "a subnormal result");
  });
}

TEST_CASE("[Acc.prop.enclosure] [Acc.oracle] the oracle's centre hi + lo is within its reported e_o of the exact ideal",
          "[accuracy][props]") {
  check("random products and a bias through MatMul, Gemm or Conv: |ŝ - s| <= e_o, exactly", [] {
    const TermsCase c = *terms_case();
    const Tensor Y = through_operator(c, *gen::index(0, 3));
    const accuracy::Element e = Y.annex->at(0);
    const Model m = restate(c.t, c.terms());
    Exact d = m.s;
    d.add(e.hi, true);
    d.add(e.lo, true);
    PROP_EXPECT(d.abs_le(e.oracle), "|ŝ - s| = {} exceeds e_o = {:a} (ŝ = {:a} + {:a}, s = {})", d.abs().text(), e.oracle, e.hi, e.lo,
                m.s.text());
    RC_TAG(name(c.t));
    RC_TAG(kind_name(c.kind));
    RC_CLASSIFY(d.sign() != 0, "ŝ differs from s");
    RC_CLASSIFY(m.s.sign() == 0 && !c.products.empty(), "s = 0 exactly");
  });
  check("every finite element of random Conv, Gemm and MatMul outputs (alpha and beta steps included): |ŝ - s| <= e_o", [] {
    CaseOpts o;
    o.ranges = {Range::Cancel, Range::Wide, Range::Moderate};
    const Computed c = *any_computed(o);
    int differs = 0;
    for (std::int64_t k = 0; k < c.Y.size(); ++k) {
      const Model m = restate(c.t, c.terms[static_cast<std::size_t>(k)], c.steps);
      if (!m.finite_terms) continue;
      const accuracy::Element e = c.Y.annex->at(k);
      Exact d = m.s;
      d.add(e.hi, true);
      d.add(e.lo, true);
      PROP_EXPECT(d.abs_le(e.oracle), "{} Y[{}]: |ŝ - s| = {} exceeds e_o = {:a} (ŝ = {:a} + {:a}, s = {})", c.op, k,
                  d.abs().text(), e.oracle, e.hi, e.lo, m.s.text());
      differs += d.sign() != 0;
    }
    RC_TAG(c.op);
    RC_TAG(name(c.t));
    RC_CLASSIFY(differs > 0, "ŝ differs from s");
  });
}

TEST_CASE("[Acc.nonfinite] [Acc.overflow] [Acc.verdict] with NaN and infinite factors and sums near the overflow threshold the "
          "reported allowed set is the restated one and run's value and every evaluation in H are in it",
          "[accuracy][props]") {
  // Gemm float16, α = 0.5, A = [[2]], B = [[3]], C = [[+Inf]], β = 1: the terms 0.5·2·3 (three finite
  // factors) and +Inf (one factor). [Acc.nonfinite] 3: +Inf, and a NaN only if the finite terms can
  // overflow to -Inf (S⁻ = 0, P = (1 + v)·3² + η̄ far below Ω_T: they cannot) or a three-factor term
  // has an infinite factor (none has). So +Inf alone conforms: every order gives 3 + Inf = +Inf.
  {
    const DType t = DType::Float16;
    Tensor A(t, {1, 1}), B(t, {1, 1}), C(t, {1, 1});
    set_bits_at(A, 0, 0x4000), set_bits_at(B, 0, 0x4200), set_bits_at(C, 0, 0x7C00);  // 2, 3, +Inf
    ops::GemmParams p;
    p.alpha = 0.5;
    const Tensor Y = ops::gemm(13, A, B, &C, p);
    const auto terms = values_of(t, gemm_terms(A.shape(), B.shape(), &C.shape(), p, 0, 0), {&A, &B, &C}, 3.0);
    const Model m = restate(t, terms, 2);
    CHECK(static_cast<int>(m.allowed) == static_cast<int>(kPosInf));
    CHECK(bits_at(Y, 0) == 0x7C00);
    INFO("reported " << allowed_text(Y.annex->at(0).allowed));
    CHECK(static_cast<int>(Y.annex->at(0).allowed) == static_cast<int>(kPosInf));
  }
  check("NaN, ±Inf and near-overflow factors: allowed sets equal (but where a quantity is within 2^-30 of Ω_T), run's value and "
        "random evaluations conform",
        [] {
          TermsOpts o;
          o.max_products = 16;
          o.nonfinite = *gen::index(0, 3) > 0;
          o.near_overflow = !o.nonfinite || *gen::index(0, 2) == 0;
          const TermsCase c = *terms_case(o);
          const int via = *gen::index(0, 3);
          const Tensor Y = through_operator(c, via);
          const accuracy::Element e = Y.annex->at(0);
          const auto terms = c.terms();
          const Model m = restate(c.t, terms);
          const std::uint8_t mask = static_cast<std::uint8_t>(~m.ambiguous);
          PROP_EXPECT((e.allowed & mask) == (m.allowed & mask), "allowed {} reported, {} restated (ambiguous {})",
                      allowed_text(e.allowed), allowed_text(m.allowed), allowed_text(m.ambiguous));
          const double y = exact::decode(c.t, bits_at(Y, 0));
          const Verdict v = within_bound(m, y, m.eo);
          PROP_EXPECT(v.ok, "run writes {:a}: {}", y, v.why);
          // evaluations in H: random trees, random formats and fusions
          const int n = static_cast<int>(terms.size());
          std::vector<int> shuffled;
          for (std::size_t i : *gen::permutation(static_cast<std::size_t>(n))) shuffled.push_back(static_cast<int>(i));
          const auto splits = *rc::gen::container<std::vector<std::uint32_t>>(static_cast<std::size_t>(std::max(n, 1)),
                                                                             gen::index<std::uint32_t>(0, 1u << 30));
          const Tree trees[3] = {left_to_right(identity_order(n)), pairwise(shuffled), random_splits(shuffled, splits)};
          bool overflowed = false;
          for (const Tree& tree : trees) {
            Evaluation ev = uniform(tree, c.t, *gen::one_of(exact::wider_formats(exact::fmt_of(c.t))), Mode::T, false, "");
            for (auto& op : ev.ops) {
              const int k = *gen::index(0, 6);
              op.mode = static_cast<Mode>(k % 3);
              op.fuse = k >= 3;
            }
            const double r = exact::to_double(evaluate(tree, terms, ev));
            const accuracy::Judgement j = accuracy::judge(c.t, e, r);
            PROP_EXPECT(j.conforms, "an evaluation in H gives {:a}, refused (allowed {}, R = {:a})", r, allowed_text(e.allowed), e.radius);
            const Verdict w = within_bound(m, r);
            PROP_EXPECT(w.ok, "an evaluation in H gives {:a}: {} (test side)", r, w.why);
            overflowed = overflowed || (m.finite_terms && !std::isfinite(r));
          }
          RC_TAG(name(c.t));
          RC_TAG(allowed_text(m.allowed));
          RC_CLASSIFY(overflowed, "an evaluation overflowed");
          RC_CLASSIFY(m.ideal_beyond_range, "|s| >= Ω_T");
          RC_CLASSIFY(m.ambiguous != 0, "a flag within 2^-30 of Ω_T");
        });
  check("random Conv, Gemm and MatMul with NaN, infinite and near-overflow inputs: every element's allowed set is the restated "
        "one and run's value is in it",
        [] {
          CaseOpts o;
          o.ranges = {Range::Special};
          const Computed c = *any_computed(o);
          int nonfinite = 0, overflow = 0;
          for (std::int64_t k = 0; k < c.Y.size(); ++k) {
            const Model m = restate(c.t, c.terms[static_cast<std::size_t>(k)], c.steps);
            const accuracy::Element e = c.Y.annex->at(k);
            const std::uint8_t mask = static_cast<std::uint8_t>(~m.ambiguous);
            PROP_EXPECT((e.allowed & mask) == (m.allowed & mask), "{} Y[{}]: allowed {} reported, {} restated (ambiguous {})", c.op, k,
                        allowed_text(e.allowed), allowed_text(m.allowed), allowed_text(m.ambiguous));
            const double y = exact::decode(c.t, bits_at(c.Y, k));
            const Verdict v = within_bound(m, y, m.eo);
            PROP_EXPECT(v.ok, "{} Y[{}]: run writes {:a}: {}", c.op, k, y, v.why);
            nonfinite += !m.finite_terms;
            overflow += m.finite_terms && m.allowed != kFinite;
          }
          RC_TAG(c.op);
          RC_TAG(name(c.t));
          RC_CLASSIFY(nonfinite > 0, "a NaN or infinite term");
          RC_CLASSIFY(overflow > 0, "an overflow allowed");
        });
}

TEST_CASE("[Acc.prop.gamma] [Acc.bound] θ(D) is at most γ_D = Du/(1 - Du) whenever Du < 1 and the implementation's θ lies "
          "between the restated θ(D) and γ_D",
          "[accuracy][props]") {
  check("random T and D with D·u_T < 1: restated θ(D) <= γ_D, θ(D)·(1 - 2^-52) <= accuracy::theta(T, D) <= γ_D·(1 + 2^-40)", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Constants C = constants(t);
    const int p = C.p;
    // D up to the largest with D·u < 1 (2^p - 1), biased to small D and to D near 1/u
    const int bits = *gen::index(1, std::min(p, 40) + 1);
    std::int64_t D = *gen::index<std::int64_t>(1, (std::int64_t{1} << bits));
    if (*gen::index(0, 4) == 0 && p <= 24) D = (std::int64_t{1} << p) - *gen::index<std::int64_t>(1, 64);
    const long double Du = static_cast<long double>(D) * C.u;
    RC_PRE(Du < 1);
    const long double gamma = Du / (1 - Du);
    const long double th = theta(t, D);
    PROP_EXPECT(th <= gamma * (1 + 0x1p-60L), "{} D = {}: θ(D) = {:.20Lg} > γ_D = {:.20Lg}", name(t), D, th, gamma);
    const double impl = accuracy::theta(t, D);
    PROP_EXPECT(impl >= th * (1 - 0x1p-52L), "{} D = {}: accuracy::theta = {:a} is below the restated θ(D) = {:.20Lg}", name(t), D,
                impl, th);
    PROP_EXPECT(impl <= gamma * (1 + 0x1p-40L), "{} D = {}: accuracy::theta = {:a} exceeds γ_D = {:.20Lg}", name(t), D, impl, gamma);
    RC_TAG(name(t));
    RC_CLASSIFY(Du > 0.5L, "D·u > 1/2");
    RC_CLASSIFY(D >= (1 << 16), "D >= 2^16");
  });
}

namespace {
// |E| rounded up to a long double: the truncated value plus one unit of its 64th bit.
long double upper_abs(const Exact& e) {
  const long double a = std::fabs(e.approx());
  return a * (1 + 0x1p-62L);
}
}  // namespace

TEST_CASE("[Acc.prop.merged] [Acc.hyp] an addition multiplication or fma rounded to a wider format F then to T has a relative "
          "error at most v in the normal range of T and an absolute error at most η̄ below it",
          "[accuracy][props]") {
  check("x op y (and fma(x, y, z)) of T in F then T: |r - exact| <= v·|exact| (|exact| >= λ_T) or <= η̄ + v·|exact|", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Fmt T = exact::fmt_of(t), F = *gen::one_of(exact::wider_formats(T));
    const exact::FormatFacts ff = exact::facts(T);
    const Constants C = constants(t);
    const int range = *gen::index(0, 3);  // 0: moderate, 1: near the subnormal range, 2: wide
    auto draw = [&] {
      if (range == 0) return *value_in(t, -4, 4);
      if (range == 1) return *value_in(t, ff.emin / 2 - ff.p, ff.emin / 2 + 2);
      return *value_in(t, ff.emin - ff.frac_bits, ff.emax / 2 - 2);
    };
    const double x = draw(), y = draw(), z = range == 1 ? *value_in(t, ff.emin - ff.frac_bits, ff.emin + 2) : draw();
    const int op = *gen::index(0, 3);
    Exact e;
    Quad r;
    if (op == 0) {
      e.add(x), e.add(y);
      r = exact::round(T, exact::add(F, x, y));
    } else if (op == 1) {
      const double f[2] = {x, y};
      e.add_product(f, 2);
      r = exact::round(T, exact::mul(F, x, y));
    } else {
      const double f[2] = {x, y};
      e.add_product(f, 2);
      e.add(z);
      r = exact::round(T, exact::fma(F, x, y, z));
    }
    const double rd = exact::to_double(r);
    RC_ASSERT(std::isfinite(rd));
    Exact d = e;
    d.add(rd, true);
    const long double mag = upper_abs(e);
    const bool normal = !e.abs_le(std::nextafter(C.lambda, 0.0L));
    const long double bound = normal ? C.v * mag * (1 + 0x1p-60L) : C.eta + C.v * mag * (1 + 0x1p-60L);
    PROP_EXPECT(d.abs_le(bound), "{} {} in {} then T: {:a} {} {:a}{} = {} rounds to {:a}, error {} > {:.20Lg}", name(t),
                op == 0 ? "x + y" : op == 1 ? "x·y" : "fma(x, y, z)", exact::fmt_name(F), x, op == 0 ? "+" : "·", y,
                op == 2 ? fmt::format(" + {:a}", z) : "", e.text(), rd, d.abs().text(), bound);
    RC_TAG(name(t));
    RC_CLASSIFY(!normal, "below λ_T");
    RC_CLASSIFY(d.sign() != 0, "inexact");
  });
}

TEST_CASE("[Acc.prop.product] [Acc.bound.underflow] a product of two or three factors in any order with each multiplication "
          "rounded to T or F is within θ(e)·|p| + λ of the exact product with e = 1 or 2 and λ = e·η̄·((1 + v)M)^(e - 1)",
          "[accuracy][props]") {
  check("2 or 3 factors of T, a random order and format per multiplication: |r - p| <= θ(e)|p| + λ_k", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Fmt T = exact::fmt_of(t);
    const exact::FormatFacts ff = exact::facts(T);
    const Constants C = constants(t);
    const int f = *gen::index(2, 4);
    const bool tiny = *gen::index(0, 2) == 0;
    // (three double factors from 2^-700: their exact product stays inside the accumulator's window, 2^-2304)
    const int lowest = t == DType::Double && f == 3 ? -700 : ff.emin - ff.frac_bits;
    std::vector<double> x;
    for (int i = 0; i < f; ++i)
      x.push_back(tiny ? *value_in(t, lowest, ff.emin / 2 + 3) : *value_in(t, -(ff.emax / 4), ff.emax / 4));
    std::vector<int> order = identity_order(f);
    const auto perm = *gen::permutation(static_cast<std::size_t>(f));
    for (int i = 0; i < f; ++i) order[static_cast<std::size_t>(i)] = static_cast<int>(perm[static_cast<std::size_t>(i)]);
    const Fmt F = *gen::one_of(exact::wider_formats(T));
    Quad acc = x[static_cast<std::size_t>(order[0])];
    for (int i = 1; i < f; ++i) acc = op_mul(acc, x[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])], T, F,
                                             static_cast<Mode>(*gen::index(0, 3)));
    const double r = exact::to_double(exact::round(T, acc));
    RC_ASSERT(std::isfinite(r));
    Exact p;
    p.add_product(x.data(), f);
    Exact d = p;
    d.add(r, true);
    const VTerm term = make_term(t, x);
    RC_ASSERT(term.e == f - 1);
    long double lambda = term.e * C.eta;
    for (int i = 1; i < term.e; ++i) lambda *= (1 + C.v) * static_cast<long double>(term.M);
    const long double bound = theta(t, term.e) * upper_abs(p) * (1 + 0x1p-58L) + lambda;
    PROP_EXPECT(d.abs_le(bound), "{} product of {} factors rounds to {:a}, error {} > θ(e)|p| + λ = {:.20Lg} (p = {})", name(t), f, r,
                d.abs().text(), bound, p.text());
    RC_TAG(name(t));
    RC_CLASSIFY(f == 3, "three factors");
    RC_CLASSIFY(tiny, "factors near the subnormal range");
  });
}

namespace {

Tensor f32(const Shape& shape, const std::vector<float>& v) { return make_tensor<float>(shape, v); }

// x rounded to TF32: 10 fraction bits, binary32's exponent range (normal x), to nearest, ties to even.
double tf32(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  int E = 0;
  std::frexp(std::fabs(x), &E);
  const double scaled = std::ldexp(std::fabs(x), 11 - E);  // 11 significant bits above the point
  double n = std::floor(scaled);
  const double rest = scaled - n;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(n, 2.0) == 1.0)) n += 1;
  return std::copysign(std::ldexp(n, E - 11), x);
}

// The element's terms summed left to right in float, each term first computed by `term`.
template <class F>
double float_sum(const std::vector<VTerm>& terms, F term) {
  float acc = 0.0f;
  for (std::size_t k = 0; k < terms.size(); ++k) acc = acc + term(k);
  return acc;
}

}  // namespace

TEST_CASE("[Acc.prop.accepted] [Acc.hyp] [Acc.verdict] forward reverse pairwise blocked random-tree sums fused or not in T and "
          "wider formats and Kahan's and the binary64 sum rounded once conform on random Conv Gemm and MatMul elements",
          "[accuracy][props]") {
  check("up to 4 elements per case, every strategy judged by the operator's annex and by the restated bound", [] {
    const Computed c = *any_computed();
    int judged = 0;
    const std::int64_t size = c.Y.size();
    for (int i = 0; i < 4 && size > 0; ++i) {
      const std::int64_t k = *gen::index<std::int64_t>(0, size);
      const auto& terms = c.terms[static_cast<std::size_t>(k)];
      judged += check_accepted(c.t, terms, c.Y.annex->at(k), restate(c.t, terms, c.steps), fmt::format("{} Y[{}]", c.op, k));
    }
    RC_TAG(c.op);
    RC_TAG(name(c.t));
    RC_CLASSIFY(judged == 0, "empty Y");
  });
}

TEST_CASE("[Acc.prop.accepted] [Acc.hyp] [Acc.verdict] a float sum accumulated in float16 or on TF32 inputs or without a term or "
          "without the bias does not conform on designed witnesses",
          "[accuracy][props]") {
  const DType t = DType::Float;
  // 1. Narrower accumulation. MatMul of A = [1, 2^-12 × 63] (1 × 64) by B = 64 ones: s = 1 + 63·2^-12
  //    = 1.015380859375; accumulated in float16 left to right, 1 + 2^-12 rounds to 1 every time (below
  //    half float16's unit 2^-10 at 1): r = 1, |r - s| = 0.0154 against R = θ(64)·S ≈ 3.9e-6.
  {
    std::vector<float> a(64, 0x1p-12f);
    a[0] = 1.0f;
    const Tensor A = f32({1, 64}, a), B = f32({64, 1}, std::vector<float>(64, 1.0f));
    const Tensor Y = ops::matmul(13, A, B);
    const auto terms = values_of(t, matmul_terms(A.shape(), B.shape(), {0, 0}), {&A, &B});
    Quad acc = 0.0;
    for (const VTerm& term : terms) acc = exact::add(Fmt::F16, acc, exact::round(Fmt::F16, term_value(term, Fmt::F32, Fmt::F64, Mode::T)));
    const double r = exact::to_double(acc);
    CHECK(r == 1.0);
    CHECK_FALSE(accuracy::judge(t, Y.annex->at(0), r).conforms);
    CHECK_FALSE(within_bound(restate(t, terms), r).ok);
    CHECK(accuracy::judge(t, Y.annex->at(0), 1 + 63 * 0x1p-12).conforms);  // the ideal itself does
  }
  // 2. TF32 inputs. A = [1 + 2^-12] × 4, B = 4 ones: TF32 rounds 1 + 2^-12 to 1 (below half its unit
  //    2^-10), so r = 4 where s = 4 + 2^-10: |r - s| = 9.8e-4 against R = θ(4)·S ≈ 9.5e-7.
  {
    const Tensor A = f32({1, 4}, std::vector<float>(4, 1 + 0x1p-12f)), B = f32({4, 1}, std::vector<float>(4, 1.0f));
    const Tensor Y = ops::matmul(13, A, B);
    const auto terms = values_of(t, matmul_terms(A.shape(), B.shape(), {0, 0}), {&A, &B});
    const double r = float_sum(terms, [&](std::size_t k) {
      return static_cast<float>(tf32(terms[k].factors[0].value)) * static_cast<float>(tf32(terms[k].factors[1].value));
    });
    CHECK(r == 4.0);
    CHECK_FALSE(accuracy::judge(t, Y.annex->at(0), r).conforms);
    CHECK_FALSE(within_bound(restate(t, terms), r).ok);
  }
  // 3. A dropped term. Gemm of A = [1, 2^-10, 3, -3] by four ones: dropping 2^-10·1 gives r = 1 where
  //    s = 1 + 2^-10: |r - s| = 9.8e-4 against R = θ(4)·(7 + 2^-10) ≈ 1.7e-6. The same with float16
  //    (R = θ(4)·S ≈ 0.0137 for S = 7 + 2^-10: the dropped term must then be 0.5, A = [1, 0.5, 3, -3]).
  for (const auto& [type, small] : {std::pair{DType::Float, 0x1p-10}, std::pair{DType::Float16, 0.5}}) {
    Tensor A(type, {1, 4}), B(type, {4, 1});
    const double av[4] = {1, small, 3, -3};
    for (int k = 0; k < 4; ++k) set_bits_at(A, k, exact::encode(type, av[k])), set_bits_at(B, k, exact::encode(type, 1.0));
    const Tensor Y = ops::gemm(13, A, B, nullptr, ops::GemmParams{});
    auto terms = values_of(type, gemm_terms(A.shape(), B.shape(), nullptr, ops::GemmParams{}, 0, 0), {&A, &B});
    const Model m = restate(type, terms);
    std::vector<VTerm> kept = {terms[0], terms[2], terms[3]};
    const Tree tree = left_to_right(identity_order(3));
    const double r = exact::to_double(evaluate(tree, kept, uniform(tree, type, Fmt::F64, Mode::T, false, "")));
    INFO(name(type));
    CHECK(r == 1.0);
    CHECK_FALSE(accuracy::judge(type, Y.annex->at(0), r).conforms);
    CHECK_FALSE(within_bound(m, r).ok);
  }
  // 4. A dropped bias. Conv of X = [1, 2, 3] (1, 1, 3) by W = [1, -1] (1, 1, 2) with B = [0.5]: Y[0] =
  //    1 - 2 + 0.5 = -0.5; without the bias r = -1: |r - s| = 0.5 against R = θ(3)·3.5 ≈ 6.3e-7 (float)
  //    and ≈ 0.0051 (float16).
  for (DType type : {DType::Float, DType::Float16}) {
    Tensor X(type, {1, 1, 3}), W(type, {1, 1, 2}), B(type, {1});
    for (int k = 0; k < 3; ++k) set_bits_at(X, k, exact::encode(type, k + 1.0));
    set_bits_at(W, 0, exact::encode(type, 1.0)), set_bits_at(W, 1, exact::encode(type, -1.0));
    set_bits_at(B, 0, exact::encode(type, 0.5));
    const ops::ConvParams p;
    const Tensor Y = ops::conv(22, X, W, &B, p);
    const ConvGeometry g = conv_geometry(X.shape(), W.shape(), p);
    auto terms = values_of(type, conv_terms(X.shape(), W.shape(), true, p, g, {0, 0, 0}), {&X, &W, &B});
    REQUIRE(terms.size() == 3);
    const Model m = restate(type, terms);
    terms.pop_back();  // the bias
    const Tree tree = left_to_right(identity_order(2));
    const double r = exact::to_double(evaluate(tree, terms, uniform(tree, type, Fmt::F64, Mode::T, true, "")));
    INFO(name(type));
    CHECK(r == -1.0);
    CHECK_FALSE(accuracy::judge(type, Y.annex->at(0), r).conforms);
    CHECK_FALSE(within_bound(m, r).ok);
    CHECK(accuracy::judge(type, Y.annex->at(0), -0.5).conforms);
  }
  check("the same four faults on random elements whose difference exceeds 4R are refused (tagged by fault)", [] {
    // A random float MatMul element; the fault is applied on the test side, and kept only when the
    // faulty result is more than 4R from the reported centre (then it must not conform).
    MatMulCase mc = *matmul_case({.types = {DType::Float}, .ranges = {Range::Moderate, Range::Cancel}});
    const Computed c = run(mc);
    RC_PRE(c.Y.size() > 0);
    const std::int64_t k = *gen::index<std::int64_t>(0, c.Y.size());
    const auto& terms = c.terms[static_cast<std::size_t>(k)];
    RC_PRE(!terms.empty());
    const accuracy::Element e = c.Y.annex->at(k);
    const int fault = *gen::index(0, 3);
    double r;
    if (fault == 0) {  // accumulated in float16
      Quad acc = 0.0;
      for (const VTerm& term : terms) acc = exact::add(Fmt::F16, acc, exact::round(Fmt::F16, term_value(term, Fmt::F32, Fmt::F64, Mode::T)));
      r = exact::to_double(acc);
    } else if (fault == 1) {  // TF32 inputs
      r = float_sum(terms, [&](std::size_t i) {
        return static_cast<float>(tf32(terms[i].factors[0].value)) * static_cast<float>(tf32(terms[i].factors[1].value));
      });
    } else {  // a dropped term
      const std::size_t drop = *gen::index<std::size_t>(0, terms.size());
      r = float_sum(terms, [&](std::size_t i) {
        return i == drop ? 0.0f : static_cast<float>(terms[i].factors[0].value) * static_cast<float>(terms[i].factors[1].value);
      });
    }
    const bool far = std::isfinite(r) && std::fabs(r - (e.hi + e.lo)) > 4 * e.radius;
        RC_PRE(far);
    RC_ASSERT(!accuracy::judge(DType::Float, e, r).conforms);
    RC_TAG(fault == 0 ? "float16 accumulation" : fault == 1 ? "TF32 inputs" : "a dropped term");
  });
}

namespace {

// ---- [Acc.divisor] restated on the test side --------------------------------------------------------
// c_d: 0 for d = 1; else 1 + max([1/d not a value of T], 2·[d not a value of T]), decided here by
// rounding (representable) and by the power of two against η_T.
int restated_cd(DType t, std::int64_t d) {
  if (d == 1) return 0;
  const bool d_in_t = representable(t, static_cast<double>(d)) && static_cast<long double>(d) < constants(t).omega;
  const long double r = 1.0L / static_cast<long double>(d);  // exact for a power of two
  const bool pow2 = (d & (d - 1)) == 0;
  const bool r_in_t = pow2 && r >= constants(t).eta;
  return 1 + std::max(r_in_t ? 0 : 1, d_in_t ? 0 : 2);
}

// a/b correctly rounded in f: binary128 division for F128, binary64 for F64; for the three short
// formats the binary64 quotient rounded to f (53 >= 2p + 2: the double rounding is innocuous).
Quad div_in(Fmt f, Quad a, Quad b) {
  if (f == Fmt::F128) return a / b;
  const double q = static_cast<double>(a) / static_cast<double>(b);
  return f == Fmt::F64 ? Quad(q) : exact::round(f, Quad(q));
}
// fl_f(d) and fl_f(1/d) (1/d in binary128, then rounded: 113 >= 2·53 + 2).
Quad divisor_in(Fmt f, std::int64_t d) { return exact::round(f, Quad(d)); }
Quad reciprocal_in(Fmt f, std::int64_t d) { return exact::round(f, Quad(1) / Quad(d)); }

// [Acc.divisor] the ways H allows in format g: divide by fl_g(d) (not when it overflows), multiply by
// fl_g(1/d) (not when it is below λ_T and not a value of T: float16, d > 2^14 not a power of two).
bool divide_allowed(Fmt g, std::int64_t d) { return !exact::is_inf(divisor_in(g, d)); }
bool multiply_allowed(DType t, Fmt g, std::int64_t d) {
  const Quad r = reciprocal_in(g, d);
  return g != exact::fmt_of(t) || r >= Quad(constants(t).lambda) || Quad(1) / Quad(d) == r;
}
Quad apply_divisor(bool multiply, Fmt g, Quad a, std::int64_t d) {
  return multiply ? exact::mul(g, a, reciprocal_in(g, d)) : div_in(g, a, divisor_in(g, d));
}

struct DivisorCase {
  DType t = DType::Float;
  std::vector<double> x;  // values of T
  std::int64_t d = 1;
};

rc::Gen<DivisorCase> divisor_case() {
  return rc::gen::exec([] {
    DivisorCase c;
    c.t = *gen::one_of(std::vector<DType>{DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const int n = *gen::index(1, 49);
    const exact::FormatFacts F = exact::facts(exact::fmt_of(c.t));
    const int cap = factor_exponent_cap(c.t, n);
    const int kind = *gen::index(0, 4);
    const int lo = kind == 0 ? F.emin - F.frac_bits : kind == 1 ? -4 : -10, hi = kind == 1 ? 4 : cap;
    for (int k = 0; k < n; ++k) c.x.push_back(*value_in(c.t, lo, hi));
    if (kind == 3) {  // cancellation: the values and their negations, the largest first or last
      const std::size_t half = c.x.size();
      for (std::size_t k = 0; k < half; ++k) c.x.push_back(-c.x[k]);
      std::sort(c.x.begin(), c.x.end(), [](double a, double b) { return std::fabs(a) > std::fabs(b); });
      if (*gen::index(0, 2) == 1) std::reverse(c.x.begin(), c.x.end());
    }
    const auto size = static_cast<std::int64_t>(c.x.size());
    const std::int64_t listed = *gen::one_of(std::vector<std::int64_t>{2, 3, 7, 10, 1000, 1024, 2049, 4097, 16385, 65537, 1 << 20,
                                                                            (std::int64_t{1} << 24) + 1, 123456789});
    c.d = *gen::index(0, 3) == 0 ? listed : size + *gen::index<std::int64_t>(0, 3);  // Mean: d = n; a pool: d >= n
    return c;
  });
}

}  // namespace

TEST_CASE("[Acc.prop.divisor] [Acc.divisor] [Acc.bound] sums divided by fl(d), multiplied by fl(1/d), or their terms divided "
          "first, in T and in F, lie within the reported radius and the restated bound of the exact (1/d)·Σ x_k",
          "[accuracy][props]") {
  check("random values, d = n, n + 1, n + 2 or listed: every way of [Acc.divisor] conforms; the radius is the restated B", [] {
    const DivisorCase c = *divisor_case();
    const int n = static_cast<int>(c.x.size());
    const int cd = restated_cd(c.t, c.d);
    // the oracle: the values accumulated, then divided
    accuracy::Accumulator acc(c.t);
    for (double v : c.x) acc.add_value(v);
    acc.divide(c.d);
    const accuracy::Element e = accuracy::enclose(c.t, acc.result(0, 0, 1.0, n, accuracy::divisor_roundings(c.t, c.d), 2));
    RC_ASSERT(e.allowed == accuracy::kFinite);
    // the restated model: terms x_k of rounding count c_d; S, B of the divided terms are those of the
    // undivided ones over d (θ and U do not depend on the values' scale)
    std::vector<VTerm> terms;
    for (double v : c.x) terms.push_back(VTerm{{Factor{v, false}}, false, cd, 1.0, 0.0});
    const Model m = restate(c.t, terms, 2);
    const long double dl = static_cast<long double>(c.d);
    const long double B = m.theta * (m.S / dl) + m.U;
    PROP_EXPECT(e.radius >= B * (1 - 0x1p-52L), "the radius {:a} is below the restated B = {:.17Lg} (n = {}, d = {}, c_d = {})",
                e.radius, B, n, c.d, cd);
    PROP_EXPECT(e.radius <= B * (1 + kMargin) + m.eo / dl + 0x1p-1060L, "the radius {:a} exceeds B(1 + 2^-30) + e_o = {:.17Lg}",
                e.radius, B * (1 + kMargin) + m.eo / dl);
    // |d·r − Σx| <= d·bound, exactly
    auto within = [&](double r, double bound) {
      Exact diff = m.s;
      const double f[2] = {r, static_cast<double>(c.d)};
      diff.add_product(f, 2, true);
      Exact lim;
      const double g[2] = {bound, static_cast<double>(c.d)};
      lim.add_product(g, 2);
      return diff.compare_abs(lim) <= 0;
    };
    // [Acc.prop.enclosure] after the division: |ŝ − s| <= e_o
    {
      Exact diff = m.s;
      for (double part : {e.hi, e.lo}) {
        const double f[2] = {part, static_cast<double>(c.d)};
        diff.add_product(f, 2, true);
      }
      Exact lim;
      const double g[2] = {e.oracle, static_cast<double>(c.d)};
      lim.add_product(g, 2);
      PROP_EXPECT(diff.compare_abs(lim) <= 0, "|ŝ − s| exceeds e_o = {:a} (ŝ = {:a} + {:a}, d = {})", e.oracle, e.hi, e.lo, c.d);
    }
    const Fmt T = exact::fmt_of(c.t);
    const Fmt F = *gen::one_of(exact::wider_formats(T));
    std::vector<int> order;
    for (std::size_t i : *gen::permutation(static_cast<std::size_t>(n))) order.push_back(static_cast<int>(i));
    const Tree fwd = left_to_right(identity_order(n)), pw = pairwise(order), half_a = left_to_right(identity_order(n / 2));
    int judged = 0;
    auto judge = [&](double r, const std::string& what) {
      ++judged;
      PROP_EXPECT(std::isfinite(r), "{} gives {:a}: no evaluation may overflow here", what, r);
      PROP_EXPECT(within(r, e.radius), "{} gives {:a}: |r − s| exceeds the reported radius {:a} (n = {}, d = {}, {})", what, r, e.radius,
                  n, c.d, name(c.t));
      PROP_EXPECT(accuracy::judge(c.t, e, r).conforms, "{} gives {:a}, which accuracy::judge refuses", what, r);
      PROP_EXPECT(within(r, static_cast<double>(B * (1 + 0x1p-52L))), "{} gives {:a}: |r − s| exceeds the restated B = {:.17Lg}", what, r, B);
    };
    for (const bool multiply : {false, true}) {
      const std::string way = multiply ? "times fl(1/d)" : "divided by fl(d)";
      for (const Fmt g : {T, F}) {
        if (multiply ? !multiply_allowed(c.t, g, c.d) : !divide_allowed(g, c.d)) continue;
        const bool in_t = g == T;
        const Mode mode = in_t ? Mode::T : Mode::F;
        const std::string where = in_t ? "in T" : fmt::format("in F = {}", exact::fmt_name(F));
        // the sum, then the factor
        for (const Tree* tree : {&fwd, &pw}) {
          const Quad sum = evaluate(*tree, terms, uniform(*tree, c.t, F, mode, false, ""), in_t);
          judge(static_cast<double>(exact::round(T, apply_divisor(multiply, g, sum, c.d))),
                fmt::format("the {} sum {}, {}", tree == &fwd ? "forward" : "pairwise", where, way));
        }
        // each term first, then the sum
        std::vector<VTerm> divided = terms;
        for (VTerm& term : divided) term.factors[0].value = static_cast<double>(apply_divisor(multiply, g, Quad(term.factors[0].value), c.d));
        if (!in_t) {  // values of F summed in F: F128 holds no double; evaluate the sum by hand
          Quad s = 0;
          for (int k : order) s = exact::add(g, s, apply_divisor(multiply, g, Quad(terms[static_cast<std::size_t>(k)].factors[0].value), c.d));
          judge(static_cast<double>(exact::round(T, s)), fmt::format("each term {} then summed in a random order {}", way, where));
        } else {
          const Quad sum = evaluate(pw, divided, uniform(pw, c.t, F, Mode::T, false, ""), true);
          judge(static_cast<double>(sum), fmt::format("each term {} then summed pairwise {}", way, where));
        }
        // two partial sums, each with the factor, then added
        if (n >= 2 && in_t) {
          std::vector<VTerm> first(terms.begin(), terms.begin() + n / 2), second(terms.begin() + n / 2, terms.end());
          const Tree t2 = left_to_right(identity_order(n - n / 2));
          const Quad a = apply_divisor(multiply, g, evaluate(half_a, first, uniform(half_a, c.t, F, Mode::T, false, ""), true), c.d);
          const Quad b = apply_divisor(multiply, g, evaluate(t2, second, uniform(t2, c.t, F, Mode::T, false, ""), true), c.d);
          judge(static_cast<double>(exact::add(T, a, b)), fmt::format("two halves summed and {} {}, then added", way, where));
        }
      }
    }
    // [Acc.prop.self] run's value
    const double run_value = exact::decode(c.t, accuracy::run_bits(c.t, e));
    judge(run_value, "run's value fl_T(ŝ)");
    RC_TAG(name(c.t));
    RC_CLASSIFY(cd == 0, "c_d = 0");
    RC_CLASSIFY(cd == 1, "c_d = 1");
    RC_CLASSIFY(cd == 2, "c_d = 2");
    RC_CLASSIFY(cd == 3, "c_d = 3");
    RC_CLASSIFY(m.s.sign() == 0, "s = 0 exactly");
    RC_CLASSIFY(judged < 6, "fewer ways allowed");
  });
}

TEST_CASE("[Acc.divisor] [Acc.overflow] a float16 mean of 60000 and 60000 may be +Inf (the sum before the division overflows), "
          "and its finite value 60000 conforms",
          "[accuracy][props]") {
  accuracy::Accumulator acc(DType::Float16);
  acc.add_value(60000), acc.add_value(60000);
  acc.divide(2);
  const accuracy::Element e = accuracy::enclose(DType::Float16, acc.result(0, 0, 1.0, 2, accuracy::divisor_roundings(DType::Float16, 2), 2));
  // in float16: 60000 + 60000 = +Inf (120000 >= Ω = 65520), +Inf / 2 = +Inf: an evaluation H allows
  const Quad sum = exact::add(Fmt::F16, 60000.0, 60000.0);
  CHECK(exact::is_inf(sum));
  CHECK(accuracy::judge(DType::Float16, e, static_cast<double>(sum / 2)).conforms);
  CHECK(accuracy::judge(DType::Float16, e, 60000.0).conforms);
  CHECK_FALSE(accuracy::judge(DType::Float16, e, -std::numeric_limits<double>::infinity()).conforms);
  CHECK_FALSE(accuracy::judge(DType::Float16, e, std::numeric_limits<double>::quiet_NaN()).conforms);
  // 30000 and 30000: the sum 60000 stays finite, and (1 + θ(2))·60000 < Ω: no infinity
  accuracy::Accumulator small(DType::Float16);
  small.add_value(30000), small.add_value(30000);
  small.divide(2);
  const accuracy::Element f = accuracy::enclose(DType::Float16, small.result(0, 0, 1.0, 2, 1, 2));
  CHECK_FALSE(accuracy::judge(DType::Float16, f, std::numeric_limits<double>::infinity()).conforms);
  CHECK(accuracy::judge(DType::Float16, f, 30000.0).conforms);
}

}  // namespace sonnx::props::accuracy_props
