// Hand-derived examples of spec/ops/min.md (the min order of spec/common/order.md, [Common.order.min]).
// Every expected value is worked out by hand from the clause named in the test case, not from the
// implementation.
#include "ops/min.hpp"
#include "test_util.hpp"

namespace min_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::min;

namespace {
Tensor run(int version, std::vector<Tensor> xs) {
  std::vector<const Tensor*> p;
  for (auto& x : xs) p.push_back(&x);
  return min(version, p);
}
}  // namespace

TEST_CASE("[Min.float.formula] element-wise minimum of three inputs", "[min]") {
  // position 0: min(1, 3, -1) = -1; 1: min(5, 2, 5) = 2; 2: min(-2, -7, -2.5) = -7
  auto y = run(13, {f32({3}, {1, 5, -2}), f32({3}, {3, 2, -7}), f32({3}, {-1, 5, -2.5f})});
  CHECK(y.shape() == Shape{3});
  CHECK(values<float>(y) == std::vector<float>{-1, 2, -7});
}

TEST_CASE("[Min.float.zero] [Common.order.min] Min(+0,-0) and Min(-0,+0) are both -0, +0 alone stays +0", "[min]") {
  auto a = run(13, {f32({4}, {0.0f, -0.0f, 0.0f, 0.0f}), f32({4}, {-0.0f, 0.0f, 0.0f, 1.0f})});
  // -0 < +0: positions 0 and 1 give -0; +0 with +0 gives +0; +0 with 1 gives +0
  CHECK(bits(a) == std::vector<std::uint32_t>{0x80000000u, 0x80000000u, 0x00000000u, 0x00000000u});
  auto b = run(8, {f32({1}, {-1.0f}), f32({1}, {-0.0f})});
  CHECK(bits(b) == std::vector<std::uint32_t>{0xBF800000u});  // -1 < -0
}

TEST_CASE("[Min.float.nan] [Common.order.nan-payload] NaN absorbs and the first NaN's bits are returned", "[min]") {
  const float n1 = nan_with_bits(0x7FC00001), n2 = nan_with_bits(0xFFC00002), snan = nan_with_bits(0x7F800001);
  auto y = run(13, {f32({4}, {1, n1, -kInf, snan}), f32({4}, {n2, n2, -3, 0}), f32({4}, {-kInf, 7, n1, -1})});
  // 0: first NaN is X1's n2 (-Inf after it does not matter); 1: X0's n1; 2: X2's n1 (-Inf before it
  // does not matter); 3: X0's signalling NaN, unquieted
  CHECK(bits(y) == std::vector<std::uint32_t>{0xFFC00002u, 0x7FC00001u, 0x7FC00001u, 0x7F800001u});
}

TEST_CASE("[Min.shape] [Common.broadcast.map] [Min.v8] broadcasting [2,1] with [3] and a scalar", "[min]") {
  auto y = run(8, {f32({2, 1}, {1, 10}), f32({3}, {0, 5, 20}), f32({}, {2})});
  CHECK(y.shape() == Shape{2, 3});
  // Y[i,j] = min(X0[i,0], X1[j], 2): row 0 = min(1, {0,5,20}, 2) = {0, 1, 1}; row 1 = {0, 2, 2}
  CHECK(values<float>(y) == std::vector<float>{0, 1, 1, 0, 2, 2});
}

TEST_CASE("[Min.shape] [Common.broadcast.dims] a zero-sized dimension broadcasts against 1, rank 0 stays rank 0",
          "[min]") {
  auto y = run(13, {f32({0, 3}, {}), f32({1, 3}, {1, 2, 3})});
  CHECK(y.shape() == Shape{0, 3});
  auto z = run(6, {f32({}, {-0.0f})});
  CHECK(z.shape() == Shape{});
  CHECK(bits(z) == std::vector<std::uint32_t>{0x80000000u});  // one input: returned as is
}

