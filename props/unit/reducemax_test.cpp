// Hand-derived examples of spec/ops/reducemax.md.
#include "ops/reducemax.hpp"
#include "test_util.hpp"

namespace reducemax_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::ReduceMaxParams;
using sonnx::ops::reduce_max;

namespace {
ReduceMaxParams P(std::optional<std::vector<std::int64_t>> axes, std::int64_t keepdims = 1, std::int64_t noop = 0) {
  ReduceMaxParams p;
  p.axes = std::move(axes);
  p.keepdims = keepdims;
  p.noop_with_empty_axes = noop;
  return p;
}
// X = [[[5, 1], [20, 2]], [[30, 1], [40, 2]], [[55, 1], [60, 2]]], shape [3, 2, 2]
Tensor X322() { return f32({3, 2, 2}, {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2}); }
}  // namespace

TEST_CASE("[ReduceMax.float.formula] [ReduceMax.shape] axis 1, keepdims 1 and 0", "[reducemax]") {
  auto k1 = reduce_max(13, X322(), P(std::vector<std::int64_t>{1}, 1));
  CHECK(k1.shape() == Shape{3, 1, 2});
  CHECK(values<float>(k1) == std::vector<float>{20, 2, 40, 2, 60, 2});
  auto k0 = reduce_max(13, X322(), P(std::vector<std::int64_t>{1}, 0));
  CHECK(k0.shape() == Shape{3, 2});
  CHECK(values<float>(k0) == std::vector<float>{20, 2, 40, 2, 60, 2});
}

TEST_CASE("[ReduceMax.axes.normalise] [ReduceMax.v11] axis -2 is axis 1 of a rank-3 input", "[reducemax]") {
  auto y = reduce_max(11, X322(), P(std::vector<std::int64_t>{-2}, 1));
  CHECK(y.shape() == Shape{3, 1, 2});
  CHECK(values<float>(y) == std::vector<float>{20, 2, 40, 2, 60, 2});
}

TEST_CASE("[ReduceMax.axes.default] no axes reduces every axis", "[reducemax]") {
  auto k1 = reduce_max(1, X322(), P(std::nullopt, 1));
  CHECK(k1.shape() == Shape{1, 1, 1});
  CHECK(values<float>(k1) == std::vector<float>{60});
  auto k0 = reduce_max(18, X322(), P(std::vector<std::int64_t>{}, 0));  // empty axes input, noop 0
  CHECK(k0.shape() == Shape{});
  CHECK(values<float>(k0) == std::vector<float>{60});
}

TEST_CASE("[ReduceMax.axes.noop] [ReduceMax.v18] noop_with_empty_axes = 1 returns X unchanged", "[reducemax]") {
  auto y = reduce_max(18, X322(), P(std::nullopt, 0, 1));
  CHECK(y.shape() == Shape{3, 2, 2});
  CHECK(values<float>(y) == std::vector<float>{5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2});
  // with axes given, noop has no effect
  auto z = reduce_max(20, X322(), P(std::vector<std::int64_t>{0, 2}, 0, 1));
  CHECK(z.shape() == Shape{2});
  CHECK(values<float>(z) == std::vector<float>{55, 60});
}

TEST_CASE("[ReduceMax.float.nan] [Common.order.nan-payload] the first NaN in row-major order of R(j) is returned", "[reducemax]") {
  const float n1 = nan_with_bits(0x7FC00011), n2 = nan_with_bits(0xFF800022);
  // X [2, 3] = [[1, n1, n2], [n2, kInf, n1]]; axis 1 -> [n1, n2]; axis 0 -> [n2, n1, n2]
  auto x = f32({2, 3}, {1, n1, n2, n2, kInf, n1});
  CHECK(bits(reduce_max(13, x, P(std::vector<std::int64_t>{1}, 0))) == std::vector<std::uint32_t>{0x7FC00011u, 0xFF800022u});
  CHECK(bits(reduce_max(13, x, P(std::vector<std::int64_t>{0}, 0))) ==
        std::vector<std::uint32_t>{0xFF800022u, 0x7FC00011u, 0xFF800022u});
}

