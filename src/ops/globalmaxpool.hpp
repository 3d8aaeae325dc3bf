// spec/ops/globalmaxpool.md — GlobalMaxPool, opsets 1, 22.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> globalmaxpool_types(int version);

// Y = GlobalMaxPool(X) for the resolved `version`: [N, C, 1, ..., 1].
Tensor globalmaxpool(int version, const Tensor& X);

// The definition at one index of Y: the spatial set of (n, c), the element the fold kept, the clause.
Decision decide_globalmaxpool(int version, const NodeValues& v, const std::vector<std::int64_t>& j);

// [Check.golden-coverage] The situations of GlobalMaxPool's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_globalmaxpool(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
