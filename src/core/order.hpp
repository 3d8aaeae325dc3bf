// spec/common/order.md: the one order used by every operator of sonnx-ref.
#pragma once
#include <cmath>
#include <limits>

#include "core/dtype.hpp"

namespace sonnx {

// NaN test for every element type (false for integers and bool).
template <class T> bool is_nan(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return sonnx::is_nan(x);
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
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

// [Common.order.total] a > b for non-NaN floats: -Inf < negatives < -0 < +0 < positives < +Inf.
// [Common.order.int] a > b for integers (usual order) and bool (False < True).
template <class T> bool greater(T a, T b) {
  if constexpr (is_float_v<T>) {
    const double x = real_value(a), y = real_value(b);
    if (x != y) return x > y;
    return x == 0.0 && !negative_sign(a) && negative_sign(b);  // +0 > -0
  } else {
    return a > b;
  }
}

// [Common.order.max] max_of(a, b): a if a is NaN, else b if b is NaN ([Common.order.nan]);
// else the greater under the order; when neither is greater, a and b are the same value, and
// a is returned.
template <class T> T max_of(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return greater(b, a) ? b : a;
}

// The least element of T: the identity of max_of, used for the empty set
// ([ReduceMax.float.empty] -Inf, [ReduceMax.int.empty] the type's minimum, [ReduceMax.bool.empty] False).
template <class T> T lowest() {
  if constexpr (std::is_same_v<T, float16>) return float16{0xFC00};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{0xFF80};
  else if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}

// The values 1 and +0 of T ([Hardmax.float.values]).
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

}  // namespace sonnx
