// The computed folds of Sum, Mean, ReduceSum and ReduceMean (ops/sums.hpp). Read it with
// spec/common/accuracy.md and the four operators' documents side by side. The definition, once: the
// terms of an element in the order of the operator's clause (Ẋ0[i], ..., ẊL[i]; R(j) in row-major
// order), each one factor, accumulated by the oracle from −0 ([Acc.oracle]), divided by d after the
// sum for the means ([Acc.divisor]), enclosed and rounded once to T ([Acc.run]). The bulk evaluations
// walk runs (of Y for Sum and Mean, of X for the reductions) and perform, element by element, the same
// binary64 (double-double for double) operations in the same order as accuracy::Accumulator, so their
// bits are the definition's; the exceptional elements (NaN, infinities, possible overflow) are taken
// one by one through the Accumulator itself.
#include "ops/sums.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/accuracy.hpp"
#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

namespace {

// [Acc.run] The binary64 value x rounded once to T (round to nearest, ties to even).
template <class T> T to_type(double x) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else if constexpr (std::is_same_v<T, float16>) return float16{accuracy::to_float16_bits(x)};
  else return bfloat16{accuracy::to_bfloat16_bits(x)};
}

// [Acc.divisor] [Acc.terms] The counters of an element of n one-factor terms: rounding count c_d (0
// for a sum), the oracle's two steps of the division, the divisor d for [Acc.overflow].
accuracy::Sums counters(DType t, std::int64_t n, bool mean) {
  accuracy::Sums s;
  const std::int64_t d = mean && n > 0 ? n : 1;
  accuracy::count_terms(t, s, 0, 0, 1.0, n, mean ? accuracy::divisor_roundings(t, d) : 0, mean && n > 0 ? 2 : 0);
  s.divisor = static_cast<double>(d);
  return s;
}

// [Acc.oracle] One term x added to the state (σ, τ, Ŝ): accuracy::Accumulator::add_value's operations,
// in its order (binary64; TwoSum with the correction τ ← τ + (0 + err) for double).
template <bool DD> inline void add_term(double& sigma, double& tau, double& mag, double x) {
  if constexpr (!DD) {
    sigma = sigma + x;
  } else {
    const double s = sigma + x, bb = s - sigma;
    const double err = (sigma - (s - bb)) + (x - bb);
    sigma = s;
    tau = tau + (0.0 + err);
  }
  mag = mag + std::fabs(x);
}

// [Acc.divisor] [Acc.oracle] σ/d after the sum: accuracy::Accumulator::divide's operations.
template <bool DD> inline void divide(double& sigma, double& tau, double& mag, double d) {
  if constexpr (!DD) {
    sigma = sigma / d;
  } else {
    const double q1 = sigma / d;
    const double r = std::fma(-q1, d, sigma);
    const double q2 = (r + tau) / d;
    sigma = q1, tau = q2;
  }
  mag = mag / d;
}

// The definition of one element: its terms' values, in the order of the clause, accumulated by the
// Accumulator, divided for a mean, and enclosed.
accuracy::Sums element_sums(DType t, const std::vector<double>& x, bool mean) {
  accuracy::Accumulator acc(t);
  for (double v : x) acc.add_value(v);
  const auto n = static_cast<std::int64_t>(x.size());
  if (mean && n > 0) acc.divide(n);
  return acc.result(0, 0, 1.0, n, mean ? accuracy::divisor_roundings(t, std::max<std::int64_t>(n, 1)) : 0, mean && n > 0 ? 2 : 0);
}

// [ReduceMean.float.empty] (the mean of an empty set, 0/0): a NaN, and only a NaN.
accuracy::Element empty_mean() {
  accuracy::Element e;
  e.allowed = accuracy::kNan;
  e.hi = std::numeric_limits<double>::quiet_NaN();
  return e;
}

accuracy::Element enclose_values(DType t, const std::vector<double>& x, bool mean) {
  if (mean && x.empty()) return empty_mean();
  return accuracy::enclose(t, element_sums(t, x, mean));
}

