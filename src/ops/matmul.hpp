// spec/ops/matmul.md — MatMul, opsets 1, 9, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> matmul_types(int version);

// Y = MatMul(A, B) for the resolved `version`: numpy.matmul's shapes ([MatMul.shape]); float types by
// the accuracy model (the ideal rounded to T, its enclosure in Y.annex), integer types exactly.
Tensor matmul(int version, const Tensor& A, const Tensor& B);

// The definition at one index of Y: the terms A[.., i, k]·B[.., k, j], their sum, the enclosure.
Decision decide_matmul(int version, const NodeValues& v, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of MatMul's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_matmul(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
