// spec/ops/maxpool.md — MaxPool, opsets 1, 8, 10, 11, 12, 22.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> maxpool_types(int version);

// The attributes of a MaxPool node, as given (empty or absent: not given; ONNX's defaults are
// applied by the operator, [Common.gr.defaults]).
struct PoolParams {
  std::vector<std::int64_t> kernel_shape;  // required
  std::vector<std::int64_t> strides, pads, dilations;
  std::string auto_pad = "NOTSET";
  std::int64_t ceil_mode = 0, storage_order = 0;
  bool has_kernel_shape = false, has_strides = false, has_pads = false, has_dilations = false;
};

// Y (and, when `indices`, Indices) = MaxPool(X) for the resolved `version`.
std::vector<Tensor> maxpool(int version, const Tensor& X, const PoolParams& p, bool indices);

// The definition at one index of Y or of Indices (v.output_index 0 or 1): the window, the element the
// order selected, the clause that decided the value.
Decision decide_maxpool(int version, const NodeValues& v, const PoolParams& p, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of MaxPool's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_maxpool(int version, const NodeValues& v, const PoolParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
