// Hand-derived examples of spec/ops/max.md. Every expected value is worked out from the clause
// named in the test case, not from the implementation.
#include "ops/max.hpp"
#include "test_util.hpp"

namespace max_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::max;

namespace {
Tensor run(int version, std::vector<Tensor> xs) {
  std::vector<const Tensor*> p;
  for (auto& x : xs) p.push_back(&x);
  return max(version, p);
}
}  // namespace

TEST_CASE("[Max.float.formula] elementwise maximum of three inputs", "[max]") {
  auto y = run(13, {f32({3}, {1, 5, -2}), f32({3}, {4, 2, -7}), f32({3}, {0, 9, -3})});
  CHECK(y.shape() == Shape{3});
  CHECK(values<float>(y) == std::vector<float>{4, 9, -2});
}

TEST_CASE("[Max.float.zero] Max(+0,-0) and Max(-0,+0) are both +0", "[max]") {
  auto a = run(13, {f32({2}, {0.0f, -0.0f}), f32({2}, {-0.0f, 0.0f})});
  CHECK(bits(a) == std::vector<std::uint32_t>{0x00000000u, 0x00000000u});
  auto b = run(8, {f32({1}, {-0.0f}), f32({1}, {-0.0f})});
  CHECK(bits(b) == std::vector<std::uint32_t>{0x80000000u});  // -0 alone stays -0
}

TEST_CASE("[Max.float.nan] [Common.order.nan-payload] NaN absorbs and the first NaN's bits are returned", "[max]") {
  const float n1 = nan_with_bits(0x7FC00001), n2 = nan_with_bits(0xFFC00002), snan = nan_with_bits(0x7F800001);
  auto y = run(13, {f32({4}, {1, n1, kInf, snan}), f32({4}, {n2, n2, 3, 0}), f32({4}, {kInf, 7, n1, 1})});
  // index 0: first NaN is X1's n2; index 1: X0's n1 comes first; index 2: X2's n1; index 3: X0's sNaN kept as is
  CHECK(bits(y) == std::vector<std::uint32_t>{0xFFC00002u, 0x7FC00001u, 0x7FC00001u, 0x7F800001u});
}

TEST_CASE("[Common.order.total] infinities and negatives order", "[max]") {
  auto y = run(12, {f32({3}, {-kInf, -kInf, -1e-45f}), f32({3}, {-3.4e38f, -kInf, -0.0f})});
  CHECK(bits(y) == bits(std::vector<float>{-3.4e38f, -kInf, -0.0f}));
}

TEST_CASE("[Max.shape] [Common.broadcast.map] broadcasting [2,1] with [3] and a scalar", "[max]") {
  auto y = run(8, {f32({2, 1}, {1, 10}), f32({3}, {0, 5, 20}), f32({}, {2})});
  CHECK(y.shape() == Shape{2, 3});
  // Y[i,j] = max(X0[i,0], X1[j], X2[])
  CHECK(values<float>(y) == std::vector<float>{2, 5, 20, 10, 10, 20});
}

TEST_CASE("[Max.shape] [Common.broadcast.dims] a zero-sized dimension broadcasts against 1", "[max]") {
  auto y = run(13, {f32({0, 3}, {}), f32({1, 3}, {1, 2, 3})});
  CHECK(y.shape() == Shape{0, 3});
  CHECK(y.size() == 0);
}

TEST_CASE("[Max.prop.unary] [Max.shape] one input of rank 0 is returned as is", "[max]") {
  auto y = run(6, {f32({}, {-0.0f})});
  CHECK(y.shape() == Shape{});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x80000000u});
}

TEST_CASE("[Max.int.formula] integers: extremes of int8, uint64, int64", "[max]") {
  auto a = run(12, {make_tensor<std::int8_t>({3}, {-128, 127, -1}), make_tensor<std::int8_t>({3}, {-127, -128, -2})});
  CHECK(values<std::int8_t>(a) == std::vector<std::int8_t>{-127, 127, -1});
  auto b = run(13, {make_tensor<std::uint64_t>({2}, {0, 18446744073709551615ull}),
                    make_tensor<std::uint64_t>({2}, {1, 5})});
  CHECK(values<std::uint64_t>(b) == std::vector<std::uint64_t>{1, 18446744073709551615ull});
  auto c = run(12, {make_tensor<std::int64_t>({1}, {-9223372036854775807ll - 1}), make_tensor<std::int64_t>({1}, {-1})});
  CHECK(values<std::int64_t>(c) == std::vector<std::int64_t>{-1});
}

