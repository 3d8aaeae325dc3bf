// [Common.order.isa-independent] The outputs of every operator at the instruction-set level this process
// runs (SONNX_ISA, core/isa.hpp), as one digest per case: props/determinism/levels runs this program
// once per level the CPU has and compares the digests, which must be equal byte for byte.
//
// Cases: Max and Min of every ordered pair of float16 and of bfloat16 patterns (2^32 pairs each, in
// rows of 65536: row a is Op(a, every pattern)), and Relu, Clip, ReduceMax/ReduceMin (every axis
// pattern), ArgMax/ArgMin/Hardmax (both ends, first and last index), MaxPool (with Indices, pads,
// strides, dilations) and GlobalMaxPool on large tensors of every type whose values are weighted
// toward what the order decides (NaNs with payloads, ±0, ±Inf, subnormals, ties, extremes), large
// enough for every vector width's main loop and remainder.
// Usage: sonnx-levels [--quick]   (prints "level <name>" then "<case> <digest>" lines)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/relu.hpp"

using namespace sonnx;

namespace {

// FNV-1a over 64-bit words: equal outputs give equal digests (a difference shows with near certainty).
struct Digest {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(const Tensor& t) {
    const auto bytes = t.bytes();
    std::size_t k = 0;
    for (; k + 8 <= bytes.size(); k += 8) {  // a word at a time, then the tail byte by byte
      std::uint64_t w;
      std::memcpy(&w, bytes.data() + k, 8);
      h = (h ^ w) * 0x100000001b3ull;
    }
    for (; k < bytes.size(); ++k) h = (h ^ static_cast<std::uint64_t>(bytes[k])) * 0x100000001b3ull;
    for (std::int64_t d : t.shape()) h = (h ^ static_cast<std::uint64_t>(d)) * 0x100000001b3ull;
  }
};

struct Random {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Elements weighted toward the order's edges: a pattern from a small pool (±0, ±Inf, NaNs of both
// signs, quiet and signalling, subnormals, ±1) one time in four, else any pattern of the type.
Tensor edgy(DType t, Shape shape, std::uint64_t seed) {
  Tensor x(t, std::move(shape), "input");
  const int size = info(t).size;
  Random r{seed};
  const std::uint64_t sign = std::uint64_t{1} << (8 * size - 1);
  std::vector<std::uint64_t> pool = {0, sign, 1, sign | 1, 0x7F, sign - 1, ~std::uint64_t{0}};
  if (info(t).is_float) {
    std::uint64_t inf = 0;
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) inf = bits_of(highest<T>());
    });
    const std::uint64_t quiet = (inf >> 1) & ~inf;  // the fraction's top bit
    pool.insert(pool.end(), {inf, sign | inf, inf | 1, sign | inf | 2, inf | quiet, sign | inf | quiet | 5, inf - 1, sign | (inf - 1)});
  }
  std::byte* out = x.bytes().data();
  for (std::int64_t k = 0; k < x.size(); ++k) {
    std::uint64_t v = r.next();
    if ((v & 3) == 0) v = pool[(v >> 8) % pool.size()];
    else if ((v & 12) == 0) v = (r.next() & 7);  // small values: ties
    if (t == DType::Bool) v &= 1;
    std::memcpy(out + k * size, &v, static_cast<std::size_t>(size));  // little-endian host
  }
  return x;
}

void print(const char* name, const Digest& d) { std::printf("%s %016llx\n", name, static_cast<unsigned long long>(d.h)); }

