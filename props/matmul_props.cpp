// Properties of spec/ops/matmul.md (float types). The output shape and the terms are restated in
// gen/accuracy_model.cpp from [MatMul.shape] and [MatMul.float.formula] (batch axes through the index map
// of [Common.broadcast.map], gen/spec_facts.hpp); the batches and the promoted vectors are sliced on the
// test side, element by element.
#include "core/accuracy.hpp"
#include "gen/accuracy_model.hpp"
#include "gen/computed_cases.hpp"
#include "gen/props.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::matmul_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

// The (rows, cols) matrix of `x` whose element (i, j) is x at the index `prefix` ++ (i, j) of `shape`
// (x's shape with a rank-1 x promoted: (1, K) for A, (K, 1) for B).
Tensor matrix(const Tensor& x, const Shape& shape, const Index& prefix, std::int64_t rows, std::int64_t cols) {
  Tensor out(x.dtype(), {rows, cols});
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      Index at = prefix;
      at.push_back(i), at.push_back(j);
      set_bits_at(out, i * cols + j, bits_at(x, ravel(at, shape)));
    }
  return out;
}

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

}  // namespace

TEST_CASE("[MatMul.prop.batch] [MatMul.shape] [Common.broadcast.map] a batched MatMul is the MatMul of each batch sliced on the test "
          "side bit for bit with the same enclosures",
          "[matmul][props]") {
  check("Y[b] = MatMul(Ȧ[b], Ḃ[b]) for every batch index b of the broadcast batch shape, annexes included", [] {
    CaseOpts o;
    o.ranges = {Range::Moderate, Range::Wide, Range::Cancel, Range::Special};
    const MatMulCase c = *matmul_case(o);
    const Tensor Y = ops::matmul(c.version, c.A, c.B);
    const auto shape = matmul_shape(c.A.shape(), c.B.shape());
    RC_ASSERT(shape.has_value());
    RC_ASSERT(Y.shape() == *shape);
    Shape a = c.A.shape(), b = c.B.shape();
    const bool a_vector = a.size() == 1, b_vector = b.size() == 1;
    if (a_vector) a.insert(a.begin(), 1);
    if (b_vector) b.push_back(1);
    const std::int64_t M = a[a.size() - 2], K = a.back(), N = b.back();
    Shape batch = *shape;
    if (!b_vector) batch.pop_back();
    if (!a_vector) batch.pop_back();
    bool broadcast = false;
    for (std::int64_t bi = 0; bi < element_count(batch); ++bi) {
      const Index index = unravel(bi, batch);
      const Index ia = broadcast_source(index, batch_of(a), batch), ib = broadcast_source(index, batch_of(b), batch);
      broadcast = broadcast || batch_of(a) != batch || batch_of(b) != batch;
      const Tensor Z = ops::matmul(c.version, matrix(c.A, a, ia, M, K), matrix(c.B, b, ib, K, N));
      for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
          Index yi = index;
          if (!a_vector) yi.push_back(i);
          if (!b_vector) yi.push_back(j);
          const std::int64_t k = ravel(yi, *shape);
          PROP_EXPECT(bits_at(Y, k) == bits_at(Z, i * N + j), "Y{} = {} but the batch's MatMul gives {}", to_string(yi),
                      describe(Y.dtype(), bits_at(Y, k)), describe(Z.dtype(), bits_at(Z, i * N + j)));
          const accuracy::Element x = Y.annex->at(k), z = Z.annex->at(i * N + j);
          PROP_EXPECT(same_element(x, z), "Y{}: enclosure {} but the batch's MatMul gives {}", to_string(yi), element_text(x),
                      element_text(z));
        }
    }
    RC_TAG(name(c.A.dtype()));
    RC_CLASSIFY(!batch.empty(), "batched");
    RC_CLASSIFY(broadcast, "batch axes broadcast");
    RC_CLASSIFY(a_vector || b_vector, "a rank-1 operand");
  });
}

