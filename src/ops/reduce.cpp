// The reduction of ReduceMax and ReduceMin (ops/reduce.hpp). Read it with spec/ops/reducemax.md and
// spec/ops/reducemin.md side by side: named steps — check the type -> the axes to reduce -> output
// shape -> the values. The definition, once: the normalised set A of reduced axes (Steps 1-2), the
// output index space (Step 3), the reduced set R(j) of an output index j in row-major order, and the
// selection rule, the left fold of the order's selection over R(j) (Step 4). `evaluate` applies it to
// every j at once by walking X run by run; `decide` applies it to one j and says which clause decided
// the value. Each operator's file passes its own clause IDs.
#include "ops/reduce.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "core/runs.hpp"

namespace sonnx::ops {

std::vector<std::int64_t> reduce_axes_from_input(const ReduceClauses& c, const Tensor& axes) {
  if (axes.dtype() != DType::Int64)
    refuse(c.err_axes_input, "the axes input must be int64, got {}", name(axes.dtype()));
  if (axes.rank() != 1)
    refuse(c.err_axes_input, "the axes input must have rank 1, got shape {}", to_string(axes.shape()));
  auto v = axes.values<std::int64_t>();
  return {v.begin(), v.end()};
}

namespace {

void check_type(const ReduceClauses& c, int version, const std::vector<DType>& allowed, const Tensor& X) {
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())
    refuse(c.err_dtype, "{}-{} does not accept {} (T in {{{}}})", c.op, version, name(X.dtype()), join_names(allowed));
}

void check_flag(const ReduceClauses& c, const char* attribute, std::int64_t value) {
  if (value != 0 && value != 1) refuse(c.err_flag, "attribute {} must be 0 or 1, got {}", attribute, value);
}

bool axes_empty(const ReduceParams& p) { return !p.axes || p.axes->empty(); }

// Steps 1 and 2: the normalised set of reduced axes, as one flag per axis of X; nullopt for the
// identity of c.axes_noop (empty axes, noop_with_empty_axes = 1, version 18 and later). Empty axes
// otherwise reduce every axis (c.axes_default). Version 1 takes axes in [0, r-1], version 11 and
// later [-r, r-1] (c.err_axis_range); a negative axis a is a + r (c.axes_normalise); an axis given
// twice is refused (c.err_axis_duplicate).
std::optional<std::vector<bool>> reduced_axes(const ReduceClauses& c, int version, std::int64_t r, const ReduceParams& p) {
  if (axes_empty(p)) {
    if (version >= c.noop_since && p.noop_with_empty_axes == 1) return std::nullopt;
    return std::vector<bool>(static_cast<std::size_t>(r), true);
  }
  const std::int64_t lowest_axis = version >= 11 ? -r : 0;
  std::vector<bool> reduced(static_cast<std::size_t>(r), false);
  for (std::int64_t a : *p.axes) {
    if (a < lowest_axis || a > r - 1)
      refuse(c.err_axis_range, "{}-{}: axis {} is outside [{}, {}] for an input of rank {}", c.op, version, a,
             lowest_axis, r - 1, r);
    const std::int64_t k = a < 0 ? a + r : a;
    if (reduced[k])
      refuse(c.err_axis_duplicate, "{}-{}: axis {} is given twice (axes {})", c.op, version, k, to_string(*p.axes));
    reduced[k] = true;
  }
  return reduced;
}

// Step 3: the output shape. keepdims = 1: each reduced dimension becomes 1; keepdims = 0: it is removed.
Shape output_shape(const Shape& in, const std::vector<bool>& reduced, std::int64_t keepdims) {
  Shape out;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k]) out.push_back(in[k]);
    else if (keepdims == 1) out.push_back(1);
  }
  return out;
}

