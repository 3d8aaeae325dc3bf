// Hand-derived examples of spec/ops/conv.md: the document's worked examples and its error table,
// each citing its clause. Expected values are worked out by hand from the clauses (the radii from
// θ(D) = (1 + v)^D − 1 with v = 2^-24 + 2^-48 + 2^-72 for float, [Acc.bound]).
#include "core/accuracy.hpp"
#include "ops/conv.hpp"
#include "test_util.hpp"

namespace conv_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::ConvParams;

namespace {
struct Attrs {
  std::vector<std::int64_t> kernel = {}, strides = {}, pads = {}, dilations = {};
  std::string auto_pad = "NOTSET";
  std::int64_t group = 1;
};
ConvParams P(const Attrs& a) {
  ConvParams p;
  p.window.kernel_shape = a.kernel, p.has_kernel_shape = !a.kernel.empty();
  p.window.strides = a.strides, p.window.has_strides = !a.strides.empty();
  p.window.pads = a.pads, p.window.has_pads = !a.pads.empty();
  p.window.dilations = a.dilations, p.window.has_dilations = !a.dilations.empty();
  p.window.auto_pad = a.auto_pad;
  p.group = a.group;
  return p;
}
// The verdict of the accuracy model on value r for element k of a computed output.
bool conforms(const Tensor& y, std::int64_t k, double r) {
  return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms;
}
}  // namespace

TEST_CASE("[Conv.shape] [Conv.window] [Conv.window.padding] [Conv.float.formula] [Conv.order] Example 1: one spatial axis, pads, bias",
          "[conv]") {
  const Tensor X = f32({1, 1, 4}, {1, 2, 3, 4}), W = f32({1, 1, 3}, {1, 0.5f, -1}), B = f32({1}, {0.25f});
  const Tensor Y = ops::conv(11, X, W, &B, P({.pads = {1, 1}}));
  CHECK(Y.shape() == Shape{1, 1, 4});
  CHECK(bits(Y) == bits(std::vector<float>{-1.25f, -0.75f, -0.25f, 5.25f}));
  // o = 2: S = 2 + 1.5 + 4 + 0.25 = 7.75, D = 4: B = θ(4)·7.75 ≈ 1.8477e-6 (62 units in the last place of -0.25)
  const accuracy::Element e = Y.annex->at(2);
  CHECK(e.radius > 1.8477e-6);
  CHECK(e.radius < 1.8478e-6);
  CHECK(conforms(Y, 2, -0.25 + 62 * 0x1p-25));
  CHECK_FALSE(conforms(Y, 2, -0.25 + 63 * 0x1p-25));
  // o = 0: the position -1 is padding, no term: 3 terms, S = 0.5 + 2 + 0.25
  CHECK(Y.annex->at(0).radius < Y.annex->at(1).radius);
}

TEST_CASE("[Conv.group] [Conv.window] Example 2: groups (depthwise) and dilations", "[conv]") {
  const Tensor X = f32({1, 2, 5}, {1, 2, 3, 4, 5, 10, 20, 30, 40, 50}), W = f32({2, 1, 2}, {1, 1, 1, -1});
  const Tensor Y = ops::conv(11, X, W, nullptr, P({.dilations = {2}, .group = 2}));
  CHECK(Y.shape() == Shape{1, 2, 3});
  CHECK(bits(Y) == bits(std::vector<float>{4, 6, 8, -20, -20, -20}));
}

TEST_CASE("[Acc.bound] [Acc.verdict] [Conv.float.formula] Example 3: cancellation, every order conforms", "[conv]") {
  const Tensor X = f32({1, 1, 3}, {0x1p24f, 1, -0x1p24f}), W = f32({1, 1, 3}, {1, 1, 1});
  const Tensor Y = ops::conv(11, X, W, nullptr, P({}));
  CHECK(bits(Y) == bits(std::vector<float>{1}));  // the binary64 sum is exact: 1
  // S = 2^25 + 1, D = 3: B = θ(3)·S ≈ 6.0000009
  CHECK(Y.annex->at(0).radius > 6.0000008);
  CHECK(Y.annex->at(0).radius < 6.000001);
  CHECK(conforms(Y, 0, 0));  // left to right in float: fl(2^24 + 1) = 2^24, then 0
  CHECK(conforms(Y, 0, 1));  // right to left, or in double
  CHECK(conforms(Y, 0, 7));
  CHECK(conforms(Y, 0, -5));
  CHECK_FALSE(conforms(Y, 0, 7.5));
  CHECK_FALSE(conforms(Y, 0, -5.5));
}

