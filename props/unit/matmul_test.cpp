// Hand-derived examples of spec/ops/matmul.md, each citing its clause.
#include "core/accuracy.hpp"
#include "ops/matmul.hpp"
#include "ops/registry.hpp"
#include "test_util.hpp"

namespace matmul_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
}  // namespace

TEST_CASE("[MatMul.shape] [MatMul.err.inner] [MatMul.err.rank] [MatMul.err.broadcast] Example 1: shapes", "[matmul]") {
  auto shape = [](Shape a, Shape b) { return ops::matmul(13, Tensor(DType::Float, a), Tensor(DType::Float, b)).shape(); };
  CHECK(shape({3}, {3}) == Shape{});
  CHECK(shape({3}, {3, 4}) == Shape{4});
  CHECK(shape({2, 3}, {3}) == Shape{2});
  CHECK(shape({2, 1, 3, 4}, {5, 4, 2}) == Shape{2, 5, 3, 2});
  CHECK(shape({3}, {2, 3, 4}) == Shape{2, 4});
  auto id = [](Shape a, Shape b) {
    return refusal_id([&] { ops::matmul(13, Tensor(DType::Float, a), Tensor(DType::Float, b)); });
  };
  CHECK(id({2, 3}, {4, 2}) == "MatMul.err.inner");
  CHECK(id({3}, {4}) == "MatMul.err.inner");
  CHECK(id({}, {3}) == "MatMul.err.rank");
  CHECK(id({2, 2, 3}, {3, 3, 4}) == "MatMul.err.broadcast");
}

TEST_CASE("[MatMul.float.formula] [Acc.run] [Acc.ideal] K = 0 gives the empty sum, +0", "[matmul]") {
  const Tensor Y = ops::matmul(13, Tensor(DType::Float, {2, 0}), Tensor(DType::Float, {0, 3}));
  CHECK(Y.shape() == Shape{2, 3});
  CHECK(bits(Y) == std::vector<std::uint32_t>(6, 0x00000000));
  CHECK(conforms(Y, 0, 0.0));
  CHECK_FALSE(conforms(Y, 0, 0x1p-149));
}

TEST_CASE("[MatMul.float.formula] [MatMul.order] [Acc.bound] Example 2: values, and an absorption every order may show",
          "[matmul]") {
  const Tensor Y = ops::matmul(13, f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {5, 6, 7, 8}));
  CHECK(bits(Y) == bits(std::vector<float>{19, 22, 43, 50}));
  // 1 + 2^-24 + 2^-24: left to right in float gives 1 (two ties to even), right to left 1 + 2^-23
  const Tensor Z = ops::matmul(13, f32({3}, {1, 0x1p-24f, 0x1p-24f}), f32({3}, {1, 1, 1}));
  CHECK(Z.shape() == Shape{});
  CHECK(bits(Z) == bits(std::vector<float>{1 + 0x1p-23f}));  // the ideal is a float
  CHECK(conforms(Z, 0, 1.0));
  CHECK(conforms(Z, 0, 1 + 0x1p-23));
  CHECK(conforms(Z, 0, 1 + 0x1p-22));         // 2^-23 from the ideal: within θ(3)·S ≈ 1.5·2^-23
  CHECK_FALSE(conforms(Z, 0, 1 + 0x1p-21));  // 3·2^-23 from it: beyond
}

TEST_CASE("[Acc.run] [Acc.oracle] [MatMul.order] every term -0: run writes -0, the oracle's sum starting from -0", "[matmul]") {
  // (-0)·1 = -0 and (+0)·(-1) = -0: -0 + -0 = -0 from the start -0 (an accumulator started at +0 gives +0)
  const Tensor Y = ops::matmul(13, f32({1, 2}, {-0.0f, 0.0f}), f32({2, 1}, {1, -1}));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x80000000});
  CHECK(conforms(Y, 0, 0.0));  // [Acc.zero] +0 conforms as well
  // four rows at once (M = 4): the same for every row
  const Tensor Z = ops::matmul(13, f32({4, 1}, {-0.0f, -0.0f, 0.0f, 0.0f}), f32({1, 2}, {1, 2}));
  CHECK(bits(Z) == std::vector<std::uint32_t>{0x80000000, 0x80000000, 0x80000000, 0x80000000, 0, 0, 0, 0});
}

