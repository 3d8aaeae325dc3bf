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
#include "ops/arg.hpp"
#include "ops/clip.hpp"
#include "ops/maxpool.hpp"
#include "ops/reducemax.hpp"

namespace sonnx::props {

// Which values the tensors of a case hold.
enum class Values {
  Edge,   // edge-biased, NaN included (gen::element)
  NoNaN,  // edge-biased, no NaN
  Zeros,  // mostly ±0 with a few values below them (float types only): ties of signed zeros
  NaNs,   // at least one NaN per tensor likely: NaNs of several payloads among ordinary values
  ZerosAbove,  // mostly ±0 with a few values above them (float types only): ties of the min order
};

// A case of Max or of Min (the same inputs; `op` names which, for printing).
struct MaxCase {
  std::string op = "Max";
  int version = 13;
  DType dtype = DType::Float;
  Shape output;                // the broadcast shape of the inputs, by construction
  std::vector<Tensor> inputs;  // X0 .. XL
  std::vector<const Tensor*> pointers() const;
};

// A case of ReduceMax or of ReduceMin (the same parameters; `op` names which, for printing).
struct ReduceMaxCase {
  std::string op = "ReduceMax";
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

// A case of ArgMax or ArgMin: the axis is valid for the version and its dimension is not 0
// ([ArgMax.err.axis-range], [ArgMax.err.empty-axis]); other dimensions may be 0 ([ArgMax.empty]).
struct ArgCase {
  std::string op = "ArgMax";
  int version = 13;
  Tensor input;
  std::int64_t axis = 0, keepdims = 1, select_last_index = 0;
  ops::ArgParams params() const;
};

// A case of Clip: the bounds as the version takes them — float attributes (binary32 patterns,
// versions 1 and 6) or rank-0 inputs of X's type (versions 11 and later) — each possibly absent.
struct ClipCase {
  int version = 13;
  Tensor X;
  std::optional<std::uint32_t> min_attribute, max_attribute;
  std::optional<Tensor> min_input, max_input;
  ops::ClipBounds bounds() const;  // points into this case
  // [Clip.bounds.attributes] [Clip.bounds.inputs] [Clip.bounds.default] [Clip.bounds.convert] the
  // bounds lo, hi as values of T, restated from the clauses (spec_facts.hpp).
  std::uint64_t lo() const;
  std::uint64_t hi() const;
};

// A case of MaxPool: X of rank 3..5 and attributes that no clause refuses, by construction.
struct PoolCase {
  int version = 22;
  Tensor X;
  ops::PoolParams params;
  bool indices = false;  // versions 8 and later: the second output requested
};

namespace gen {

struct MaxOpts {
  std::vector<int> versions = kMaxVersions;
  int min_inputs = 1, max_inputs = 6;
  Values values = Values::Edge;
  std::vector<DType> (*types)(int) = spec_max_types;  // the type constraint of each version
  const char* op = "Max";
};
rc::Gen<MaxCase> max_case(MaxOpts opts = {});
// The same for Min: kMinVersions, spec_min_types, op "Min" (opts.versions is kept if it is not Max's list).
rc::Gen<MaxCase> min_case(MaxOpts opts = {});

struct ReduceMaxOpts {
  std::vector<int> versions = kReduceMaxVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {0, 5, 64, true};
  bool allow_noop = true;       // versions 18+: noop_with_empty_axes may be 1
  bool allow_absent = true;     // axes may be absent / empty
  std::vector<DType> only = {};  // if not empty: dtypes restricted to these
  std::vector<DType> (*types)(int) = spec_reducemax_types;
  const char* op = "ReduceMax";
};
rc::Gen<ReduceMaxCase> reducemax_case(ReduceMaxOpts opts = {});
// The same for ReduceMin: spec_reducemin_types, op "ReduceMin".
rc::Gen<ReduceMaxCase> reducemin_case(ReduceMaxOpts opts = {});

struct HardmaxOpts {
  std::vector<int> versions = kHardmaxVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {1, 5, 64, true};
};
rc::Gen<HardmaxCase> hardmax_case(HardmaxOpts opts = {});

struct ArgOpts {
  std::vector<int> versions = kArgVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {1, 5, 64, true};
  const char* op = "ArgMax";
  bool allow_last = true;  // versions 12+: select_last_index may be 1
};
rc::Gen<ArgCase> arg_case(ArgOpts opts = {});

struct ClipOpts {
  std::vector<int> versions = kClipVersions;
  Values values = Values::Edge;
  ShapeOpts shape = {0, 4, 32, true};
};
rc::Gen<ClipCase> clip_case(ClipOpts opts = {});

struct PoolOpts {
  std::vector<int> versions = kMaxPoolVersions;
  Values values = Values::Edge;
  int max_spatial = 3;  // spatial axes 1..max_spatial
};
rc::Gen<PoolCase> pool_case(PoolOpts opts = {});

// A tensor of `shape` holding `values` of dtype t.
rc::Gen<Tensor> tensor_with(DType t, Shape shape, Values values);
// A pool of element patterns of kind `values`.
rc::Gen<std::vector<std::uint64_t>> pool_with(DType t, Values values, int max_size = 6);
// Dtypes that the `values` kind can produce among `types` (Zeros/NaNs need a float type).
std::vector<DType> usable(const std::vector<DType>& types, Values values);

}  // namespace gen

}  // namespace sonnx::props
