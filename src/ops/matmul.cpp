// spec/ops/matmul.md — read this file side by side with its sections.
//
// The definition, once: the shapes of numpy.matmul ([MatMul.shape]: 1-D operands promoted, the batch
// axes broadcast); for a batch index b and (i, j), the terms Ȧ[b, i, k]·Ḃ[b, k, j] for k ascending
// ([MatMul.float.formula], [MatMul.order]), summed by the oracle ([Acc.oracle], ops/product.hpp),
// written fl_T of the sum ([Acc.run]); integer types modulo 2^w ([MatMul.int.formula]).
#include "ops/matmul.hpp"

#include <algorithm>

#include "core/accuracy.hpp"
#include "core/broadcast.hpp"
#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"
#include "ops/product.hpp"

namespace sonnx::ops {

std::vector<DType> matmul_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [MatMul.v1]
  if (version >= 9) t.insert(t.end(), {DType::Int32, DType::Int64, DType::Uint32, DType::Uint64});  // [MatMul.v9]
  if (version >= 13) t.push_back(DType::BFloat16);  // [MatMul.v13]
  return t;
}

namespace {

// [MatMul.shape] The shapes of one node.
struct Shapes {
  Shape batch;             // the broadcast batch shape
  Strides a_batch, b_batch;  // the offset in A and in B of each batch axis's step (0: broadcast)
  std::int64_t M = 1, K = 0, N = 1, batches = 1;
  Shape y;
};

Shapes shapes(int version, const Tensor& A, const Tensor& B) {
  if (A.dtype() != B.dtype())  // [MatMul.err.type]
    refuse("MatMul.err.type", "MatMul-{}: A is {} but B is {}; both must have one type", version, name(A.dtype()), name(B.dtype()));
  const auto allowed = matmul_types(version);
  if (std::find(allowed.begin(), allowed.end(), A.dtype()) == allowed.end())  // [MatMul.err.dtype]
    refuse("MatMul.err.dtype", "MatMul-{} does not accept {} (T in {{{}}})", version, name(A.dtype()), join_names(allowed));
  if (A.rank() == 0 || B.rank() == 0)  // [MatMul.err.rank]
    refuse("MatMul.err.rank", "MatMul-{}: A has shape {} and B {}; neither may have rank 0", version, to_string(A.shape()),
           to_string(B.shape()));
  // [MatMul.shape] 1. a rank-1 A is (1, K), a rank-1 B is (K, 1)
  Shape a = A.shape(), b = B.shape();
  const bool a_vector = a.size() == 1, b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  Shapes s;
  s.M = a[a.size() - 2], s.K = a.back(), s.N = b.back();
  if (b[b.size() - 2] != s.K)  // [MatMul.err.inner]
    refuse("MatMul.err.inner", "MatMul-{}: A {} and B {}: the inner dimensions {} and {} differ", version, to_string(A.shape()),
           to_string(B.shape()), s.K, b[b.size() - 2]);
  // 2. the batch axes broadcast multidirectionally
  const Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  const auto batch = broadcast_shape({ab, bb});
  if (!batch)  // [MatMul.err.broadcast]
    refuse("MatMul.err.broadcast", "MatMul-{}: the batch shapes {} of A {} and {} of B {} do not broadcast [Common.broadcast.error]",
           version, to_string(ab), to_string(A.shape()), to_string(bb), to_string(B.shape()));
  s.batch = *batch;
  s.a_batch = broadcast_strides(ab, s.batch), s.b_batch = broadcast_strides(bb, s.batch);
  const std::int64_t a_matrix = checked_mul(s.M, s.K, "MatMul A"), b_matrix = checked_mul(s.K, s.N, "MatMul B");
  for (auto& x : s.a_batch) x *= a_matrix;
  for (auto& x : s.b_batch) x *= b_matrix;
  s.batches = checked_product(s.batch, "MatMul output batch");
  // 3. Y is (batch, M, N) less the promoted axes
  s.y = s.batch;
  if (!a_vector) s.y.push_back(s.M);
  if (!b_vector) s.y.push_back(s.N);
  return s;
}

// The batch index, row and column of a Y index (the promoted axes are 0).
struct Position {
  std::vector<std::int64_t> batch;
  std::int64_t i = 0, j = 0, a_offset = 0, b_offset = 0;
};
Position position(const Shapes& s, const Tensor& A, const Tensor& B, const std::vector<std::int64_t>& index) {
  Position p;
  p.batch.assign(index.begin(), index.begin() + static_cast<std::ptrdiff_t>(s.batch.size()));
  std::size_t at = s.batch.size();
  if (A.rank() > 1) p.i = index[at++];
  if (B.rank() > 1) p.j = index[at++];
  p.a_offset = offset_of(p.batch, s.a_batch), p.b_offset = offset_of(p.batch, s.b_batch);
  return p;
}

// The row-major offsets in A and B of the k-th term's factors.
std::int64_t a_at(const Shapes& s, const Position& p, std::int64_t k) { return p.a_offset + p.i * s.K + k; }
std::int64_t b_at(const Shapes& s, const Position& p, std::int64_t k) { return p.b_offset + k * s.N + p.j; }

template <class T> std::uint64_t wrap_bits(T v) { return static_cast<std::uint64_t>(bits_of(v)); }

// [Acc.run] The binary64 value x rounded once to T (round to nearest, ties to even).
template <class T> T to_type(double x) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else if constexpr (std::is_same_v<T, float16>) return float16{accuracy::to_float16_bits(x)};
  else return bfloat16{accuracy::to_bfloat16_bits(x)};
}

