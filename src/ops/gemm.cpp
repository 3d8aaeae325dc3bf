// spec/ops/gemm.md — read this file side by side with its sections.
//
// The definition, once: A' and B' ([Gemm.trans]), Ċ ([Gemm.c]); for (i, j) the terms α·A'[i, k]·B'[k, j]
// for k ascending and β·Ċ[i, j] ([Gemm.float.formula], [Gemm.scalars]); the oracle sums the products
// (ops/product.hpp), multiplies by α, adds β·c ([Gemm.order], [Acc.oracle]) and writes fl_T of the
// result ([Acc.run]); integer types modulo 2^w with integral α and β ([Gemm.int.formula]).
#include "ops/gemm.hpp"

#include <algorithm>
#include <cmath>

#include "core/accuracy.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"
#include "ops/product.hpp"

namespace sonnx::ops {

std::vector<DType> gemm_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Gemm.v1] [Gemm.v6] [Gemm.v7]
  if (version >= 9) t.insert(t.end(), {DType::Int32, DType::Int64, DType::Uint32, DType::Uint64});  // [Gemm.v9]
  if (version >= 13) t.push_back(DType::BFloat16);  // [Gemm.v13]
  return t;
}

namespace {

// The shapes of one node: M, K, N, the strides of A' and B' in A and B, C's map to (M, N).
struct Shapes {
  std::int64_t M = 0, K = 0, N = 0;
  std::int64_t a_row = 0, a_col = 0, b_row = 0, b_col = 0;  // A'[i, k] = A[i·a_row + k·a_col], likewise B'
  Strides c_map;                                             // [Gemm.c] Ċ[i, j] = C[i·c_map[0] + j·c_map[1]]
  bool c_term = false;                                       // a C term: C given and β != 0 ([Gemm.scalars])
  bool c_broadcast = false;
};

Shapes shapes(int version, const Tensor& A, const Tensor& B, const Tensor* C, const GemmParams& p) {
  if (B.dtype() != A.dtype() || (C && C->dtype() != A.dtype()))  // [Gemm.err.type]
    refuse("Gemm.err.type", "Gemm-{}: A is {}, B is {}{}; the inputs must share one type", version, name(A.dtype()),
           name(B.dtype()), C ? fmt::format(", C is {}", name(C->dtype())) : std::string());
  const auto allowed = gemm_types(version);
  if (std::find(allowed.begin(), allowed.end(), A.dtype()) == allowed.end())  // [Gemm.err.dtype]
    refuse("Gemm.err.dtype", "Gemm-{} does not accept {} (T in {{{}}})", version, name(A.dtype()), join_names(allowed));
  if (A.rank() != 2 || B.rank() != 2)  // [Gemm.err.rank]
    refuse("Gemm.err.rank", "Gemm-{}: A has shape {} and B {}; both must have rank 2", version, to_string(A.shape()),
           to_string(B.shape()));
  Shapes s;
  // [Gemm.trans] A' = A or Aᵀ, B' = B or Bᵀ (any non-zero transA / transB transposes)
  const std::int64_t a0 = A.shape()[0], a1 = A.shape()[1], b0 = B.shape()[0], b1 = B.shape()[1];
  s.M = p.trans_a ? a1 : a0, s.K = p.trans_a ? a0 : a1;
  s.a_row = p.trans_a ? 1 : a1, s.a_col = p.trans_a ? a1 : 1;
  const std::int64_t kb = p.trans_b ? b1 : b0;
  s.N = p.trans_b ? b0 : b1;
  s.b_row = p.trans_b ? 1 : b1, s.b_col = p.trans_b ? b1 : 1;
  if (kb != s.K)  // [Gemm.err.inner]
    refuse("Gemm.err.inner", "Gemm-{}: A' is ({}, {}) and B' ({}, {}) (transA {}, transB {}): the inner dimensions differ", version,
           s.M, s.K, kb, s.N, p.trans_a, p.trans_b);
  if (C) {
    // [Gemm.c] unidirectional broadcast to (M, N); versions 1 and 6 without `broadcast`: exactly (M, N)
    const Shape& c = C->shape();
    const Shape mn = {s.M, s.N};
    bool fits = c.size() <= 2;
    for (std::size_t d = 0; fits && d < c.size(); ++d) {
      const std::int64_t target = mn[2 - c.size() + d];
      fits = c[d] == target || c[d] == 1;
    }
    if (version < 7 && p.broadcast == 0) fits = fits && c == mn;
    if (!fits)  // [Gemm.err.c]
      refuse("Gemm.err.c", "Gemm-{}: C has shape {}, which does not broadcast to (M, N) = ({}, {}){}", version, to_string(c), s.M,
             s.N, version < 7 && p.broadcast == 0 ? " (without the attribute broadcast, C must be exactly (M, N))" : "");
    s.c_map = broadcast_strides(c, mn);
    s.c_broadcast = c != mn;
  }
  s.c_term = C != nullptr && p.beta != 0;  // [Gemm.scalars] β = 0: C is not read
  return s;
}

// [Gemm.scalars] [Acc.terms] the rounding count of a factor that is an attribute: none for ±1, one
// multiplication, and one conversion when T cannot represent it.
int scalar_roundings(DType t, double x) {
  if (x == 1 || x == -1) return 0;
  const bool exact = t == DType::Float16 ? exact_float16(x).has_value() : t == DType::BFloat16 ? exact_bfloat16(x).has_value() : true;
  return 1 + (exact ? 0 : 1);
}

// An attribute factor that T cannot represent, converted to T by an evaluation ([Acc.overflow]): its
// magnitude, or 0.
double converted(DType t, double x) { return scalar_roundings(t, x) == 2 ? std::fabs(x) : 0.0; }

// [Gemm.float.formula] the counters of element (i, j): K products of rounding count 1 + α's, and the
// C term of rounding count β's; the factor bound of a three-factor term from the row of A' and the
// column of B', that of β·c from β and c ([Acc.bound.underflow]).
accuracy::Sums counters(DType t, const Shapes& s, const GemmParams& p, double factor_bound, double c) {
  accuracy::Sums counts;
  const int e = 1 + scalar_roundings(t, p.alpha);
  accuracy::count_terms(t, counts, s.K, e, factor_bound, s.c_term ? 1 : 0, s.c_term ? scalar_roundings(t, p.beta) : 0,
                        (p.alpha != 1 ? 1 : 0) + (s.c_term ? 1 : 0), std::max({1.0, std::fabs(p.beta), std::fabs(c)}),
                        std::max(converted(t, p.alpha), s.c_term ? converted(t, p.beta) : 0.0));
  return counts;
}

// [Gemm.order] After the products: α·σ (when α != 1), then + β·c; the counters of [Gemm.float.formula].
accuracy::Sums finish_element(DType t, accuracy::Accumulator acc, const Shapes& s, const GemmParams& p, double c,
                              double factor_bound) {
  if (p.alpha != 1) acc.scale(p.alpha);
  if (s.c_term) acc.add_scaled(p.beta, c);
  return acc.result(s.K, 1 + scalar_roundings(t, p.alpha), factor_bound, s.c_term ? 1 : 0,
                    s.c_term ? scalar_roundings(t, p.beta) : 0, (p.alpha != 1 ? 1 : 0) + (s.c_term ? 1 : 0),
                    std::isfinite(c) ? std::max({1.0, std::fabs(p.beta), std::fabs(c)}) : std::max(1.0, std::fabs(p.beta)),
                    std::max(converted(t, p.alpha), s.c_term ? converted(t, p.beta) : 0.0));
}

// The factor bound M_ij of [Gemm.float.formula]: max(1, |α|, max_k |A'[i, k]|, max_k |B'[k, j]|), over the
// finite factors (an infinite one is [Acc.nonfinite]'s).
double factor_bound(const Matrix& a, const Matrix& b, const GemmParams& p, std::int64_t i, std::int64_t j) {
  double m = std::max(1.0, std::isfinite(p.alpha) ? std::fabs(p.alpha) : 0.0);
  for (std::int64_t k = 0; k < a.cols; ++k)
    if (std::isfinite(a.at(i, k))) m = std::max(m, std::fabs(a.at(i, k)));
  for (std::int64_t k = 0; k < b.rows; ++k)
    if (std::isfinite(b.at(k, j))) m = std::max(m, std::fabs(b.at(k, j)));
  return m;
}

// The products α·A'[i, k]·B'[k, j] of element (i, j), added to `acc` in the order of [Gemm.order]; with
// three factors, [Acc.nonfinite] 3's case of an infinite factor whose two others' product is at most
// η_T/2 (it may round to zero first: ∞·0) is noted.
void add_products(DType t, accuracy::Accumulator& acc, const Matrix& a, const Matrix& b, const GemmParams& p, std::int64_t i,
                  std::int64_t j, bool three) {
  const double half = accuracy::format_of(t).eta_bar / 2;  // η_T / 2
  for (std::int64_t k = 0; k < a.cols; ++k) {
    const double x = a.at(i, k), y = b.at(k, j);
    acc.add_product(x, y);
    if (!three) continue;
    const double f[3] = {p.alpha, x, y};
    for (int q = 0; q < 3; ++q) {
      const double o1 = f[(q + 1) % 3], o2 = f[(q + 2) % 3];
      if (std::isinf(f[q]) && std::isfinite(o1) && std::isfinite(o2) && o1 != 0 && o2 != 0 && std::fabs(o1 * o2) <= half)
        acc.note_three_factor_infinity();
    }
  }
}

double c_value(const Tensor* C, const Shapes& s, std::int64_t i, std::int64_t j) {
  if (!s.c_term) return 0.0;
  return dispatch(C->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return real_value(C->values<T>()[static_cast<std::size_t>(i * s.c_map[0] + j * s.c_map[1])]);
    else return 0.0;
  });
}

