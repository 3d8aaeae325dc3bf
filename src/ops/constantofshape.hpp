// spec/ops/constantofshape.md — ConstantOfShape, opsets 9, 20, 21, 23, 24, 25.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// [ConstantOfShape.v9] [ConstantOfShape.v20] the element types `value` may have.
std::vector<DType> constantofshape_types(int version);

// Y = ConstantOfShape(input; value) for the resolved `version`; `value` nullptr: the default, a float +0.
Tensor constantofshape(int version, const Tensor& input, const Tensor* value);

// The element type of Y: value's, else float ([ConstantOfShape.value]).
DType constantofshape_dtype(const Tensor* value);

Decision decide_constantofshape(int version, const NodeValues& v, const Tensor* value, const std::vector<std::int64_t>& i);
std::vector<Reach> reach_constantofshape(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
