// spec/ops/reducemax.md — read this file side by side with its sections.
// Named steps: check the type -> the axes to reduce -> output shape -> the values.
//
// The definition, once: the normalised set A of reduced axes (Steps 1-2), the output index space
// (Step 3), the reduced set R(j) of an output index j in row-major order, and the selection rule,
// the left fold of max_of over R(j) (Step 4). ReduceMax and ReduceMin are the same steps under the two
// orders: ops/reduce.cpp holds them once; this file names ReduceMax's types and clauses.
#include "ops/reducemax.hpp"

namespace sonnx::ops {

std::vector<DType> reducemax_types(int version) {
  // [ReduceMax.v1] [ReduceMax.v11] float16, float, double, int32, int64, uint32, uint64
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double, DType::Int32,
                          DType::Int64,   DType::Uint32, DType::Uint64};
  if (version >= 12) t.insert(t.end(), {DType::Int8, DType::Uint8});  // [ReduceMax.v12]
  if (version >= 13) t.push_back(DType::BFloat16);                     // [ReduceMax.v13]
  if (version >= 20) t.push_back(DType::Bool);                         // [ReduceMax.v20]
  return t;
}

namespace {

const ReduceClauses kReduceMax{
    "ReduceMax", Extreme::Max,
    "ReduceMax.err.dtype",           // [ReduceMax.err.dtype]
    "ReduceMax.err.flag",            // [ReduceMax.err.flag] keepdims, noop_with_empty_axes in {0, 1}
    "ReduceMax.err.axis-range",      // [ReduceMax.err.axis-range] [ReduceMax.v1] [0, r-1]; [ReduceMax.v11] [-r, r-1]
    "ReduceMax.err.axis-duplicate",  // [ReduceMax.err.axis-duplicate]
    "ReduceMax.err.axes-input",      // [ReduceMax.err.axes-input] [ReduceMax.v18] an int64 tensor of rank 1
    "ReduceMax.axes.noop",           // [ReduceMax.axes.noop] Y = X
    "ReduceMax.axes.default",        // [ReduceMax.axes.default] every axis
    "ReduceMax.axes.normalise",      // [ReduceMax.axes.normalise] a + r
    "ReduceMax.float.empty",         // [ReduceMax.float.empty] -Inf
    "ReduceMax.int.empty",           // [ReduceMax.int.empty] the type's minimum
    "ReduceMax.bool.empty",          // [ReduceMax.bool.empty] False
    // [ReduceMax.float.formula] [ReduceMax.shape] Y[j] = the left fold of max_of over R(j) in row-major
    // order; [ReduceMax.float.nan] the first NaN, bit for bit; [ReduceMax.float.zero] +0 above -0
    {"ReduceMax.float.formula", "ReduceMax.float.nan", "ReduceMax.float.zero", Extreme::Max},
    {"ReduceMax.int.formula", "", "", Extreme::Max},  // [ReduceMax.int.formula]
    "ReduceMax.bool.formula",                          // [ReduceMax.bool.formula] False < True
};

}  // namespace

std::vector<std::int64_t> axes_from_input(const Tensor& axes) { return reduce_axes_from_input(kReduceMax, axes); }

Tensor reduce_max(int version, const Tensor& X, const ReduceMaxParams& p) {
  return reduce(kReduceMax, version, reducemax_types(version), X, p);
}

std::vector<Reach> reach_reduce_max(int version, const NodeValues& v, const ReduceMaxParams& p,
                                    const std::vector<Source>& sources) {
  return reach_reduce(kReduceMax, version, v, p, sources);
}

Decision decide_reduce_max(int version, const NodeValues& v, const ReduceMaxParams& p, const ReduceMaxSources& from,
                           const std::vector<std::int64_t>& j) {
  return decide_reduce(kReduceMax, version, v, p, from, j);
}

}  // namespace sonnx::ops
