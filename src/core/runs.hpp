// The selection rule of spec/common/order.md over a contiguous run of elements, in the forms the
// operators' loops use. Each is the clause it cites, written so that the compiler vectorises it:
// independent lanes, no data-dependent branch inside a loop body, every test accumulated as an
// integer. No intrinsics and no floating-point arithmetic: only comparisons and selections, so the
// results are the same bits on every machine and at every optimisation level.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/order.hpp"

namespace sonnx {

// Elements per block: large enough to amortise a block's own test, small enough for a block read
// twice to stay in the first-level cache.
inline constexpr std::int64_t kRunBlock = 4096;
// Independent lanes of a scan: enough for the widest vector of any element type.
inline constexpr std::int64_t kLanes = 32;

// A hint that the block of kLanes elements kAhead bytes past p will be read soon: one prefetch per
// 64-byte line. Only a hint (it reads nothing the program sees and cannot fault, even past the end of
// the run), so no result depends on it. Why: a scan reads each element once, at the speed memory
// delivers it; on the machine of issue 21 (AMD EPYC, AVX2) a plain scan of 64 MiB of float ran at
// 0.19-0.21 ns per element and the same loop with this hint 1 KiB ahead at 0.175-0.19 (numpy's max:
// 0.21-0.25).
inline constexpr std::int64_t kAhead = 1024;
template <class T> inline void prefetch_block(const T* p) {
  for (std::size_t b = 0; b < kLanes * sizeof(T); b += 64) __builtin_prefetch(reinterpret_cast<const char*>(p) + kAhead + b);
}

// All ones when v is a NaN ([Common.order.nan]), else 0, as an integer of v's width: what a scan ORs
// into its lanes (a mask, so the vector comparison's result is used as it is).
template <class T> inline bits_t<T> nan_mask(T v) { return static_cast<bits_t<T>>(bits_t<T>{0} - static_cast<bits_t<T>>(is_nan(v))); }

// Whether x[0..n-1] holds a NaN ([Common.order.nan]); false for integer and bool runs.
template <class T> inline bool any_nan(const T* x, std::int64_t n) {
  if constexpr (!is_float_v<T>) {
    return false;
  } else {
    bits_t<T> seen = 0;  // an integer OR: the compiler keeps it in a vector register
    for (std::int64_t t = 0; t < n; ++t) seen |= static_cast<bits_t<T>>(is_nan(x[t]));
    return seen != 0;
  }
}

// The position of the first element of x[0..n-1] with the bits of v, or n when there is none: whole
// blocks of kLanes elements, each tested at once (an integer OR of the comparisons' masks, all ones
// for a hit: a fixed trip count the compiler unrolls), then element by element from the first block
// with a hit, or through the last elements.
template <class T> inline std::int64_t first_equal(const T* x, std::int64_t n, T v) {
  using U = bits_t<T>;
  const auto bits = bits_of(v);
  std::int64_t b = 0;
  for (; b + kLanes <= n; b += kLanes) {
    U hit = 0;
    for (std::int64_t t = 0; t < kLanes; ++t) hit |= static_cast<U>(U{0} - static_cast<U>(bits_of(x[b + t]) == bits));
    if (hit != 0) break;
  }
  for (; b < n; ++b)
    if (bits_of(x[b]) == bits) return b;
  return n;
}

// The position of the first NaN of x[0..n-1], or n when there is none ([Common.order.nan-payload]).
template <class T> inline std::int64_t first_nan(const T* x, std::int64_t n) {
  for (std::int64_t b = 0; b < n; b += kRunBlock) {
    const std::int64_t m = std::min(kRunBlock, n - b);
    if (!any_nan(x + b, m)) continue;
    for (std::int64_t t = 0; t < m; ++t)
      if (is_nan(x[b + t])) return b + t;
  }
  return n;
}

// The position of the last element of x[0..n-1] with the bits of v, or -1 when there is none: as
// first_equal, from the end — whole blocks of kLanes elements ending at e, each tested at once, then
// element by element down from the end of the first block with a hit, or through the first elements.
template <class T> inline std::int64_t last_equal(const T* x, std::int64_t n, T v) {
  using U = bits_t<T>;
  const auto bits = bits_of(v);
  std::int64_t e = n;
  for (; e >= kLanes; e -= kLanes) {
    U hit = 0;
    for (std::int64_t t = e - kLanes; t < e; ++t) hit |= static_cast<U>(U{0} - static_cast<U>(bits_of(x[t]) == bits));
    if (hit != 0) break;
  }
  for (; e-- > 0;)
    if (bits_of(x[e]) == bits) return e;
  return -1;
}

// The position of the last NaN of x[0..n-1], or -1 when there is none: blocks from the end, as
// last_equal.
template <class T> inline std::int64_t last_nan(const T* x, std::int64_t n) {
  std::int64_t e = n;
  for (; e >= kLanes; e -= kLanes)
    if (any_nan(x + e - kLanes, kLanes)) break;
  for (; e-- > 0;)
    if (is_nan(x[e])) return e;
  return -1;
}

// One pass over x[0..n-1] (n >= 1): whether it holds a NaN ([Common.order.nan]) and, when it does
// not, its greatest (max order) or least (min order) element. Two elements equal under the order are
// the same bits, so the extreme is one pattern and the elements may be compared in any grouping:
// kLanes running extremes over interleaved elements, then the lanes among themselves. On a run
// without NaN this is the value the left fold of max_of (min_of) gives.
template <class T> struct Scan {
  bool nan = false;
  T greatest{};  // the extreme of the order (the least in the min order); meaningful only when !nan
};

template <Extreme E, class T> inline Scan<T> scan(const T* x, std::int64_t n) {
  using U = bits_t<T>;
  U nan = 0;
  if constexpr (std::is_floating_point_v<T>) {
    // [Common.order.total] float, double. Case 1 of the order — by value — is the IEEE comparison
    // `>` or `<` (false for a NaN, which the NaN lanes record instead); it cannot see the sign of a
    // zero, which case 2 settles afterwards.
    const auto wins = [](T v, T held) { return E == Extreme::Max ? v > held : v < held; };
    // Every lane starts at x[0] and its NaN flag at x[0]'s (the comparison never replaces a NaN held);
    // a flag is all ones once its lane has met a NaN, so the loop ORs the comparison's mask as it is.
    // The flags start from x[0], not from `= {}`: the compiler turns a zero fill into a string store
    // (rep stos) that cost a short run (GlobalMaxPool's 196 elements) more than its comparisons.
    T lane[kLanes];
    U nan_lane[kLanes];
    for (std::int64_t l = 0; l < kLanes; ++l) lane[l] = x[0], nan_lane[l] = nan_mask(x[0]);
    std::int64_t t = 0;
    for (; t + kLanes <= n; t += kLanes) {
      prefetch_block(x + t);
      for (std::int64_t l = 0; l < kLanes; ++l) {
        const T v = x[t + l];
        lane[l] = wins(v, lane[l]) ? v : lane[l];
        nan_lane[l] |= nan_mask(v);
      }
    }
    T g = x[0];
    for (; t < n; ++t) {
      g = wins(x[t], g) ? x[t] : g;
      nan |= static_cast<U>(is_nan(x[t]));
    }
    // The lanes among themselves, pairwise: kLanes/2 comparisons side by side, then kLanes/4, ...
    // (vector compares, not a chain of kLanes dependent ones: what a short run costs). Without a NaN
    // the comparison by value is a total order up to the sign of a zero, which case 2 settles below
    // ([Common.order.total]), so the extreme's value does not depend on the order of comparison.
    for (std::int64_t w = kLanes / 2; w >= 1; w /= 2)
      for (std::int64_t l = 0; l < w; ++l) {
        lane[l] = wins(lane[l + w], lane[l]) ? lane[l + w] : lane[l];
        nan_lane[l] |= nan_lane[l + w];
      }
    g = wins(lane[0], g) ? lane[0] : g;
    nan |= nan_lane[0];  // x[0]'s flag included: the lanes' flags start from it
    if (nan != 0) return {true, g};
    // Case 2: when the extreme value is a zero, +0 ≻ -0: in the max order it is +0 if the run holds
    // a +0; in the min order it is -0 if the run holds a -0.
    if (g == T(0)) {
      const T winner = E == Extreme::Max ? zero<T>() : negative_zero<T>();
      const T other = E == Extreme::Max ? negative_zero<T>() : zero<T>();
      g = first_equal(x, n, winner) < n ? winner : other;
    }
    return {false, g};
  } else {
    // [Common.order.total] float16, bfloat16, by their order keys; [Common.order.int] integers and
    // bool, by value (order_key is the value).
    using K = decltype(order_key(x[0]));
    const auto pick = [](K a, K b) { return E == Extreme::Max ? std::max(a, b) : std::min(a, b); };
    K lane[kLanes];
    U nan_lane[kLanes];  // as above: set by a loop, all ones once the lane has met a NaN
    for (std::int64_t l = 0; l < kLanes; ++l) lane[l] = order_key(x[0]), nan_lane[l] = nan_mask(x[0]);
    std::int64_t t = 0;
    for (; t + kLanes <= n; t += kLanes)
      for (std::int64_t l = 0; l < kLanes; ++l) {
        lane[l] = pick(lane[l], order_key(x[t + l]));
        nan_lane[l] |= nan_mask(x[t + l]);
      }
    K g = order_key(x[0]);
    for (; t < n; ++t) {
      g = pick(g, order_key(x[t]));
      nan |= static_cast<U>(is_nan(x[t]));
    }
    for (std::int64_t l = 0; l < kLanes; ++l) {
      g = pick(g, lane[l]);
      nan |= nan_lane[l];
    }
    return {nan != 0, from_order_key<T>(g)};
  }
}
template <class T> inline Scan<T> scan(const T* x, std::int64_t n) { return scan<Extreme::Max>(x, n); }

// [Common.order.max] [Common.order.min] The left fold of max_of (min_of) over x[0..n-1] (n >= 1): the
// first NaN if the run holds one ([Common.order.nan-payload]), else its greatest (least) element
// ([Common.order.total]). Block by block: a block with a NaN ends the fold at its first NaN (no
// earlier block held one); the others give their extreme.
template <Extreme E, class T> inline T fold_extreme(const T* x, std::int64_t n) {
  T g = x[0];
  for (std::int64_t b = 0; b < n; b += kRunBlock) {
    const std::int64_t m = std::min(kRunBlock, n - b);
    const Scan<T> s = scan<E>(x + b, m);
    if (s.nan) return x[b + first_nan(x + b, m)];
    g = extreme_of<E>(g, s.greatest);
  }
  return g;
}
template <class T> inline T fold_max(const T* x, std::int64_t n) { return fold_extreme<Extreme::Max>(x, n); }

// Rows folded at once by fold_rows: each y[t] is read and written once per group, and the group's
// rows are read side by side, as sequential streams.
inline constexpr std::int64_t kRowGroup = 4;

// One group of G rows of fold_rows, block of columns by block of columns.
template <Extreme E, std::int64_t G, class T>
inline void fold_row_group(T* y, const T* x, std::int64_t n, std::int64_t step) {
  using U = bits_t<T>;
  for (std::int64_t b = 0; b < n; b += kRunBlock) {
    const std::int64_t m = std::min(kRunBlock, n - b);
    T* const yb = y + b;
    const T* const xb = x + b;
    U unsettled = 0;  // an integer OR: the compiler keeps it in a vector register
    for (std::int64_t t = 0; t < m; ++t) {
      T held = yb[t];
      for (std::int64_t g = 0; g < G; ++g) {
        const T v = xb[g * step + t];
        if constexpr (std::is_floating_point_v<T>) {
          unsettled |= static_cast<U>(is_nan(v) | ((v == held) & (v == T(0))));
          held = (E == Extreme::Max ? v > held : v < held) ? v : held;
        } else {
          held = extreme_of<E>(held, v);
        }
      }
      yb[t] = held;
    }
    if (unsettled != 0)
      for (std::int64_t t = 0; t < m; ++t) {
        T held = yb[t];
        for (std::int64_t g = 0; g < G; ++g) held = extreme_of<E>(held, xb[g * step + t]);
        yb[t] = held;
      }
  }
}

// [Common.order.max] [Common.order.min] For t < n, y[t] = the left fold of max_of (min_of in the min
// order) from y[t] over x[t], x[step + t], ..., x[(rows - 1) step + t]: n folds side by side, y[t] the
// fold so far of column t and the rows its next members in order (ReduceMax and ReduceMin along a
// kept axis: X's rows folded into Y one after the other).
// Float, double: group of rows by group of rows and block of columns by block, each y[t] first takes
// the row's x[t] when it wins by the IEEE comparison `>` (`<`), case 1 of [Common.order.total], and an
// integer flag records what that comparison cannot see — an x[t] that is a NaN ([Common.order.nan]),
// or a zero x[t] equal to the zero held (case 2: +0 above -0). Only a block whose flag is set is then
// folded again over the same rows with extreme_of itself, the exact max_of (min_of), from the value
// the comparison left: that value is the y[t] the group started from, or one of the group's x that
// beat it in value, so the exact fold from it over the same rows is the exact fold from y[t] (its
// first NaN, else its extreme). Where the comparison was right it changed nothing: a y[t] that is a
// NaN is never replaced (`>` and `<` are false with a NaN), so the first NaN of a column stays, its
// bits untouched ([Common.order.nan-payload]).
// Float16, bfloat16, integers and bool: extreme_of, which compares their order keys, as it is.
template <Extreme E, class T>
inline void fold_rows(T* y, const T* x, std::int64_t rows, std::int64_t n, std::int64_t step) {
  std::int64_t r = 0;
  for (; r + kRowGroup <= rows; r += kRowGroup) fold_row_group<E, kRowGroup>(y, x + r * step, n, step);
  for (; r < rows; ++r) fold_row_group<E, 1>(y, x + r * step, n, step);
}

}  // namespace sonnx