// [Gemm.int.formula] An integral binary32 value as an integer modulo 2^64 (every multiple of 2^64 is 0).
std::uint64_t modular(double x) {
  const double m = std::fmod(x, 0x1p64);  // exact, |m| < 2^64
  return m < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(-m) : static_cast<std::uint64_t>(m);
}

template <class T> T integer_element(const T* a, const T* b, const T* c, const Shapes& s, const GemmParams& p, std::int64_t i,
                                     std::int64_t j, bool* wrapped) {
  std::uint64_t acc = 0;
  __int128 exact = 0;
  bool overflow = false;
  for (std::int64_t k = 0; k < s.K; ++k) {
    const T x = a[i * s.a_row + k * s.a_col], y = b[k * s.b_row + j * s.b_col];
    acc += static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y);
    __int128 pr;
    overflow = overflow || __builtin_mul_overflow(static_cast<__int128>(x), static_cast<__int128>(y), &pr) ||
               __builtin_add_overflow(exact, pr, &exact);
  }
  acc *= modular(p.alpha);  // α·Σ modulo 2^64
  std::int64_t alpha = 0, beta = 0;
  overflow = overflow || std::fabs(p.alpha) >= 0x1p62 || std::fabs(p.beta) >= 0x1p62;
  if (!overflow) alpha = static_cast<std::int64_t>(p.alpha), beta = static_cast<std::int64_t>(p.beta);
  overflow = overflow || __builtin_mul_overflow(exact, static_cast<__int128>(alpha), &exact);
  if (s.c_term) {
    const T cv = c[i * s.c_map[0] + j * s.c_map[1]];
    acc += modular(p.beta) * static_cast<std::uint64_t>(cv);
    __int128 pr;
    overflow = overflow || __builtin_mul_overflow(static_cast<__int128>(cv), static_cast<__int128>(beta), &pr) ||
               __builtin_add_overflow(exact, pr, &exact);
  }
  if (wrapped)
    *wrapped = overflow || exact < static_cast<__int128>(std::numeric_limits<T>::min()) ||
               exact > static_cast<__int128>(std::numeric_limits<T>::max());
  return static_cast<T>(acc);
}