// [MatMul.int.formula] Σ_k A·B modulo 2^w: unsigned 64-bit arithmetic wraps modulo 2^64, of which
// the residue modulo 2^w is the result's.
template <class T> T integer_sum(const T* a, std::int64_t as, const T* b, std::int64_t bs, std::int64_t K) {
  std::uint64_t acc = 0;
  for (std::int64_t k = 0; k < K; ++k)
    acc += static_cast<std::uint64_t>(a[k * as]) * static_cast<std::uint64_t>(b[k * bs]);
  return static_cast<T>(acc);
}

// Whether the exact sum of the integer products is outside the range of T ([Acc.int]).
template <class T> bool wraps(const T* a, std::int64_t as, const T* b, std::int64_t bs, std::int64_t K) {
  __int128 sum = 0;
  for (std::int64_t k = 0; k < K; ++k) {
    __int128 p;
    if (__builtin_mul_overflow(static_cast<__int128>(a[k * as]), static_cast<__int128>(b[k * bs]), &p) ||
        __builtin_add_overflow(sum, p, &sum))
      return true;
  }
  return sum < static_cast<__int128>(std::numeric_limits<T>::min()) || sum > static_cast<__int128>(std::numeric_limits<T>::max());
}

// The oracle's sum of one float element, term by term ([MatMul.order]).
accuracy::Sums element_sums(const Shapes& s, const Tensor& A, const Tensor& B, const Position& p) {
  accuracy::Accumulator acc(A.dtype());
  dispatch(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      auto a = A.values<T>();
      auto b = B.values<T>();
      for (std::int64_t k = 0; k < s.K; ++k)
        acc.add_product(real_value(a[static_cast<std::size_t>(a_at(s, p, k))]), real_value(b[static_cast<std::size_t>(b_at(s, p, k))]));
    }
  });
  return acc.result(s.K, 1, 1.0, 0, 0, 0);  // [Acc.terms] K products, e = 1
}

}  // namespace