TEST_CASE("[ReduceMax.float.zero] -0 and +0 in one reduced set give +0, all -0 gives -0", "[reducemax]") {
  auto x = f32({2, 2}, {-0.0f, 0.0f, -0.0f, -0.0f});
  CHECK(bits(reduce_max(13, x, P(std::vector<std::int64_t>{1}, 0))) == std::vector<std::uint32_t>{0x00000000u, 0x80000000u});
}

TEST_CASE("[ReduceMax.float.empty] an empty reduced set gives -Inf", "[reducemax]") {
  // X shape [0, 3], reduce axis 0: three empty sets
  auto y = reduce_max(18, f32({0, 3}, {}), P(std::vector<std::int64_t>{0}, 1));
  CHECK(y.shape() == Shape{1, 3});
  CHECK(bits(y) == std::vector<std::uint32_t>{0xFF800000u, 0xFF800000u, 0xFF800000u});
  // reduce axis 1 of [0, 3]: no output element at all
  auto z = reduce_max(18, f32({0, 3}, {}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(z.shape() == Shape{0});
}

TEST_CASE("[ReduceMax.float.empty] [Common.dtype.float16] [Common.dtype.bfloat16] -Inf patterns of the 16-bit floats", "[reducemax]") {
  auto h = reduce_max(13, make_tensor<float16>({0}, {}), P(std::nullopt, 0));
  CHECK(sonnx::bits(values<float16>(h)[0]) == 0xFC00);
  auto b = reduce_max(13, make_tensor<bfloat16>({2, 0}, {}), P(std::nullopt, 0));
  CHECK(sonnx::bits(values<bfloat16>(b)[0]) == 0xFF80);
}

TEST_CASE("[ReduceMax.int.empty] [ReduceMax.int.formula] integer minimum on an empty set, integer maxima", "[reducemax]") {
  CHECK(values<std::int32_t>(reduce_max(13, make_tensor<std::int32_t>({0}, {}), P(std::nullopt, 0))) ==
        std::vector<std::int32_t>{-2147483647 - 1});
  CHECK(values<std::uint8_t>(reduce_max(13, make_tensor<std::uint8_t>({0}, {}), P(std::nullopt, 0))) ==
        std::vector<std::uint8_t>{0});
  CHECK(values<std::int64_t>(reduce_max(12, make_tensor<std::int64_t>({2, 2}, {-5, -9, 3, 2}), P(std::vector<std::int64_t>{0}, 0))) ==
        std::vector<std::int64_t>{3, 2});
}

TEST_CASE("[ReduceMax.bool.formula] [ReduceMax.bool.empty] [ReduceMax.v20] bool: any True, empty set False", "[reducemax]") {
  auto x = make_tensor<bool>({2, 3}, {false, false, true, false, false, false});
  CHECK(values<bool>(reduce_max(20, x, P(std::vector<std::int64_t>{1}, 0))) == std::vector<bool>{true, false});
  CHECK(values<bool>(reduce_max(20, make_tensor<bool>({0, 2}, {}), P(std::vector<std::int64_t>{0}, 0))) ==
        std::vector<bool>{false, false});
}

TEST_CASE("[ReduceMax.shape] rank 0 input: reducing all axes of a scalar returns it", "[reducemax]") {
  auto y = reduce_max(13, f32({}, {-0.0f}), P(std::nullopt, 1));
  CHECK(y.shape() == Shape{});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x80000000u});
}

TEST_CASE("[ReduceMax.err.axis-range] axes outside [-r, r-1], negative axes before version 11", "[reducemax][error]") {
  CHECK(refusal_id([] { reduce_max(13, X322(), P(std::vector<std::int64_t>{3})); }) == "ReduceMax.err.axis-range");
  CHECK(refusal_id([] { reduce_max(13, X322(), P(std::vector<std::int64_t>{-4})); }) == "ReduceMax.err.axis-range");
  CHECK(refusal_id([] { reduce_max(1, X322(), P(std::vector<std::int64_t>{-1})); }) == "ReduceMax.err.axis-range");
  CHECK(refusal_id([] { reduce_max(13, f32({}, {1}), P(std::vector<std::int64_t>{0})); }) == "ReduceMax.err.axis-range");
}

TEST_CASE("[ReduceMax.err.axis-duplicate] axes 1 and -2 name the same axis", "[reducemax][error]") {
  CHECK(refusal_id([] { reduce_max(13, X322(), P(std::vector<std::int64_t>{1, -2})); }) == "ReduceMax.err.axis-duplicate");
}

