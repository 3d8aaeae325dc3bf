// sonnx-bench: times one case of tools/benchmark/cases.txt in sonnx-ref and reports the median
// time over REPS repetitions, ns per output-or-input element, and the process's peak resident
// memory. One case per process, so that the peak belongs to that case; every repetition allocates
// its output afresh, as numpy does. Usage: sonnx-bench CASE [ELEMENTS [REPS]] [--dump FILE.npz]
// Prints: case <TAB> elements <TAB> median ms <TAB> ns/element <TAB> peak MiB <TAB> MiB before the timed part
// --dump FILE.npz: times nothing; writes the case's inputs, in operator input order, as in0, in1, ...
// (tools/benchmark/ort_case.py feeds the same bytes to onnxruntime).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/order.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/conv.hpp"
#include "ops/batchnormalization.hpp"
#include "ops/averagepool.hpp"
#include "ops/globalaveragepool.hpp"
#include "ops/exp.hpp"
#include "ops/lrn.hpp"
#include "ops/pow.hpp"
#include "ops/sigmoid.hpp"
#include "ops/softmax.hpp"
#include "ops/gemm.hpp"
#include "ops/matmul.hpp"
#include "ops/reducemean.hpp"
#include "ops/reducesum.hpp"
#include "ops/sum.hpp"
#include "ops/hardmax.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/relu.hpp"
#include "ops/add.hpp"
#include "ops/mul.hpp"
#include "ops/gather.hpp"
#include "ops/transpose.hpp"
#include "io/io.hpp"

using namespace sonnx;

namespace {

// splitmix64: the same stream on every machine.
struct Random {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// Values like real activations: floats in [-1000, 1000] with three decimals (float16: finite
// patterns of that range), integers uniform over the type. No NaN. (The computing operators' cases
// take them too: their time does not depend on the values.)
template <class T> Tensor filled(Shape shape, std::uint64_t seed) {
  Tensor t(dtype_of<T>(), std::move(shape));
  Random r{seed};
  for (auto& x : t.values<T>()) {
    const auto z = r.next();
    if constexpr (std::is_same_v<T, float16>) {
      std::uint16_t b;
      do b = static_cast<std::uint16_t>(r.next() & 0xFFFF); while ((b & 0x7FFF) >= 0x6400);  // |x| < 1024
      x = float16{b};
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<double>(static_cast<std::int64_t>(z % 2000001) - 1000000) / 1000.0);
    } else {
      x = static_cast<T>(z);
    }
  }
  return t;
}

double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;  // KiB on Linux
}

template <class T> std::function<Tensor()> max_case(std::int64_t rows, std::int64_t cols, int inputs, std::vector<Tensor>& keep) {
  keep.push_back(filled<T>({rows, cols}, 1));
  keep.push_back(filled<T>({rows, cols}, 2));
  if (inputs == 4) {
    keep.push_back(filled<T>({rows, 1}, 3));
    keep.push_back(filled<T>({cols}, 4));
  }
  return [&keep] {
    std::vector<const Tensor*> in;
    for (const auto& t : keep) in.push_back(&t);
    return ops::max(13, in);
  };
}

}  // namespace

