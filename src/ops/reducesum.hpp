// spec/ops/reducesum.md — ReduceSum: the sum of X over the reduced axes.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/reduce.hpp"

namespace sonnx::ops {

std::vector<DType> reducesum_types(int version);

std::vector<std::int64_t> reducesum_axes_from_input(const Tensor& axes);

Tensor reduce_sum(int version, const Tensor& data, const ReduceParams& params);

Decision decide_reduce_sum(int version, const NodeValues& v, const ReduceParams& params, const ReduceSources& sources,
                           const std::vector<std::int64_t>& j);

std::vector<Reach> reach_reduce_sum(int version, const NodeValues& v, const ReduceParams& params,
                                    const std::vector<Source>& sources);

}  // namespace sonnx::ops