template <class T> void write_element(Tensor& Y, accuracy::Annex& annex, std::size_t at, const accuracy::Element& e) {
  const std::uint64_t bits = accuracy::run_bits(Y.dtype(), e);  // [Acc.run]
  std::memcpy(Y.values<T>().data() + at, &bits, sizeof(T));
  annex.set(at, e);
}

std::shared_ptr<accuracy::Annex> make_annex(const Tensor& Y, const char* clause) {
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = Y.dtype();
  annex->clause = clause;
  annex->resize(static_cast<std::size_t>(Y.size()));
  return annex;
}

// ---- Sum, Mean -------------------------------------------------------------------------------------

// Y's indices in runs (core/index.hpp); within a run, blocks of kBlock elements: σ, τ, Ŝ start at
// −0, 0, 0 and receive Ẋ0, Ẋ1, ..., ẊL input by input — for each element the terms in increasing m,
// the order of [Sum.order] — each input advancing by its stride along the run (0 where broadcast).
template <class T, bool DD>
void variadic_float(const std::vector<const Tensor*>& X, Tensor& Y, const SumClauses& c, accuracy::Annex& annex) {
  constexpr std::int64_t kBlock = 1024;
  const DType t = Y.dtype();
  const auto n = static_cast<std::int64_t>(X.size());
  const double d = static_cast<double>(n);
  const accuracy::Coefficients coef = accuracy::coefficients(t, counters(t, n, c.mean));
  std::vector<Strides> maps = variadic_maps(X, Y.shape());
  maps.push_back(row_major_strides(Y.shape()));
  const std::size_t y_map = X.size();
  std::vector<const T*> x;
  for (const Tensor* xm : X) x.push_back(xm->values<T>().data());
  T* const y = Y.values<T>().data();
  std::array<double, kBlock> sg, tg, mg;
  std::vector<double> values(X.size());
  for (RunWalker run(Y.shape(), maps); !run.done(); run.next()) {
    for (std::int64_t b = 0; b < run.length(); b += kBlock) {
      const std::int64_t nb = std::min(kBlock, run.length() - b);
      std::fill_n(sg.begin(), nb, -0.0), std::fill_n(tg.begin(), nb, 0.0), std::fill_n(mg.begin(), nb, 0.0);
      for (std::size_t m = 0; m < X.size(); ++m) {  // [Sum.order] m ascending, for every element of the block
        const T* xm = x[m] + run.offset(m) + b * run.stride(m);
        if (run.stride(m) == 0) {
          const double v = real_value(xm[0]);
          for (std::int64_t q = 0; q < nb; ++q) add_term<DD>(sg[q], tg[q], mg[q], v);
        } else {
          for (std::int64_t q = 0; q < nb; ++q) add_term<DD>(sg[q], tg[q], mg[q], real_value(xm[q]));
        }
      }
      if (c.mean)  // [Acc.divisor] the oracle divides the sum by d = n once
        for (std::int64_t q = 0; q < nb; ++q) divide<DD>(sg[q], tg[q], mg[q], d);
      const auto at = static_cast<std::size_t>(run.offset(y_map) + b);
      if (!accuracy::enclose_run(coef, sg.data(), DD ? tg.data() : nullptr, mg.data(), static_cast<std::size_t>(nb), annex, at, y,
                                 [](double v) { return to_type<T>(v); }))
        continue;
      for (std::int64_t q = 0; q < nb; ++q) {  // [Acc.nonfinite] [Acc.overflow] the exceptions, by the definition
        if (!accuracy::exceptional(coef, sg[q], DD ? tg[q] : 0.0, mg[q])) continue;
        for (std::size_t m = 0; m < X.size(); ++m)
          values[m] = real_value(x[m][run.offset(m) + (b + q) * run.stride(m)]);
        write_element<T>(Y, annex, at + static_cast<std::size_t>(q), enclose_values(t, values, c.mean));
      }
    }
  }
}

// ---- ReduceSum, ReduceMean ---------------------------------------------------------------------------

