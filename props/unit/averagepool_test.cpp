// Hand-derived examples of spec/ops/averagepool.md and spec/ops/globalaveragepool.md: the worked
// examples and the error tables, each citing its clause. Expected values are worked out by hand from
// the clauses (radii from θ(D) = (1 + v)^D − 1, v = 2^-24 + 2^-48 + 2^-72 for float, [Acc.bound], and
// c_d of [Acc.divisor]); the faulty implementation (count_include_pad flipped) is a value computed by
// hand with the other divisor.
#include "core/accuracy.hpp"
#include "ops/averagepool.hpp"
#include "ops/globalaveragepool.hpp"
#include "test_util.hpp"

namespace averagepool_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::AveragePoolParams;

namespace {
struct Attrs {
  std::vector<std::int64_t> kernel = {}, strides = {}, pads = {}, dilations = {};
  std::string auto_pad = "NOTSET";
  std::int64_t ceil_mode = 0, count_include_pad = 0;
};
AveragePoolParams P(const Attrs& a) {
  AveragePoolParams p;
  p.window.kernel_shape = a.kernel, p.has_kernel_shape = !a.kernel.empty();
  p.window.strides = a.strides, p.window.has_strides = !a.strides.empty();
  p.window.pads = a.pads, p.window.has_pads = !a.pads.empty();
  p.window.dilations = a.dilations, p.window.has_dilations = !a.dilations.empty();
  p.window.auto_pad = a.auto_pad;
  p.window.ceil_mode = a.ceil_mode;
  p.count_include_pad = a.count_include_pad;
  return p;
}
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
const std::vector<float> kPowers = {1, 2, 4, 8, 16, 32};
}  // namespace

TEST_CASE("[AveragePool.divisor] [AveragePool.float.formula] [AveragePool.window] Example 1: the divisor at a border under both "
          "count_include_pad values",
          "[averagepool]") {
  const Tensor X = f32({1, 1, 6}, kPowers);
  const Tensor Y0 = ops::averagepool(7, X, P({.kernel = {3}, .pads = {1, 1}}));
  const Tensor Y1 = ops::averagepool(7, X, P({.kernel = {3}, .pads = {1, 1}, .count_include_pad = 1}));
  REQUIRE(Y0.shape() == Shape{1, 1, 6});
  // (1 + 2)/2, 7/3, 14/3, 28/3, 56/3, (16 + 32)/2; with the pads counted the ends are 3/3 and 48/3
  CHECK(bits(Y0) == bits(std::vector<float>{1.5f, 7.f / 3, 14.f / 3, 28.f / 3, 56.f / 3, 24}));
  CHECK(bits(Y1) == bits(std::vector<float>{1, 7.f / 3, 14.f / 3, 28.f / 3, 56.f / 3, 16}));
  CHECK(bits(Y0)[1] == 0x40155555u);
  // [AveragePool.prop.cip] the interior windows: the same enclosure under both values
  CHECK(Y0.annex->at(2).radius == Y1.annex->at(2).radius);
  CHECK(Y0.annex->at(2).hi == Y1.annex->at(2).hi);
  // o = 1: members 1, 2, 4, d = 3, c_3 = 2 (1/3 is not a float, 3 is), D = 2 + 2 = 4, S = 7/3:
  // B = θ(4)·7/3 ≈ 4·2^-24·7/3 = 5.56310e-7 (U and e_o far below)
  CHECK(Y0.annex->at(1).radius > 5.5631e-7);
  CHECK(Y0.annex->at(1).radius < 5.5632e-7);
  // any order, any way of dividing ([Acc.divisor]): (1 + 2 + 4) in float / 3, and 7 · fl(1/3)
  CHECK(conforms(Y0, 1, 7.f / 3));
  CHECK(conforms(Y0, 1, 7.f * (1.f / 3)));
  CHECK(conforms(Y0, 1, static_cast<float>((1.0 + 2.0 + 4.0) / 3.0)));  // binary64 accumulation
  // the faulty implementation: count_include_pad flipped gives the other border values
  CHECK_FALSE(conforms(Y1, 0, 1.5));
  CHECK_FALSE(conforms(Y1, 5, 24));
  CHECK_FALSE(conforms(Y0, 0, 1));
  CHECK_FALSE(conforms(Y0, 5, 16));
  // and version 1 has no count_include_pad: the pads are never counted
  CHECK(bits(ops::averagepool(1, X, P({.kernel = {3}, .pads = {1, 1}}))) == bits(Y0));
}

