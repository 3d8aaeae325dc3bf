// spec/ops/max.md — Max, opsets 1, 6, 8, 12, 13.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The element types of Max-`version` ([Max.v1] ... [Max.v13]).
std::vector<DType> max_types(int version);

// Y = Max(X0, ..., XL) for the resolved `version` (1, 6, 8, 12 or 13). Checks every constraint and
// error condition of spec/ops/max.md first, then evaluates [Max.float.formula] / [Max.int.formula].
Tensor max(int version, const std::vector<const Tensor*>& inputs);

// The definition at one index i of Y (`v` holds the inputs and the evaluated Y): the set
// {Ẋm[i]}, the input the fold kept and the clause that decided Y[i].
Decision decide_max(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Max's clauses that the node holding `v` can reach when
// the values of input m come from sources[m], and the witness that builds each.
std::vector<Reach> reach_max(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
