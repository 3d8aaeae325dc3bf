// Hand-derived examples of spec/ops/reducemin.md (the min order of [Common.order.min]).
#include "ops/reducemin.hpp"
#include "test_util.hpp"

namespace reducemin_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::ReduceParams;
using sonnx::ops::reduce_min;

namespace {
ReduceParams P(std::optional<std::vector<std::int64_t>> axes, std::int64_t keepdims = 1, std::int64_t noop = 0) {
  ReduceParams p;
  p.axes = std::move(axes);
  p.keepdims = keepdims;
  p.noop_with_empty_axes = noop;
  return p;
}
// X = [[[5, 1], [20, 2]], [[30, 1], [40, 2]], [[55, 1], [60, 2]]], shape [3, 2, 2]
Tensor X322() { return f32({3, 2, 2}, {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2}); }
}  // namespace

TEST_CASE("[ReduceMin.float.formula] [ReduceMin.shape] axis 1, keepdims 1 and 0", "[reducemin]") {
  // R(b, 0, k) = {X[b, 0, k], X[b, 1, k]}: min(5, 20) = 5, min(1, 2) = 1, min(30, 40), ...
  auto k1 = reduce_min(13, X322(), P(std::vector<std::int64_t>{1}, 1));
  CHECK(k1.shape() == Shape{3, 1, 2});
  CHECK(values<float>(k1) == std::vector<float>{5, 1, 30, 1, 55, 1});
  auto k0 = reduce_min(13, X322(), P(std::vector<std::int64_t>{1}, 0));
  CHECK(k0.shape() == Shape{3, 2});
  CHECK(values<float>(k0) == std::vector<float>{5, 1, 30, 1, 55, 1});
}

TEST_CASE("[ReduceMin.axes.normalise] [ReduceMin.v11] axis -1 is axis 2 of a rank-3 input", "[reducemin]") {
  auto y = reduce_min(11, X322(), P(std::vector<std::int64_t>{-1}, 0));
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values<float>(y) == std::vector<float>{1, 2, 1, 2, 1, 2});
}

TEST_CASE("[ReduceMin.axes.default] [ReduceMin.axes.noop] [ReduceMin.v18] no axes reduces every axis, and noop 1 "
          "returns X",
          "[reducemin]") {
  auto all = reduce_min(1, X322(), P(std::nullopt, 1));
  CHECK(all.shape() == Shape{1, 1, 1});
  CHECK(values<float>(all) == std::vector<float>{1});
  auto empty_list = reduce_min(18, X322(), P(std::vector<std::int64_t>{}, 0));
  CHECK(empty_list.shape() == Shape{});
  CHECK(values<float>(empty_list) == std::vector<float>{1});
  auto same = reduce_min(20, X322(), P(std::nullopt, 1, 1));
  CHECK(same.shape() == Shape{3, 2, 2});
  CHECK(values<float>(same) == std::vector<float>{5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2});
}

TEST_CASE("[ReduceMin.float.nan] [Common.order.nan-payload] the first NaN in row-major order of R(j) is returned",
          "[reducemin]") {
  const float n1 = nan_with_bits(0x7FC00011), n2 = nan_with_bits(0xFF800022);
  // X [2, 3] = [[1, n1, n2], [n2, -Inf, n1]]; axis 1 -> [n1, n2]; axis 0 -> [n2, n1, n2]
  auto x = f32({2, 3}, {1, n1, n2, n2, -kInf, n1});
  CHECK(bits(reduce_min(13, x, P(std::vector<std::int64_t>{1}, 0))) ==
        std::vector<std::uint32_t>{0x7FC00011u, 0xFF800022u});
  CHECK(bits(reduce_min(13, x, P(std::vector<std::int64_t>{0}, 0))) ==
        std::vector<std::uint32_t>{0xFF800022u, 0x7FC00011u, 0xFF800022u});
}

TEST_CASE("[ReduceMin.float.zero] -0 and +0 in one reduced set give -0, all +0 gives +0", "[reducemin]") {
  auto x = f32({2, 2}, {0.0f, -0.0f, 0.0f, 0.0f});
  CHECK(bits(reduce_min(13, x, P(std::vector<std::int64_t>{1}, 0))) ==
        std::vector<std::uint32_t>{0x80000000u, 0x00000000u});
}

