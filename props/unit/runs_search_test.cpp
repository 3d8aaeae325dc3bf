// [Common.order.total] [Common.order.nan-payload] The backward searches of src/core/runs.hpp on runs
// longer than one block of kLanes elements, hand-written (props/runs_props.cpp checks all four searches
// against a plain walk; it is compiled at -O2, so these pin the same cases in the -O0 test binary):
// the last element with given bits (-0 is not +0), found in an earlier block or nowhere (-1); the last
// NaN, found in an earlier block or nowhere (-1). ArgMax/ArgMin with select_last_index and Hardmax's
// last-index forms use them (ops/position.hpp).
#include <bit>
#include <cstdint>
#include <vector>

#include "core/runs.hpp"
#include "test_util.hpp"

namespace runs_search_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

TEST_CASE("[Common.order.total] the last element with given bits, across blocks — -0 is not +0, none is -1", "[core]") {
  // 2 kLanes + 3 elements of -0: +0 at kLanes - 2 (in the first block) only.
  std::vector<float> x(2 * kLanes + 3, -0.0f);
  const auto n = static_cast<std::int64_t>(x.size());
  CHECK(last_equal(x.data(), n, 0.0f) == -1);
  x[kLanes - 2] = 0.0f;
  CHECK(last_equal(x.data(), n, 0.0f) == kLanes - 2);
  CHECK(last_equal(x.data(), n, -0.0f) == n - 1);
  std::vector<std::int32_t> ints(3 * kLanes, 7);
  ints[5] = 9;
  CHECK(last_equal(ints.data(), static_cast<std::int64_t>(ints.size()), 9) == 5);
  CHECK(last_equal(ints.data(), static_cast<std::int64_t>(ints.size()), 8) == -1);
}

TEST_CASE("[Common.order.nan-payload] the last NaN, across blocks — none is -1, integers have none", "[core]") {
  std::vector<double> x(2 * kLanes + 5, 1.0);
  const auto n = static_cast<std::int64_t>(x.size());
  CHECK(last_nan(x.data(), n) == -1);
  x[3] = std::bit_cast<double>(std::uint64_t{0xFFF8000000000001ull});
  CHECK(last_nan(x.data(), n) == 3);
  x[kLanes + 4] = std::bit_cast<double>(std::uint64_t{0x7FF0000000000002ull});  // a signalling NaN
  CHECK(last_nan(x.data(), n) == kLanes + 4);
  const std::vector<std::int64_t> ints(2 * kLanes, -1);
  CHECK(last_nan(ints.data(), static_cast<std::int64_t>(ints.size())) == -1);
}

}  // namespace runs_search_test
