#include "core/index.hpp"

#include <algorithm>

#include "core/extent.hpp"

namespace sonnx {

Strides row_major_strides(const Shape& shape) {
  Strides s(shape.size(), 0);
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return s;  // [Common.tensor.empty]
  for (std::size_t k = 0; k < shape.size(); ++k)  // s_k = d_{k+1} * ... * d_{r-1}
    s[k] = checked_product(std::span(shape).subspan(k + 1), "the strides of shape " + to_string(shape));
  return s;
}

Strides broadcast_strides(const Shape& input, const Shape& output) {
  const std::size_t pad = output.size() - input.size();
  const Strides own = row_major_strides(input);
  Strides s(output.size(), 0);  // prepended axes: stride 0 ([Common.broadcast.rank])
  for (std::size_t k = pad; k < output.size(); ++k) {
    const std::int64_t B = input[k - pad], C = output[k];
    s[k] = (B == C) ? own[k - pad] : 0;  // f(a, B, C) = a if B = C, else 0
  }
  return s;
}

std::int64_t offset_of(const std::vector<std::int64_t>& index, const Strides& strides) {
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < index.size(); ++k) offset += index[k] * strides[k];
  return offset;
}

std::vector<std::int64_t> index_of(const Shape& shape, std::int64_t offset) {
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 0) break;
    index[k] = offset % shape[k];
    offset /= shape[k];
  }
  return index;
}

RunWalker::RunWalker(const Shape& shape, const std::vector<Strides>& maps)
    : maps_(maps.size()), offset_(maps.size(), 0), step_(maps.size(), 0) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {  // [Common.tensor.empty] no index
    done_ = true;
    return;
  }
  // Axes from the innermost out: drop size-1 axes, merge an axis into the group inside it when
  // every map allows it.
  struct Axis {
    std::int64_t dim;
    std::vector<std::int64_t> stride;
  };
  std::vector<Axis> merged;  // innermost first
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 1) continue;
    Axis a{shape[k], std::vector<std::int64_t>(maps_)};
    for (std::size_t m = 0; m < maps_; ++m) a.stride[m] = maps[m][k];
    if (!merged.empty()) {
      Axis& inner = merged.back();
      bool joins = true;
      for (std::size_t m = 0; m < maps_ && joins; ++m) {
        std::int64_t span = 0;
        joins = !__builtin_mul_overflow(inner.stride[m], inner.dim, &span) && a.stride[m] == span;
      }
      if (joins) {
        inner.dim = checked_mul(inner.dim, a.dim, "the index space " + to_string(shape));
        continue;
      }
    }
    merged.push_back(std::move(a));
  }
  if (merged.empty()) return;  // one run of one index: rank 0, or only size-1 axes
  length_ = merged.front().dim;
  step_ = merged.front().stride;
  for (std::size_t g = merged.size(); g-- > 1;) {  // outer axes, outermost first
    dims_.push_back(merged[g].dim);
    strides_.insert(strides_.end(), merged[g].stride.begin(), merged[g].stride.end());
  }
  index_.assign(dims_.size(), 0);
}

}  // namespace sonnx
