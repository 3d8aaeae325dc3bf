// spec/ops/div.md — Div, every version: the typed entry points over ops/arith.hpp.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/arith.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// C = Div(A, B) for the resolved `version`, with the legacy attributes of versions 1 and 6.
Tensor div(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy);
Decision decide_div(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i);
std::vector<Reach> reach_div(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources);

}  // namespace sonnx::ops
