#include "core/float16.hpp"

namespace sonnx {

// Search by construction: for finite x, build the candidate pattern from frexp and check that its
// exact decoding gives x back ([Common.dtype.float16]).
std::optional<float16> exact_float16(double x) {
  if (std::isnan(x)) return float16{0x7E00};
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isinf(x)) return float16{static_cast<std::uint16_t>(sign | 0x7C00)};
  const double a = std::fabs(x);
  if (a == 0.0) return float16{sign};
  int exp2 = 0;
  std::frexp(a, &exp2);  // a = m * 2^exp2, m in [0.5, 1)
  const int e = exp2 - 1 + 15;  // biased exponent of a normal binary16 with this magnitude
  std::uint16_t pattern;
  if (e >= 31) return std::nullopt;
  if (e <= 0) {  // subnormal: a = f * 2^-24
    const double f = std::ldexp(a, 24);
    if (f != std::floor(f) || f >= 1024) return std::nullopt;
    pattern = static_cast<std::uint16_t>(f);
  } else {  // normal: a = (1024 + f) * 2^(e-25)
    const double f = std::ldexp(a, 25 - e) - 1024.0;
    if (f != std::floor(f) || f < 0 || f >= 1024) return std::nullopt;
    pattern = static_cast<std::uint16_t>((e << 10) | static_cast<int>(f));
  }
  const float16 h{static_cast<std::uint16_t>(sign | pattern)};
  if (to_double(h) != x) return std::nullopt;
  return h;
}

// [Common.dtype.bfloat16] x is a bfloat16 value iff it is a binary32 value whose low 16 bits are 0.
std::optional<bfloat16> exact_bfloat16(double x) {
  if (std::isnan(x)) return bfloat16{0x7FC0};
  const float f = static_cast<float>(x);
  if (static_cast<double>(f) != x) return std::nullopt;
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  if ((u & 0xFFFF) != 0) return std::nullopt;
  return bfloat16{static_cast<std::uint16_t>(u >> 16)};
}

}  // namespace sonnx
