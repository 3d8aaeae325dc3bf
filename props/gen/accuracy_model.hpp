// spec/common/accuracy.md restated on the test side, for the properties of accuracy_props.cpp,
// conv_props.cpp, gemm_props.cpp and matmul_props.cpp. Nothing here calls src/core/accuracy.* or the
// operators: the operators are called by the properties, which compare what they report (Y's bits and
// Y.annex) with what is restated here.
//
//  - the constants of each float type from the Notation table (p, u, η, λ, Ω), v = u + u²(1 + u);
//  - θ(D) = (1 + v)^D − 1 as expm1l(D · log1pl(v)) in long double (both functions within a few units of
//    2^-64 relative, so θ within 2^-58 of its value: the properties allow 2^-52), the underflow term U
//    and B = θ(D)·S + U of [Acc.bound] and [Acc.bound.underflow], the factor bounds M_k and the partial
//    product P of [Acc.overflow], the allowed set of [Acc.nonfinite] and [Acc.overflow], and an upper
//    bound of the oracle's e_o of [Acc.oracle] (the properties' margin);
//  - the ideal s and S = Σ|t_k|, S⁺, S⁻ exactly (exact::Exact);
//  - evaluations of an element that H allows ([Acc.hyp]): binary summation trees of any shape, each
//    operation in T, in a wider format F, or in F then rounded to T, with or without fused multiply-add,
//    the attributes converted to T where T cannot represent them; and Kahan's compensated sum;
//  - the terms of an output element of MatMul, Gemm and Conv, restated from their documents
//    ([MatMul.shape], [MatMul.float.formula], [Gemm.trans], [Gemm.c], [Gemm.scalars],
//    [Gemm.float.formula], [Conv.shape], [Conv.window], [Conv.group], [Conv.float.formula], with the
//    window geometry of [MaxPool.shape] and [MaxPool.pads.auto]) by exact integer arithmetic;
//  - generators: element values biased to cancellation, wide exponent ranges, products below the
//    normal range, zeros, absorption; whole MatMul, Gemm and Conv cases.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/tensor.hpp"
#include "gen/exact.hpp"
#include "gen/spec_facts.hpp"
#include "ops/conv.hpp"
#include "ops/gemm.hpp"

