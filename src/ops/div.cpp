// spec/ops/div.md — read this file side by side with its sections.
//
// The definition, once: C[i] = fl_T(Ȧ[i] ÷ Ḃ[i]) for the float types ([Div.float.formula]) and the
// integer quotient modulo 2^w (or truncated, Div) for the integers, over the binary map of
// spec/common/arithmetic.md — ops/arith.cpp holds it once for Add, Sub, Mul and Div; this file names
// Div's clauses.
#include "ops/div.hpp"

namespace sonnx::ops {

namespace {

const ArithClauses kDiv{
    "Div", BinaryOp::Div,
    "Div.err.dtype",      // [Div.err.dtype] T accepted by the version ([Div.v1] [Div.v6] [Div.v13] [Div.v14])
    "Div.err.type",       // [Div.err.type] one T for A and B
    "Div.err.broadcast",  // [Div.err.broadcast] [Div.v7] multidirectional broadcasting
    "Div.err.legacy",     // [Div.err.legacy] [Div.v1] [Div.v6] B fits A by the legacy rule
    "Div.err.zero",       // [Div.err.zero] an integer division by zero, refused naming the index
    "Div.float.formula",  // [Div.float.formula] C[i] = fl_T(Ȧ[i] ÷ Ḃ[i])
    "Div.int.formula",  // [Div.int.formula] truncation toward zero, min / -1 wraps
};

}  // namespace

Tensor div(int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy) {
  return arith(kDiv, version, A, B, legacy);
}

Decision decide_div(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<std::int64_t>& i) {
  return decide_arith(kDiv, version, v, legacy, i);
}

std::vector<Reach> reach_div(int version, const NodeValues& v, const LegacyBroadcast& legacy, const std::vector<Source>& sources) {
  return reach_arith(kDiv, version, v, legacy, sources);
}

}  // namespace sonnx::ops