void check_integer_scales(int version, DType t, const GemmParams& p) {
  if (info(t).is_float) return;
  // [Gemm.err.int-scale] alpha and beta integral for an integer T
  if (p.alpha != std::floor(p.alpha) || p.beta != std::floor(p.beta) || !std::isfinite(p.alpha) || !std::isfinite(p.beta))
    refuse("Gemm.err.int-scale", "Gemm-{}: alpha {} and beta {} must be integers for the integer type {}", version, p.alpha, p.beta,
           name(t));
}

}  // namespace

Tensor gemm(int version, const Tensor& A, const Tensor& B, const Tensor* C, const GemmParams& p) {
  const Shapes s = shapes(version, A, B, C, p);
  check_integer_scales(version, A.dtype(), p);
  Tensor Y(A.dtype(), {s.M, s.N}, "Gemm output Y", Fill::Unspecified);
  if (Y.size() == 0) return Y;
  const DType t = A.dtype();
  if (!info(t).is_float) {  // [Gemm.int.formula]
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) {
        T* y = Y.values<T>().data();
        const T* c = C ? C->values<T>().data() : nullptr;
        for (std::int64_t i = 0; i < s.M; ++i)
          for (std::int64_t j = 0; j < s.N; ++j)
            y[i * s.N + j] = integer_element(A.values<T>().data(), B.values<T>().data(), c, s, p, i, j, nullptr);
      }
    });
    return Y;
  }
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = t;
  annex->clause = "Gemm.float.formula";
  const auto size = static_cast<std::size_t>(Y.size());
  annex->resize(size);
  const ProductSums sums = product_sums(t == DType::Double, View{&A, 0, s.M, s.K, s.a_row, s.a_col},
                                        View{&B, 0, s.K, s.N, s.b_row, s.b_col});
  // three-factor terms, or a β·c term of two roundings: a factor bound per element
  const bool three = scalar_roundings(t, p.alpha) > 0 || (s.c_term && scalar_roundings(t, p.beta) == 2);
  // the rows of A' and columns of B' as doubles, for the factor bounds and the elements with a non-finite term
  const bool any_nonfinite = std::any_of(sums.sigma.begin(), sums.sigma.end(), [](double x) { return !std::isfinite(x); }) ||
                             std::any_of(sums.tau.begin(), sums.tau.end(), [](double x) { return !std::isfinite(x); });
  const Matrix a = three || any_nonfinite ? matrix_of(A, 0, s.M, s.K, s.a_row, s.a_col) : Matrix{};
  const Matrix b = three || any_nonfinite ? matrix_of(B, 0, s.K, s.N, s.b_row, s.b_col) : Matrix{};
  std::optional<accuracy::Coefficients> shared;
  if (!three) shared = accuracy::coefficients(t, counters(t, s, p, 1.0, 0.0));
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      T* const y = Y.values<T>().data();
      for (std::int64_t i = 0; i < s.M; ++i)
        for (std::int64_t j = 0; j < s.N; ++j) {
          const auto at = static_cast<std::size_t>(i * s.N + j);
          const double bound = three ? factor_bound(a, b, p, i, j) : 1.0;
          const double c = c_value(C, s, i, j);
          accuracy::Element e;
          if (std::isfinite(sums.sigma[at] + (sums.tau.empty() ? 0.0 : sums.tau[at])) && std::isfinite(sums.mag[at])) {
            const accuracy::Sums sm = finish_element(
                t, accuracy::Accumulator::seeded(t, sums.sigma[at], sums.tau.empty() ? 0.0 : sums.tau[at], sums.mag[at]), s, p, c,
                bound);
            e = shared ? accuracy::finish(*shared, sm) : accuracy::enclose(t, sm);
          } else {  // [Acc.nonfinite] a NaN or infinite term: the one-element definition sorts the terms
            accuracy::Accumulator acc(t);
            add_products(t, acc, a, b, p, i, j, three);
            e = accuracy::enclose(t, finish_element(t, acc, s, p, c, bound));
          }
          const std::uint64_t bits = accuracy::run_bits(t, e);  // [Acc.run]
          std::memcpy(y + at, &bits, sizeof(T));
          annex->set(at, e);
        }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_gemm(int version, const NodeValues& v, const GemmParams& p, const std::vector<std::int64_t>& index) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const Tensor* C = v.inputs.size() > 2 ? v.inputs[2] : nullptr;
  const Shapes s = shapes(version, A, B, C, p);
  check_integer_scales(version, A.dtype(), p);
  const std::int64_t i = index[0], j = index[1];
  const DType t = A.dtype();
  std::vector<Term> terms;
  std::vector<std::pair<std::string, double>> alpha, beta;
  if (p.alpha != 1 && p.alpha != -1) alpha = {{"alpha", p.alpha}};
  if (p.beta != 1 && p.beta != -1) beta = {{"beta", p.beta}};
  for (std::int64_t k = 0; k < s.K; ++k)
    terms.push_back(Term{{Member{0, i * s.a_row + k * s.a_col}, Member{1, k * s.b_row + j * s.b_col}}, alpha});
  if (s.c_term) terms.push_back(Term{{Member{2, i * s.c_map[0] + j * s.c_map[1]}}, beta});
  const std::string formula = fmt::format("{}Σ_k {}'[{}, k]·{}'[k, {}]{}", p.alpha != 1 ? fmt::format("{}·", p.alpha) : "",
                                          v.input_names[0], i, v.input_names[1], j,
                                          s.c_term ? fmt::format(" + {}{}[{}, {}]", p.beta != 1 ? fmt::format("{}·", p.beta) : "",
                                                                 v.input_names[2], i, j)
                                                   : std::string());
  const std::string parameters = fmt::format("alpha = {}, beta = {}, transA = {}, transB = {}, M = {}, K = {}, N = {}", p.alpha,
                                             p.beta, p.trans_a, p.trans_b, s.M, s.K, s.N);
  if (!info(t).is_float)
    return dispatch(t, [&](auto tag) -> Decision {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) {
        bool wrapped = false;
        const T y = integer_element(A.values<T>().data(), B.values<T>().data(), C ? C->values<T>().data() : nullptr, s, p, i, j,
                                    &wrapped);
        return integer_decision(v, index, std::move(terms), formula, parameters, "Gemm.int.formula",
                                static_cast<std::uint64_t>(bits_of(y)), wrapped);
      } else {
        refuse("Gemm.err.dtype", "internal: Gemm of {}", name(t));
      }
    });
  const Matrix a = matrix_of(A, i * s.a_row, 1, s.K, 0, s.a_col), b = matrix_of(B, j * s.b_col, s.K, 1, s.b_row, 0);
  const double bound = scalar_roundings(t, p.alpha) > 0 ? factor_bound(a, b, p, 0, 0) : 1.0;
  const double c = c_value(C, s, i, j);
  accuracy::Accumulator acc(t);
  add_products(t, acc, a, b, p, 0, 0, scalar_roundings(t, p.alpha) > 0);
  std::vector<TermFactors> values;
  for (std::int64_t k = 0; k < s.K; ++k) {
    values.push_back(alpha.empty() ? TermFactors{a.at(0, k), b.at(k, 0)} : TermFactors{p.alpha, a.at(0, k), b.at(k, 0)});
  }
  if (s.c_term) values.push_back(beta.empty() ? TermFactors{p.beta * c} : TermFactors{p.beta, c});
  Computation comp;
  comp.formula = formula;
  comp.terms = static_cast<std::int64_t>(terms.size());
  comp.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  comp.sums = finish_element(t, acc, s, p, c, bound);
  comp.element = accuracy::enclose(t, comp.sums);
  std::vector<std::string> more = {"Gemm.order", "Gemm.trans"};
  if (s.c_term) more.push_back("Gemm.c");
  if (p.alpha != 1 || p.beta != 1) more.push_back("Gemm.scalars");
  Decision d = computed_decision(v, index, std::move(comp), parameters, "Gemm.float.formula", more, values);
  if (p.trans_a) d.situations.push_back({"Gemm.trans", "A transposed"});
  if (p.trans_b) d.situations.push_back({"Gemm.trans", "B transposed"});
  if (s.c_term && s.c_broadcast) d.situations.push_back({"Gemm.c", "C broadcast"});
  if (p.alpha != 1) d.situations.push_back({"Gemm.scalars", "alpha other than 1"});
  if (C && p.beta == 0) d.situations.push_back({"Gemm.scalars", "beta = 0: C not read"});
  return d;
}

