// Hand-derived examples of spec/ops/constantofshape.md, each citing its clause.
#include "ops/constantofshape.hpp"
#include "test_util.hpp"

namespace constantofshape_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::constantofshape;

Tensor dims(std::vector<std::int64_t> v) { return make_tensor<std::int64_t>({static_cast<std::int64_t>(v.size())}, v); }

TEST_CASE("[ConstantOfShape.formula] [ConstantOfShape.shape] [ConstantOfShape.v9] every element is value, bit for bit",
          "[constantofshape]") {
  const Tensor value = f32({1}, {0.02f});  // 0x3CA3D70A
  auto y = constantofshape(9, dims({2, 3}), &value);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(bits(y) == std::vector<std::uint32_t>(6, 0x3CA3D70Au));
  const Tensor nan = f32({1}, {nan_with_bits(0xFF800003)});
  CHECK(bits(constantofshape(21, dims({3}), &nan)) == std::vector<std::uint32_t>(3, 0xFF800003u));
  const Tensor i = make_tensor<std::int32_t>({1}, {-7});
  CHECK(values<std::int32_t>(constantofshape(9, dims({2}), &i)) == std::vector<std::int32_t>{-7, -7});
}

TEST_CASE("[ConstantOfShape.value] without value: float +0", "[constantofshape]") {
  auto y = constantofshape(9, dims({2}), nullptr);
  CHECK(y.dtype() == DType::Float);
  CHECK(bits(y) == std::vector<std::uint32_t>{0u, 0u});
}

TEST_CASE("[ConstantOfShape.shape] an empty shape gives rank 0, a zero gives an empty tensor", "[constantofshape]") {
  auto y = constantofshape(9, dims({}), nullptr);
  CHECK(y.rank() == 0);
  CHECK(y.size() == 1);
  auto e = constantofshape(9, dims({0, 3}), nullptr);
  CHECK(e.shape() == Shape{0, 3});
  CHECK(e.size() == 0);
}

TEST_CASE("[ConstantOfShape.err.input] [ConstantOfShape.err.negative] [ConstantOfShape.err.value] "
          "[ConstantOfShape.err.dtype] [ConstantOfShape.v20] [ConstantOfShape.v21] refusals",
          "[constantofshape]") {
  CHECK(refusal_id([] { constantofshape(9, make_tensor<std::int32_t>({1}, {2}), nullptr); }) == "ConstantOfShape.err.input");
  CHECK(refusal_id([] { constantofshape(9, make_tensor<std::int64_t>({1, 1}, {2}), nullptr); }) ==
        "ConstantOfShape.err.input");
  CHECK(refusal_id([] { constantofshape(9, dims({2, -1}), nullptr); }) == "ConstantOfShape.err.negative");
  const Tensor two = f32({2}, {1.0f, 2.0f});
  CHECK(refusal_id([&] { constantofshape(9, dims({2}), &two); }) == "ConstantOfShape.err.value");
  const Tensor b = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { constantofshape(9, dims({2}), &b); }) == "ConstantOfShape.err.dtype");
  CHECK(bits16(constantofshape(20, dims({2}), &b)) == std::vector<std::uint16_t>{0x3F80, 0x3F80});
  CHECK(bits16(constantofshape(21, dims({1}), &b)) == std::vector<std::uint16_t>{0x3F80});
}

}  // namespace constantofshape_test
