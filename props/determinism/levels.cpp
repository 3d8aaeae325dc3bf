// [Common.order.isa-independent] The outputs of every operator at the instruction-set level this process
// runs (SONNX_ISA, core/isa.hpp), as one digest per case: props/determinism/levels runs this program
// once per level the CPU has and compares the digests, which must be equal byte for byte.
//
// Cases: Max and Min of every ordered pair of float16 and of bfloat16 patterns (2^32 pairs each, in
// rows of 65536: row a is Op(a, every pattern)), and Relu, Clip, ReduceMax/ReduceMin (every axis
// pattern), ArgMax/ArgMin/Hardmax (both ends, first and last index), MaxPool (with Indices, pads,
// strides, dilations) and GlobalMaxPool on large tensors of every type whose values are weighted
// toward what the order decides (NaNs with payloads, ±0, ±Inf, subnormals, ties, extremes), large
// enough for every vector width's main loop and remainder. And the computing operators ([Acc.oracle]:
// one fixed order on every level): Conv (1-D, 2-D, 3-D, pads, strides, dilations, SAME_*, groups,
// depthwise, 1 x 1, bias or not), Gemm (transposes, scales, C broadcast or absent) and MatMul
// (batch broadcasting, rank-1 operands) on float tensors of moderate values with a few zeros, ±Inf,
// NaNs and subnormals, and on the integer types; each output's bits and its accuracy annex (the
// enclosure, radius and allowed values of every element, [Acc.verdict]) enter the digest. And the
// operators of issues 31 and 33 (function `second`): Add, Sub, Mul, Div, Sum, Mean, ReduceSum, ReduceMean,
// AveragePool, GlobalAveragePool, BatchNormalization, Transpose, Gather, Concat, Cast. And the operators
// of issue 32 (function `functions`, [Elem.run]): Exp, Log, Tanh, Sigmoid, Sqrt, HardSigmoid, Softmax,
// LogSoftmax, LRN, Pow.
// Usage: sonnx-levels [--quick]   (prints "level <name>" then "<case> <digest>" lines)
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/exp.hpp"
#include "ops/hardsigmoid.hpp"
#include "ops/log.hpp"
#include "ops/lrn.hpp"
#include "ops/pow.hpp"
#include "ops/sigmoid.hpp"
#include "ops/softmax.hpp"
#include "ops/sqrt.hpp"
#include "ops/tanh.hpp"
#include "ops/add.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/conv.hpp"
#include "ops/gemm.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/hardmax.hpp"
#include "ops/matmul.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/averagepool.hpp"
#include "ops/batchnormalization.hpp"
#include "ops/cast.hpp"
#include "ops/concat.hpp"
#include "ops/div.hpp"
#include "ops/gather.hpp"
#include "ops/globalaveragepool.hpp"
#include "ops/mean.hpp"
#include "ops/mul.hpp"
#include "ops/reducemean.hpp"
#include "ops/reducesum.hpp"
#include "ops/relu.hpp"
#include "ops/sub.hpp"
#include "ops/sum.hpp"
#include "ops/transpose.hpp"

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
  void word(std::uint64_t w) { h = (h ^ w) * 0x100000001b3ull; }
  template <class A> void doubles(const A& a) {
    for (double x : a) word(std::bit_cast<std::uint64_t>(x));
  }
  // A computed output ([Acc.verdict]): its bits, then its annex, element by element: the centre (and
  // the low part for double), the radius, the bound, the oracle's error and what the element may be.
  void computed(const Tensor& t) {
    add(t);
    if (!t.annex) return;
    const accuracy::Annex& a = *t.annex;
    word(static_cast<std::uint64_t>(a.dtype)), word(a.hi.size());
    doubles(a.hi), doubles(a.lo), doubles(a.radius), doubles(a.bound), doubles(a.oracle);
    for (std::uint8_t k : a.allowed) word(k);
    for (char c : a.clause) word(static_cast<unsigned char>(c));
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

// Elements for the computing operators: mostly moderate values (a double in [-4, 4) rounded to T, so
// that products and sums round), one in sixteen ±0, one in 256 a pattern of edgy()'s pool (±Inf,
// NaNs, subnormals, the largest finite values); integer types take every pattern (wrap-around).
Tensor computing(DType t, Shape shape, std::uint64_t seed) {
  if (!info(t).is_float) return edgy(t, std::move(shape), seed);
  Tensor x = edgy(t, std::move(shape), seed);  // the edge patterns, kept one time in 256
  Random r{seed ^ 0x5EEDull};
  std::byte* out = x.bytes().data();
  const int size = info(t).size;
  for (std::int64_t k = 0; k < x.size(); ++k) {
    const std::uint64_t v = r.next();
    if ((v & 255) == 0) continue;
    double d = 0;
    if ((v & 15) == 1) d = (v & 16) ? -0.0 : 0.0;
    else d = static_cast<double>(static_cast<std::int64_t>(r.next() >> 11) - (std::int64_t{1} << 52)) * 0x1p-50;
    std::uint64_t bits = 0;
    switch (t) {
      case DType::Float16: bits = accuracy::to_float16_bits(d); break;
      case DType::BFloat16: bits = accuracy::to_bfloat16_bits(d); break;
      case DType::Float: bits = std::bit_cast<std::uint32_t>(static_cast<float>(d)); break;
      default: bits = std::bit_cast<std::uint64_t>(d); break;
    }
    std::memcpy(out + k * size, &bits, static_cast<std::size_t>(size));  // little-endian host
  }
  return x;
}

// Conv, Gemm and MatMul of type t ([Acc.oracle] [Acc.run]: the same bits and annex on every level).
void computed(DType t, std::uint64_t& seed, Digest& d) {
  const bool is_float = info(t).is_float;
  if (is_float) {
    struct ConvCase {
      Shape x, w;
      bool bias;
      std::vector<std::int64_t> strides, pads, dilations;
      std::string auto_pad;
      std::int64_t group;
    };
    const std::vector<ConvCase> convs = {
        {{2, 8, 13, 37}, {12, 8, 3, 3}, true, {}, {1, 1, 1, 1}, {}, "NOTSET", 1},            // 3 x 3, pads
        {{1, 5, 17, 29}, {6, 5, 5, 5}, false, {2, 2}, {2, 1, 2, 3}, {1, 2}, "NOTSET", 1},    // strides, dilations
        {{1, 16, 11, 19}, {16, 1, 3, 3}, true, {}, {}, {}, "SAME_UPPER", 16},               // depthwise
        {{2, 6, 9, 21}, {9, 2, 2, 3}, false, {1, 2}, {}, {}, "SAME_LOWER", 3},             // groups
        {{3, 4, 67}, {5, 4, 7}, true, {}, {3, 3}, {2}, "NOTSET", 1},                       // 1-D
        {{1, 3, 6, 7, 19}, {4, 3, 2, 3, 3}, true, {}, {1, 1, 1, 1, 1, 1}, {}, "NOTSET", 1},  // 3-D
        {{2, 16, 9, 23}, {8, 16, 1, 1}, false, {}, {}, {}, "VALID", 1},                    // 1 x 1
        {{1, 2, 3, 4}, {3, 2, 2, 2}, true, {}, {0, 0, 3, 3}, {1, 2}, "NOTSET", 1},         // windows in the end padding
    };
    for (const ConvCase& c : convs) {
      const Tensor X = computing(t, c.x, seed++), W = computing(t, c.w, seed++), B = computing(t, {c.w[0]}, seed++);
      ops::ConvParams p;
      p.group = c.group;
      p.window.auto_pad = c.auto_pad;
      if (!c.strides.empty()) p.window.strides = c.strides, p.window.has_strides = true;
      if (!c.pads.empty()) p.window.pads = c.pads, p.window.has_pads = true;
      if (!c.dilations.empty()) p.window.dilations = c.dilations, p.window.has_dilations = true;
      d.computed(ops::conv(22, X, W, c.bias ? &B : nullptr, p));
    }
  }
  // Gemm: every transpose, scales 1, 0.5 / 2, -1 / 0, 0.1 (not a value of float16 or bfloat16), C a row,
  // a column, a matrix or absent; integer types with integral scales only ([Gemm.err.int-scale]).
  const Tensor A = computing(t, {37, 41}, seed++), At = computing(t, {41, 37}, seed++);
  const Tensor B = computing(t, {41, 29}, seed++), Bt = computing(t, {29, 41}, seed++);
  const Tensor row = computing(t, {29}, seed++), col = computing(t, {37, 1}, seed++), full = computing(t, {37, 29}, seed++);
  struct GemmCase {
    bool ta, tb;
    double alpha, beta;
    const Tensor* c;
  };
  const std::vector<GemmCase> gemms = {{false, false, 1.0, 1.0, &row}, {true, false, is_float ? 0.5 : 3.0, 2.0, &col},
                                       {false, true, -1.0, 0.0, &full}, {true, true, is_float ? 0.1f : -7.0, -1.0, &full},
                                       {false, false, 2.0, 1.0, nullptr}};
  for (const GemmCase& g : gemms) {
    ops::GemmParams p;
    p.alpha = g.alpha, p.beta = g.beta, p.trans_a = g.ta, p.trans_b = g.tb;
    d.computed(ops::gemm(13, g.ta ? At : A, g.tb ? Bt : B, g.c, p));
  }
  // MatMul: batch broadcasting, rank-1 operands on either side, a plain product.
  const Tensor M1 = computing(t, {3, 1, 19, 33}, seed++), M2 = computing(t, {2, 33, 27}, seed++);
  d.computed(ops::matmul(13, M1, M2));
  const Tensor v = computing(t, {65}, seed++), m = computing(t, {65, 17}, seed++), mt = computing(t, {17, 65}, seed++);
  d.computed(ops::matmul(13, v, m)), d.computed(ops::matmul(13, mt, v));
  const Tensor P = computing(t, {40, 129}, seed++), Q = computing(t, {129, 36}, seed++);
  d.computed(ops::matmul(13, P, Q));
}

// The operators of issues 31 and 33 on large tensors of type t: Add, Sub, Mul, Div (bit for bit,
// broadcast rows and columns), Sum, Mean, ReduceSum, ReduceMean, AveragePool, GlobalAveragePool (planes
// in blocks and alone), BatchNormalization ([Acc.oracle]: the bits and the annex), Transpose, Gather,
// Concat and Cast (they move or convert: bit for bit).
void second(DType t, std::uint64_t& seed, Digest& d) {
  const bool is_float = info(t).is_float;
  const Tensor X = computing(t, {67, 257}, seed++), B = computing(t, {67, 257}, seed++), row = computing(t, {257}, seed++),
               col = computing(t, {67, 1}, seed++);
  const ops::LegacyBroadcast none;
  d.add(ops::add(14, X, B, none)), d.add(ops::sub(14, X, row, none)), d.add(ops::mul(14, col, X, none));
  if (is_float) d.add(ops::div(14, X, B, none)), d.add(ops::div(14, row, col, none));  // integers: a 0 divisor is refused
  const bool sums = is_float || t == DType::Int32 || t == DType::Int64 || t == DType::Uint32 || t == DType::Uint64;
  if (sums)
    for (const std::vector<std::int64_t>& axes : std::vector<std::vector<std::int64_t>>{{0}, {1}, {0, 1}}) {
      ops::ReduceParams p;
      p.axes = axes;
      d.computed(ops::reduce_sum(13, X, p)), d.computed(ops::reduce_mean(13, X, p));
    }
  if (is_float) {
    d.computed(ops::sum(13, {&X, &B, &row})), d.computed(ops::mean(13, {&X, &col}));
    const Tensor P = computing(t, {2, 3, 37, 41}, seed++), G = computing(t, {3, 7, 14, 14}, seed++);
    for (std::int64_t cip : {0, 1}) {
      ops::AveragePoolParams p;
      p.window.kernel_shape = {3, 3}, p.has_kernel_shape = true;
      p.window.pads = {1, 0, 1, 1}, p.window.has_pads = true;
      p.window.strides = {1, 2}, p.window.has_strides = true;
      p.count_include_pad = cip;
      d.computed(ops::averagepool(22, P, p));
    }
    d.computed(ops::globalaveragepool(22, P)), d.computed(ops::globalaveragepool(22, G));  // 6 and 21 planes
    Tensor var = computing(t, {7}, seed++);
    std::byte* v = var.bytes().data();
    for (std::int64_t k = 0; k < var.size(); ++k) v[(k + 1) * info(t).size - 1] &= std::byte{0x7F};  // |var|
    const Tensor scale = computing(t, {7}, seed++), bias = computing(t, {7}, seed++), mu = computing(t, {7}, seed++);
    d.computed(ops::batch_normalization(15, computing(t, {2, 7, 13, 17}, seed++), scale, bias, mu, var, {}, 1));
    d.add(ops::cast(21, X, DType::Double)), d.add(ops::cast(21, X, DType::Float16));
  }
  const Tensor T = computing(t, {5, 7, 11, 13}, seed++);
  d.add(ops::transpose(21, T, std::vector<std::int64_t>{2, 0, 3, 1})), d.add(ops::transpose(21, T, std::nullopt));
  Tensor idx(DType::Int64, {5, 3});
  const std::int64_t picks[15] = {0, 66, -1, 3, 3, -67, 10, 20, 30, 1, 2, 5, 8, 13, 21};
  std::memcpy(idx.bytes().data(), picks, sizeof picks);
  d.add(ops::gather(13, X, idx, 0));
  d.add(ops::concat(13, {&X, &B}, std::int64_t{1}));  // along axis 1: (67, 514)
}

// The operators of issue 32 on large tensors of a float type t ([Elem.oracle] [Elem.run]: the bits and the
// annex): Exp, Log (of |X|, and of X: NaN for the negatives), Tanh, Sigmoid, Sqrt (bit for bit),
// HardSigmoid, Softmax and LogSoftmax (along an axis and coerced), LRN.
void functions(DType t, std::uint64_t& seed, Digest& d) {
  const Tensor X = computing(t, {67, 257}, seed++);
  Tensor A = computing(t, {67, 257}, seed++);
  std::byte* a = A.bytes().data();
  for (std::int64_t k = 0; k < A.size(); ++k) a[(k + 1) * info(t).size - 1] &= std::byte{0x7F};  // |A|
  d.computed(ops::exp_op(13, X)), d.computed(ops::log_op(13, A)), d.computed(ops::log_op(13, X));
  d.computed(ops::tanh_op(13, X)), d.computed(ops::sigmoid_op(13, X));
  d.add(ops::sqrt_op(13, A)), d.add(ops::sqrt_op(13, X));
  d.computed(ops::hardsigmoid(22, X, {}));
  const Tensor R = computing(t, {3, 5, 7, 11}, seed++);
  for (std::int64_t axis : {-1, 1}) d.computed(ops::softmax(13, R, axis)), d.computed(ops::logsoftmax(13, R, axis));
  if (t != DType::BFloat16) d.computed(ops::softmax(11, R, 1)), d.computed(ops::logsoftmax(1, R, 2));  // the 2-D coercion
  ops::LrnParams p;
  p.size = 3;
  d.computed(ops::lrn(13, computing(t, {2, 9, 13, 17}, seed++), p));
  // Pow: |A| to the power of X (a tensor exponent, broadcast over a row), and X to the power of an int32 3 ([Pow.oracle])
  const Tensor E = computing(t, {257}, seed++);
  d.computed(ops::pow_op(15, A, E, {}));
  Tensor three(DType::Int32, {});
  three.values<std::int32_t>()[0] = 3;
  d.computed(ops::pow_op(15, X, three, {}));
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
      if (is_float || t == DType::Int32 || t == DType::Int64 || t == DType::Uint32 || t == DType::Uint64) {
        Digest c;
        std::uint64_t computed_seed = 0xC0DE00 + 64 * static_cast<std::uint64_t>(t);  // the seeds above unchanged
        computed(t, computed_seed, c);
        print(("computed-" + name).c_str(), c);
      }
      Digest s2;
      std::uint64_t second_seed = 0x5EC0D00 + 64 * static_cast<std::uint64_t>(t);  // the seeds above unchanged
      second(t, second_seed, s2);
      print(("arith-movement-" + name).c_str(), s2);
      if (is_float) {
        Digest s3;
        std::uint64_t function_seed = 0xF0C7100 + 64 * static_cast<std::uint64_t>(t);
        functions(t, function_seed, s3);
        print(("functions-" + name).c_str(), s3);
      }
    }
  } catch (const SpecError& e) {
    std::fprintf(stderr, "%s\n", e.report().c_str());
    return exit_status(e.kind());
  }
  return 0;
}
