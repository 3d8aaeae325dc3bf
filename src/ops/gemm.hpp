// spec/ops/gemm.md — Gemm, opsets 1, 6, 7, 9, 11, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> gemm_types(int version);

// The attributes of a Gemm node with ONNX's defaults ([Common.gr.defaults]).
struct GemmParams {
  double alpha = 1.0, beta = 1.0;  // binary32 attribute values, exact as doubles
  std::int64_t trans_a = 0, trans_b = 0, broadcast = 0;
};

// Y = Gemm(A, B[, C]) for the resolved `version` (C null when absent): float types by the accuracy
// model (the ideal rounded to T, its enclosure in Y.annex), integer types exactly.
Tensor gemm(int version, const Tensor& A, const Tensor& B, const Tensor* C, const GemmParams& p);

// The definition at one index of Y: the terms α·A'[i, k]·B'[k, j] and β·C[i, j], the sum, the enclosure.
Decision decide_gemm(int version, const NodeValues& v, const GemmParams& p, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Gemm's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_gemm(int version, const NodeValues& v, const GemmParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
