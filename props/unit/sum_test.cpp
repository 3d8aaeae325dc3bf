// Hand-derived examples of spec/ops/sum.md and spec/ops/mean.md, each citing its clause. Expected values
// are worked out by hand from the clauses; a computed element is judged by its reported enclosure
// ([Acc.verdict]) or, where the value is exact, by its bits.
#include "core/accuracy.hpp"
#include "ops/mean.hpp"
#include "ops/sum.hpp"
#include "test_util.hpp"

namespace sum_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {
bool conforms(const Tensor& y, std::int64_t k, double r) { return accuracy::judge(y.dtype(), y.annex->at(k), r).conforms; }
template <class F> Tensor op(F f, int v, const std::vector<Tensor>& xs) {
  std::vector<const Tensor*> in;
  for (const Tensor& x : xs) in.push_back(&x);
  return f(v, in);
}
Tensor sum(int v, const std::vector<Tensor>& xs) { return op(ops::sum, v, xs); }
Tensor mean(int v, const std::vector<Tensor>& xs) { return op(ops::mean, v, xs); }
}  // namespace

TEST_CASE("[Sum.float.formula] [Sum.order] [Sum.shape] [Sum.v13] Example 1: three inputs, exact", "[sum]") {
  const Tensor Y = sum(13, {f32({3}, {1, 2, 3}), f32({3}, {10, 20, 30}), f32({3}, {0.5f, 0.5f, -1})});
  CHECK(bits(Y) == bits(std::vector<float>{11.5f, 22.5f, 32}));
  REQUIRE(Y.annex);
  for (int k = 0; k < 3; ++k) CHECK_FALSE(conforms(Y, k, values<float>(Y)[k] + 0.01));  // exact sums: R is tiny
}

TEST_CASE("[Sum.shape] [Sum.v8] [Sum.v1] [Sum.v6] [Common.broadcast.map] Example 2: broadcasting from version 8", "[sum]") {
  const Tensor A = f32({2, 3}, {1, 2, 3, 4, 5, 7}), B = f32({3}, {10, 20, 30});
  const Tensor Y = sum(8, {A, B});
  CHECK(Y.shape() == Shape{2, 3});
  CHECK(bits(Y) == bits(std::vector<float>{11, 22, 33, 14, 25, 37}));
  CHECK(refusal_id([&] { sum(6, {A, B}); }) == "Sum.err.same-shape");
  CHECK(refusal_id([&] { sum(1, {A, B}); }) == "Sum.err.same-shape");
  CHECK(bits(sum(1, {A, A})) == bits(std::vector<float>{2, 4, 6, 8, 10, 14}));
}

TEST_CASE("[Sum.err.arity] [Sum.err.type] [Sum.err.dtype] [Sum.err.broadcast] refusals", "[sum]") {
  CHECK(refusal_id([] { ops::sum(13, {}); }) == "Sum.err.arity");
  const Tensor A = f32({2}, {1, 2});
  CHECK(refusal_id([&] { ops::sum(13, {&A, nullptr}); }) == "Sum.err.arity");
  CHECK(refusal_id([&] { sum(13, {A, Tensor(DType::Double, {2})}); }) == "Sum.err.type");
  CHECK(refusal_id([&] { sum(13, {Tensor(DType::Int32, {2})}); }) == "Sum.err.dtype");
  CHECK(refusal_id([&] { sum(8, {Tensor(DType::BFloat16, {2})}); }) == "Sum.err.dtype");
  CHECK(refusal_id([&] { sum(13, {Tensor(DType::BFloat16, {2})}); }).empty());
  CHECK(refusal_id([&] { sum(13, {A, f32({3}, {1, 2, 3})}); }) == "Sum.err.broadcast");
}

