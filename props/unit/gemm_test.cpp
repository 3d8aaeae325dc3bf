// Hand-derived examples of spec/ops/gemm.md, each citing its clause.
#include "core/accuracy.hpp"
#include "ops/gemm.hpp"
#include "ops/registry.hpp"
#include "test_util.hpp"

namespace gemm_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::GemmParams;

namespace {
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
GemmParams P(double alpha = 1, double beta = 1, std::int64_t ta = 0, std::int64_t tb = 0, std::int64_t broadcast = 0) {
  GemmParams p;
  p.alpha = alpha, p.beta = beta, p.trans_a = ta, p.trans_b = tb, p.broadcast = broadcast;
  return p;
}
}  // namespace

TEST_CASE("[Gemm.trans] [Gemm.c] [Gemm.float.formula] [Gemm.scalars] Example 1: transposes, broadcast bias", "[gemm]") {
  const Tensor A = f32({1, 3}, {1, 2, 3}), B = f32({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}), C = f32({2}, {10, 20});
  CHECK(bits(ops::gemm(13, A, B, &C, P(1, 1, 0, 1))) == bits(std::vector<float>{8, 23}));
  CHECK(bits(ops::gemm(13, A, B, &C, P(2, 0.5, 0, 1))) == bits(std::vector<float>{1, 16}));
  // transA: A' = Aᵀ of a (3, 1) A is the same row
  CHECK(bits(ops::gemm(13, f32({3, 1}, {1, 2, 3}), B, &C, P(1, 1, 1, 1))) == bits(std::vector<float>{8, 23}));
}

TEST_CASE("[Gemm.err.inner] [Gemm.err.c] [Gemm.err.rank] [Gemm.v6] [Gemm.v7] Example 2: refusals", "[gemm]") {
  auto id = [](int v, Shape a, Shape b, std::optional<Shape> c, const GemmParams& p = P()) {
    const std::optional<Tensor> C = c ? std::optional<Tensor>(Tensor(DType::Float, *c)) : std::nullopt;
    return refusal_id([&] { ops::gemm(v, Tensor(DType::Float, a), Tensor(DType::Float, b), C ? &*C : nullptr, p); });
  };
  CHECK(id(13, {2, 3}, {4, 5}, std::nullopt) == "Gemm.err.inner");
  CHECK(id(13, {2, 3}, {3, 5}, Shape{3, 5}) == "Gemm.err.c");
  CHECK(id(13, {2, 3}, {3, 5}, Shape{2}) == "Gemm.err.c");
  CHECK(id(13, {2, 3, 1}, {3, 5}, std::nullopt) == "Gemm.err.rank");
  CHECK(id(6, {2, 3}, {3, 5}, Shape{5}) == "Gemm.err.c");  // without broadcast, C must be (M, N)
  CHECK(id(6, {2, 3}, {3, 5}, Shape{5}, P(1, 1, 0, 0, 1)).empty());
  CHECK(id(7, {2, 3}, {3, 5}, Shape{5}).empty());  // unidirectional broadcast from version 7
  for (const Shape& c : {Shape{}, Shape{1}, Shape{2, 1}, Shape{1, 5}, Shape{2, 5}}) CHECK(id(13, {2, 3}, {3, 5}, c).empty());
}

TEST_CASE("[Gemm.scalars] [Acc.nonfinite] beta = 0 does not read C, and alpha = 0 is a factor like any other", "[gemm]") {
  const Tensor A = f32({1, 2}, {1, 2}), B = f32({2, 1}, {3, 4}), C = f32({1, 1}, {nan_with_bits(0x7FC00001)});
  CHECK(bits(ops::gemm(13, A, B, &C, P(1, 0))) == bits(std::vector<float>{11}));
  const Tensor An = f32({1, 2}, {kInf, 2});
  const Tensor Y = ops::gemm(13, An, B, nullptr, P(0, 1));  // 0·∞ is a NaN
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x7FC00000});
  CHECK(conforms(Y, 0, std::nan("")));
  CHECK_FALSE(conforms(Y, 0, 0));
}

