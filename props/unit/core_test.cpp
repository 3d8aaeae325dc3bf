// Hand-derived examples of spec/common/: dtypes, order, broadcasting, tensors.
#include <cstdlib>
#include <optional>

#include "core/broadcast.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "core/runs.hpp"
#include "test_util.hpp"

namespace core_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

TEST_CASE("[Common.dtype.float16] decoding of landmark patterns", "[core]") {
  CHECK(to_double(float16{0x3C00}) == 1.0);
  CHECK(to_double(float16{0xC000}) == -2.0);
  CHECK(to_double(float16{0x7BFF}) == 65504.0);                   // largest finite
  CHECK(to_double(float16{0x0400}) == std::ldexp(1.0, -14));      // smallest normal
  CHECK(to_double(float16{0x0001}) == std::ldexp(1.0, -24));      // smallest subnormal
  CHECK(to_double(float16{0x03FF}) == std::ldexp(1023.0, -24));   // largest subnormal
  CHECK(std::isinf(to_double(float16{0xFC00})));
  CHECK(to_double(float16{0xFC00}) < 0);
  CHECK(std::signbit(to_double(float16{0x8000})));
  CHECK(is_nan(float16{0x7C01}));
  CHECK(is_nan(float16{0xFE00}));
  CHECK_FALSE(is_nan(float16{0x7C00}));
}

TEST_CASE("[Common.dtype.bfloat16] decoding of landmark patterns", "[core]") {
  CHECK(to_double(bfloat16{0x3F80}) == 1.0);
  CHECK(to_double(bfloat16{0xC040}) == -3.0);
  CHECK(to_double(bfloat16{0x7F7F}) == 0x1.FEp127);   // largest finite
  CHECK(to_double(bfloat16{0x0001}) == std::ldexp(1.0, -133));  // smallest subnormal
  CHECK(is_nan(bfloat16{0x7F81}));
  CHECK_FALSE(is_nan(bfloat16{0x7F80}));
}

TEST_CASE("[Common.dtype.float16] [Common.dtype.bfloat16] exact encodings exist only for representable values", "[core]") {
  CHECK(sonnx::bits(*exact_float16(1.0)) == 0x3C00);
  CHECK(sonnx::bits(*exact_float16(-0.0)) == 0x8000);
  CHECK(sonnx::bits(*exact_float16(65504.0)) == 0x7BFF);
  CHECK(sonnx::bits(*exact_float16(std::ldexp(1.0, -24))) == 0x0001);
  CHECK_FALSE(exact_float16(65505.0).has_value());
  CHECK_FALSE(exact_float16(0.1).has_value());
  CHECK_FALSE(exact_float16(std::ldexp(1.0, -25)).has_value());
  CHECK(sonnx::bits(*exact_bfloat16(-3.0)) == 0xC040);
  CHECK_FALSE(exact_bfloat16(1.0 + std::ldexp(1.0, -8)).has_value());
}

TEST_CASE("[Common.order.total] -Inf < -1 < -0 < +0 < subnormal < +Inf", "[core]") {
  const std::vector<float> ascending = {-kInf, -1.0f, -1e-45f, -0.0f, 0.0f, 1e-45f, 1.0f, kInf};
  for (std::size_t a = 0; a < ascending.size(); ++a)
    for (std::size_t b = 0; b < ascending.size(); ++b)
      CHECK(greater(ascending[a], ascending[b]) == (a > b));
}

TEST_CASE("[Common.order.max] [Common.order.nan] max_of keeps a NaN and returns the first one", "[core]") {
  const float n1 = nan_with_bits(0x7FC00001), n2 = nan_with_bits(0x7FC00002);
  CHECK(bits_of(max_of(n1, n2)) == 0x7FC00001u);
  CHECK(bits_of(max_of(5.0f, n2)) == 0x7FC00002u);
  CHECK(bits_of(max_of(n1, kInf)) == 0x7FC00001u);
  CHECK(bits_of(max_of(-0.0f, 0.0f)) == 0u);
  CHECK(bits_of(max_of(0.0f, -0.0f)) == 0u);
}

TEST_CASE("[Common.order.int] integers and bool", "[core]") {
  CHECK(greater<std::int8_t>(-1, -128));
  CHECK(greater<std::uint64_t>(18446744073709551615ull, 0));
  CHECK(greater(true, false));
  CHECK_FALSE(greater(false, true));
}

