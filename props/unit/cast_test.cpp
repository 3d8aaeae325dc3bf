// Hand-derived examples of spec/ops/cast.md: each expected bit pattern worked out by hand from the
// clause it cites (IEEE 754 binary16/bfloat16/binary32 encodings), never from the implementation.
#include "ops/cast.hpp"
#include "test_util.hpp"

namespace cast_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using sonnx::ops::cast;

float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }
std::vector<std::uint16_t> b16(std::initializer_list<std::uint16_t> v) { return v; }

TEST_CASE("[Cast.float.int] [Cast.shape] float to int32 truncates toward zero", "[cast]") {
  auto y = cast(13, f32({5}, {2.5f, -2.5f, 0.5f, 1.5f, -0.0f}), DType::Int32);
  CHECK(y.shape() == Shape{5});
  CHECK(values<std::int32_t>(y) == std::vector<std::int32_t>{2, -2, 0, 1, 0});
  CHECK(values<std::uint8_t>(cast(6, f32({2}, {-0.9f, 255.9f}), DType::Uint8)) == std::vector<std::uint8_t>{0, 255});
  // the greatest float below 2^31 is 2^31 - 128; -2^31 is in range
  CHECK(values<std::int32_t>(cast(6, f32({2}, {2147483520.0f, -2147483648.0f}), DType::Int32)) ==
        std::vector<std::int32_t>{2147483520, -2147483647 - 1});
  CHECK(values<std::uint64_t>(cast(6, make_tensor<double>({1}, {18446744073709549568.0}), DType::Uint64)) ==
        std::vector<std::uint64_t>{18446744073709549568ull});
}

TEST_CASE("[Cast.err.range] NaN, infinities and out-of-range values to an integer are refused", "[cast]") {
  CHECK(refusal_id([] { cast(13, f32({1}, {std::nanf("")}), DType::Int32); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, f32({1}, {kInf}), DType::Int64); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, f32({1}, {2147483648.0f}), DType::Int32); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, f32({1}, {-1.0f}), DType::Uint8); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, f32({1}, {256.0f}), DType::Uint8); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, f32({1}, {9223372036854775808.0f}), DType::Int64); }) == "Cast.err.range");
  CHECK(refusal_id([] { cast(13, make_tensor<double>({1}, {18446744073709551616.0}), DType::Uint64); }) ==
        "Cast.err.range");
}

TEST_CASE("[Cast.float.float] float to float16: round to nearest even, overflow to Inf, subnormals", "[cast]") {
  // 65519 -> 65504 (0x7BFF): below the midpoint 65520; 65520 -> +Inf; 2^-25 is half the least
  // subnormal 2^-24: a tie, to the even 0; 1.5 * 2^-25 above it: 2^-24; 3 * 2^-25 = 1.5 * 2^-24: tie, to 2 * 2^-24
  auto y = cast(13, f32({8}, {65519.0f, 65520.0f, -65520.0f, std::ldexp(1.0f, -25), std::ldexp(1.5f, -25),
                              std::ldexp(3.0f, -25), 2.5f, -0.0f}),
                DType::Float16);
  CHECK(bits16(y) == b16({0x7BFF, 0x7C00, 0xFC00, 0x0000, 0x0001, 0x0002, 0x4100, 0x8000}));
}

TEST_CASE("[Cast.float.float] double to float16 rounds once: 1 + 2^-11 + 2^-40 is above the midpoint", "[cast]") {
  // through float the 2^-40 would be lost and the tie 1 + 2^-11 would go to the even 1.0 (0x3C00)
  auto y = cast(13, make_tensor<double>({1}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)}), DType::Float16);
  CHECK(bits16(y) == b16({0x3C01}));
}

TEST_CASE("[Cast.float.float] [Cast.v13] float to bfloat16: round to nearest even, not truncation", "[cast]") {
  // 0x3EF5C28F: the discarded 0xC28F is above half 0x8000 -> 0x3EF6; 0x3F808000: a tie, 0x3F80 even;
  // 0x3F818000: a tie, 0x3F81 odd -> 0x3F82; FLT_MAX 0x7F7FFFFF rounds past the greatest bfloat16 -> +Inf
  auto y = cast(13, f32({4}, {from_bits(0x3EF5C28F), from_bits(0x3F808000), from_bits(0x3F818000), from_bits(0x7F7FFFFF)}),
                DType::BFloat16);
  CHECK(bits16(y) == b16({0x3EF6, 0x3F80, 0x3F82, 0x7F80}));
}

TEST_CASE("[Cast.float.nan] a NaN keeps its sign and its top payload bits, quiet", "[cast]") {
  auto y = cast(13, f32({2}, {nan_with_bits(0x7FC00001), nan_with_bits(0xFF800001)}), DType::BFloat16);
  CHECK(bits16(y) == b16({0x7FC0, 0xFFC0}));
  auto h = cast(13, make_tensor<float16>({2}, {float16{0x7E01}, float16{0xFC01}}), DType::Float);
  CHECK(bits(h) == std::vector<std::uint32_t>{0x7FC02000u, 0xFFC02000u});
}

