// [Common.tensor.index] Tensor indices, and the one walker of index spaces.
// [Common.broadcast.map] The index map of broadcasting, as strides over the output axes.
//
// An operator walks the indices of an index space (its output's, or its input's for a reduction)
// in row-major order; each operand is read through a map: one stride per axis of the space, so
// that the operand's offset of index i is sum_k i_k * stride_k. A stride of 0 is the
// f(a, B, C) = 0 of broadcasting (the operand's dimension is 1): no operand is ever copied.
//
// The walker hands out RUNS, not elements: a run is a stretch of consecutive indices along the
// innermost axis (after merging axes, below), and within a run every operand advances by one
// constant stride. Kernels loop over a run with that stride, a loop the compiler can vectorise;
// the odometer only moves between runs.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx {

using Strides = std::vector<std::int64_t>;

// Row-major strides of `shape` ([Common.tensor.index]): s_k = d_{k+1} * ... * d_{r-1}, so that
// off(i) = sum_k i_k * s_k. An empty shape has no index, so no offset is ever formed from its
// strides; they are all 0 (its products need not be representable: [Common.tensor.empty]).
Strides row_major_strides(const Shape& shape);

// [Common.broadcast.map] Strides over the axes of `output` that read `input` as its broadcast
// form: input axis k' = k - (rank(output) - rank(input)) is read with index f(i_k, dX_k', dY_k),
// i.e. stride 0 when dX_k' = 1 < dY_k and the input's own stride otherwise; the prepended axes
// (k < rank(output) - rank(input)) have stride 0. `input` must broadcast to `output`.
Strides broadcast_strides(const Shape& input, const Shape& output);

// The offset sum_k index_k * strides_k of one index.
std::int64_t offset_of(const std::vector<std::int64_t>& index, const Strides& strides);
// The tensor index of row-major offset `offset` in `shape` (the inverse of off()).
std::vector<std::int64_t> index_of(const Shape& shape, std::int64_t offset);

// Walks the index space `shape` in row-major order, run by run, with one stride map per operand.
//
// Before walking, axes of size 1 are dropped (their index is always 0) and two adjacent axes k,
// k+1 are merged into one of size d_k * d_{k+1} when every map has stride_k = stride_{k+1} *
// d_{k+1} (the pair is then read as one axis by every operand: contiguous trailing axes, a
// broadcast block, a reduced block, ...). Merging keeps the row-major order of the indices, so a
// walk visits exactly the indices of `shape`, in row-major order. A space with a zero dimension
// has no run; rank 0 (or only size-1 axes) has one run of length 1.
class RunWalker {
 public:
  RunWalker(const Shape& shape, const std::vector<Strides>& maps);
  bool done() const { return done_; }
  std::int64_t length() const { return length_; }                  // indices in each run
  std::int64_t stride(std::size_t m) const { return step_[m]; }    // map m's step along a run
  std::int64_t offset(std::size_t m) const { return offset_[m]; }  // map m's offset at the run's start
  // The next run: an odometer over the outer (merged) axes that carries into the previous ones.
  void next() {
    for (std::size_t k = dims_.size(); k-- > 0;) {
      const std::int64_t* s = &strides_[k * maps_];
      if (++index_[k] < dims_[k]) {
        for (std::size_t m = 0; m < maps_; ++m) offset_[m] += s[m];
        return;
      }
      for (std::size_t m = 0; m < maps_; ++m) offset_[m] -= s[m] * (dims_[k] - 1);
      index_[k] = 0;
    }
    done_ = true;  // carried out of the first axis (or the only run was visited)
  }

 private:
  std::size_t maps_;
  std::vector<std::int64_t> dims_;     // outer axes after merging (the run's axis excluded)
  std::vector<std::int64_t> strides_;  // strides_[k * maps_ + m]: map m's stride on outer axis k
  std::vector<std::int64_t> index_;    // position on the outer axes
  std::vector<std::int64_t> offset_;   // each map's offset at the current run's start
  std::vector<std::int64_t> step_;     // each map's stride along the run
  std::int64_t length_ = 1;
  bool done_ = false;
};

}  // namespace sonnx
