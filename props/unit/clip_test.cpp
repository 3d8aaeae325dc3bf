// Hand-derived examples of spec/ops/clip.md: the document's worked examples, each citing its clause.
#include <cmath>

#include "ops/clip.hpp"
#include "test_util.hpp"

namespace clip_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::clip;
using sonnx::ops::ClipBounds;

namespace {
// Bounds from rank-0 inputs (versions 11 and later); nullptr = absent.
ClipBounds inputs(const Tensor* lo, const Tensor* hi) {
  ClipBounds b;
  b.min_input = lo;
  b.max_input = hi;
  return b;
}
ClipBounds attributes(std::optional<float> lo, std::optional<float> hi) {
  ClipBounds b;
  b.min_attribute = lo;
  b.max_attribute = hi;
  return b;
}
float f(std::uint32_t u) { return nan_with_bits(u); }  // any binary32 pattern
}  // namespace

TEST_CASE("[Clip.float.formula] [Clip.bounds.inputs] Example 1: within, below and above the bounds", "[clip]") {
  const Tensor lo = f32({}, {-1.0f}), hi = f32({}, {1.0f});
  auto y = clip(11, f32({6}, {-2.0f, -0.5f, 0.5f, 2.0f, -kInf, kInf}), inputs(&lo, &hi));
  CHECK(values<float>(y) == std::vector<float>{-1.0f, -0.5f, 0.5f, 1.0f, -1.0f, 1.0f});
}

TEST_CASE("[Clip.float.nan] [Common.order.nan-payload] Example 2: NaN in the element or in a bound, the first of X[i], "
          "lo, hi",
          "[clip]") {
  struct Row {
    std::uint32_t x, lo, hi, y;
  };
  const std::vector<Row> rows = {
      {0x7FC00001u, 0xBF800000u, 0x3F800000u, 0x7FC00001u},  // 1: X[i]
      {0xFF800003u, 0x7FC00005u, 0x7FC00006u, 0xFF800003u},  // 1: X[i] first, signalling, sign set
      {0x40A00000u, 0x7FC00005u, 0x3F800000u, 0x7FC00005u},  // 2: lo (X = 5.0)
      {0xFF800000u, 0x7FC00005u, 0x7FC00006u, 0x7FC00005u},  // 2: lo before hi (X = -Inf)
      {0x3F000000u, 0xBF800000u, 0x7F800006u, 0x7F800006u},  // 3: hi, still signalling (X = 0.5)
  };
  for (const Row& r : rows) {
    const Tensor lo = f32({}, {f(r.lo)}), hi = f32({}, {f(r.hi)});
    CHECK(bits(clip(13, f32({1}, {f(r.x)}), inputs(&lo, &hi))) == std::vector<std::uint32_t>{r.y});
  }
}

TEST_CASE("[Clip.float.zero] Example 3: signed zeros against zero bounds", "[clip]") {
  const Tensor pz = f32({}, {0.0f}), nz = f32({}, {-0.0f});
  CHECK(bits(clip(12, f32({3}, {-0.0f, 0.0f, -1.5f}), inputs(&pz, nullptr))) ==
        std::vector<std::uint32_t>{0x00000000u, 0x00000000u, 0x00000000u});
  CHECK(bits(clip(12, f32({3}, {0.0f, -0.0f, 1.5f}), inputs(nullptr, &nz))) ==
        std::vector<std::uint32_t>{0x80000000u, 0x80000000u, 0x80000000u});
  CHECK(bits(clip(12, f32({2}, {-0.0f, 0.0f}), inputs(&nz, &pz))) == std::vector<std::uint32_t>{0x80000000u, 0x00000000u});
  CHECK(bits(clip(12, f32({4}, {-0.0f, 0.0f, 1.5f, -1.5f}), inputs(&pz, &nz))) ==
        std::vector<std::uint32_t>{0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u});
}

TEST_CASE("[Clip.bounds.crossed] Example 4: crossed bounds give hi, a NaN element stays", "[clip]") {
  const Tensor lo = f32({}, {2.0f}), hi = f32({}, {1.0f});
  auto y = clip(13, f32({5}, {0.0f, 1.5f, 3.0f, -kInf, f(0x7FC00001u)}), inputs(&lo, &hi));
  CHECK(bits(y) == std::vector<std::uint32_t>{0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x7FC00001u});
}