namespace sonnx::props::acc {

using exact::Exact;
using exact::Fmt;
using exact::Quad;

// ---- The constants of T (spec/common/accuracy.md, Notation) --------------------------------------
struct Constants {
  int p;
  long double u, v;      // u = 2^-p, v = u + u²(1 + u)
  long double eta;       // η_T = η̄
  long double lambda;    // λ_T
  long double omega;     // Ω_T = (2 − 2^-p)·2^emax
};
Constants constants(DType t);
long double theta(DType t, std::int64_t D);  // (1 + v)^D − 1, to within 2^-58 relative

// ---- Terms ([Acc.terms]) -------------------------------------------------------------------------
struct Factor {
  double value = 0;
  bool attribute = false;  // Gemm's alpha or beta (a binary32 value, maybe not a value of T)
};
struct VTerm {
  std::vector<Factor> factors;  // an attribute 1 or -1 is no factor: its sign is `negate`
  bool negate = false;
  int e = 0;       // rounding count (f_k − 1) + c_k
  double M = 1;    // factor bound M_k
  double M_upper = 0;  // a larger factor bound an implementation may use (0: M): only for the margin above B
};
// A term of elements of T (`elements`) and attributes (`attributes`, binary32 values): an attribute
// ±1 is no factor, any other is one, of one more rounding when T cannot represent it; M_k = max(1,
// max_j |x_kj|) ([Acc.bound.underflow]).
VTerm make_term(DType t, const std::vector<double>& elements, const std::vector<double>& attributes = {});
bool representable(DType t, double x);  // x is a value of T (by rounding it: exact::round_pair)

// ---- The restated model of one element -----------------------------------------------------------
enum Allowed : std::uint8_t { kFinite = 1, kPosInf = 2, kNegInf = 4, kNan = 8 };
std::string allowed_text(std::uint8_t a);

struct Model {
  DType t = DType::Float;
  std::int64_t n = 0, D = 0;
  Exact s;                          // the ideal of the finite terms, exactly
  long double S = 0, Spos = 0, Sneg = 0;  // of the finite terms (approx(): within 2^-63)
  long double theta = 0, U = 0, B = 0, P = 0;
  long double B_upper = 0;          // B with the factor bounds M_upper (the margin's reference)
  long double eo = 0;               // an upper bound of the e_o [Acc.oracle] states (m counted generously)
  bool finite_terms = true;         // no NaN or infinite term
  std::uint8_t allowed = kFinite;   // [Acc.nonfinite] [Acc.overflow]
  std::uint8_t ambiguous = 0;       // flags decided by a quantity within 2^-30 of Ω_T (or by the reading
                                    // of D for the finite terms alone): either answer is accepted
  bool ideal_beyond_range = false;  // |s| >= Ω_T
};
// `steps`: the oracle's operations after the sum (Gemm's α·σ and + β·c), for the e_o allowance.
Model restate(DType t, const std::vector<VTerm>& terms, int steps = 0);

// ---- Evaluations in H ([Acc.hyp]) ----------------------------------------------------------------
struct Node {
  int leaf = -1;        // a term's index, or -1
  int left = -1, right = -1;
};
struct Tree {
  std::vector<Node> nodes;
  int root = -1;
};
Tree left_to_right(const std::vector<int>& order);
Tree pairwise(const std::vector<int>& order);
Tree blocked(const std::vector<int>& order, int block);     // blocks summed left to right, then combined so
Tree random_splits(const std::vector<int>& order, const std::vector<std::uint32_t>& r);  // split point r[i] mod size
std::vector<int> identity_order(int n);
int height(const Tree& tree);

enum class Mode : std::uint8_t { T, F, FT };  // rounded to T; to F; to F then to T
struct OpChoice {
  Mode mode = Mode::T;
  bool fuse = false;  // an internal node with a product leaf below: fma
};
struct Evaluation {
  Fmt t = Fmt::F32, f = Fmt::F64;  // T and the wider format F
  std::vector<OpChoice> ops;       // one per node of the tree (leaves: their multiplications' mode)
  std::string name;
};
// Every node the same choice.
Evaluation uniform(const Tree& tree, DType t, Fmt f, Mode mode, bool fuse, std::string name);
// The value of the tree in T (the result rounded to T last, unless `round_result` is false).
Quad evaluate(const Tree& tree, const std::vector<VTerm>& terms, const Evaluation& e, bool round_result = true);
// One operation in `mode`: rounded to T (its operands rounded to T first, which H allows at any
// point), to F, or to F then to T.
Quad op_add(Quad a, Quad b, Fmt t, Fmt f, Mode mode);
Quad op_mul(Quad a, Quad b, Fmt t, Fmt f, Mode mode);
Quad op_fma(Quad a, Quad b, Quad c, Fmt t, Fmt f, Mode mode);
// A factor as an operand in `mode`: an attribute T cannot represent converted to T under Mode::T.
Quad operand(const Factor& x, Fmt t, Mode mode);
// One term's value with its multiplications in `mode` (attributes converted to T under Mode::T).
Quad term_value(const VTerm& term, Fmt t, Fmt f, Mode mode);
// Kahan's compensated summation in T of the terms computed in T, in `order`.
Quad kahan(const std::vector<VTerm>& terms, const std::vector<int>& order, Fmt t);
// Whether the tree fused at least one node (for classification).
bool any_fused(const Tree& tree, const std::vector<VTerm>& terms, const Evaluation& e);

// ---- Checking a value against the model ----------------------------------------------------------
struct Verdict {
  bool ok = true;
  std::string why;
};
// r (a value of T, or ±Inf, NaN) against the restated model: a NaN or an infinity must be in the
// allowed set; a finite r must be allowed and within B (+ extra) of s, exactly (B rounded up by
// 2^-52 relative for the long double evaluation of θ).
Verdict within_bound(const Model& m, double r, long double extra = 0);
// |r − s| / B, for classification.
long double fraction_of_bound(const Model& m, double r);

// ---- Operator terms ------------------------------------------------------------------------------
// A term as members of the node's inputs (input position, row-major offset) and attributes.
struct OpTerm {
  std::vector<std::pair<int, std::int64_t>> members;
  std::vector<double> attributes;
};

// [MatMul.shape] The output shape, or nullopt when refused.
std::optional<Shape> matmul_shape(const Shape& a, const Shape& b);
// [MatMul.float.formula] [MatMul.order] The terms of Y at `y` (an index of matmul_shape(a, b)).
std::vector<OpTerm> matmul_terms(const Shape& a, const Shape& b, const Index& y);

struct GemmGeometry {
  std::int64_t M = 0, K = 0, N = 0;
};
GemmGeometry gemm_geometry(const Shape& a, const Shape& b, const ops::GemmParams& p);
// [Gemm.float.formula] the terms α·A'[i, k]·B'[k, j] (k ascending) and β·Ċ[i, j]; `c` null: no C.
std::vector<OpTerm> gemm_terms(const Shape& a, const Shape& b, const Shape* c, const ops::GemmParams& p, std::int64_t i,
                               std::int64_t j);

// [MaxPool.shape] [MaxPool.pads.auto] with ceil_mode 0, for Conv ([Conv.shape]).
struct ConvGeometry {
  std::vector<std::int64_t> k, s, dil, pb, pe, out;
};
ConvGeometry conv_geometry(const Shape& x, const Shape& w, const ops::ConvParams& p);
Shape conv_shape(const Shape& x, const Shape& w, const ConvGeometry& g);
// [Conv.window] [Conv.window.padding] [Conv.group] [Conv.order] The terms of Y at `y`: for c' ascending
// and the kernel offsets q inside X in row-major order, X[n, g(m)·C_g + c', x(o, q)]·W[m, c', q]; then
// B[m] when `bias`.
std::vector<OpTerm> conv_terms(const Shape& x, const Shape& w, bool bias, const ops::ConvParams& p, const ConvGeometry& g,
                               const Index& y);

// The VTerms of OpTerms on the inputs' values. `gemm_bound`: for Gemm's three-factor terms, the
// factor bound M_ij of [Gemm.float.formula] (max(1, |α|, the row of A', the column of B')); Gemm's C
// term β·c keeps M_k = max(1, |β|, |c|) of [Acc.bound.underflow], with M_ij as its M_upper.
std::vector<VTerm> values_of(DType t, const std::vector<OpTerm>& terms, const std::vector<const Tensor*>& inputs,
                             std::optional<double> gemm_bound = std::nullopt);
double value_at(const Tensor& x, std::int64_t offset);  // decode(bits_at)

// ---- Generators ----------------------------------------------------------------------------------
enum class Kind { Narrow, Wide, Underflow, Cancel, NearZero, Absorb, Zeros, Mixed };
const char* kind_name(Kind k);

// A value of T (as a double) with an exponent in [lo, hi] (unbiased; below emin: a subnormal of T),
// a random sign and fraction (often short, so that sums cancel exactly).
rc::Gen<double> value_in(DType t, int lo, int hi);
// The largest exponent of a factor such that n products of two factors and one bias stay below Ω_T / 2.
int factor_exponent_cap(DType t, std::int64_t n);

// n products of two factors of T and an optional one-factor term, of one kind.
struct TermsCase {
  DType t = DType::Float;
  Kind kind = Kind::Narrow;
  std::vector<std::pair<double, double>> products;
  std::optional<double> bias;
  std::vector<VTerm> terms() const;  // the products, then the bias
};
void showValue(const TermsCase& c, std::ostream& os);
struct TermsOpts {
  std::vector<DType> types = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};
  int max_products = 64;
  bool nonfinite = false;      // NaN and infinite factors
  bool near_overflow = false;  // products near Ω_T / n and beyond (short types)
};
rc::Gen<TermsCase> terms_case(TermsOpts o = {});

// The element through an operator: MatMul of (1, K) by (K, 1), Gemm with C = [[bias]], or Conv of X
// (1, K, 1) and W (1, K, 1) with B = [bias] (`via` 0, 1, 2; a bias needs Gemm or Conv). Returns Y.
Tensor through_operator(const TermsCase& c, int via);

// A tensor of T of `shape` whose elements come from value_in(t, lo, hi) (and ±0 sometimes).
rc::Gen<Tensor> tensor_in(DType t, const Shape& shape, int lo, int hi);

}  // namespace sonnx::props::acc
