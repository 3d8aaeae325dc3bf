// Properties of spec/ops/concat.md, transpose.md, gather.md and slice.md. Each output element is
// stated from the operator's formula clause by this file's own index arithmetic (row-major offsets
// from [Common.tensor.index], written here, not the implementation's walk), and the spec's stated
// properties (inverse permutation, split by slicing, slices of a gather, reversal) are checked as
// relations between two runs.
#include <limits>
#include <numeric>

#include "gen/props.hpp"
#include "ops/concat.hpp"
#include "ops/gather.hpp"
#include "ops/slice.hpp"
#include "ops/transpose.hpp"

namespace sonnx::props::movement_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using V = std::vector<std::int64_t>;

// Row-major offset of `index` in `shape`, and its inverse ([Common.tensor.index]), restated.
std::int64_t offset(const Shape& shape, const V& index) {
  std::int64_t o = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) o = o * shape[k] + index[k];
  return o;
}
V index(const Shape& shape, std::int64_t o) {
  V out(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) out[k] = o % shape[k], o /= shape[k];
  return out;
}

const std::vector<DType> kTypes = {DType::Bool,  DType::Int8,   DType::Uint16,  DType::Int32,   DType::Uint64,
                                   DType::Int64, DType::Float16, DType::BFloat16, DType::Float, DType::Double};

Tensor I64(V v) { return make_tensor<std::int64_t>({static_cast<std::int64_t>(v.size())}, v); }

}  // namespace

TEST_CASE("[Transpose.formula] [Transpose.shape] [Transpose.perm.default] Y[j] = X[i] with i_{p_k} = j_k, bit for bit",
          "[transpose][props]") {
  check("every element of Y is the element of X the permutation names", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Tensor X = *gen::tensor(t, *gen::shape({0, 5, 300, true}));
    const bool given = *rc::gen::arbitrary<bool>();
    V p(static_cast<std::size_t>(X.rank()));
    if (given) {
      const auto perm = *gen::permutation(p.size());
      for (std::size_t k = 0; k < p.size(); ++k) p[k] = static_cast<std::int64_t>(perm[k]);
    } else {
      for (std::size_t k = 0; k < p.size(); ++k) p[k] = X.rank() - 1 - static_cast<std::int64_t>(k);
    }
    const Tensor Y = ops::transpose(13, X, given ? std::optional<V>(p) : std::nullopt);
    Shape expected;
    for (std::int64_t k : p) expected.push_back(X.shape()[k]);
    RC_ASSERT(Y.shape() == expected);
    for (std::int64_t o = 0; o < element_count(Y.shape()); ++o) {
      const V j = index(Y.shape(), o);
      V i(j.size());
      for (std::size_t k = 0; k < p.size(); ++k) i[p[k]] = j[k];
      PROP_EXPECT(bits_at(Y, o) == bits_at(X, offset(X.shape(), i)), "Y at offset {} differs", o);
    }
  });
}

TEST_CASE("[Transpose.prop.inverse] [Transpose.prop.multiset] the inverse permutation undoes a transpose",
          "[transpose][props]") {
  check("Transpose(Transpose(X, p), q) = X bit for bit, q the inverse of p; large tiles included", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Tensor X = *gen::tensor(t, *gen::shape({2, 4, 5000, false}));
    const auto perm = *gen::permutation(static_cast<std::size_t>(X.rank()));
    V p(perm.begin(), perm.end()), q(p.size());
    for (std::size_t k = 0; k < p.size(); ++k) q[p[k]] = static_cast<std::int64_t>(k);
    const Tensor Y = ops::transpose(21, X, p);
    RC_ASSERT(same_bits(ops::transpose(21, Y, q), X));
    std::vector<std::uint64_t> a, b;
    for (std::int64_t o = 0; o < element_count(X.shape()); ++o) a.push_back(bits_at(X, o)), b.push_back(bits_at(Y, o));
    std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end());
    RC_ASSERT(a == b);
  });
}

