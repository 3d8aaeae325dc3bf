// spec/ops/slice.md — Slice, opsets 1, 10, 11, 13.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> slice_types(int version);

// The parameters of a Slice node as given ([Slice.params]): the attributes of version 1, the inputs
// of versions 10 to 13 (nullptr when absent).
struct SliceParams {
  std::optional<std::vector<std::int64_t>> starts, ends, axes;  // version 1: the attributes
  const Tensor* starts_input = nullptr;
  const Tensor* ends_input = nullptr;
  const Tensor* axes_input = nullptr;
  const Tensor* steps_input = nullptr;
};

Tensor slice(int version, const Tensor& X, const SliceParams& p);

// The definition at one index of Y: the one element of X it moves.
Decision decide_slice(int version, const NodeValues& v, const SliceParams& p, const std::vector<std::int64_t>& j);

std::vector<Reach> reach_slice(int version, const NodeValues& v, const SliceParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
