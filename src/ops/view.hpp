// spec/ops/reshape.md, flatten.md, squeeze.md, unsqueeze.md, identity.md, dropout.md — the operators
// whose output holds the input's elements in the input's row-major order, with another shape (or the
// same one): Y[i] = X[off⁻¹(off(i))], no element changed. Each of them computes its output shape
// (its own named step, with its own errors) and returns a view of X with that shape: the output shares
// X's storage ([Common.tensor.storage]), nothing is copied.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The element types each version accepts.
std::vector<DType> reshape_types(int version);
std::vector<DType> flatten_types(int version);
std::vector<DType> squeeze_types(int version);  // Squeeze and Unsqueeze
std::vector<DType> identity_types(int version);
std::vector<DType> dropout_types(int version);

// The `shape` input of Reshape-5 and later, the `axes` input of Squeeze-13 and Unsqueeze-13 and later:
// an int64 tensor of rank 1 (`op`: "Reshape", "Squeeze" or "Unsqueeze", for the clause).
std::vector<std::int64_t> reshape_shape_input(const Tensor& shape);
std::vector<std::int64_t> squeeze_axes_input(const Tensor& axes);
std::vector<std::int64_t> unsqueeze_axes_input(const Tensor& axes);

// [Reshape.shape] The output shape of Reshape for data of shape `in` and the requested `shape`.
Shape reshape_output_shape(const Shape& in, const std::vector<std::int64_t>& shape, bool allowzero);
Tensor reshape(int version, const Tensor& data, const std::vector<std::int64_t>& shape, bool allowzero);

// [Flatten.shape] (d0 ... d(axis-1), d(axis) ... d(r-1)) -> (product of the first, product of the rest).
Shape flatten_output_shape(int version, const Shape& in, std::int64_t axis);
Tensor flatten(int version, const Tensor& input, std::int64_t axis);

// [Squeeze.shape] `axes` nullopt: every axis of size 1 is removed.
Shape squeeze_output_shape(int version, const Shape& in, const std::optional<std::vector<std::int64_t>>& axes);
Tensor squeeze(int version, const Tensor& data, const std::optional<std::vector<std::int64_t>>& axes);

// [Unsqueeze.shape]
Shape unsqueeze_output_shape(int version, const Shape& in, const std::vector<std::int64_t>& axes);
Tensor unsqueeze(int version, const Tensor& data, const std::vector<std::int64_t>& axes);

Tensor identity(int version, const Tensor& input);

// Dropout in inference: what decides the mode, as the node gives it.
struct DropoutParams {
  std::int64_t is_test = 0;                // versions 1 and 6
  const Tensor* ratio = nullptr;           // versions 12 and later: the optional input
  const Tensor* training_mode = nullptr;   // versions 12 and later: the optional input
};
// Y (shared with X) and, when `mask_wanted`, the mask (all true).
std::vector<Tensor> dropout(int version, const Tensor& data, const DropoutParams& p, bool mask_wanted);

// The definition at one index i of an output of these operators: Y[i] is X's element of the same
// row-major offset (`formula` names the operator's clause); the Dropout mask (output 1) is the constant true.
Decision decide_view(const char* formula, const NodeValues& v, const std::vector<std::int64_t>& i);
// [Check.golden-coverage] One situation per output: the copied element (any value of X reaches Y).
std::vector<Reach> reach_view(const char* formula, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
