// Hand-derived examples of spec/ops/maxpool.md and spec/ops/globalmaxpool.md: the documents' worked
// examples, each citing its clause.
#include "ops/globalmaxpool.hpp"
#include "ops/maxpool.hpp"
#include "test_util.hpp"

namespace maxpool_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::globalmaxpool;
using sonnx::ops::maxpool;
using sonnx::ops::PoolParams;

namespace {
struct Attrs {
  std::vector<std::int64_t> kernel = {}, strides = {}, pads = {}, dilations = {};
  std::string auto_pad = "NOTSET";
  std::int64_t ceil_mode = 0, storage_order = 0;
};
PoolParams P(const Attrs& a) {
  PoolParams p;
  p.kernel_shape = a.kernel, p.has_kernel_shape = !a.kernel.empty();
  p.strides = a.strides, p.has_strides = !a.strides.empty();
  p.pads = a.pads, p.has_pads = !a.pads.empty();
  p.dilations = a.dilations, p.has_dilations = !a.dilations.empty();
  p.auto_pad = a.auto_pad;
  p.ceil_mode = a.ceil_mode, p.storage_order = a.storage_order;
  return p;
}
// Y and I of MaxPool-v with Indices requested.
std::pair<Tensor, Tensor> run(int version, const Tensor& X, const Attrs& a) {
  auto out = maxpool(version, X, P(a), true);
  return {out[0], out[1]};
}
std::vector<std::int64_t> I(const Tensor& t) { return values<std::int64_t>(t); }
}  // namespace

TEST_CASE("[MaxPool.shape] [MaxPool.shape.ceil] [MaxPool.window.padding] [MaxPool.indices] Example 1: one spatial "
          "axis, pads and strides",
          "[maxpool]") {
  const Tensor X = f32({1, 1, 5}, {3, 1, 4, 1, 5});
  auto [y0, i0] = run(10, X, {.kernel = {2}, .strides = {2}});
  CHECK(y0.shape() == Shape{1, 1, 2});
  CHECK(values<float>(y0) == std::vector<float>{3, 4});
  CHECK(I(i0) == std::vector<std::int64_t>{0, 2});
  auto [y1, i1] = run(10, X, {.kernel = {2}, .strides = {2}, .ceil_mode = 1});
  CHECK(values<float>(y1) == std::vector<float>{3, 4, 5});
  CHECK(I(i1) == std::vector<std::int64_t>{0, 2, 4});
  auto [y2, i2] = run(10, X, {.kernel = {2}, .strides = {2}, .pads = {1, 1}});
  CHECK(values<float>(y2) == std::vector<float>{3, 4, 5});
  CHECK(I(i2) == std::vector<std::int64_t>{0, 2, 4});
  auto [y3, i3] = run(22, X, {.kernel = {2}, .strides = {2}, .pads = {1, 1}, .ceil_mode = 1});  // the 4th is dropped
  CHECK(y3.shape() == Shape{1, 1, 3});
  CHECK(values<float>(y3) == std::vector<float>{3, 4, 5});
  CHECK(I(i3) == std::vector<std::int64_t>{0, 2, 4});
  CHECK(refusal_id([&] { run(10, X, {.kernel = {2}, .strides = {2}, .pads = {2, 0}}); }) == "MaxPool.err.pads-kernel");
}

TEST_CASE("[MaxPool.window] [MaxPool.v10] Example 2: dilations", "[maxpool]") {
  auto [y, i] = run(10, f32({1, 1, 6}, {1, 9, 2, 8, 3, 7}), {.kernel = {2}, .dilations = {2}});
  CHECK(values<float>(y) == std::vector<float>{2, 9, 3, 8});
  CHECK(I(i) == std::vector<std::int64_t>{2, 1, 4, 3});
}