TEST_CASE("[Clip.bounds.default] [Clip.v11] [Clip.v13] Example 5: absent bounds are the finite extremes of T",
          "[clip]") {
  CHECK(bits(clip(11, f32({3}, {kInf, -kInf, 1.0f}), {})) ==
        std::vector<std::uint32_t>{0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u});
  auto h = clip(11, make_tensor<float16>({3}, {float16{0x7C00}, float16{0xFC00}, float16{0x7BFF}}), {});
  CHECK(bits16(h) == std::vector<std::uint16_t>{0x7BFF, 0xFBFF, 0x7BFF});
  auto b = clip(13, make_tensor<bfloat16>({2}, {bfloat16{0x7F80}, bfloat16{0xFF80}}), {});
  CHECK(bits16(b) == std::vector<std::uint16_t>{0x7F7F, 0xFF7F});
  const Tensor pz = f32({}, {0.0f}), half = f32({}, {0.5f});
  CHECK(bits(clip(11, f32({3}, {-0.0f, 2.0f, kInf}), inputs(&pz, nullptr))) ==
        std::vector<std::uint32_t>{0x00000000u, 0x40000000u, 0x7F7FFFFFu});
  CHECK(bits(clip(11, f32({2}, {-kInf, 1.0f}), inputs(nullptr, &half))) ==
        std::vector<std::uint32_t>{0xFF7FFFFFu, 0x3F000000u});
  CHECK(values<std::int8_t>(clip(12, make_tensor<std::int8_t>({2}, {-128, 127}), {})) ==
        std::vector<std::int8_t>{-128, 127});
}

TEST_CASE("[Clip.bounds.attributes] [Clip.bounds.convert] [Clip.bounds.default] [Clip.v1] [Clip.v6] Example 6: the "
          "attributes of versions 1 and 6, converted to T",
          "[clip]") {
  auto h = [](std::vector<std::uint16_t> v) {
    std::vector<float16> out;
    for (auto b : v) out.push_back(float16{b});
    return make_tensor<float16>({static_cast<std::int64_t>(v.size())}, out);
  };
  CHECK(bits16(clip(6, h({0x7C00, 0x7BFF, 0xFC00}), attributes(std::nullopt, 65519.0f))) ==
        std::vector<std::uint16_t>{0x7BFF, 0x7BFF, 0xFC00});
  CHECK(bits16(clip(6, h({0x7C00}), attributes(std::nullopt, 65520.0f))) == std::vector<std::uint16_t>{0x7C00});
  CHECK(bits16(clip(6, h({0x8000, 0x8001, 0x0001}), attributes(1e-8f, std::nullopt))) ==
        std::vector<std::uint16_t>{0x0000, 0x0000, 0x0001});
  CHECK(bits16(clip(1, h({0x0000, 0x3C00}), attributes(std::nullopt, -1e-8f))) ==
        std::vector<std::uint16_t>{0x8000, 0x8000});
  CHECK(bits16(clip(6, h({0xBC00, 0x0000}), attributes(3e-8f, std::nullopt))) ==
        std::vector<std::uint16_t>{0x0001, 0x0001});
  // no attribute: -+3.4e38 round to -+Inf in float16, so Y = X, infinities included
  CHECK(bits16(clip(6, h({0x7C00, 0xFC00, 0x7E01}), {})) == std::vector<std::uint16_t>{0x7C00, 0xFC00, 0x7E01});
  CHECK(bits(clip(1, f32({2}, {kInf, -kInf}), {})) == std::vector<std::uint32_t>{0x7F7FFFFFu, 0xFF7FFFFFu});
  auto d = clip(6, make_tensor<double>({3}, {1e300, -HUGE_VAL, 1.0}), {});
  CHECK(bits_of(values<double>(d)[0]) == 0x47EFFFFFE0000000ull);
  CHECK(bits_of(values<double>(d)[1]) == 0xC7EFFFFFE0000000ull);
  CHECK(values<double>(d)[2] == 1.0);
  // the double 0.1 is below the float 0.1 converted exactly: raised to it; 0.2 is kept
  auto e = clip(6, make_tensor<double>({2}, {0.1, 0.2}), attributes(0.1f, std::nullopt));
  CHECK(bits_of(values<double>(e)[0]) == 0x3FB99999A0000000ull);
  CHECK(bits_of(values<double>(e)[1]) == 0x3FC999999999999Aull);
}

TEST_CASE("[Clip.bounds.convert] the conversion table of the clause (float16 and double)", "[clip]") {
  CHECK(ops::clip_convert_bound(65519.0f, DType::Float16) == 0x7BFF);
  CHECK(ops::clip_convert_bound(65520.0f, DType::Float16) == 0x7C00);
  CHECK(ops::clip_convert_bound(-65520.0f, DType::Float16) == 0xFC00);
  CHECK(ops::clip_convert_bound(0.1f, DType::Float16) == 0x2E66);
  CHECK(ops::clip_convert_bound(1e-8f, DType::Float16) == 0x0000);
  CHECK(ops::clip_convert_bound(-1e-8f, DType::Float16) == 0x8000);
  CHECK(ops::clip_convert_bound(3e-8f, DType::Float16) == 0x0001);
  CHECK(ops::clip_convert_bound(std::ldexp(1.0f, -25), DType::Float16) == 0x0000);  // tie to the even 0
  CHECK(ops::clip_convert_bound(1e-7f, DType::Float16) == 0x0002);
  CHECK(ops::clip_convert_bound(0.1f, DType::Double) == 0x3FB99999A0000000ull);
  // NaN: float16 0x7E00 | (f >> 13); double quiet, the 23 fraction bits then 29 zeros
  CHECK(ops::clip_convert_bound(f(0x7F802000u), DType::Float16) == 0x7E01);
  CHECK(ops::clip_convert_bound(f(0xFF800001u), DType::Double) == 0xFFF8000020000000ull);
}