int main(int argc, char** argv) {
  std::string dump;
  if (argc > 2 && std::string(argv[argc - 2]) == "--dump") dump = argv[argc - 1], argc -= 2;
  if (argc < 2) {
    std::fprintf(stderr, "usage: sonnx-bench CASE [ELEMENTS [REPS]] [--dump FILE.npz]   (cases: tools/benchmark/cases.txt)\n");
    return 2;
  }
  const std::string c = argv[1];
  const std::int64_t n = argc > 2 ? std::stoll(argv[2]) : (16ll << 20);
  const int reps = argc > 3 ? std::stoi(argv[3]) : 5;
  const std::int64_t cols = 4096, rows = std::max<std::int64_t>(16, n / cols);
  std::vector<Tensor> keep;
  std::function<Tensor()> run;
  if (c == "max2-float") run = max_case<float>(rows, cols, 2, keep);
  else if (c == "max2-double") run = max_case<double>(rows, cols, 2, keep);
  else if (c == "max2-float16") run = max_case<float16>(rows, cols, 2, keep);
  else if (c == "max2-int32") run = max_case<std::int32_t>(rows, cols, 2, keep);
  else if (c == "max2-uint8") run = max_case<std::uint8_t>(rows, cols, 2, keep);
  else if (c == "max4-float") run = max_case<float>(rows, cols, 4, keep);
  else if (c == "max4-double") run = max_case<double>(rows, cols, 4, keep);
  else if (c == "max4-float16") run = max_case<float16>(rows, cols, 4, keep);
  else if (c == "max4-int32") run = max_case<std::int32_t>(rows, cols, 4, keep);
  else if (c == "max4-uint8") run = max_case<std::uint8_t>(rows, cols, 4, keep);
  else if (c == "max2-row-float" || c == "max2-column-float" || c == "max2-scalar-float") {
    keep.push_back(filled<float>({rows, cols}, 1));
    const Shape b = c == "max2-row-float" ? Shape{cols} : c == "max2-column-float" ? Shape{rows, 1} : Shape{};
    keep.push_back(filled<float>(b, 2));
    run = [&keep] { return ops::max(13, {&keep[0], &keep[1]}); };
  } else if (c.rfind("reducemax-", 0) == 0) {
    keep.push_back(filled<float>({rows, cols}, 1));
    ops::ReduceMaxParams p;
    p.keepdims = 0;
    if (c == "reducemax-axis0-float") p.axes = std::vector<std::int64_t>{0};
    else if (c == "reducemax-axis1-float") p.axes = std::vector<std::int64_t>{1};
    run = [&keep, p] { return ops::reduce_max(18, keep[0], p); };
  } else if (c == "hardmax-last-float" || c == "hardmax-first-float") {
    keep.push_back(filled<float>({rows, cols}, 1));
    const std::int64_t axis = c == "hardmax-last-float" ? -1 : 0;
    run = [&keep, axis] { return ops::hardmax(13, keep[0], axis); };
  } else if (c == "hardmax11-coerced-float") {
    keep.push_back(filled<float>({rows / 16, 16, cols}, 1));
    run = [&keep] { return ops::hardmax(11, keep[0], 1); };
  } else if (c == "min2-float" || c == "min2-int32") {
    if (c == "min2-float") keep.push_back(filled<float>({rows, cols}, 1)), keep.push_back(filled<float>({rows, cols}, 2));
    else keep.push_back(filled<std::int32_t>({rows, cols}, 1)), keep.push_back(filled<std::int32_t>({rows, cols}, 2));
    run = [&keep] { return ops::min(13, {&keep[0], &keep[1]}); };
  } else if (c.rfind("reducemin-", 0) == 0) {
    keep.push_back(filled<float>({rows, cols}, 1));
    ops::ReduceParams p;
    p.keepdims = 0;
    if (c == "reducemin-axis0-float") p.axes = std::vector<std::int64_t>{0};
    else if (c == "reducemin-axis1-float") p.axes = std::vector<std::int64_t>{1};
    run = [&keep, p] { return ops::reduce_min(18, keep[0], p); };
  } else if (c == "argmax-last-float" || c == "argmax-first-float" || c == "argmin-last-float" || c == "argmin-first-float") {
    keep.push_back(filled<float>({rows, cols}, 1));
    ops::ArgParams p;
    p.axis = c.find("last") != std::string::npos ? -1 : 0;
    p.keepdims = 0;
    if (c.rfind("argmax", 0) == 0) run = [&keep, p] { return ops::argmax(13, keep[0], p); };
    else run = [&keep, p] { return ops::argmin(13, keep[0], p); };
  } else if (c == "relu-float") {
    keep.push_back(filled<float>({rows, cols}, 1));
    run = [&keep] { return ops::relu(14, keep[0]); };
  } else if (c == "relu-float16") {
    keep.push_back(filled<float16>({rows, cols}, 1));
    run = [&keep] { return ops::relu(14, keep[0]); };
  } else if (c == "relu-int32") {
    keep.push_back(filled<std::int32_t>({rows, cols}, 1));
    run = [&keep] { return ops::relu(14, keep[0]); };
  } else if (c == "clip-float" || c == "clip-int32") {
    if (c == "clip-float") {
      keep.push_back(filled<float>({rows, cols}, 1));
      keep.emplace_back(DType::Float, Shape{}), keep.back().values<float>()[0] = -100;
      keep.emplace_back(DType::Float, Shape{}), keep.back().values<float>()[0] = 100;
    } else {
      keep.push_back(filled<std::int32_t>({rows, cols}, 1));
      keep.emplace_back(DType::Int32, Shape{}), keep.back().values<std::int32_t>()[0] = -100;
      keep.emplace_back(DType::Int32, Shape{}), keep.back().values<std::int32_t>()[0] = 100;
    }
    run = [&keep] { return ops::clip(13, keep[0], {std::nullopt, std::nullopt, &keep[1], &keep[2]}); };
  } else if (c.rfind("maxpool", 0) == 0) {
    const bool three = c.rfind("maxpool3s2", 0) == 0, with_indices = c.find("-idx-") != std::string::npos;
    const Shape shape = c.find("1x64x112") != std::string::npos  ? Shape{1, 64, 112, 112}
                        : c.find("8x64x56") != std::string::npos ? Shape{8, 64, 56, 56}
                                                                  : Shape{8, 128, 56, 56};
    keep.push_back(filled<float>(shape, 1));
    ops::PoolParams p;
    p.kernel_shape = three ? std::vector<std::int64_t>{3, 3} : std::vector<std::int64_t>{2, 2};
    p.has_kernel_shape = true;
    p.strides = {2, 2}, p.has_strides = true;
    if (three) p.pads = {1, 1, 1, 1}, p.has_pads = true;
    run = [&keep, p, with_indices] { return ops::maxpool(12, keep[0], p, with_indices)[0]; };
  } else if (c.rfind("conv", 0) == 0) {  // the ideal of every element and its enclosure ([Acc.oracle])
    ops::ConvParams p;
    if (c == "conv3x3-1x64x56") {
      keep.push_back(filled<float>({1, 64, 56, 56}, 1)), keep.push_back(filled<float>({64, 64, 3, 3}, 2));
      keep.push_back(filled<float>({64}, 3));
      p.window.pads = {1, 1, 1, 1}, p.window.has_pads = true;
    } else if (c == "conv7x7s2-1x3x224") {
      keep.push_back(filled<float>({1, 3, 224, 224}, 1)), keep.push_back(filled<float>({64, 3, 7, 7}, 2));
      keep.push_back(filled<float>({64}, 3));
      p.window.pads = {3, 3, 3, 3}, p.window.has_pads = true;
      p.window.strides = {2, 2}, p.window.has_strides = true;
    } else if (c == "convdw-1x256x56") {
      keep.push_back(filled<float>({1, 256, 56, 56}, 1)), keep.push_back(filled<float>({256, 1, 3, 3}, 2));
      keep.push_back(filled<float>({256}, 3));
      p.window.pads = {1, 1, 1, 1}, p.window.has_pads = true;
      p.group = 256;
    } else {
      std::fprintf(stderr, "sonnx-bench: unknown case '%s' (cases: tools/benchmark/cases.txt)\n", c.c_str());
      return 2;
    }
    run = [&keep, p] { return ops::conv(11, keep[0], keep[1], &keep[2], p); };
  } else if (c == "gemm-1x2048x1000") {
    keep.push_back(filled<float>({1, 2048}, 1)), keep.push_back(filled<float>({2048, 1000}, 2));
    keep.push_back(filled<float>({1000}, 3));
    run = [&keep] { return ops::gemm(13, keep[0], keep[1], &keep[2], {}); };
  } else if (c == "matmul-512") {
    keep.push_back(filled<float>({512, 512}, 1)), keep.push_back(filled<float>({512, 512}, 2));
    run = [&keep] { return ops::matmul(13, keep[0], keep[1]); };
  } else if (c == "add-float-16x1024x1024" || c == "mul-float-16x1024x1024" || c == "add-row-float-16x1024x1024") {
    keep.push_back(filled<float>({16, 1024, 1024}, 1));
    keep.push_back(filled<float>(c.rfind("add-row", 0) == 0 ? Shape{1024} : Shape{16, 1024, 1024}, 2));
    if (c.rfind("mul", 0) == 0) run = [&keep] { return ops::mul(14, keep[0], keep[1], {}); };
    else run = [&keep] { return ops::add(14, keep[0], keep[1], {}); };
  } else if (c == "reducemean-64x1024x1024" || c == "reducesum-64x1024x1024") {  // the sums of the last axis
    keep.push_back(filled<float>({64, 1024, 1024}, 1));
    ops::ReduceParams p;
    p.axes = std::vector<std::int64_t>{-1}, p.keepdims = 0;
    if (c == "reducemean-64x1024x1024") run = [&keep, p] { return ops::reduce_mean(18, keep[0], p); };
    else run = [&keep, p] { return ops::reduce_sum(13, keep[0], p); };
  } else if (c == "sum3-float") {
    for (std::uint64_t s = 1; s <= 3; ++s) keep.push_back(filled<float>({rows, cols}, s));
    run = [&keep] { return ops::sum(13, {&keep[0], &keep[1], &keep[2]}); };
  } else if (c == "batchnorm-8x64x56") {  // per channel a, b and the bound's coefficients once, then a plain loop
    keep.push_back(filled<float>({8, 64, 56, 56}, 1));
    for (std::uint64_t seed = 2; seed <= 5; ++seed) keep.push_back(filled<float>({64}, seed));
    for (float& v : keep[4].values<float>()) v = std::fabs(v);  // variances
    run = [&keep] { return ops::batch_normalization(15, keep[0], keep[1], keep[2], keep[3], keep[4], {}); };
  } else if (c == "transpose-float" || c == "transpose-021-float") {  // issue 33 (wt-gather): data movement
    const bool two = c == "transpose-float";
    keep.push_back(filled<float>(two ? Shape{rows, cols} : Shape{rows / 16, 16, cols}, 1));
    const std::vector<std::int64_t> perm = two ? std::vector<std::int64_t>{1, 0} : std::vector<std::int64_t>{0, 2, 1};
    run = [&keep, perm] { return ops::transpose(13, keep[0], perm); };
  } else if (c == "gather-rows-float" || c == "gather-cols-float") {
    const bool by_rows = c == "gather-rows-float";
    keep.push_back(filled<float>({rows, cols}, 1));
    const std::int64_t s = by_rows ? rows : cols;
    keep.emplace_back(DType::Int64, Shape{s});
    Random r{7};
    for (auto& i : keep.back().values<std::int64_t>()) i = static_cast<std::int64_t>(r.next() % static_cast<std::uint64_t>(s));
    run = [&keep, by_rows] { return ops::gather(13, keep[0], keep[1], by_rows ? 0 : 1); };
  } else if (c == "averagepool3-8x64x56") {  // the ideal of every element and its enclosure ([Acc.oracle])
    keep.push_back(filled<float>({8, 64, 56, 56}, 1));
    ops::AveragePoolParams p;
    p.window.kernel_shape = {3, 3}, p.has_kernel_shape = true;
    p.window.pads = {1, 1, 1, 1}, p.window.has_pads = true;
    run = [&keep, p] { return ops::averagepool(19, keep[0], p); };
  } else if (c == "globalaveragepool-8x512x14") {
    keep.push_back(filled<float>({8, 512, 14, 14}, 1));
    run = [&keep] { return ops::globalaveragepool(1, keep[0]); };
  } else if (c == "softmax-64x1000" || c == "sigmoid-float" || c == "exp-float" || c == "lrn-1x96x55") {  // issue 32
    const Shape shape = c == "softmax-64x1000" ? Shape{64, 1000} : c == "lrn-1x96x55" ? Shape{1, 96, 55, 55} : Shape{rows, cols};
    keep.push_back(filled<float>(shape, 1));
    for (float& v : keep[0].values<float>()) v /= 100;  // [-10, 10]
    if (c == "softmax-64x1000") run = [&keep] { return ops::softmax(13, keep[0], -1); };
    else if (c == "sigmoid-float") run = [&keep] { return ops::sigmoid_op(13, keep[0]); };
    else if (c == "exp-float") run = [&keep] { return ops::exp_op(13, keep[0]); };
    else {
      ops::LrnParams p;
      p.size = 5;
      run = [&keep, p] { return ops::lrn(13, keep[0], p); };
    }
  } else if (c == "pow-float") {  // issue 32: Pow-15(X, E), a float base in (0, 10], a float exponent in [-2, 2]
    keep.push_back(filled<float>({rows, cols}, 1));
    keep.push_back(filled<float>({rows, cols}, 2));
    for (float& v : keep[0].values<float>()) v = std::fabs(v) / 100 + 0.01f;
    for (float& v : keep[1].values<float>()) v /= 500;
    run = [&keep] { return ops::pow_op(15, keep[0], keep[1], {}); };
  } else if (c == "globalmaxpool-8x512x14") {
    keep.push_back(filled<float>({8, 512, 14, 14}, 1));
    run = [&keep] { return ops::globalmaxpool(1, keep[0]); };
  } else {
    std::fprintf(stderr, "sonnx-bench: unknown case '%s' (cases: tools/benchmark/cases.txt)\n", c.c_str());
    return 2;
  }
  if (!dump.empty()) {
    std::vector<io::NamedTensor> named;
    for (auto& t : keep) named.push_back({"in" + std::to_string(named.size()), std::move(t)});
    io::write_npz(dump, named);
    return 0;
  }
  const double before = peak_mib();
  std::vector<double> ms;
  std::int64_t elements = 0;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const Tensor y = run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    elements = std::max(y.size(), keep[0].size());  // the larger of output and first input
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf("%s\t%lld\t%.3f\t%.3f\t%.1f\t%.1f\n", c.c_str(), static_cast<long long>(elements), median,
              median * 1e6 / static_cast<double>(elements), peak_mib(), before);
  return 0;
}