TEST_CASE("[Sum.unary] [Acc.run] [Acc.zero] one input is the input, -0 + -0 is -0, a NaN is the canonical NaN", "[sum]") {
  const Tensor Y = sum(13, {f32({4}, {-0.0f, 1.5f, nan_with_bits(0xFFC00001), -kInf})});
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x80000000, 0x3FC00000, 0x7FC00000, 0xFF800000});
  CHECK(conforms(Y, 2, std::nan("")));     // any NaN ([Acc.nonfinite])
  CHECK_FALSE(conforms(Y, 1, 1.5 + 0x1p-23));  // one term, no rounding: only 1.5
  const Tensor Z = sum(13, {f32({2}, {-0.0f, -0.0f}), f32({2}, {-0.0f, 0.0f})});
  CHECK(bits(Z) == std::vector<std::uint32_t>{0x80000000, 0x00000000});
  CHECK(conforms(Z, 0, 0.0));  // [Acc.zero] either zero
}

TEST_CASE("[Sum.float.formula] [Acc.nonfinite] [Acc.overflow] infinities and overflow", "[sum]") {
  const Tensor Y = sum(13, {f32({3}, {kInf, kInf, 3e38f}), f32({3}, {-kInf, 1, 3e38f})});
  CHECK(bits(Y) == std::vector<std::uint32_t>{0x7FC00000, 0x7F800000, 0x7F800000});  // 6e38 beyond float: fl = +Inf
  CHECK(conforms(Y, 2, kInf));
  CHECK_FALSE(conforms(Y, 2, -kInf));
}

TEST_CASE("[Sum.prop.bound] [Acc.situations] Example 3: cancellation, the order is free within B, a dropped input is refused",
          "[sum]") {
  // 2^25 + 1 − 2^25: the ideal 1; left to right in float 2^25 + 1 rounds to 2^25 and gives 0; R ≈ θ(2)·(2^26 + 1) ≈ 8
  const Tensor Y = sum(13, {f32({1}, {0x1p25f}), f32({1}, {1}), f32({1}, {-0x1p25f})});
  CHECK(bits(Y) == bits(std::vector<float>{1}));  // [Acc.run] the oracle's binary64 sum is exact here
  CHECK(conforms(Y, 0, 0.0));
  CHECK(conforms(Y, 0, 2.0));
  CHECK_FALSE(conforms(Y, 0, 10.0));
  // a dropped input: 1 + 2 + 4 = 7 (R ≈ θ(2)·7 ≈ 8.3e-7); 3, 5 or 6 (one input left out) do not conform
  const Tensor D = sum(13, {f32({1}, {1}), f32({1}, {2}), f32({1}, {4})});
  CHECK(conforms(D, 0, 7.0));
  for (double r : {3.0, 5.0, 6.0}) CHECK_FALSE(conforms(D, 0, r));
}

TEST_CASE("[Mean.float.formula] [Mean.order] [Acc.divisor] Example 1: three inputs, 1/3 not a float", "[mean]") {
  const Tensor Y = mean(13, {f32({3}, {1, 2, 3}), f32({3}, {10, 20, 30}), f32({3}, {0.5f, 0.5f, -1})});
  // 11.5/3 = 23/6, 22.5/3 = 7.5 (exact), 32/3: `run` writes fl(σ/3) of the exact binary64 sums
  CHECK(values<float>(Y)[1] == 7.5f);
  CHECK(values<float>(Y)[0] == 23.0f / 6.0f);  // one float division, correctly rounded: the same as fl(23/6)
  CHECK(values<float>(Y)[2] == 32.0f / 3.0f);
  // every way of applying 1/3 in float conforms: sum then divide, multiply by fl(1/3), divide each term
  const float third = 1.0f / 3.0f;
  CHECK(conforms(Y, 0, (1.0f + 10.0f + 0.5f) * third));
  CHECK(conforms(Y, 0, 1.0f / 3.0f + 10.0f / 3.0f + 0.5f / 3.0f));
  CHECK(conforms(Y, 2, (3.0f + 30.0f - 1.0f) / 3.0f));
  // the radius counts c_3 = 2 roundings for the factor: D = 2 + 2, and B = θ(4)·S with S = 11.5/3
  const double S = 11.5 / 3;
  CHECK(Y.annex->at(0).bound >= accuracy::theta(DType::Float, 4) * S * (1 - 0x1p-40));
  CHECK(Y.annex->at(0).bound < accuracy::theta(DType::Float, 5) * S);
}

