// spec/ops/max.md — Max, opsets 1, 6, 8, 12, 13.
#pragma once
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::ops {

// The element types of Max-`version` ([Max.v1] ... [Max.v13]).
std::vector<DType> max_types(int version);

// Y = Max(X0, ..., XL) for the resolved `version` (1, 6, 8, 12 or 13). Checks every constraint and
// error condition of spec/ops/max.md first, then evaluates [Max.float.formula] / [Max.int.formula].
Tensor max(int version, const std::vector<const Tensor*>& inputs);

}  // namespace sonnx::ops
