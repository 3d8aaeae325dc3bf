// What the computing operators share (ops/computed.hpp): read it with spec/common/accuracy.md.
#include "ops/computed.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

namespace {

// An exact sum of doubles and of products of two doubles: Shewchuk's expansion arithmetic
// (non-overlapping components, TwoSum and TwoProduct), to tell an exact cancellation from a small sum
// ([Acc.situations]). Exact unless a product falls below 2^-969 (double factors only).
class ExactSum {
 public:
  void add(double x) {
    std::vector<double> out;
    double q = x;
    for (double e : parts_) {
      const double s = q + e, bb = s - q, err = (q - (s - bb)) + (e - bb);
      if (err != 0) out.push_back(err);
      q = s;
    }
    if (q != 0) out.push_back(q);
    parts_ = std::move(out);
  }
  void add_product(double a, double b) {
    const double p = a * b;
    add(std::fma(a, b, -p));
    add(p);
  }
  bool zero() const { return parts_.empty(); }

 private:
  std::vector<double> parts_;
};

double product_of(const TermFactors& f) {
  double p = 1;
  for (double x : f) p *= x;
  return p;
}

const Situation kCancelFirst{"Acc.bound", "cancellation: terms summing to 0, the largest first"};
const Situation kCancelLast{"Acc.bound", "cancellation: terms summing to 0, the largest last"};
const Situation kAbsorb{"Acc.bound", "absorption: one large term, every other below half its last place"};
const Situation kUnderflow{"Acc.bound.underflow", "products below the normal range"};
const Situation kZeros{"Acc.zero", "every term -0"};
const Situation kNan{"Acc.nonfinite", "a NaN factor"};
const Situation kInfinity{"Acc.nonfinite", "an infinite term"};
const Situation kBothInf{"Acc.nonfinite", "+Inf and -Inf terms"};
const Situation kOverflow{"Acc.overflow", "terms whose sum may overflow in some order"};
const Situation kPlain{"Acc.bound", ""};

std::string number(double x) { return fmt::format("{:.9g}", x); }

}  // namespace

std::uint64_t bits_in(DType t, double x) {
  switch (t) {
    case DType::Float16: return bits(std::isnan(x) ? float16{0x7E00} : *exact_float16(x));
    case DType::BFloat16: return bits(std::isnan(x) ? bfloat16{0x7FC0} : *exact_bfloat16(x));
    case DType::Float: return std::bit_cast<std::uint32_t>(static_cast<float>(x));
    default: return std::bit_cast<std::uint64_t>(x);
  }
}

double member_real(const NodeValues& v, const Member& m) {
  const Tensor& x = *v.inputs[m.input];
  return dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return real_value(x.values<T>()[static_cast<std::size_t>(m.offset)]);
    else return static_cast<double>(x.values<T>()[static_cast<std::size_t>(m.offset)]);
  });
}

// [Acc.hyp.ftz]
double flush_margin(const NodeValues& v, const Computation& c) {
  if (!c.function.empty()) return 0;  // [Elem.verdict] a function's element: no flush margin
  double L = 0, M = 1;
  std::vector<double> x;
  for (std::int64_t k = 0; k < c.terms; ++k) {
    const Term term = c.term(k);
    x.clear();
    for (const Member& m : term.factors) x.push_back(std::fabs(member_real(v, m)));
    for (const auto& [name, a] : term.scalars) x.push_back(std::fabs(a));
    if (!std::all_of(x.begin(), x.end(), [](double f) { return std::isfinite(f); })) continue;  // [Acc.nonfinite] decides
    for (std::size_t j = 0; j < x.size(); ++j) {
      double others = 1;  // the product of every factor but x_j (1 for a one-factor term)
      for (std::size_t i = 0; i < x.size(); ++i)
        if (i != j) others *= x[i];
      L += others;
      M = std::max(M, x[j]);
    }
  }
  return accuracy::flush_margin(v.output->dtype(), c.sums, L, M);
}

