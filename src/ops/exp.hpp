// spec/ops/exp.md — Exp, opsets 1, 6, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> exp_types(int version);
// Y = Exp(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor exp_op(int version, const Tensor& X);
// The definition at one index of Y ([Exp.float.formula], [Exp.bound], [Exp.edge]).
Decision decide_exp(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Exp's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_exp(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
