// spec/ops/batchnormalization.md — BatchNormalization, opsets 1, 6, 7, 9, 14, 15, inference only.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The attributes of a BatchNormalization node with ONNX's defaults ([Common.gr.defaults]).
struct BatchNormParams {
  double epsilon = static_cast<double>(1e-5f);  // a binary32 attribute, exact as a double
  std::int64_t is_test = 0, spatial = 1, training_mode = 0;
};

// [BatchNormalization.mode] The training mode is refused ([BatchNormalization.err.unsupported-training]):
// `training_mode` not 0 (versions 14, 15; checked when the model is loaded), or `outputs` > 1.
void check_batchnorm_mode(int version, const BatchNormParams& p, std::size_t outputs);

// Y = BatchNormalization(X, scale, B, mean, var) for the resolved `version`: the ideal rounded to T
// ([Acc.run]), its enclosure in Y.annex ([BatchNormalization.float.formula]).
Tensor batch_normalization(int version, const Tensor& X, const Tensor& scale, const Tensor& B, const Tensor& mean,
                           const Tensor& var, const BatchNormParams& p, std::size_t outputs = 1);

// The definition at one index of Y: the terms a·X[i], −a·mean, B, the enclosure.
Decision decide_batch_normalization(int version, const NodeValues& v, const BatchNormParams& p,
                                    const std::vector<std::int64_t>& index);

// [Check.golden-coverage] The situations of BatchNormalization's clauses the node can reach.
std::vector<Reach> reach_batch_normalization(int version, const NodeValues& v, const BatchNormParams& p,
                                             const std::vector<Source>& sources);

}  // namespace sonnx::ops