// The walk of X in row-major order, run by run (core/index.hpp), each element added into the state of
// the Y[j] whose R(j) holds it: the walk meets the members of every R(j) in row-major order, so each
// Y[j] receives its terms in the order of the clause. A run is a stretch of X's innermost (merged)
// axis; Y's stride along it is
//   1: the axis is kept — consecutive elements belong to consecutive Y[j]: state[j + q] += x[q];
//   0: the axis is reduced — the whole run lies in one R(j) and is added in order. Up to kLanes such
//      runs of distinct j that follow one another in the walk are added side by side, element q of
//      each in turn: each Y[j] still receives its own terms in order, and the independent chains
//      keep the processor busy (the sums of the last axis of a large X).
template <class T, bool DD>
void reduce_walk(const Tensor& X, const Strides& to_y, double* sg, double* tg, double* mg) {
  constexpr int kLanes = 8;
  const T* const x0 = X.values<T>().data();
  RunWalker run(X.shape(), {row_major_strides(X.shape()), to_y});
  struct Lane {
    const T* x;
    std::int64_t j;
  };
  std::array<Lane, kLanes> lanes;
  double s[kLanes], tt[kLanes], mm[kLanes];
  while (!run.done()) {
    const std::int64_t n = run.length();
    if (run.stride(1) != 0) {
      const T* const x = x0 + run.offset(0);
      const std::int64_t j = run.offset(1);
      for (std::int64_t q = 0; q < n; ++q) add_term<DD>(sg[j + q], tg[DD ? j + q : 0], mg[j + q], real_value(x[q]));
      run.next();
      continue;
    }
    int g = 0;
    for (; g < kLanes && !run.done() && run.stride(1) == 0 && run.length() == n; run.next()) {
      const std::int64_t j = run.offset(1);
      bool repeated = false;  // a second run of the same R(j) waits for the first to be added
      for (int r = 0; r < g; ++r) repeated = repeated || lanes[r].j == j;
      if (repeated) break;
      lanes[g++] = {x0 + run.offset(0), j};
    }
    for (int r = 0; r < g; ++r) s[r] = sg[lanes[r].j], tt[r] = DD ? tg[lanes[r].j] : 0.0, mm[r] = mg[lanes[r].j];
    if (g == kLanes) {
      for (std::int64_t q = 0; q < n; ++q)
        for (int r = 0; r < kLanes; ++r) add_term<DD>(s[r], tt[r], mm[r], real_value(lanes[r].x[q]));
    } else {
      for (int r = 0; r < g; ++r)
        for (std::int64_t q = 0; q < n; ++q) add_term<DD>(s[r], tt[r], mm[r], real_value(lanes[r].x[q]));
    }
    for (int r = 0; r < g; ++r) {
      sg[lanes[r].j] = s[r], mg[lanes[r].j] = mm[r];
      if (DD) tg[lanes[r].j] = tt[r];
    }
  }
}

std::vector<double> set_values_of(const Tensor& X, const ReducedSet& set) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(set.size));
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      auto x = X.values<T>();
      for (std::int64_t q = 0; q < set.size; ++q) out.push_back(real_value(x[static_cast<std::size_t>(set.offset(q))]));
    }
  });
  return out;
}

