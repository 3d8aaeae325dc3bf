// spec/ops/hardmax.md — Hardmax, opsets 1, 11, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::ops {

std::vector<DType> hardmax_types(int version);
// [Common.gr.defaults] the default axis: 1 for versions 1 and 11, -1 for version 13.
std::int64_t hardmax_default_axis(int version);

// Y = Hardmax(X) for the resolved `version`.
Tensor hardmax(int version, const Tensor& input, std::int64_t axis);

}  // namespace sonnx::ops
