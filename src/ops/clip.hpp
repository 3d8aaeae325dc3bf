// spec/ops/clip.md — Clip, opsets 1, 6, 11, 12, 13.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> clip_types(int version);

// The bounds of a node: the float attributes `min`, `max` of versions 1 and 6 (absent: nullopt), or
// the optional rank-0 inputs of versions 11 and later (absent: nullptr).
struct ClipBounds {
  std::optional<float> min_attribute, max_attribute;
  const Tensor* min_input = nullptr;
  const Tensor* max_input = nullptr;
};

// [Clip.bounds.convert] A float attribute as a value of T: exact for float and double, rounded to
// nearest, ties to even for float16 and bfloat16 (overflow to ±Inf; a NaN stays a NaN of the same sign,
// quiet, with the float's leading payload bits). The bits of the result.
std::uint64_t clip_convert_bound(float value, DType t);

// Y = Clip(X) for the resolved `version`.
Tensor clip(int version, const Tensor& X, const ClipBounds& bounds);

// The definition at one index i of Y: X[i] against the bounds, the clause that decided Y[i].
Decision decide_clip(int version, const NodeValues& v, const ClipBounds& bounds, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Clip's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_clip(int version, const NodeValues& v, const ClipBounds& bounds, const std::vector<Source>& sources);

}  // namespace sonnx::ops
