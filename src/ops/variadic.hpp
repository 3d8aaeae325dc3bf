// The element-wise fold over broadcast inputs that Max and Min share (spec/ops/max.md,
// spec/ops/min.md): the output index space, the index set {Ẋ0[i], ..., ẊL[i]} of an output index i
// — each input read through its broadcast map ([Common.broadcast.map]) — and the left fold of the
// order's binary selection over it in increasing m (max_of, [Common.order.max]; min_of,
// [Common.order.min]). Each operator's file names its clauses in a VariadicClauses table and its
// types; this file is the formula and the error checks, once for both orders.
#pragma once
#include <vector>

#include "core/index.hpp"
#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

struct VariadicClauses {
  const char* op;  // "Max", "Min"
  Extreme order;
  // The Error conditions table: no or an absent input, two element types, a type the version does
  // not accept, shapes that do not broadcast (versions 8+), shapes that differ (versions 1 and 6).
  const char* err_arity;
  const char* err_type;
  const char* err_dtype;
  const char* err_broadcast;
  const char* err_same_shape;
  FoldClauses float_fold;  // the float formula, its NaN and signed-zero clauses
  FoldClauses int_fold;    // the integer formula
};

// The checks of the Error conditions table and the output shape (the broadcast shape from version 8,
// the common shape in versions 1 and 6), shared with the computed folds (Sum, Mean: ops/sums.hpp).
Shape variadic_shape(const VariadicClauses& c, int version, const std::vector<DType>& allowed,
                     const std::vector<const Tensor*>& inputs);
// [Common.broadcast.map] Ẋm[i] = Xm[f(i)]: one stride map over Y's axes per input.
std::vector<Strides> variadic_maps(const std::vector<const Tensor*>& inputs, const Shape& y_shape);

// Y = Op(X0, ..., XL) for the resolved `version`, T in `allowed`: checks every error condition, then
// evaluates Y[i] = fold over m of Ẋm[i] for every i.
Tensor variadic(const VariadicClauses& c, int version, const std::vector<DType>& allowed,
                const std::vector<const Tensor*>& inputs);

// The definition at one index i of Y: the set {Ẋm[i]}, the input the fold kept, the clause that decided Y[i].
Decision decide_variadic(const VariadicClauses& c, int version, const NodeValues& v, const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of the operator's clauses the node can reach when the values
// of input m come from sources[m], and the witness that builds each.
std::vector<Reach> reach_variadic(const VariadicClauses& c, int version, const NodeValues& v,
                                  const std::vector<Source>& sources);

}  // namespace sonnx::ops
