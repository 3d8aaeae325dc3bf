// The matrix product's sums (ops/product.hpp): read with [MatMul.order], [Gemm.order], [Acc.oracle].
#include "ops/product.hpp"

#include <algorithm>
#include <cmath>

#include "core/isa.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

namespace {

// Calls f(p) with p a typed pointer to t's elements (float types only; the others are not computed here).
template <class F> void with_values(const Tensor& t, F&& f) {
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) f(t.values<T>().data());
  });
}

}  // namespace

Matrix matrix_of(const Tensor& t, std::int64_t offset, std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                 std::int64_t col_stride) {
  Matrix m;
  m.rows = rows, m.cols = cols;
  m.values.resize(static_cast<std::size_t>(rows * cols));
  with_values(t, [&](const auto* x) {
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c)
        m.values[static_cast<std::size_t>(r * cols + c)] = real_value(x[offset + r * row_stride + c * col_stride]);
  });
  return m;
}

namespace {

constexpr std::int64_t kCols = 8;  // the columns of B a tile keeps in registers

// Scratch memory reused by the calls of one thread: the packed operands are written whole before
// they are read, so their earlier contents never matter, and a repeated product does not fault its
// pages in again.
std::vector<double>& scratch(int which) {
  thread_local std::vector<double> buffers[2];
  return buffers[which];
}

// Panel p of B packed k-major: B[k, p·kCols + c] at k·kCols + c; columns past N are zeros (their
// sums are never written back). One panel at a time: the packed copy never holds more than K × kCols
// values (a whole packed B of VGG-19's fc6 would be 288 MiB of doubles beside the weights).
const double* pack_b_panel(const View& b, std::int64_t p) {
  const std::int64_t K = b.rows, N = b.cols, cols = std::min(kCols, N - p * kCols);
  std::vector<double>& out = scratch(0);
  if (out.size() < static_cast<std::size_t>(K * kCols)) out.resize(static_cast<std::size_t>(K * kCols));
  double* const panel = out.data();
  with_values(*b.t, [&](const auto* x) {
    if (cols < kCols)  // the columns past N: zeros
      for (std::int64_t k = 0; k < K; ++k)
        for (std::int64_t c = cols; c < kCols; ++c) panel[k * kCols + c] = 0.0;
    if (b.col_stride == 1) {  // rows of B contiguous: a run of `cols` elements per k
      for (std::int64_t k = 0; k < K; ++k) {
        const auto* src = x + b.offset + k * b.row_stride + p * kCols;
        for (std::int64_t c = 0; c < cols; ++c) panel[k * kCols + c] = real_value(src[c]);
      }
    } else {  // a column of B' at a time (B transposed: a column of B' is a contiguous row of B when row_stride = 1)
      for (std::int64_t c = 0; c < cols; ++c) {
        const auto* src = x + b.offset + (p * kCols + c) * b.col_stride;
        for (std::int64_t k = 0; k < K; ++k) panel[k * kCols + c] = real_value(src[k * b.row_stride]);
      }
    }
  });
  return panel;
}

// A packed in blocks of four rows, k-major (the four values of k, then their four magnitudes), then its
// last M mod 4 rows one by one (a value and its magnitude per k): the block of row i0 starts at 2·i0·K.
const double* pack_a(const View& a) {
  const std::int64_t M = a.rows, K = a.cols;
  std::vector<double>& out = scratch(1);
  if (out.size() < static_cast<std::size_t>(2 * M * K)) out.resize(static_cast<std::size_t>(2 * M * K));
  double* ap = out.data();
  with_values(*a.t, [&](const auto* x) {
    for (std::int64_t i0 = 0; i0 < M;) {
      const std::int64_t R = M - i0 >= 4 ? 4 : 1;
      for (std::int64_t r = 0; r < R; ++r) {
        const auto* src = x + a.offset + (i0 + r) * a.row_stride;
        for (std::int64_t k = 0; k < K; ++k) {
          const double v = real_value(src[k * a.col_stride]);
          ap[2 * i0 * K + 2 * k * R + r] = v, ap[2 * i0 * K + 2 * k * R + R + r] = std::fabs(v);
        }
      }
      i0 += R;
    }
  });
  return ap;
}

// σ + a·b and Ŝ + |a|·|b|: with fused multiply-add where the level has it — the same bits, since a·b
// is exact for the short types ([Acc.oracle]).
template <bool kFma> inline double madd(double a, double b, double c) {
  if constexpr (kFma) return __builtin_fma(a, b, c);
  else return a * b + c;
}

// Every element of an R × kCols tile accumulates its terms over k ascending, starting from −0:
// σ = σ + a·b, Ŝ = Ŝ + |a·b| — accuracy::Accumulator's operations for the short types, one element
// per lane, the sums kept in registers across k.
template <std::int64_t R, bool kFma>
inline void tile(const double* ap, const double* bp, std::int64_t K, double* sigma, double* mag, std::int64_t ld,
                 std::int64_t rows, std::int64_t cols) {
  double s[R][kCols], m[R][kCols];
  for (std::int64_t r = 0; r < R; ++r)
    for (std::int64_t c = 0; c < kCols; ++c) s[r][c] = -0.0, m[r][c] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double* a = ap + 2 * k * R;  // the R values of k, then their magnitudes
    const double* b = bp + k * kCols;
#pragma GCC unroll 8
    for (std::int64_t r = 0; r < R; ++r) {
      const double av = a[r], aa = a[R + r];
#pragma GCC unroll 8
      for (std::int64_t c = 0; c < kCols; ++c) {
        s[r][c] = madd<kFma>(av, b[c], s[r][c]);
        m[r][c] = madd<kFma>(aa, std::fabs(b[c]), m[r][c]);
      }
    }
  }
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) sigma[r * ld + c] = s[r][c], mag[r * ld + c] = m[r][c];
}

