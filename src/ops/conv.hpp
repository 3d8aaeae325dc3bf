// spec/ops/conv.md — Conv, opsets 1, 11, 22.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/window.hpp"

namespace sonnx::ops {

std::vector<DType> conv_types(int version);

// The attributes of a Conv node, as given ([Common.gr.defaults] are applied by the operator).
struct ConvParams {
  WindowAttributes window;          // kernel_shape (optional here), strides, pads, dilations, auto_pad
  bool has_kernel_shape = false;
  std::int64_t group = 1;
};

// Y = Conv(X, W[, B]) for the resolved `version` (B null when absent): the ideal of every element
// rounded to T ([Acc.run]), with its enclosure in Y.annex ([Acc.verdict]).
Tensor conv(int version, const Tensor& X, const Tensor& W, const Tensor* B, const ConvParams& p);

// The definition at one index of Y: the terms of its window, the oracle's sum, the enclosure.
Decision decide_conv(int version, const NodeValues& v, const ConvParams& p, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Conv's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_conv(int version, const NodeValues& v, const ConvParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
