// Small helpers shared by the hand-derived unit tests. Expected values in the tests are written
// by hand from spec/; these helpers only build tensors and compare bit patterns.
#pragma once
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

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
    for (auto h : t.values<float16>()) out.push_back(sonnx::bits(h));
  else
    for (auto h : t.values<bfloat16>()) out.push_back(sonnx::bits(h));
  return out;
}

template <class T> std::vector<T> values(const Tensor& t) {
  auto s = t.values<T>();
  return {s.begin(), s.end()};
}

// The kind of the SpecError thrown by f (refusal, I/O failure, usage error), or nullopt if none was thrown.
template <class F> std::optional<Failure> failure_kind(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.kind();
  }
  return std::nullopt;
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

// A path under the system temporary folder, unique to this process and call, that does not exist
// yet: "<prefix>-<name>-<pid>-<n>".
inline std::filesystem::path fresh_path(const std::string& prefix, const std::string& name = "") {
  static int counter = 0;
  auto p = std::filesystem::temp_directory_path() /
           (prefix + (name.empty() ? "" : "-" + name) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(p);
  return p;
}

// A fresh folder under the system temporary folder, removed with everything in it at the end of
// the test; `dir / "file"` names a file in it.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "sonnx-test") : path(fresh_path(prefix)) {
    std::filesystem::create_directories(path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& file) const { return (path / file).string(); }
};

// [Common.tensor.size-limit] SONNX_REF_MAX_BYTES set to v for the scope of a test, then restored.
struct ByteLimit {
  std::optional<std::string> saved;
  explicit ByteLimit(const std::string& v) {
    if (const char* old = std::getenv("SONNX_REF_MAX_BYTES")) saved = old;
    ::setenv("SONNX_REF_MAX_BYTES", v.c_str(), 1);
  }
  ByteLimit(const ByteLimit&) = delete;
  ByteLimit& operator=(const ByteLimit&) = delete;
  ~ByteLimit() {
    if (saved) ::setenv("SONNX_REF_MAX_BYTES", saved->c_str(), 1);
    else ::unsetenv("SONNX_REF_MAX_BYTES");
  }
};

}  // namespace sonnx::test