TEST_CASE("[Acc.nonfinite] [Acc.zero] [Acc.run] [Acc.overflow] Example 4: NaN, infinities, signed zeros", "[conv]") {
  const Tensor W = f32({1, 1, 2}, {1, 1});
  auto run = [&](std::vector<float> x) { return ops::conv(11, f32({1, 1, 2}, std::move(x)), W, nullptr, P({})); };
  const Tensor nan = run({1, nan_with_bits(0x7FC00001)});
  CHECK(bits(nan) == std::vector<std::uint32_t>{0x7FC00000});  // [Acc.run] the canonical quiet NaN
  CHECK(conforms(nan, 0, std::nan("")));
  CHECK_FALSE(conforms(nan, 0, 1));
  CHECK_FALSE(conforms(nan, 0, INFINITY));
  const Tensor inf = run({kInf, 5});
  CHECK(bits(inf) == std::vector<std::uint32_t>{0x7F800000});
  CHECK(conforms(inf, 0, INFINITY));
  CHECK_FALSE(conforms(inf, 0, -INFINITY));
  CHECK_FALSE(conforms(inf, 0, std::nan("")));  // 5 cannot overflow to -Inf
  CHECK_FALSE(conforms(inf, 0, 3.4e38));
  const Tensor both = run({kInf, -kInf});
  CHECK(bits(both) == std::vector<std::uint32_t>{0x7FC00000});
  CHECK(conforms(both, 0, std::nan("")));
  CHECK_FALSE(conforms(both, 0, INFINITY));
  const Tensor zeros = run({-0.0f, -0.0f});
  CHECK(bits(zeros) == std::vector<std::uint32_t>{0x80000000});  // [Acc.run] every term -0: -0
  CHECK(conforms(zeros, 0, 0.0));                                 // [Acc.zero] +0 as well
  CHECK(conforms(zeros, 0, -0.0));
  const Tensor over = run({3.4e38f, 3.4e38f});
  CHECK(bits(over) == std::vector<std::uint32_t>{0x7F800000});  // the ideal 6.8e38 is beyond Ω
  CHECK(conforms(over, 0, INFINITY));
  CHECK_FALSE(conforms(over, 0, 3.4028234663852886e38));  // the greatest float is far from 6.8e38
  CHECK_FALSE(conforms(over, 0, std::nan("")));            // no negative term: no -Inf, so no NaN
  CHECK_FALSE(conforms(over, 0, -INFINITY));
}

TEST_CASE("[Conv.err.group] [Conv.err.window] [Conv.err.kernel] [Conv.err.bias] [Conv.err.rank] [Conv.err.strides] [Conv.err.dilations] [Conv.err.pads] [Conv.err.auto-pad] refusals of Example 5 and of the error table", "[conv]") {
  auto id = [](Shape xs, Shape ws, const Attrs& a, std::optional<Shape> bs = std::nullopt) {
    const Tensor X(DType::Float, xs), W(DType::Float, ws);
    const std::optional<Tensor> B = bs ? std::optional<Tensor>(Tensor(DType::Float, *bs)) : std::nullopt;
    return refusal_id([&] { ops::conv(11, X, W, B ? &*B : nullptr, P(a)); });
  };
  CHECK(id({1, 3, 5}, {2, 2, 3}, {.group = 2}) == "Conv.err.group");
  CHECK(id({1, 4, 5}, {3, 2, 3}, {.group = 2}) == "Conv.err.group");
  CHECK(id({1, 4, 5}, {2, 2, 3}, {.group = 0}) == "Conv.err.group");
  CHECK(id({1, 1, 2}, {1, 1, 3}, {}) == "Conv.err.window");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.kernel = {2}}) == "Conv.err.kernel");
  CHECK(id({1, 1, 5}, {1, 1, 0}, {}) == "Conv.err.kernel");
  CHECK(id({1, 1, 5}, {2, 1, 3}, {}, Shape{3}) == "Conv.err.bias");
  CHECK(id({1, 1, 5}, {2, 1, 3}, {}, Shape{1, 2}) == "Conv.err.bias");
  CHECK(id({1, 5}, {1, 5}, {}) == "Conv.err.rank");
  CHECK(id({1, 1, 5}, {1, 1, 3, 3}, {}) == "Conv.err.rank");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.strides = {0}}) == "Conv.err.strides");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.strides = {1, 1}}) == "Conv.err.strides");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.dilations = {0}}) == "Conv.err.dilations");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.pads = {1}}) == "Conv.err.pads");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.pads = {-1, 0}}) == "Conv.err.pads");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.auto_pad = "same"}) == "Conv.err.auto-pad");
  CHECK(id({1, 1, 5}, {1, 1, 3}, {.pads = {0, 0}, .auto_pad = "VALID"}) == "Conv.err.auto-pad");
  // and what is accepted: a pad as large as the kernel (a window wholly in the padding is the bias)
  const Tensor X = f32({1, 1, 1}, {2}), W = f32({1, 1, 1}, {3}), B = f32({1}, {0.5f});
  const Tensor Y = ops::conv(11, X, W, &B, P({.pads = {1, 1}}));
  CHECK(bits(Y) == bits(std::vector<float>{0.5f, 6.5f, 0.5f}));
  // one term, the bias, exact in every evaluation: B = 0, and R is the oracle's own allowance alone
  CHECK(Y.annex->at(0).bound < 0x1p-1000);
  CHECK(Y.annex->at(0).radius < 1e-15);
  CHECK_FALSE(conforms(Y, 0, 0.5 + 0x1p-24));
}