TEST_CASE("[Concat.formula] [Concat.shape] [Concat.empty] [Concat.prop.split] [Concat.prop.size] slicing Y along the axis "
          "gives back each input",
          "[concat][props]") {
  check("the slice of Y from o_m to o_m + dX_{m,k} is X_m, bit for bit", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Shape base = *gen::shape({1, 4, 64, true});
    const std::int64_t r = static_cast<std::int64_t>(base.size());
    const std::int64_t k = *gen::index<std::int64_t>(0, r - 1);
    const int n = *gen::index<int>(1, 4);
    std::vector<Tensor> X;
    for (int m = 0; m < n; ++m) {
      Shape s = base;
      s[k] = *gen::index<std::int64_t>(0, 3);
      X.push_back(*gen::tensor(t, s));
    }
    std::vector<const Tensor*> in;
    for (const Tensor& x : X) in.push_back(&x);
    const bool negative = *rc::gen::arbitrary<bool>();
    const Tensor Y = ops::concat(13, in, negative ? k - r : k);
    std::int64_t total = 0, elements = 0;
    for (const Tensor& x : X) total += x.shape()[k], elements += element_count(x.shape());
    Shape expected = base;
    expected[k] = total;
    RC_ASSERT(Y.shape() == expected);
    RC_ASSERT(element_count(Y.shape()) == elements);
    std::int64_t o_m = 0;
    for (const Tensor& x : X) {
      for (std::int64_t o = 0; o < element_count(x.shape()); ++o) {
        V j = index(x.shape(), o);
        j[k] += o_m;
        PROP_EXPECT(bits_at(Y, offset(Y.shape(), j)) == bits_at(x, o), "input element {} misplaced", o);
      }
      o_m += x.shape()[k];
    }
  });
}

TEST_CASE("[Gather.formula] [Gather.shape] [Gather.index.normalise] [Gather.prop.slices] [Gather.prop.negative] Y[a, i, b] = "
          "X[a, nu(I[i]), b]",
          "[gather][props]") {
  check("each element of Y is the element of X at the gathered index; a negative index as its normalised value", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Shape xs = *gen::shape({1, 4, 64, false});
    const Tensor X = *gen::tensor(t, xs);
    const std::int64_t r = static_cast<std::int64_t>(xs.size());
    const std::int64_t k = *gen::index<std::int64_t>(0, r - 1), s = xs[k];
    const Shape is = *gen::shape({0, 2, 8, true});
    V raw(static_cast<std::size_t>(element_count(is))), norm(raw.size());
    for (std::size_t t2 = 0; t2 < raw.size(); ++t2) {
      norm[t2] = *gen::index<std::int64_t>(0, s - 1);
      raw[t2] = *rc::gen::arbitrary<bool>() ? norm[t2] - s : norm[t2];
    }
    const Tensor I = make_tensor<std::int64_t>(is, raw), N = make_tensor<std::int64_t>(is, norm);
    const Tensor Y = ops::gather(13, X, I, *rc::gen::arbitrary<bool>() ? k - r : k);
    RC_ASSERT(same_bits(Y, ops::gather(13, X, N, k)));  // the normalised indices
    Shape expected(xs.begin(), xs.begin() + k);
    expected.insert(expected.end(), is.begin(), is.end());
    expected.insert(expected.end(), xs.begin() + k + 1, xs.end());
    RC_ASSERT(Y.shape() == expected);
    for (std::int64_t o = 0; o < element_count(Y.shape()); ++o) {
      const V j = index(Y.shape(), o);
      const V i(j.begin() + k, j.begin() + k + static_cast<std::int64_t>(is.size()));
      V xi(j.begin(), j.begin() + k);
      xi.push_back(norm[static_cast<std::size_t>(offset(is, i))]);
      xi.insert(xi.end(), j.begin() + k + static_cast<std::int64_t>(is.size()), j.end());
      PROP_EXPECT(bits_at(Y, o) == bits_at(X, offset(xs, xi)), "Y at offset {} differs", o);
    }
  });
}

TEST_CASE("[Gather.err.index-range] an index outside [-s, s-1] is refused", "[gather][props]") {
  check("an index at s or below -s is refused, whatever its position", [] {
    const Tensor X = *gen::tensor(DType::Float, *gen::shape({1, 3, 27, false}));
    const std::int64_t s = X.shape()[0];
    const std::int64_t bad = *rc::gen::arbitrary<bool>() ? s + *gen::index<std::int64_t>(0, 5) : -s - 1 - *gen::index<std::int64_t>(0, 5);
    V idx = {0, bad};
    RC_ASSERT(refusal_id([&] { ops::gather(13, X, I64(idx), 0); }) == "Gather.err.index-range");
  });
}

