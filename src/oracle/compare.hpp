// spec/common/check.md: how an output of another implementation is judged against the
// reference — bitwise by default ([Check.bitwise]), or within N ulps ([Check.ulp]).
// Used by `check` and `conformance`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::compare {

struct Options {
  bool ulp_mode = false;      // false: [Check.bitwise]; true: [Check.ulp]
  std::uint64_t ulp = 0;      // the N of --ulp N
  std::size_t max_listed = 10;  // how many mismatching elements to keep
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
};

Result compare(const Tensor& expected, const Tensor& actual, const Options& options = {});

// The tensor index of a row-major offset.
std::vector<std::int64_t> unravel(const Shape& shape, std::int64_t offset);

}  // namespace sonnx::compare