TEST_CASE("[Common.broadcast.rank] [Common.broadcast.dims] common shapes", "[core]") {
  CHECK(broadcast_shape({{2, 3, 4}, {4}}) == Shape{2, 3, 4});
  CHECK(broadcast_shape({{2, 1, 4}, {1, 3, 1}}) == Shape{2, 3, 4});
  CHECK(broadcast_shape({{}, {5}}) == Shape{5});
  CHECK(broadcast_shape({{0}, {1}}) == Shape{0});
  CHECK(broadcast_shape({{1, 1}, {1}}) == Shape{1, 1});
}

TEST_CASE("[Common.broadcast.error] two distinct non-1 sizes", "[core]") {
  CHECK_FALSE(broadcast_shape({{2, 3}, {2}}).has_value());
  CHECK_FALSE(broadcast_shape({{0}, {2}}).has_value());
}

namespace {
// Every (offset of map 0, offset of map 1, ...) a walk visits, index by index.
std::vector<std::vector<std::int64_t>> visits(const Shape& shape, const std::vector<Strides>& maps) {
  std::vector<std::vector<std::int64_t>> out;
  for (RunWalker run(shape, maps); !run.done(); run.next())
    for (std::int64_t t = 0; t < run.length(); ++t) {
      std::vector<std::int64_t> offsets;
      for (std::size_t m = 0; m < maps.size(); ++m) offsets.push_back(run.offset(m) + t * run.stride(m));
      out.push_back(offsets);
    }
  return out;
}
}  // namespace

TEST_CASE("[Common.broadcast.map] [Common.tensor.index] offsets of a [3] and a [2,1] input read as [2,3]", "[core]") {
  // Ẋ[i, j] = X[j] for X of shape [3]; Ẋ[i, j] = X[i, 0] for X of shape [2, 1]
  const auto v = visits({2, 3}, {broadcast_strides({3}, {2, 3}), broadcast_strides({2, 1}, {2, 3})});
  const std::vector<std::vector<std::int64_t>> expected = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
  CHECK(v == expected);
}

TEST_CASE("[Common.tensor.index] runs merge contiguous axes and keep row-major order", "[core]") {
  // [2, 3, 4] read row-major (strides 12, 4, 1) and through a map that repeats the last axis
  // (strides 0, 0, 1): the first map alone merges into one run of 24; with the second, runs of 4.
  RunWalker one({2, 3, 4}, {{12, 4, 1}});
  CHECK(one.length() == 24);
  RunWalker two({2, 3, 4}, {{12, 4, 1}, {0, 0, 1}});
  CHECK(two.length() == 4);
  std::vector<std::vector<std::int64_t>> expected;
  for (std::int64_t o = 0; o < 24; ++o) expected.push_back({o, o % 4});
  CHECK(visits({2, 3, 4}, {{12, 4, 1}, {0, 0, 1}}) == expected);
  // size-1 axes are dropped: [1, 5, 1] walks as one run of 5
  RunWalker ones({1, 5, 1}, {{5, 1, 1}});
  CHECK(ones.length() == 5);
}

TEST_CASE("[Common.tensor.shape] [Common.tensor.empty] rank 0 has one index, a zero dim none", "[core]") {
  CHECK(visits({}, {}).size() == 1);
  CHECK(visits({3, 0, 2}, {}).empty());
  CHECK(Tensor(DType::Float, {}).size() == 1);
  CHECK(Tensor(DType::Float, {4, 0}).size() == 0);
}

TEST_CASE("[Common.tensor.empty] [Common.tensor.size-limit] strides of an empty shape are formed without overflow", "[core]") {
  // [2^40, 0, 2^40] has no index, and not every product of its dimensions is representable.
  CHECK(row_major_strides({1ll << 40, 0, 1ll << 40}) == Strides{0, 0, 0});
  CHECK(row_major_strides({2, 3, 4}) == Strides{12, 4, 1});
  CHECK(visits({1ll << 40, 0, 1ll << 40}, {row_major_strides({1ll << 40, 0, 1ll << 40})}).empty());
}

