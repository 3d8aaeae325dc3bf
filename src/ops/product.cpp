// The matrix product's sums (ops/product.hpp): read with [MatMul.order], [Gemm.order], [Acc.oracle].
#include "ops/product.hpp"

#include <algorithm>
#include <cmath>

#include "core/isa.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

Matrix matrix_of(const Tensor& t, std::int64_t offset, std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                 std::int64_t col_stride) {
  Matrix m;
  m.rows = rows, m.cols = cols;
  m.values.resize(static_cast<std::size_t>(rows * cols));
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      auto x = t.values<T>();
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
          m.values[static_cast<std::size_t>(r * cols + c)] = real_value(x[static_cast<std::size_t>(offset + r * row_stride + c * col_stride)]);
    }
  });
  return m;
}

namespace {

constexpr std::int64_t kRows = 4, kCols = 8;  // the tile of elements whose sums are kept in registers

// Every element of a kRows × kCols tile accumulates its terms over k ascending, starting from −0:
// σ = σ + a·b (exact product), Ŝ = Ŝ + |a·b| — accuracy::Accumulator's operations for the short
// types, one element per lane. `ap` holds the tile's rows of A k-major (kRows values per k), `bp` its
// columns of B k-major (kCols values per k); rows or columns past the matrix are zeros, whose sums are
// never written back (K itself is never padded: no element gets a term it does not have).
void tile(const double* ap, const double* bp, std::int64_t K, double* sigma, double* mag) {
  double s[kRows][kCols], m[kRows][kCols];
  for (std::int64_t r = 0; r < kRows; ++r)
    for (std::int64_t c = 0; c < kCols; ++c) s[r][c] = -0.0, m[r][c] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double* a = ap + k * kRows;
    const double* b = bp + k * kCols;
#pragma GCC unroll 4
    for (std::int64_t r = 0; r < kRows; ++r)
#pragma GCC unroll 8
      for (std::int64_t c = 0; c < kCols; ++c) {
        const double p = a[r] * b[c];
        s[r][c] = s[r][c] + p;
        m[r][c] = m[r][c] + std::fabs(p);
      }
  }
  for (std::int64_t r = 0; r < kRows; ++r)
    for (std::int64_t c = 0; c < kCols; ++c) sigma[r * kCols + c] = s[r][c], mag[r * kCols + c] = m[r][c];
}

void sums_short(const Matrix& a, const Matrix& b, ProductSums& out) {
  const std::int64_t M = a.rows, K = a.cols, N = b.cols;
  const std::int64_t mt = (M + kRows - 1) / kRows, nt = (N + kCols - 1) / kCols;
  std::vector<double> ap(static_cast<std::size_t>(mt * K * kRows), 0.0), bp(static_cast<std::size_t>(nt * K * kCols), 0.0);
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t k = 0; k < K; ++k) ap[static_cast<std::size_t>(((i / kRows) * K + k) * kRows + i % kRows)] = a.at(i, k);
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t j = 0; j < N; ++j) bp[static_cast<std::size_t>(((j / kCols) * K + k) * kCols + j % kCols)] = b.at(k, j);
  double s[kRows * kCols], m[kRows * kCols];
  for (std::int64_t jt = 0; jt < nt; ++jt)
    for (std::int64_t it = 0; it < mt; ++it) {
      tile(ap.data() + it * K * kRows, bp.data() + jt * K * kCols, K, s, m);
      for (std::int64_t r = 0; r < kRows && it * kRows + r < M; ++r)
        for (std::int64_t c = 0; c < kCols && jt * kCols + c < N; ++c) {
          const auto at = static_cast<std::size_t>((it * kRows + r) * N + jt * kCols + c);
          out.sigma[at] = s[r * kCols + c], out.mag[at] = m[r * kCols + c];
        }
    }
}

// double: TwoProduct and TwoSum per term (accuracy::Accumulator), row by row over j.
void sums_dd(const Matrix& a, const Matrix& b, ProductSums& out) {
  const std::int64_t M = a.rows, K = a.cols, N = b.cols;
  for (std::int64_t i = 0; i < M; ++i) {
    double* sg = out.sigma.data() + i * N;
    double* ta = out.tau.data() + i * N;
    double* mg = out.mag.data() + i * N;
    for (std::int64_t k = 0; k < K; ++k) {
      const double av = a.at(i, k);
      const double* bk = b.values.data() + k * N;
      for (std::int64_t j = 0; j < N; ++j) {
        const double p = av * bk[j], q = std::fma(av, bk[j], -p);
        const double s = sg[j] + p, bb = s - sg[j], err = (sg[j] - (s - bb)) + (p - bb);
        sg[j] = s;
        ta[j] = ta[j] + (q + err);
        mg[j] = mg[j] + std::fabs(p);
      }
    }
  }
}

}  // namespace

ProductSums product_sums(bool dd, const Matrix& a, const Matrix& b) {
  ProductSums out;
  const auto size = static_cast<std::size_t>(a.rows * b.cols);
  out.sigma.assign(size, -0.0), out.mag.assign(size, 0.0), out.tau.assign(dd ? size : 0, 0.0);
  if (size == 0) return out;
  if (dd) at_active_level([&] { sums_dd(a, b, out); });
  else at_active_level([&] { sums_short(a, b, out); });
  return out;
}

}  // namespace sonnx::ops
