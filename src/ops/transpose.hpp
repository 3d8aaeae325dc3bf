// spec/ops/transpose.md — Transpose, opsets 1, 13, 21 (and 23, 24, 25: as 21).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> transpose_types(int version);

// Y = Transpose(X, perm) for the resolved `version`; perm absent: the reversed axes.
Tensor transpose(int version, const Tensor& X, const std::optional<std::vector<std::int64_t>>& perm);

// The definition at one index j of Y: the one element of X it moves.
Decision decide_transpose(int version, const NodeValues& v, const std::optional<std::vector<std::int64_t>>& perm,
                          const std::vector<std::int64_t>& j);

std::vector<Reach> reach_transpose(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