TEST_CASE("[AveragePool.divisor] [MaxPool.shape.ceil] [MaxPool.window] [AveragePool.div.onnx-ceil] Example 2: ceil_mode beyond "
          "the end padding (onnx's reference divides by the kernel there), dilations",
          "[averagepool]") {
  const Tensor X = f32({1, 1, 6}, kPowers);
  const Attrs ceil{.kernel = {3}, .strides = {2}, .pads = {1, 1}, .ceil_mode = 1};
  Attrs ceil1 = ceil;
  ceil1.count_include_pad = 1;
  // windows at -1, 1, 3, 5; the last holds 5 (in X), 6 (end padding), 7 (beyond): d = 1 or 2, never 3
  CHECK(bits(ops::averagepool(10, X, P(ceil))) == bits(std::vector<float>{1.5f, 14.f / 3, 56.f / 3, 32}));
  CHECK(bits(ops::averagepool(10, X, P(ceil1))) == bits(std::vector<float>{1, 14.f / 3, 56.f / 3, 16}));
  CHECK_FALSE(conforms(ops::averagepool(19, X, P(ceil1)), 3, 32.0 / 3));  // onnx's reference: d = 3
  const Tensor X7 = f32({1, 1, 7}, {1, 2, 4, 8, 16, 32, 64});
  // taps -1, 1, 3 / 0, 2, 4 / 1, 3, 5 / 2, 4, 6 / 3, 5, 7: position 7 is the end padding
  CHECK(bits(ops::averagepool(19, X7, P({.kernel = {3}, .pads = {1, 1}, .dilations = {2}}))) ==
        bits(std::vector<float>{5, 7, 14, 28, 20}));
  CHECK(bits(ops::averagepool(19, X7, P({.kernel = {3}, .pads = {1, 1}, .dilations = {2}, .count_include_pad = 1}))) ==
        bits(std::vector<float>{10.f / 3, 7, 14, 28, 40.f / 3}));
}

TEST_CASE("[AveragePool.float.formula] [AveragePool.err.empty] [Acc.run] a window with no member: 0 when d counts the padding, "
          "refused when d = 0",
          "[averagepool]") {
  const Tensor X = f32({1, 1, 2}, {1, 2});
  const Tensor Y = ops::averagepool(19, X, P({.kernel = {2}, .pads = {1, 1}, .dilations = {3}, .count_include_pad = 1}));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0});  // the empty sum +0, exact
  CHECK(Y.annex->at(0).bound == 0);
  CHECK(refusal_id([&] { ops::averagepool(19, X, P({.kernel = {2}, .pads = {1, 1}, .dilations = {3}})); }) ==
        "AveragePool.err.empty");
}

TEST_CASE("[Acc.bound] [Acc.divisor] [AveragePool.float.formula] cancellation: [2^25, 1, 1, -2^25, -1] / 5, every order conforms",
          "[averagepool]") {
  const Tensor Y = ops::averagepool(19, f32({1, 1, 5}, {0x1p25f, 1, 1, -0x1p25f, -1}), P({.kernel = {5}}));
  CHECK(bits(Y) == bits(std::vector<float>{0.2f}));  // the ideal 1/5 rounded once
  // S = (2^26 + 3)/5, c_5 = 2, D = 4 + 2 = 6: B ≈ 6·2^-24·(2^26 + 3)/5 ≈ 4.8000001
  CHECK(Y.annex->at(0).radius > 4.8);
  CHECK(Y.annex->at(0).radius < 4.80001);
  CHECK(conforms(Y, 0, -0.2));  // left to right in float: 2^25 + 1 = 2^25 (absorbed), ..., then -1, / 5
  CHECK(conforms(Y, 0, 0.2));
  CHECK_FALSE(conforms(Y, 0, 5.1));
}