TEST_CASE("[MaxPool.pads.auto] Example 3: SAME_UPPER and SAME_LOWER", "[maxpool]") {
  const Tensor X = f32({1, 1, 5}, {1, 9, 2, 8, 3});
  auto [yu, iu] = run(12, X, {.kernel = {2}, .auto_pad = "SAME_UPPER"});
  CHECK(values<float>(yu) == std::vector<float>{9, 9, 8, 8, 3});
  CHECK(I(iu) == std::vector<std::int64_t>{1, 1, 3, 3, 4});
  auto [yl, il] = run(12, X, {.kernel = {2}, .auto_pad = "SAME_LOWER"});
  CHECK(values<float>(yl) == std::vector<float>{1, 9, 9, 8, 8});
  CHECK(I(il) == std::vector<std::int64_t>{0, 1, 1, 3, 3});
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    auto [yd, id] = run(12, X, {.kernel = {2}, .dilations = {2}, .auto_pad = mode});
    CHECK(values<float>(yd) == std::vector<float>{9, 2, 9, 3, 8});
    CHECK(I(id) == std::vector<std::int64_t>{1, 2, 1, 4, 3});
  }
  auto [ys, is] = run(12, f32({1, 1, 6}, {1, 2, 3, 4, 5, 6}), {.kernel = {1}, .strides = {4}, .auto_pad = "SAME_UPPER"});
  CHECK(values<float>(ys) == std::vector<float>{1, 5});  // windows {0}, {4}
  CHECK(I(is) == std::vector<std::int64_t>{0, 4});
}

TEST_CASE("[MaxPool.indices] [MaxPool.indices.storage-order] Example 4: two spatial axes, both storage orders",
          "[maxpool]") {
  const Tensor X = f32({1, 1, 2, 3}, {1, 6, 2, 5, 3, 4});
  auto [y, i0] = run(8, X, {.kernel = {2, 2}, .strides = {1, 2}, .pads = {0, 1, 0, 1}});
  CHECK(y.shape() == Shape{1, 1, 1, 2});
  CHECK(values<float>(y) == std::vector<float>{5, 6});
  CHECK(I(i0) == std::vector<std::int64_t>{3, 1});
  auto [y1, i1] = run(8, X, {.kernel = {2, 2}, .strides = {1, 2}, .pads = {0, 1, 0, 1}, .storage_order = 1});
  CHECK(values<float>(y1) == std::vector<float>{5, 6});
  CHECK(I(i1) == std::vector<std::int64_t>{1, 2});
  // a second channel holding the same plane: its indices are those plus 6
  auto [y2, i2] = run(8, f32({1, 2, 2, 3}, {1, 6, 2, 5, 3, 4, 1, 6, 2, 5, 3, 4}),
                      {.kernel = {2, 2}, .strides = {1, 2}, .pads = {0, 1, 0, 1}, .storage_order = 1});
  CHECK(I(i2) == std::vector<std::int64_t>{1, 2, 7, 8});
}

TEST_CASE("[MaxPool.float.zero] [MaxPool.float.nan] [MaxPool.indices] [MaxPool.float.formula] Example 5: ties, signed "
          "zeros, NaN",
          "[maxpool]") {
  const float n1 = nan_with_bits(0x7FC00001), n2 = nan_with_bits(0xFFC00002);
  auto [y, i] = run(12, f32({1, 1, 12}, {-0.0f, 0.0f, -0.0f, 2, 2, 1, 1, n1, n2, -kInf, -kInf, -kInf}),
                    {.kernel = {3}, .strides = {3}});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x00000000u, 0x40000000u, 0x7FC00001u, 0xFF800000u});
  CHECK(I(i) == std::vector<std::int64_t>{1, 3, 7, 9});
  auto [z, j] = run(12, f32({1, 1, 3}, {0.0f, -0.0f, 0.0f}), {.kernel = {3}});
  CHECK(bits(z) == std::vector<std::uint32_t>{0x00000000u});
  CHECK(I(j) == std::vector<std::int64_t>{0});
}

TEST_CASE("[MaxPool.window.padding] Example 6: padding is never a value", "[maxpool]") {
  auto [y, i] = run(8, f32({1, 1, 3}, {-kInf, -kInf, 3}), {.kernel = {2}, .pads = {1, 0}});
  CHECK(bits(y) == std::vector<std::uint32_t>{0xFF800000u, 0xFF800000u, 0x40400000u});
  CHECK(I(i) == std::vector<std::int64_t>{0, 0, 2});
}

TEST_CASE("[MaxPool.indices] [MaxPool.indices.storage-order] Example 7: three spatial axes (double)", "[maxpool]") {
  const Tensor X = make_tensor<double>({1, 1, 2, 2, 2}, {0, 1, 2, 9, 4, 5, 6, 7});
  auto out0 = maxpool(12, X, P({.kernel = {2, 2, 2}}), true);
  CHECK(out0[0].shape() == Shape{1, 1, 1, 1, 1});
  CHECK(values<double>(out0[0]) == std::vector<double>{9});
  CHECK(I(out0[1]) == std::vector<std::int64_t>{3});
  auto out1 = maxpool(12, X, P({.kernel = {2, 2, 2}, .storage_order = 1}), true);
  CHECK(I(out1[1]) == std::vector<std::int64_t>{6});
}

