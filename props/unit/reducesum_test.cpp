// Hand-derived examples of spec/ops/reducesum.md and spec/ops/reducemean.md, each citing its clause.
#include <limits>

#include "core/accuracy.hpp"
#include "ops/reducemean.hpp"
#include "ops/reducesum.hpp"
#include "test_util.hpp"

namespace reducesum_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::ReduceParams;

namespace {
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
ReduceParams P(std::optional<std::vector<std::int64_t>> axes, std::int64_t keepdims = 1, std::int64_t noop = 0) {
  ReduceParams p;
  p.axes = std::move(axes), p.keepdims = keepdims, p.noop_with_empty_axes = noop;
  return p;
}
const Tensor X23 = f32({2, 3}, {1, 2, 3, 4, 5, 6});
}  // namespace

TEST_CASE("[ReduceSum.float.formula] [ReduceSum.shape] [ReduceSum.axes.default] [ReduceSum.axes.normalise] [ReduceSum.v11] "
          "Example 1",
          "[reducesum]") {
  CHECK(bits(ops::reduce_sum(11, X23, P(std::vector<std::int64_t>{1}, 0))) == bits(std::vector<float>{6, 15}));
  CHECK(bits(ops::reduce_sum(11, X23, P(std::vector<std::int64_t>{-1}, 0))) == bits(std::vector<float>{6, 15}));
  const Tensor Y0 = ops::reduce_sum(1, X23, P(std::vector<std::int64_t>{0}, 1));
  CHECK(Y0.shape() == Shape{1, 3});
  CHECK(bits(Y0) == bits(std::vector<float>{5, 7, 9}));
  const Tensor All = ops::reduce_sum(13, X23, P(std::nullopt, 0));
  CHECK(All.shape() == Shape{});
  CHECK(bits(All) == bits(std::vector<float>{21}));
  CHECK(ops::reduce_sum(13, X23, P(std::nullopt, 1)).shape() == Shape{1, 1});
}

TEST_CASE("[ReduceSum.err.axis-range] [ReduceSum.err.axis-duplicate] [ReduceSum.err.flag] [ReduceSum.err.dtype] "
          "[ReduceSum.err.axes-input] [ReduceSum.v1] [ReduceSum.v13] refusals",
          "[reducesum]") {
  CHECK(refusal_id([] { ops::reduce_sum(1, X23, P(std::vector<std::int64_t>{-1})); }) == "ReduceSum.err.axis-range");
  CHECK(refusal_id([] { ops::reduce_sum(13, X23, P(std::vector<std::int64_t>{2})); }) == "ReduceSum.err.axis-range");
  CHECK(refusal_id([] { ops::reduce_sum(11, X23, P(std::vector<std::int64_t>{1, -1})); }) == "ReduceSum.err.axis-duplicate");
  CHECK(refusal_id([] { ops::reduce_sum(13, X23, P(std::nullopt, 2)); }) == "ReduceSum.err.flag");
  CHECK(refusal_id([] { ops::reduce_sum(13, Tensor(DType::Bool, {2}), P(std::nullopt)); }) == "ReduceSum.err.dtype");
  CHECK(refusal_id([] { ops::reduce_sum(11, Tensor(DType::BFloat16, {2}), P(std::nullopt)); }) == "ReduceSum.err.dtype");
  CHECK(refusal_id([] { ops::reduce_sum(13, Tensor(DType::Int8, {2}), P(std::nullopt)); }) == "ReduceSum.err.dtype");
  CHECK(refusal_id([] { ops::reducesum_axes_from_input(Tensor(DType::Int32, {1})); }) == "ReduceSum.err.axes-input");
  CHECK(refusal_id([] { ops::reducesum_axes_from_input(Tensor(DType::Int64, {1, 1})); }) == "ReduceSum.err.axes-input");
}

TEST_CASE("[ReduceSum.axes.noop] [ReduceSum.v13] empty axes with noop_with_empty_axes = 1: Y is X, NaN payloads kept", "[reducesum]") {
  const Tensor X = f32({2}, {nan_with_bits(0xFFC00001), -0.0f});
  const Tensor Y = ops::reduce_sum(13, X, P(std::vector<std::int64_t>{}, 0, 1));
  CHECK(Y.shape() == Shape{2});
  CHECK(bits(Y) == std::vector<std::uint32_t>{0xFFC00001, 0x80000000});
  CHECK(bits(ops::reduce_sum(13, X23, P(std::vector<std::int64_t>{}, 0, 0))) == bits(std::vector<float>{21}));  // noop 0: all axes
}

