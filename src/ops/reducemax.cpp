// spec/ops/reducemax.md — read this file side by side with its sections.
// Named steps: check the type -> normalise axes -> output shape -> evaluate.
#include "ops/reducemax.hpp"

#include <algorithm>

#include "core/index.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

std::vector<DType> reducemax_types(int version) {
  // [ReduceMax.v1] [ReduceMax.v11] float16, float, double, int32, int64, uint32, uint64
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double, DType::Int32,
                          DType::Int64,   DType::Uint32, DType::Uint64};
  if (version >= 12) t.insert(t.end(), {DType::Int8, DType::Uint8});  // [ReduceMax.v12]
  if (version >= 13) t.push_back(DType::BFloat16);                     // [ReduceMax.v13]
  if (version >= 20) t.push_back(DType::Bool);                         // [ReduceMax.v20]
  return t;
}

std::vector<std::int64_t> axes_from_input(const Tensor& axes) {
  // [ReduceMax.err.axes-input] [ReduceMax.v18] the axes input is an int64 tensor of rank 1
  if (axes.dtype() != DType::Int64)
    refuse("ReduceMax.err.axes-input", "the axes input must be int64, got {}", name(axes.dtype()));
  if (axes.rank() != 1)
    refuse("ReduceMax.err.axes-input", "the axes input must have rank 1, got shape {}", to_string(axes.shape()));
  auto v = axes.values<std::int64_t>();
  return {v.begin(), v.end()};
}

namespace {

void check_flag(const char* attribute, std::int64_t value) {
  if (value != 0 && value != 1)  // [ReduceMax.err.flag]
    refuse("ReduceMax.err.flag", "attribute {} must be 0 or 1, got {}", attribute, value);
}

// The normalised set of reduced axes, as one flag per axis of X; nullopt for the identity of
// [ReduceMax.axes.noop].
std::optional<std::vector<bool>> reduced_axes(int version, std::int64_t r, const ReduceMaxParams& p) {
  if (!p.axes || p.axes->empty()) {
    if (version >= 18 && p.noop_with_empty_axes == 1) return std::nullopt;  // [ReduceMax.axes.noop]
    return std::vector<bool>(static_cast<std::size_t>(r), true);           // [ReduceMax.axes.default]
  }
  // [ReduceMax.v1] axes in [0, r-1]; [ReduceMax.v11] and later: [-r, r-1]
  const std::int64_t lowest_axis = version >= 11 ? -r : 0;
  std::vector<bool> reduced(static_cast<std::size_t>(r), false);
  for (std::int64_t a : *p.axes) {
    if (a < lowest_axis || a > r - 1)  // [ReduceMax.err.axis-range]
      refuse("ReduceMax.err.axis-range", "ReduceMax-{}: axis {} is outside [{}, {}] for an input of rank {}", version, a,
             lowest_axis, r - 1, r);
    const std::int64_t k = a < 0 ? a + r : a;  // [ReduceMax.axes.normalise]
    if (reduced[k])                            // [ReduceMax.err.axis-duplicate]
      refuse("ReduceMax.err.axis-duplicate", "ReduceMax-{}: axis {} is given twice (axes {})", version, k, to_string(*p.axes));
    reduced[k] = true;
  }
  return reduced;
}

// [ReduceMax.shape] keepdims = 1: each reduced dimension becomes 1; keepdims = 0: it is removed.
Shape output_shape(const Shape& in, const std::vector<bool>& reduced, std::int64_t keepdims) {
  Shape out;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k]) out.push_back(in[k]);
    else if (keepdims == 1) out.push_back(1);
  }
  return out;
}

// [ReduceMax.float.formula] [ReduceMax.int.formula] [ReduceMax.bool.formula] for every output
// index j:  Y[j] = max over k in R(j) of X[k],  R(j) = the indices of X that agree with j on the
// kept axes, taken in row-major order.
template <class T>
void evaluate(const Tensor& X, const std::vector<bool>& reduced, Tensor& Y) {
  Shape kept_space = X.shape(), reduced_space = X.shape();
  for (std::size_t k = 0; k < reduced.size(); ++k) (reduced[k] ? kept_space : reduced_space)[k] = 1;
  const Strides x_strides = row_major_strides(X.shape());
  auto x = X.values<T>();
  auto y = Y.values<T>();
  // Y's elements, in row-major order, are the indices j of kept_space (keepdims only drops
  // axes of size 1, which does not change the order).
  IndexWalker k(reduced_space, {x_strides});  // walks R(j) relative to j
  std::int64_t y_offset = 0;
  for (IndexWalker j(kept_space, {x_strides}); !j.done(); j.next(), ++y_offset) {
    // The identity of max: the value of an empty R(j) — -Inf ([ReduceMax.float.empty]), the
    // type's minimum ([ReduceMax.int.empty]), False ([ReduceMax.bool.empty]).
    T max_so_far = lowest<T>();
    for (k.reset(); !k.done(); k.next())
      // [Common.order.max] folded in row-major order of R(j): the first NaN is kept
      // ([ReduceMax.float.nan]); +0 is above -0 ([ReduceMax.float.zero]); False < True.
      max_so_far = max_of(max_so_far, x[j.offset(0) + k.offset(0)]);
    y[y_offset] = max_so_far;
  }
}

}  // namespace

Tensor reduce_max(int version, const Tensor& X, const ReduceMaxParams& p) {
  const auto allowed = reducemax_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [ReduceMax.err.dtype]
    refuse("ReduceMax.err.dtype", "ReduceMax-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
  check_flag("keepdims", p.keepdims);
  check_flag("noop_with_empty_axes", p.noop_with_empty_axes);
  const auto reduced = reduced_axes(version, X.rank(), p);
  if (!reduced) {  // [ReduceMax.axes.noop] Y = X
    Tensor Y(X.dtype(), X.shape(), "ReduceMax output");
    std::copy(X.bytes().begin(), X.bytes().end(), Y.bytes().begin());
    return Y;
  }
  Tensor Y(X.dtype(), output_shape(X.shape(), *reduced, p.keepdims), "ReduceMax output");
  dispatch(X.dtype(), [&](auto tag) { evaluate<typename decltype(tag)::type>(X, *reduced, Y); });
  return Y;
}

}  // namespace sonnx::ops