Tensor matmul(int version, const Tensor& A, const Tensor& B) {
  const Shapes s = shapes(version, A, B);
  Tensor Y(A.dtype(), s.y, "MatMul output Y", Fill::Unspecified);
  if (Y.size() == 0) return Y;
  const bool is_float = info(A.dtype()).is_float;
  std::shared_ptr<accuracy::Annex> annex;
  std::optional<accuracy::Coefficients> coefficients;  // every element has K products
  if (is_float) {
    annex = std::make_shared<accuracy::Annex>();
    annex->dtype = A.dtype();
    annex->clause = "MatMul.float.formula";
    const auto size = static_cast<std::size_t>(Y.size());
    annex->resize(size);
    accuracy::Sums counts;
    accuracy::count_terms(A.dtype(), counts, s.K, 1, 1.0, 0, 0, 0);
    coefficients = accuracy::coefficients(A.dtype(), counts);
  }
  const std::int64_t mn = s.M * s.N;
  dispatch(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      T* const y = Y.values<T>().data();
      for (std::int64_t bi = 0; bi < s.batches; ++bi) {
        const auto batch = index_of(s.batch, bi);
        const std::int64_t ao = offset_of(batch, s.a_batch), bo = offset_of(batch, s.b_batch);
        const ProductSums sums = product_sums(A.dtype() == DType::Double, View{&A, ao, s.M, s.K, s.K, 1},
                                              View{&B, bo, s.K, s.N, s.N, 1});
        const std::size_t base = static_cast<std::size_t>(bi * mn);
        const double* tau = sums.tau.empty() ? nullptr : sums.tau.data();
        // [Acc.run] [Acc.verdict] every element at once, then the exceptions one by one
        if (s.K == 0 || accuracy::enclose_run(*coefficients, sums.sigma.data(), tau, sums.mag.data(), static_cast<std::size_t>(mn), *annex,
                                              base, y, [](double x) { return to_type<T>(x); }))
          for (std::int64_t e = 0; e < mn; ++e) {
            const auto at = base + static_cast<std::size_t>(e);
            accuracy::Sums sm;
            sm.n = s.K;
            sm.sigma = sums.sigma[static_cast<std::size_t>(e)], sm.mag = sums.mag[static_cast<std::size_t>(e)];
            if (tau) sm.tau = tau[e];
            if (s.K > 0 && !accuracy::exceptional(*coefficients, sm.sigma, sm.tau, sm.mag)) continue;
            accuracy::Element el;
            if (std::isfinite(sm.sigma + sm.tau) && std::isfinite(sm.mag)) {
              el = accuracy::finish(*coefficients, sm);
            } else {  // [Acc.nonfinite] a NaN or infinite term: the one-element definition sorts the terms
              Position p;
              p.batch = batch, p.i = e / s.N, p.j = e % s.N, p.a_offset = ao, p.b_offset = bo;
              el = accuracy::enclose(A.dtype(), element_sums(s, A, B, p));
            }
            const std::uint64_t bits = accuracy::run_bits(A.dtype(), el);  // [Acc.run]
            std::memcpy(y + at, &bits, sizeof(T));
            annex->set(at, el);
          }
      }
    } else if constexpr (is_int_v<T>) {  // [MatMul.int.formula]
      const T* a = A.values<T>().data();
      const T* b = B.values<T>().data();
      T* const y = Y.values<T>().data();
      for (std::int64_t bi = 0; bi < s.batches; ++bi) {
        const auto batch = index_of(s.batch, bi);
        const std::int64_t ao = offset_of(batch, s.a_batch), bo = offset_of(batch, s.b_batch);
        for (std::int64_t i = 0; i < s.M; ++i)
          for (std::int64_t j = 0; j < s.N; ++j)  // K = 0: the empty sum, 0 (A and B hold no element: no pointer into them)
            y[bi * mn + i * s.N + j] = s.K == 0 ? T{0} : integer_sum(a + ao + i * s.K, 1, b + bo + j, s.N, s.K);
      }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_matmul(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const Shapes s = shapes(version, A, B);
  const Position p = position(s, A, B, i);
  std::vector<Term> terms;
  for (std::int64_t k = 0; k < s.K; ++k) terms.push_back(Term{{Member{0, a_at(s, p, k)}, Member{1, b_at(s, p, k)}}, {}});
  const std::string formula = fmt::format("Σ_k {}[{}k]·{}[{}]", v.input_names[0],
                                          A.rank() > 1 ? fmt::format("..., {}, ", p.i) : std::string(), v.input_names[1],
                                          B.rank() > 1 ? fmt::format("..., k, {}", p.j) : std::string("k"));
  const std::string parameters = fmt::format("batch {}, M = {}, K = {}, N = {}", to_string(s.batch), s.M, s.K, s.N);
  if (!info(A.dtype()).is_float)
    return dispatch(A.dtype(), [&](auto tag) -> Decision {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) {
        const T* a = s.K == 0 ? nullptr : A.values<T>().data() + p.a_offset + p.i * s.K;  // K = 0: no term is read
        const T* b = s.K == 0 ? nullptr : B.values<T>().data() + p.b_offset + p.j;
        return integer_decision(v, i, std::move(terms), formula, parameters, "MatMul.int.formula",
                                wrap_bits(integer_sum(a, 1, b, s.N, s.K)), wraps(a, 1, b, s.N, s.K));
      } else {
        refuse("MatMul.err.dtype", "internal: MatMul of {}", name(A.dtype()));
      }
    });
  Computation c;
  c.formula = formula;
  c.terms = s.K;
  c.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  c.sums = element_sums(s, A, B, p);
  c.element = accuracy::enclose(A.dtype(), c.sums);
  std::vector<TermFactors> values;
  dispatch(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>)
      for (std::int64_t k = 0; k < s.K; ++k)
        values.push_back({real_value(A.values<T>()[static_cast<std::size_t>(a_at(s, p, k))]),
                          real_value(B.values<T>()[static_cast<std::size_t>(b_at(s, p, k))])});
  });
  std::vector<std::string> more = {"MatMul.shape", "MatMul.order"};
  const bool broadcast = s.batch.size() > 0 && (Shape(A.shape().begin(), A.shape().end() - std::min<std::ptrdiff_t>(2, A.rank())) != s.batch ||
                                                Shape(B.shape().begin(), B.shape().end() - std::min<std::ptrdiff_t>(2, B.rank())) != s.batch);
  if (broadcast) more.push_back("Common.broadcast.map");
  Decision d = computed_decision(v, i, std::move(c), parameters, "MatMul.float.formula", more, values);
  if (broadcast) d.situations.push_back({"Common.broadcast.map", "batch axes broadcast"});
  if (A.rank() == 1 || B.rank() == 1) d.situations.push_back({"MatMul.shape", "a rank-1 operand"});
  if (s.K == 0) d.situations.push_back({"MatMul.float.formula", "K = 0: the empty sum"});
  return d;
}

