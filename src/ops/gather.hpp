// spec/ops/gather.md — Gather, opsets 1, 11, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> gather_types(int version);

// Y = Gather(X, I) along `axis` for the resolved `version`.
Tensor gather(int version, const Tensor& X, const Tensor& I, std::int64_t axis);

// The definition at one index of Y: the one element of X it moves.
Decision decide_gather(int version, const NodeValues& v, std::int64_t axis, const std::vector<std::int64_t>& j);

std::vector<Reach> reach_gather(int version, const NodeValues& v, std::int64_t axis, const std::vector<Source>& sources);

}  // namespace sonnx::ops
