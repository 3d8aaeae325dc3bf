// Shared pieces of the fuzz targets of props/fuzz/. A fuzz input is either accepted or refused with
// a SpecError ([spec/README.md] section 7: a refusal is never a crash); any other exception, a
// sanitizer report, an abort or a failed round-trip check is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "core/error.hpp"

namespace sonnx::fuzz {

// [Common.tensor.size-limit] Every target runs with a 64 MiB tensor limit, so that a valid input
// (a model whose initializer is 1 GiB of zeros, a deflated npz member of 1 GiB) is refused
// instead of exhausting libFuzzer's memory budget; the limit itself is what such inputs exercise.
inline void limit_memory() { setenv("SONNX_REF_MAX_BYTES", "67108864", 1); }

// Runs f; true if it was refused with a SpecError.
template <class F> bool refused(F&& f) {
  try {
    f();
    return false;
  } catch (const SpecError& e) {
    if (e.id().empty()) std::abort();  // every refusal cites a clause
    return true;
  }
}

// A finding that is not a sanitizer report: a violated round-trip or determinism property.
[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

inline std::span<const std::byte> as_bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

// A small deterministic generator (splitmix64) for feed values drawn from the input's hash.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};
inline std::uint64_t hash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (std::size_t k = 0; k < size; ++k) h = (h ^ data[k]) * 1099511628211ull;
  return h;
}

}  // namespace sonnx::fuzz