std::vector<Reach> reach_matmul(int version, const NodeValues& v, const std::vector<Source>& sources) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const Shapes s = shapes(version, A, B);
  const std::vector<std::string> names = {v.input_names[0], v.input_names[1], ""};
  std::vector<Reach> out = info(A.dtype()).is_float
                               ? accuracy_reaches(A.dtype(), s.K, 0, sources[0], sources[1], Source::Fixed, names)
                               : integer_reaches(A.dtype(), s.K, sources[0], sources[1], names);
  const Shape ab(A.shape().begin(), A.shape().end() - std::min<std::ptrdiff_t>(2, A.rank()));
  const Shape bb(B.shape().begin(), B.shape().end() - std::min<std::ptrdiff_t>(2, B.rank()));
  if (info(A.dtype()).is_float) {
    out.push_back(reach_by_shape({"Common.broadcast.map", "batch axes broadcast"}, s.batch.size() > 0 && (ab != s.batch || bb != s.batch),
                                 "the batch axes of A and B are the same"));
    out.push_back(reach_by_shape({"MatMul.shape", "a rank-1 operand"}, A.rank() == 1 || B.rank() == 1, "A and B have rank 2 or more"));
    out.push_back(reach_by_shape({"MatMul.float.formula", "K = 0: the empty sum"}, s.K == 0, "K is not 0"));
  }
  return out;
}

}  // namespace sonnx::ops