TEST_CASE("[Acc.nonfinite] [Acc.zero] [Acc.run] NaN, infinities and signed zeros in a window", "[averagepool]") {
  const Tensor Y = ops::averagepool(19, f32({1, 1, 6}, {1, nan_with_bits(0x7FC00001), kInf, 2, -kInf, kInf}), P({.kernel = {2}}));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x7FC00000, 0x7FC00000, 0x7F800000, 0xFF800000, 0x7FC00000});
  const Tensor Z = ops::averagepool(19, f32({1, 1, 3}, {-0.f, -0.f, 0.f}), P({.kernel = {2}}));
  CHECK(bits(Z) == std::vector<std::uint32_t>{0x80000000, 0});  // every term -0: -0; -0 + 0: +0
}

TEST_CASE("[AveragePool.err.dtype] [AveragePool.err.rank] [AveragePool.err.kernel] [AveragePool.err.strides] "
          "[AveragePool.err.dilations] [AveragePool.err.pads] [AveragePool.err.flag] [AveragePool.err.auto-pad] "
          "[AveragePool.err.pads-kernel] [AveragePool.err.window] the error table (Example 3)",
          "[averagepool]") {
  auto id = [](Shape xs, const Attrs& a, int v = 19, DType t = DType::Float) {
    const Tensor X(t, xs);
    return refusal_id([&] { ops::averagepool(v, X, P(a)); });
  };
  CHECK(id({1, 1, 3}, {.kernel = {1}}, 19, DType::BFloat16) == "AveragePool.err.dtype");
  CHECK(id({1, 1, 3}, {.kernel = {1}}, 22, DType::BFloat16).empty());  // [AveragePool.v22]
  CHECK(id({1, 1, 3}, {.kernel = {1}}, 22, DType::Int32) == "AveragePool.err.dtype");
  CHECK(id({1, 6}, {.kernel = {1}}) == "AveragePool.err.rank");
  CHECK(id({1, 1, 6}, {}) == "AveragePool.err.kernel");
  CHECK(id({1, 1, 6}, {.kernel = {2, 2}}) == "AveragePool.err.kernel");
  CHECK(id({1, 1, 6}, {.kernel = {0}}) == "AveragePool.err.kernel");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .strides = {0}}) == "AveragePool.err.strides");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .dilations = {0}}) == "AveragePool.err.dilations");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .pads = {-1, 0}}) == "AveragePool.err.pads");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .ceil_mode = 2}) == "AveragePool.err.flag");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .count_include_pad = 2}) == "AveragePool.err.flag");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .pads = {0, 0}, .auto_pad = "VALID"}) == "AveragePool.err.auto-pad");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .pads = {2, 0}}) == "AveragePool.err.pads-kernel");
  CHECK(id({1, 1, 6}, {.kernel = {2}, .pads = {2, 0}, .count_include_pad = 1}) == "AveragePool.err.pads-kernel");
  CHECK(id({1, 1, 2}, {.kernel = {3}}) == "AveragePool.err.window");
  // accepted: pads as large as the kernel but below the effective kernel ([AveragePool.div.ort-refuses])
  CHECK(id({1, 1, 7}, {.kernel = {2}, .pads = {2, 2}, .dilations = {3}}).empty());
}

TEST_CASE("[AveragePool.prop.constant] [AveragePool.prop.divisor] a constant window is its value, without a ceil window d is the "
          "kernel's size under count_include_pad 1",
          "[averagepool]") {
  const Tensor X = f32({1, 1, 3, 3}, {0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f});
  const Tensor Y = ops::averagepool(19, X, P({.kernel = {3, 3}}));
  CHECK(bits(Y) == bits(std::vector<float>{0.1f}));  // 9 · 0.1f / 9: the ideal is 0.1f exactly
  // pads [1,1,1,1]: every window 3 x 3 inside the padded input, d = 9 under count_include_pad 1
  const Tensor Z = ops::averagepool(19, X, P({.kernel = {3, 3}, .pads = {1, 1, 1, 1}, .count_include_pad = 1}));
  // 4 members of 0.1f, d = 9: [Acc.run] fl_T of the binary64 quotient of the exact sum 4 · 0.1f
  CHECK(bits_of(values<float>(Z)[0]) == bits_of(static_cast<float>(4.0 * static_cast<double>(0.1f) / 9.0)));
  CHECK(Z.annex->at(4).hi == Y.annex->at(0).hi);  // the centre window: d = 9 either way
}

