// spec/ops/max.md — read this file side by side with its sections.
//
// The definition, once: the output index space ([Max.shape]), the index set of the formula for an
// output index i — Ẋm[i] for m = 0..L, each input read through its broadcast map
// ([Common.broadcast.map]) — and the selection rule, the left fold of max_of in increasing m
// ([Max.float.formula], [Max.int.formula]). Max and Min are the same formula under the two orders:
// ops/variadic.cpp holds it once; this file names Max's types and clauses.
#include "ops/max.hpp"

#include "ops/variadic.hpp"

namespace sonnx::ops {

std::vector<DType> max_types(int version) {
  // [Max.v1] [Max.v6] [Max.v8] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 12)  // [Max.v12] the eight integer types join
    t.insert(t.end(), {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Uint8,
                       DType::Uint16, DType::Uint32, DType::Uint64});
  if (version >= 13) t.push_back(DType::BFloat16);  // [Max.v13]
  return t;
}

namespace {

const VariadicClauses kMax{
    "Max", Extreme::Max,
    "Max.err.arity",       // [Max.err.arity] between 1 and 2147483647 inputs, none absent
    "Max.err.type",        // [Max.err.type] one T for every input
    "Max.err.dtype",       // [Max.err.dtype] T accepted by the version
    "Max.err.broadcast",   // [Max.err.broadcast] [Max.v8] [Max.shape] multidirectional broadcasting
    "Max.err.same-shape",  // [Max.err.same-shape] [Max.v1] [Max.v6] no broadcasting
    // [Max.float.formula] Y[i] = max_of(... max_of(Ẋ0[i], Ẋ1[i]) ..., ẊL[i]); [Max.float.nan] the first
    // NaN, bit for bit; [Max.float.zero] +0 above -0
    {"Max.float.formula", "Max.float.nan", "Max.float.zero", Extreme::Max},
    {"Max.int.formula", "", "", Extreme::Max},  // [Max.int.formula] the integer order
};

}  // namespace

Tensor max(int version, const std::vector<const Tensor*>& inputs) {
  return variadic(kMax, version, max_types(version), inputs);
}

std::vector<Reach> reach_max(int version, const NodeValues& v, const std::vector<Source>& sources) {
  return reach_variadic(kMax, version, v, sources);
}

Decision decide_max(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  return decide_variadic(kMax, version, v, i);
}

}  // namespace sonnx::ops
