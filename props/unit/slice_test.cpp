// Hand-derived examples of spec/ops/slice.md, each citing its clause.
#include <limits>

#include "ops/slice.hpp"
#include "test_util.hpp"

namespace slice_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::slice;
using sonnx::ops::SliceParams;
using V = std::vector<std::int64_t>;

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min(), kMax = std::numeric_limits<std::int64_t>::max();

Tensor I64(V v) { return make_tensor<std::int64_t>({static_cast<std::int64_t>(v.size())}, v); }
Tensor X24() { return f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}); }

// Versions 10 to 13: the parameters as inputs (absent: nullptr).
Tensor run(int version, const Tensor& X, V s, V e, std::optional<V> a = std::nullopt, std::optional<V> p = std::nullopt) {
  const Tensor S = I64(s), E = I64(e), A = I64(a.value_or(V{})), P = I64(p.value_or(V{}));
  SliceParams q;
  q.starts_input = &S, q.ends_input = &E;
  if (a) q.axes_input = &A;
  if (p) q.steps_input = &P;
  return slice(version, X, q);
}

TEST_CASE("[Slice.formula] [Slice.shape] Example 1: axes, starts, ends and steps", "[slice]") {
  auto y = run(10, X24(), {1, 0}, {2, 3}, V{0, 1}, V{1, 2});
  CHECK(y.shape() == Shape{1, 2});
  CHECK(values<float>(y) == std::vector<float>{5, 7});
}

TEST_CASE("[Slice.bounds] [Slice.axes.default] [Slice.v1] [Slice.v10] Example 2: a negative end and an end past the size", "[slice]") {
  auto y = run(10, X24(), {0, 1}, {-1, 1000});
  CHECK(y.shape() == Shape{1, 3});
  CHECK(values<float>(y) == std::vector<float>{2, 3, 4});
  SliceParams q;  // version 1: the attributes
  q.starts = V{0, 1}, q.ends = V{-1, 1000};
  CHECK(values<float>(slice(1, X24(), q)) == std::vector<float>{2, 3, 4});
}

TEST_CASE("[Slice.bounds] Example 3: a negative step from -1 to INT64_MIN reverses", "[slice]") {
  auto y = run(11, f32({4}, {1, 2, 3, 4}), {-1}, {kMin}, std::nullopt, V{-1});
  CHECK(values<float>(y) == std::vector<float>{4, 3, 2, 1});
  auto z = run(13, f32({5}, {1, 2, 3, 4, 5}), {kMax}, {0}, std::nullopt, V{-2});  // start clamped to d - 1 = 4
  CHECK(values<float>(z) == std::vector<float>{5, 3});
}

TEST_CASE("[Slice.empty] a start past the end gives an empty result, not an error", "[slice]") {
  CHECK(run(13, X24(), {3}, {1}, V{1}).shape() == Shape{2, 0});
  CHECK(run(13, X24(), {1}, {3}, V{1}, V{-1}).shape() == Shape{2, 0});
  CHECK(run(13, f32({0, 3}, {}), {0}, {-1}, V{0}, V{-1}).shape() == Shape{0, 3});
}

TEST_CASE("[Slice.axes.normalise] [Slice.v11] negative axes from version 11, the bits are moved", "[slice]") {
  auto x = f32({2, 2}, {nan_with_bits(0xFFC00005), -0.0f, 1, 2});
  CHECK(bits(run(11, x, {0}, {1}, V{-1})) == std::vector<std::uint32_t>{0xFFC00005u, 0x3F800000u});
  CHECK(refusal_id([&] { run(10, x, {0}, {1}, V{-1}); }) == "Slice.err.axis-range");
}

TEST_CASE("[Slice.err.axis-range] [Slice.err.axis-duplicate] [Slice.err.step-zero] [Slice.err.length]", "[slice][error]") {
  CHECK(refusal_id([] { run(13, X24(), {0}, {1}, V{2}); }) == "Slice.err.axis-range");
  CHECK(refusal_id([] { run(13, X24(), {0}, {1}, V{-3}); }) == "Slice.err.axis-range");
  CHECK(refusal_id([] { run(13, X24(), {0, 0}, {1, 1}, V{1, -1}); }) == "Slice.err.axis-duplicate");
  CHECK(refusal_id([] { run(13, X24(), {0}, {1}, V{0}, V{0}); }) == "Slice.err.step-zero");
  CHECK(refusal_id([] { run(13, X24(), {0, 0}, {1}); }) == "Slice.err.length");
  CHECK(refusal_id([] { run(13, X24(), {0}, {1}, V{0, 1}); }) == "Slice.err.length");
  CHECK(refusal_id([] { run(13, X24(), {0, 0, 0}, {1, 1, 1}); }) == "Slice.err.length");
}

TEST_CASE("[Slice.err.indices-dtype] [Slice.err.input-rank] [Slice.err.missing] [Slice.err.dtype] [Slice.params]", "[slice][error]") {
  const Tensor S32 = make_tensor<std::int32_t>({1}, {0}), E = I64({1}), S2 = make_tensor<std::int64_t>({1, 1}, {0});
  SliceParams q;
  q.starts_input = &S32, q.ends_input = &E;
  CHECK(refusal_id([&] { slice(13, X24(), q); }) == "Slice.err.indices-dtype");
  q.starts_input = &S2;
  CHECK(refusal_id([&] { slice(13, X24(), q); }) == "Slice.err.input-rank");
  CHECK(refusal_id([] { slice(13, X24(), SliceParams{}); }) == "Slice.err.missing");
  CHECK(refusal_id([] { slice(1, X24(), SliceParams{}); }) == "Slice.err.missing");
  auto h = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { run(11, h, {0}, {1}); }) == "Slice.err.dtype");
  CHECK(bits16(run(13, h, {0}, {1})) == std::vector<std::uint16_t>{0x3F80});
}

}  // namespace slice_test
