// spec/ops/relu.md — Relu, opsets 1, 6, 13, 14.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> relu_types(int version);

// Y = Relu(X) for the resolved `version`.
Tensor relu(int version, const Tensor& X);

// The definition at one index i of Y: X[i] against +0, and the clause that decided Y[i].
Decision decide_relu(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Relu's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_relu(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
