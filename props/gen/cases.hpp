// Whole operator cases: a version, a dtype of that version, shapes, attributes and the input
// tensors, drawn in dependent order (version -> dtype -> shapes -> attributes -> values), valid by
// construction. Each case also carries what the construction guarantees (the broadcast shape of
// Max inputs, the set of axes ReduceMax reduces) so that properties need not recompute it.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "core/tensor.hpp"
#include "gen/shapes.hpp"
#include "gen/spec_facts.hpp"
#include "ops/reducemax.hpp"

namespace sonnx::props {

// Which values the tensors of a case hold.
enum class Values {
  Edge,   // edge-biased, NaN included (gen::element)
  NoNaN,  // edge-biased, no NaN
  Zeros,  // mostly ±0 with a few values below them (float types only): ties of signed zeros
  NaNs,   // at least one NaN per tensor likely: NaNs of several payloads among ordinary values
};

struct MaxCase {
  int version = 13;
  DType dtype = DType::Float;
  Shape output;                // the broadcast shape of the inputs, by construction
  std::vector<Tensor> inputs;  // X0 .. XL
  std::vector<const Tensor*> pointers() const;
};

struct ReduceMaxCase {
  int version = 18;
  Tensor data;
  std::vector<bool> mask;  // the axes the listing names (normalised), by construction
  std::optional<std::vector<std::int64_t>> axes;  // as passed: nullopt = absent
  std::int64_t keepdims = 1;
  std::int64_t noop_with_empty_axes = 0;
  ops::ReduceMaxParams params() const;
  // [ReduceMax.axes.default] [ReduceMax.axes.noop]: the reduced axes, or nullopt when Y = X.
  std::optional<std::vector<bool>> reduced() const;
};

struct HardmaxCase {
  int version = 13;
  Tensor input;
  std::int64_t axis = -1;
};

namespace gen {

struct MaxOpts {
  std::vector<int> versions = kMaxVersions;
  int min_inputs = 1, max_inputs = 6;
  Values values = Values::Edge;
};
rc::Gen<MaxCase> max_case(MaxOpts opts = {});

struct ReduceMaxOpts {
  std::vector<int> versions = kReduceMaxVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {0, 5, 64, true};
  bool allow_noop = true;       // versions 18+: noop_with_empty_axes may be 1
  bool allow_absent = true;     // axes may be absent / empty
  std::vector<DType> only = {};  // if not empty: dtypes restricted to these
};
rc::Gen<ReduceMaxCase> reducemax_case(ReduceMaxOpts opts = {});

struct HardmaxOpts {
  std::vector<int> versions = kHardmaxVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {1, 5, 64, true};
};
rc::Gen<HardmaxCase> hardmax_case(HardmaxOpts opts = {});

// A tensor of `shape` holding `values` of dtype t.
rc::Gen<Tensor> tensor_with(DType t, Shape shape, Values values);
// A pool of element patterns of kind `values`.
rc::Gen<std::vector<std::uint64_t>> pool_with(DType t, Values values, int max_size = 6);
// Dtypes that the `values` kind can produce among `types` (Zeros/NaNs need a float type).
std::vector<DType> usable(const std::vector<DType>& types, Values values);

}  // namespace gen

}  // namespace sonnx::props
