// spec/common/order.md: the one order used by every operator of sonnx-ref.
//
// Everything here is written to inline into the operators' loops and to compile to straight-line
// code the compiler can vectorise: no calls, no branches on the data, no conversion of a float to
// another type. Each function is still the clause it cites.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/dtype.hpp"

namespace sonnx {

// NaN test for every element type (false for integers and bool).
template <class T> inline bool is_nan(T x) {
  // 16-bit: exponent all ones and fraction != 0, i.e. the magnitude bits above those of Inf. The
  // comparison is written in 16-bit integers, so that a vectorised loop keeps 8 elements a vector.
  if constexpr (std::is_same_v<T, float16>) return static_cast<std::int16_t>(bits(x) & 0x7FFF) > std::int16_t{0x7C00};
  else if constexpr (std::is_same_v<T, bfloat16>) return static_cast<std::int16_t>(bits(x) & 0x7FFF) > std::int16_t{0x7F80};
  else if constexpr (std::is_floating_point_v<T>) return x != x;  // IEEE: only a NaN is unequal to itself
  else return false;
}

// Exact real value of a non-NaN floating element (float16/bfloat16/float are all doubles).
template <class T> double real_value(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return to_double(x);
  else return static_cast<double>(x);
}

template <class T> bool negative_sign(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return sign_bit(x);
  else return std::signbit(x);
}

// The unsigned integer type of T's width, and T's bit pattern as one.
template <class T> using bits_t =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
template <class T> inline bits_t<T> bits_of(T x) {
  if constexpr (std::is_same_v<T, bool>) return x ? 1 : 0;
  else return std::bit_cast<bits_t<T>>(x);
}

// The rank of a value in the order, as an integer: for non-NaN a and b of one type,
// a ≺ b  if and only if  order_key(a) < order_key(b).
//
// [Common.order.total] Floats: write a non-NaN pattern as its sign s and its magnitude m (every bit
// but the sign, read as an unsigned integer). For patterns of one sign the value grows with m, by
// the layout of IEEE 754 (exponent field above the fraction field, subnormals below the normals,
// Inf above every finite value). The key is m for s = 0 and -1 - m for s = 1: this keeps the
// positives in order, reverses the negatives, and puts -0 (key -1) directly below +0 (key 0) —
// the order -Inf ≺ negatives ≺ -0 ≺ +0 ≺ positives ≺ +Inf, with equal keys only for equal bits.
// As a signed integer of the type's width w, -1 - m is the pattern with its low w-1 bits flipped.
// [Common.order.int] Integers and bool: the value itself (False = 0 ≺ True = 1).
template <class T> inline auto order_key(T x) {
  if constexpr (is_float_v<T>) {
    using S = std::make_signed_t<bits_t<T>>;
    const S i = static_cast<S>(bits_of(x));
    constexpr S low_bits = std::numeric_limits<S>::max();  // 0x7F...F
    return static_cast<S>(i ^ static_cast<S>((i >> (sizeof(S) * 8 - 1)) & low_bits));
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<std::uint8_t>(x);
  } else {
    return x;
  }
}

// The element whose order key is k (the inverse of order_key: flipping the low bits of a negative
// key twice gives the pattern back).
template <class T, class K> inline T from_order_key(K k) {
  if constexpr (is_float_v<T>) {
    using S = std::make_signed_t<bits_t<T>>;
    const S i = static_cast<S>(k);
    constexpr S low_bits = std::numeric_limits<S>::max();
    return std::bit_cast<T>(static_cast<bits_t<T>>(i ^ static_cast<S>((i >> (sizeof(S) * 8 - 1)) & low_bits)));
  } else {
    return static_cast<T>(k);
  }
}

// The magnitude bits of a float type: every bit but the sign ([Common.dtype.float16],
// [Common.dtype.bfloat16], [Common.dtype.float]).
template <class T> inline constexpr bits_t<T> magnitude_mask = static_cast<bits_t<T>>(std::numeric_limits<bits_t<T>>::max() >> 1);

// a ≻ b for non-NaN a and b.
template <class T> inline bool greater(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    // [Common.order.total] float, double: case 1, the value of b is less than the value of a (the
    // IEEE comparison); case 2, a is +0 and b is -0 — equal values whose signs differ, which only
    // zeros are: then a's bits, read as a signed integer, are 0 and b's are negative (float); or the
    // sign read by copysign (double: baseline x86-64 has no vector compare of 64-bit integers).
    if constexpr (sizeof(T) == 4) {
      using S = std::make_signed_t<bits_t<T>>;
      return (a > b) | ((a == b) & (std::bit_cast<S>(a) > std::bit_cast<S>(b)));
    } else {
      return (a > b) | ((a == b) & (std::copysign(T(1), a) > std::copysign(T(1), b)));
    }
  } else {
    // [Common.order.total] float16, bfloat16, by their order keys; [Common.order.int] integers and
    // bool, by value (the key is the value).
    return order_key(a) > order_key(b);
  }
}

