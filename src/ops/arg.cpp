// The position of the extreme along one axis (ops/arg.hpp). Read it with spec/ops/argmax.md and
// spec/ops/argmin.md side by side: named steps — check the type and the flags -> normalise the axis
// -> output shape -> the positions. Each operator's file passes its own clause IDs.
#include "ops/arg.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/position.hpp"

namespace sonnx::ops {

namespace {

// Step 1: the type and the flags; Step 2: the axis k in [0, r-1], the input refused when the axis is
// out of range (so rank 0 is refused) or has no element.
std::int64_t normalised_axis(const ArgClauses& c, int version, const std::vector<DType>& allowed, const Tensor& X,
                             const ArgParams& p) {
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())
    refuse(c.err_dtype, "{}-{} does not accept {} (T in {{{}}})", c.op, version, name(X.dtype()), join_names(allowed));
  if (p.keepdims != 0 && p.keepdims != 1) refuse(c.err_flag, "attribute keepdims must be 0 or 1, got {}", p.keepdims);
  if (p.select_last_index != 0 && p.select_last_index != 1)
    refuse(c.err_flag, "attribute select_last_index must be 0 or 1, got {}", p.select_last_index);
  const std::int64_t r = X.rank();
  const std::int64_t lowest_axis = version >= 11 ? -r : 0;  // version 1: [0, r-1]; 11 and later: [-r, r-1]
  if (p.axis < lowest_axis || p.axis > r - 1)
    refuse(c.err_axis_range, "{}-{}: axis {} is outside [{}, {}] for an input of shape {}", c.op, version, p.axis,
           lowest_axis, r - 1, to_string(X.shape()));
  const std::int64_t k = p.axis < 0 ? p.axis + r : p.axis;  // c.axis_normalise
  if (X.shape()[k] == 0)
    refuse(c.err_empty_axis, "{}-{}: axis {} of the input (shape {}) has no element, so there is no position to select",
           c.op, version, k, to_string(X.shape()));
  return k;
}

// Step 3: the output shape, X's with dimension k set to 1 (keepdims = 1) or removed (keepdims = 0).
Shape output_shape(const Shape& x, std::int64_t k, std::int64_t keepdims) {
  Shape y;
  for (std::size_t a = 0; a < x.size(); ++a)
    if (static_cast<std::int64_t>(a) != k) y.push_back(x[a]);
    else if (keepdims == 1) y.push_back(1);
  return y;
}

// X as [outer, n, inner] around axis k: the slices V are X[o, :, c].
Layout layout(const Shape& x, std::int64_t k) {
  const std::span<const std::int64_t> d(x);
  return {checked_product(d.first(k), "the slices"), x[k], checked_product(d.subspan(k + 1), "the slices")};
}

// Step 4: Y[o, c] = the position in X[o, :, c] that the order selects; Y is [outer, inner] in
// row-major order whatever keepdims (a kept axis of size 1 changes no offset).
template <class T, Extreme E> void evaluate(const Tensor& X, const Layout& s, bool last, Tensor& Y) {
  std::int64_t* const y = Y.values<std::int64_t>().data();
  positions<E>(X.values<T>().data(), s, last,
               [&](std::int64_t o, std::int64_t c, std::int64_t h) { y[o * s.inner + c] = h; });
}

// Every type and both orders, for the level chosen at run time (core/isa.hpp).
void evaluate_level(Extreme order, const Tensor& X, const Layout& s, bool last, Tensor& Y) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) {  // bool is refused by normalised_axis
      if (order == Extreme::Max) at_active_level([&] { evaluate<T, Extreme::Max>(X, s, last, Y); });
      else at_active_level([&] { evaluate<T, Extreme::Min>(X, s, last, Y); });
    }
  });
}

}  // namespace

