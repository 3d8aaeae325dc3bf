// Whole cases of the computing operators (MatMul, Gemm, Conv) for the properties of the accuracy model,
// valid by construction, with their terms restated on the test side (gen/accuracy_model.hpp), and the
// check of [Acc.prop.accepted] that conv_props.cpp, gemm_props.cpp, matmul_props.cpp and
// accuracy_props.cpp share: every evaluation H allows conforms to the operator's enclosure.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "core/accuracy.hpp"
#include "core/tensor.hpp"
#include "gen/accuracy_model.hpp"
#include "ops/conv.hpp"
#include "ops/gemm.hpp"

namespace sonnx::props::acc {

// ---- The type constraints, re-typed from the Versions tables of spec/ops/ --------------------------
inline const std::vector<int> kMatMulVersions = {1, 9, 13};
inline const std::vector<int> kGemmVersions = {1, 6, 7, 9, 11, 13};
inline const std::vector<int> kConvVersions = {1, 11, 22};
// The float types of each version: float16, float, double; bfloat16 from MatMul-13, Gemm-13, Conv-22.
std::vector<DType> float_types(const std::string& op, int version);

// Which values the inputs hold.
enum class Range {
  Moderate,  // exponents in [-3, 3] (and ±0): no underflow, no overflow
  Wide,      // exponents from T's least subnormal to well below the overflow threshold
  Cancel,    // few distinct magnitudes of both signs (short fractions): exact and near cancellations
  Special,   // Moderate values and NaN, ±Inf, and values near 2^emax (short types)
};
const char* range_name(Range r);

struct CaseOpts {
  std::vector<DType> types = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};
  std::vector<Range> ranges = {Range::Moderate, Range::Wide, Range::Cancel};
};

struct MatMulCase {
  int version = 13;
  Range range = Range::Moderate;
  Tensor A, B;
};
struct GemmCase {
  int version = 13;
  Range range = Range::Moderate;
  Tensor A, B;
  std::optional<Tensor> C;
  ops::GemmParams p;
};
struct ConvCase {
  int version = 22;
  Range range = Range::Moderate;
  Tensor X, W;
  std::optional<Tensor> B;
  ops::ConvParams p;
};
void showValue(const MatMulCase& c, std::ostream& os);
void showValue(const GemmCase& c, std::ostream& os);
void showValue(const ConvCase& c, std::ostream& os);

rc::Gen<MatMulCase> matmul_case(CaseOpts o = {});
rc::Gen<GemmCase> gemm_case(CaseOpts o = {});
rc::Gen<ConvCase> conv_case(CaseOpts o = {});

// A tensor of T of `shape` with values of `range`.
rc::Gen<Tensor> tensor_of_range(DType t, const Shape& shape, Range range);

// One computing case, whichever operator: its output, and each output element's restated terms.
struct Computed {
  std::string op;
  DType t = DType::Float;
  Tensor Y;
  std::vector<std::vector<VTerm>> terms;  // per output element, row-major
  int steps = 0;                          // the oracle's steps after the sum (Gemm), for e_o
  std::string description;                // the case, printed (showValue of the case)
};
void showValue(const Computed& c, std::ostream& os);
Computed run(const MatMulCase& c);
Computed run(const GemmCase& c);
Computed run(const ConvCase& c);
// A case of one of the three operators (drawn), run.
rc::Gen<Computed> any_computed(CaseOpts o = {});

// The two enclosures are the same: hi, lo, radius, bound and oracle bit for bit, and the allowed set.
bool same_element(const accuracy::Element& a, const accuracy::Element& b);
std::string element_text(const accuracy::Element& e);

// [Acc.prop.accepted] Every evaluation of `terms` that H allows — forward, reverse, pairwise, blocked by
// 8, a random tree with random formats and fusions, in T and in each wider format, fused or not, one
// rounding to T of the binary64 (binary128 for double) sum, Kahan's compensated sum in T — conforms to
// `e` (accuracy::judge) and lies within the restated bound of `m`. Fails the case otherwise. Draws
// (the random tree). Returns the number of evaluations judged.
int check_accepted(DType t, const std::vector<VTerm>& terms, const accuracy::Element& e, const Model& m,
                   const std::string& where);

}  // namespace sonnx::props::acc
