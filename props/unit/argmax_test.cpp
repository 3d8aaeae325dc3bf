// Hand-derived examples of spec/ops/argmax.md and spec/ops/argmin.md: positions on the one order
// (first extreme, a NaN before every number, -0 below +0, select_last_index).
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "test_util.hpp"

namespace argmax_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::argmax;
using sonnx::ops::argmin;
using sonnx::ops::ArgParams;

namespace {
ArgParams P(std::int64_t axis, std::int64_t keepdims = 1, std::int64_t last = 0) {
  ArgParams p;
  p.axis = axis;
  p.keepdims = keepdims;
  p.select_last_index = last;
  return p;
}
// X [2, 3] = [[2, 7, 7], [9, -1, 9]]
Tensor X23() { return f32({2, 3}, {2, 7, 7, 9, -1, 9}); }
}  // namespace

TEST_CASE("[ArgMax.float.formula] [ArgMax.shape] [ArgMin.float.formula] [ArgMin.shape] first position of the greatest "
          "(least) element, keepdims 1 and 0, int64",
          "[argmax][argmin]") {
  auto a1 = argmax(13, X23(), P(1));
  CHECK(a1.dtype() == DType::Int64);
  CHECK(a1.shape() == Shape{2, 1});
  CHECK(values<std::int64_t>(a1) == std::vector<std::int64_t>{1, 0});  // 7 first at 1; 9 first at 0
  auto a0 = argmax(13, X23(), P(0, 0));
  CHECK(a0.shape() == Shape{3});
  CHECK(values<std::int64_t>(a0) == std::vector<std::int64_t>{1, 0, 1});  // columns (2, 9), (7, -1), (7, 9)
  auto m1 = argmin(13, X23(), P(1, 0));
  CHECK(m1.shape() == Shape{2});
  CHECK(values<std::int64_t>(m1) == std::vector<std::int64_t>{0, 1});
}

TEST_CASE("[ArgMax.last-index] [ArgMin.last-index] [ArgMax.v12] [ArgMin.v12] select_last_index = 1 gives the last "
          "position of the extreme",
          "[argmax][argmin]") {
  CHECK(values<std::int64_t>(argmax(12, X23(), P(1, 0, 1))) == std::vector<std::int64_t>{2, 2});
  CHECK(values<std::int64_t>(argmin(13, f32({4}, {3, 1, 1, 2}), P(0, 0, 1))) == std::vector<std::int64_t>{2});
  CHECK(values<std::int64_t>(argmin(13, f32({4}, {3, 1, 1, 2}), P(0, 0, 0))) == std::vector<std::int64_t>{1});
}

TEST_CASE("[ArgMax.float.nan] [ArgMin.float.nan] [ArgMax.last-index] a NaN takes precedence over every number, the "
          "first NaN (the last with select_last_index)",
          "[argmax][argmin]") {
  const float n1 = nan_with_bits(0x7FC00001), n2 = nan_with_bits(0xFF800002);
  auto x = f32({5}, {kInf, n1, -kInf, n2, 3});
  CHECK(values<std::int64_t>(argmax(13, x, P(0, 0))) == std::vector<std::int64_t>{1});
  CHECK(values<std::int64_t>(argmin(13, x, P(0, 0))) == std::vector<std::int64_t>{1});  // not -Inf at 2
  CHECK(values<std::int64_t>(argmax(13, x, P(0, 0, 1))) == std::vector<std::int64_t>{3});
  CHECK(values<std::int64_t>(argmin(12, x, P(0, 0, 1))) == std::vector<std::int64_t>{3});
  // a NaN after a number wins as well
  CHECK(values<std::int64_t>(argmax(11, f32({2}, {1, n1}), P(0, 0))) == std::vector<std::int64_t>{1});
}

TEST_CASE("[ArgMax.float.zero] [ArgMin.float.zero] [Common.order.total] ArgMax([-0, +0]) = 1, ArgMin([+0, -0]) = 1",
          "[argmax][argmin]") {
  CHECK(values<std::int64_t>(argmax(13, f32({2}, {-0.0f, 0.0f}), P(0, 0))) == std::vector<std::int64_t>{1});
  CHECK(values<std::int64_t>(argmax(13, f32({2}, {0.0f, -0.0f}), P(0, 0))) == std::vector<std::int64_t>{0});
  CHECK(values<std::int64_t>(argmin(13, f32({2}, {0.0f, -0.0f}), P(0, 0))) == std::vector<std::int64_t>{1});
  CHECK(values<std::int64_t>(argmin(13, f32({3}, {-0.0f, 0.0f, -0.0f}), P(0, 0, 1))) == std::vector<std::int64_t>{2});
  // float16: 0x8000 = -0, 0x0000 = +0, 0x8001 = -2^-24 (below -0)
  auto h = make_tensor<float16>({3}, {float16{0x8000}, float16{0x0000}, float16{0x8001}});
  CHECK(values<std::int64_t>(argmax(13, h, P(0, 0))) == std::vector<std::int64_t>{1});
  CHECK(values<std::int64_t>(argmin(13, h, P(0, 0))) == std::vector<std::int64_t>{2});
}

