// spec/ops/hardsigmoid.md — HardSigmoid, opsets 1, 6, 22.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

struct HardSigmoidParams {
  float alpha = 0.2f, beta = 0.5f;  // [HardSigmoid.attributes] ONNX's defaults
};

std::vector<DType> hardsigmoid_types(int version);
// Y = HardSigmoid(X) for the resolved `version`, with the annex of [Acc.verdict].
Tensor hardsigmoid(int version, const Tensor& X, const HardSigmoidParams& p);
// The definition at one index of Y ([HardSigmoid.float.formula], [HardSigmoid.bound]).
Decision decide_hardsigmoid(int version, const NodeValues& v, const HardSigmoidParams& p, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] The situations of HardSigmoid's clauses, each with a value of X that reaches it.
std::vector<Reach> reach_hardsigmoid(int version, const NodeValues& v, const HardSigmoidParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
