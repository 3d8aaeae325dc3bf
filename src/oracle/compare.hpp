// spec/common/check.md: how an output of another implementation is judged against the
// reference — bitwise by default ([Check.bitwise]), or within N ulps ([Check.ulp]); two NaNs with
// different bits conform and are noted ([Check.nan-payload.any]), or differ ([Check.nan-payload.strict]).
// Used by `check` and `conformance`.
#pragma once
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/computed.hpp"

namespace sonnx::compare {

// The clause a computed output is judged by: ops::kVerdictClause, stated with the computing operators.
inline constexpr const char* kAccuracyClause = ops::kVerdictClause;

struct Options {
  bool ulp_mode = false;      // false: [Check.bitwise]; true: [Check.ulp]
  std::uint64_t ulp = 0;      // the N of --ulp N
  std::size_t max_listed = 10;  // how many mismatching elements to keep
  std::size_t max_offsets = 0;  // how many offsets of mismatching elements to keep in Result::offsets
  // --nan-payload strict: two NaNs conform only with equal bits [Check.nan-payload.strict]; false
  // (--nan-payload any, the default): any NaN conforms to any NaN, payload-only differences noted
  // [Check.nan-payload.any]
  bool nan_payload_strict = false;
  // [Acc.hyp.ftz] check --flush-subnormals: the implementation declares flush to zero; a computed
  // element that does not conform within R is judged again within R + F, F given by flush_margin
  // for its row-major offset (set by the caller that knows the node, check::compare_value)
  bool flush_subnormals = false;
  std::function<double(std::int64_t)> flush_margin;
};

// [Acc.verdict] [Acc.report] What the accuracy model says of one element of a computed output: the
// enclosure of its ideal, its radius, and the implementation's error.
struct AccuracyNote {
  double ideal = 0;     // the centre ŝ (double-double rounded to binary64 for double)
  double oracle = 0;    // e_o, the oracle's own error
  double bound = 0;     // B̂ = θ(D)·S + U, rounded up
  double radius = 0;    // R = B̂ + e_o (+ F under [Acc.hyp.ftz]): the element conforms when its error is at most R
  double flush = 0;     // [Acc.hyp.ftz] F, when R was widened by it (0 otherwise)
  double error = 0;     // |r − ŝ| (inf for a non-finite value the clauses do not allow)
  double fraction = 0;  // error / R
  double ulps = 0;      // error in units in the last place of T at ŝ
  std::uint8_t allowed = 0;  // accuracy::Allowed: finite, +Inf, −Inf, NaN
  std::string allowed_text() const;  // "finite", "finite, +inf", "nan", ...
};

struct Mismatch {
  std::int64_t offset;               // row-major offset
  std::vector<std::int64_t> index;   // tensor index
  std::string expected, actual;      // values, as core/format.hpp prints them
  std::string expected_bits, actual_bits;  // hex bit patterns
  std::optional<AccuracyNote> accuracy;    // a computed element ([Acc.verdict])
};

struct Result {
  bool conforms = true;
  // [Check.shape] non-empty when dtype or shape differ (then no element is compared).
  std::string structural;
  std::int64_t mismatches = 0;       // number of non-conforming elements
  std::vector<Mismatch> first;       // the first max_listed of them
  std::vector<std::int64_t> offsets;  // the offsets of the first max_offsets of them
  // Payload-only differences: both NaN, different bits ([Check.nan-payload.any]). Counted in both
  // modes (under strict they are among the mismatches); listed (the first max_listed) only when they
  // conform, i.e. under --nan-payload any, as a note.
  std::int64_t nan_payload_only = 0;
  std::vector<Mismatch> nan_payload_first;
  // [Acc.verdict] [Acc.report] a computed output (the expected tensor has an accuracy annex): every
  // element judged by its radius, and the element with the largest fraction of its radius,
  // conforming or not (none for an empty output)
  bool accuracy = false;
  std::optional<Mismatch> worst;
};

// `expected` is the reference's tensor: when it carries an accuracy annex (a computed output,
// Tensor::annex), each element of `actual` is judged by [Acc.verdict], whatever the options say of
// ulps and NaN payloads; otherwise by [Check.bitwise] or [Check.ulp].
Result compare(const Tensor& expected, const Tensor& actual, const Options& options = {});

// The options of `--ulp N` (absent: bitwise) and `--max-listed K`. [Check.ulp] "--ulp 0 is the
// bitwise comparison of [Check.bitwise]": N = 0 gives the bitwise mode, so that a report names the
// one clause that judged it.
Options options_for(std::optional<std::uint64_t> ulp, std::size_t max_listed = 10);

// The mode of `--nan-payload`: "any" (the default) or "strict"; the clause that names it.
inline const char* nan_payload_name(const Options& o) { return o.nan_payload_strict ? "strict" : "any"; }
inline const char* nan_payload_clause(const Options& o) {
  return o.nan_payload_strict ? "Check.nan-payload.strict" : "Check.nan-payload.any";
}

}  // namespace sonnx::compare
