// spec/ops/reducemean.md — ReduceMean: the mean of X over the reduced axes.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/reduce.hpp"

namespace sonnx::ops {

std::vector<DType> reducemean_types(int version);

std::vector<std::int64_t> reducemean_axes_from_input(const Tensor& axes);

Tensor reduce_mean(int version, const Tensor& data, const ReduceParams& params);

Decision decide_reduce_mean(int version, const NodeValues& v, const ReduceParams& params, const ReduceSources& sources,
                           const std::vector<std::int64_t>& j);

std::vector<Reach> reach_reduce_mean(int version, const NodeValues& v, const ReduceParams& params,
                                    const std::vector<Source>& sources);

}  // namespace sonnx::ops
