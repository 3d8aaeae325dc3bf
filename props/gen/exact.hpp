// Exact arithmetic and IEEE 754 arithmetic of the four float types, written on the test side for the
// properties of spec/common/accuracy.md. Nothing here calls src/core/accuracy.* or src/core/float16.*:
//
//  - `Exact` is a signed fixed-point integer of 70 limbs of 64 bits whose least bit weighs 2^-2304: it
//    holds exactly every sum of up to 2^100 products of up to three doubles (a product of two doubles
//    lies between 2^-2252 and 2^2048), so the ideal s of [Acc.ideal] is computed without rounding,
//    and it rounds itself once to any of the formats below, to nearest, ties to even;
//  - the formats are restated from the bit layouts of spec/common/dtypes.md (float16 5/10, bfloat16
//    8/7, binary32 8/23, binary64 11/52, and binary128 15/112 as the wider format of double);
//    `decode` and `encode` read and write the bit patterns of the element types from those layouts;
//  - `Arith` is the arithmetic of one format, each operation rounded once, to nearest, ties to even,
//    with gradual underflow ([Acc.hyp] 1): float16 and bfloat16 emulated (the exact result of an
//    operation on two of their values is a double, or an unevaluated pair of doubles from TwoSum, and
//    is rounded by `round_pair`, which reads the pair's rounding direction exactly); binary32 and
//    binary64 on the machine's own IEEE arithmetic (SSE, -ffp-contract=off), fma by std::fmaf /
//    std::fma; binary128 by the compiler's __float128 (soft-float, correctly rounded).
#pragma once
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace sonnx::props::exact {

using Quad = __float128;  // holds every value of the four element types and of binary128 exactly

// The formats: the four element types, and binary128 (the wider format of double, [Acc.hyp] 4).
enum class Fmt { F16, BF16, F32, F64, F128 };
Fmt fmt_of(DType t);   // float types only
const char* fmt_name(Fmt f);
void showValue(Fmt f, std::ostream& os);  // RapidCheck's printer
struct FormatFacts {
  int exp_bits, frac_bits;  // the layout (spec/common/dtypes.md)
  int p;                    // precision, hidden bit included: frac_bits + 1
  int emin, emax;           // least normal exponent 1 - bias, greatest exponent bias
};
FormatFacts facts(Fmt f);
// The wider formats H admits for T ([Acc.hyp] 4: p_F >= 2 p_T): float16 / bfloat16 -> binary32 or
// binary64, binary32 -> binary64, binary64 -> binary128.
std::vector<Fmt> wider_formats(Fmt t);

// The value of a bit pattern of a float element type (a NaN decodes to a quiet NaN of double).
double decode(DType t, std::uint64_t bits);
// The pattern of x, rounded to nearest even in T first (±Inf beyond the range; a NaN gives the
// quiet NaN with the sign bit clear).
std::uint64_t encode(DType t, double x);

// Rounds hi + lo to the format f (F16, BF16 or F32), once, to nearest, ties to even, where (hi, lo)
// is exact and hi is the double nearest to hi + lo (TwoSum's pair; lo = 0 for a double): the
// midpoints of f's values are doubles, so hi lies on the same side of each of them as hi + lo, and
// only when hi is one does lo's sign decide. ±Inf from the overflow threshold on; NaN and infinite
// hi are returned as they are.
double round_pair(Fmt f, double hi, double lo);
// The same as a bit pattern of f's layout (exponent and fraction fields built by hand).
std::uint64_t round_pair_bits(Fmt f, double hi, double lo);

// A signed fixed-point integer: the exact sum of products of doubles.
class Exact {
 public:
  static constexpr int kLimbs = 70;
  static constexpr int kLow = -2304;  // the weight 2^kLow of the least bit

  Exact() = default;
  explicit Exact(double x) { add(x); }
  // += the exact product of `n` finite doubles (n = 0: += 1), negated when `negate`.
  void add_product(const double* factors, int n, bool negate = false);
  void add(double x, bool negate = false) { add_product(&x, 1, negate); }
  void add(long double x, bool negate = false);  // finite x
  void add(const Exact& other, bool negate = false);
  int sign() const;  // -1, 0, 1
  Exact abs() const;
  // |this| <= bound, exactly (bound finite and >= 0, or +Inf).
  bool abs_le(long double bound) const;
  // |this| compared with |other|: -1, 0, 1.
  int compare_abs(const Exact& other) const;
  // The value, truncated to 64 significant bits (relative error below 2^-63).
  long double approx() const;
  // Rounded once to f (F16, BF16, F32, F64), to nearest, ties to even; ±Inf beyond the range. An
  // exact 0 gives +0.
  double round_to(Fmt f) const;
  std::string text() const;  // for messages: the approximate value

 private:
  void add_bits(const std::uint64_t* chunk, int chunk_limbs, int bit_position, bool negate);
  bool bit(int i) const;  // of the magnitude representation (non-negative values only)
  std::array<std::uint64_t, kLimbs> w_{};  // two's complement, little-endian
};

// The arithmetic of one format: each operation's exact result rounded once to the format. Operands
// must be values of the format (the caller rounds them first where the evaluation says so), except
// fma's a and b, which may be values of a narrower format.
Quad add(Fmt f, Quad x, Quad y);
Quad mul(Fmt f, Quad x, Quad y);
Quad fma(Fmt f, Quad a, Quad b, Quad c);  // a·b + c, one rounding (for F128: a·b exact when a, b are doubles)
// x (a value of a wider format) rounded once to f.
Quad round(Fmt f, Quad x);
inline double to_double(Quad x) { return static_cast<double>(x); }  // exact for values of the four types
bool is_nan(Quad x);
bool is_inf(Quad x);

}  // namespace sonnx::props::exact