TEST_CASE("[Common.tensor.size-limit] overflowing and oversized shapes are refused before allocation", "[core][error]") {
  CHECK(refusal_id([] { Tensor(DType::Double, {1ll << 40, 1ll << 40}); }) == "Common.tensor.size-limit");
  CHECK(refusal_id([] { Tensor(DType::Float, {1ll << 36}); }) == "Common.tensor.size-limit");
  CHECK(refusal_id([] { Tensor(DType::Float, {-1}); }) == "Common.tensor.shape");
  CHECK(refusal_id([] { Tensor(DType::Float, {0, 1ll << 62, 1ll << 62}); }) == "");  // empty: 0 elements
}

// ---- issue #12: requirement-based tests written for mutants that survived the suite ----------------

TEST_CASE("[Common.dtype.float16] [Common.dtype.bfloat16] the sign is bit 15 alone", "[core]") {
  // 2.0 = 0x4000 and 0.5 = 0x3800 (float16), 2.0 = 0x4000 (bfloat16): positive although bit 14 is set
  CHECK_FALSE(sign_bit(float16{0x4000}));
  CHECK_FALSE(sign_bit(float16{0x7C00}));  // +Inf
  CHECK(sign_bit(float16{0xC000}));        // -2.0
  CHECK(sign_bit(float16{0x8000}));        // -0
  CHECK_FALSE(sign_bit(bfloat16{0x4000}));
  CHECK(sign_bit(bfloat16{0xC000}));
}

TEST_CASE("[Common.dtype.float16] [Common.dtype.bfloat16] exact encodings: NaN is a NaN, values a binary32 cannot hold exactly are not bfloat16", "[core]") {
  // The encoding of a NaN is a NaN pattern (exponent all ones, fraction not zero), not an infinity.
  const auto h = exact_float16(std::nan(""));
  REQUIRE(h.has_value());
  CHECK((sonnx::bits(*h) & 0x7C00) == 0x7C00);
  CHECK((sonnx::bits(*h) & 0x03FF) != 0);
  // bfloat16 is the upper half of a binary32 pattern: 1 + 2^-30 is no binary32 (it would round to
  // 1), 1 + 2^-23 is a binary32 (0x3F800001) whose low half is not 0, 2^200 is beyond binary32.
  CHECK_FALSE(exact_bfloat16(1.0 + std::ldexp(1.0, -30)).has_value());
  CHECK_FALSE(exact_bfloat16(1.0 + std::ldexp(1.0, -23)).has_value());
  CHECK_FALSE(exact_bfloat16(1.0 + std::ldexp(1.0, -16)).has_value());  // 0x3F808000: low half 0x8000
  CHECK_FALSE(exact_bfloat16(std::ldexp(1.0, 200)).has_value());
  CHECK(sonnx::bits(*exact_bfloat16(1.0 + std::ldexp(1.0, -7))) == 0x3F81);  // the last fraction bit of bfloat16
}


TEST_CASE("[Common.tensor.size-limit] a tensor of exactly the limit passes, one element more is refused", "[core]") {
  ByteLimit limit("16");  // 16 bytes: four floats
  CHECK(checked_element_count(Shape{4}, DType::Float, "X") == 4);
  CHECK(checked_element_count(Shape{2, 2}, DType::Float, "X") == 4);
  CHECK(refusal_id([] { checked_element_count(Shape{5}, DType::Float, "X"); }) == "Common.tensor.size-limit");
  CHECK(checked_element_count(Shape{16}, DType::Uint8, "X") == 16);
  CHECK(refusal_id([] { checked_element_count(Shape{17}, DType::Uint8, "X"); }) == "Common.tensor.size-limit");
  CHECK(checked_element_count(Shape{0, 1000}, DType::Double, "X") == 0);  // empty: 0 bytes always pass
}

TEST_CASE("[Common.tensor.size-limit] SONNX_REF_MAX_BYTES other than a positive decimal integer is ignored: 16 GiB", "[core]") {
  for (const char* ignored : {"0", "16x", "", "abc", "-5", "+8", " 8", "99999999999999999999999"}) {
    ByteLimit limit(ignored);
    CAPTURE(ignored);
    CHECK(max_tensor_bytes() == 17179869184ull);
    CHECK(checked_element_count(Shape{1024}, DType::Double, "X") == 1024);
  }
  ByteLimit limit("8");
  CHECK(max_tensor_bytes() == 8);
}