Tensor arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const Tensor& X, const ArgParams& p) {
  const std::int64_t k = normalised_axis(c, version, allowed, X, p);
  Tensor Y(DType::Int64, output_shape(X.shape(), k, p.keepdims), fmt::format("{} output", c.op), Fill::Unspecified);
  if (Y.size() == 0) return Y;  // c.empty: no slice at all
  const Layout s = layout(X.shape(), k);
  const bool last = p.select_last_index == 1;
  evaluate_level(c.order, X, s, last, Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// [Check.coverage] The situations of the clauses, and the witness that builds each: the first (last)
// extreme among equal ones, the NaN rules, the signed zeros, a subnormal extreme.
std::vector<Witnessed> all_situations(const ArgClauses& c, bool is_float, bool last) {
  const bool max = c.order == Extreme::Max;
  const char* ties = last ? c.last_index : is_float ? c.float_fold.formula : c.int_formula;
  const std::string equal = max ? "equal maxima" : "equal minima";
  if (!is_float)
    return {{{c.int_formula, ""}, Pattern::Plain},
            {{c.int_formula, "the type's extremes"}, Pattern::Extremes},
            {{ties, equal}, Pattern::EqualMaxima}};
  return {
      {{c.float_fold.formula, ""}, Pattern::Plain},
      {{ties, equal}, Pattern::EqualMaxima},
      {{c.float_fold.formula, max ? "a subnormal greatest" : "a subnormal least"}, last ? Pattern::SubnormalFirst : Pattern::Subnormal},
      {{c.float_fold.nan, ""}, Pattern::NanFirst},
      {{c.float_fold.nan, "a NaN after a number"}, Pattern::NanAfterNumber},
      {{last ? c.last_index : c.float_fold.nan, "two NaNs"}, Pattern::TwoNans},
      {{c.float_fold.zero, "-0 before +0"}, max ? Pattern::NegativeZeroFirst : Pattern::PositiveZeroFirst},
      {{c.float_fold.zero, "+0 before -0"}, max ? Pattern::PositiveZeroFirst : Pattern::NegativeZeroFirst},
  };
}

std::vector<Situation> decided_by(const ArgClauses& c, bool is_float, bool last, const Selection& sel) {
  const auto all = all_situations(c, is_float, last);
  std::vector<Situation> out;
  if (!is_float) {
    out.push_back(all[0].situation);
    if (sel.extreme) out.push_back(all[1].situation);
    if (sel.equal > 0) out.push_back(all[2].situation);
  } else if (sel.nan) {
    out.push_back(all[3].situation);
    if (sel.position > 0) out.push_back(all[4].situation);
    if (sel.nans > 1) out.push_back(all[5].situation);
  } else if (sel.zero_tie) {
    out.push_back(all[sel.negative_zero_first ? 6 : 7].situation);
  } else {
    out.push_back(all[0].situation);
    if (sel.equal > 0) out.push_back(all[1].situation);
    if (sel.subnormal) out.push_back(all[2].situation);
  }
  return out;
}

std::string parameters_text(const ArgParams& p, std::int64_t k, int version) {
  std::string out = fmt::format("axis = {}{}", p.axis, p.axis_given ? "" : " (default)");
  if (p.axis < 0) out += fmt::format(" -> axis {}", k);
  out += fmt::format(", keepdims = {}{}", p.keepdims, p.keepdims_given ? "" : " (default)");
  if (version >= 12) out += fmt::format(", select_last_index = {}{}", p.select_last_index, p.last_given ? "" : " (default)");
  return out;
}

}  // namespace

std::vector<Reach> reach_arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const NodeValues& v,
                             const ArgParams& p, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t k = normalised_axis(c, version, allowed, X, p);
  const std::int64_t n = X.shape()[k];  // every slice has d_k elements
  const bool last = p.select_last_index == 1;
  std::vector<Reach> out;
  out.push_back(reach_by_shape({c.axis_normalise, ""}, p.axis < 0, "the axis is not negative"));
  for (const Witnessed& w : all_situations(c, info(X.dtype()).is_float, last))
    out.push_back(reach_by_pattern(w.situation, w.pattern, n, X.dtype(), {sources[0]}, {v.input_names[0]}, c.order));
  return out;
}

Decision decide_arg(const ArgClauses& c, int version, const std::vector<DType>& allowed, const NodeValues& v,
                    const ArgParams& p, const std::vector<std::int64_t>& j) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t k = normalised_axis(c, version, allowed, X, p);
  const Layout s = layout(X.shape(), k);
  const bool last = p.select_last_index == 1, max = c.order == Extreme::Max;
  Decision d;
  d.parameters = parameters_text(p, k, version);
  // The slice of j: Y's offset is o * inner + c (keepdims changes no offset).
  const std::int64_t y_offset = offset_of(j, row_major_strides(Y.shape()));
  const std::int64_t col = y_offset % s.inner, o = y_offset / s.inner;
  const std::int64_t base = o * s.n * s.inner + col, step = s.inner;
  d.set.size = s.n;
  d.set.member = [base, step](std::int64_t t) { return Member{0, base + t * step}; };
  std::vector<std::int64_t> at(j.begin(), j.end());
  if (p.keepdims == 0) at.insert(at.begin() + k, 0);
  at[static_cast<std::size_t>(k)] = 0;
  d.set.name = fmt::format("the slice of {} along axis {} through {}", v.input_names[0], k, element_name(v.input_names[0], at));
  const DType t = X.dtype();
  const Selection sel = dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    const auto read = [&](std::int64_t q) { return x[base + q * step]; };
    return max ? fold_selection<T, Extreme::Max>(s.n, read) : fold_selection<T, Extreme::Min>(s.n, read);
  });
  const std::int64_t h = last ? sel.last : sel.position;
  d.chosen = h;
  const std::string at_h = member_name(v, d.set.member(h)) + " = " + member_value(v, d.set.member(h));
  const std::string which = last ? "last" : "first";
  std::string why;
  if (sel.nan) {
    d.clauses = {c.float_fold.nan};
    why = fmt::format("the {} NaN of the slice is at position {} ({}){}", which, h, at_h,
                      sel.nans > 1 ? fmt::format("; the slice holds {} NaNs", sel.nans) : "");
  } else if (sel.zero_tie) {
    d.clauses = {c.float_fold.zero, c.float_fold.formula};
    why = max ? fmt::format("the maximum is +0, greater than -0 under the total order; its {} position is {} ({})", which, h, at_h)
              : fmt::format("the minimum is -0, less than +0 under the total order; its {} position is {} ({})", which, h, at_h);
  } else {
    d.clauses = {info(t).is_float ? c.float_fold.formula : c.int_formula};
    why = fmt::format("the {} {} of the slice is at position {} ({}){}", which, max ? "maximum" : "minimum", h, at_h,
                      sel.equal > 0 ? fmt::format("; {} other element(s) are equal to it", sel.equal) : "");
  }
  if (last) d.clauses.push_back(c.last_index);
  d.clauses.push_back(c.shape);
  if (p.axis < 0) d.clauses.push_back(c.axis_normalise);
  d.situations = decided_by(c, info(t).is_float, last, sel);
  if (p.axis < 0) d.situations.push_back({c.axis_normalise, ""});
  d.reason = fmt::format("{} = {} because {}", output_name(v, j), h, why);
  d.stop = "a position depends on the whole slice (every element was compared): the chain stops here";
  if (Y.values<std::int64_t>()[y_offset] != h) disagree(v, j);
  return d;
}

}  // namespace sonnx::ops