// Step 4, the map from X to Y: for an index i of X, the offset of the output element j whose R(j)
// holds i — Y's row-major stride on each kept axis (keepdims only inserts axes of size 1, which
// change no offset), 0 on each reduced axis.
Strides output_map(const Shape& x_shape, const std::vector<bool>& reduced) {
  Shape kept;
  for (std::size_t k = 0; k < reduced.size(); ++k)
    if (!reduced[k]) kept.push_back(x_shape[k]);
  const Strides kept_strides = row_major_strides(kept);
  Strides map(x_shape.size(), 0);
  for (std::size_t k = 0, t = 0; k < reduced.size(); ++k)
    if (!reduced[k]) map[k] = kept_strides[t++];
  return map;
}

// The formula, for every output index j (max_of in the max order, min_of in the min order):
//   Y[j] = max_of(... max_of(X[i(0)], X[i(1)]) ..., X[i(n-1)]),  R(j) = {i(0), ..., i(n-1)} in row-major order.
// Every Y[j] starts as the value of the empty set — -Inf, the type's minimum, False in the max order;
// +Inf, the type's maximum, True in the min order — the identity of the selection, which the spec
// allows as the fold's start. X is then walked in row-major order, run by run (core/index.hpp), and
// each element is folded into the Y[j] whose R(j) holds it: the walk meets the members of every R(j)
// in row-major order, so each Y[j] receives the left fold of the clause. A run is a stretch of X's
// innermost (merged) axis, and Y's stride along it is
//   1: the axis is kept — consecutive elements belong to consecutive Y[j]: y[t] = max_of(y[t], x[t]);
//   0: the axis is reduced — the whole run lies in one R(j) and is folded at once: max_of is
//      associative, so y = max_of(y, fold of the run) is the element-by-element fold.
template <class T, Extreme E>
void evaluate(const Tensor& X, const std::vector<bool>& reduced, Tensor& Y) {
  auto y = Y.values<T>();
  std::fill(y.begin(), y.end(), identity<E, T>());
  const T* const x0 = X.values<T>().data();
  T* const y0 = y.data();
  RunWalker run(X.shape(), {row_major_strides(X.shape()), output_map(X.shape(), reduced)});
  while (!run.done()) {
    const T* const x = x0 + run.offset(0);  // X's stride along a run is 1 (its innermost axis)
    T* const yj = y0 + run.offset(1);
    const std::int64_t n = run.length();
    // [Common.order.max] [Common.order.min] a NaN already held is kept, so the result is the first
    // NaN of R(j) ([Common.order.nan-payload]); +0 is above -0; False < True.
    if (run.stride(1) == 0) {
      *yj = extreme_of<E>(*yj, fold_extreme<E>(x, n));  // the run's first NaN, else its extreme element
      run.next();
      continue;
    }
    // Y's stride 1: this run and the runs right after it that fold into the same n elements of Y, at
    // one step through X (X's rows when axis 0 is reduced and axis 1 kept) — the next members of the
    // same R(j), in the walk's row-major order — are folded together: y[t] = max_of(y[t], x[t]) row
    // after row.
    const std::int64_t first = run.offset(0), to = run.offset(1);
    std::int64_t rows = 1, step = 0;
    for (run.next(); !run.done() && run.offset(1) == to; run.next()) {
      if (rows == 1) step = run.offset(0) - first;
      else if (run.offset(0) != first + rows * step) break;  // not at the same step: a group of its own
      ++rows;
    }
    fold_rows<E>(yj, x, rows, n, step);
  }
}

// Every type and both orders, for the level chosen at run time (core/isa.hpp).
void evaluate_level(Extreme order, const Tensor& X, const std::vector<bool>& reduced, Tensor& Y) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (order == Extreme::Max) at_active_level([&] { evaluate<T, Extreme::Max>(X, reduced, Y); });
    else at_active_level([&] { evaluate<T, Extreme::Min>(X, reduced, Y); });
  });
}

