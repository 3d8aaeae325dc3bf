// spec/ops/tanh.md — Tanh, opsets 1, 6, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> tanh_types(int version);
// Y = Tanh(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor tanh_op(int version, const Tensor& X);
// The definition at one index of Y ([Tanh.float.formula], [Tanh.bound], [Tanh.edge]).
Decision decide_tanh(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Tanh's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_tanh(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
