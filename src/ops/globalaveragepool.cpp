// spec/ops/globalaveragepool.md — read this file side by side with its sections.
//
// The definition, once: Y[n, c, 0, ..., 0] = (1/d)·Σ X[n, c, x_1, ..., x_k] over the spatial set, d its
// size ([GlobalAveragePool.float.formula]): AveragePool with the spatial shape as kernel, no pads, one
// window per plane ([AveragePool.prop.global]). ops/averagepool.cpp holds that mean once; this file names
// GlobalAveragePool's types, its rank and empty-set rules, and its clauses.
#include "ops/globalaveragepool.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "ops/averagepool.hpp"

namespace sonnx::ops {

std::vector<DType> globalaveragepool_types(int version) {
  // [GlobalAveragePool.v1] T in {float16, float, double}; [GlobalAveragePool.v22] adds bfloat16
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 22) t.push_back(DType::BFloat16);
  return t;
}

namespace {

// The one window of every plane: the kernel is the spatial shape, strides and dilations 1, no pads.
AverageWindows windows(int version, const Tensor& X) {
  const auto allowed = globalaveragepool_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [GlobalAveragePool.err.dtype]
    refuse("GlobalAveragePool.err.dtype", "GlobalAveragePool-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
  if (X.rank() < 3)  // [GlobalAveragePool.err.rank] X is [N, C, D1, ..., Dk], k >= 1
    refuse("GlobalAveragePool.err.rank",
           "GlobalAveragePool-{}: X has shape {}; it needs a batch, a channel and at least one spatial axis", version,
           to_string(X.shape()));
  AverageWindows g;
  g.k = X.rank() - 2;
  g.in.assign(X.shape().begin() + 2, X.shape().end());
  g.planes = checked_mul(X.shape()[0], X.shape()[1], "GlobalAveragePool input");
  // [GlobalAveragePool.err.empty] d = D_1···D_k = 0: the mean of no element (when there is a plane to compute)
  if (g.planes > 0 && std::any_of(g.in.begin(), g.in.end(), [](std::int64_t x) { return x == 0; }))
    refuse("GlobalAveragePool.err.empty", "GlobalAveragePool-{}: X has shape {}; its spatial set is empty, and the mean of no "
           "element is not defined", version, to_string(X.shape()));
  const auto k = static_cast<std::size_t>(g.k);
  g.kernel = g.in;
  for (std::int64_t& x : g.kernel) x = std::max<std::int64_t>(x, 1);  // N·C = 0: no window is evaluated
  g.stride.assign(k, 1), g.dilation.assign(k, 1), g.pad_begin.assign(k, 0), g.pad_end.assign(k, 0);
  g.out.assign(k, 1), g.ceil_extra.assign(k, false);
  g.in_plane = checked_product(g.in, "GlobalAveragePool input " + to_string(X.shape()));
  g.out_plane = 1;
  g.count_pads = false;
  g.clause = "GlobalAveragePool.float.formula";
  g.op = "GlobalAveragePool";
  return g;
}

}  // namespace

Tensor globalaveragepool(int version, const Tensor& X) {
  const AverageWindows g = windows(version, X);
  Shape y_shape = {X.shape()[0], X.shape()[1]};  // [GlobalAveragePool.shape] (N, C, 1, ..., 1)
  y_shape.insert(y_shape.end(), static_cast<std::size_t>(g.k), 1);
  return average_windows(X, g, y_shape);
}

Decision decide_globalaveragepool(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const AverageWindows g = windows(version, *v.inputs[0]);
  return decide_average(v, g, i, "the spatial axes 2.." + std::to_string(v.inputs[0]->rank() - 1) + ", kept as 1",
                        {"GlobalAveragePool.shape"});
}

std::vector<Reach> reach_globalaveragepool(int version, const NodeValues& v, const std::vector<Source>& sources) {
  return reach_average(v, windows(version, *v.inputs[0]), sources);
}

}  // namespace sonnx::ops