TEST_CASE("[Check.shape] tensors are bitwise equal only with the same type, shape and bits", "[core]") {
  const Tensor i = make_tensor<std::int32_t>({1}, {0});
  const Tensor f = f32({1}, {0.0f});  // the same four zero bytes
  CHECK(i.bitwise_equal(make_tensor<std::int32_t>({1}, {0})));
  CHECK_FALSE(i.bitwise_equal(f));
  CHECK_FALSE(f.bitwise_equal(i));
  CHECK_FALSE(f32({2, 1}, {1, 2}).bitwise_equal(f32({1, 2}, {1, 2})));
  CHECK_FALSE(f32({1}, {0.0f}).bitwise_equal(f32({1}, {-0.0f})));
  CHECK(f32({0, 3}, {}).bitwise_equal(f32({0, 3}, {})));
  CHECK_FALSE(f32({0, 3}, {}).bitwise_equal(f32({3, 0}, {})));
}

TEST_CASE("[Common.dtype.set] a type code outside the 13 types is refused, never read as one of them", "[core][error]") {
  const auto bad = static_cast<DType>(99);
  CHECK(refusal_id([&] { info(bad); }) == "Common.dtype.set");
  CHECK(refusal_id([&] { dispatch(bad, [](auto) { return 0; }); }) == "Common.dtype.set");
  CHECK_FALSE(dtype_from_onnx(99));
  // Names: the spec's names, and numpy's float32 and float64 for float and double.
  CHECK(dtype_from_name("float") == DType::Float);
  CHECK(dtype_from_name("float32") == DType::Float);
  CHECK(dtype_from_name("float64") == DType::Double);
  CHECK(dtype_from_name("bfloat16") == DType::BFloat16);
  CHECK_FALSE(dtype_from_name("float8"));
}

TEST_CASE("[Common.gr.no-conversion] a tensor's elements are read only as its own type", "[core][error]") {
  const Tensor t = f32({2}, {1, 2});
  CHECK(refusal_id([&] { t.values<double>(); }) == "Common.gr.no-conversion");
  Tensor u = f32({1}, {1});
  CHECK(refusal_id([&] { u.values<std::int32_t>(); }) == "Common.gr.no-conversion");
  CHECK(values<float>(t) == std::vector<float>{1, 2});
}

TEST_CASE("[Common.tensor.shape] a tensor built from values needs exactly |X| of them", "[core][error]") {
  CHECK(refusal_id([] { make_tensor<float>({2, 2}, {1, 2, 3}); }) == "Common.tensor.shape");
  CHECK(refusal_id([] { make_tensor<float>({}, {}); }) == "Common.tensor.shape");  // a scalar has one element
  CHECK(make_tensor<float>({2, 0}, {}).size() == 0);
}

TEST_CASE("[Common.order.nan-payload] the first NaN of a run is found past block boundaries, or there is none",
          "[core]") {
  std::vector<float> x(3 * kRunBlock + 5, 1.0f);
  CHECK(first_nan(x.data(), static_cast<std::int64_t>(x.size())) == static_cast<std::int64_t>(x.size()));
  x[2 * kRunBlock + 3] = nan_with_bits(0xFFC00002);
  x[2 * kRunBlock + 7] = nan_with_bits(0x7FC00001);
  CHECK(first_nan(x.data(), static_cast<std::int64_t>(x.size())) == 2 * kRunBlock + 3);
  CHECK(first_nan(x.data(), 2 * kRunBlock + 3) == 2 * kRunBlock + 3);  // not in the first n: n
  // [Common.order.int] integers have no NaN.
  const std::vector<std::int32_t> ints = {1, -1, 0x7FC00000};
  CHECK_FALSE(any_nan(ints.data(), 3));
  CHECK(first_nan(ints.data(), 3) == 3);
}

TEST_CASE("[Common.order.total] the first element with given bits: -0 is not +0, and a late match is found", "[core]") {
  std::vector<float> x(2 * kLanes + 3, -0.0f);
  CHECK(first_equal(x.data(), static_cast<std::int64_t>(x.size()), 0.0f) == static_cast<std::int64_t>(x.size()));
  x[kLanes + 1] = 0.0f;
  x.back() = 0.0f;
  CHECK(first_equal(x.data(), static_cast<std::int64_t>(x.size()), 0.0f) == kLanes + 1);
  CHECK(first_equal(x.data(), static_cast<std::int64_t>(x.size()), -0.0f) == 0);
}

}  // namespace core_test