TEST_CASE("[MaxPool.err.window] [MaxPool.err.kernel] [MaxPool.err.auto-pad] [MaxPool.err.rank] [MaxPool.pads.auto] "
          "Example 8: refusals",
          "[maxpool][error]") {
  auto refused = [](Shape s, const Attrs& a) {
    const Tensor X(DType::Float, s, "X");
    return refusal_id([&] { maxpool(12, X, P(a), false); });
  };
  CHECK(refused({1, 1, 2}, {.kernel = {2}, .pads = {1, 1}, .dilations = {3}}) == "MaxPool.err.window");
  CHECK(refused({1, 1, 2}, {.kernel = {3}}) == "MaxPool.err.window");
  CHECK(refused({1, 1, 2}, {.kernel = {4}, .strides = {2}, .pads = {1, 0}, .ceil_mode = 1}) == "MaxPool.err.window");
  CHECK(refused({1, 1, 0}, {.kernel = {1}}) == "MaxPool.err.window");
  CHECK(refused({1, 1, 0}, {.kernel = {1}, .auto_pad = "SAME_UPPER"}) == "");
  CHECK(maxpool(12, Tensor(DType::Float, {1, 1, 0}, "X"), P({.kernel = {1}, .auto_pad = "SAME_UPPER"}), false)[0].shape() ==
        Shape{1, 1, 0});
  CHECK(refused({1, 1, 5}, {.kernel = {2, 2}}) == "MaxPool.err.kernel");
  CHECK(refused({1, 1, 5}, {.kernel = {2}, .pads = {0, 0}, .auto_pad = "VALID"}) == "MaxPool.err.auto-pad");
  CHECK(refused({1, 1, 5}, {.kernel = {2}, .auto_pad = ""}) == "MaxPool.err.auto-pad");
  CHECK(refused({1, 5}, {.kernel = {1}}) == "MaxPool.err.rank");
}

TEST_CASE("[MaxPool.int.formula] [MaxPool.window.padding] [MaxPool.v12] int Example 1: int8 with padding", "[maxpool]") {
  auto out = maxpool(12, make_tensor<std::int8_t>({1, 1, 3}, {-128, -128, 5}), P({.kernel = {2}, .pads = {1, 1}}), true);
  CHECK(values<std::int8_t>(out[0]) == std::vector<std::int8_t>{-128, -128, 5, 5});
  CHECK(I(out[1]) == std::vector<std::int64_t>{0, 0, 2, 2});
}

TEST_CASE("[MaxPool.int.formula] [MaxPool.indices] int Example 2: int8 and uint8", "[maxpool]") {
  auto a = maxpool(12, make_tensor<std::int8_t>({1, 1, 6}, {-128, 5, 5, -3, 127, -128}), P({.kernel = {2}, .strides = {2}}),
                   true);
  CHECK(values<std::int8_t>(a[0]) == std::vector<std::int8_t>{5, 5, 127});
  CHECK(I(a[1]) == std::vector<std::int64_t>{1, 2, 4});
  const Tensor u = make_tensor<std::uint8_t>({1, 1, 6}, {0, 255, 7, 7, 200, 1});
  auto b = maxpool(22, u, P({.kernel = {3}, .strides = {3}}), true);
  CHECK(values<std::uint8_t>(b[0]) == std::vector<std::uint8_t>{255, 200});
  CHECK(I(b[1]) == std::vector<std::int64_t>{1, 4});
  auto c = maxpool(22, u, P({.kernel = {2}, .strides = {2}, .dilations = {2}}), true);
  CHECK(values<std::uint8_t>(c[0]) == std::vector<std::uint8_t>{7, 200});
  CHECK(I(c[1]) == std::vector<std::int64_t>{2, 4});
}

