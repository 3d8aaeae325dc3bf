#include "core/index.hpp"

namespace sonnx {

Strides row_major_strides(const Shape& shape) {
  Strides s(shape.size(), 0);
  std::int64_t step = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    s[k] = step;
    step *= shape[k] == 0 ? 1 : shape[k];
  }
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

IndexWalker::IndexWalker(const Shape& shape, std::vector<Strides> maps)
    : shape_(shape), maps_(maps.size()), strides_(shape.size() * maps.size(), 0), index_(shape.size(), 0),
      offsets_(maps.size(), 0) {
  for (std::size_t k = 0; k < shape.size(); ++k)
    for (std::size_t m = 0; m < maps_; ++m) strides_[k * maps_ + m] = maps[m][k];
  reset();
}

void IndexWalker::reset() {
  std::fill(index_.begin(), index_.end(), 0);
  std::fill(offsets_.begin(), offsets_.end(), 0);
  done_ = false;
  for (std::int64_t d : shape_)
    if (d == 0) done_ = true;  // [Common.tensor.empty] no index at all
}

}  // namespace sonnx
