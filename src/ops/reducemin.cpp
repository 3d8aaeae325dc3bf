// spec/ops/reducemin.md — read this file side by side with its sections.
// Named steps: check the type -> the axes to reduce -> output shape -> the values.
//
// The definition, once: the normalised set A of reduced axes (Steps 1-2), the output index space
// (Step 3), the reduced set R(j) of an output index j in row-major order, and the selection rule,
// the left fold of min_of over R(j) (Step 4): ReduceMax's steps under the min order
// ([Common.order.min]). ops/reduce.cpp holds them once for both; this file names ReduceMin's types
// and clauses.
#include "ops/reducemin.hpp"

namespace sonnx::ops {

std::vector<DType> reducemin_types(int version) {
  // [ReduceMin.v1] [ReduceMin.v11] float16, float, double, int32, int64, uint32, uint64
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double, DType::Int32,
                          DType::Int64,   DType::Uint32, DType::Uint64};
  if (version >= 12) t.insert(t.end(), {DType::Int8, DType::Uint8});  // [ReduceMin.v12]
  if (version >= 13) t.push_back(DType::BFloat16);                     // [ReduceMin.v13]
  if (version >= 20) t.push_back(DType::Bool);                         // [ReduceMin.v20]
  return t;
}

namespace {

const ReduceClauses kReduceMin{
    "ReduceMin", Extreme::Min,
    "ReduceMin.err.dtype",           // [ReduceMin.err.dtype]
    "ReduceMin.err.flag",            // [ReduceMin.err.flag] keepdims, noop_with_empty_axes in {0, 1}
    "ReduceMin.err.axis-range",      // [ReduceMin.err.axis-range] [ReduceMin.v1] [0, r-1]; [ReduceMin.v11] [-r, r-1]
    "ReduceMin.err.axis-duplicate",  // [ReduceMin.err.axis-duplicate]
    "ReduceMin.err.axes-input",      // [ReduceMin.err.axes-input] [ReduceMin.v18] an int64 tensor of rank 1
    "ReduceMin.axes.noop",           // [ReduceMin.axes.noop] Y = X
    "ReduceMin.axes.default",        // [ReduceMin.axes.default] every axis
    "ReduceMin.axes.normalise",      // [ReduceMin.axes.normalise] a + r
    "ReduceMin.float.empty",         // [ReduceMin.float.empty] +Inf
    "ReduceMin.int.empty",           // [ReduceMin.int.empty] the type's maximum
    "ReduceMin.bool.empty",          // [ReduceMin.bool.empty] True
    // [ReduceMin.float.formula] [ReduceMin.shape] Y[j] = the left fold of min_of over R(j) in row-major
    // order; [ReduceMin.float.nan] the first NaN, bit for bit; [ReduceMin.float.zero] -0 below +0
    {"ReduceMin.float.formula", "ReduceMin.float.nan", "ReduceMin.float.zero", Extreme::Min},
    {"ReduceMin.int.formula", "", "", Extreme::Min},  // [ReduceMin.int.formula]
    "ReduceMin.bool.formula",                          // [ReduceMin.bool.formula] False < True
};

}  // namespace

std::vector<std::int64_t> reducemin_axes_from_input(const Tensor& axes) { return reduce_axes_from_input(kReduceMin, axes); }

Tensor reduce_min(int version, const Tensor& X, const ReduceParams& p) {
  return reduce(kReduceMin, version, reducemin_types(version), X, p);
}

std::vector<Reach> reach_reduce_min(int version, const NodeValues& v, const ReduceParams& p,
                                    const std::vector<Source>& sources) {
  return reach_reduce(kReduceMin, version, v, p, sources);
}

Decision decide_reduce_min(int version, const NodeValues& v, const ReduceParams& p, const ReduceSources& from,
                           const std::vector<std::int64_t>& j) {
  return decide_reduce(kReduceMin, version, v, p, from, j);
}

}  // namespace sonnx::ops