TEST_CASE("[Min.int.formula] [Min.v12] integers: extremes of int8, uint64 without signed reinterpretation, int64",
          "[min]") {
  auto a = run(12, {make_tensor<std::int8_t>({3}, {-128, 127, -1}), make_tensor<std::int8_t>({3}, {-127, -128, -2})});
  CHECK(values<std::int8_t>(a) == std::vector<std::int8_t>{-128, -128, -2});
  // 2^64 - 1 is the greatest uint64, 2^63 is not negative
  auto b = run(13, {make_tensor<std::uint64_t>({2}, {18446744073709551615ull, 0}),
                    make_tensor<std::uint64_t>({2}, {9223372036854775808ull, 1})});
  CHECK(values<std::uint64_t>(b) == std::vector<std::uint64_t>{9223372036854775808ull, 0});
  auto c = run(13, {make_tensor<std::int64_t>({1}, {9223372036854775807ll}), make_tensor<std::int64_t>({1}, {-1})});
  CHECK(values<std::int64_t>(c) == std::vector<std::int64_t>{-1});
}

TEST_CASE("[Min.float.formula] [Min.float.zero] [Common.dtype.float16] float16 patterns: -0 below +0, NaN absorbs, "
          "subnormals by value",
          "[min]") {
  // 0x8000 = -0, 0x0000 = +0, 0x7E01 NaN, 0x3C00 = 1, 0xFC00 = -Inf, 0x8001 = -2^-24, 0x0001 = 2^-24
  auto y = run(13, {make_tensor<float16>({4}, {float16{0x0000}, float16{0x3C00}, float16{0xFC00}, float16{0x0001}}),
                    make_tensor<float16>({4}, {float16{0x8000}, float16{0x7E01}, float16{0x3C00}, float16{0x8001}})});
  CHECK(bits16(y) == std::vector<std::uint16_t>{0x8000, 0x7E01, 0xFC00, 0x8001});
}

TEST_CASE("[Min.v13] [Common.dtype.bfloat16] bfloat16: -1 vs -2, NaN, +0 vs -0", "[min]") {
  // 0xBF80 = -1, 0xC000 = -2, 0x7FC1 NaN, 0x3F80 = 1
  auto y = run(13, {make_tensor<bfloat16>({3}, {bfloat16{0xBF80}, bfloat16{0x3F80}, bfloat16{0x0000}}),
                    make_tensor<bfloat16>({3}, {bfloat16{0xC000}, bfloat16{0x7FC1}, bfloat16{0x8000}})});
  CHECK(bits16(y) == std::vector<std::uint16_t>{0xC000, 0x7FC1, 0x8000});
}

TEST_CASE("[Min.err.arity] no input is refused", "[min][error]") {
  CHECK(refusal_id([] { min(13, {}); }) == "Min.err.arity");
}

TEST_CASE("[Min.err.type] inputs of different types are refused", "[min][error]") {
  CHECK(refusal_id([] { run(13, {f32({1}, {1}), make_tensor<double>({1}, {1})}); }) == "Min.err.type");
  CHECK(refusal_id([] { run(13, {make_tensor<std::int8_t>({1}, {1}), make_tensor<std::uint8_t>({1}, {1})}); }) ==
        "Min.err.type");
}

TEST_CASE("[Min.err.dtype] [Min.v8] [Min.v12] [Min.v13] type constraints of each version", "[min][error]") {
  CHECK(refusal_id([] { run(8, {make_tensor<std::int32_t>({1}, {1})}); }) == "Min.err.dtype");
  CHECK(refusal_id([] { run(12, {make_tensor<std::int32_t>({1}, {1})}); }) == "");
  CHECK(refusal_id([] { run(12, {make_tensor<bfloat16>({1}, {bfloat16{0}})}); }) == "Min.err.dtype");
  CHECK(refusal_id([] { run(13, {make_tensor<bfloat16>({1}, {bfloat16{0}})}); }) == "");
  CHECK(refusal_id([] { run(13, {make_tensor<bool>({1}, {true})}); }) == "Min.err.dtype");
}

TEST_CASE("[Min.err.broadcast] [Min.err.same-shape] [Min.v1] [Min.v6] [Min.v8] shapes: no broadcasting before "
          "version 8, [2,3] and [2] never",
          "[min][error]") {
  CHECK(refusal_id([] { run(8, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})}); }) == "Min.err.broadcast");
  CHECK(refusal_id([] { run(6, {f32({2}, {1, 2}), f32({1}, {1})}); }) == "Min.err.same-shape");
  CHECK(refusal_id([] { run(1, {f32({1, 2}, {1, 2}), f32({2}, {1, 2})}); }) == "Min.err.same-shape");
  CHECK(refusal_id([] { run(8, {f32({2}, {1, 2}), f32({1}, {1})}); }) == "");
}

}  // namespace min_test