TEST_CASE("[Gemm.order] [Acc.oracle] the products summed, then times alpha, then plus beta·c", "[gemm]") {
  // σ = 1·1 + 2^-30·1 = 1 + 2^-30 (exact in binary64); α = 3: 3 + 3·2^-30 (exact); + β·c = -3: 3·2^-30
  const Tensor A = f32({1, 2}, {1, 0x1p-30f}), B = f32({2, 1}, {1, 1}), C = f32({1, 1}, {-1});
  const Tensor Y = ops::gemm(13, A, B, &C, P(3, 3));
  CHECK(bits(Y) == bits(std::vector<float>{3 * 0x1p-30f}));
  // terms 3·1·1, 3·2^-30·1 (three factors: rounding count 2), 3·(-1): D = (3 - 1) + 2 = 4
  CHECK(Y.annex->at(0).radius > 0);
  CHECK(conforms(Y, 0, 0));  // S ≈ 6: an evaluation in float may lose the 3·2^-30 entirely
}

TEST_CASE("[Gemm.int.formula] [Gemm.err.int-scale] [Acc.int] [Gemm.v9] integers modulo 2^w, integral scales only", "[gemm]") {
  const Tensor A = make_tensor<std::int32_t>({1, 2}, {1 << 30, 1 << 30}), B = make_tensor<std::int32_t>({2, 1}, {1, 1});
  CHECK(values<std::int32_t>(ops::gemm(13, A, B, nullptr, P())) == std::vector<std::int32_t>{INT32_MIN});  // 2^31 wraps
  const Tensor a = make_tensor<std::int32_t>({1, 2}, {3, 5}), b = make_tensor<std::int32_t>({2, 1}, {1, 1}),
               c = make_tensor<std::int32_t>({1, 1}, {3});
  CHECK(values<std::int32_t>(ops::gemm(13, a, b, &c, P(2, 1))) == std::vector<std::int32_t>{19});
  CHECK(values<std::int32_t>(ops::gemm(13, a, b, &c, P(-1, 1))) == std::vector<std::int32_t>{-5});
  const Tensor au = make_tensor<std::uint32_t>({1, 2}, {3, 5}), bu = make_tensor<std::uint32_t>({2, 1}, {1, 1}),
               cu = make_tensor<std::uint32_t>({1, 1}, {3});
  CHECK(values<std::uint32_t>(ops::gemm(13, au, bu, &cu, P(-1, 1))) == std::vector<std::uint32_t>{4294967291u});
  CHECK(refusal_id([&] { ops::gemm(13, a, b, &c, P(0.5, 2.5)); }) == "Gemm.err.int-scale");
  CHECK(refusal_id([&] { ops::gemm(7, a, b, &c, P()); }) == "Gemm.err.dtype");
}

TEST_CASE("[Gemm.err.type] [Gemm.err.dtype] [Gemm.v1] [Gemm.v11] [Gemm.v13] types and C by version", "[gemm]") {
  const Tensor A(DType::BFloat16, {1, 1}), B(DType::BFloat16, {1, 1});
  CHECK(refusal_id([&] { ops::gemm(11, A, B, nullptr, P()); }) == "Gemm.err.dtype");
  CHECK(refusal_id([&] { ops::gemm(13, A, B, nullptr, P()); }).empty());
  CHECK(refusal_id([] { ops::gemm(13, Tensor(DType::Float, {1, 1}), Tensor(DType::Double, {1, 1}), nullptr, P()); }) ==
        "Gemm.err.type");
  // C is required before version 11: the node adapter refuses a node without it ([Graph.node.arity])
  const Tensor a(DType::Float, {1, 1}), b(DType::Float, {1, 1});
  CHECK(refusal_id([&] { ops::resolve("Gemm", 9).run({&a, &b, nullptr}, {}, 1); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { ops::resolve("Gemm", 11).run({&a, &b}, {}, 1); }).empty());
  CHECK(refusal_id([&] { ops::resolve("Gemm", 1).run({&a, &b, &a}, {}, 1); }).empty());
}

}  // namespace gemm_test