// The parameter line of `decide`: "axes = [1] (attribute), keepdims = 0".
std::string parameters_text(const ReduceClauses& c, int version, const ReduceParams& p, const ReduceSources& from) {
  std::string out = p.axes ? fmt::format("axes = {} ({})", to_string(*p.axes), from.axes) : "axes absent";
  out += fmt::format(", keepdims = {}{}", p.keepdims, from.keepdims_default ? " (default)" : "");
  if (version >= c.noop_since)
    out += fmt::format(", noop_with_empty_axes = {}{}", p.noop_with_empty_axes, from.noop_default ? " (default)" : "");
  return out;
}

}  // namespace

std::optional<std::vector<bool>> reduce_axes(const ReduceClauses& c, int version, const std::vector<DType>& allowed,
                                             const Tensor& X, const ReduceParams& p) {
  check_type(c, version, allowed, X);
  check_flag(c, "keepdims", p.keepdims);
  check_flag(c, "noop_with_empty_axes", p.noop_with_empty_axes);
  return reduced_axes(c, version, X.rank(), p);
}

Shape reduce_shape(const Shape& x_shape, const std::vector<bool>& reduced, std::int64_t keepdims) {
  return output_shape(x_shape, reduced, keepdims);
}

Strides reduce_map(const Shape& x_shape, const std::vector<bool>& reduced) { return output_map(x_shape, reduced); }

std::string reduce_parameters(const ReduceClauses& c, int version, const ReduceParams& p, const ReduceSources& from) {
  return parameters_text(c, version, p, from);
}

std::vector<std::string> reduce_axes_clauses(const ReduceClauses& c, const ReduceParams& p) {
  std::vector<std::string> out;
  if (axes_empty(p)) out.push_back(c.axes_default);
  if (p.axes && std::any_of(p.axes->begin(), p.axes->end(), [](std::int64_t a) { return a < 0; })) out.push_back(c.axes_normalise);
  return out;
}

std::int64_t ReducedSet::offset(std::int64_t q) const {
  std::int64_t o = base;
  for (std::size_t t = dims.size(); t-- > 0;) {
    o += (q % dims[t]) * strides[t];
    q /= dims[t];
  }
  return o;
}

// R(j): the kept coordinates come from j (j's coordinates on the reduced axes, present when
// keepdims = 1, are 0 and skipped); the reduced coordinates run over their ranges, the last
// reduced axis fastest (row-major order).
ReducedSet reduced_set(const Shape& x_shape, const std::vector<bool>& reduced, std::int64_t keepdims,
                       const std::vector<std::int64_t>& j) {
  ReducedSet set;
  const auto r = x_shape.size();
  std::vector<std::int64_t> base_index(r, 0);
  const Strides x_strides = row_major_strides(x_shape);
  for (std::size_t k = 0, jk = 0; k < r; ++k) {
    if (reduced[k]) {
      set.dims.push_back(x_shape[k]);
      set.strides.push_back(x_strides[k]);
      if (keepdims == 1) ++jk;
    } else {
      base_index[k] = j[jk++];
      set.kept += (set.kept.empty() ? "" : ", ") + std::to_string(k);
    }
  }
  set.base = offset_of(base_index, x_strides);
  set.size = checked_product(set.dims, "R(j)");  // 0 when a reduced dimension is 0
  return set;
}

