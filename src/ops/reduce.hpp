// The reduction that ReduceMax and ReduceMin share (spec/ops/reducemax.md, spec/ops/reducemin.md):
// named steps — check the type -> the axes to reduce -> output shape -> the values — and, for an
// output index j, the reduced set R(j) in row-major order with the left fold of the order's binary
// selection over it (max_of, [Common.order.max]; min_of, [Common.order.min]). Each operator's file
// names its clauses in a ReduceClauses table and its types; this file is the formula and the checks,
// once for both orders.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/index.hpp"
#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

struct ReduceParams {
  // The axes list: the `axes` attribute (versions 1-13) or the values of the `axes` input
  // (versions 18, 20); nullopt when absent.
  std::optional<std::vector<std::int64_t>> axes;
  std::int64_t keepdims = 1;              // [Common.gr.defaults] default 1
  std::int64_t noop_with_empty_axes = 0;  // versions 18, 20 only; default 0
};

// Where a node's parameters came from, for `decide`'s parameter line: the axes from "attribute" or
// "input 'NAME'"; whether keepdims / noop_with_empty_axes took their defaults.
struct ReduceSources {
  std::string axes;
  bool keepdims_default = true, noop_default = true;
};

struct ReduceClauses {
  const char* op;  // "ReduceMax", "ReduceMin"
  Extreme order;
  const char* err_dtype;           // T not accepted by the version
  const char* err_flag;            // keepdims or noop_with_empty_axes not 0 or 1
  const char* err_axis_range;      // an axis outside [-r, r-1] ([0, r-1] in version 1)
  const char* err_axis_duplicate;  // an axis given twice
  const char* err_axes_input;      // the axes input (18+) not an int64 tensor of rank 1
  const char* axes_noop;           // empty axes with noop_with_empty_axes = 1: Y = X
  const char* axes_default;        // empty or absent axes: every axis
  const char* axes_normalise;      // a negative axis a is a + r
  const char* float_empty;         // the value of an empty set: -Inf / +Inf
  const char* int_empty;           // the type's minimum / maximum
  const char* bool_empty;          // False / True
  FoldClauses float_fold;          // the float formula, its NaN and signed-zero clauses
  FoldClauses int_fold;            // the integer formula
  const char* bool_formula;        // the bool formula (version 20)
  int noop_since = 18;             // the version from which axes is an input and noop_with_empty_axes exists
};

// The axes list carried by the optional `axes` input of versions 18/20: an int64 tensor of rank 1
// (c.err_axes_input).
std::vector<std::int64_t> reduce_axes_from_input(const ReduceClauses& c, const Tensor& axes);

// Steps 1 to 3, shared with the computed reductions (ReduceSum, ReduceMean: ops/sums.hpp): the checks of
// the type and of the flags, then the reduced axes, one flag per axis of X (nullopt: c.axes_noop, Y = X).
std::optional<std::vector<bool>> reduce_axes(const ReduceClauses& c, int version, const std::vector<DType>& allowed,
                                             const Tensor& X, const ReduceParams& p);
// Step 3: the output shape.
Shape reduce_shape(const Shape& x_shape, const std::vector<bool>& reduced, std::int64_t keepdims);
// Step 4's map from X to Y: Y's row-major stride on each kept axis, 0 on each reduced axis.
Strides reduce_map(const Shape& x_shape, const std::vector<bool>& reduced);
// R(j) in row-major order: its size, the offset in X of its q-th member, the kept axes (for messages).
struct ReducedSet {
  std::int64_t size = 0, base = 0;
  std::vector<std::int64_t> dims, strides;
  std::string kept;
  std::int64_t offset(std::int64_t q) const;
};
ReducedSet reduced_set(const Shape& x_shape, const std::vector<bool>& reduced, std::int64_t keepdims,
                       const std::vector<std::int64_t>& j);
// The parameter line of `decide`: "axes = [1] (attribute), keepdims = 0".
std::string reduce_parameters(const ReduceClauses& c, int version, const ReduceParams& p, const ReduceSources& from);
// The clauses of the axes steps that decided R(j) (c.axes_default, c.axes_normalise).
std::vector<std::string> reduce_axes_clauses(const ReduceClauses& c, const ReduceParams& p);

// Y = Op(X) for the resolved `version`, T in `allowed`.
Tensor reduce(const ReduceClauses& c, int version, const std::vector<DType>& allowed, const Tensor& data,
              const ReduceParams& params);

// The definition at one index j of Y (`v` holds X, the evaluated Y and their names): R(j) in
// row-major order, the element the fold kept and the clause that decided Y[j].
Decision decide_reduce(const ReduceClauses& c, int version, const NodeValues& v, const ReduceParams& params,
                       const ReduceSources& sources, const std::vector<std::int64_t>& j);

// [ReduceMax.axes.noop] and its kin: Y[j] when axes is empty and noop_with_empty_axes = 1 — the element of
// X at the same index (Y = X), decided by `noop_clause`. Shared by the selecting and the computing reductions.
Decision decide_noop(const NodeValues& v, const std::vector<std::int64_t>& j, const char* noop_clause, std::string parameters);

// [Check.golden-coverage] The situations of the operator's clauses that the node holding `v` can
// reach when the values of X come from sources[0], and the witness that builds each.
std::vector<Reach> reach_reduce(const ReduceClauses& c, int version, const NodeValues& v, const ReduceParams& params,
                                const std::vector<Source>& sources);

}  // namespace sonnx::ops