template <class T, bool DD>
void reduce_float(const Tensor& X, const std::vector<bool>& reduced, std::int64_t keepdims, Tensor& Y, const SumClauses& c,
                  std::int64_t n, accuracy::Annex& annex) {
  const DType t = Y.dtype();
  const auto J = static_cast<std::size_t>(Y.size());
  T* const y = Y.values<T>().data();
  if (n == 0) {  // [ReduceSum.float.empty] +0; [ReduceMean.float.empty] NaN (0/0)
    const accuracy::Element e = c.mean ? empty_mean() : accuracy::enclose(t, counters(t, 0, false));
    for (std::size_t j = 0; j < J; ++j) write_element<T>(Y, annex, j, e);
    return;
  }
  accuracy::Array<double> sg, tg, mg;
  sg.resize(J), mg.resize(J), tg.resize(DD ? J : 1);
  std::fill(sg.begin(), sg.end(), -0.0), std::fill(mg.begin(), mg.end(), 0.0), std::fill(tg.begin(), tg.end(), 0.0);
  reduce_walk<T, DD>(X, reduce_map(X.shape(), reduced), sg.data(), tg.data(), mg.data());
  if (c.mean) {  // [Acc.divisor] the oracle divides the sum by d = |R(j)| once
    const double d = static_cast<double>(n);
    for (std::size_t j = 0; j < J; ++j) divide<DD>(sg[j], tg[DD ? j : 0], mg[j], d);
  }
  const accuracy::Coefficients coef = accuracy::coefficients(t, counters(t, n, c.mean));
  if (!accuracy::enclose_run(coef, sg.data(), DD ? tg.data() : nullptr, mg.data(), J, annex, 0, y,
                             [](double v) { return to_type<T>(v); }))
    return;
  for (std::size_t j = 0; j < J; ++j) {  // [Acc.nonfinite] [Acc.overflow] the exceptions, by the definition
    if (!accuracy::exceptional(coef, sg[j], DD ? tg[j] : 0.0, mg[j])) continue;
    const ReducedSet set = reduced_set(X.shape(), reduced, keepdims, index_of(Y.shape(), static_cast<std::int64_t>(j)));
    write_element<T>(Y, annex, j, enclose_values(t, set_values_of(X, set), c.mean));
  }
}

// [ReduceSum.int.formula] Σ modulo 2^w: unsigned 64-bit arithmetic wraps modulo 2^64, of which the
// residue modulo 2^w is the result's. [ReduceMean.int.formula] the exact sum (128 bits hold the sum of
// up to 2^63 values of 64 bits) divided by |R(j)|, truncated toward zero (C++ integer division).
template <class T>
void reduce_integer(const Tensor& X, const std::vector<bool>& reduced, Tensor& Y, const SumClauses& c, std::int64_t n) {
  const auto J = static_cast<std::size_t>(Y.size());
  T* const y = Y.values<T>().data();
  std::vector<__int128> acc(J, 0);
  if (n > 0) {
    const T* const x0 = X.values<T>().data();
    for (RunWalker run(X.shape(), {row_major_strides(X.shape()), reduce_map(X.shape(), reduced)}); !run.done(); run.next()) {
      const T* const x = x0 + run.offset(0);
      __int128* const a = acc.data() + run.offset(1);
      if (run.stride(1) == 0) {
        __int128 s = *a;
        for (std::int64_t q = 0; q < run.length(); ++q) s += x[q];
        *a = s;
      } else {
        for (std::int64_t q = 0; q < run.length(); ++q) a[q] += x[q];
      }
    }
  }
  for (std::size_t j = 0; j < J; ++j)
    y[j] = c.mean ? static_cast<T>(acc[j] / n) : static_cast<T>(static_cast<std::uint64_t>(static_cast<unsigned __int128>(acc[j])));
}

std::string values_formula(std::int64_t n, bool mean, const std::string& what) {
  return fmt::format("{}Σ {}", mean ? fmt::format("(1/{})·", n) : "", what);
}

}  // namespace

// ---- Sum, Mean ---------------------------------------------------------------------------------------

