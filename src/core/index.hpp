// [Common.tensor.index] Tensor indices and the output-driven index walker.
// [Common.broadcast.map] The index map of broadcasting, as strides over the output axes.
//
// An operator walks the indices i of its OUTPUT in row-major order; each input is read through a
// map: a stride per output axis, so that the input offset of i is sum_k i_k * stride_k. A stride
// of 0 is the f(a, B, C) = 0 of broadcasting (the input dimension is 1): no input is ever copied.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx {

using Strides = std::vector<std::int64_t>;

// Row-major strides of `shape`: offset(i) = sum_k i_k * strides_k.
Strides row_major_strides(const Shape& shape);

// [Common.broadcast.map] Strides over the axes of `output` that read `input` as its broadcast
// form: input axis k' = k - (rank(output) - rank(input)) is read with index f(i_k, dX_k', dY_k),
// i.e. stride 0 when dX_k' = 1 < dY_k and the input's own stride otherwise; the prepended axes
// (k < rank(output) - rank(input)) have stride 0. `input` must broadcast to `output`.
Strides broadcast_strides(const Shape& input, const Shape& output);

// Walks every index of `shape` in row-major order, keeping for each map m the offset
// sum_k i_k * maps[m][k]. A shape with a zero dimension has no index (done() at once); rank 0
// has exactly one index, ().
class IndexWalker {
 public:
  IndexWalker(const Shape& shape, std::vector<Strides> maps);
  bool done() const { return done_; }
  const std::vector<std::int64_t>& index() const { return index_; }
  std::int64_t offset(std::size_t m) const { return offsets_[m]; }
  // Back to the first index, all offsets 0.
  void reset();
  // The next index in row-major order: an odometer that increments the last axis and carries
  // into the previous ones, moving each map's offset by its stride on that axis.
  void next() {
    for (std::size_t k = index_.size(); k-- > 0;) {
      const std::int64_t* stride = &strides_[k * maps_];
      if (++index_[k] < shape_[k]) {
        for (std::size_t m = 0; m < maps_; ++m) offsets_[m] += stride[m];
        return;
      }
      for (std::size_t m = 0; m < maps_; ++m) offsets_[m] -= stride[m] * (shape_[k] - 1);
      index_[k] = 0;
    }
    done_ = true;  // carried out of axis 0 (or rank 0: its single index was visited)
  }

 private:
  Shape shape_;
  std::size_t maps_;
  std::vector<std::int64_t> strides_;  // strides_[k * maps_ + m] = maps[m][k]
  std::vector<std::int64_t> index_;
  std::vector<std::int64_t> offsets_;
  bool done_ = false;
};

}  // namespace sonnx
