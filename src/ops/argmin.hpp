// spec/ops/argmin.md — ArgMin, opsets 1, 11, 12, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/arg.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> argmin_types(int version);

// Y = ArgMin(X) for the resolved `version`: int64 positions.
Tensor argmin(int version, const Tensor& data, const ArgParams& params);

// The definition at one index j of Y: the slice, the position the order selected, the clause.
Decision decide_argmin(int version, const NodeValues& v, const ArgParams& params, const std::vector<std::int64_t>& j);

// [Check.golden-coverage] The situations of ArgMin's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_argmin(int version, const NodeValues& v, const ArgParams& params, const std::vector<Source>& sources);

}  // namespace sonnx::ops