Tensor computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const std::vector<DType>& allowed,
                         const std::vector<const Tensor*>& inputs) {
  const Shape shape = variadic_shape(v, version, allowed, inputs);
  Tensor Y(inputs[0]->dtype(), shape, fmt::format("{} output Y", c.op), Fill::Unspecified);
  if (Y.size() == 0) return Y;
  auto annex = make_annex(Y, c.float_formula);
  dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      if (Y.dtype() == DType::Double) variadic_float<T, true>(inputs, Y, c, *annex);
      else variadic_float<T, false>(inputs, Y, c, *annex);
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const NodeValues& values,
                                  const std::vector<std::int64_t>& i) {
  const Tensor& Y = *values.output;
  variadic_shape(v, version, {Y.dtype()}, values.inputs);
  const std::vector<Strides> maps = variadic_maps(values.inputs, Y.shape());
  const auto n = static_cast<std::int64_t>(values.inputs.size());
  std::vector<Term> terms;
  std::vector<double> x;
  std::vector<TermFactors> factors;
  for (std::int64_t m = 0; m < n; ++m) {  // [Sum.order] Ẋ0[i], ..., ẊL[i]
    const Member member{static_cast<std::size_t>(m), offset_of(i, maps[static_cast<std::size_t>(m)])};
    terms.push_back(Term{{member}, {}});
    x.push_back(member_real(values, member));
    factors.push_back({x.back()});
  }
  Computation comp;
  comp.formula = values_formula(n, c.mean, fmt::format("Ẋm[i] over the {} inputs", n));
  comp.terms = n;
  comp.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  comp.sums = element_sums(Y.dtype(), x, c.mean);
  comp.element = accuracy::enclose(Y.dtype(), comp.sums);
  std::vector<std::string> more = {c.order};
  if (c.mean) more.push_back("Acc.divisor");
  if (n == 1) more.push_back(c.unary);
  const bool broadcast =
      std::any_of(values.inputs.begin(), values.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  if (broadcast && version >= 8) more.push_back("Common.broadcast.map");
  Decision d = computed_decision(values, i, std::move(comp), fmt::format("{} inputs", n), c.float_formula, more, factors);
  if (n == 1) d.situations.push_back({c.unary, ""});
  if (broadcast && version >= 8) d.situations.push_back({"Common.broadcast.map", ""});
  return d;
}

std::vector<Reach> reach_computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const NodeValues& values,
                                           const std::vector<Source>& sources) {
  const Tensor& Y = *values.output;
  const auto n = static_cast<std::int64_t>(values.inputs.size());
  std::vector<Reach> out;
  // [Acc.situations] the witnesses of one element's n one-factor terms, term m from input m
  std::vector<Source> from(sources.begin(), sources.begin() + std::min<std::size_t>(sources.size(), values.inputs.size()));
  for (const FactorWitness& w : accuracy_witnesses(Y.dtype(), 0, n)) {
    std::vector<std::uint64_t> bits;
    for (double x : w.values) bits.push_back(bits_in(Y.dtype(), x));
    Reach r = reach_by_given(w.situation, std::move(bits), n, from, values.input_names, w.write);
    if (!r.reachable) r.reachable = true;  // another choice of the free inputs might reach it: not built
    out.push_back(std::move(r));
  }
  out.push_back(reach_by_shape({c.unary, ""}, n == 1, "more than one input"));
  const bool broadcast =
      std::any_of(values.inputs.begin(), values.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  out.push_back(reach_by_shape({"Common.broadcast.map", ""}, broadcast && version >= 8,
                               version < 8 ? fmt::format("{0}-1 and {0}-6 do not broadcast", v.op)
                                           : std::string("every input has the output's shape")));
  return out;
}

// ---- ReduceSum, ReduceMean -----------------------------------------------------------------------------

Tensor computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const std::vector<DType>& allowed,
                       const Tensor& X, const ReduceParams& p) {
  const auto reduced = reduce_axes(r, version, allowed, X, p);
  const std::string what = fmt::format("{} output", c.op);
  if (!reduced) {  // r.axes_noop: Y = X, bit for bit
    Tensor Y(X.dtype(), X.shape(), what, Fill::Unspecified);
    std::copy(X.bytes().begin(), X.bytes().end(), Y.bytes().begin());
    return Y;
  }
  Tensor Y(X.dtype(), reduce_shape(X.shape(), *reduced, p.keepdims), what, Fill::Unspecified);
  if (Y.size() == 0) return Y;
  std::vector<std::int64_t> dims;
  for (std::size_t k = 0; k < reduced->size(); ++k)
    if ((*reduced)[k]) dims.push_back(X.shape()[k]);
  const std::int64_t n = checked_product(dims, "R(j)");  // |R(j)|, the same for every j
  const DType t = X.dtype();
  if (!info(t).is_float) {
    if (c.mean && n == 0)  // [ReduceMean.err.int-empty]
      refuse(c.int_empty, "{}-{}: a reduced dimension of X (shape {}) is 0, so every R(j) is empty; the mean of an empty set of {} "
             "values is 0/0, which no integer represents", c.op, version, to_string(X.shape()), name(t));
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) reduce_integer<T>(X, *reduced, Y, c, n);
    });
    return Y;
  }
  auto annex = make_annex(Y, c.float_formula);
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      if (t == DType::Double) reduce_float<T, true>(X, *reduced, p.keepdims, Y, c, n, *annex);
      else reduce_float<T, false>(X, *reduced, p.keepdims, Y, c, n, *annex);
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const NodeValues& values,
                                const ReduceParams& p, const ReduceSources& from, const std::vector<std::int64_t>& j) {
  const Tensor& X = *values.inputs[0];
  const Tensor& Y = *values.output;
  const DType t = X.dtype();
  const auto reduced = reduce_axes(r, version, {t}, X, p);
  const std::int64_t y_offset = offset_of(j, row_major_strides(Y.shape()));
  const std::string y = output_name(values, j), parameters = reduce_parameters(r, version, p, from);
  if (!reduced) return decide_noop(values, j, r.axes_noop, parameters);  // r.axes_noop: Y = X
  const ReducedSet set = reduced_set(X.shape(), *reduced, p.keepdims, j);
  std::vector<Term> terms;
  for (std::int64_t q = 0; q < set.size; ++q) terms.push_back(Term{{Member{0, set.offset(q)}}, {}});
  const std::string formula = values_formula(set.size, c.mean,
                                             fmt::format("{}[i] over R(j) (axes kept: {}), in row-major order", values.input_names[0],
                                                         set.kept.empty() ? "none" : set.kept));
  const std::vector<std::string> axes = reduce_axes_clauses(r, p);
  if (!info(t).is_float) {  // [ReduceSum.int.formula] [ReduceMean.int.formula]
    Decision d;
    d.parameters = parameters;
    std::vector<Member> members;
    for (const Term& term : terms) members.push_back(term.factors[0]);
    d.set.name = fmt::format("R(j): the {} terms of {}", set.size, y);
    d.set.size = set.size;
    d.set.member = [members](std::int64_t k) { return members[static_cast<std::size_t>(k)]; };
    __int128 exact = 0;
    for (const Member& m : members) exact += dispatch(t, [&](auto tag) -> __int128 {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>) return X.values<T>()[static_cast<std::size_t>(m.offset)];
      else return 0;
    });
    const int w = 8 * info(t).size;
    const bool wraps = !c.mean && dispatch(t, [&](auto tag) -> bool {
      using T = typename decltype(tag)::type;
      if constexpr (is_int_v<T>)
        return exact < static_cast<__int128>(std::numeric_limits<T>::min()) || exact > static_cast<__int128>(std::numeric_limits<T>::max());
      else return false;
    });
    const bool empty = set.size == 0;
    d.clauses = {empty ? c.int_empty : c.int_formula};
    if (!c.mean) d.clauses.push_back("Acc.int");
    d.clauses.insert(d.clauses.end(), axes.begin(), axes.end());
    d.reason = c.mean ? fmt::format("{} = {}: the exact sum of its {} terms divided by {}, truncated toward zero", y,
                                    element_text(Y, y_offset), set.size, set.size)
                      : fmt::format("{} = {}: the sum of its {} terms modulo 2^{}, as {}{}", y, element_text(Y, y_offset), set.size, w,
                                    name(t), wraps ? " (the exact sum is outside its range: it wraps around)" : "");
    d.stop = "a computed value depends on every one of its terms: the chain stops here";
    d.situations.push_back({empty ? c.int_empty : c.int_formula, ""});
    if (wraps) d.situations.push_back({"Acc.int", "the exact sum outside the range of T (wrap-around)"});
    const __int128 value = c.mean ? (empty ? 0 : exact / set.size) : exact;
    const std::uint64_t bits = static_cast<std::uint64_t>(static_cast<unsigned __int128>(value)) &
                               (w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
    if (element_bits(Y, y_offset) != bits) disagree(values, j);
    Computation comp;
    comp.formula = formula;
    comp.terms = set.size;
    comp.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
    d.computed = std::move(comp);
    return d;
  }
  const std::vector<double> x = set_values_of(X, set);
  std::vector<TermFactors> factors;
  for (double v : x) factors.push_back({v});
  Computation comp;
  comp.formula = formula;
  comp.terms = set.size;
  comp.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  std::vector<std::string> more = {c.order};
  if (c.mean) more.push_back("Acc.divisor");
  more.insert(more.end(), axes.begin(), axes.end());
  if (c.mean && set.size == 0) {  // [ReduceMean.float.empty] 0/0
    Decision d;
    d.parameters = parameters;
    d.set.name = "R(j), empty";
    d.set.size = 0;
    d.set.member = [](std::int64_t) { return Member{0, 0}; };
    d.clauses = {c.float_empty};
    d.clauses.insert(d.clauses.end(), axes.begin(), axes.end());
    d.reason = fmt::format("{} is NaN because R(j) is empty (a reduced dimension is 0): the mean of no value is 0/0", y);
    d.stop = "the set is empty: no input element determined the value";
    d.situations = {{c.float_empty, ""}};
    comp.element = empty_mean();
    if (element_bits(Y, y_offset) != accuracy::run_bits(t, comp.element)) disagree(values, j);
    d.computed = std::move(comp);
    return d;
  }
  comp.sums = element_sums(t, x, c.mean);
  comp.element = accuracy::enclose(t, comp.sums);
  if (set.size == 0) more.insert(more.begin(), c.float_empty);
  Decision d = computed_decision(values, j, std::move(comp), parameters, c.float_formula, more, factors);
  if (set.size == 0) d.situations.push_back({c.float_empty, ""});
  for (const std::string& a : axes) d.situations.push_back({a, ""});
  return d;
}

