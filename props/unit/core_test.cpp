// Hand-derived examples of spec/common/: dtypes, order, broadcasting, tensors.
#include "core/broadcast.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "test_util.hpp"

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
  CHECK(exact_float16(1.0)->bits == 0x3C00);
  CHECK(exact_float16(-0.0)->bits == 0x8000);
  CHECK(exact_float16(65504.0)->bits == 0x7BFF);
  CHECK(exact_float16(std::ldexp(1.0, -24))->bits == 0x0001);
  CHECK_FALSE(exact_float16(65505.0).has_value());
  CHECK_FALSE(exact_float16(0.1).has_value());
  CHECK_FALSE(exact_float16(std::ldexp(1.0, -25)).has_value());
  CHECK(exact_bfloat16(-3.0)->bits == 0xC040);
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

TEST_CASE("[Common.broadcast.map] [Common.tensor.index] offsets of a [3] and a [2,1] input read as [2,3]", "[core]") {
  // Ẋ[i, j] = X[j] for X of shape [3]; Ẋ[i, j] = X[i, 0] for X of shape [2, 1]
  IndexWalker w({2, 3}, {broadcast_strides({3}, {2, 3}), broadcast_strides({2, 1}, {2, 3})});
  std::vector<std::int64_t> a, b;
  for (; !w.done(); w.next()) {
    a.push_back(w.offset(0));
    b.push_back(w.offset(1));
  }
  CHECK(a == std::vector<std::int64_t>{0, 1, 2, 0, 1, 2});
  CHECK(b == std::vector<std::int64_t>{0, 0, 0, 1, 1, 1});
}

TEST_CASE("[Common.tensor.shape] [Common.tensor.empty] rank 0 has one index, a zero dim none", "[core]") {
  int visits = 0;
  for (IndexWalker w({}, {}); !w.done(); w.next()) ++visits;
  CHECK(visits == 1);
  visits = 0;
  for (IndexWalker w({3, 0, 2}, {}); !w.done(); w.next()) ++visits;
  CHECK(visits == 0);
  CHECK(Tensor(DType::Float, {}).size() == 1);
  CHECK(Tensor(DType::Float, {4, 0}).size() == 0);
}

TEST_CASE("[Common.tensor.size-limit] overflowing and oversized shapes are refused before allocation", "[core][error]") {
  CHECK(refusal_id([] { Tensor(DType::Double, {1ll << 40, 1ll << 40}); }) == "Common.tensor.size-limit");
  CHECK(refusal_id([] { Tensor(DType::Float, {1ll << 36}); }) == "Common.tensor.size-limit");
  CHECK(refusal_id([] { Tensor(DType::Float, {-1}); }) == "Common.tensor.shape");
  CHECK(refusal_id([] { Tensor(DType::Float, {0, 1ll << 62, 1ll << 62}); }) == "");  // empty: 0 elements
}
