// The sum of products of a matrix product, which MatMul and Gemm share ([MatMul.order], [Gemm.order]):
// for each (i, j), σ = Σ_k A[i, k]·B[k, j] with k ascending, in binary64 from −0 for float16, bfloat16
// and float (every product of two of their values is exact: [Acc.oracle]) or in double-double for
// double, and Ŝ = Σ_k |A[i, k]·B[k, j]| — exactly the operations of accuracy::Accumulator, in its
// order, for every element at once.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace sonnx::ops {

// A matrix operand as doubles (exact), row-major: `rows` × `cols`.
struct Matrix {
  std::vector<double> values;
  std::int64_t rows = 0, cols = 0;
  double at(std::int64_t r, std::int64_t c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
};

// The matrix whose element (r, c) is t's element at offset + r·row_stride + c·col_stride (a transposed
// or a broadcast view of `t` reads the same elements).
Matrix matrix_of(const Tensor& t, std::int64_t offset, std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                 std::int64_t col_stride);

// A matrix operand as a view of a tensor: element (r, c) at offset + r·row_stride + c·col_stride (a
// transposed or broadcast operand reads the same elements; nothing is copied but what a kernel packs).
struct View {
  const Tensor* t = nullptr;
  std::int64_t offset = 0, rows = 0, cols = 0, row_stride = 0, col_stride = 0;
};

// σ, τ (double-double correction: `dd`, else left empty) and Ŝ of every element of A·B, row-major M × N.
struct ProductSums {
  std::vector<double> sigma, tau, mag;
};
ProductSums product_sums(bool dd, const View& a, const View& b);

}  // namespace sonnx::ops