TEST_CASE("[Max.float.formula] [Common.dtype.float16] float16 patterns: +0 over -0, NaN absorbs, Inf", "[max]") {
  // 0x8000 = -0, 0x0000 = +0, 0x7E01 NaN, 0x3C00 = 1, 0x7C00 = +Inf, 0x0001 = 2^-24 (subnormal)
  auto y = run(13, {make_tensor<float16>({4}, {float16{0x8000}, float16{0x3C00}, float16{0x7C00}, float16{0x0001}}),
                    make_tensor<float16>({4}, {float16{0x0000}, float16{0x7E01}, float16{0x3C00}, float16{0x8001}})});
  auto v = values<float16>(y);
  CHECK(sonnx::bits(v[0]) == 0x0000);
  CHECK(sonnx::bits(v[1]) == 0x7E01);
  CHECK(sonnx::bits(v[2]) == 0x7C00);
  CHECK(sonnx::bits(v[3]) == 0x0001);
}

TEST_CASE("[Max.v13] [Common.dtype.bfloat16] bfloat16: -1 vs -2, NaN, -0 vs +0", "[max]") {
  // bfloat16: 0xBF80 = -1, 0xC000 = -2, 0x7FC1 NaN, 0x8000 = -0
  auto y = run(13, {make_tensor<bfloat16>({3}, {bfloat16{0xBF80}, bfloat16{0x7FC1}, bfloat16{0x8000}}),
                    make_tensor<bfloat16>({3}, {bfloat16{0xC000}, bfloat16{0x3F80}, bfloat16{0x0000}})});
  auto v = values<bfloat16>(y);
  CHECK(sonnx::bits(v[0]) == 0xBF80);
  CHECK(sonnx::bits(v[1]) == 0x7FC1);
  CHECK(sonnx::bits(v[2]) == 0x0000);
}

TEST_CASE("[Max.err.arity] no input is refused", "[max][error]") {
  CHECK(refusal_id([] { max(13, {}); }) == "Max.err.arity");
}

TEST_CASE("[Max.err.type] inputs of different types are refused", "[max][error]") {
  CHECK(refusal_id([] { run(13, {f32({1}, {1}), make_tensor<double>({1}, {1})}); }) == "Max.err.type");
}

TEST_CASE("[Max.err.dtype] [Max.v8] [Max.v12] [Max.v13] type constraints of each version", "[max][error]") {
  CHECK(refusal_id([] { run(8, {make_tensor<std::int32_t>({1}, {1})}); }) == "Max.err.dtype");
  CHECK(refusal_id([] { run(12, {make_tensor<std::int32_t>({1}, {1})}); }) == "");
  CHECK(refusal_id([] { run(12, {make_tensor<bfloat16>({1}, {bfloat16{0}})}); }) == "Max.err.dtype");
  CHECK(refusal_id([] { run(13, {make_tensor<bfloat16>({1}, {bfloat16{0}})}); }) == "");
  CHECK(refusal_id([] { run(13, {make_tensor<bool>({1}, {true})}); }) == "Max.err.dtype");
  CHECK(refusal_id([] { run(1, {make_tensor<std::int8_t>({1}, {1})}); }) == "Max.err.dtype");
}

TEST_CASE("[Max.err.broadcast] [Common.broadcast.error] shapes [2,3] and [2] are not broadcastable", "[max][error]") {
  CHECK(refusal_id([] { run(8, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})}); }) == "Max.err.broadcast");
  CHECK(refusal_id([] { run(13, {f32({0}, {}), f32({2}, {1, 2})}); }) == "Max.err.broadcast");
}

TEST_CASE("[Max.err.same-shape] [Max.v1] [Max.v6] no broadcasting before version 8", "[max][error]") {
  CHECK(refusal_id([] { run(6, {f32({2}, {1, 2}), f32({1}, {1})}); }) == "Max.err.same-shape");
  CHECK(refusal_id([] { run(1, {f32({1, 2}, {1, 2}), f32({2}, {1, 2})}); }) == "Max.err.same-shape");
  CHECK(refusal_id([] { run(8, {f32({2}, {1, 2}), f32({1}, {1})}); }) == "");
}

}  // namespace max_test
