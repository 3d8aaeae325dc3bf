// spec/ops/mean.md — Mean: the element-wise mean of its inputs, broadcast from version 8.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> mean_types(int version);

Tensor mean(int version, const std::vector<const Tensor*>& inputs);

Decision decide_mean(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

std::vector<Reach> reach_mean(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