TEST_CASE("[MatMul.prop.vector] [MatMul.shape] MatMul of (K) and (K, N) is row 0 of MatMul of (1, K) and (K, N) and MatMul of "
          "(M, K) and (K) is column 0 of MatMul of (M, K) and (K, 1) bit for bit with the same enclosures",
          "[matmul][props]") {
  check("rank-1 promotion of A and of B: equal bits and annexes", [] {
    const int version = *gen::one_of(kMatMulVersions);
    const DType t = *gen::dtype_of(float_types("MatMul", version));
    const Range range = *gen::one_of<Range>({Range::Moderate, Range::Wide, Range::Cancel, Range::Special});
    const std::int64_t K = *gen::index<std::int64_t>(0, 9), N = *gen::index<std::int64_t>(0, 5);
    const Tensor v = *tensor_of_range(t, {K}, range), B = *tensor_of_range(t, {K, N}, range);
    Tensor row(t, {1, K}), column(t, {K, 1});
    for (std::int64_t k = 0; k < K; ++k) set_bits_at(row, k, bits_at(v, k)), set_bits_at(column, k, bits_at(v, k));
    const Tensor Y = ops::matmul(version, v, B), Z = ops::matmul(version, row, B);
    RC_ASSERT(Y.shape() == (Shape{N}));
    RC_ASSERT(Z.shape() == (Shape{1, N}));
    const Tensor At = *tensor_of_range(t, {N, K}, range);  // (M, K) with M = N
    const Tensor U = ops::matmul(version, At, v), W = ops::matmul(version, At, column);
    RC_ASSERT(U.shape() == (Shape{N}));
    RC_ASSERT(W.shape() == (Shape{N, 1}));
    for (std::int64_t j = 0; j < N; ++j) {
      PROP_EXPECT(bits_at(Y, j) == bits_at(Z, j), "MatMul((K), B)[{}] = {} but row 0 of MatMul((1, K), B) is {}", j,
                  describe(t, bits_at(Y, j)), describe(t, bits_at(Z, j)));
      PROP_EXPECT(same_element(Y.annex->at(j), Z.annex->at(j)), "[{}]: enclosures {} and {}", j, element_text(Y.annex->at(j)),
                  element_text(Z.annex->at(j)));
      PROP_EXPECT(bits_at(U, j) == bits_at(W, j), "MatMul(A, (K))[{}] = {} but column 0 of MatMul(A, (K, 1)) is {}", j,
                  describe(t, bits_at(U, j)), describe(t, bits_at(W, j)));
      PROP_EXPECT(same_element(U.annex->at(j), W.annex->at(j)), "[{}]: enclosures {} and {}", j, element_text(U.annex->at(j)),
                  element_text(W.annex->at(j)));
    }
    RC_TAG(name(t));
    RC_CLASSIFY(K == 0, "K = 0");
  });
}

TEST_CASE("[MatMul.prop.bound] [Acc.prop.accepted] [MatMul.float.formula] every evaluation order of MatMul's terms in T or wider "
          "with or without fma and Kahan's sum conform",
          "[matmul][props]") {
  check("up to 4 elements of a random MatMul: forward, reverse, pairwise, blocked, random trees, wider formats, Kahan", [] {
    const MatMulCase c = *matmul_case();
    const Computed r = run(c);
    int judged = 0;
    for (int i = 0; i < 4 && r.Y.size() > 0; ++i) {
      const std::int64_t k = *gen::index<std::int64_t>(0, r.Y.size());
      const auto& terms = r.terms[static_cast<std::size_t>(k)];
      judged += check_accepted(r.t, terms, r.Y.annex->at(k), restate(r.t, terms, 0), fmt::format("MatMul Y[{}]", k));
    }
    RC_TAG(name(r.t));
    RC_TAG(range_name(c.range));
    RC_CLASSIFY(judged == 0, "empty Y");
  });
}

}  // namespace sonnx::props::matmul_props