TEST_CASE("[ReduceMax.err.flag] keepdims must be 0 or 1", "[reducemax][error]") {
  CHECK(refusal_id([] { reduce_max(13, X322(), P(std::nullopt, 2)); }) == "ReduceMax.err.flag");
  CHECK(refusal_id([] { reduce_max(18, X322(), P(std::nullopt, 1, -1)); }) == "ReduceMax.err.flag");
}

TEST_CASE("[ReduceMax.err.dtype] [ReduceMax.v1] [ReduceMax.v12] [ReduceMax.v13] [ReduceMax.v20] type constraints", "[reducemax][error]") {
  CHECK(refusal_id([] { reduce_max(11, make_tensor<std::int8_t>({1}, {1}), P(std::nullopt)); }) == "ReduceMax.err.dtype");
  CHECK(refusal_id([] { reduce_max(12, make_tensor<std::int8_t>({1}, {1}), P(std::nullopt)); }) == "");
  CHECK(refusal_id([] { reduce_max(20, make_tensor<std::int16_t>({1}, {1}), P(std::nullopt)); }) == "ReduceMax.err.dtype");
  CHECK(refusal_id([] { reduce_max(20, make_tensor<std::uint16_t>({1}, {1}), P(std::nullopt)); }) == "ReduceMax.err.dtype");
  CHECK(refusal_id([] { reduce_max(12, make_tensor<bfloat16>({1}, {bfloat16{0}}), P(std::nullopt)); }) == "ReduceMax.err.dtype");
  CHECK(refusal_id([] { reduce_max(18, make_tensor<bool>({1}, {true}), P(std::nullopt)); }) == "ReduceMax.err.dtype");
}

TEST_CASE("[ReduceMax.err.axes-input] the axes input is an int64 tensor of rank 1", "[reducemax][error]") {
  CHECK(refusal_id([] { ops::axes_from_input(make_tensor<std::int32_t>({1}, {0})); }) == "ReduceMax.err.axes-input");
  CHECK(refusal_id([] { ops::axes_from_input(make_tensor<std::int64_t>({}, {0})); }) == "ReduceMax.err.axes-input");
  CHECK(ops::axes_from_input(make_tensor<std::int64_t>({2}, {0, -1})) == std::vector<std::int64_t>{0, -1});
}

// Long reduced sets (issue #12, mutants runs-10 and runs-12): the formula and the NaN rule hold for
// a set of any length, wherever its greatest element or its first NaN stands.
TEST_CASE("[ReduceMax.float.formula] sets of 5000 elements: the greatest wherever it stands", "[reducemax]") {
  // X [3, 5000], every element -1 except X[0][0] = 7, X[1][4095] = 8, X[2][4999] = 9; axis 1 -> [7, 8, 9]
  std::vector<float> x(3 * 5000, -1.0f);
  x[0 * 5000 + 0] = 7;
  x[1 * 5000 + 4095] = 8;
  x[2 * 5000 + 4999] = 9;
  auto y = reduce_max(13, f32({3, 5000}, x), P(std::vector<std::int64_t>{1}, 0));
  CHECK(values<float>(y) == std::vector<float>{7, 8, 9});
}

TEST_CASE("[ReduceMax.float.nan] [Common.order.nan-payload] [Common.dtype.float16] [Common.dtype.bfloat16] a set of 40 elements holding two NaNs gives the first, bit for bit", "[reducemax]") {
  // X [40] = 1 everywhere but X[5] = a negative NaN, X[20] = a positive NaN: Y = X[5]'s bits.
  std::vector<float16> h(40, float16{0x3C00});
  h[5] = float16{0xFE01};
  h[20] = float16{0x7E00};
  CHECK(bits16(reduce_max(13, make_tensor<float16>({40}, h), P(std::nullopt, 0))) == std::vector<std::uint16_t>{0xFE01});
  std::vector<bfloat16> b(40, bfloat16{0x3F80});
  b[5] = bfloat16{0xFFC1};
  b[20] = bfloat16{0x7FC0};
  CHECK(bits16(reduce_max(18, make_tensor<bfloat16>({40}, b), P(std::nullopt, 0))) == std::vector<std::uint16_t>{0xFFC1});
}

}  // namespace reducemax_test
