// spec/ops/shape.md — Shape, opsets 1, 13, 15, 19, 21, 23, 24, 25.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// [Shape.v15] the optional attributes `start` and `end` (absent: 0 and the rank).
struct ShapeParams {
  std::optional<std::int64_t> start, end;
};

// [Shape.range] The dimensions of X that Y lists: [first, last), after the negative and clamped bounds.
std::pair<std::int64_t, std::int64_t> shape_range(std::int64_t rank, const ShapeParams& p);

Tensor shape(int version, const Tensor& X, const ShapeParams& p);

Decision decide_shape(int version, const NodeValues& v, const ShapeParams& p, const std::vector<std::int64_t>& i);
std::vector<Reach> reach_shape(int version, const NodeValues& v, const ShapeParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
