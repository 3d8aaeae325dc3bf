// Hand-derived examples of spec/ops/concat.md, each citing its clause.
#include "ops/concat.hpp"
#include "test_util.hpp"

namespace concat_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::concat;

TEST_CASE("[Concat.formula] [Concat.shape] Example 1: axis 0", "[concat]") {
  auto a = f32({1, 2}, {1, 2}), b = f32({2, 2}, {3, 4, 5, 6});
  auto y = concat(4, {&a, &b}, 0);
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values<float>(y) == std::vector<float>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("[Concat.empty] [Concat.axis.normalise] Example 2: an empty input, axis -1", "[concat]") {
  auto a = f32({2, 0}, {}), b = f32({2, 1}, {7, 8});
  auto y = concat(11, {&a, &b}, -1);
  CHECK(y.shape() == Shape{2, 1});
  CHECK(values<float>(y) == std::vector<float>{7, 8});
  auto e1 = f32({0, 3}, {}), e2 = f32({0, 2}, {});
  CHECK(concat(13, {&e1, &e2}, 1).shape() == Shape{0, 5});
}

TEST_CASE("[Concat.formula] three inputs on the middle axis, int8, one input gives itself", "[concat]") {
  auto a = make_tensor<std::int8_t>({2, 1, 2}, {1, 2, 3, 4});
  auto b = make_tensor<std::int8_t>({2, 2, 2}, {5, 6, 7, 8, 9, 10, 11, 12});
  auto c = make_tensor<std::int8_t>({2, 1, 2}, {-1, -2, -3, -4});
  auto y = concat(13, {&a, &b, &c}, 1);
  CHECK(y.shape() == Shape{2, 4, 2});
  CHECK(values<std::int8_t>(y) == std::vector<std::int8_t>{1, 2, 5, 6, 7, 8, -1, -2, 3, 4, 9, 10, 11, 12, -3, -4});
  CHECK(values<std::int8_t>(concat(4, {&b}, 2)) == values<std::int8_t>(b));
}

TEST_CASE("[Concat.v1] [Concat.v4] axis defaults to 1 in version 1, [Concat.err.axis-missing] required from version 4", "[concat][error]") {
  auto a = f32({1, 1}, {1}), b = f32({1, 1}, {2});
  CHECK(concat(1, {&a, &b}, std::nullopt).shape() == Shape{1, 2});
  CHECK(refusal_id([&] { concat(4, {&a, &b}, std::nullopt); }) == "Concat.err.axis-missing");
}

TEST_CASE("[Concat.err.axis-range] [Concat.v11] negative axis from version 11, rank 0", "[concat][error]") {
  auto a = f32({1, 1}, {1}), s = f32({}, {1});
  CHECK(refusal_id([&] { concat(4, {&a}, -1); }) == "Concat.err.axis-range");
  CHECK(refusal_id([&] { concat(13, {&a}, 2); }) == "Concat.err.axis-range");
  CHECK(refusal_id([&] { concat(13, {&a}, -3); }) == "Concat.err.axis-range");
  CHECK(refusal_id([&] { concat(13, {&s}, 0); }) == "Concat.err.axis-range");
}

TEST_CASE("[Concat.err.shape] [Concat.err.dtype] [Concat.v13] mismatched shapes and types", "[concat][error]") {
  auto a = f32({2, 2}, {1, 2, 3, 4}), b = f32({3, 1}, {1, 2, 3}), c = f32({4}, {1, 2, 3, 4});
  CHECK(refusal_id([&] { concat(13, {&a, &b}, 0); }) == "Concat.err.shape");
  CHECK(refusal_id([&] { concat(13, {&a, &c}, 0); }) == "Concat.err.shape");
  auto i = make_tensor<std::int32_t>({2, 2}, {1, 2, 3, 4});
  CHECK(refusal_id([&] { concat(13, {&a, &i}, 0); }) == "Concat.err.dtype");
  CHECK(refusal_id([&] { concat(1, {&i}, 0); }) == "Concat.err.dtype");
  auto h = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { concat(11, {&h}, 0); }) == "Concat.err.dtype");
  CHECK(bits16(concat(13, {&h, &h}, 0)) == std::vector<std::uint16_t>{0x3F80, 0x3F80});
}

}  // namespace concat_test
