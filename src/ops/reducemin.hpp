// spec/ops/reducemin.md — ReduceMin, opsets 1, 11, 12, 13, 18, 20.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/reduce.hpp"

namespace sonnx::ops {

std::vector<DType> reducemin_types(int version);

// [ReduceMin.err.axes-input] The axes list carried by the optional `axes` input of versions 18/20.
std::vector<std::int64_t> reducemin_axes_from_input(const Tensor& axes);

// Y = ReduceMin(X) for the resolved `version`.
Tensor reduce_min(int version, const Tensor& data, const ReduceParams& params);

// The definition at one index j of Y: R(j) in row-major order, the element the fold kept, the clause.
Decision decide_reduce_min(int version, const NodeValues& v, const ReduceParams& params, const ReduceSources& sources,
                           const std::vector<std::int64_t>& j);

// [Check.golden-coverage] The situations of ReduceMin's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_reduce_min(int version, const NodeValues& v, const ReduceParams& params,
                                    const std::vector<Source>& sources);

}  // namespace sonnx::ops