// `if c then b else a`, without a branch the data could mispredict: float and double select the
// value itself (a blend of registers inside a vectorised loop), the other types their bit patterns (an
// integer selection: a conditional move, or a blend). Either way the result is b's or a's bits.
template <class T> inline T choose(bool c, T b, T a) {
  if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>) return c ? b : a;
  else return std::bit_cast<T>(c ? bits_of(b) : bits_of(a));
}

// The two orders of the family: the max order ([Common.order.max]) selects the greatest element,
// the min order ([Common.order.min]) the least; both keep the first NaN. Every kernel, fold and
// selection below is written once for both, with the order as a template parameter.
enum class Extreme { Max, Min };

// Whether b wins over a under the order E, for non-NaN a and b: b ≻ a (max order), b ≺ a (min order).
template <Extreme E, class T> inline bool beats(T b, T a) {
  if constexpr (E == Extreme::Max) return greater(b, a);
  else return greater(a, b);
}

// [Common.order.max] max_of(a, b): a if a is NaN; else b if b is NaN ([Common.order.nan]); else b
// if a ≺ b; else a (then b ≺ a, or a and b are the same bits).
// [Common.order.min] min_of(a, b): the same with b ≺ a in the third case.
// The conditions are combined with & and |, not && and ||, so that no branch depends on the data.
template <Extreme E, class T> inline T extreme_of(T a, T b) {
  const bool take_b = (!is_nan(a)) & (is_nan(b) | beats<E>(b, a));
  return choose(take_b, b, a);
}
template <class T> inline T max_of(T a, T b) { return extreme_of<Extreme::Max>(a, b); }
template <class T> inline T min_of(T a, T b) { return extreme_of<Extreme::Min>(a, b); }

// The least element of T under the order — -Inf for the float types ([Common.order.total]), the
// type's minimum for the integers and False for bool ([Common.order.int]) — hence the identity of
// max_of: max_of(lowest, x) is x, bit for bit, for every x.
template <class T> T lowest() {
  if constexpr (std::is_same_v<T, float16>) return float16{0xFC00};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0xFF80};
  else if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
// The greatest element — +Inf, the type's maximum, True — the identity of min_of ([Common.order.min]).
template <class T> T highest() {
  if constexpr (std::is_same_v<T, float16>) return float16{0x7C00};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0x7F80};
  else if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}
// The identity of the order E's binary selection: the element every other element wins over.
template <Extreme E, class T> T identity() {
  if constexpr (E == Extreme::Max) return lowest<T>();
  else return highest<T>();
}

// [Common.order.min] The dual δ: the sign bit flipped (float types: IEEE negation, exact, a NaN stays
// a NaN), every bit complemented (integers: -1 - x, 2^w - 1 - x), negation (bool). An involution
// that reverses the order on the non-NaN values, so min_of(a, b) ≡ δ(max_of(δa, δb)).
template <class T> inline T dual(T x) {
  if constexpr (std::is_same_v<T, bool>) return !x;
  else if constexpr (is_float_v<T>) return std::bit_cast<T>(static_cast<bits_t<T>>(bits_of(x) ^ static_cast<bits_t<T>>(~magnitude_mask<T>)));
  else return std::bit_cast<T>(static_cast<bits_t<T>>(~bits_of(x)));
}

// The values 1 and +0 of T ([Common.dtype.set]).
template <class T> T one() {
  if constexpr (std::is_same_v<T, float16>) return float16{0x3C00};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0x3F80};
  else return T(1);
}
template <class T> T zero() {
  if constexpr (std::is_same_v<T, float16>) return float16{0x0000};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0x0000};
  else return T(0);
}
// -0 of a float type ([Common.order.total]).
template <class T> T negative_zero() {
  if constexpr (std::is_same_v<T, float16>) return float16{0x8000};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0x8000};
  else return -T(0);
}

