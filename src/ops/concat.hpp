// spec/ops/concat.md — Concat, opsets 1, 4, 11, 13.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> concat_types(int version);

// Y = Concat(X_0, ..., X_L) along `axis` (absent: version 1's default 1, refused from version 4).
Tensor concat(int version, const std::vector<const Tensor*>& X, std::optional<std::int64_t> axis);

// The definition at one index of Y: the one element of one input it moves.
Decision decide_concat(int version, const NodeValues& v, std::optional<std::int64_t> axis, const std::vector<std::int64_t>& j);

std::vector<Reach> reach_concat(int version, const NodeValues& v, std::optional<std::int64_t> axis,
                                const std::vector<Source>& sources);

}  // namespace sonnx::ops
