// spec/ops/hardmax.md — read this file side by side with its sections.
//
// The definition, once: the normalised axis, the sequence V an output index belongs to — the slice
// along the axis (version 13) or a row of the [N, D] view (versions 1, 11) — and the position
// h(V) = min { q : V_q ≡ M }, M the left fold of max_of over V. Both layouts are the same
// arithmetic: X is viewed as [outer, n, inner] and V is the n elements at stride `inner` from
// o * n * inner + c; version 13 has n = d_k, inner = d_{k+1} * ... * d_{r-1}; the coercion has
// n = D = d_k * ... * d_{r-1}, inner = 1. `evaluate` finds h for every V; `decide` for one.
#include "ops/hardmax.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "core/runs.hpp"
#include "ops/position.hpp"

namespace sonnx::ops {

std::vector<DType> hardmax_types(int version) {
  // [Hardmax.v1] [Hardmax.v11] float16, float, double; [Hardmax.v13] adds bfloat16
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);
  return t;
}

// [Common.gr.defaults] [Hardmax.v1] [Hardmax.v11] axis = 1; [Hardmax.v13] axis = -1
std::int64_t hardmax_default_axis(int version) { return version >= 13 ? -1 : 1; }

namespace {

// The checks of the Error conditions table, then [Hardmax.axis.normalise]: the axis k in [0, r-1].
std::int64_t normalised_axis(int version, const Tensor& X, std::int64_t axis) {
  const auto allowed = hardmax_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Hardmax.err.dtype]
    refuse("Hardmax.err.dtype", "Hardmax-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
  const std::int64_t r = X.rank();
  // [Hardmax.v1] axis in [0, r-1]; [Hardmax.v11] [Hardmax.v13] axis in [-r, r-1]
  const std::int64_t lowest_axis = version >= 11 ? -r : 0;
  if (axis < lowest_axis || axis > r - 1)  // [Hardmax.err.axis-range] (so rank 0 is refused)
    refuse("Hardmax.err.axis-range", "Hardmax-{}: axis {} is outside [{}, {}] for an input of shape {}", version, axis,
           lowest_axis, r - 1, to_string(X.shape()));
  return axis < 0 ? axis + r : axis;  // [Hardmax.axis.normalise]
}

// [Hardmax.float.formula] the slice along axis k (version 13); [Hardmax.coerce] N = d_0 * ... * d_{k-1}
// rows of D = d_k * ... * d_{r-1} elements (versions 1 and 11): the one view of ops/position.hpp
Layout layout(int version, const Shape& shape, std::int64_t k) { return axis_layout(version < 13, shape, k, "Hardmax"); }

// [Hardmax.float.formula] [Hardmax.coerce] Y[o, q, c] = 1 if q = h(X[o, :, c]) else +0, where h(V)
// is the position of ops/position.hpp under the max order, first on ties: the first NaN
// ([Hardmax.float.nan]), else the first element equal to the greatest under the total order, +0 above
// -0 ([Hardmax.float.first-max], [Hardmax.float.zero]).
template <class T> void evaluate(const Tensor& X, const Layout& s, Tensor& Y) {
  const T* const x = X.values<T>().data();
  T* const y = Y.values<T>().data();  // all +0 ([Hardmax.float.values])
  const std::int64_t slab = s.n * s.inner;
  positions<Extreme::Max>(x, s, false, [&](std::int64_t o, std::int64_t c, std::int64_t h) {
    y[o * slab + h * s.inner + c] = one<T>();
  });
}

// Every float type, for the level chosen at run time (core/isa.hpp).
void evaluate_level(const Tensor& X, const Layout& s, Tensor& Y) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) at_active_level([&] { evaluate<T>(X, s, Y); });
  });
}

}  // namespace

