// spec/common/check.md: how an output of another implementation is judged against the
// reference — bitwise by default ([Check.bitwise]), or within N ulps ([Check.ulp]); two NaNs with
// different bits conform and are noted ([Check.nan-payload.any]), or differ ([Check.nan-payload.strict]).
// Used by `check` and `conformance`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::compare {

struct Options {
  bool ulp_mode = false;      // false: [Check.bitwise]; true: [Check.ulp]
  std::uint64_t ulp = 0;      // the N of --ulp N
  std::size_t max_listed = 10;  // how many mismatching elements to keep
  std::size_t max_offsets = 0;  // how many offsets of mismatching elements to keep in Result::offsets
  // --nan-payload strict: two NaNs conform only with equal bits [Check.nan-payload.strict]; false
  // (--nan-payload any, the default): any NaN conforms to any NaN, payload-only differences noted
  // [Check.nan-payload.any]
  bool nan_payload_strict = false;
};

struct Mismatch {
  std::int64_t offset;               // row-major offset
  std::vector<std::int64_t> index;   // tensor index
  std::string expected, actual;      // values, as core/format.hpp prints them
  std::string expected_bits, actual_bits;  // hex bit patterns
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
};

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
