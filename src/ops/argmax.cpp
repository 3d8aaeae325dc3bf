// spec/ops/argmax.md — read this file side by side with its sections.
// Named steps: check the type and the flags -> normalise the axis -> output shape -> the positions.
//
// The definition, once: the slice V of an output index j — X along the axis at j's other coordinates
// — and the position in V that the max order selects ([Common.order.max]): the first NaN, else the
// first element equal to the greatest; with select_last_index = 1, the last. ArgMax and ArgMin are the
// same steps under the two orders: ops/arg.cpp holds them once; this file names ArgMax's types and clauses.
#include "ops/argmax.hpp"

namespace sonnx::ops {

std::vector<DType> argmax_types(int version) {
  // [ArgMax.v1] [ArgMax.v11] [ArgMax.v12] the eight integer types, float16, float, double
  std::vector<DType> t = {DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64, DType::Int8,   DType::Int16,
                          DType::Int32, DType::Int64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [ArgMax.v13]
  return t;
}

namespace {

const ArgClauses kArgMax{
    "ArgMax", Extreme::Max,
    "ArgMax.err.dtype",       // [ArgMax.err.dtype]
    "ArgMax.err.axis-range",  // [ArgMax.err.axis-range] [ArgMax.v1] [0, r-1]; [ArgMax.v11] [-r, r-1]
    "ArgMax.err.empty-axis",  // [ArgMax.err.empty-axis] no element to select
    "ArgMax.err.flag",        // [ArgMax.err.flag] keepdims, select_last_index in {0, 1}
    "ArgMax.axis.normalise",  // [ArgMax.axis.normalise] a + r
    "ArgMax.shape",           // [ArgMax.shape] the axis kept as 1 (keepdims = 1) or removed; int64
    "ArgMax.empty",           // [ArgMax.empty] no slice: the empty output
    // [ArgMax.float.formula] the first position of the greatest element; [ArgMax.float.nan] a NaN takes
    // precedence, the first NaN; [ArgMax.float.zero] -0 below +0
    {"ArgMax.float.formula", "ArgMax.float.nan", "ArgMax.float.zero", Extreme::Max},
    "ArgMax.int.formula",   // [ArgMax.int.formula] the integer order
    "ArgMax.last-index",    // [ArgMax.last-index] [ArgMax.v12] select_last_index = 1: the last NaN, else the last greatest
};

}  // namespace

Tensor argmax(int version, const Tensor& X, const ArgParams& p) { return arg(kArgMax, version, argmax_types(version), X, p); }

std::vector<Reach> reach_argmax(int version, const NodeValues& v, const ArgParams& p, const std::vector<Source>& sources) {
  return reach_arg(kArgMax, version, argmax_types(version), v, p, sources);
}

Decision decide_argmax(int version, const NodeValues& v, const ArgParams& p, const std::vector<std::int64_t>& j) {
  return decide_arg(kArgMax, version, argmax_types(version), v, p, j);
}

}  // namespace sonnx::ops
