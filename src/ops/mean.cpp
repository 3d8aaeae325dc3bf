// spec/ops/mean.md — read this file side by side with its sections.
//
// The definition, once: the output index space ([Mean.shape]) and the terms of an output index i —
// Ẋm[i] for m = 0..L, each input read through its broadcast map ([Common.broadcast.map]), one factor
// each, times 1/n ([Acc.divisor]) — summed by the oracle in increasing m ([Mean.order], [Acc.oracle]) and judged by
// the accuracy model ([Mean.float.formula], [Acc.verdict]). The broadcast map and the error checks are
// those of Max and Min (ops/variadic.cpp); the computed fold is ops/sums.cpp, shared with Sum.
#include "ops/mean.hpp"

#include "ops/sums.hpp"
#include "ops/variadic.hpp"

namespace sonnx::ops {

std::vector<DType> mean_types(int version) {
  // [Mean.v1] [Mean.v6] [Mean.v8] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Mean.v13]
  return t;
}

namespace {

const VariadicClauses kMean{
    "Mean", Extreme::Max,     // (the order is not used: Mean computes)
    "Mean.err.arity",       // [Mean.err.arity] between 1 and 2147483647 inputs, none absent
    "Mean.err.type",        // [Mean.err.type] one T for every input
    "Mean.err.dtype",       // [Mean.err.dtype] T accepted by the version
    "Mean.err.broadcast",   // [Mean.err.broadcast] [Mean.v8] [Mean.shape] multidirectional broadcasting
    "Mean.err.same-shape",  // [Mean.err.same-shape] [Mean.v1] [Mean.v6] no broadcasting
    {},
    {},
};

// [Mean.float.formula] Y[i] = (1/n)·Σ_m Ẋm[i], n = L + 1 inputs; [Acc.divisor] each term carries 1/n
// [Mean.order] the oracle adds the terms in increasing m, from −0
// [Mean.unary] one input: the input itself (one term, no rounding)
const SumClauses kClauses{"Mean", true, "Mean.float.formula", "Mean.order", "Mean.unary"};

}  // namespace

Tensor mean(int version, const std::vector<const Tensor*>& inputs) {
  return computed_variadic(kMean, kClauses, version, mean_types(version), inputs);
}

Decision decide_mean(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  return decide_computed_variadic(kMean, kClauses, version, v, i);
}

std::vector<Reach> reach_mean(int version, const NodeValues& v, const std::vector<Source>& sources) {
  return reach_computed_variadic(kMean, kClauses, version, v, sources);
}

}  // namespace sonnx::ops
