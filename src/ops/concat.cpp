// spec/ops/concat.md — read this file side by side with its sections.
//
// The definition, once: the normalised axis k, every input checked against X_0 on the other axes,
// dY_k the sum of the inputs' dX_{m,k}, and Y[j] = X_m[j'] with m the input whose range
// [o_m, o_m + dX_{m,k}) holds j_k. Every input viewed as [outer, dX_{m,k} * inner]: `evaluate`
// copies, for each outer position, one block per input (memcpy); `decide` finds m for one index.
#include "ops/concat.hpp"

#include <cstring>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/movement.hpp"

namespace sonnx::ops {

std::vector<DType> concat_types(int version) {
  if (version < 4) return {DType::Float16, DType::Float, DType::Double};  // [Concat.v1]
  // [Concat.v4] [Concat.v11] every type of sonnx-ref but bfloat16
  std::vector<DType> t = {DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,   DType::Int64, DType::Uint8,
                          DType::Uint16, DType::Uint32, DType::Uint64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Concat.v13]
  return t;
}

namespace {

// The checks of the Error conditions table, then [Concat.axis.normalise]: the axis k.
std::int64_t normalised_axis(int version, const std::vector<const Tensor*>& X, std::optional<std::int64_t> axis) {
  const Tensor& X0 = *X[0];
  for (std::size_t m = 0; m < X.size(); ++m)
    if (!accepts(concat_types(version), X[m]->dtype()) || X[m]->dtype() != X0.dtype())  // [Concat.err.dtype]
      refuse("Concat.err.dtype", "Concat-{}: input {} is {}, input 0 is {} (T in {{{}}}, one type for all inputs)", version,
             m, name(X[m]->dtype()), name(X0.dtype()), join_names(concat_types(version)));
  if (!axis && version >= 4)  // [Concat.err.axis-missing] [Concat.v4]
    refuse("Concat.err.axis-missing", "Concat-{}: the attribute axis is required", version);
  const std::int64_t a = axis.value_or(1);  // [Concat.v1] default 1
  const std::int64_t r = X0.rank();
  const std::int64_t lowest = version >= 11 ? -r : 0;  // [Concat.v11] negative axes
  if (a < lowest || a > r - 1)  // [Concat.err.axis-range] (so rank 0 is refused)
    refuse("Concat.err.axis-range", "Concat-{}: axis {} is outside [{}, {}] for input 0 of shape {}", version, a, lowest,
           r - 1, to_string(X0.shape()));
  const std::int64_t k = a < 0 ? a + r : a;  // [Concat.axis.normalise]
  for (std::size_t m = 1; m < X.size(); ++m) {
    bool same = X[m]->rank() == r;
    for (std::int64_t t = 0; same && t < r; ++t) same = t == k || X[m]->shape()[t] == X0.shape()[t];
    if (!same)  // [Concat.err.shape]
      refuse("Concat.err.shape", "Concat-{}: input {} has shape {}, input 0 has shape {}: they must agree on every axis but {}",
             version, m, to_string(X[m]->shape()), to_string(X0.shape()), k);
  }
  return k;
}

}  // namespace

Tensor concat(int version, const std::vector<const Tensor*>& X, std::optional<std::int64_t> axis) {
  const std::int64_t k = normalised_axis(version, X, axis);
  Shape shape = X[0]->shape();
  shape[k] = 0;
  for (const Tensor* x : X)  // [Concat.shape] dY_k = sum_m dX_{m,k}
    if (__builtin_add_overflow(shape[k], x->shape()[k], &shape[k]))
      refuse("Common.tensor.size-limit", "Concat-{}: the sum of the inputs' dimensions on axis {} is larger than int64 can count",
             version, k);
  Tensor Y(X[0]->dtype(), shape, "Concat output", Fill::Unspecified);
  if (Y.size() == 0) return Y;  // [Concat.empty]
  // [Concat.formula] for each outer position, input m's block of dX_{m,k} * inner elements, m in order
  const std::span<const std::int64_t> d(shape);
  const std::int64_t outer = checked_product(d.first(k), "Concat");
  const std::size_t inner = static_cast<std::size_t>(checked_product(d.subspan(k + 1), "Concat")) * info(Y.dtype()).size;
  std::byte* y = Y.bytes().data();
  for (std::int64_t o = 0; o < outer; ++o)
    for (const Tensor* x : X) {
      const std::size_t block = static_cast<std::size_t>(x->shape()[k]) * inner;  // 0 for an empty input ([Concat.empty])
      if (block == 0) continue;
      std::memcpy(y, x->bytes().data() + static_cast<std::size_t>(o) * block, block);
      y += block;
    }
  return Y;
}

Decision decide_concat(int version, const NodeValues& v, std::optional<std::int64_t> axis, const std::vector<std::int64_t>& j) {
  const std::int64_t k = normalised_axis(version, v.inputs, axis);
  // [Concat.formula] m such that o_m <= j_k < o_m + dX_{m,k}
  std::size_t m = 0;
  std::int64_t o = 0;
  while (j[k] >= o + v.inputs[m]->shape()[k]) o += v.inputs[m]->shape()[k], ++m;
  std::vector<std::int64_t> jm = j;
  jm[k] -= o;
  const std::int64_t offset = offset_of(jm, row_major_strides(v.inputs[m]->shape()));
  const std::int64_t given = axis.value_or(1);
  std::string parameters = fmt::format("axis = {}{}{}; input {} begins at {} on axis {}", given, axis ? "" : " (default)",
                                       given < 0 ? fmt::format(" -> {}", k) : "", m, o, k);
  std::vector<std::string> clauses = {"Concat.formula", "Concat.shape"};
  if (given < 0) clauses.push_back("Concat.axis.normalise");
  return moved_decision(v, j, {m, offset}, fmt::format("the element of input {} at j_k - o_m on axis k", m), clauses, parameters);
}

std::vector<Reach> reach_concat(int version, const NodeValues& v, std::optional<std::int64_t> axis,
                                const std::vector<Source>& sources) {
  const std::int64_t k = normalised_axis(version, v.inputs, axis);
  std::vector<Reach> out;
  bool empty_input = false;
  for (std::size_t m = 0; m < v.inputs.size(); ++m) empty_input = empty_input || v.inputs[m]->shape()[k] == 0;
  for (std::size_t m = 0; m < v.inputs.size(); ++m)
    if (v.inputs[m]->size() > 0) {
      out.push_back(moved_reach("Concat.formula", v.inputs[m]->dtype(), sources[m], v.input_names[m]));
      break;
    }
  if (out.empty()) out.push_back(reach_by_shape({"Concat.formula", ""}, false, "every input is empty"));
  out.push_back(reach_by_shape({"Concat.empty", ""}, empty_input, "no input is empty along the axis"));
  return out;
}

}  // namespace sonnx::ops
