// spec/ops/min.md — Min, opsets 1, 6, 8, 12, 13.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The element types of Min-`version` ([Min.v1] ... [Min.v13]).
std::vector<DType> min_types(int version);

// Y = Min(X0, ..., XL) for the resolved `version` (1, 6, 8, 12 or 13). Checks every constraint and
// error condition of spec/ops/min.md first, then evaluates [Min.float.formula] / [Min.int.formula].
Tensor min(int version, const std::vector<const Tensor*>& inputs);

// The definition at one index i of Y: the set {Ẋm[i]}, the input the fold kept, the deciding clause.
Decision decide_min(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Min's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_min(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