TEST_CASE("[ReduceSum.float.empty] [ReduceSum.int.empty] an empty reduced set gives 0", "[reducesum]") {
  const Tensor Y = ops::reduce_sum(13, Tensor(DType::Float, {2, 0}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0, 0});
  CHECK(conforms(Y, 0, -0.0));
  CHECK_FALSE(conforms(Y, 0, 0x1p-149));
  const Tensor I = ops::reduce_sum(13, Tensor(DType::Int32, {2, 0}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(values<std::int32_t>(I) == std::vector<std::int32_t>{0, 0});
}

TEST_CASE("[ReduceSum.int.formula] [Acc.int] integer sums wrap modulo 2^w", "[reducesum]") {
  const Tensor X = make_tensor<std::int32_t>({2, 2}, {std::numeric_limits<std::int32_t>::max(), 1, -7, 3});
  CHECK(values<std::int32_t>(ops::reduce_sum(13, X, P(std::vector<std::int64_t>{1}, 0))) ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), -4});
  const Tensor U = make_tensor<std::uint32_t>({2}, {4294967295u, 2});
  CHECK(values<std::uint32_t>(ops::reduce_sum(1, U, P(std::nullopt, 0))) == std::vector<std::uint32_t>{1});
  const Tensor L = make_tensor<std::int64_t>({2}, {std::numeric_limits<std::int64_t>::max(), 2});
  CHECK(values<std::int64_t>(ops::reduce_sum(11, L, P(std::nullopt, 0))) ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min() + 1});
}

TEST_CASE("[ReduceSum.order] [ReduceSum.float.formula] the walk: rows side by side, and two reduced axes around a kept one",
          "[reducesum]") {
  // 20 rows of 37: row r holds r + 1, r + 2, ..., r + 37; its sum 37·r + 703, exact in float
  std::vector<float> v;
  for (int r = 0; r < 20; ++r)
    for (int k = 1; k <= 37; ++k) v.push_back(static_cast<float>(r + k));
  const Tensor Y = ops::reduce_sum(13, f32({20, 37}, v), P(std::vector<std::int64_t>{1}, 0));
  for (int r = 0; r < 20; ++r) CHECK(values<float>(Y)[r] == static_cast<float>(37 * r + 703));
  // X of shape (3, 4, 5) holding 0, 1, ..., 59; axes {0, 2}: Y[j] = Σ_a Σ_c (20a + 5j + c) over a < 3, c < 5
  // = 20·3·5 + 5j·15 + 10·3 = 330 + 75j; the mean over the 15 terms: 22 + 5j
  std::vector<float> w(60);
  for (int k = 0; k < 60; ++k) w[k] = static_cast<float>(k);
  const Tensor Z = ops::reduce_sum(13, f32({3, 4, 5}, w), P(std::vector<std::int64_t>{0, 2}, 0));
  CHECK(bits(Z) == bits(std::vector<float>{330, 405, 480, 555}));
  const Tensor M = ops::reduce_mean(18, f32({3, 4, 5}, w), P(std::vector<std::int64_t>{0, 2}, 0));
  CHECK(bits(M) == bits(std::vector<float>{22, 27, 32, 37}));
}

