// spec/ops/min.md — read this file side by side with its sections.
//
// The definition, once: the output index space ([Min.shape]), the index set of the formula for an
// output index i — Ẋm[i] for m = 0..L, each input read through its broadcast map
// ([Common.broadcast.map]) — and the selection rule, the left fold of min_of in increasing m
// ([Min.float.formula], [Min.int.formula]): Max's formula under the min order ([Common.order.min]).
// ops/variadic.cpp holds it once for both; this file names Min's types and clauses.
#include "ops/min.hpp"

#include "ops/variadic.hpp"

namespace sonnx::ops {

std::vector<DType> min_types(int version) {
  // [Min.v1] [Min.v6] [Min.v8] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 12)  // [Min.v12] the eight integer types join
    t.insert(t.end(), {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Uint8,
                       DType::Uint16, DType::Uint32, DType::Uint64});
  if (version >= 13) t.push_back(DType::BFloat16);  // [Min.v13]
  return t;
}

namespace {

const VariadicClauses kMin{
    "Min", Extreme::Min,
    "Min.err.arity",       // [Min.err.arity] between 1 and 2147483647 inputs, none absent
    "Min.err.type",        // [Min.err.type] one T for every input
    "Min.err.dtype",       // [Min.err.dtype] T accepted by the version
    "Min.err.broadcast",   // [Min.err.broadcast] [Min.v8] [Min.shape] multidirectional broadcasting
    "Min.err.same-shape",  // [Min.err.same-shape] [Min.v1] [Min.v6] no broadcasting
    // [Min.float.formula] Y[i] = min_of(... min_of(Ẋ0[i], Ẋ1[i]) ..., ẊL[i]); [Min.float.nan] the first
    // NaN, bit for bit; [Min.float.zero] -0 below +0
    {"Min.float.formula", "Min.float.nan", "Min.float.zero", Extreme::Min},
    {"Min.int.formula", "", "", Extreme::Min},  // [Min.int.formula] the integer order
};

}  // namespace

Tensor min(int version, const std::vector<const Tensor*>& inputs) {
  return variadic(kMin, version, min_types(version), inputs);
}

std::vector<Reach> reach_min(int version, const NodeValues& v, const std::vector<Source>& sources) {
  return reach_variadic(kMin, version, v, sources);
}

Decision decide_min(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  return decide_variadic(kMin, version, v, i);
}

}  // namespace sonnx::ops
