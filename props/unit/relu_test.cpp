// Hand-derived examples of spec/ops/relu.md: the document's worked examples, each citing its clause.
#include "ops/relu.hpp"
#include "test_util.hpp"

namespace relu_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::relu;

TEST_CASE("[Relu.float.formula] Example 1: float", "[relu]") {
  auto y = relu(14, f32({4}, {-2.0f, -0.5f, 0.5f, 3.0f}));
  CHECK(bits(y) == std::vector<std::uint32_t>{0x00000000u, 0x00000000u, 0x3F000000u, 0x40400000u});
}

TEST_CASE("[Relu.float.zero] Example 2: signed zeros give +0", "[relu]") {
  CHECK(bits(relu(6, f32({2}, {-0.0f, 0.0f}))) == std::vector<std::uint32_t>{0x00000000u, 0x00000000u});
}

TEST_CASE("[Relu.float.nan] [Common.order.nan-payload] Example 3: NaN kept bit for bit, sign and signalling bit "
          "included",
          "[relu]") {
  auto x = f32({4}, {nan_with_bits(0x7FC00001), nan_with_bits(0xFFC00002), nan_with_bits(0x7F800001),
                     nan_with_bits(0xFF800003)});
  CHECK(bits(relu(13, x)) == std::vector<std::uint32_t>{0x7FC00001u, 0xFFC00002u, 0x7F800001u, 0xFF800003u});
}

TEST_CASE("[Relu.float.formula] [Common.dtype.float16] Example 4: infinities, extremes and subnormals (float16)",
          "[relu]") {
  auto x = make_tensor<float16>({6}, {float16{0xFC00}, float16{0xFBFF}, float16{0x8001}, float16{0x0001},
                                      float16{0x7BFF}, float16{0x7C00}});
  CHECK(bits16(relu(1, x)) == std::vector<std::uint16_t>{0x0000, 0x0000, 0x0000, 0x0001, 0x7BFF, 0x7C00});
}

TEST_CASE("[Relu.float.formula] [Relu.v13] [Common.dtype.bfloat16] Example 5: bfloat16", "[relu]") {
  auto x = make_tensor<bfloat16>({4}, {bfloat16{0xBF80}, bfloat16{0x8000}, bfloat16{0x4049}, bfloat16{0x0001}});
  CHECK(bits16(relu(13, x)) == std::vector<std::uint16_t>{0x0000, 0x0000, 0x4049, 0x0001});
}

TEST_CASE("[Relu.shape] Example 6: rank 0 and empty (double)", "[relu]") {
  auto y = relu(14, make_tensor<double>({}, {-0.0}));
  CHECK(y.shape() == Shape{});
  CHECK(bits_of(values<double>(y)[0]) == 0x0000000000000000ull);
  auto e = relu(14, make_tensor<double>({2, 0, 3}, {}));
  CHECK(e.shape() == Shape{2, 0, 3});
  CHECK(e.dtype() == DType::Double);
}

TEST_CASE("[Relu.int.formula] [Relu.v14] int Example 1: int8 extremes", "[relu]") {
  auto y = relu(14, make_tensor<std::int8_t>({5}, {-128, -1, 0, 1, 127}));
  CHECK(values<std::int8_t>(y) == std::vector<std::int8_t>{0, 0, 0, 1, 127});
}

TEST_CASE("[Relu.int.formula] int Example 2: int64, rank 2", "[relu]") {
  auto y = relu(14, make_tensor<std::int64_t>({2, 2}, {-9223372036854775807ll - 1, 5, 9223372036854775807ll, -1}));
  CHECK(y.shape() == Shape{2, 2});
  CHECK(values<std::int64_t>(y) == std::vector<std::int64_t>{0, 5, 9223372036854775807ll, 0});
}

TEST_CASE("[Relu.err.dtype] [Relu.v13] [Relu.v14] int Example 3: refused types", "[relu][error]") {
  CHECK(refusal_id([] { relu(14, make_tensor<std::uint8_t>({1}, {1})); }) == "Relu.err.dtype");
  CHECK(refusal_id([] { relu(13, make_tensor<std::int32_t>({1}, {1})); }) == "Relu.err.dtype");
  CHECK(refusal_id([] { relu(6, make_tensor<bfloat16>({1}, {bfloat16{0}})); }) == "Relu.err.dtype");
  CHECK(refusal_id([] { relu(14, make_tensor<bool>({1}, {true})); }) == "Relu.err.dtype");
  CHECK(refusal_id([] { relu(14, make_tensor<std::int16_t>({1}, {-1})); }) == "");
}

}  // namespace relu_test
