// spec/ops/sqrt.md — Sqrt, opsets 1, 6, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> sqrt_types(int version);
// Y = Sqrt(X) for the resolved `version`: correctly rounded, bit for bit ([Sqrt.float.formula]).
Tensor sqrt_op(int version, const Tensor& X);
// The definition at one index of Y.
Decision decide_sqrt(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Sqrt's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_sqrt(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
