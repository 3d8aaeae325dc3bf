// spec/ops/sum.md — read this file side by side with its sections.
//
// The definition, once: the output index space ([Sum.shape]) and the terms of an output index i —
// Ẋm[i] for m = 0..L, each input read through its broadcast map ([Common.broadcast.map]), one factor
// each — summed by the oracle in increasing m ([Sum.order], [Acc.oracle]) and judged by
// the accuracy model ([Sum.float.formula], [Acc.verdict]). The broadcast map and the error checks are
// those of Max and Min (ops/variadic.cpp); the computed fold is ops/sums.cpp, shared with Mean.
#include "ops/sum.hpp"

#include "ops/sums.hpp"
#include "ops/variadic.hpp"

namespace sonnx::ops {

std::vector<DType> sum_types(int version) {
  // [Sum.v1] [Sum.v6] [Sum.v8] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Sum.v13]
  return t;
}

namespace {

const VariadicClauses kSum{
    "Sum", Extreme::Max,     // (the order is not used: Sum computes)
    "Sum.err.arity",       // [Sum.err.arity] between 1 and 2147483647 inputs, none absent
    "Sum.err.type",        // [Sum.err.type] one T for every input
    "Sum.err.dtype",       // [Sum.err.dtype] T accepted by the version
    "Sum.err.broadcast",   // [Sum.err.broadcast] [Sum.v8] [Sum.shape] multidirectional broadcasting
    "Sum.err.same-shape",  // [Sum.err.same-shape] [Sum.v1] [Sum.v6] no broadcasting
    {},
    {},
};

// [Sum.float.formula] Y[i] = Σ_m Ẋm[i]
// [Sum.order] the oracle adds the terms in increasing m, from −0
// [Sum.unary] one input: the input itself (one term, no rounding)
const SumClauses kClauses{"Sum", false, "Sum.float.formula", "Sum.order", "Sum.unary"};

}  // namespace

Tensor sum(int version, const std::vector<const Tensor*>& inputs) {
  return computed_variadic(kSum, kClauses, version, sum_types(version), inputs);
}

Decision decide_sum(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  return decide_computed_variadic(kSum, kClauses, version, v, i);
}

std::vector<Reach> reach_sum(int version, const NodeValues& v, const std::vector<Source>& sources) {
  return reach_computed_variadic(kSum, kClauses, version, v, sources);
}

}  // namespace sonnx::ops
