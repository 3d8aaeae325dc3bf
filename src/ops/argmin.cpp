// spec/ops/argmin.md — read this file side by side with its sections.
// Named steps: check the type and the flags -> normalise the axis -> output shape -> the positions.
//
// The definition, once: the slice V of an output index j — X along the axis at j's other coordinates
// — and the position in V that the min order selects ([Common.order.min]): the first NaN, else the
// first element equal to the least; with select_last_index = 1, the last. ArgMax and ArgMin are the
// same steps under the two orders: ops/arg.cpp holds them once; this file names ArgMin's types and clauses.
#include "ops/argmin.hpp"

namespace sonnx::ops {

std::vector<DType> argmin_types(int version) {
  // [ArgMin.v1] [ArgMin.v11] [ArgMin.v12] the eight integer types, float16, float, double
  std::vector<DType> t = {DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64, DType::Int8,   DType::Int16,
                          DType::Int32, DType::Int64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [ArgMin.v13]
  return t;
}

namespace {

const ArgClauses kArgMin{
    "ArgMin", Extreme::Min,
    "ArgMin.err.dtype",       // [ArgMin.err.dtype]
    "ArgMin.err.axis-range",  // [ArgMin.err.axis-range] [ArgMin.v1] [0, r-1]; [ArgMin.v11] [-r, r-1]
    "ArgMin.err.empty-axis",  // [ArgMin.err.empty-axis] no element to select
    "ArgMin.err.flag",        // [ArgMin.err.flag] keepdims, select_last_index in {0, 1}
    "ArgMin.axis.normalise",  // [ArgMin.axis.normalise] a + r
    "ArgMin.shape",           // [ArgMin.shape] the axis kept as 1 (keepdims = 1) or removed; int64
    "ArgMin.empty",           // [ArgMin.empty] no slice: the empty output
    // [ArgMin.float.formula] the first position of the least element; [ArgMin.float.nan] a NaN takes
    // precedence, the first NaN; [ArgMin.float.zero] -0 below +0
    {"ArgMin.float.formula", "ArgMin.float.nan", "ArgMin.float.zero", Extreme::Min},
    "ArgMin.int.formula",   // [ArgMin.int.formula] the integer order
    "ArgMin.last-index",    // [ArgMin.last-index] [ArgMin.v12] select_last_index = 1: the last NaN, else the last least
};

}  // namespace

Tensor argmin(int version, const Tensor& X, const ArgParams& p) { return arg(kArgMin, version, argmin_types(version), X, p); }

std::vector<Reach> reach_argmin(int version, const NodeValues& v, const ArgParams& p, const std::vector<Source>& sources) {
  return reach_arg(kArgMin, version, argmin_types(version), v, p, sources);
}

Decision decide_argmin(int version, const NodeValues& v, const ArgParams& p, const std::vector<std::int64_t>& j) {
  return decide_arg(kArgMin, version, argmin_types(version), v, p, j);
}

}  // namespace sonnx::ops