TEST_CASE("[Acc.verdict] [Acc.oracle] R = B + e_o: a value within B of the ideal conforms though farther than B from the centre",
          "[matmul]") {
  // Terms 2^80, 2^26, -2^80, -2^59 (K = 4, D = 4). The oracle's binary64 sum loses 2^26 (a quarter of an
  // ulp of 2^80): ŝ = -2^59, s = 2^26 - 2^59, |ŝ - s| = 2^26 <= e_o = γ_5(2^-53)·Ŝ↑ ≈ 5·2^28.
  // θ(4) = 4v + 6v² + ... = 2^-22 + 2.5·2^-46 + ~5·2^-70 (v = 2^-24 + 2^-48 + 2^-72), S = 2^81 + 2^59 + 2^26:
  // B = θ(4)·S = 2^59 + 2^37 + 2.5·2^35 + ~2^15 = 2^59 + 13·2^34 + ~2^15, and B̂ within 2^-40·B + 2^15 of it.
  const float p80 = 0x1p80f, p26 = 0x1p26f, p59 = 0x1p59f;
  const Tensor Y = ops::matmul(13, f32({4}, {p80, p26, -p80, -p59}), f32({4}, {1, 1, 1, 1}));
  CHECK(bits(Y) == bits(std::vector<float>{-p59}));  // [Acc.run] fl_T(ŝ)
  CHECK(Y.annex->at(0).hi == -0x1p59);
  CHECK(Y.annex->at(0).oracle >= 0x1p26);
  // r = 13·2^34 + 2^25 (a float: 6657·2^25): |r - s| = 2^59 + 13·2^34 - 2^25 <= B, so r conforms
  // (|r - ŝ| <= |r - s| + |s - ŝ| <= B + e_o <= R), although |r - ŝ| = 2^59 + 13·2^34 + 2^25 exceeds B̂ by ~2^25
  CHECK(conforms(Y, 0, 13 * 0x1p34 + 0x1p25));
  // 2^32 past B from ŝ is beyond B̂ + e_o (e_o < 2^31)
  CHECK_FALSE(conforms(Y, 0, 53 * 0x1p32));
}

TEST_CASE("[MatMul.int.formula] [Acc.int] [MatMul.v9] integers: exact modulo 2^w, two's complement", "[matmul]") {
  // int32 46341·46341 = 2147488281 wraps to -2147479015
  const Tensor Y = ops::matmul(9, make_tensor<std::int32_t>({1, 1}, {46341}), make_tensor<std::int32_t>({1, 1}, {46341}));
  CHECK(values<std::int32_t>(Y) == std::vector<std::int32_t>{-2147479015});
  CHECK(Y.annex == nullptr);  // judged bit for bit
  const Tensor U = ops::matmul(9, make_tensor<std::uint32_t>({1, 1}, {65536}), make_tensor<std::uint32_t>({1, 1}, {65537}));
  CHECK(values<std::uint32_t>(U) == std::vector<std::uint32_t>{65536});
  const Tensor L = ops::matmul(13, make_tensor<std::int64_t>({1, 2}, {(std::int64_t{1} << 62) + 1, 1}),
                               make_tensor<std::int64_t>({2, 1}, {4, 1}));
  CHECK(values<std::int64_t>(L) == std::vector<std::int64_t>{5});
  CHECK(refusal_id([] { ops::matmul(1, Tensor(DType::Int32, {1, 1}), Tensor(DType::Int32, {1, 1})); }) == "MatMul.err.dtype");
}

TEST_CASE("[MatMul.err.type] [MatMul.err.dtype] [MatMul.v1] [MatMul.v13] types by version", "[matmul]") {
  CHECK(refusal_id([] { ops::matmul(13, Tensor(DType::Float, {1, 1}), Tensor(DType::Double, {1, 1})); }) == "MatMul.err.type");
  CHECK(refusal_id([] { ops::matmul(9, Tensor(DType::BFloat16, {1, 1}), Tensor(DType::BFloat16, {1, 1})); }) == "MatMul.err.dtype");
  CHECK(refusal_id([] { ops::matmul(13, Tensor(DType::BFloat16, {1, 1}), Tensor(DType::BFloat16, {1, 1})); }).empty());
  CHECK(refusal_id([] { ops::matmul(1, Tensor(DType::Float16, {1, 1}), Tensor(DType::Float16, {1, 1})); }).empty());
  CHECK(refusal_id([] { ops::matmul(13, Tensor(DType::Int8, {1, 1}), Tensor(DType::Int8, {1, 1})); }) == "MatMul.err.dtype");
}

}  // namespace matmul_test
