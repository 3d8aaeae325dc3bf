// sonnx-bench: times one operator of sonnx-ref on a large tensor and reports ns/element and the
// process's peak resident memory. One case per process, so that the peak belongs to that case.
// Usage: sonnx-bench CASE [ELEMENTS]   (tools/bench runs every case beside numpy)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/reducemax.hpp"

using namespace sonnx;

namespace {

// Deterministic fill with a few NaN/±0 values mixed in (splitmix64).
Tensor filled(Shape shape, std::uint64_t seed) {
  Tensor t(DType::Float, std::move(shape));
  auto v = t.values<float>();
  std::uint64_t s = seed;
  for (auto& x : v) {
    s += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x = static_cast<float>(static_cast<std::int64_t>(z % 2000001) - 1000000) / 1000.0f;
  }
  return t;
}

double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: sonnx-bench CASE [ELEMENTS]\n"
                 "cases: max2 max2-broadcast max4 reducemax-axis1 reducemax-all hardmax13 hardmax11\n");
    return 2;
  }
  const std::string c = argv[1];
  const std::int64_t n = argc > 2 ? std::stoll(argv[2]) : (16ll << 20);
  const std::int64_t cols = 4096, rows = n / cols;
  const Tensor x = filled({rows, cols}, 1);
  const double input_mib = peak_mib();
  auto t0 = std::chrono::steady_clock::now();
  Tensor y;
  std::int64_t elements = rows * cols;
  if (c == "max2") {
    const Tensor b = filled({rows, cols}, 2);
    t0 = std::chrono::steady_clock::now();
    y = ops::max(13, {&x, &b});
  } else if (c == "max2-broadcast") {
    const Tensor b = filled({cols}, 2);
    t0 = std::chrono::steady_clock::now();
    y = ops::max(13, {&x, &b});
  } else if (c == "max4") {
    const Tensor b = filled({rows, cols}, 2), d = filled({rows, 1}, 3), e = filled({cols}, 4);
    t0 = std::chrono::steady_clock::now();
    y = ops::max(13, {&x, &b, &d, &e});
  } else if (c == "reducemax-axis1") {
    y = ops::reduce_max(18, x, {std::vector<std::int64_t>{1}, 0, 0});
  } else if (c == "reducemax-all") {
    y = ops::reduce_max(18, x, {std::nullopt, 0, 0});
  } else if (c == "hardmax13") {
    y = ops::hardmax(13, x, -1);
  } else if (c == "hardmax11") {
    y = ops::hardmax(11, x, 1);
  } else {
    std::fprintf(stderr, "unknown case %s\n", c.c_str());
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s\t%lld\t%.3f\t%.2f\t%.1f\t%.1f\n", c.c_str(), static_cast<long long>(elements), seconds * 1e3,
              seconds * 1e9 / elements, peak_mib(), input_mib);
  return y.size() >= 0 ? 0 : 1;
}