Tensor reduce(const ReduceClauses& c, int version, const std::vector<DType>& allowed, const Tensor& X,
              const ReduceParams& p) {
  const auto reduced = reduce_axes(c, version, allowed, X, p);
  const std::string what = fmt::format("{} output", c.op);
  if (!reduced) {  // c.axes_noop: Y = X
    Tensor Y(X.dtype(), X.shape(), what, Fill::Unspecified);  // every byte is copied
    std::copy(X.bytes().begin(), X.bytes().end(), Y.bytes().begin());
    return Y;
  }
  Tensor Y(X.dtype(), output_shape(X.shape(), *reduced, p.keepdims), what,
           Fill::Unspecified);  // every Y[j] starts as the identity, below
  evaluate_level(c.order, X, *reduced, Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// [Check.coverage] The operator is a fold over R(j): its clauses (bool: the formula alone).
std::vector<Witnessed> all_situations(const ReduceClauses& c, DType t) {
  if (t == DType::Bool) return {{{c.bool_formula, ""}, Pattern::Plain}};
  const bool is_float = info(t).is_float;
  return fold_situations(is_float ? c.float_fold : c.int_fold, is_float);
}

const char* empty_clause(const ReduceClauses& c, DType t) {
  return info(t).is_float ? c.float_empty : t == DType::Bool ? c.bool_empty : c.int_empty;
}

std::vector<Situation> situations(const ReduceClauses& c, DType t, const Selection& sel) {
  if (t == DType::Bool) return {{c.bool_formula, ""}};
  const bool is_float = info(t).is_float;
  return fold_decided_by(is_float ? c.float_fold : c.int_fold, is_float, sel);
}

}  // namespace

std::vector<Reach> reach_reduce(const ReduceClauses& c, int version, const NodeValues& v, const ReduceParams& p,
                                const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const auto reduced = reduced_axes(c, version, X.rank(), p);
  std::vector<Reach> out;
  out.push_back(reach_by_shape({c.axes_noop, ""}, !reduced, "axes are reduced (noop_with_empty_axes is 0, or axes are given)"));
  if (!reduced) return out;  // Y = X: no set is reduced
  Shape dims;
  for (std::size_t k = 0; k < reduced->size(); ++k)
    if ((*reduced)[k]) dims.push_back(X.shape()[k]);
  const std::int64_t n = checked_product(dims, "R(j)");  // |R(j)|, the same for every j
  out.push_back(reach_by_shape({c.axes_default, ""}, axes_empty(p), "axes are given"));
  out.push_back(reach_by_shape({c.axes_normalise, ""},
                               p.axes && std::any_of(p.axes->begin(), p.axes->end(), [](std::int64_t a) { return a < 0; }),
                               "no axis is negative"));
  out.push_back(reach_by_shape({empty_clause(c, X.dtype()), ""}, n == 0, "no reduced dimension is 0"));
  const DType t = X.dtype();
  for (const Witnessed& w : all_situations(c, t))  // every member of R(j) is an element of X
    out.push_back(reach_by_pattern(w.situation, w.pattern, n, t, {sources[0]}, {v.input_names[0]}, c.order));
  return out;
}

Decision decide_noop(const NodeValues& v, const std::vector<std::int64_t>& j, const char* noop_clause, std::string parameters) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t y_offset = offset_of(j, row_major_strides(Y.shape()));
  Decision d;
  d.parameters = std::move(parameters);
  d.selection = true;
  d.copies_chosen = true;  // Y[j] is X[j], bit for bit
  d.set.name = "X at the same index (Y = X)";
  d.set.size = 1;
  d.set.member = [y_offset](std::int64_t) { return Member{0, y_offset}; };
  d.chosen = 0;
  d.clauses = {noop_clause};
  d.situations = {{noop_clause, ""}};
  d.reason = fmt::format("{} = {} because axes is empty and noop_with_empty_axes = 1: Y is X", output_name(v, j),
                         element_text(X, y_offset));
  if (!same_bits(X, y_offset, Y, y_offset)) disagree(v, j);
  return d;
}

