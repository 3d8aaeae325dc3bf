// Hand-derived examples of spec/ops/gather.md, each citing its clause.
#include "ops/gather.hpp"
#include "test_util.hpp"

namespace gather_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::gather;

Tensor I64(Shape s, std::vector<std::int64_t> v) { return make_tensor<std::int64_t>(std::move(s), v); }

TEST_CASE("[Gather.formula] [Gather.shape] Example 1: axis 0, 2-D indices", "[gather]") {
  auto y = gather(1, f32({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}), I64({2, 2}, {0, 1, 1, 2}), 0);
  CHECK(y.shape() == Shape{2, 2, 2});
  CHECK(values<float>(y) == std::vector<float>{1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f});
}

TEST_CASE("[Gather.index.normalise] [Gather.axis.normalise] Example 2: negative indices, axis 1", "[gather]") {
  auto x = make_tensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto y = gather(11, x, I64({2}, {-1, 0}), 1);
  CHECK(y.shape() == Shape{2, 2});
  CHECK(values<std::int32_t>(y) == std::vector<std::int32_t>{3, 1, 6, 4});
  CHECK(values<std::int32_t>(gather(13, x, I64({2}, {-1, 0}), -1)) == std::vector<std::int32_t>{3, 1, 6, 4});
}

TEST_CASE("[Gather.formula] a rank-0 index, int32 indices, NaN bits and blocks of several elements", "[gather]") {
  auto x = f32({3, 2}, {nan_with_bits(0x7F800001), -0.0f, 1, 2, 3, 4});
  auto y = gather(13, x, make_tensor<std::int32_t>({}, {0}), 0);
  CHECK(y.shape() == Shape{2});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x7F800001u, 0x80000000u});
  CHECK(gather(13, x, I64({0}, {}), 0).shape() == Shape{0, 2});
}

TEST_CASE("[Gather.err.index-range] [Gather.v1] [Gather.v11] an index out of range, named", "[gather][error]") {
  auto x = f32({3}, {1, 2, 3});
  CHECK(refusal_id([&] { gather(13, x, I64({2}, {0, 3}), 0); }) == "Gather.err.index-range");
  CHECK(refusal_id([&] { gather(13, x, I64({1}, {-4}), 0); }) == "Gather.err.index-range");
  CHECK(refusal_id([&] { gather(1, x, I64({1}, {-1}), 0); }) == "Gather.err.index-range");
  CHECK(values<float>(gather(11, x, I64({1}, {-3}), 0)) == std::vector<float>{1});
  try {
    gather(13, x, I64({2, 2}, {0, 1, 2, 7}), 0);
    FAIL("not refused");
  } catch (const SpecError& r) {
    CHECK(std::string(r.what()).find("[1, 1]") != std::string::npos);
    CHECK(std::string(r.what()).find("= 7") != std::string::npos);
  }
}

TEST_CASE("[Gather.err.axis-range] [Gather.err.indices-dtype] [Gather.err.dtype] [Gather.v13]", "[gather][error]") {
  auto x = f32({3}, {1, 2, 3});
  CHECK(refusal_id([&] { gather(13, x, I64({1}, {0}), 1); }) == "Gather.err.axis-range");
  CHECK(refusal_id([&] { gather(13, f32({}, {1}), I64({1}, {0}), 0); }) == "Gather.err.axis-range");
  CHECK(refusal_id([&] { gather(13, x, make_tensor<std::int16_t>({1}, {0}), 0); }) == "Gather.err.indices-dtype");
  auto h = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { gather(11, h, I64({1}, {0}), 0); }) == "Gather.err.dtype");
  CHECK(bits16(gather(13, h, I64({2}, {0, 0}), 0)) == std::vector<std::uint16_t>{0x3F80, 0x3F80});
}

}  // namespace gather_test
