// spec/ops/mul.md — read this file side by side with its sections.
//
// The definition, once: C[i] = fl_T(Ȧ[i] × Ḃ[i]) for the float types ([Mul.float.formula]) and the
// integer product modulo 2^w (or truncated, Div) for the integers, over the binary map of
// spec/common/arithmetic.md — ops/arith.cpp holds it once for Add, Sub, Mul and Div; this file names
// Mul's clauses.
#include "ops/mul.hpp"

namespace sonnx::ops {

namespace {

const ArithClauses kMul{
    "Mul", BinaryOp::Mul,
    "Mul.err.dtype",      // [Mul.err.dtype] T accepted by the version ([Mul.v1] [Mul.v6] [Mul.v13] [Mul.v14])
    "Mul.err.type",       // [Mul.err.type] one T for A and B
    "Mul.err.broadcast",  // [Mul.err.broadcast] [Mul.v7] multidirectional broadcasting
    "Mul.err.legacy",     // [Mul.err.legacy] [Mul.v1] [Mul.v6] B fits A by the legacy rule
    nullptr,
    "Mul.float.formula",  // [Mul.float.formula] C[i] = fl_T(Ȧ[i] × Ḃ[i])
    "Mul.int.formula",  // [Mul.int.formula] modulo 2^w ([Common.arith.int])
};

}  // namespace

Tensor mul(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy) {
  return arith(kMul, version, A, B, legacy);
}

Decision decide_mul(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i) {
  return decide_arith(kMul, version, v, legacy, i);
}

std::vector<Reach> reach_mul(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources) {
  return reach_arith(kMul, version, v, legacy, sources);
}

}  // namespace sonnx::ops