Decision decide_reduce(const ReduceClauses& c, int version, const NodeValues& v, const ReduceParams& p,
                       const ReduceSources& from, const std::vector<std::int64_t>& j) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t r = X.rank();
  const std::int64_t y_offset = offset_of(j, row_major_strides(Y.shape()));
  const std::string y = output_name(v, j), x_name = v.input_names[0];
  const auto reduced = reduced_axes(c, version, r, p);
  if (!reduced) return decide_noop(v, j, c.axes_noop, parameters_text(c, version, p, from));  // c.axes_noop: Y = X
  Decision d;
  d.parameters = parameters_text(c, version, p, from);
  d.selection = true;  // the fold of a set
  const ReducedSet rset = reduced_set(X.shape(), *reduced, p.keepdims, j);
  d.set.size = rset.size;
  d.set.member = [rset](std::int64_t q) { return Member{0, rset.offset(q)}; };
  d.set.name = fmt::format("R(j): the elements of {} whose index agrees with j on the kept axes (axes: {}), in row-major order",
                           x_name, rset.kept.empty() ? "none" : rset.kept);
  std::vector<Situation> axis_situations;
  if (axes_empty(p)) d.clauses.push_back(c.axes_default), axis_situations.push_back({c.axes_default, ""});
  if (p.axes && std::any_of(p.axes->begin(), p.axes->end(), [](std::int64_t a) { return a < 0; }))
    d.clauses.push_back(c.axes_normalise), axis_situations.push_back({c.axes_normalise, ""});
  const DType t = X.dtype();
  const bool max = c.order == Extreme::Max;
  if (d.set.size == 0) {  // the value of the empty set
    const char* id = empty_clause(c, t);
    d.clauses.insert(d.clauses.begin(), id);
    d.reason = fmt::format("{} = {} because R(j) is empty (a reduced dimension is 0): the value of the empty set", y,
                           element_text(Y, y_offset));
    d.stop = "the set is empty: no input element determined the value";
    d.situations = {{id, ""}};
    d.situations.insert(d.situations.end(), axis_situations.begin(), axis_situations.end());
    const bool empty_value = dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return bits_of(Y.values<T>()[y_offset]) == bits_of(max ? identity<Extreme::Max, T>() : identity<Extreme::Min, T>());
    });
    if (!empty_value) disagree(v, j);
    return d;
  }
  const Selection sel = dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    const auto at = [&](std::int64_t q) { return x[d.set.member(q).offset]; };
    return max ? fold_selection<T, Extreme::Max>(d.set.size, at) : fold_selection<T, Extreme::Min>(d.set.size, at);
  });
  d.chosen = sel.position;
  const Member chosen = d.set.member(sel.position);
  const std::string x = member_name(v, chosen), value = member_value(v, chosen), set = set_values(v, d.set, d.chosen);
  std::vector<std::string> first;
  if (t == DType::Bool) {
    first = {c.bool_formula};
    const char* decisive = max ? "true" : "false";  // the value that decides the set: True (max), False (min)
    d.reason = value == decisive
                   ? fmt::format("{} = {} because R(j) = {} holds a {}; the first is {}", y, decisive, set, decisive, x)
                   : fmt::format("{} = {} because no element of R(j) = {} is {}", y, value, set, decisive);
  } else if (sel.nan) {
    first = {c.float_fold.nan, "Common.order.nan-payload"};
    d.reason = fmt::format("{} is NaN because {} is the first NaN of R(j) = {} in row-major order{}; the result is that NaN, bit for bit",
                           y, x, set, sel.nans > 1 ? fmt::format(" ({} NaNs in all)", sel.nans) : "");
  } else if (sel.zero_tie) {
    first = {c.float_fold.zero};
    d.reason = max ? fmt::format("{} = +0 because R(j) = {} holds -0 and +0 and nothing greater (+0 first at {})", y, set, x)
                   : fmt::format("{} = -0 because R(j) = {} holds -0 and +0 and nothing less (-0 first at {})", y, set, x);
  } else {
    first = {info(t).is_float ? c.float_fold.formula : c.int_fold.formula};
    d.reason = fmt::format("{} = {} because it is the {} element of R(j) = {}, first met at {}", y, value,
                           max ? "greatest" : "least", set, x);
  }
  d.clauses.insert(d.clauses.begin(), first.begin(), first.end());
  d.situations = situations(c, t, sel);
  d.situations.insert(d.situations.end(), axis_situations.begin(), axis_situations.end());
  if (!same_bits(X, chosen.offset, Y, y_offset)) disagree(v, j);
  return d;
}

}  // namespace sonnx::ops
