// spec/ops/add.md — read this file side by side with its sections.
//
// The definition, once: C[i] = fl_T(Ȧ[i] + Ḃ[i]) for the float types ([Add.float.formula]) and the
// integer sum modulo 2^w (or truncated, Div) for the integers, over the binary map of
// spec/common/arithmetic.md — ops/arith.cpp holds it once for Add, Sub, Mul and Div; this file names
// Add's clauses.
#include "ops/add.hpp"

namespace sonnx::ops {

namespace {

const ArithClauses kAdd{
    "Add", BinaryOp::Add,
    "Add.err.dtype",      // [Add.err.dtype] T accepted by the version ([Add.v1] [Add.v6] [Add.v13] [Add.v14])
    "Add.err.type",       // [Add.err.type] one T for A and B
    "Add.err.broadcast",  // [Add.err.broadcast] [Add.v7] multidirectional broadcasting
    "Add.err.legacy",     // [Add.err.legacy] [Add.v1] [Add.v6] B fits A by the legacy rule
    nullptr,
    "Add.float.formula",  // [Add.float.formula] C[i] = fl_T(Ȧ[i] + Ḃ[i])
    "Add.int.formula",  // [Add.int.formula] modulo 2^w ([Common.arith.int])
};

}  // namespace

Tensor add(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy) {
  return arith(kAdd, version, A, B, legacy);
}

Decision decide_add(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i) {
  return decide_arith(kAdd, version, v, legacy, i);
}

std::vector<Reach> reach_add(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources) {
  return reach_arith(kAdd, version, v, legacy, sources);
}

}  // namespace sonnx::ops