TEST_CASE("[ArgMax.int.formula] [ArgMin.int.formula] integers by value: uint8 255 above 128, int8 -128 least",
          "[argmax][argmin]") {
  CHECK(values<std::int64_t>(argmax(1, make_tensor<std::uint8_t>({3}, {128, 255, 0}), P(0, 0))) ==
        std::vector<std::int64_t>{1});
  CHECK(values<std::int64_t>(argmin(1, make_tensor<std::int8_t>({3}, {127, -1, -128}), P(0, 0))) ==
        std::vector<std::int64_t>{2});
  CHECK(values<std::int64_t>(argmax(13, make_tensor<std::int16_t>({4}, {5, 5, -5, 5}), P(0, 0, 1))) ==
        std::vector<std::int64_t>{3});
}

TEST_CASE("[ArgMax.axis.normalise] [ArgMin.axis.normalise] [ArgMax.v11] axis -1 of a rank-2 input is axis 1",
          "[argmax][argmin]") {
  CHECK(values<std::int64_t>(argmax(11, X23(), P(-1))) == std::vector<std::int64_t>{1, 0});
  CHECK(values<std::int64_t>(argmin(13, X23(), P(-2, 0))) == std::vector<std::int64_t>{0, 1, 0});
}

TEST_CASE("[ArgMax.empty] [ArgMin.empty] [ArgMax.shape] an input with no element but a non-empty axis gives the empty "
          "output",
          "[argmax][argmin]") {
  auto y = argmax(13, f32({0, 3}, {}), P(1));
  CHECK(y.shape() == Shape{0, 1});
  auto z = argmin(13, f32({2, 0, 3}, {}), P(0, 0));
  CHECK(z.shape() == Shape{0, 3});
  auto r = argmax(13, f32({4}, {1, 2, 3, 0}), P(0, 0));  // rank 1, keepdims 0: rank 0
  CHECK(r.shape() == Shape{});
  CHECK(values<std::int64_t>(r) == std::vector<std::int64_t>{2});
}

TEST_CASE("[ArgMax.err.axis-range] [ArgMin.err.axis-range] [ArgMax.err.empty-axis] [ArgMax.err.flag] [ArgMin.err.flag] "
          "[ArgMax.err.dtype] [ArgMin.err.dtype] [ArgMax.v1] [ArgMax.v13] refusals",
          "[argmax][argmin][error]") {
  CHECK(refusal_id([] { argmax(13, f32({}, {1}), P(0)); }) == "ArgMax.err.axis-range");
  CHECK(refusal_id([] { argmin(13, X23(), P(2)); }) == "ArgMin.err.axis-range");
  CHECK(refusal_id([] { argmax(1, X23(), P(-1)); }) == "ArgMax.err.axis-range");
  CHECK(refusal_id([] { argmax(11, X23(), P(-3)); }) == "ArgMax.err.axis-range");
  CHECK(refusal_id([] { argmax(13, f32({2, 0}, {}), P(1)); }) == "ArgMax.err.empty-axis");
  CHECK(refusal_id([] { argmin(13, f32({0}, {}), P(0)); }) == "ArgMin.err.empty-axis");
  CHECK(refusal_id([] { argmax(13, X23(), P(0, 2)); }) == "ArgMax.err.flag");
  CHECK(refusal_id([] { argmin(12, X23(), P(0, 1, -1)); }) == "ArgMin.err.flag");
  CHECK(refusal_id([] { argmax(12, make_tensor<bfloat16>({1}, {bfloat16{0}}), P(0)); }) == "ArgMax.err.dtype");
  CHECK(refusal_id([] { argmax(13, make_tensor<bfloat16>({1}, {bfloat16{0}}), P(0)); }) == "");
  CHECK(refusal_id([] { argmin(13, make_tensor<bool>({1}, {true}), P(0)); }) == "ArgMin.err.dtype");
}

}  // namespace argmax_test
