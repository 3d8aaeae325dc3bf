// The one copy of the data-movement operators (spec/ops/concat.md, transpose.md, gather.md, slice.md):
// each output element is one input element, bit for bit. A walk names, for the output in row-major
// order, the input element each output element copies: an input offset that is affine in the output
// index (Transpose, Slice), or a sequence of blocks (Concat, Gather, which copy runs directly).
// Copies move bytes by the element's width: no value is read as a number, so NaN payloads, -0 and
// signalling NaNs are moved unchanged, and the bits never depend on the ISA level or thread count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// Y[j] = X[base + sum_t j_t * stride[t]] for every index j of Y (of `shape`), in elements; strides may
// be negative (Slice's negative steps) or zero-free permutations (Transpose).
struct Walk {
  Shape shape;                      // Y's shape
  std::vector<std::int64_t> stride; // the input offset's step along each axis of Y
  std::int64_t base = 0;            // the input offset of Y's first element
};

// Copies X into Y along `w` (Y already has w.shape and X's dtype). The walk's axes are first merged
// where the input is contiguous across them; then the innermost run is copied with memcpy when the
// input's innermost stride is 1, by a blocked two-axis copy (tiles that stay in the first-level cache)
// when another axis has input stride 1 (a transpose of the last two axes), else element by element.
void copy_walk(const Tensor& X, Tensor& Y, const Walk& w);

// Copies `count` elements of width `width` bytes from x to y.
void copy_elements(const std::byte* x, std::byte* y, std::int64_t count, int width);

// The Decision of an output element that is one input element ([Check.bitwise]): the set of that one
// member, kept bit for bit. `clauses` the clauses that decided it (the formula's first); `reason` why.
// Checks the output's bits against the member's (disagree otherwise).
Decision moved_decision(const NodeValues& v, const std::vector<std::int64_t>& j, Member m, std::string set_name,
                        std::vector<std::string> clauses, std::string parameters);

// The reach of a moving operator's formula: the value of one member reaches the output unchanged, so
// any witness written into it is reachable when the member's input is Free.
Reach moved_reach(const std::string& clause, DType dtype, Source source, const std::string& input_name);

// The rank-1 int32 or int64 values of a parameter or index tensor, widened to int64.
std::vector<std::int64_t> int_values(const Tensor& t);

// "0, 2, 1"
std::string join_ints(const std::vector<std::int64_t>& v);

// Whether `t` is one of `allowed`.
bool accepts(const std::vector<DType>& allowed, DType t);

}  // namespace sonnx::ops
