// spec/ops/reducemax.md — ReduceMax, opsets 1, 11, 12, 13, 18, 20.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/reduce.hpp"

namespace sonnx::ops {

std::vector<DType> reducemax_types(int version);

// The node's parameters and where they came from (ops/reduce.hpp).
using ReduceMaxParams = ReduceParams;
using ReduceMaxSources = ReduceSources;

// [ReduceMax.err.axes-input] The axes list carried by the optional `axes` input of versions 18/20:
// an int64 tensor of rank 1.
std::vector<std::int64_t> axes_from_input(const Tensor& axes);

// Y = ReduceMax(X) for the resolved `version`.
Tensor reduce_max(int version, const Tensor& data, const ReduceMaxParams& params);

// The definition at one index j of Y (`v` holds X, the evaluated Y and their names): R(j) in
// row-major order, the element the fold kept and the clause that decided Y[j].
Decision decide_reduce_max(int version, const NodeValues& v, const ReduceMaxParams& params,
                           const ReduceMaxSources& sources, const std::vector<std::int64_t>& j);

// [Check.golden-coverage] The situations of ReduceMax's clauses that the node holding `v` can reach
// when the values of X come from sources[0], and the witness that builds each.
std::vector<Reach> reach_reduce_max(int version, const NodeValues& v, const ReduceMaxParams& params,
                                    const std::vector<Source>& sources);

}  // namespace sonnx::ops
