// spec/ops/shape.md — read this file side by side with its sections.
//
// The definition, once: Y[k] = dim(X, first + k) for 0 <= k < last - first ([Shape.formula]), with
// [first, last) from `start` and `end` ([Shape.range]): a negative bound counts from the rank, then
// each is clamped to [0, rank]; first >= last gives the empty Y.
#include "ops/shape.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "core/index.hpp"

namespace sonnx::ops {

std::pair<std::int64_t, std::int64_t> shape_range(std::int64_t r, const ShapeParams& p) {
  // [Shape.range] a bound b < 0 stands for b + r; then clamped to [0, r]
  const auto bound = [r](std::int64_t b) { return std::clamp(b < 0 ? b + r : b, std::int64_t{0}, r); };
  const std::int64_t first = bound(p.start.value_or(0)), last = bound(p.end.value_or(r));
  return {first, std::max(first, last)};
}

Tensor shape(int, const Tensor& X, const ShapeParams& p) {
  const auto [first, last] = shape_range(X.rank(), p);
  Tensor Y(DType::Int64, {last - first}, "Shape output Y", Fill::Unspecified);  // [Shape.type] 1-D int64
  auto y = Y.values<std::int64_t>();
  for (std::int64_t k = 0; k < last - first; ++k) y[k] = X.shape()[first + k];  // [Shape.formula]
  return Y;
}

std::vector<Reach> reach_shape(int, const NodeValues&, const ShapeParams&, const std::vector<Source>&) {
  return {reach_by_shape({"Shape.formula", ""}, true, "")};
}

Decision decide_shape(int, const NodeValues& v, const ShapeParams& p, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const auto [first, last] = shape_range(X.rank(), p);
  Decision d;
  d.parameters = fmt::format("start = {}, end = {} -> dimensions [{}, {}) of rank {}",
                             p.start ? std::to_string(*p.start) : "absent (0)",
                             p.end ? std::to_string(*p.end) : "absent (rank)", first, last, X.rank());
  d.set.name = "no input element: a dimension of X's shape";
  d.set.size = 0;
  d.clauses = {"Shape.formula", "Shape.range"};
  d.situations = {{"Shape.formula", ""}};
  d.stop = "the shape of X, not its values";
  const std::int64_t k = i.at(0);
  d.reason = fmt::format("{} = {} because X's dimension {} is {}", output_name(v, i), X.shape()[first + k], first + k,
                         X.shape()[first + k]);
  if (last - first != Y.size() || Y.values<std::int64_t>()[k] != X.shape()[first + k]) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
