// spec/ops/sigmoid.md — Sigmoid, opsets 1, 6, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> sigmoid_types(int version);
// Y = Sigmoid(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor sigmoid_op(int version, const Tensor& X);
// The definition at one index of Y ([Sigmoid.float.formula], [Sigmoid.bound], [Sigmoid.edge]).
Decision decide_sigmoid(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Sigmoid's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_sigmoid(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