// The pattern of +Inf of a float type ([Common.dtype.float16], [Common.dtype.bfloat16], [Common.dtype.float]).
template <class T> inline bits_t<T> infinity_bits() { return bits_of(lowest<T>()) & magnitude_mask<T>; }  // |-Inf|
// An infinity (either sign) / a subnormal (exponent field 0, fraction not 0): float types only.
template <class T> inline bool is_infinite(T x) { return (bits_of(x) & magnitude_mask<T>) == infinity_bits<T>(); }
template <class T> inline bool is_subnormal(T x) {
  const auto m = bits_of(x) & magnitude_mask<T>;
  return m != 0 && (m & infinity_bits<T>()) == 0;  // the exponent field is the bits of +Inf
}

// What the left fold of max_of (or min_of, order E) over a sequence S(0), ..., S(n-1) selects
// ([Common.order.max], [Common.order.min]), with the facts the operators' clauses, and the situations
// of [Check.coverage], speak of. The fold's value is bitwise equal to one member; `position` is the
// first member with those bits: the first NaN when there is a NaN ([Common.order.nan-payload]), else
// the first element equal to the greatest (least) ([Common.order.total]); `last` is the last NaN, or
// the last element with the value's bits.
struct Selection {
  std::int64_t position = -1;      // -1: the sequence is empty
  std::int64_t last = -1;          // the last NaN (NaN value), else the last member with the value's bits
  bool nan = false;                // the value is a NaN
  std::int64_t nans = 0;           // NaNs in the sequence
  bool nan_bits_differ = false;    // another NaN of the sequence has other bits than the value
  bool zero_tie = false;           // the value is the winning zero (+0; -0 in the min order) and the sequence holds the other zero
  bool negative_zero_first = false;  // with zero_tie: a -0 comes before the first +0
  std::int64_t equal = 0;          // other members with the value's bits (non-NaN value)
  bool subnormal = false;          // the value is a subnormal (float types)
  bool infinite = false;           // no NaN, and the sequence holds an infinity (float types)
  bool extreme = false;            // the sequence holds the type's least or greatest value (integer types)
};

template <class T, Extreme E = Extreme::Max, class Read> Selection fold_selection(std::int64_t n, Read S) {
  Selection s;
  if (n == 0) return s;
  T value = S(0);
  for (std::int64_t k = 1; k < n; ++k) value = extreme_of<E>(value, S(k));  // the fold itself
  s.nan = is_nan(value);
  bool zero_seen = false;
  for (std::int64_t k = 0; k < n; ++k) {
    const T x = S(k);
    const bool same = bits_of(x) == bits_of(value);
    if (same && s.position < 0) s.position = k;
    else if (same && !s.nan) ++s.equal;
    if (s.nan ? is_nan(x) : same) s.last = k;
    s.nans += is_nan(x);
    s.nan_bits_differ = s.nan_bits_differ || (s.nan && is_nan(x) && !same);
    if constexpr (is_float_v<T>) {
      const bool negative_zero_x = bits_of(x) == bits_of(negative_zero<T>());
      const bool positive_zero_x = bits_of(x) == bits_of(zero<T>());
      const T winning_zero = E == Extreme::Max ? zero<T>() : negative_zero<T>();
      const bool other_zero_x = E == Extreme::Max ? negative_zero_x : positive_zero_x;
      s.zero_tie = s.zero_tie || (other_zero_x && bits_of(value) == bits_of(winning_zero));
      if (!zero_seen && (negative_zero_x || positive_zero_x)) {
        zero_seen = true;
        s.negative_zero_first = negative_zero_x;
      }
      const bool infinite_x = is_infinite(x);
      s.infinite = s.infinite || infinite_x;
    } else if constexpr (!std::is_same_v<T, bool>) {
      s.extreme = s.extreme || x == std::numeric_limits<T>::min() || x == std::numeric_limits<T>::max();
    }
  }
  if constexpr (is_float_v<T>) {
    s.infinite = s.infinite && !s.nan;
    s.subnormal = !s.nan && is_subnormal(value);
  }
  s.negative_zero_first = s.negative_zero_first && s.zero_tie;
  return s;
}

}  // namespace sonnx