std::vector<Reach> reach_gemm(int version, const NodeValues& v, const GemmParams& p, const std::vector<Source>& sources) {
  const Tensor& A = *v.inputs[0];
  const Tensor& B = *v.inputs[1];
  const Tensor* C = v.inputs.size() > 2 ? v.inputs[2] : nullptr;
  const Shapes s = shapes(version, A, B, C, p);
  const std::vector<std::string> names = {v.input_names[0], v.input_names[1], C ? v.input_names[2] : std::string()};
  if (!info(A.dtype()).is_float) return integer_reaches(A.dtype(), s.K, sources[0], sources[1], names);
  std::vector<Reach> out = accuracy_reaches(A.dtype(), s.K, s.c_term ? 1 : 0, sources[0], sources[1],
                                            s.c_term ? sources[2] : Source::Fixed, names, p.alpha, p.beta);
  out.push_back(reach_by_shape({"Gemm.trans", "A transposed"}, p.trans_a != 0, "transA is 0"));
  out.push_back(reach_by_shape({"Gemm.trans", "B transposed"}, p.trans_b != 0, "transB is 0"));
  out.push_back(reach_by_shape({"Gemm.c", "C broadcast"}, s.c_term && s.c_broadcast, C ? "C has the shape (M, N)" : "C is absent"));
  out.push_back(reach_by_shape({"Gemm.scalars", "alpha other than 1"}, p.alpha != 1, "alpha is 1"));
  out.push_back(reach_by_shape({"Gemm.scalars", "beta = 0: C not read"}, C && p.beta == 0, "beta is not 0, or C is absent"));
  return out;
}

}  // namespace sonnx::ops
