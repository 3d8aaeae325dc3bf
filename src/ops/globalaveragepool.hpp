// spec/ops/globalaveragepool.md — GlobalAveragePool, opsets 1, 22.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> globalaveragepool_types(int version);

// Y = GlobalAveragePool(X): the mean of every plane ([GlobalAveragePool.float.formula]), rounded to T
// ([Acc.run]), its enclosure in Y.annex.
Tensor globalaveragepool(int version, const Tensor& X);

Decision decide_globalaveragepool(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

std::vector<Reach> reach_globalaveragepool(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