TEST_CASE("[MaxPool.err.dtype] [MaxPool.v11] [MaxPool.v12] [MaxPool.v22] int8 from version 12, bfloat16 from 22",
          "[maxpool][error]") {
  const PoolParams p = P({.kernel = {1}});
  CHECK(refusal_id([&] { maxpool(11, make_tensor<std::int8_t>({1, 1, 1}, {1}), p, false); }) == "MaxPool.err.dtype");
  CHECK(refusal_id([&] { maxpool(12, make_tensor<std::int8_t>({1, 1, 1}, {1}), p, false); }) == "");
  CHECK(refusal_id([&] { maxpool(12, make_tensor<bfloat16>({1, 1, 1}, {bfloat16{0}}), p, false); }) == "MaxPool.err.dtype");
  CHECK(refusal_id([&] { maxpool(22, make_tensor<bfloat16>({1, 1, 1}, {bfloat16{0}}), p, false); }) == "");
  CHECK(refusal_id([&] { maxpool(22, make_tensor<std::int32_t>({1, 1, 1}, {1}), p, false); }) == "MaxPool.err.dtype");
}

// ---- GlobalMaxPool ------------------------------------------------------------------------------

TEST_CASE("[GlobalMaxPool.float.formula] [GlobalMaxPool.float.zero] [GlobalMaxPool.shape] Example 1: two channels, one "
          "spatial axis",
          "[globalmaxpool]") {
  auto y = globalmaxpool(1, f32({1, 2, 3}, {4, -1, 7, -0.0f, -2, 0.0f}));
  CHECK(y.shape() == Shape{1, 2, 1});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x40E00000u, 0x00000000u});
}

TEST_CASE("[GlobalMaxPool.float.nan] [Common.order.nan-payload] Example 2: NaN, row-major order", "[globalmaxpool]") {
  auto y = globalmaxpool(22, f32({1, 1, 2, 2}, {1.0f, kInf, nan_with_bits(0xFFC00002), nan_with_bits(0x7FC00001)}));
  CHECK(y.shape() == Shape{1, 1, 1, 1});
  CHECK(bits(y) == std::vector<std::uint32_t>{0xFFC00002u});
}

TEST_CASE("[GlobalMaxPool.float.formula] [Common.dtype.float16] Example 3: three spatial axes, float16",
          "[globalmaxpool]") {
  auto y = globalmaxpool(1, make_tensor<float16>({1, 1, 2, 1, 2},
                                                 {float16{0x8001}, float16{0x8000}, float16{0xFC00}, float16{0x8400}}));
  CHECK(y.shape() == Shape{1, 1, 1, 1, 1});
  CHECK(bits16(y) == std::vector<std::uint16_t>{0x8000});
}

TEST_CASE("[GlobalMaxPool.empty] [GlobalMaxPool.shape] [GlobalMaxPool.err.rank] Example 4: empty tensors",
          "[globalmaxpool]") {
  auto a = globalmaxpool(1, f32({2, 3, 0}, {}));
  CHECK(a.shape() == Shape{2, 3, 1});
  CHECK(bits(a) == std::vector<std::uint32_t>(6, 0xFF800000u));
  auto b = globalmaxpool(1, f32({1, 1, 4, 0}, {}));
  CHECK(b.shape() == Shape{1, 1, 1, 1});
  CHECK(bits(b) == std::vector<std::uint32_t>{0xFF800000u});
  CHECK(globalmaxpool(1, f32({0, 3, 5}, {})).shape() == Shape{0, 3, 1});
  CHECK(globalmaxpool(1, f32({3, 0, 0}, {})).shape() == Shape{3, 0, 1});
  CHECK(refusal_id([] { globalmaxpool(1, f32({2, 3}, {1, 2, 3, 4, 5, 6})); }) == "GlobalMaxPool.err.rank");
  auto h = globalmaxpool(22, make_tensor<bfloat16>({1, 1, 0}, {}));
  CHECK(bits16(h) == std::vector<std::uint16_t>{0xFF80});
}

TEST_CASE("[GlobalMaxPool.err.dtype] [GlobalMaxPool.v1] [GlobalMaxPool.v22] bfloat16 from version 22, no integer type",
          "[globalmaxpool][error]") {
  CHECK(refusal_id([] { globalmaxpool(1, make_tensor<bfloat16>({1, 1, 1}, {bfloat16{0}})); }) == "GlobalMaxPool.err.dtype");
  CHECK(refusal_id([] { globalmaxpool(22, make_tensor<bfloat16>({1, 1, 1}, {bfloat16{0}})); }) == "");
  CHECK(refusal_id([] { globalmaxpool(22, make_tensor<std::int8_t>({1, 1, 1}, {1})); }) == "GlobalMaxPool.err.dtype");
}

}  // namespace maxpool_test
