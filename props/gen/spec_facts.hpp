// Facts of spec/ restated on the test side, independently of src/: the type constraint of each
// operator version, the bit layouts of the element types, the order as an integer ranking of bit
// patterns, the constants the clauses name, and the index arithmetic of row-major tensors and of
// broadcasting. Properties compare the operators against these restatements; nothing here calls
// src/ops or src/core/order.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::props {

// ---- Versions and type constraints ------------------------------------------------------------

inline const std::vector<int> kMaxVersions = {1, 6, 8, 12, 13};
inline const std::vector<int> kReduceMaxVersions = {1, 11, 12, 13, 18, 20};
inline const std::vector<int> kHardmaxVersions = {1, 11, 13};
inline const std::vector<int> kMinVersions = {1, 6, 8, 12, 13};
inline const std::vector<int> kReduceMinVersions = {1, 11, 12, 13, 18, 20};
inline const std::vector<int> kArgVersions = {1, 11, 12, 13};  // ArgMax and ArgMin
inline const std::vector<int> kReluVersions = {1, 6, 13, 14};
inline const std::vector<int> kClipVersions = {1, 6, 11, 12, 13};
inline const std::vector<int> kMaxPoolVersions = {1, 8, 10, 11, 12, 22};
inline const std::vector<int> kGlobalMaxPoolVersions = {1, 22};

// [Max.v1] [Max.v6] [Max.v8] [Max.v12] [Max.v13]
std::vector<DType> spec_max_types(int version);
// [ReduceMax.v1] [ReduceMax.v11] [ReduceMax.v12] [ReduceMax.v13] [ReduceMax.v18] [ReduceMax.v20]
std::vector<DType> spec_reducemax_types(int version);
// [Hardmax.v1] [Hardmax.v11] [Hardmax.v13]
std::vector<DType> spec_hardmax_types(int version);
// [Min.v1] [Min.v6] [Min.v8] [Min.v12] [Min.v13] (ONNX's Min-N type constraints)
std::vector<DType> spec_min_types(int version);
// [ReduceMin.v1] [ReduceMin.v11] [ReduceMin.v12] [ReduceMin.v13] [ReduceMin.v18] [ReduceMin.v20]
std::vector<DType> spec_reducemin_types(int version);
// [ArgMax.v1] [ArgMax.v11] [ArgMax.v12] [ArgMax.v13], and the same table for ArgMin
std::vector<DType> spec_arg_types(int version);
// [Relu.v1] [Relu.v6] [Relu.v13] [Relu.v14]
std::vector<DType> spec_relu_types(int version);
// [Clip.v1] [Clip.v6] [Clip.v11] [Clip.v12] [Clip.v13]
std::vector<DType> spec_clip_types(int version);
// [MaxPool.v1] [MaxPool.v8] [MaxPool.v10] [MaxPool.v11] [MaxPool.v12] [MaxPool.v22]
std::vector<DType> spec_maxpool_types(int version);
// [GlobalMaxPool.v1] [GlobalMaxPool.v22]
std::vector<DType> spec_globalmaxpool_types(int version);
// Every dtype of [Common.dtype.set] that is NOT in `allowed`.
std::vector<DType> complement(const std::vector<DType>& allowed);
bool contains(const std::vector<DType>& types, DType t);

// ---- Bit layouts ([Common.dtype.float16] [Common.dtype.bfloat16] [Common.dtype.float]
//      [Common.dtype.int] [Common.dtype.bool]) ----------------------------------------------------

enum class Family { Float, Signed, Unsigned, Bool };
Family family(DType t);
int width_bits(DType t);  // 8 * bytes per element

// A float layout: sign bit, `exp_bits` exponent bits, `frac_bits` fraction bits.
struct FloatLayout {
  int exp_bits, frac_bits;
  std::uint64_t sign_mask() const { return std::uint64_t{1} << (exp_bits + frac_bits); }
  std::uint64_t exp_mask() const { return ((std::uint64_t{1} << exp_bits) - 1) << frac_bits; }
  std::uint64_t frac_mask() const { return (std::uint64_t{1} << frac_bits) - 1; }
  std::uint64_t quiet_bit() const { return std::uint64_t{1} << (frac_bits - 1); }
  std::uint64_t bias() const { return (std::uint64_t{1} << (exp_bits - 1)) - 1; }
};
FloatLayout float_layout(DType t);  // only for the float family