Tensor hardmax(int version, const Tensor& X, std::int64_t axis) {
  const std::int64_t k = normalised_axis(version, X, axis);
  Tensor Y(X.dtype(), X.shape(), "Hardmax output");  // [Hardmax.shape], every element +0
  if (X.size() == 0) return Y;                       // [Hardmax.empty] no sequence at all
  evaluate_level(X, layout(version, X.shape(), k), Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// [Check.coverage] The situations of Hardmax's clauses, and the witness that builds each.
const Witnessed kCases[] = {
    {{"Hardmax.float.first-max", ""}, Pattern::Plain},
    {{"Hardmax.float.first-max", "equal maxima"}, Pattern::EqualMaxima},
    {{"Hardmax.float.nan", ""}, Pattern::NanFirst},
    {{"Hardmax.float.nan", "a NaN after a number"}, Pattern::NanAfterNumber},
    {{"Hardmax.float.zero", "-0 before +0"}, Pattern::NegativeZeroFirst},
    {{"Hardmax.float.zero", "+0 before -0"}, Pattern::PositiveZeroFirst},
};
const Situation kAcrossAxes{"Hardmax.coerce", "a row across several axes"};

// Versions 1 and 11: does a row of the [N, D] view span more than the axis k (D > d_k)?
bool rows_span_axes(int version, const Shape& shape, std::int64_t k, const Layout& s) {
  return version < 13 && s.n > shape[k];
}

std::vector<Situation> situations(int version, const Selection& sel, bool across) {
  std::vector<Situation> out;
  if (sel.nan) {
    out.push_back(kCases[2].situation);
    if (sel.position > 0) out.push_back(kCases[3].situation);
  } else if (sel.zero_tie) {
    out.push_back(kCases[sel.negative_zero_first ? 4 : 5].situation);
  } else {
    out.push_back(kCases[0].situation);
    if (sel.equal > 0) out.push_back(kCases[1].situation);
  }
  if (version >= 13) out.push_back({"Hardmax.float.formula", ""});
  else out.push_back(across ? kAcrossAxes : Situation{"Hardmax.coerce", ""});
  return out;
}

}  // namespace

std::vector<Reach> reach_hardmax(int version, const NodeValues& v, std::int64_t axis, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t k = normalised_axis(version, X, axis);
  const Layout s = layout(version, X.shape(), k);
  std::vector<Reach> out;
  for (const Witnessed& c : kCases)  // every member of a slice or row is an element of X
    out.push_back(reach_by_pattern(c.situation, c.pattern, s.n, X.dtype(), {sources[0]}, {v.input_names[0]}));
  if (version < 13)
    out.push_back(reach_by_shape(kAcrossAxes, rows_span_axes(version, X.shape(), k, s),
                                 "the rows of the [N, D] view are the slices along the last axis"));
  return out;
}


Decision decide_hardmax(int version, const NodeValues& v, std::int64_t axis, bool axis_given,
                        const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::string& x_name = v.input_names[0];
  const std::int64_t k = normalised_axis(version, X, axis);
  const Layout s = layout(version, X.shape(), k);
  Decision d;
  d.parameters = fmt::format("axis = {}{}", axis, axis_given ? "" : " (default)");
  if (axis < 0) d.parameters += fmt::format(" -> axis {}", k);
  // The sequence holding i: offset = (o * n + q) * inner + c.
  const std::int64_t y_offset = offset_of(i, row_major_strides(Y.shape()));
  const std::int64_t c = y_offset % s.inner, q = (y_offset / s.inner) % s.n, o = y_offset / (s.inner * s.n);
  const std::int64_t base = o * s.n * s.inner + c, step = s.inner;
  d.set.size = s.n;
  d.set.member = [base, step](std::int64_t t) { return Member{0, base + t * step}; };
  d.set.name = version >= 13
                   ? fmt::format("the slice of {} along axis {} through {}", x_name, k, element_name(x_name, i))
                   : fmt::format("row {} of {} viewed as the matrix [{}, {}] (axis {})", o, x_name, s.outer, s.n, k);
  const Selection sel = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    return fold_selection<T>(s.n, [&](std::int64_t t) { return x[base + t * step]; });  // h(V)
  });
  const std::int64_t h = sel.position;
  d.chosen = h;
  const std::string at_h = member_name(v, d.set.member(h)) + " = " + member_value(v, d.set.member(h));
  std::string why;
  if (sel.nan) {
    d.clauses = {"Hardmax.float.nan"};
    why = fmt::format("the first NaN of the slice is at position {} ({})", h, at_h);
  } else if (sel.zero_tie) {
    d.clauses = {"Hardmax.float.zero", "Hardmax.float.first-max"};
    why = fmt::format("the maximum is +0, greater than -0 under the total order; its first position is {} ({})", h, at_h);
  } else {
    d.clauses = {"Hardmax.float.first-max"};
    why = fmt::format("the first maximum of the slice is at position {} ({}){}", h, at_h,
                      sel.equal > 0 ? fmt::format("; {} later element(s) are equal to it", sel.equal) : "");
  }
  d.clauses.push_back(version >= 13 ? "Hardmax.float.formula" : "Hardmax.coerce");
  d.situations = situations(version, sel, rows_span_axes(version, X.shape(), k, s));
  d.clauses.emplace_back("Hardmax.float.values");
  const std::string y = output_name(v, i);
  d.reason = q == h ? fmt::format("{} = 1 because its position in the slice is h = {}: {}", y, h, why)
                    : fmt::format("{} = +0 because its position {} in the slice is not h = {}: {}", y, q, h, why);
  d.stop = "a Hardmax element depends on the whole slice (every element was compared): the chain stops here";
  const bool agrees = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return bits_of(Y.values<T>()[y_offset]) == bits_of(q == h ? one<T>() : zero<T>());
    else return false;
  });
  if (!agrees) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