std::vector<Reach> reach_computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const NodeValues& values,
                                         const ReduceParams& p, const std::vector<Source>& sources) {
  const Tensor& X = *values.inputs[0];
  const DType t = X.dtype();
  const auto reduced = reduce_axes(r, version, {t}, X, p);
  std::vector<Reach> out;
  out.push_back(reach_by_shape({r.axes_noop, ""}, !reduced, "axes are reduced (noop_with_empty_axes is 0, or axes are given)"));
  if (!reduced) return out;
  std::vector<std::int64_t> dims;
  for (std::size_t k = 0; k < reduced->size(); ++k)
    if ((*reduced)[k]) dims.push_back(X.shape()[k]);
  const std::int64_t n = checked_product(dims, "R(j)");
  out.push_back(reach_by_shape({r.axes_default, ""}, !p.axes || p.axes->empty(), "axes are given"));
  out.push_back(reach_by_shape({r.axes_normalise, ""},
                               p.axes && std::any_of(p.axes->begin(), p.axes->end(), [](std::int64_t a) { return a < 0; }),
                               "no axis is negative"));
  const bool is_float = info(t).is_float;
  out.push_back(reach_by_shape({is_float ? c.float_empty : c.int_empty, ""}, n == 0, "no reduced dimension is 0"));
  if (!is_float) {
    out.push_back(reach_by_shape({c.int_formula, ""}, n > 0, "every R(j) is empty"));
    if (!c.mean) {  // [Acc.int] the greatest value of T and 1: the exact sum wraps
      const int w = 8 * info(t).size;
      const std::uint64_t max = info(t).is_signed_int ? (std::uint64_t{1} << (w - 1)) - 1
                                                      : (w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
      std::vector<std::uint64_t> bits(static_cast<std::size_t>(n), 0);
      if (n >= 2) bits[0] = max, bits[1] = 1;
      if (n >= 2)
        out.push_back(reach_by_given({"Acc.int", "the exact sum outside the range of T (wrap-around)"}, std::move(bits), n, {sources[0]},
                                     {values.input_names[0]}));
      else
        out.push_back(reach_by_shape({"Acc.int", "the exact sum outside the range of T (wrap-around)"}, false,
                                     "an element has fewer than two terms"));
    }
    return out;
  }
  // [Acc.situations] every member of R(j) is an element of X: one source for every term
  std::vector<Reach> acc = accuracy_reaches(t, 0, n, Source::Fixed, Source::Fixed, sources[0], {"", "", values.input_names[0]});
  out.insert(out.end(), acc.begin(), acc.end());
  return out;
}

}  // namespace sonnx::ops
