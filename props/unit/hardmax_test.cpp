// Hand-derived examples of spec/ops/hardmax.md.
#include "ops/hardmax.hpp"
#include "test_util.hpp"

namespace hardmax_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::hardmax;

TEST_CASE("[Hardmax.float.formula] [Hardmax.float.first-max] [Hardmax.v13] rows of a matrix, ties take the first", "[hardmax]") {
  auto y = hardmax(13, f32({3, 4}, {3, 0, 1, 2, 2, 3, 1, 0, 0, 1, 3, 3}), -1);
  CHECK(values<float>(y) == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
}

TEST_CASE("[Hardmax.float.nan] the 1 goes to the first NaN of the slice", "[hardmax]") {
  const float n = nan_with_bits(0x7FC00000);
  auto y = hardmax(13, f32({2, 3}, {kInf, n, n, 1, 2, n}), 1);
  CHECK(values<float>(y) == std::vector<float>{0, 1, 0, 0, 0, 1});
}

TEST_CASE("[Hardmax.float.zero] [-0, +0] puts the 1 at index 1, [+0, -0] at index 0", "[hardmax]") {
  CHECK(values<float>(hardmax(13, f32({2}, {-0.0f, 0.0f}), 0)) == std::vector<float>{0, 1});
  CHECK(values<float>(hardmax(13, f32({2}, {0.0f, -0.0f}), 0)) == std::vector<float>{1, 0});
}

TEST_CASE("[Hardmax.float.values] the written values are exactly 1 and +0", "[hardmax]") {
  auto y = hardmax(13, f32({3}, {-0.0f, -kInf, -1}), 0);  // max is -0 at index 0
  CHECK(bits(y) == std::vector<std::uint32_t>{0x3F800000u, 0u, 0u});
  auto h = hardmax(13, make_tensor<float16>({2}, {float16{0xFC00}, float16{0xBC00}}), 0);  // [-Inf, -1]
  CHECK(sonnx::bits(values<float16>(h)[0]) == 0x0000);
  CHECK(sonnx::bits(values<float16>(h)[1]) == 0x3C00);
  auto b = hardmax(13, make_tensor<bfloat16>({2}, {bfloat16{0x3F80}, bfloat16{0x3F80}}), 0);
  CHECK(sonnx::bits(values<bfloat16>(b)[0]) == 0x3F80);
  CHECK(sonnx::bits(values<bfloat16>(b)[1]) == 0x0000);
}

TEST_CASE("[Hardmax.float.formula] [Hardmax.axis.normalise] axis 0 of a rank-3 tensor, -3 names it too", "[hardmax]") {
  // X [2, 2, 2]; along axis 0 compare X[0, j, k] with X[1, j, k]
  auto x = f32({2, 2, 2}, {1, 5, 3, 3, 2, 4, 3, 7});
  const std::vector<float> expected = {0, 1, 1, 0, 1, 0, 0, 1};
  CHECK(values<float>(hardmax(13, x, 0)) == expected);
  CHECK(values<float>(hardmax(13, x, -3)) == expected);
}

TEST_CASE("[Hardmax.coerce] [Hardmax.v11] rank 3 with axis 1: one 1 per row of [d0, d1*d2]", "[hardmax]") {
  // X [2, 2, 2] coerced to [2, 4]: rows {1, 5, 3, 3} and {2, 4, 3, 7}
  auto x = f32({2, 2, 2}, {1, 5, 3, 3, 2, 4, 3, 7});
  auto y11 = hardmax(11, x, 1);
  CHECK(y11.shape() == Shape{2, 2, 2});
  CHECK(values<float>(y11) == std::vector<float>{0, 1, 0, 0, 0, 0, 0, 1});
  // Version 13 with axis 1 works along axis 1 alone: slices (X[b, :, k]) -> different result
  CHECK(values<float>(hardmax(13, x, 1)) == std::vector<float>{0, 1, 1, 0, 0, 0, 1, 1});
  // [Hardmax.v1] default axis 1, same coercion; axis 0 makes the whole tensor one row
  CHECK(values<float>(hardmax(1, x, 0)) == std::vector<float>{0, 0, 0, 0, 0, 0, 0, 1});
}

TEST_CASE("[Hardmax.empty] [Hardmax.shape] zero-sized axis or dimension: an empty output of the input shape", "[hardmax]") {
  CHECK(hardmax(13, f32({2, 0}, {}), -1).shape() == Shape{2, 0});
  CHECK(hardmax(13, f32({0, 3}, {}), 1).shape() == Shape{0, 3});
  CHECK(hardmax(11, f32({3, 0, 2}, {}), 1).shape() == Shape{3, 0, 2});
}

TEST_CASE("[Hardmax.err.axis-range] rank 0, axis = r, axis < -r, negative axis in version 1", "[hardmax][error]") {
  CHECK(refusal_id([] { hardmax(13, f32({}, {1}), -1); }) == "Hardmax.err.axis-range");
  CHECK(refusal_id([] { hardmax(13, f32({2}, {1, 2}), 1); }) == "Hardmax.err.axis-range");
  CHECK(refusal_id([] { hardmax(11, f32({2}, {1, 2}), -1); }) == "");
  CHECK(refusal_id([] { hardmax(11, f32({2}, {1, 2}), -2); }) == "Hardmax.err.axis-range");
  CHECK(refusal_id([] { hardmax(1, f32({2, 2}, {1, 2, 3, 4}), -1); }) == "Hardmax.err.axis-range");
}

TEST_CASE("[Hardmax.err.dtype] [Hardmax.v13] float types only, bfloat16 from version 13", "[hardmax][error]") {
  CHECK(refusal_id([] { hardmax(13, make_tensor<std::int32_t>({1}, {1}), 0); }) == "Hardmax.err.dtype");
  CHECK(refusal_id([] { hardmax(11, make_tensor<bfloat16>({1}, {bfloat16{0}}), 0); }) == "Hardmax.err.dtype");
  CHECK(refusal_id([] { hardmax(13, make_tensor<bfloat16>({1}, {bfloat16{0}}), 0); }) == "");
}

TEST_CASE("[Common.gr.defaults] default axis: 1 before version 13, -1 from 13", "[hardmax]") {
  CHECK(ops::hardmax_default_axis(1) == 1);
  CHECK(ops::hardmax_default_axis(11) == 1);
  CHECK(ops::hardmax_default_axis(13) == -1);
}

// A long row (issue #12, mutant runs-10): the first NaN decides wherever it stands.
TEST_CASE("[Hardmax.float.nan] [Common.dtype.float16] a row of 40 elements holding two NaNs: 1 at the first", "[hardmax]") {
  // V = 1 everywhere but V[5] = a negative NaN, V[20] = a positive NaN: h(V) = 5.
  std::vector<float16> v(40, float16{0x3C00});
  v[5] = float16{0xFE01};
  v[20] = float16{0x7E00};
  std::vector<std::uint16_t> want(40, 0x0000);
  want[5] = 0x3C00;
  CHECK(bits16(hardmax(13, make_tensor<float16>({40}, v), 0)) == want);
}

// Issue #12 (mutant hardmax-11): more sequences side by side than one block of columns.
TEST_CASE("[Hardmax.float.formula] [Hardmax.v13] axis 0 of [2, 300]: every one of the 300 columns gets its 1", "[hardmax]") {
  // X[0][c] = 0, X[1][c] = 1 for every c: h = 1 in each column, so Y[0][c] = 0 and Y[1][c] = 1.
  std::vector<float> x(600, 0.0f);
  std::fill(x.begin() + 300, x.end(), 1.0f);
  std::vector<float> want(600, 0.0f);
  std::fill(want.begin() + 300, want.end(), 1.0f);
  CHECK(values<float>(hardmax(13, f32({2, 300}, x), 0)) == want);
}

}  // namespace hardmax_test
