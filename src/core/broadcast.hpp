// spec/common/broadcast.md: the shape of multidirectional broadcasting.
#pragma once
#include <optional>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx {

// [Common.broadcast.rank] [Common.broadcast.dims] The common shape of `shapes`, or nullopt when
// [Common.broadcast.error] holds (some padded dimension is neither 1 nor the output dimension).
std::optional<Shape> broadcast_shape(const std::vector<Shape>& shapes);

}  // namespace sonnx