TEST_CASE("[Slice.formula] [Slice.bounds] [Slice.shape] [Slice.empty] Y[j] = X[b + j * p], bounds clamped as numpy's "
          "slices",
          "[slice][props]") {
  check("every element of Y is X at i_k = b_k + j_k * p_k, b, e and dY restated from the clause", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Tensor X = *gen::tensor(t, *gen::shape({1, 4, 200, true}));
    const std::int64_t r = X.rank();
    V S, E, A, P;
    const auto bound = gen::weighted<std::int64_t>({{6, 0}, {1, std::numeric_limits<std::int64_t>::max()},
                                                   {1, std::numeric_limits<std::int64_t>::min()}});
    for (std::int64_t k = 0; k < r; ++k) {
      if (!*rc::gen::arbitrary<bool>()) continue;
      A.push_back(*rc::gen::arbitrary<bool>() ? k : k - r);
      const std::int64_t extreme_s = *bound, extreme_e = *bound;
      S.push_back(extreme_s ? extreme_s : *gen::index<std::int64_t>(-7, 7));
      E.push_back(extreme_e ? extreme_e : *gen::index<std::int64_t>(-7, 7));
      P.push_back(*gen::one_of<std::int64_t>({1, 1, 2, 3, -1, -2}));
    }
    const Tensor Ts = I64(S), Te = I64(E), Ta = I64(A), Tp = I64(P);
    ops::SliceParams q;
    q.starts_input = &Ts, q.ends_input = &Te, q.axes_input = &Ta, q.steps_input = &Tp;
    const Tensor Y = ops::slice(13, X, q);
    // the restatement: per axis b, p and the count
    V b(r, 0), p(r, 1), n(X.shape());
    for (std::size_t t2 = 0; t2 < A.size(); ++t2) {
      const std::int64_t k = A[t2] < 0 ? A[t2] + r : A[t2], d = X.shape()[k];
      std::int64_t s = S[t2] < 0 ? S[t2] + d : S[t2], e = E[t2] < 0 ? E[t2] + d : E[t2];
      p[k] = P[t2];
      if (P[t2] > 0) {
        s = std::min(std::max(s, std::int64_t{0}), d), e = std::min(std::max(e, std::int64_t{0}), d);
        n[k] = e > s ? (e - s + P[t2] - 1) / P[t2] : 0;
      } else {
        s = std::min(std::max(s, std::int64_t{0}), d - 1), e = std::min(std::max(e, std::int64_t{-1}), d - 1);
        n[k] = s > e ? (s - e - P[t2] - 1) / -P[t2] : 0;
      }
      b[k] = s;
    }
    RC_ASSERT(Y.shape() == Shape(n));
    for (std::int64_t o = 0; o < element_count(Y.shape()); ++o) {
      const V j = index(Y.shape(), o);
      V i(j.size());
      for (std::size_t k = 0; k < j.size(); ++k) i[k] = b[k] + j[k] * p[k];
      PROP_EXPECT(bits_at(Y, o) == bits_at(X, offset(X.shape(), i)), "Y at offset {} differs", o);
    }
  });
}

TEST_CASE("[Slice.prop.whole] [Slice.prop.reverse] slicing whole is the identity, reversing twice is too", "[slice][props]") {
  check("0 to INT64_MAX by 1 on every axis gives X; -1 to INT64_MIN by -1 twice gives X", [] {
    const DType t = *gen::dtype_of(kTypes);
    const Tensor X = *gen::tensor(t, *gen::shape({1, 4, 64, true}));
    const std::int64_t r = X.rank();
    V A(r);
    std::iota(A.begin(), A.end(), 0);
    const Tensor S0 = I64(V(r, 0)), Emax = I64(V(r, std::numeric_limits<std::int64_t>::max())), Ta = I64(A),
                 S1 = I64(V(r, -1)), Emin = I64(V(r, std::numeric_limits<std::int64_t>::min())), Pm = I64(V(r, -1));
    ops::SliceParams whole;
    whole.starts_input = &S0, whole.ends_input = &Emax;
    RC_ASSERT(same_bits(ops::slice(13, X, whole), X));
    ops::SliceParams rev;
    rev.starts_input = &S1, rev.ends_input = &Emin, rev.axes_input = &Ta, rev.steps_input = &Pm;
    const Tensor R = ops::slice(13, X, rev);
    RC_ASSERT(R.shape() == X.shape());
    RC_ASSERT(same_bits(ops::slice(13, R, rev), X));
  });
}

}  // namespace sonnx::props::movement_props
