// spec/ops/cast.md — Cast, opsets 1, 6, 9, 13, 19, 21, 23, 24, 25.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// [Cast.v6] ... the element types a version accepts for X and `to` (within [Common.dtype.set]).
std::vector<DType> cast_types(int version);

// [Cast.to] The target type named by `to` (a TensorProto.DataType code); refuses string, float8 and
// every code outside [Common.dtype.set] with its clause.
DType cast_target(int version, std::int64_t to);

// Y = Cast(X, to) for the resolved `version`; `saturate` (19+) is read and has no effect ([Cast.saturate]).
Tensor cast(int version, const Tensor& X, DType to);

Decision decide_cast(int version, const NodeValues& v, const std::vector<std::int64_t>& i);
std::vector<Reach> reach_cast(int version, const NodeValues& v, const std::vector<Source>& sources);

}  // namespace sonnx::ops