TEST_CASE("[ReduceSum.prop.bound] [Acc.situations] cancellation: the largest first and last, a dropped term is refused", "[reducesum]") {
  const Tensor Y = ops::reduce_sum(13, f32({2, 3}, {0x1p25f, 1, -0x1p25f, -0x1p25f, 1, 0x1p25f}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(bits(Y) == bits(std::vector<float>{1, 1}));
  CHECK(conforms(Y, 0, 0.0));  // left to right in float: 2^25 + 1 is 2^25
  CHECK(conforms(Y, 1, 2.0));
  const Tensor D = ops::reduce_sum(13, f32({3}, {1, 2, 4}), P(std::nullopt, 0));
  for (double r : {3.0, 5.0, 6.0}) CHECK_FALSE(conforms(D, 0, r));
}

TEST_CASE("[ReduceMean.float.formula] [ReduceMean.order] [ReduceMean.shape] [ReduceMean.v13] [Acc.divisor] Example 1", "[reducemean]") {
  const Tensor Y = ops::reduce_mean(13, X23, P(std::vector<std::int64_t>{1}, 0));
  CHECK(bits(Y) == bits(std::vector<float>{2, 5}));
  CHECK_FALSE(conforms(Y, 0, 6.0));  // ReduceMean computed as ReduceSum
  CHECK(bits(ops::reduce_mean(1, X23, P(std::vector<std::int64_t>{0}, 0))) == bits(std::vector<float>{2.5f, 3.5f, 4.5f}));
  CHECK(bits(ops::reduce_mean(18, X23, P(std::nullopt, 0))) == bits(std::vector<float>{3.5f}));
  CHECK(refusal_id([] { ops::reduce_mean(13, Tensor(DType::Bool, {2}), P(std::nullopt)); }) == "ReduceMean.err.dtype");
  CHECK(refusal_id([] { ops::reduce_mean(11, Tensor(DType::BFloat16, {2}), P(std::nullopt)); }) == "ReduceMean.err.dtype");
  CHECK(refusal_id([] { ops::reduce_mean(1, X23, P(std::vector<std::int64_t>{-1})); }) == "ReduceMean.err.axis-range");
  CHECK(refusal_id([] { ops::reduce_mean(11, X23, P(std::vector<std::int64_t>{0, -2})); }) == "ReduceMean.err.axis-duplicate");
  CHECK(refusal_id([] { ops::reduce_mean(18, X23, P(std::nullopt, 0, 3)); }) == "ReduceMean.err.flag");
  CHECK(refusal_id([] { ops::reducemean_axes_from_input(Tensor(DType::Float, {1})); }) == "ReduceMean.err.axes-input");
  CHECK(bits(ops::reduce_mean(11, X23, P(std::vector<std::int64_t>{-2}, 1))) == bits(std::vector<float>{2.5f, 3.5f, 4.5f}));
}

TEST_CASE("[ReduceMean.axes.noop] [ReduceMean.axes.default] [ReduceMean.axes.normalise] [ReduceMean.v18] [ReduceMean.v1] axes", "[reducemean]") {
  CHECK(bits(ops::reduce_mean(18, X23, P(std::vector<std::int64_t>{}, 1, 1))) == bits(X23));
  CHECK(bits(ops::reduce_mean(18, X23, P(std::vector<std::int64_t>{}, 0, 0))) == bits(std::vector<float>{3.5f}));
  CHECK(bits(ops::reduce_mean(13, X23, P(std::nullopt, 0, 1))) == bits(std::vector<float>{3.5f}));  // no noop before 18
}

TEST_CASE("[ReduceMean.float.empty] [ReduceMean.err.int-empty] the mean of an empty set: NaN for float, refused for integers", "[reducemean]") {
  const Tensor Y = ops::reduce_mean(13, Tensor(DType::Float, {2, 0}), P(std::vector<std::int64_t>{1}, 0));
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x7FC00000, 0x7FC00000});
  CHECK(conforms(Y, 0, std::nan("")));
  CHECK_FALSE(conforms(Y, 0, 0.0));  // onnxruntime's 0 ([ReduceMean.div.ort-empty]) is not the mean of no value
  CHECK(refusal_id([] { ops::reduce_mean(13, Tensor(DType::Int32, {2, 0}), P(std::vector<std::int64_t>{1}, 0)); }) ==
        "ReduceMean.err.int-empty");
  CHECK(refusal_id([] { ops::reduce_mean(13, Tensor(DType::Int32, {0, 2}), P(std::vector<std::int64_t>{1}, 0)); }).empty());  // Y empty
}

TEST_CASE("[ReduceMean.int.formula] the integer mean: the exact sum divided, truncated toward zero", "[reducemean]") {
  const Tensor X = make_tensor<std::int32_t>({4, 2}, {-3, 0, 3, 0, -7, 0, std::numeric_limits<std::int32_t>::max(),
                                                      std::numeric_limits<std::int32_t>::max()});
  CHECK(values<std::int32_t>(ops::reduce_mean(13, X, P(std::vector<std::int64_t>{1}, 0))) ==
        std::vector<std::int32_t>{-1, 1, -3, std::numeric_limits<std::int32_t>::max()});
  const Tensor L = make_tensor<std::int64_t>({2}, {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()});
  CHECK(values<std::int64_t>(ops::reduce_mean(18, L, P(std::nullopt, 0))) ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()});
  const Tensor U = make_tensor<std::uint64_t>({3}, {~std::uint64_t{0}, ~std::uint64_t{0}, 1});
  CHECK(values<std::uint64_t>(ops::reduce_mean(11, U, P(std::nullopt, 0))) == std::vector<std::uint64_t>{12297829382473034410u});
}

}  // namespace reducesum_test
