// Generators of shapes: single shapes of rank 0..5 with dimensions biased to 0, 1 and small
// sizes; tuples of mutually broadcastable shapes built by construction; tuples that are
// deliberately not broadcastable; tuples of identical shapes and tuples that are not all
// identical; permutations. Every draw shrinks towards rank 0, dimension 1, fewer inputs.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include "core/tensor.hpp"

namespace sonnx::props::gen {

struct ShapeOpts {
  int min_rank = 0;
  int max_rank = 5;
  std::int64_t max_elements = 64;  // dimensions are lowered until the product fits
  bool allow_zero = true;          // dimensions of size 0 ([Common.tensor.empty])
};

rc::Gen<std::int64_t> dim(bool allow_zero = true);
rc::Gen<Shape> shape(ShapeOpts opts = {});

// Shapes X0..XL that broadcast to `target` ([Common.broadcast.rank] [Common.broadcast.dims]), by
// construction: draw the target, then for each input drop some leading axes and set some
// dimensions to 1; an input of full rank is kept, and every axis whose target size is not 1 keeps
// that size in at least one input — so the broadcast shape is exactly `target`.
struct BroadcastTuple {
  Shape target;
  std::vector<Shape> inputs;
};
rc::Gen<BroadcastTuple> broadcastable(int min_inputs = 1, int max_inputs = 6, ShapeOpts opts = {0, 4, 64, true});

// Shapes with at least two inputs whose padded sizes on one axis are both not 1 and differ
// ([Common.broadcast.error]); the other axes broadcast.
rc::Gen<std::vector<Shape>> not_broadcastable(int max_inputs = 6);

// L+1 copies of one shape (Max-1 and Max-6 take no broadcasting).
rc::Gen<BroadcastTuple> same_shapes(int min_inputs = 1, int max_inputs = 6, ShapeOpts opts = {0, 4, 64, true});
// At least two shapes, not all identical ([Max.err.same-shape]); some of them broadcast.
rc::Gen<std::vector<Shape>> not_all_same(int max_inputs = 6);

// A permutation of 0..n-1 (shrinks towards the identity).
rc::Gen<std::vector<std::size_t>> permutation(std::size_t n);

}  // namespace sonnx::props::gen