TEST_CASE("[Mean.prop.bound] [Mean.float.formula] [Acc.divisor] a mean computed as the sum, or without an input, is refused", "[mean]") {
  const Tensor Y = mean(13, {f32({1}, {3}), f32({1}, {5})});
  CHECK(bits(Y) == bits(std::vector<float>{4}));
  CHECK_FALSE(conforms(Y, 0, 8.0));  // Mean as Sum
  CHECK_FALSE(conforms(Y, 0, 3.0));  // the mean of one input
  CHECK_FALSE(conforms(Y, 0, 2.5));  // the sum of one input, divided by 2
  CHECK(conforms(Y, 0, 4.0));
}

TEST_CASE("[Mean.unary] [Mean.shape] [Mean.v1] [Mean.v6] [Mean.v8] [Mean.v13] one input, broadcasting, versions", "[mean]") {
  const Tensor X = f32({3}, {-0.0f, 0.1f, nan_with_bits(0x7FC00005)});
  CHECK(bits(mean(13, {X})) == std::vector<std::uint32_t>{0x80000000, bits_of(0.1f), 0x7FC00000});
  const Tensor A = f32({2, 3}, {1, 2, 3, 4, 5, 7}), B = f32({3}, {10, 20, 30});
  CHECK(bits(mean(8, {A, B})) == bits(std::vector<float>{5.5f, 11, 16.5f, 7, 12.5f, 18.5f}));
  CHECK(refusal_id([&] { mean(6, {A, B}); }) == "Mean.err.same-shape");
  CHECK(refusal_id([&] { mean(1, {A, B}); }) == "Mean.err.same-shape");
  CHECK(refusal_id([&] { mean(13, {A, f32({2}, {1, 2})}); }) == "Mean.err.broadcast");
  CHECK(refusal_id([&] { mean(8, {Tensor(DType::BFloat16, {2})}); }) == "Mean.err.dtype");
  CHECK(refusal_id([&] { mean(13, {Tensor(DType::Int64, {2})}); }) == "Mean.err.dtype");
  CHECK(refusal_id([&] { mean(13, {A, Tensor(DType::Float16, {2, 3})}); }) == "Mean.err.type");
  CHECK(refusal_id([] { ops::mean(13, {}); }) == "Mean.err.arity");
}

TEST_CASE("[Mean.float.formula] [Acc.divisor] [Acc.overflow] a float16 mean of 60000 and 60000: 60000, or +Inf", "[mean]") {
  Tensor a(DType::Float16, {1});
  a.values<float16>()[0] = float16{0x7B53};  // 60000
  const Tensor Y = mean(13, {a, a});
  CHECK(bits16(Y) == std::vector<std::uint16_t>{0x7B53});
  CHECK(conforms(Y, 0, std::numeric_limits<double>::infinity()));  // summed in float16 first: 120000 overflows
  CHECK(conforms(Y, 0, 60000.0));
}

TEST_CASE("[Sum.float.formula] [Mean.float.formula] double: the double-double oracle", "[sum]") {
  // 1 + 2^-60 + (-1): exact 2^-60; a binary64 left-to-right sum gives 0, within B = θ(2)·(2 + 2^-60)
  const Tensor a = make_tensor<double>({1}, {1.0}), b = make_tensor<double>({1}, {0x1p-60}), c = make_tensor<double>({1}, {-1.0});
  const Tensor Y = sum(13, {a, b, c});
  CHECK(values<double>(Y)[0] == 0x1p-60);
  CHECK(conforms(Y, 0, 0.0));
  const Tensor M = mean(13, {a, b, c});  // 2^-60/3
  CHECK(values<double>(M)[0] == 0x1p-60 / 3);
}

}  // namespace sum_test