// Max and Min of every ordered pair of 16-bit patterns of t.
void pairs(DType t, bool quick) {
  const std::int64_t n = 65536, rows = quick ? 4096 : 65536;
  Tensor all(t, {n}, "all patterns"), row(t, {n}, "a row");
  auto* a = reinterpret_cast<std::uint16_t*>(all.bytes().data());
  for (std::int64_t k = 0; k < n; ++k) a[k] = static_cast<std::uint16_t>(k);
  Digest dmax, dmin;
  auto* b = reinterpret_cast<std::uint16_t*>(row.bytes().data());
  for (std::int64_t v = 0; v < rows; ++v) {
    for (std::int64_t k = 0; k < n; ++k) b[k] = static_cast<std::uint16_t>(v * (65536 / rows));
    dmax.add(ops::max(13, {&row, &all}));
    dmin.add(ops::min(13, {&row, &all}));
  }
  const std::string name = std::string(info(t).name);
  print(("max-pairs-" + name).c_str(), dmax);
  print(("min-pairs-" + name).c_str(), dmin);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  try {
    std::printf("level %s\n", isa_name(active_isa()).c_str());
    pairs(DType::Float16, quick);
    pairs(DType::BFloat16, quick);
    const std::vector<DType> types = {DType::Float16, DType::BFloat16, DType::Float, DType::Double, DType::Int8,
                                      DType::Int16,   DType::Int32,    DType::Int64, DType::Uint8,  DType::Uint16,
                                      DType::Uint32,  DType::Uint64};
    std::uint64_t seed = 1;
    for (DType t : types) {
      const std::string name(info(t).name);
      const bool is_float = info(t).is_float;
      Digest d;
      const Tensor X = edgy(t, {67, 257}, seed++), B = edgy(t, {67, 257}, seed++), row = edgy(t, {257}, seed++),
                   col = edgy(t, {67, 1}, seed++), scalar = edgy(t, {}, seed++);
      d.add(ops::max(13, {&X, &B})), d.add(ops::min(13, {&X, &B}));
      d.add(ops::max(13, {&X, &row, &col, &scalar})), d.add(ops::min(13, {&X, &row, &col, &scalar}));
      for (const std::vector<std::int64_t>& axes : std::vector<std::vector<std::int64_t>>{{0}, {1}, {0, 1}}) {
        ops::ReduceParams p;
        p.axes = axes;
        if (t != DType::Int16 && t != DType::Uint16) d.add(ops::reduce_max(13, X, p)), d.add(ops::reduce_min(13, X, p));
      }
      for (std::int64_t axis : {0, 1})
        for (std::int64_t last : {0, 1}) {
          ops::ArgParams p;
          p.axis = axis, p.select_last_index = last;
          d.add(ops::argmax(13, X, p)), d.add(ops::argmin(13, X, p));
        }
      if (is_float) d.add(ops::hardmax(13, X, 0)), d.add(ops::hardmax(13, X, 1));
      if (is_float && t != DType::BFloat16) d.add(ops::hardmax(11, X, 1));
      if (is_float || t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64)
        d.add(ops::relu(14, X));
      const Tensor lo = edgy(t, {}, seed++), hi = edgy(t, {}, seed++);
      d.add(ops::clip(13, X, {std::nullopt, std::nullopt, &lo, &hi}));
      d.add(ops::clip(13, X, {std::nullopt, std::nullopt, &lo, nullptr}));
      if (is_float || t == DType::Int8 || t == DType::Uint8) {
        const Tensor P = edgy(t, {2, 3, 37, 41}, seed++);
        for (int variant = 0; variant < 4; ++variant) {
          ops::PoolParams p;
          p.kernel_shape = variant % 2 ? std::vector<std::int64_t>{3, 3} : std::vector<std::int64_t>{2, 2};
          p.has_kernel_shape = true;
          p.strides = {variant < 2 ? 1 : 2, 2}, p.has_strides = true;
          if (variant % 2) p.pads = {1, 0, 1, 1}, p.has_pads = true;
          if (variant == 3) p.dilations = {2, 1}, p.has_dilations = true, p.ceil_mode = 1, p.storage_order = 1;
          for (const Tensor& y : ops::maxpool(22, P, p, true)) d.add(y);
        }
        if (is_float) d.add(ops::globalmaxpool(22, P));
      }
      print(("operators-" + name).c_str(), d);
    }
  } catch (const SpecError& e) {
    std::fprintf(stderr, "%s\n", e.report().c_str());
    return exit_status(e.kind());
  }
  return 0;
}
