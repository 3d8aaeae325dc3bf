// spec/ops/sum.md — Sum: the element-wise sum of its inputs, broadcast from version 8.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> sum_types(int version);

Tensor sum(int version, const std::vector<const Tensor*>& inputs);

Decision decide_sum(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

std::vector<Reach> reach_sum(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
