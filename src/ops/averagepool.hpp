// spec/ops/averagepool.md — AveragePool, opsets 1, 7, 10, 11, 19, 22; and the evaluation of a mean over
// windows that GlobalAveragePool (spec/ops/globalaveragepool.md) shares.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/window.hpp"

namespace sonnx::ops {

std::vector<DType> averagepool_types(int version);

// The attributes of an AveragePool node, as given ([Common.gr.defaults] are applied by the operator).
struct AveragePoolParams {
  WindowAttributes window;  // kernel_shape (required), strides, pads, dilations, auto_pad, ceil_mode
  bool has_kernel_shape = false;
  std::int64_t count_include_pad = 0;
};

// Y = AveragePool(X) for the resolved `version`: the ideal of every element rounded to T ([Acc.run]),
// its enclosure in Y.annex ([Acc.verdict]).
Tensor averagepool(int version, const Tensor& X, const AveragePoolParams& p);

// The definition at one index of Y: the members of its window, the divisor, the oracle's mean, the enclosure.
Decision decide_averagepool(int version, const NodeValues& v, const AveragePoolParams& p, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of AveragePool's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_averagepool(int version, const NodeValues& v, const AveragePoolParams& p,
                                     const std::vector<Source>& sources);

// The windows of a mean: MaxPool's geometry (ops/window.hpp) over N·C planes, whether the divisor counts
// the positions in the padding ([AveragePool.divisor]), and the clause of the formula. GlobalAveragePool
// is one window per plane, the kernel the spatial shape ([AveragePool.prop.global]).
struct AverageWindows : Geometry {
  std::int64_t planes = 0;
  bool count_pads = false;
  const char* clause = "";  // "AveragePool.float.formula", "GlobalAveragePool.float.formula"
  const char* op = "";
};

// Y = (1/d)·Σ over each window ([AveragePool.float.formula]), run by run; Y.annex the enclosures.
Tensor average_windows(const Tensor& X, const AverageWindows& g, const Shape& y_shape);
// The definition at one index (n, c, o...) of Y.
Decision decide_average(const NodeValues& v, const AverageWindows& g, const std::vector<std::int64_t>& i,
                        const std::string& parameters, std::vector<std::string> more_clauses);
// [Acc.situations] the witnesses for a window of the node's largest number of members.
std::vector<Reach> reach_average(const NodeValues& v, const AverageWindows& g, const std::vector<Source>& sources);

}  // namespace sonnx::ops