TEST_CASE("[GlobalAveragePool.float.formula] [GlobalAveragePool.shape] [AveragePool.prop.global] [GlobalAveragePool.prop.constant] [GlobalAveragePool.err.empty] "
          "[GlobalAveragePool.err.rank] [GlobalAveragePool.err.dtype] the mean of every plane",
          "[averagepool]") {
  const Tensor X = f32({1, 2, 2, 3}, {1, 2, 3, 4, 5, 6, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
  const Tensor Y = ops::globalaveragepool(1, X);
  CHECK(Y.shape() == Shape{1, 2, 1, 1});
  CHECK(bits(Y) == bits(std::vector<float>{3.5f, 0.5f}));  // 21/6; a constant plane is its value
  const Tensor Z = ops::averagepool(19, X, P({.kernel = {2, 3}}));
  CHECK(bits(Z) == bits(Y));
  CHECK(Z.annex->at(0).radius == Y.annex->at(0).radius);
  CHECK(refusal_id([&] { ops::globalaveragepool(22, Tensor(DType::Float, {1, 2, 3, 0})); }) == "GlobalAveragePool.err.empty");
  CHECK(refusal_id([&] { ops::globalaveragepool(22, Tensor(DType::Float, {0, 2, 3, 0})); }).empty());  // no plane
  CHECK(refusal_id([&] { ops::globalaveragepool(1, Tensor(DType::Float, {2, 3})); }) == "GlobalAveragePool.err.rank");
  CHECK(refusal_id([&] { ops::globalaveragepool(1, Tensor(DType::BFloat16, {1, 1, 3})); }) == "GlobalAveragePool.err.dtype");
  CHECK(refusal_id([&] { ops::globalaveragepool(22, Tensor(DType::BFloat16, {1, 1, 3})); }).empty());
}

TEST_CASE("[AveragePool.order] [GlobalAveragePool.float.formula] [Acc.run] 26 planes of 7 x 5 (blocks of planes and the "
          "last ones alone): each plane summed from -0 in binary64 in row-major order, divided once by d, rounded to float",
          "[averagepool]") {
  // The restatement of [AveragePool.order] in this test, on values whose binary64 sum depends on the order:
  // each plane holds +b at member 3 and -b at member 20 (b = 2^60·(plane + 1)), so the members added between
  // them are absorbed and lost in row-major order and others in another order; a plane's members read from
  // another plane, or in another order, change the bits.
  const Shape shape = {2, 13, 7, 5};
  std::vector<float> x(2 * 13 * 7 * 5);
  std::uint32_t state = 12345;
  for (std::size_t i = 0; i < x.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    const float unit = static_cast<float>(state >> 8) * 0x1p-24f;  // [0, 1)
    x[i] = state & 1u ? -unit : unit;
  }
  for (std::size_t plane = 0; plane < 26; ++plane)
    x[plane * 35 + 3] = 0x1p60f * static_cast<float>(plane + 1), x[plane * 35 + 20] = -0x1p60f * static_cast<float>(plane + 1);
  const Tensor Y = ops::globalaveragepool(1, f32(shape, x));
  REQUIRE(Y.shape() == Shape{2, 13, 1, 1});
  std::vector<float> expected;
  for (std::size_t plane = 0; plane < 26; ++plane) {
    double sum = -0.0;
    for (std::size_t j = 0; j < 35; ++j) sum += static_cast<double>(x[plane * 35 + j]);
    expected.push_back(static_cast<float>(sum / 35.0));
  }
  CHECK(bits(Y) == bits(expected));
}

}  // namespace averagepool_test
