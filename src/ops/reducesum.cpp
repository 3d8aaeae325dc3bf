// spec/ops/reducesum.md — read this file side by side with its sections.
// Named steps: check the type -> the axes to reduce -> output shape -> the values.
//
// The definition, once: the normalised set A of reduced axes (Steps 1-2), the output index space
// (Step 3) and the reduced set R(j) of an output index j in row-major order — the steps of ReduceMax
// and ReduceMin (ops/reduce.cpp), reused — and the terms of Y[j]: X[i] for i in R(j), one factor
// each, summed by the oracle in row-major order ([ReduceSum.order], [Acc.oracle]) and
// judged by the accuracy model; integer types modulo 2^w ([Acc.int]). The computed
// fold is ops/sums.cpp, shared with ReduceMean.
#include "ops/reducesum.hpp"

#include "ops/sums.hpp"

namespace sonnx::ops {

std::vector<DType> reducesum_types(int version) {
  // [ReduceSum.v1] [ReduceSum.v11] float16, float, double, int32, int64, uint32, uint64
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double, DType::Int32, DType::Int64, DType::Uint32, DType::Uint64};
  if (version >= 13) t.push_back(DType::BFloat16);  // [ReduceSum.v13]
  return t;
}

namespace {

ReduceClauses make_clauses() {
  ReduceClauses c{
      "ReduceSum", Extreme::Max,            // (the order is not used: ReduceSum computes)
      "ReduceSum.err.dtype",           // [ReduceSum.err.dtype]
      "ReduceSum.err.flag",            // [ReduceSum.err.flag] keepdims, noop_with_empty_axes in {0, 1}
      "ReduceSum.err.axis-range",      // [ReduceSum.err.axis-range] [ReduceSum.v1] [0, r-1]; [ReduceSum.v11] [-r, r-1]
      "ReduceSum.err.axis-duplicate",  // [ReduceSum.err.axis-duplicate]
      "ReduceSum.err.axes-input",      // [ReduceSum.err.axes-input] [ReduceSum.v13] an int64 tensor of rank 1
      "ReduceSum.axes.noop",           // [ReduceSum.axes.noop] Y = X
      "ReduceSum.axes.default",        // [ReduceSum.axes.default] every axis
      "ReduceSum.axes.normalise",      // [ReduceSum.axes.normalise] a + r
      "", "", "", {}, {}, "",
  };
  c.noop_since = 13;  // [ReduceSum.v13] axes an input, noop_with_empty_axes
  return c;
}

const ReduceClauses kReduceSum = make_clauses();

const SumClauses kClauses{
    "ReduceSum", false,
    "ReduceSum.float.formula",  // [ReduceSum.float.formula] [ReduceSum.shape] Y[j] = Σ X[i] over R(j)
    "ReduceSum.order",          // [ReduceSum.order] the oracle adds R(j) in row-major order, from −0
    "",
    // [ReduceSum.int.formula] [Acc.int] modulo 2^w
    "ReduceSum.int.formula",
    "ReduceSum.float.empty",  // [ReduceSum.float.empty] +0
    "ReduceSum.int.empty",    // [ReduceSum.int.empty] 0
};

}  // namespace

std::vector<std::int64_t> reducesum_axes_from_input(const Tensor& axes) { return reduce_axes_from_input(kReduceSum, axes); }

Tensor reduce_sum(int version, const Tensor& X, const ReduceParams& p) {
  return computed_reduce(kReduceSum, kClauses, version, reducesum_types(version), X, p);
}

Decision decide_reduce_sum(int version, const NodeValues& v, const ReduceParams& p, const ReduceSources& from,
                           const std::vector<std::int64_t>& j) {
  return decide_computed_reduce(kReduceSum, kClauses, version, v, p, from, j);
}

std::vector<Reach> reach_reduce_sum(int version, const NodeValues& v, const ReduceParams& p, const std::vector<Source>& sources) {
  return reach_computed_reduce(kReduceSum, kClauses, version, v, p, sources);
}

}  // namespace sonnx::ops
