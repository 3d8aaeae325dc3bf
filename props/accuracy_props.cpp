// Properties of spec/common/accuracy.md. The elements are built through the operators (MatMul of
// (1, K) by (K, 1), Gemm with a 1 × 1 C, Conv of (1, K, 1) by (1, K, 1) with a bias: their terms are the
// generated products, and their one output element's enclosure is Y.annex->at(0)); everything they are
// compared with is restated on the test side (gen/exact.hpp, gen/accuracy_model.hpp): the ideal s and
// S exactly (a fixed-point integer of 70 limbs), θ(D), U and B from the clauses' formulas in long
// double, the allowed set of [Acc.nonfinite] and [Acc.overflow], and the evaluations H allows in the
// IEEE arithmetic of each type (float16 and bfloat16 emulated from their layouts, binary32 and binary64
// on the machine, binary128 by __float128).
#include <cmath>

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

}  // namespace sonnx::props::accuracy_props
