// spec/ops/reducemax.md — ReduceMax, opsets 1, 11, 12, 13, 18, 20.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::ops {

std::vector<DType> reducemax_types(int version);

struct ReduceMaxParams {
  // The axes list: the `axes` attribute (versions 1-13) or the values of the `axes` input
  // (versions 18, 20); nullopt when absent.
  std::optional<std::vector<std::int64_t>> axes;
  std::int64_t keepdims = 1;              // [Common.gr.defaults] default 1
  std::int64_t noop_with_empty_axes = 0;  // versions 18, 20 only; default 0
};

// [ReduceMax.err.axes-input] The axes list carried by the optional `axes` input of versions 18/20:
// an int64 tensor of rank 1.
std::vector<std::int64_t> axes_from_input(const Tensor& axes);

// Y = ReduceMax(X) for the resolved `version`.
Tensor reduce_max(int version, const Tensor& data, const ReduceMaxParams& params);

}  // namespace sonnx::ops
