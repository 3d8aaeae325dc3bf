// The position of the extreme along one axis, which ArgMax and ArgMin share (spec/ops/argmax.md,
// spec/ops/argmin.md): the normalised axis, the output shape (the axis kept as 1 or removed), the
// slice V of an output index j — X along the axis at j's other coordinates — and the position in V
// that the order selects (ops/position.hpp): the first (last) NaN, else the first (last) element
// equal to the greatest (least). Each operator's file names its clauses in an ArgClauses table.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

struct ArgClauses {
  const char* op;  // "ArgMax", "ArgMin"
  Extreme order;
  const char* err_dtype;       // T not accepted by the version
  const char* err_axis_range;  // axis outside [0, r-1] (version 1) or [-r, r-1] (11+)
  const char* err_empty_axis;  // the axis has no element: no position to select
  const char* err_flag;        // keepdims or select_last_index not 0 or 1
  const char* axis_normalise;  // a negative axis a is a + r
  const char* shape;           // the output shape; int64
  const char* empty;           // an input with no element: an empty output
  FoldClauses float_fold;      // the float rule: the extreme, its NaN clause, its signed-zero clause
  const char* int_formula;     // the integer rule
  const char* last_index;      // select_last_index = 1: the last position
};

struct ArgParams {
  std::int64_t axis = 0;               // [Common.gr.defaults] default 0
  std::int64_t keepdims = 1;           // default 1
  std::int64_t select_last_index = 0;  // versions 12, 13; default 0
  bool axis_given = false, keepdims_given = false, last_given = false;
};

// Y = Op(X) for the resolved `version`, T in `allowed`: the int64 positions.
Tensor arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const Tensor& data, const ArgParams& p);

// The definition at one index j of Y: the slice V, the position the order selected, the clause.
Decision decide_arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const NodeValues& v,
                    const ArgParams& p, const std::vector<std::int64_t>& j);

// [Check.golden-coverage] The situations of the operator's clauses the node can reach, and their witnesses.
std::vector<Reach> reach_arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const NodeValues& v,
                             const ArgParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
