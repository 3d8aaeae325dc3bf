// spec/ops/globalmaxpool.md — read this file side by side with its sections.
//
// The definition, once: Y[n, c, 0, ..., 0] is the left fold of max_of over the spatial set
// {X[n, c, x_1, ..., x_k]} in row-major order ([GlobalMaxPool.float.formula]): ReduceMax over
// the spatial axes with keepdims = 1. ops/reduce.cpp
// holds that fold once; this file names GlobalMaxPool's types, its rank rule and its clauses.
#include "ops/globalmaxpool.hpp"

#include <algorithm>
#include <numeric>

#include "ops/reduce.hpp"

namespace sonnx::ops {

std::vector<DType> globalmaxpool_types(int version) {
  // [GlobalMaxPool.v1] T in {float16, float, double}; [GlobalMaxPool.v22] adds bfloat16
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 22) t.push_back(DType::BFloat16);
  return t;
}

namespace {

const ReduceClauses kGlobalMaxPool{
    "GlobalMaxPool", Extreme::Max,
    "GlobalMaxPool.err.dtype",  // [GlobalMaxPool.err.dtype]
    "", "", "", "",             // keepdims is 1 and the axes are the spatial ones: no flag or axis to refuse
    "", "", "",                 // no axes attribute: neither noop, default nor negative axes
    "GlobalMaxPool.empty",      // [GlobalMaxPool.empty] an empty spatial set: -Inf, the identity of max_of
    "", "",                     // float types only
    // [GlobalMaxPool.float.formula] [GlobalMaxPool.shape] the fold of max_of over the spatial set;
    // [GlobalMaxPool.float.nan] the first NaN, bit for bit; [GlobalMaxPool.float.zero] +0 above -0
    {"GlobalMaxPool.float.formula", "GlobalMaxPool.float.nan", "GlobalMaxPool.float.zero", Extreme::Max},
    {"", "", "", Extreme::Max},
    "",
};

// [GlobalMaxPool.err.rank] X is [N, C, D1, ..., Dk], k >= 1; the reduced axes are the spatial ones.
ReduceParams params(int version, const Tensor& X) {
  if (X.rank() < 3)
    refuse("GlobalMaxPool.err.rank", "GlobalMaxPool-{}: X has shape {}; it needs a batch, a channel and at least one spatial axis",
           version, to_string(X.shape()));
  std::vector<std::int64_t> axes(static_cast<std::size_t>(X.rank() - 2));
  std::iota(axes.begin(), axes.end(), 2);
  return ReduceParams{axes, 1, 0};
}

}  // namespace

Tensor globalmaxpool(int version, const Tensor& X) {
  const auto allowed = globalmaxpool_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [GlobalMaxPool.err.dtype] before the rank
    refuse("GlobalMaxPool.err.dtype", "GlobalMaxPool-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
  return reduce(kGlobalMaxPool, 13, allowed, X, params(version, X));
}

std::vector<Reach> reach_globalmaxpool(int version, const NodeValues& v, const std::vector<Source>& sources) {
  auto r = reach_reduce(kGlobalMaxPool, 13, v, params(version, *v.inputs[0]), sources);
  // The reduction's axis situations (noop, default, negative axes) are not GlobalMaxPool's: no attribute selects axes.
  r.erase(std::remove_if(r.begin(), r.end(), [](const Reach& x) { return x.situation.clause.empty(); }), r.end());
  return r;
}

Decision decide_globalmaxpool(int version, const NodeValues& v, const std::vector<std::int64_t>& j) {
  ReduceSources from;
  from.axes = "the spatial axes";
  Decision d = decide_reduce(kGlobalMaxPool, 13, v, params(version, *v.inputs[0]), from, j);
  d.parameters = "the spatial axes 2.." + std::to_string(v.inputs[0]->rank() - 1) + ", kept as 1";
  d.clauses.emplace_back("GlobalMaxPool.shape");
  return d;
}

}  // namespace sonnx::ops