TEST_CASE("[Conv.err.type] [Conv.err.dtype] [Conv.v1] [Conv.v11] [Conv.v22] types by version", "[conv]") {
  const Tensor Xb(DType::BFloat16, {1, 1, 3}), Wb(DType::BFloat16, {1, 1, 2});
  CHECK(refusal_id([&] { ops::conv(11, Xb, Wb, nullptr, P({})); }) == "Conv.err.dtype");
  CHECK(refusal_id([&] { ops::conv(22, Xb, Wb, nullptr, P({})); }).empty());
  const Tensor Xi(DType::Int32, {1, 1, 3}), Wi(DType::Int32, {1, 1, 2});
  CHECK(refusal_id([&] { ops::conv(22, Xi, Wi, nullptr, P({})); }) == "Conv.err.dtype");
  const Tensor X(DType::Float, {1, 1, 3}), Wd(DType::Double, {1, 1, 2});
  CHECK(refusal_id([&] { ops::conv(1, X, Wd, nullptr, P({})); }) == "Conv.err.type");
  for (int v : {1, 11, 22}) CHECK(refusal_id([&] { ops::conv(v, Tensor(DType::Float16, {1, 1, 3}), Tensor(DType::Float16, {1, 1, 2}), nullptr, P({})); }).empty());
}

TEST_CASE("[Conv.order] [Acc.oracle] [Acc.run] run writes fl_T of the binary64 sum in the order c', q, bias", "[conv]") {
  // terms 2^60, 1, -2^60 (exact floats): in binary64 left to right 2^60 + 1 = 2^60 (absorbed), then +0
  const Tensor X = f32({1, 1, 3}, {0x1p60f, 1, -0x1p60f}), W = f32({1, 1, 3}, {1, 1, 1});
  const Tensor Y = ops::conv(11, X, W, nullptr, P({}));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x00000000});
  // the ideal, 1, is inside the oracle's own radius e_o = γ_m(2^-53)·S ≈ 4·2^-53·2^61 = 1024, so inside R
  CHECK(Y.annex->at(0).oracle > 1);
  CHECK(conforms(Y, 0, 1));
  // the bias is the last term: 2^60 + (-2^60) first, then the bias 1: exactly 1
  const Tensor X2 = f32({1, 1, 2}, {0x1p60f, -0x1p60f}), W2 = f32({1, 1, 2}, {1, 1}), B = f32({1}, {1});
  CHECK(bits(ops::conv(11, X2, W2, &B, P({}))) == bits(std::vector<float>{1}));
}

TEST_CASE("[Acc.run] [Acc.oracle] float16, bfloat16 and double: the ideal rounded once to T", "[conv]") {
  // float16: 1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even, 0x3C00
  Tensor X(DType::Float16, {1, 1, 2}), W(DType::Float16, {1, 1, 2});
  X.values<float16>()[0] = float16{0x3C00}, X.values<float16>()[1] = float16{0x1000};  // 1, 2^-11
  W.values<float16>()[0] = float16{0x3C00}, W.values<float16>()[1] = float16{0x3C00};
  const Tensor Y = ops::conv(11, X, W, nullptr, P({}));
  CHECK(bits16(Y) == std::vector<std::uint16_t>{0x3C00});
  CHECK(conforms(Y, 0, 1.0));
  CHECK(conforms(Y, 0, 1.0009765625));  // θ(2)·S ≈ 2^-10: one float16 unit above is within
  CHECK_FALSE(conforms(Y, 0, 1.001953125));
  // bfloat16 (version 22): 1 + 3·2^-8 rounds to 1 + 2^-6 (to even)
  Tensor Xb(DType::BFloat16, {1, 1, 1}), Wb(DType::BFloat16, {1, 1, 1});
  Xb.values<bfloat16>()[0] = bfloat16{0x3F80};  // 1
  Wb.values<bfloat16>()[0] = bfloat16{0x3F80};
  const Tensor B = make_tensor<bfloat16>({1}, {bfloat16{0x3C40}});  // 3·2^-8 = 0.01171875
  CHECK(bits16(ops::conv(22, Xb, Wb, &B, P({}))) == std::vector<std::uint16_t>{0x3F82});
  // double: 1 + 2^-60 - 1 is 2^-60 exactly in double-double (binary64 alone would give 0)
  const Tensor Xd = make_tensor<double>({1, 1, 3}, {1, 0x1p-60, -1}), Wd = make_tensor<double>({1, 1, 3}, {1, 1, 1});
  const Tensor Yd = ops::conv(11, Xd, Wd, nullptr, P({}));
  CHECK(values<double>(Yd) == std::vector<double>{0x1p-60});
}

}  // namespace conv_test