// Every tile of a panel of B before the next panel: the panel (K × kCols) stays in the first cache levels
// while the packed rows of A stream past it.
template <bool kFma> void sums_short(const View& a, const View& b, ProductSums& out) {
  const std::int64_t M = a.rows, K = a.cols, N = b.cols, panels = (N + kCols - 1) / kCols;
  const double* ap = pack_a(a);
  for (std::int64_t p = 0; p < panels; ++p) {
    const double* bp = pack_b_panel(b, p);
    const std::int64_t j0 = p * kCols, cols = std::min(kCols, N - j0);
    for (std::int64_t i0 = 0; i0 < M;) {
      const std::int64_t R = M - i0 >= 4 ? 4 : 1;  // four rows at a time, the last ones one by one
      double* sg = out.sigma.data() + i0 * N + j0;
      double* mg = out.mag.data() + i0 * N + j0;
      if (R == 4) tile<4, kFma>(ap + 2 * i0 * K, bp, K, sg, mg, N, 4, cols);
      else tile<1, kFma>(ap + 2 * i0 * K, bp, K, sg, mg, N, 1, cols);
      i0 += R;
    }
  }
}

// Fewer than four rows of A with the rows of B contiguous: packing B would cost as much as the sums
// (Gemm [1, 2048] × [2048, 1000]: B is read once either way). Each row of A streams B row by row:
// element j of the row gets a[i, k]·B[k, j] added for k ascending, from −0 — tile's operations in
// tile's order, so the same bits; the row's sums stay in the first cache levels.
template <bool kFma> void sums_short_rows(const View& a, const View& b, ProductSums& out) {
  const std::int64_t M = a.rows, K = a.cols, N = b.cols;
  with_values(*a.t, [&](const auto* x) {
    with_values(*b.t, [&](const auto* y) {
      for (std::int64_t i = 0; i < M; ++i) {
        double* const sg = out.sigma.data() + i * N;
        double* const mg = out.mag.data() + i * N;
        for (std::int64_t k = 0; k < K; ++k) {
          const double av = real_value(x[a.offset + i * a.row_stride + k * a.col_stride]), aa = std::fabs(av);
          const auto* const bk = y + b.offset + k * b.row_stride;
          for (std::int64_t j = 0; j < N; ++j) {
            const double bv = real_value(bk[j]);
            sg[j] = madd<kFma>(av, bv, sg[j]);
            mg[j] = madd<kFma>(aa, std::fabs(bv), mg[j]);
          }
        }
      }
    });
  });
}

// double: TwoProduct and TwoSum per term (accuracy::Accumulator), row by row over j.
void sums_dd(const View& av, const View& bv, ProductSums& out) {
  const Matrix a = matrix_of(*av.t, av.offset, av.rows, av.cols, av.row_stride, av.col_stride);
  const Matrix b = matrix_of(*bv.t, bv.offset, bv.rows, bv.cols, bv.row_stride, bv.col_stride);
  const std::int64_t M = a.rows, K = a.cols, N = b.cols;
  for (std::int64_t i = 0; i < M; ++i) {
    double* sg = out.sigma.data() + i * N;
    double* ta = out.tau.data() + i * N;
    double* mg = out.mag.data() + i * N;
    for (std::int64_t k = 0; k < K; ++k) {
      const double avk = a.at(i, k);
      const double* bk = b.values.data() + k * N;
      for (std::int64_t j = 0; j < N; ++j) {
        const double p = avk * bk[j], q = std::fma(avk, bk[j], -p);
        const double s = sg[j] + p, bb = s - sg[j], err = (sg[j] - (s - bb)) + (p - bb);
        sg[j] = s;
        ta[j] = ta[j] + (q + err);
        mg[j] = mg[j] + std::fabs(p);
      }
    }
  }
}

}  // namespace

ProductSums product_sums(bool dd, const View& a, const View& b) {
  ProductSums out;
  const auto size = static_cast<std::size_t>(a.rows * b.cols);
  out.sigma.assign(size, -0.0), out.mag.assign(size, 0.0), out.tau.assign(dd ? size : 0, 0.0);
  if (size == 0 || a.cols == 0) return out;
  if (dd) at_active_level([&] { sums_dd(a, b, out); });
  else if (a.rows < 4 && b.col_stride == 1)
    at_active_level_fma([&](auto fma) { sums_short_rows<decltype(fma)::value>(a, b, out); });
  else at_active_level_fma([&](auto fma) { sums_short<decltype(fma)::value>(a, b, out); });
  return out;
}

}  // namespace sonnx::ops