// The element at row-major offset `k` of `t`, as its bit pattern (zero-extended).
std::uint64_t bits_at(const Tensor& t, std::int64_t k);
void set_bits_at(Tensor& t, std::int64_t k, std::uint64_t bits);
// A tensor of `shape` whose every element has the pattern `bits`.
Tensor filled(DType t, const Shape& shape, std::uint64_t bits);

// NaN: exponent all ones, fraction not zero (float family only; false otherwise).
bool is_nan_bits(DType t, std::uint64_t bits);
bool is_signalling_nan_bits(DType t, std::uint64_t bits);

// ---- The order as a ranking ([Common.order.total] [Common.order.int]) -------------------------
// For non-NaN a, b of one type: a ≺ b  iff  rank(a) < rank(b), and rank(a) = rank(b) iff a ≡ b.
// Floats: +x ranks as its magnitude bits, -x as -(magnitude bits) - 1 (so -0 ranks -1 < +0 = 0);
// integers rank as the integer they denote; False = 0 < True = 1.
using Rank = __int128;
Rank rank_of(DType t, std::uint64_t bits);

// ---- Constants named by clauses ---------------------------------------------------------------
std::uint64_t pos_zero_bits(DType t);  // +0, 0, False: the all-zero pattern
std::uint64_t neg_zero_bits(DType t);  // float only
std::uint64_t one_bits(DType t);       // [Hardmax.float.values] 1 in T
std::uint64_t pos_inf_bits(DType t);   // float only
std::uint64_t neg_inf_bits(DType t);   // float only
// [ReduceMax.float.empty] -Inf, [ReduceMax.int.empty] the type minimum (0 unsigned),
// [ReduceMax.bool.empty] False.
std::uint64_t empty_reduction_bits(DType t);
// [Common.order.min] the greatest element, the identity of min_of: +Inf, the type maximum (all ones
// unsigned, 011...1 signed), True. [ReduceMin.float.empty] [ReduceMin.int.empty] [ReduceMin.bool.empty]
std::uint64_t greatest_bits(DType t);
// [Clip.bounds.default] numeric_limits<T>::lowest() and max(): the least and greatest finite values of
// a float type (the largest exponent below all ones, every fraction bit set, either sign), the
// extremes of an integer type.
std::uint64_t least_finite_bits(DType t);
std::uint64_t greatest_finite_bits(DType t);
// [Common.order.min] (informative) the dual δ: a float's sign bit flipped, an integer's bits
// complemented within its width, a bool negated.
std::uint64_t dual_bits(DType t, std::uint64_t bits);
// The integer an integer pattern denotes (signed or unsigned by the type), as a Rank.
inline Rank int_value(DType t, std::uint64_t bits) { return rank_of(t, bits); }
// A pattern of an integer type holding the value v (two's complement, truncated to the width).
std::uint64_t int_bits(DType t, std::int64_t v);

// ---- [Clip.bounds.convert] a binary32 attribute as a value of T -----------------------------------
// float: the pattern itself; double: the same value (a NaN: quiet, same sign, the 23 fraction bits
// then 29 zeros); float16: the nearest float16 value, ties to the even significand, ±Inf from 65520
// on, a NaN quiet with its 10 leading fraction bits. Restated from the clause with exact values
// (std::ldexp on the fields) and a search over the float16 patterns, not by bit manipulation.
std::uint64_t spec_convert_float_attribute(std::uint32_t binary32, DType t);

// ---- Index arithmetic ([Common.tensor.index] [Common.broadcast.map]) --------------------------
using Index = std::vector<std::int64_t>;
std::int64_t element_count(const Shape& s);           // product of dims (1 for rank 0)
Index unravel(std::int64_t offset, const Shape& s);   // row-major
std::int64_t ravel(const Index& i, const Shape& s);   // sum_k i_k * prod_{l>k} d_l
// f(a, B, C) = a if B = C, else 0.
inline std::int64_t broadcast_f(std::int64_t a, std::int64_t B, std::int64_t C) { return B == C ? a : 0; }
// The index of input `in` read for output index `i` of `out`: coordinate k of the input index is
// f(i_{k+o}, d_k, dY_{k+o}), o = rank(out) - rank(in).
Index broadcast_source(const Index& i, const Shape& in, const Shape& out);
// Bit pattern of Ẋ[i] for input `x` broadcast to `out`.
std::uint64_t broadcast_read(const Tensor& x, const Index& i, const Shape& out);

}  // namespace sonnx::props
