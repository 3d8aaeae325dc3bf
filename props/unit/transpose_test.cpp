// Hand-derived examples of spec/ops/transpose.md, each citing its clause.
#include "ops/transpose.hpp"
#include "test_util.hpp"

namespace transpose_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::transpose;
using Perm = std::optional<std::vector<std::int64_t>>;

TEST_CASE("[Transpose.perm.default] [Transpose.shape] Example 1: perm absent reverses the axes", "[transpose]") {
  auto y = transpose(1, f32({2, 3}, {1, 2, 3, 4, 5, 6}), std::nullopt);
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values<float>(y) == std::vector<float>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("[Transpose.formula] Example 2: perm (1, 2, 0)", "[transpose]") {
  auto y = transpose(13, f32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), Perm{{1, 2, 0}});
  CHECK(y.shape() == Shape{2, 3, 1});
  CHECK(values<float>(y) == std::vector<float>{1, 2, 3, 4, 5, 6});  // Y[a, b, 0] = X[0, a, b]
}

TEST_CASE("[Transpose.formula] a [2, 3, 4] tensor by (2, 0, 1), int16, NaN bits moved unchanged", "[transpose]") {
  std::vector<std::int16_t> x(24);
  for (int t = 0; t < 24; ++t) x[t] = static_cast<std::int16_t>(t);
  auto y = transpose(21, make_tensor<std::int16_t>({2, 3, 4}, x), Perm{{2, 0, 1}});
  CHECK(y.shape() == Shape{4, 2, 3});
  // Y[c, a, b] = X[a, b, c] = 12a + 4b + c
  CHECK(values<std::int16_t>(y) ==
        std::vector<std::int16_t>{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});
  auto n = transpose(1, f32({2, 1}, {nan_with_bits(0xFF800001), -0.0f}), std::nullopt);
  CHECK(bits(n) == std::vector<std::uint32_t>{0xFF800001u, 0x80000000u});
}

TEST_CASE("[Transpose.formula] a large last-two-axes transpose (the blocked copy), double", "[transpose]") {
  const std::int64_t R = 67, C = 45;
  std::vector<double> x(R * C);
  for (std::int64_t t = 0; t < R * C; ++t) x[t] = static_cast<double>(t);
  auto y = transpose(13, make_tensor<double>({R, C}, x), Perm{{1, 0}});
  const auto v = values<double>(y);
  bool ok = true;
  for (std::int64_t c = 0; c < C; ++c)
    for (std::int64_t r = 0; r < R; ++r) ok = ok && v[c * R + r] == static_cast<double>(r * C + c);
  CHECK(ok);
}

TEST_CASE("[Transpose.shape] rank 0, rank 1 and empty", "[transpose]") {
  CHECK(values<float>(transpose(1, f32({}, {7}), std::nullopt)) == std::vector<float>{7});
  CHECK(values<float>(transpose(1, f32({3}, {1, 2, 3}), std::nullopt)) == std::vector<float>{1, 2, 3});
  CHECK(transpose(1, f32({2, 0, 3}, {}), Perm{{2, 0, 1}}).shape() == Shape{3, 2, 0});
}

TEST_CASE("[Transpose.err.perm] a perm that is not a permutation", "[transpose][error]") {
  const auto X = [] { return f32({2, 3}, {1, 2, 3, 4, 5, 6}); };
  CHECK(refusal_id([&] { transpose(13, X(), Perm{{0, 0}}); }) == "Transpose.err.perm");
  CHECK(refusal_id([&] { transpose(13, X(), Perm{{0}}); }) == "Transpose.err.perm");
  CHECK(refusal_id([&] { transpose(13, X(), Perm{{1, 2}}); }) == "Transpose.err.perm");
  CHECK(refusal_id([&] { transpose(13, X(), Perm{{-1, 0}}); }) == "Transpose.err.perm");
}

TEST_CASE("[Transpose.err.dtype] [Transpose.v1] [Transpose.v13] [Transpose.v21] [Transpose.v23] bfloat16 from version 13", "[transpose][error]") {
  auto x = make_tensor<bfloat16>({2}, {bfloat16{0x3F80}, bfloat16{0x4000}});
  CHECK(refusal_id([&] { transpose(1, x, std::nullopt); }) == "Transpose.err.dtype");
  CHECK(bits16(transpose(13, x, std::nullopt)) == std::vector<std::uint16_t>{0x3F80, 0x4000});
  CHECK(bits16(transpose(21, x, std::nullopt)) == std::vector<std::uint16_t>{0x3F80, 0x4000});
  CHECK(bits16(transpose(23, x, std::nullopt)) == std::vector<std::uint16_t>{0x3F80, 0x4000});
}

}  // namespace transpose_test
