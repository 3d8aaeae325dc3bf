// Small helpers shared by the hand-derived unit tests. Expected values in the tests are written
// by hand from spec/; these helpers only build tensors and compare bit patterns.
#pragma once
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/tensor.hpp"

namespace sonnx::test {

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline float nan_with_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

inline Tensor f32(Shape s, std::vector<float> v) { return make_tensor<float>(std::move(s), v); }

// Bit patterns of a float tensor, for exact comparison (+0 != -0, NaN payloads visible).
inline std::vector<std::uint32_t> bits(const Tensor& t) {
  std::vector<std::uint32_t> out;
  for (float f : t.values<float>()) out.push_back(bits_of(f));
  return out;
}
inline std::vector<std::uint32_t> bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> out;
  for (float f : v) out.push_back(bits_of(f));
  return out;
}

// Bytes of a hex string ("934e55..."), for file images embedded in tests.
inline std::vector<std::byte> from_hex(const char* hex) {
  std::vector<std::byte> out;
  const std::string s = hex;
  for (std::size_t k = 0; k + 1 < s.size(); k += 2)
    out.push_back(static_cast<std::byte>(std::stoi(s.substr(k, 2), nullptr, 16)));
  return out;
}

// Bit patterns of a float16 or bfloat16 tensor.
inline std::vector<std::uint16_t> bits16(const Tensor& t) {
  std::vector<std::uint16_t> out;
  if (t.dtype() == DType::Float16)
    for (auto h : t.values<float16>()) out.push_back(h.bits);
  else
    for (auto h : t.values<bfloat16>()) out.push_back(h.bits);
  return out;
}

template <class T> std::vector<T> values(const Tensor& t) {
  auto s = t.values<T>();
  return {s.begin(), s.end()};
}

// The spec ID of the SpecError thrown by f, or "" if none was thrown.
template <class F> std::string refusal_id(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.id();
  }
  return "";
}

}  // namespace sonnx::test