TEST_CASE("[Clip.shape] [Clip.err.bound-rank] Example 7: rank 0 and empty, and a bound of shape (1) is refused even for "
          "an empty X",
          "[clip]") {
  const Tensor lo = f32({}, {-1.0f}), hi = f32({}, {1.0f});
  auto y = clip(11, f32({}, {-2.5f}), inputs(&lo, &hi));
  CHECK(y.shape() == Shape{});
  CHECK(values<float>(y) == std::vector<float>{-1.0f});
  CHECK(clip(11, f32({3, 0}, {}), inputs(&lo, &hi)).shape() == Shape{3, 0});
  const Tensor one = f32({1}, {1.0f});
  CHECK(refusal_id([&] { clip(11, f32({3, 0}, {}), inputs(&lo, &one)); }) == "Clip.err.bound-rank");
}

TEST_CASE("[Clip.int.formula] [Clip.bounds.crossed] [Clip.v12] int Examples 1 to 4", "[clip]") {
  const Tensor lo8 = make_tensor<std::int8_t>({}, {-3}), hi8 = make_tensor<std::int8_t>({}, {3});
  CHECK(values<std::int8_t>(clip(12, make_tensor<std::int8_t>({5}, {-128, -5, 0, 5, 127}), inputs(&lo8, &hi8))) ==
        std::vector<std::int8_t>{-3, -3, 0, 3, 3});
  const Tensor ten = make_tensor<std::uint8_t>({}, {10});
  CHECK(values<std::uint8_t>(clip(12, make_tensor<std::uint8_t>({4}, {0, 9, 10, 255}), inputs(&ten, nullptr))) ==
        std::vector<std::uint8_t>{10, 10, 10, 255});
  const Tensor two = make_tensor<std::uint64_t>({}, {2}), one = make_tensor<std::uint64_t>({}, {1});
  CHECK(values<std::uint64_t>(clip(13, make_tensor<std::uint64_t>({4}, {0, 1, 2, 18446744073709551615ull}),
                                   inputs(&two, &one))) == std::vector<std::uint64_t>{1, 1, 1, 1});
  CHECK(values<std::int64_t>(clip(13, make_tensor<std::int64_t>({2}, {-9223372036854775807ll - 1, 9223372036854775807ll}),
                                  {})) == std::vector<std::int64_t>{-9223372036854775807ll - 1, 9223372036854775807ll});
}

TEST_CASE("[Clip.err.dtype] [Clip.err.type] [Clip.err.bound-rank] [Clip.v11] [Clip.v12] refusals", "[clip][error]") {
  CHECK(refusal_id([] { clip(11, make_tensor<std::int32_t>({1}, {1}), {}); }) == "Clip.err.dtype");
  CHECK(refusal_id([] { clip(12, make_tensor<std::int32_t>({1}, {1}), {}); }) == "");
  CHECK(refusal_id([] { clip(12, make_tensor<bfloat16>({1}, {bfloat16{0}}), {}); }) == "Clip.err.dtype");
  CHECK(refusal_id([] { clip(13, make_tensor<bool>({1}, {true}), {}); }) == "Clip.err.dtype");
  CHECK(refusal_id([] { clip(6, make_tensor<std::int8_t>({1}, {1}), {}); }) == "Clip.err.dtype");
  const Tensor d = make_tensor<double>({}, {1.0}), i64 = make_tensor<std::int64_t>({}, {1});
  CHECK(refusal_id([&] { clip(11, f32({1}, {1}), inputs(&d, nullptr)); }) == "Clip.err.type");
  CHECK(refusal_id([&] { clip(12, make_tensor<std::int32_t>({1}, {1}), inputs(nullptr, &i64)); }) == "Clip.err.type");
  const Tensor m = f32({1, 1}, {1.0f}), z = f32({0}, {});
  CHECK(refusal_id([&] { clip(13, f32({1}, {1}), inputs(&m, nullptr)); }) == "Clip.err.bound-rank");
  CHECK(refusal_id([&] { clip(13, f32({1}, {1}), inputs(nullptr, &z)); }) == "Clip.err.bound-rank");
}

}  // namespace clip_test
