// spec/ops/sub.md — Sub, every version: the typed entry points over ops/arith.hpp.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/arith.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// C = Sub(A, B) for the resolved `version`, with the legacy attributes of versions 1 and 6.
Tensor sub(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy);
Decision decide_sub(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i);
std::vector<Reach> reach_sub(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources);

}  // namespace sonnx::ops