TEST_CASE("[ReduceMin.float.empty] [ReduceMin.int.empty] [ReduceMin.bool.empty] an empty reduced set gives +Inf, the "
          "type's maximum, True",
          "[reducemin]") {
  auto y = reduce_min(18, f32({0, 3}, {}), P(std::vector<std::int64_t>{0}, 1));
  CHECK(y.shape() == Shape{1, 3});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x7F800000u, 0x7F800000u, 0x7F800000u});
  auto h = reduce_min(13, make_tensor<float16>({2, 0}, {}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(bits16(h) == std::vector<std::uint16_t>{0x7C00, 0x7C00});
  auto b = reduce_min(13, make_tensor<bfloat16>({0}, {}), P(std::nullopt, 0));
  CHECK(bits16(b) == std::vector<std::uint16_t>{0x7F80});
  CHECK(values<std::int8_t>(reduce_min(12, make_tensor<std::int8_t>({0}, {}), P(std::nullopt, 0))) ==
        std::vector<std::int8_t>{127});
  CHECK(values<std::uint32_t>(reduce_min(13, make_tensor<std::uint32_t>({0}, {}), P(std::nullopt, 0))) ==
        std::vector<std::uint32_t>{4294967295u});
  CHECK(values<std::int64_t>(reduce_min(13, make_tensor<std::int64_t>({0, 2}, {}), P(std::vector<std::int64_t>{0}, 0))) ==
        std::vector<std::int64_t>{9223372036854775807ll, 9223372036854775807ll});
  CHECK(values<bool>(reduce_min(20, make_tensor<bool>({0}, {}), P(std::nullopt, 0))) == std::vector<bool>{true});
}

TEST_CASE("[ReduceMin.int.formula] [ReduceMin.bool.formula] [ReduceMin.v20] integers by value, bool False below True",
          "[reducemin]") {
  auto u = reduce_min(13, make_tensor<std::uint8_t>({3}, {255, 128, 7}), P(std::nullopt, 0));
  CHECK(values<std::uint8_t>(u) == std::vector<std::uint8_t>{7});  // 128 is not negative in uint8
  auto s = reduce_min(12, make_tensor<std::int8_t>({3}, {127, -128, -1}), P(std::nullopt, 0));
  CHECK(values<std::int8_t>(s) == std::vector<std::int8_t>{-128});
  auto b = reduce_min(20, make_tensor<bool>({2, 2}, {true, false, true, true}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(values<bool>(b) == std::vector<bool>{false, true});
}

TEST_CASE("[ReduceMin.err.axis-range] [ReduceMin.err.axis-duplicate] [ReduceMin.err.flag] [ReduceMin.err.dtype] "
          "[ReduceMin.v1] [ReduceMin.v20] refusals",
          "[reducemin][error]") {
  CHECK(refusal_id([] { reduce_min(13, X322(), P(std::vector<std::int64_t>{3})); }) == "ReduceMin.err.axis-range");
  CHECK(refusal_id([] { reduce_min(1, X322(), P(std::vector<std::int64_t>{-1})); }) == "ReduceMin.err.axis-range");
  CHECK(refusal_id([] { reduce_min(13, X322(), P(std::vector<std::int64_t>{1, -2})); }) == "ReduceMin.err.axis-duplicate");
  CHECK(refusal_id([] { reduce_min(13, X322(), P(std::nullopt, 2)); }) == "ReduceMin.err.flag");
  CHECK(refusal_id([] { reduce_min(18, X322(), P(std::nullopt, 1, -1)); }) == "ReduceMin.err.flag");
  CHECK(refusal_id([] { reduce_min(18, make_tensor<bool>({1}, {true}), P(std::nullopt)); }) == "ReduceMin.err.dtype");
  CHECK(refusal_id([] { reduce_min(11, make_tensor<std::int8_t>({1}, {1}), P(std::nullopt)); }) == "ReduceMin.err.dtype");
  CHECK(refusal_id([] { reduce_min(13, make_tensor<std::int16_t>({1}, {1}), P(std::nullopt)); }) == "ReduceMin.err.dtype");
}

TEST_CASE("[ReduceMin.err.axes-input] the axes input of versions 18 and 20 is an int64 tensor of rank 1",
          "[reducemin][error]") {
  CHECK(refusal_id([] { ops::reducemin_axes_from_input(make_tensor<std::int32_t>({1}, {0})); }) ==
        "ReduceMin.err.axes-input");
  CHECK(refusal_id([] { ops::reducemin_axes_from_input(make_tensor<std::int64_t>({}, {0})); }) ==
        "ReduceMin.err.axes-input");
  CHECK(ops::reducemin_axes_from_input(make_tensor<std::int64_t>({2}, {-1, 0})) == std::vector<std::int64_t>{-1, 0});
}

}  // namespace reducemin_test
