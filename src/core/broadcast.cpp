#include "core/broadcast.hpp"

#include <algorithm>

namespace sonnx {

std::optional<Shape> broadcast_shape(const std::vector<Shape>& shapes) {
  // [Common.broadcast.rank] rank = max rank; shorter shapes are left-padded with 1s.
  std::size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (std::size_t k = 0; k < rank; ++k) {
    // [Common.broadcast.dims] dY_k = 1 if every padded dim is 1, else the common non-1 value.
    for (const Shape& s : shapes) {
      const std::size_t pad = rank - s.size();
      const std::int64_t d = k < pad ? 1 : s[k - pad];
      if (d == 1) continue;
      if (out[k] == 1) out[k] = d;
      else if (out[k] != d) return std::nullopt;  // [Common.broadcast.error]
    }
  }
  return out;
}

}  // namespace sonnx