// [Acc.situations]
std::vector<Situation> accuracy_situations(DType t, const std::vector<TermFactors>& terms, const accuracy::Element& e) {
  std::vector<Situation> out;
  const accuracy::Format& f = accuracy::format_of(t);
  bool nan = false, pos = false, neg = false;
  std::vector<double> values;
  for (const auto& term : terms) {
    const double p = product_of(term);
    nan = nan || std::any_of(term.begin(), term.end(), [](double x) { return std::isnan(x); }) || std::isnan(p);
    pos = pos || p == INFINITY;
    neg = neg || p == -INFINITY;
    values.push_back(p);
  }
  if (nan) return {kNan};  // [Acc.nonfinite] 1
  if (pos && neg) return {kBothInf};  // [Acc.nonfinite] 2
  if (pos || neg) return {kInfinity};  // [Acc.nonfinite] 3
  out.push_back(kPlain);
  if (!values.empty() && std::all_of(values.begin(), values.end(), [](double p) { return p == 0 && std::signbit(p); }))
    out.push_back(kZeros);  // [Acc.zero]
  if (std::any_of(values.begin(), values.end(), [&](double p) { return p != 0 && std::fabs(p) < f.lambda; }))
    out.push_back(kUnderflow);  // [Acc.bound.underflow]
  if ((e.allowed & accuracy::kFinite) && (e.allowed & (accuracy::kPosInf | accuracy::kNegInf))) out.push_back(kOverflow);
  if (values.size() >= 3) {
    double largest = 0;
    for (double p : values) largest = std::max(largest, std::fabs(p));
    ExactSum sum;
    for (const auto& term : terms) {
      if (term.size() == 1) sum.add(term[0]);
      else if (term.size() == 2) sum.add_product(term[0], term[1]);
      else sum.add(product_of(term));  // three factors: classified on the binary64 product
    }
    if (largest > 0 && sum.zero()) {
      if (std::fabs(values.front()) == largest) out.push_back(kCancelFirst);
      if (std::fabs(values.back()) == largest) out.push_back(kCancelLast);
    }
    // absorption: the largest term's half-ulp in T bounds every other, and together they reach an ulp
    const auto big = std::max_element(values.begin(), values.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
    const double half = accuracy::ulp(t, *big) / 2;
    double rest = 0;
    bool small = true;
    for (auto it = values.begin(); it != values.end(); ++it)
      if (it != big) rest += std::fabs(*it), small = small && std::fabs(*it) <= half;
    if (largest > 0 && small && rest >= 2 * half) out.push_back(kAbsorb);
  }
  return out;
}

Decision computed_decision(const NodeValues& v, const std::vector<std::int64_t>& index, Computation c,
                           const std::string& parameters, const std::string& formula_clause,
                           std::vector<std::string> more_clauses, const std::vector<TermFactors>& terms) {
  Decision d;
  d.parameters = parameters;
  const Tensor& Y = *v.output;
  const DType t = Y.dtype();
  const accuracy::Element& e = c.element;
  // The set: every factor that is a member of an input, term by term (golden writes its witnesses there).
  std::vector<Member> members;
  for (std::int64_t k = 0; k < c.terms; ++k) {
    const Term term = c.term(k);
    members.insert(members.end(), term.factors.begin(), term.factors.end());
  }
  d.set.name = fmt::format("the factors of the {} term{} of {}, term by term", c.terms, c.terms == 1 ? "" : "s",
                           output_name(v, index));
  d.set.size = static_cast<std::int64_t>(members.size());
  d.set.member = [members](std::int64_t k) { return members[static_cast<std::size_t>(k)]; };
  const bool finite = e.allowed & accuracy::kFinite;
  if (!finite) d.clauses = {"Acc.nonfinite", formula_clause};
  else if (e.allowed & (accuracy::kPosInf | accuracy::kNegInf)) d.clauses = {formula_clause, "Acc.overflow", "Acc.bound"};
  else d.clauses = {formula_clause, "Acc.bound"};
  d.clauses.push_back("Acc.verdict");
  d.clauses.insert(d.clauses.end(), more_clauses.begin(), more_clauses.end());
  const std::int64_t offset = offset_of(index, row_major_strides(Y.shape()));
  const std::string y = output_name(v, index), value = element_text(Y, offset);
  const accuracy::Sums& s = c.sums;
  if (!finite)
    d.reason = fmt::format("{} = {} because {} of its {} terms {} ([Acc.nonfinite]): {}", y, value,
                           s.nan_term ? "one" : "some", c.terms,
                           s.nan_term ? "is a NaN (a NaN factor, or an infinity times a zero)"
                                      : s.pos_inf_term && s.neg_inf_term ? "are +Inf and -Inf" : "are infinite",
                           e.allowed == accuracy::kNan ? "every evaluation gives a NaN"
                           : (e.allowed & accuracy::kNan) ? "an evaluation gives that infinity, or a NaN where an overflow or a product "
                                                            "rounded to zero meets it"
                                                          : "every evaluation gives that infinity");
  else
    d.reason = fmt::format("{} = {}: {} terms of {}; ideal {} (oracle's error {:.3g}), S = Σ|t_k| = {:.9g}, D = {}, u = 2^-{}, "
                           "θ(D) = {:.6g}, B = θ(D)·S + U = {:.6g}, R = {:.6g}{}",
                           y, value, c.terms, c.formula, number(e.hi + e.lo), e.oracle, s.mag, s.depth,
                           accuracy::format_of(t).p, accuracy::theta(t, s.depth), e.bound, e.radius,
                           (e.allowed & (accuracy::kPosInf | accuracy::kNegInf)) ? "; an overflow may give an infinity [Acc.overflow]" : "");
  d.stop = "a computed value depends on every one of its terms: the chain stops here";
  d.situations = accuracy_situations(t, terms, e);
  // [Acc.run] the evaluation wrote fl_T(ŝ), and its annex the same enclosure
  if (element_bits(Y, offset) != accuracy::run_bits(t, e)) disagree(v, index);
  if (Y.annex) {
    const accuracy::Element a = Y.annex->at(offset);
    if (std::bit_cast<std::uint64_t>(a.hi) != std::bit_cast<std::uint64_t>(e.hi) ||
        std::bit_cast<std::uint64_t>(a.lo) != std::bit_cast<std::uint64_t>(e.lo) || a.radius != e.radius ||
        a.allowed != e.allowed)
      disagree(v, index);
  }
  d.computed = std::move(c);
  return d;
}

Decision integer_decision(const NodeValues& v, const std::vector<std::int64_t>& index, std::vector<Term> terms,
                          const std::string& formula, const std::string& parameters, const std::string& formula_clause,
                          std::uint64_t bits, bool wrapped) {
  Decision d;
  d.parameters = parameters;
  const Tensor& Y = *v.output;
  std::vector<Member> members;
  for (const Term& t : terms) members.insert(members.end(), t.factors.begin(), t.factors.end());
  d.set.name = fmt::format("the factors of the {} term{} of {}, term by term", terms.size(), terms.size() == 1 ? "" : "s",
                           output_name(v, index));
  d.set.size = static_cast<std::int64_t>(members.size());
  d.set.member = [members](std::int64_t k) { return members[static_cast<std::size_t>(k)]; };
  d.clauses = {formula_clause, "Acc.int"};
  const std::int64_t offset = offset_of(index, row_major_strides(Y.shape()));
  d.reason = fmt::format("{} = {}: the sum of {} products {} modulo 2^{}, as {}{}", output_name(v, index), element_text(Y, offset),
                         terms.size(), formula, 8 * info(Y.dtype()).size, name(Y.dtype()),
                         wrapped ? " (the exact sum is outside its range: it wraps around)" : "");
  d.stop = "a computed value depends on every one of its terms: the chain stops here";
  d.situations.push_back({formula_clause, ""});
  if (wrapped) d.situations.push_back({"Acc.int", "the exact sum outside the range of T (wrap-around)"});
  if (element_bits(Y, offset) != bits) disagree(v, index);
  Computation c;
  c.formula = formula;
  c.terms = static_cast<std::int64_t>(terms.size());
  c.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  d.computed = std::move(c);
  return d;
}

std::vector<Reach> integer_reaches(DType t, std::int64_t products, Source first, Source second,
                                   const std::vector<std::string>& names) {
  // the greatest value of T times 2 wraps (2·max is −2 for a signed T, max − 1 for an unsigned one)
  const int w = 8 * info(t).size;
  const std::uint64_t max = info(t).is_signed_int ? (std::uint64_t{1} << (w - 1)) - 1
                                                  : (w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
  std::vector<std::uint64_t> bits;
  std::vector<Source> sources;
  std::vector<std::string> member_names;
  for (std::int64_t k = 0; k < products; ++k) {
    bits.push_back(k == 0 ? max : 0), bits.push_back(k == 0 ? 2 : 1);
    sources.push_back(first), sources.push_back(second);
    member_names.push_back(names.at(0)), member_names.push_back(names.at(1));
  }
  std::vector<Reach> out;
  if (products >= 1)
    out.push_back(reach_by_given({"Acc.int", "the exact sum outside the range of T (wrap-around)"}, std::move(bits),
                                 static_cast<std::int64_t>(sources.size()), sources, member_names));
  else
    out.push_back(reach_by_shape({"Acc.int", "the exact sum outside the range of T (wrap-around)"}, false,
                                 "an element has no product"));
  return out;
}

namespace {
// Whether x is a value of T (finite, NaN or infinite alike).
bool representable(DType t, double x) {
  if (std::isnan(x) || std::isinf(x)) return true;
  switch (t) {
    case DType::Float16: return exact_float16(x).has_value();
    case DType::BFloat16: return exact_bfloat16(x).has_value();
    case DType::Float: return static_cast<double>(static_cast<float>(x)) == x;
    default: return true;
  }
}
}  // namespace

std::vector<FactorWitness> accuracy_witnesses(DType t, std::int64_t products, std::int64_t values, double alpha, double beta) {
  const accuracy::Format& f = accuracy::format_of(t);
  const std::int64_t n = products + values;
  std::vector<FactorWitness> out;
  // Term values t_k written as (t_k/α, 1) for a product, t_k/β for a one-factor term; every factor
  // written, or only the first product's first factor (`first_only`).
  auto from_terms = [&](const Situation& s, const std::vector<double>& terms, bool first_only = false) {
    FactorWitness w{s, {}, {}};
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = terms[static_cast<std::size_t>(k)];
      const double scale = k < products ? alpha : beta;
      const double factor = (std::isnan(x) || std::isinf(x) || first_only) ? x : x / scale;
      if (!std::isnan(x) && !std::isinf(x) && !first_only && (factor * scale != x || !representable(t, factor))) return;
      const bool written = !first_only || k == 0 || (k == 1 && s == kBothInf);
      if (k < products) w.values.push_back(factor), w.values.push_back(1.0), w.write.push_back(written), w.write.push_back(!first_only);
      else w.values.push_back(factor), w.write.push_back(!first_only);
    }
    out.push_back(std::move(w));
  };
  const double big = std::ldexp(1.0, f.p + 1);  // adding 1 to it in T is absorbed
  if (n >= 3 && n - 3 <= (std::int64_t{1} << f.p)) {
    std::vector<double> first(static_cast<std::size_t>(n), 1.0);
    first[0] = big, first[static_cast<std::size_t>(n - 2)] = -big, first[static_cast<std::size_t>(n - 1)] = -static_cast<double>(n - 3);
    from_terms(kCancelFirst, first);
    std::vector<double> last(static_cast<std::size_t>(n), 1.0);
    last[0] = -static_cast<double>(n - 3), last[static_cast<std::size_t>(n - 2)] = -big, last[static_cast<std::size_t>(n - 1)] = big;
    from_terms(kCancelLast, last);
  }
  if (n >= 3) {
    std::vector<double> absorb(static_cast<std::size_t>(n), f.u);  // u = half the last place of 1
    absorb[0] = 1.0;
    from_terms(kAbsorb, absorb);
  }
  if (products >= 1) {  // x = (1 + 2u)·2^-k in every product: with moderate factors, products below λ_T
    const int k = (static_cast<int>(std::ilogb(f.lambda)) - 2) / 2;  // 2k ≈ emin − 2
    const double x = std::ldexp(1 + 2 * f.u, k);
    FactorWitness w{kUnderflow, {}, {}};
    for (std::int64_t j = 0; j < products; ++j) w.values.push_back(x), w.values.push_back(x), w.write.push_back(true), w.write.push_back(false);
    for (std::int64_t j = 0; j < values; ++j) w.values.push_back(0.0), w.write.push_back(false);
    out.push_back(std::move(w));
  }
  if (n >= 1) from_terms(kZeros, std::vector<double>(static_cast<std::size_t>(n), -0.0));
  if (n >= 1) {  // a NaN, an infinity: the first factor alone
    std::vector<double> nan(static_cast<std::size_t>(n), 1.0);
    nan[0] = std::numeric_limits<double>::quiet_NaN();
    from_terms(kNan, nan, true);
    std::vector<double> inf(static_cast<std::size_t>(n), 1.0);
    inf[0] = INFINITY;
    from_terms(kInfinity, inf, true);
  }
  if (products >= 2) {
    std::vector<double> both(static_cast<std::size_t>(n), 1.0);
    both[0] = INFINITY, both[1] = -INFINITY;
    from_terms(kBothInf, both, true);
  }
  if (n >= 3) {  // max + max − max: max exactly, overflowing in T left to right
    const double max = std::ldexp(2.0 - 2 * f.u, static_cast<int>(std::ilogb(f.omega)));  // the greatest finite value
    std::vector<double> over(static_cast<std::size_t>(n), 0.0);
    over[0] = max, over[1] = max, over[2] = -max;
    from_terms(kOverflow, over);
  }
  return out;
}

std::vector<Reach> accuracy_reaches(DType t, std::int64_t products, std::int64_t values, Source first, Source second,
                                    Source value, const std::vector<std::string>& names, double alpha, double beta) {
  std::vector<Reach> out;
  std::vector<Source> sources;
  std::vector<std::string> member_names;
  for (std::int64_t k = 0; k < products; ++k) {
    sources.push_back(first), member_names.push_back(names.at(0));
    sources.push_back(second), member_names.push_back(names.at(1));
  }
  for (std::int64_t k = 0; k < values; ++k) sources.push_back(value), member_names.push_back(names.at(2));
  for (const FactorWitness& w : accuracy_witnesses(t, products, values, alpha, beta)) {
    std::vector<std::uint64_t> bits;
    for (double x : w.values) bits.push_back(bits_in(t, x));
    Reach r = reach_by_given(w.situation, std::move(bits), static_cast<std::int64_t>(sources.size()), sources, member_names, w.write);
    if (!r.reachable) r.reachable = true;  // the witness cannot be written, another choice of the free factors might: not built
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sonnx::ops
