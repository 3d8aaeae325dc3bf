// Hand-derived examples of spec/ops/batchnormalization.md, each citing its clause. The expected values
// are worked out by hand from the clauses (exact in every evaluation where the text says so).
#include <cmath>
#include <limits>

#include "core/accuracy.hpp"
#include "ops/batchnormalization.hpp"
#include "ops/registry.hpp"
#include "test_util.hpp"

namespace batchnormalization_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::BatchNormParams;

namespace {
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
BatchNormParams P(double eps = 0, std::int64_t spatial = 1) {
  BatchNormParams p;
  p.epsilon = eps, p.spatial = spatial;
  return p;
}
Tensor bn(int v, const Tensor& x, const Tensor& g, const Tensor& b, const Tensor& m, const Tensor& var, const BatchNormParams& p,
          std::size_t outputs = 1) {
  return ops::batch_normalization(v, x, g, b, m, var, p, outputs);
}
constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("[BatchNormalization.float.formula] [BatchNormalization.channel] [BatchNormalization.order] Example 1: per-channel "
          "scale, bias, mean, variance, exact values",
          "[batchnormalization]") {
  // X (1, 2, 2): channel 0 [1, 3], channel 1 [0, 8]; a = [2/2, 0.5/4] = [1, 0.125]
  const Tensor X = f32({1, 2, 2}, {1, 3, 0, 8});
  const Tensor g = f32({2}, {2, 0.5f}), b = f32({2}, {1, -1}), m = f32({2}, {2, 4}), v = f32({2}, {4, 16});
  for (int version : {6, 7, 9, 14, 15}) {
    const Tensor Y = bn(version, X, g, b, m, v, P(0));
    CHECK(bits(Y) == bits(std::vector<float>{0, 2, -1.5f, -0.5f}));
    // every evaluation of H is exact here: only the exact values conform... and they do
    CHECK(conforms(Y, 2, -1.5));
  }
  // rank 1: (N) with C = 1
  const Tensor Y1 = bn(15, f32({3}, {0, 2, 4}), f32({1}, {1}), f32({1}, {0}), f32({1}, {2}), f32({1}, {4}), P(0));
  CHECK(bits(Y1) == bits(std::vector<float>{-1, 0, 1}));
}

TEST_CASE("[BatchNormalization.channel] spatial 0 takes one parameter set per activation (C, D1), and versions 1 and 6 also a "
          "flat (C·D1)",
          "[batchnormalization]") {
  // X (2, 1, 2): activations (0, 0) and (0, 1); parameters of shape (1, 2)
  const Tensor X = f32({2, 1, 2}, {1, 1, 3, 3});
  const Tensor g = f32({1, 2}, {1, 2}), b = f32({1, 2}, {0, 10}), m = f32({1, 2}, {1, 3}), v = f32({1, 2}, {1, 4});
  // y = (x - m)/sqrt(v)·g + b: (1-1)/1 = 0, (1-3)/2·2 + 10 = 8, (3-1)/1 = 2, (3-3)/2·2 + 10 = 10
  CHECK(bits(bn(7, X, g, b, m, v, P(0, 0))) == bits(std::vector<float>{0, 8, 2, 10}));
  const Tensor gf = f32({2}, {1, 2}), bf = f32({2}, {0, 10}), mf = f32({2}, {1, 3}), vf = f32({2}, {1, 4});
  CHECK(bits(bn(6, X, gf, bf, mf, vf, P(0, 0))) == bits(std::vector<float>{0, 8, 2, 10}));
  CHECK(refusal_id([&] { bn(7, X, gf, bf, mf, vf, P(0, 0)); }) == "BatchNormalization.err.shape");
}

TEST_CASE("[BatchNormalization.err.shape] [BatchNormalization.err.rank] [BatchNormalization.err.type] "
          "[BatchNormalization.err.dtype] [BatchNormalization.versions] Example 2, refusals",
          "[batchnormalization]") {
  const Tensor X = Tensor(DType::Float, {2, 3, 4});
  const Tensor p3 = Tensor(DType::Float, {3}), p4 = Tensor(DType::Float, {4}), d3 = Tensor(DType::Double, {3});
  CHECK(refusal_id([&] { bn(15, X, p4, p4, p4, p4, P()); }) == "BatchNormalization.err.shape");
  CHECK(refusal_id([&] { bn(9, Tensor(DType::Float, {}), p3, p3, p3, p3, P()); }) == "BatchNormalization.err.rank");
  CHECK(refusal_id([&] { bn(9, X, p3, p3, d3, d3, P()); }) == "BatchNormalization.err.type");
  CHECK(refusal_id([&] { bn(14, X, d3, d3, p3, p3, P()); }) == "BatchNormalization.err.type");
  CHECK(refusal_id([&] { bn(15, X, d3, p3, p3, p3, P()); }) == "BatchNormalization.err.type");
  CHECK(refusal_id([&] { bn(15, X, d3, d3, p3, p3, P()); }).empty());  // T1 double, T2 float: accepted from 15
  CHECK(refusal_id([&] { bn(14, X, p3, p3, d3, d3, P()); }).empty());  // U double: accepted from 14
  const Tensor Xb = Tensor(DType::BFloat16, {2, 3}), b3 = Tensor(DType::BFloat16, {3});
  CHECK(refusal_id([&] { bn(9, Xb, b3, b3, b3, b3, P()); }) == "BatchNormalization.err.dtype");
  CHECK(refusal_id([&] { bn(14, Xb, b3, b3, b3, b3, P()); }).empty());
  const Tensor Xi = Tensor(DType::Int32, {2, 3}), i3 = Tensor(DType::Int32, {3});
  CHECK(refusal_id([&] { bn(15, Xi, i3, i3, i3, i3, P()); }) == "BatchNormalization.err.dtype");
}

TEST_CASE("[BatchNormalization.mode] [BatchNormalization.err.unsupported-training] the training mode is refused: training_mode "
          "at load, an output besides Y when run",
          "[batchnormalization]") {
  const Tensor X = f32({1, 1}, {1}), p = f32({1}, {1});
  CHECK(refusal_id([&] { bn(9, X, p, p, p, p, P(), 2); }) == "BatchNormalization.err.unsupported-training");
  CHECK(refusal_id([&] { bn(6, X, p, p, p, p, P(), 5); }) == "BatchNormalization.err.unsupported-training");
  BatchNormParams t = P();
  t.training_mode = 1;
  CHECK(refusal_id([&] { bn(15, X, p, p, p, p, t); }) == "BatchNormalization.err.unsupported-training");
  CHECK(refusal_id([&] { bn(14, X, p, p, p, p, t); }) == "BatchNormalization.err.unsupported-training");
  // the registry's load-time check (Graph.node.attributes then the mode)
  const ops::OpVersion& op = ops::resolve("BatchNormalization", 15);
  ops::Attributes a;
  a["training_mode"] = std::int64_t{1};
  CHECK(refusal_id([&] { op.check_attributes(a); }) == "BatchNormalization.err.unsupported-training");
  a["training_mode"] = std::int64_t{0};
  CHECK(refusal_id([&] { op.check_attributes(a); }).empty());
  // version 9 has no training_mode, version 1 has consumed_inputs and is_test
  CHECK(refusal_id([&] { ops::resolve("BatchNormalization", 9).check_attributes(a); }) == "Graph.node.attributes");
  ops::Attributes a1;
  a1["consumed_inputs"] = std::vector<std::int64_t>{0, 0, 0, 1, 1};
  a1["is_test"] = std::int64_t{1};
  CHECK(refusal_id([&] { ops::resolve("BatchNormalization", 1).check_attributes(a1); }).empty());
  // is_test 0 with Y alone: computed as inference (versions 1, 6)
  CHECK(refusal_id([&] { bn(6, X, p, p, p, p, P()); }).empty());
}

TEST_CASE("[BatchNormalization.edge] degenerate channels and non-finite parameters", "[batchnormalization]") {
  const Tensor X = f32({1, 5, 1}, {1, 1, 1, 1, 1});
  // channel 0: var = -1, eps = 0.5: w = -0.5 < 0, eps exact in float: only a NaN
  // channel 1: var = -0.5: w = 0 exactly: NaN or an infinity
  // channel 2: var = +Inf: a = 0, Y = B exactly
  // channel 3: scale = +Inf: NaN or an infinity
  // channel 4: mean = NaN: a NaN
  const Tensor g = f32({5}, {1, 1, 1, INFINITY, 1}), b = f32({5}, {7, 7, 7, 7, 7}), m = f32({5}, {0, 0, 0, 0, kNanF});
  const Tensor v = f32({5}, {-1, -0.5f, INFINITY, 1, 1});
  const Tensor Y = bn(15, X, g, b, m, v, P(0.5));
  const auto y = bits(Y);
  CHECK(y[0] == 0x7FC00000u);
  CHECK(y[1] == 0x7FC00000u);
  CHECK(y[2] == bits_of(7.0f));
  CHECK(y[3] == 0x7FC00000u);
  CHECK(y[4] == 0x7FC00000u);
  CHECK(conforms(Y, 0, std::nan("")));
  CHECK_FALSE(conforms(Y, 0, INFINITY));
  CHECK_FALSE(conforms(Y, 0, 0.0));
  CHECK(conforms(Y, 1, INFINITY));
  CHECK(conforms(Y, 1, -INFINITY));
  CHECK_FALSE(conforms(Y, 1, 1.0));
  CHECK(conforms(Y, 2, 7.0));
  CHECK_FALSE(conforms(Y, 2, 7.5));
  CHECK(conforms(Y, 3, -INFINITY));
  CHECK_FALSE(conforms(Y, 3, 7.0));
  // float16: eps = 2^-30 is not a float16 value; var = -2^-30: w = 0 within the conversion of eps: any value
  const Tensor Xh = Tensor(DType::Float16, {1, 1}), ph = Tensor(DType::Float16, {1});
  Tensor vh = Tensor(DType::Float16, {1});
  vh.values<float16>()[0] = float16{0x8000};  // -0
  const Tensor Yh = bn(15, Xh, ph, ph, ph, vh, P(std::ldexp(1.0, -30)));
  CHECK(conforms(Yh, 0, 123.0));
  CHECK(conforms(Yh, 0, std::nan("")));
}

TEST_CASE("[BatchNormalization.counts] [BatchNormalization.hyp] the folded form onnxruntime computes conforms, a BatchNormalization "
          "without epsilon on variances near 1e-3 does not",
          "[batchnormalization]") {
  // float, eps = 1e-5 (binary32), var = 1e-3, scale 1, B 0, mean 0, x = 1: a = 1/sqrt(0.00101) = 31.4658...
  const float eps = 1e-5f;
  const Tensor X = f32({1, 1, 1}, {1}), g = f32({1}, {1}), b = f32({1}, {0}), m = f32({1}, {0}), v = f32({1}, {1e-3f});
  const Tensor Y = bn(15, X, g, b, m, v, P(eps));
  // onnxruntime's form in float: inv_std = 1/sqrt(var + eps), new_scale = inv_std·scale, y = x·new_scale + (B − mean·new_scale)
  const float inv = 1.0f / std::sqrt(1e-3f + eps);
  const float ns = inv * 1.0f;
  const float ort = 1.0f * ns + (0.0f - 0.0f * ns);
  CHECK(conforms(Y, 0, ort));
  // without epsilon: 1/sqrt(1e-3) = 31.6227..., 0.5% away
  const float no_eps = 1.0f / std::sqrt(1e-3f);
  CHECK_FALSE(conforms(Y, 0, no_eps));
  // D = 8 for float ([BatchNormalization.counts] c_in = 0: eps is a binary32 value)
  const accuracy::Element e = Y.annex->at(0);
  CHECK(e.bound >= accuracy::theta(DType::Float, 8) * 31.46);
  CHECK(e.bound < accuracy::theta(DType::Float, 9) * 31.47);
}

TEST_CASE("[BatchNormalization.counts] [BatchNormalization.hyp] a float16 variance just above -epsilon, where epsilon's conversion to "
          "float16 is a large relative change of var + epsilon (c_in > 1)",
          "[batchnormalization]") {
  // var = -151·2^-24 (a float16 subnormal), epsilon = 1e-5 (binary32): w = 9.9969838e-7, a = 1/√w = 1000.1508.
  // Evaluated in float16 (by hand): fl16(epsilon) = 168·2^-24, w' = 17·2^-24 (exact), √w' = 1.00662735e-3 rounds
  // to 1056·2^-20, 1/s' = 992.97 rounds to 993, y = 1·993 + (0 - 0·993) = 993: 0.7% from the ideal, within
  // θ(D)·S for D = c_in + 8 (c_in = ⌈r/((1 − r)u)⌉ = 130, r = 2^-24/w), far outside θ(8)·S.
  auto h = [](std::uint16_t b) {
    Tensor t(DType::Float16, {1});
    t.values<float16>()[0] = float16{b};
    return t;
  };
  const Tensor X = [] {
    Tensor t(DType::Float16, {1, 1});
    t.values<float16>()[0] = float16{0x3C00};  // 1
    return t;
  }();
  const Tensor Y = bn(15, X, h(0x3C00), h(0x0000), h(0x0000), h(0x8097), P(static_cast<double>(1e-5f)));
  CHECK(conforms(Y, 0, 993.0));
  CHECK_FALSE(conforms(Y, 0, 1100.0));
}

}  // namespace batchnormalization_test