TEST_CASE("[Cast.float.float] widening is exact, bfloat16 to float16 rounds once", "[cast]") {
  auto y = cast(13, make_tensor<float16>({3}, {float16{0x0001}, float16{0x7BFF}, float16{0x8000}}), DType::Float);
  CHECK(bits(y) == std::vector<std::uint32_t>{0x33800000u, 0x477FE000u, 0x80000000u});
  auto z = cast(13, make_tensor<bfloat16>({2}, {bfloat16{0x3F80}, bfloat16{0x7F7F}}), DType::Float16);
  CHECK(bits16(z) == b16({0x3C00, 0x7C00}));
}

TEST_CASE("[Cast.same] the same type copies the bits", "[cast]") {
  CHECK(bits(cast(6, f32({2}, {nan_with_bits(0xFF800003), -0.0f}), DType::Float)) ==
        std::vector<std::uint32_t>{0xFF800003u, 0x80000000u});
}

TEST_CASE("[Cast.int.int] integers keep their low bits", "[cast]") {
  CHECK(values<std::int8_t>(cast(6, make_tensor<std::int16_t>({2}, {200, -129}), DType::Int8)) ==
        std::vector<std::int8_t>{-56, 127});
  CHECK(values<std::uint8_t>(cast(6, make_tensor<std::int32_t>({1}, {-1}), DType::Uint8)) == std::vector<std::uint8_t>{255});
  CHECK(values<std::int64_t>(cast(6, make_tensor<std::uint64_t>({1}, {~0ull}), DType::Int64)) ==
        std::vector<std::int64_t>{-1});
  CHECK(values<std::int32_t>(cast(6, make_tensor<std::int64_t>({1}, {2147483648ll}), DType::Int32)) ==
        std::vector<std::int32_t>{-2147483647 - 1});
}

TEST_CASE("[Cast.int.float] integers round once to nearest even", "[cast]") {
  // 2^60 + 2^36 + 2^6: float's quantum at 2^60 is 2^37; above the midpoint -> 2^60 + 2^37 = 0x5D800001
  // (through double the 2^6 would be lost and the tie would go to the even 2^60)
  auto f = cast(6, make_tensor<std::int64_t>({1}, {(1ll << 60) + (1ll << 36) + (1ll << 6)}), DType::Float);
  CHECK(bits(f) == std::vector<std::uint32_t>{0x5D800001u});
  // float16: 2049 a tie -> 2048 (0x6800); 2051 a tie -> 2052 (0x6802); 65519 -> 65504; 65520 -> Inf; 0 -> +0
  auto h = cast(6, make_tensor<std::int64_t>({6}, {2049, 2051, 65519, 65520, -65520, 0}), DType::Float16);
  CHECK(bits16(h) == b16({0x6800, 0x6802, 0x7BFF, 0x7C00, 0xFC00, 0x0000}));
  auto u = cast(13, make_tensor<std::uint64_t>({1}, {~0ull}), DType::BFloat16);  // 2^64 - 1 -> 2^64 = 0x5F80
  CHECK(bits16(u) == b16({0x5F80}));
}

TEST_CASE("[Cast.to-bool] [Cast.from-bool] zero or not, 0 and 1", "[cast]") {
  CHECK(values<bool>(cast(6, f32({4}, {-0.0f, 0.0f, std::nanf(""), 1e-40f}), DType::Bool)) ==
        std::vector<bool>{false, false, true, true});
  CHECK(values<bool>(cast(6, make_tensor<std::int32_t>({2}, {256, 0}), DType::Bool)) == std::vector<bool>{true, false});
  auto t = make_tensor<bool>({2}, {true, false});
  CHECK(bits16(cast(6, t, DType::Float16)) == b16({0x3C00, 0x0000}));
  CHECK(bits16(cast(13, t, DType::BFloat16)) == b16({0x3F80, 0x0000}));
  CHECK(values<std::int8_t>(cast(6, t, DType::Int8)) == std::vector<std::int8_t>{1, 0});
}

TEST_CASE("[Cast.to] [Cast.err.to] [Cast.err.string] [Cast.err.float8] [Cast.err.dtype] [Cast.v6] [Cast.v9] [Cast.v19] "
          "[Cast.v21] [Cast.saturate] target types",
          "[cast]") {
  CHECK(ops::cast_target(21, 1) == DType::Float);
  CHECK(ops::cast_target(13, 16) == DType::BFloat16);
  CHECK(refusal_id([] { ops::cast_target(9, 16); }) == "Cast.err.to");  // bfloat16 from 13
  CHECK(refusal_id([] { ops::cast_target(13, 14); }) == "Cast.err.to");  // complex64
  CHECK(refusal_id([] { ops::cast_target(9, 8); }) == "Cast.err.string");
  CHECK(refusal_id([] { ops::cast_target(19, 17); }) == "Cast.err.float8");
  CHECK(refusal_id([] { ops::cast_target(21, 22); }) == "Cast.err.float8");  // int4
  CHECK(refusal_id([] { cast(9, make_tensor<bfloat16>({1}, {bfloat16{0}}), DType::Float); }) == "Cast.err.dtype");
}

}  // namespace cast_test
