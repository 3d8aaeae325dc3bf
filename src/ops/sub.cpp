// spec/ops/sub.md — read this file side by side with its sections.
//
// The definition, once: C[i] = fl_T(Ȧ[i] - Ḃ[i]) for the float types ([Sub.float.formula]) and the
// integer difference modulo 2^w (or truncated, Div) for the integers, over the binary map of
// spec/common/arithmetic.md — ops/arith.cpp holds it once for Add, Sub, Mul and Div; this file names
// Sub's clauses.
#include "ops/sub.hpp"

namespace sonnx::ops {

namespace {

const ArithClauses kSub{
    "Sub", BinaryOp::Sub,
    "Sub.err.dtype",      // [Sub.err.dtype] T accepted by the version ([Sub.v1] [Sub.v6] [Sub.v13] [Sub.v14])
    "Sub.err.type",       // [Sub.err.type] one T for A and B
    "Sub.err.broadcast",  // [Sub.err.broadcast] [Sub.v7] multidirectional broadcasting
    "Sub.err.legacy",     // [Sub.err.legacy] [Sub.v1] [Sub.v6] B fits A by the legacy rule
    nullptr,
    "Sub.float.formula",  // [Sub.float.formula] C[i] = fl_T(Ȧ[i] - Ḃ[i])
    "Sub.int.formula",  // [Sub.int.formula] modulo 2^w ([Common.arith.int])
};

}  // namespace

Tensor sub(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy) {
  return arith(kSub, version, A, B, legacy);
}

Decision decide_sub(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i) {
  return decide_arith(kSub, version, v, legacy, i);
}

std::vector<Reach> reach_sub(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources) {
  return reach_arith(kSub, version, v, legacy, sources);
}

}  // namespace sonnx::ops
