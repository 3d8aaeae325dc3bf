// spec/ops/lrn.md — LRN, opsets 1, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// [LRN.attributes] the attributes with ONNX's defaults; size has none (required).
struct LrnParams {
  float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
  std::int64_t size = 0;
};

std::vector<DType> lrn_types(int version);
// Y = LRN(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor lrn(int version, const Tensor& X, const LrnParams& p);
// The definition at one index of Y ([LRN.float.formula], [LRN.bound], [LRN.edge]).
Decision decide_lrn(int version, const NodeValues& v, const LrnParams& p, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of LRN's clauses the node can reach.
std::vector<Reach> reach_lrn(int version, const NodeValues& v, const LrnParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
