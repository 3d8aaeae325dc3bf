// spec/ops/log.md — Log, opsets 1, 6, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> log_types(int version);
// Y = Log(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor log_op(int version, const Tensor& X);
// The definition at one index of Y ([Log.float.formula], [Log.bound], [Log.edge]).
Decision decide_log(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Log's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_log(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
