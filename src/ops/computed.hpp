// What the operators that compute (Conv, Gemm, MatMul: spec/common/accuracy.md) share beyond their
// own formulas: the Decision of a computed element (its terms, enclosure, clauses and reason, the
// check that the bulk evaluation wrote what the one-element definition derives), the situations of
// [Acc.situations] an element's terms put it in, and their witnesses for golden.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// [Acc.verdict] The clause every computed output is judged by (check, conformance and the reports name
// it through compare::kAccuracyClause): stated once, here with the computing operators.
inline constexpr const char* kVerdictClause = "Acc.verdict";

// The factors of one term, as doubles (exact), for classifying an element ([Acc.situations]).
using TermFactors = std::vector<double>;

// [Acc.situations] The situations of the accuracy clauses that an element with these terms is in.
std::vector<Situation> accuracy_situations(DType t, const std::vector<TermFactors>& terms, const accuracy::Element& e);

// What a computing operator says of one element of its output, given its Computation (terms,
// Sums, Element): the set of factor members (term by term, for golden), the clauses ([Acc.verdict],
// the formula clause, [Acc.nonfinite] or [Acc.overflow] where they decide), the reason, the
// situations, and the stop of the provenance chain. Checks that the evaluated output holds fl_T(ŝ)
// ([Acc.run]) and that its annex, when present, holds the same enclosure: the bulk evaluation and the
// definition agree bit for bit, or disagree() throws.
Decision computed_decision(const NodeValues& v, const std::vector<std::int64_t>& index, Computation c,
                           const std::string& parameters, const std::string& formula_clause,
                           std::vector<std::string> more_clauses, const std::vector<TermFactors>& terms);

// [Acc.int] What a computing operator says of one element of an integer output: its terms, and the
// value `bits` it derives (the exact sum modulo 2^w, in T), which the evaluated output must hold.
// `wrapped`: the exact sum is outside the range of T.
Decision integer_decision(const NodeValues& v, const std::vector<std::int64_t>& index, std::vector<Term> terms,
                          const std::string& formula, const std::string& parameters, const std::string& formula_clause,
                          std::uint64_t bits, bool wrapped);

// [Acc.int] The situations an integer element can be in, and their witnesses for an element of
// `products` products: terms whose exact sum leaves the range of T (two's complement wrap).
std::vector<Reach> integer_reaches(DType t, std::int64_t products, Source first, Source second,
                                   const std::vector<std::string>& names);

// [Acc.situations] A witness: the values written into one element's factors, member by member in the
// order of Decision::set (the two factors of each product, then the one-factor terms), and which of
// them it writes (a NaN or an infinity needs only the first factor; a cancellation needs every factor).
struct FactorWitness {
  Situation situation;
  std::vector<double> values;
  std::vector<bool> write;
};
// The witnesses for an element of `products` products (factors (x, w): x = t/α and w = 1 for a term
// value t, with the attribute factor α of the products) followed by `values` one-factor terms
// (c = t/β), in T. A witness whose values T cannot hold exactly (an α or β that does not divide them)
// is left out.
std::vector<FactorWitness> accuracy_witnesses(DType t, std::int64_t products, std::int64_t values, double alpha = 1,
                                              double beta = 1);

// The reaches of the witnesses above for a node whose interior elements have `products` products and
// `values` one-factor terms, the member at position p coming from sources[p] (product factors
// alternate: the first input's, the second input's; then the value terms' input). A witness that must
// write a factor whose values are fixed, or computed, stays reachable but is reported not built, with
// that reason (another choice of the free factors might reach the situation).
std::vector<Reach> accuracy_reaches(DType t, std::int64_t products, std::int64_t values, Source first, Source second,
                                    Source value, const std::vector<std::string>& names, double alpha = 1, double beta = 1);

// The value of a factor that is a member of an input, as a double (exact).
double member_real(const NodeValues& v, const Member& m);

// [Acc.hyp.ftz] F of one computed element (accuracy::flush_margin) from its terms: L and M over its
// finite terms' factors, members and attribute scalars alike.
double flush_margin(const NodeValues& v, const Computation& c);

// The bits of x in T (the low bytes): x must be a value of T.
std::uint64_t bits_in(DType t, double x);

}  // namespace sonnx::ops
