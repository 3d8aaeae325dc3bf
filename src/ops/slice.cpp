// spec/ops/slice.md — read this file side by side with its sections.
//
// The definition, once: the lists S, E, A, P ([Slice.params], [Slice.axes.default]), the normalised
// axes, the clamped bounds b_k, e_k of every axis ([Slice.bounds]), dY_k, and Y[j] = X[i] with
// i_k = b_k + j_k * p_k. As a walk (ops/movement.hpp): Y's axis k reads X with stride p_k * s_k from
// the base sum_k b_k * s_k; `evaluate` copies along it (memcpy runs where p = 1 on the inner axes),
// `decide` names the one element of X at one index.
#include "ops/slice.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/movement.hpp"

namespace sonnx::ops {

std::vector<DType> slice_types(int version) {
  // [Slice.v1] [Slice.v10] [Slice.v11] every type of sonnx-ref but bfloat16
  std::vector<DType> t = {DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,   DType::Int64, DType::Uint8,
                          DType::Uint16, DType::Uint32, DType::Uint64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Slice.v13]
  return t;
}

namespace {

// Per axis of X: the clamped start, the step, and Y's dimension.
struct Resolved {
  std::vector<std::int64_t> begin, step, size;
  std::vector<bool> sliced;  // the axis is named by A
};

// One parameter input: rank 1, int32 or int64, of the type of `starts`.
std::vector<std::int64_t> parameter(int version, const Tensor* t, const char* what, DType type) {
  if ((t->dtype() != DType::Int32 && t->dtype() != DType::Int64) || t->dtype() != type)  // [Slice.err.indices-dtype]
    refuse("Slice.err.indices-dtype", "Slice-{}: input {} is {}, starts is {} (int32 or int64, one type for all)", version,
           what, name(t->dtype()), name(type));
  if (t->rank() != 1)  // [Slice.err.input-rank]
    refuse("Slice.err.input-rank", "Slice-{}: input {} has shape {}, it must have rank 1", version, what, to_string(t->shape()));
  return int_values(*t);
}

// The checks of the Error conditions table, then [Slice.axes.normalise] and [Slice.bounds].
Resolved resolve(int version, const Tensor& X, const SliceParams& p) {
  if (!accepts(slice_types(version), X.dtype()))  // [Slice.err.dtype]
    refuse("Slice.err.dtype", "Slice-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(slice_types(version)));
  // [Slice.params] attributes in version 1, inputs from version 10
  std::vector<std::int64_t> S, E, A, P;
  bool has_axes = false, has_steps = false;
  if (version < 10) {
    if (!p.starts || !p.ends)  // [Slice.err.missing]
      refuse("Slice.err.missing", "Slice-{}: the attributes starts and ends are required", version);
    S = *p.starts, E = *p.ends;
    if (p.axes) A = *p.axes, has_axes = true;
  } else {
    if (!p.starts_input || !p.ends_input)  // [Slice.err.missing]
      refuse("Slice.err.missing", "Slice-{}: the inputs starts and ends are required", version);
    const DType type = p.starts_input->dtype();
    S = parameter(version, p.starts_input, "starts", type);
    E = parameter(version, p.ends_input, "ends", type);
    if (p.axes_input) A = parameter(version, p.axes_input, "axes", type), has_axes = true;
    if (p.steps_input) P = parameter(version, p.steps_input, "steps", type), has_steps = true;
  }
  const std::int64_t r = X.rank();
  const std::size_t n = S.size();
  if (E.size() != n || (has_axes && A.size() != n) || (has_steps && P.size() != n) || static_cast<std::int64_t>(n) > r)
    refuse("Slice.err.length", "Slice-{}: starts has {} entries, ends {}{}{}, for X of rank {} (one length, at most the rank)",  // [Slice.err.length]
           version, n, E.size(), has_axes ? fmt::format(", axes {}", A.size()) : "",
           has_steps ? fmt::format(", steps {}", P.size()) : "", r);
  if (!has_axes)  // [Slice.axes.default] (0, 1, ..., n-1)
    for (std::size_t t = 0; t < n; ++t) A.push_back(static_cast<std::int64_t>(t));
  if (!has_steps) P.assign(n, 1);  // [Slice.axes.default] steps all 1
  Resolved out;
  out.begin.assign(r, 0), out.step.assign(r, 1), out.size = X.shape(), out.sliced.assign(r, false);
  const std::int64_t lowest = version >= 11 ? -r : 0;  // [Slice.v11] negative axes
  for (std::size_t t = 0; t < n; ++t) {
    if (A[t] < lowest || A[t] > r - 1)  // [Slice.err.axis-range]
      refuse("Slice.err.axis-range", "Slice-{}: axes[{}] = {} is outside [{}, {}] for X of shape {}", version, t, A[t],
             lowest, r - 1, to_string(X.shape()));
    const std::int64_t k = A[t] < 0 ? A[t] + r : A[t];  // [Slice.axes.normalise]
    if (out.sliced[k])  // [Slice.err.axis-duplicate]
      refuse("Slice.err.axis-duplicate", "Slice-{}: axis {} is named twice (axes = ({}))", version, k, join_ints(A));
    out.sliced[k] = true;
    const std::int64_t step = P[t];
    if (step == 0) refuse("Slice.err.step-zero", "Slice-{}: steps[{}] is 0", version, t);  // [Slice.err.step-zero]
    // [Slice.bounds] v < 0 becomes v + d; clamped to [0, d] (step > 0), or [0, d-1] and [-1, d-1] (step < 0)
    const std::int64_t d = X.shape()[k];
    out.step[k] = step;
    if (d == 0) {  // [Slice.empty] an empty axis stays empty, whatever the bounds
      out.size[k] = 0;
      continue;
    }
    std::int64_t b = S[t] < 0 ? S[t] + d : S[t];
    std::int64_t e = E[t] < 0 ? E[t] + d : E[t];
    if (step > 0) {
      b = std::clamp<std::int64_t>(b, 0, d), e = std::clamp<std::int64_t>(e, 0, d);
    } else {
      b = std::clamp<std::int64_t>(b, 0, d - 1), e = std::clamp<std::int64_t>(e, -1, d - 1);
    }
    // [Slice.shape] max(0, ceil((e - b) / p)); |e - b| <= d + 1, so no overflow
    const std::int64_t span = step > 0 ? e - b : b - e, by = step > 0 ? step : -step;
    out.size[k] = span <= 0 ? 0 : (span - 1) / by + 1;  // [Slice.empty] 0 when the start is past the end
    out.begin[k] = out.size[k] == 0 ? 0 : b;
  }
  return out;
}

// [Slice.formula] Y[j] = X[i], i_k = b_k + j_k * p_k: base sum_k b_k * s_k, stride p_k * s_k
Walk walk(const Tensor& X, const Resolved& s) {
  const Strides xs = row_major_strides(X.shape());
  Walk w;
  w.shape = s.size;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    w.base += s.begin[k] * xs[k];
    w.stride.push_back(s.step[k] * xs[k]);
  }
  return w;
}

}  // namespace

Tensor slice(int version, const Tensor& X, const SliceParams& p) {
  const Walk w = walk(X, resolve(version, X, p));
  Tensor Y(X.dtype(), w.shape, "Slice output", Fill::Unspecified);  // [Slice.shape] every element written
  if (Y.size() == 0) return Y;  // [Slice.empty]
  copy_walk(X, Y, w);  // [Slice.formula]
  return Y;
}

Decision decide_slice(int version, const NodeValues& v, const SliceParams& p, const std::vector<std::int64_t>& j) {
  const Tensor& X = *v.inputs[0];
  const Resolved s = resolve(version, X, p);
  const Walk w = walk(X, s);
  std::int64_t offset = w.base;
  for (std::size_t k = 0; k < j.size(); ++k) offset += j[k] * w.stride[k];  // [Slice.formula]
  std::string parameters;
  for (std::size_t k = 0; k < s.begin.size(); ++k)
    if (s.sliced[k])
      parameters += fmt::format("{}axis {}: from {} by {}", parameters.empty() ? "" : "; ", k, s.begin[k], s.step[k]);
  return moved_decision(v, j, {0, offset}, "the element of X at i_k = b_k + j_k * p_k", {"Slice.formula", "Slice.bounds", "Slice.shape"},
                        parameters);
}

std::vector<Reach> reach_slice(int, const NodeValues& v, const SliceParams&, const std::vector<Source>& sources) {
  return {moved_reach("Slice.formula", v.inputs[0]->dtype(), sources[0], v.input_names[0])};
}

}  // namespace sonnx::ops
