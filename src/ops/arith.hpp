// The element-wise binary map that Add, Sub, Mul and Div share (spec/common/arithmetic.md): the
// output index space, the pair {Ȧ[i], Ḃ[i]} of an output index i — A and B read through the
// multidirectional broadcast of Max and Min ([Common.broadcast.map], versions 7 and later) or the
// legacy broadcast of versions 1 and 6 ([Common.arith.legacy]) — and one operation on it, correctly
// rounded for the float types ([Common.arith.rounding]), modulo 2^w for the integers
// ([Common.arith.int]). Each operator's file names its clauses in an ArithClauses table; this file is
// the formula and the error checks, once for the four.
#pragma once
#include <optional>
#include <vector>

#include "core/index.hpp"
#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

enum class BinaryOp { Add, Sub, Mul, Div };

struct ArithClauses {
  const char* op;  // "Add", "Sub", "Mul", "Div"
  BinaryOp kind;
  // The Error conditions table: a type the version does not accept, two element types, shapes that
  // do not broadcast (versions 7+), B that does not fit A (versions 1 and 6); Div: an integer zero.
  const char* err_dtype;
  const char* err_type;
  const char* err_broadcast;
  const char* err_legacy;
  const char* err_zero;       // Div only (nullptr for the others)
  const char* float_formula;  // C[i] = fl_T(Ȧ[i] ∘ Ḃ[i])
  const char* int_formula;    // the integer clause (Div: truncation toward zero)
};

// The attributes of versions 1 and 6 ([Common.arith.legacy]): `broadcast` (0: none) and `axis`
// (absent: suffix matching).
struct LegacyBroadcast {
  std::int64_t broadcast = 0;
  std::optional<std::int64_t> axis;
};

// [Common.arith.map] [Common.arith.legacy] The binary map, shared with Pow: the output's shape and the
// maps reading A and B over its axes — the multidirectional broadcast from version 7, the legacy rule
// of `broadcast` and `axis` below. Refuses with the operator's own clauses.
struct BinaryClauses {
  const char* op;
  const char* err_broadcast;
  const char* err_legacy;
};
struct BinaryMap {
  Shape shape;
  Strides a, b;
  bool broadcast = false;  // some input is read through a broadcast (not its own shape)
};
BinaryMap binary_map(const BinaryClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy);

// The element types of every version of the four operators (the same for each).
std::vector<DType> arith_types(int version);

// C = A ∘ B for the resolved `version`: checks every error condition, then evaluates C[i] for every i.
Tensor arith(const ArithClauses& c, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& legacy);

// The definition at one index i of C: the pair {Ȧ[i], Ḃ[i]}, the clauses that decided C[i], and the
// check that the evaluated C[i] is the binary64 route's fl_T(a ∘ b) ([Common.arith.rounding]).
Decision decide_arith(const ArithClauses& c, int version, const NodeValues& v, const LegacyBroadcast& legacy,
                      const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of the clauses, and the witness pair that builds each.
std::vector<Reach> reach_arith(const ArithClauses& c, int version, const NodeValues& v, const LegacyBroadcast& legacy,
                               const std::vector<Source>& sources);

}  // namespace sonnx::ops
