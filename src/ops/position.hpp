// The position an order selects in a sequence — Hardmax's 1, ArgMax's and ArgMin's index — written
// once for both orders and both tie rules (spec/ops/hardmax.md, argmax.md, argmin.md). A sequence V is
// n elements of X at a fixed stride: X viewed as [outer, n, inner] holds the sequences X[o, :, c].
//
// The rule: the first NaN of V if V holds one ([Common.order.nan]), else the first element bitwise
// equal to the extreme of V under the order (max order: the greatest, +0 above -0; min order: the
// least); with `last`, the last NaN, else the last such element.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>

#include "core/extent.hpp"
#include "core/order.hpp"
#include "core/tensor.hpp"
#include "core/runs.hpp"

namespace sonnx::ops {

// X as [outer, n, inner]: the sequences V are X[o, :, c].
struct Layout {
  std::int64_t outer, n, inner;
};

// X viewed along its axis k, once for every operator that has both semantics (Hardmax, Softmax,
// LogSoftmax): with `coerce` (versions 1 and 11: [Hardmax.coerce], [Softmax.coerce]) the 2-D coercion,
// N = d_0 ... d_{k-1} rows of D = d_k ... d_{r-1} elements (outer N, n D, inner 1); without, the slices
// along k (outer d_0 ... d_{k-1}, n d_k, inner d_{k+1} ... d_{r-1}). `op` names the operator in the
// size refusal.
inline Layout axis_layout(bool coerce, const Shape& shape, std::int64_t k, const char* op) {
  const std::span<const std::int64_t> d(shape);
  const auto at = static_cast<std::size_t>(k);
  if (!coerce) return {checked_product(d.first(at), op), shape[at], checked_product(d.subspan(at + 1), op)};
  return {checked_product(d.first(at), op), checked_product(d.subspan(at), op), 1};
}

// The position in a contiguous V = x[0..n-1] (n >= 1), from one scan of V.
template <Extreme E, class T> std::int64_t position_in_run(const T* x, std::int64_t n, bool last) {
  const Scan<T> s = scan<E>(x, n);
  if (s.nan) return last ? last_nan(x, n) : first_nan(x, n);  // the first (last) NaN
  // No NaN: the extreme under the total order (+0 above -0), first (last) attained.
  return last ? last_equal(x, n, s.greatest) : first_equal(x, n, s.greatest);
}

// The positions in the `m` sequences V_c = x[c], x[c + inner], ..., x[c + (n-1) inner], c < m, side
// by side: the left fold of the order's selection over q, one column per sequence, remembering the q
// where each fold last took the new element. Without `last`, the fold takes V_q exactly when V_q is
// the first NaN or wins over every earlier element ([Common.order.max]); with `last`, when V_q is a
// NaN, or the fold holds no NaN and V_q is not beaten by what it holds (an equal element is taken).
// Either way the last q taken is the position of the rule above.
template <Extreme E, class T>
void positions_in_columns(const T* x, std::int64_t n, std::int64_t inner, std::int64_t m, bool last, T* best,
                          std::int64_t* h) {
  for (std::int64_t c = 0; c < m; ++c) best[c] = x[c], h[c] = 0;
  for (std::int64_t q = 1; q < n; ++q) {
    const T* v = x + q * inner;
    if (!last) {
      for (std::int64_t c = 0; c < m; ++c) {
        const bool take = (!is_nan(best[c])) & (is_nan(v[c]) | beats<E>(v[c], best[c]));
        best[c] = choose(take, v[c], best[c]);
        h[c] = take ? q : h[c];
      }
    } else {
      for (std::int64_t c = 0; c < m; ++c) {
        const bool take = is_nan(v[c]) | ((!is_nan(best[c])) & !beats<E>(best[c], v[c]));
        best[c] = choose(take, v[c], best[c]);
        h[c] = take ? q : h[c];
      }
    }
  }
}

// The position h of every sequence X[o, :, c] of x viewed as `s` (n >= 1), given to emit(o, c, h),
// run-wise: contiguous sequences by one scan each, strided ones side by side in blocks of columns.
template <Extreme E, class T, class Emit> void positions(const T* x, const Layout& s, bool last, Emit emit) {
  const std::int64_t slab = s.n * s.inner;
  if (s.inner == 1) {
    for (std::int64_t o = 0; o < s.outer; ++o) emit(o, std::int64_t{0}, position_in_run<E>(x + o * slab, s.n, last));
    return;
  }
  constexpr std::int64_t kColumns = 256;  // sequences side by side: a few KiB of state
  T best[kColumns];
  std::int64_t h[kColumns];
  for (std::int64_t o = 0; o < s.outer; ++o)
    for (std::int64_t c0 = 0; c0 < s.inner; c0 += kColumns) {
      const std::int64_t m = std::min(kColumns, s.inner - c0);
      positions_in_columns<E>(x + o * slab + c0, s.n, s.inner, m, last, best, h);
      for (std::int64_t c = 0; c < m; ++c) emit(o, c0 + c, h[c]);
    }
}

}  // namespace sonnx::ops
