// The two 16-bit floating types, kept as their exact bit patterns ([Common.dtype.float16],
// [Common.dtype.bfloat16]). These operators only select values, so the only conversions are exact
// decodings to double (every float16 and bfloat16 value is a double) and exact encodings of values
// that the type represents.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace sonnx {

// Each type is its 16-bit pattern: float16{0x3C00} is 1.0, bits(h) the pattern. An enumeration
// rather than a struct, so that loops over such elements vectorise like loops over uint16_t. `==`
// compares the patterns; the order comparisons are deleted, since the order of the bit patterns is
// not the order of the values ([Common.order.total]; use sonnx::greater).
enum class float16 : std::uint16_t {};
enum class bfloat16 : std::uint16_t {};

inline constexpr std::uint16_t bits(float16 h) { return static_cast<std::uint16_t>(h); }
inline constexpr std::uint16_t bits(bfloat16 b) { return static_cast<std::uint16_t>(b); }
bool operator<(float16, float16) = delete;
bool operator>(float16, float16) = delete;
bool operator<=(float16, float16) = delete;
bool operator>=(float16, float16) = delete;
bool operator<(bfloat16, bfloat16) = delete;
bool operator>(bfloat16, bfloat16) = delete;
bool operator<=(bfloat16, bfloat16) = delete;
bool operator>=(bfloat16, bfloat16) = delete;

// [Common.dtype.float16] binary16: sign s, exponent e (5 bits, bias 15), fraction f (10 bits).
//   e = 0:      (-1)^s * 2^-14 * f/1024          (zero and subnormals)
//   0 < e < 31: (-1)^s * 2^(e-15) * (1 + f/1024)
//   e = 31:     f = 0 ? (-1)^s * Inf : NaN
inline double to_double(float16 h) {
  const int s = bits(h) >> 15, e = (bits(h) >> 10) & 0x1F, f = bits(h) & 0x3FF;
  const double sign = s ? -1.0 : 1.0;
  if (e == 0) return sign * std::ldexp(static_cast<double>(f), -24);
  if (e == 31) return f == 0 ? sign * INFINITY : std::nan("");
  return sign * std::ldexp(1024.0 + f, e - 25);
}

// [Common.dtype.bfloat16] bfloat16 is the upper half of a binary32 pattern.
inline double to_double(bfloat16 b) {
  const std::uint32_t u = static_cast<std::uint32_t>(bits(b)) << 16;
  float x;
  std::memcpy(&x, &u, sizeof x);
  return static_cast<double>(x);
}

inline bool sign_bit(float16 h) { return bits(h) >> 15; }
inline bool sign_bit(bfloat16 b) { return bits(b) >> 15; }

// Exact encodings: the pattern whose value is x, or nullopt when the type has no such value.
// (NaN maps to the canonical quiet NaN of the type.)
std::optional<float16> exact_float16(double x);
std::optional<bfloat16> exact_bfloat16(double x);

}  // namespace sonnx
