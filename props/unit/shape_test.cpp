// Hand-derived examples of spec/ops/shape.md, each citing its clause.
#include "ops/shape.hpp"
#include "test_util.hpp"

namespace shape_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::ShapeParams;

std::vector<std::int64_t> run(const Shape& s, std::optional<std::int64_t> start = {}, std::optional<std::int64_t> end = {}) {
  const Tensor X(DType::Float, s);
  auto y = sonnx::ops::shape(15, X, ShapeParams{start, end});
  REQUIRE(y.dtype() == DType::Int64);
  REQUIRE(y.rank() == 1);
  return values<std::int64_t>(y);
}

TEST_CASE("[Shape.formula] [Shape.type] [Shape.v1] the dimensions of X", "[shape]") {
  CHECK(values<std::int64_t>(sonnx::ops::shape(1, Tensor(DType::Int8, {2, 3, 4}), {})) == std::vector<std::int64_t>{2, 3, 4});
  CHECK(run({}).empty());  // rank 0
  CHECK(run({0, 5}) == std::vector<std::int64_t>{0, 5});
}

TEST_CASE("[Shape.range] [Shape.v15] [Shape.v19] start and end: negative, clamped, empty", "[shape]") {
  CHECK(run({2, 3, 4}, -1) == std::vector<std::int64_t>{4});
  CHECK(run({2, 3, 4}, 1, -1) == std::vector<std::int64_t>{3});
  CHECK(run({2, 3, 4}, -10) == std::vector<std::int64_t>{2, 3, 4});
  CHECK(run({2, 3, 4}, {}, 10) == std::vector<std::int64_t>{2, 3, 4});
  CHECK(run({2, 3, 4}, 2, 1).empty());
  CHECK(run({2, 3, 4}, 3).empty());
}

}  // namespace shape_test
