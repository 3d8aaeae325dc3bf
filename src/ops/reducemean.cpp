// spec/ops/reducemean.md — read this file side by side with its sections.
// Named steps: check the type -> the axes to reduce -> output shape -> the values.
//
// The definition, once: the normalised set A of reduced axes (Steps 1-2), the output index space
// (Step 3) and the reduced set R(j) of an output index j in row-major order — the steps of ReduceMax
// and ReduceMin (ops/reduce.cpp), reused — and the terms of Y[j]: X[i] for i in R(j), one factor
// each, times 1/|R(j)| ([Acc.divisor]), summed by the oracle in row-major order ([ReduceMean.order], [Acc.oracle]) and
// judged by the accuracy model; integer types by the exact mean, truncated. The computed
// fold is ops/sums.cpp, shared with ReduceSum.
#include "ops/reducemean.hpp"

#include "ops/sums.hpp"

namespace sonnx::ops {

std::vector<DType> reducemean_types(int version) {
  // [ReduceMean.v1] [ReduceMean.v11] float16, float, double, int32, int64, uint32, uint64
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double, DType::Int32, DType::Int64, DType::Uint32, DType::Uint64};
  if (version >= 13) t.push_back(DType::BFloat16);  // [ReduceMean.v13]
  return t;
}

namespace {

ReduceClauses make_clauses() {
  ReduceClauses c{
      "ReduceMean", Extreme::Max,            // (the order is not used: ReduceMean computes)
      "ReduceMean.err.dtype",           // [ReduceMean.err.dtype]
      "ReduceMean.err.flag",            // [ReduceMean.err.flag] keepdims, noop_with_empty_axes in {0, 1}
      "ReduceMean.err.axis-range",      // [ReduceMean.err.axis-range] [ReduceMean.v1] [0, r-1]; [ReduceMean.v11] [-r, r-1]
      "ReduceMean.err.axis-duplicate",  // [ReduceMean.err.axis-duplicate]
      "ReduceMean.err.axes-input",      // [ReduceMean.err.axes-input] [ReduceMean.v18] an int64 tensor of rank 1
      "ReduceMean.axes.noop",           // [ReduceMean.axes.noop] Y = X
      "ReduceMean.axes.default",        // [ReduceMean.axes.default] every axis
      "ReduceMean.axes.normalise",      // [ReduceMean.axes.normalise] a + r
      "", "", "", {}, {}, "",
  };
  c.noop_since = 18;  // [ReduceMean.v18] axes an input, noop_with_empty_axes
  return c;
}

const ReduceClauses kReduceMean = make_clauses();

const SumClauses kClauses{
    "ReduceMean", true,
    "ReduceMean.float.formula",  // [ReduceMean.float.formula] [ReduceMean.shape] Y[j] = (1/|R(j)|)·Σ X[i] over R(j)
    "ReduceMean.order",          // [ReduceMean.order] the oracle adds R(j) in row-major order, from −0
    "",
    // [ReduceMean.int.formula] the exact sum divided by |R(j)|, truncated toward zero
    "ReduceMean.int.formula",
    "ReduceMean.float.empty",  // [ReduceMean.float.empty] NaN: 0/0
    "ReduceMean.err.int-empty",  // [ReduceMean.err.int-empty] an empty R(j) of an integer type: refused
};

}  // namespace

std::vector<std::int64_t> reducemean_axes_from_input(const Tensor& axes) { return reduce_axes_from_input(kReduceMean, axes); }

Tensor reduce_mean(int version, const Tensor& X, const ReduceParams& p) {
  return computed_reduce(kReduceMean, kClauses, version, reducemean_types(version), X, p);
}

Decision decide_reduce_mean(int version, const NodeValues& v, const ReduceParams& p, const ReduceSources& from,
                           const std::vector<std::int64_t>& j) {
  return decide_computed_reduce(kReduceMean, kClauses, version, v, p, from, j);
}

std::vector<Reach> reach_reduce_mean(int version, const NodeValues& v, const ReduceParams& p, const std::vector<Source>& sources) {
  return reach_computed_reduce(kReduceMean, kClauses, version, v, p, sources);
}

}  // namespace sonnx::ops
