// spec/ops/pow.md — Pow, opsets 1, 7, 12, 13, 15.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/arith.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The base's types T and the exponent's types T1 of a version ([Pow.v1] ... [Pow.v15]).
std::vector<DType> pow_types(int version);
std::vector<DType> pow_exponent_types(int version, DType base);
// Z = Pow(X, E) for the resolved `version` (`legacy`: version 1's broadcast and axis), with the annex of
// [Acc.verdict] for a float base.
Tensor pow_op(int version, const Tensor& X, const Tensor& E, const LegacyBroadcast& legacy);
// The definition at one index of Z ([Pow.float.formula], [Pow.bound], [Pow.special], [Pow.int.formula]).
Decision decide_pow(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of Pow's clauses, each with a pair (x, y) that reaches it.
std::vector<Reach> reach_pow(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources);

}  // namespace sonnx::ops
