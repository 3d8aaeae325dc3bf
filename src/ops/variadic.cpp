// The element-wise fold of Max and Min (ops/variadic.hpp). Read it with spec/ops/max.md and
// spec/ops/min.md side by side: their clauses are the same with the two orders; each operator's file
// passes its own clause IDs, which the messages and the decisions cite.
#include "ops/variadic.hpp"

#include <algorithm>

#include "core/broadcast.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

namespace {

// Step 1: the checks of the Error conditions table, before anything is evaluated: between 1 and
// 2147483647 inputs, none absent (err_arity); one T for every input (err_type); T accepted by the
// version (err_dtype).
void check_inputs(const VariadicClauses& c, int version, const std::vector<DType>& allowed,
                  const std::vector<const Tensor*>& X) {
  if (X.empty()) refuse(c.err_arity, "{}-{} needs at least one input, got none", c.op, version);
  for (std::size_t m = 0; m < X.size(); ++m)
    if (X[m] == nullptr) refuse(c.err_arity, "{}-{}: input X{} is absent ({} has no optional input)", c.op, version, m, c.op);
  const DType t = X[0]->dtype();
  for (std::size_t m = 1; m < X.size(); ++m)
    if (X[m]->dtype() != t)
      refuse(c.err_type, "{}-{}: X0 is {} but X{} is {}; all inputs must have the same type (no implicit conversion)",
             c.op, version, name(t), m, name(X[m]->dtype()));
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
    refuse(c.err_dtype, "{}-{} does not accept {} (T in {{{}}})", c.op, version, name(t), join_names(allowed));
}

// Step 2: the shape of Y. Versions 1 and 6 do not broadcast: every input has the shape of X0
// (err_same_shape); versions 8 and later broadcast multidirectionally (err_broadcast,
// [Common.broadcast.error]).
Shape output_shape(const VariadicClauses& c, int version, const std::vector<const Tensor*>& X) {
  if (version < 8) {
    for (std::size_t m = 1; m < X.size(); ++m)
      if (X[m]->shape() != X[0]->shape())
        refuse(c.err_same_shape, "{}-{} does not broadcast: X0 has shape {} but X{} has shape {}", c.op, version,
               to_string(X[0]->shape()), m, to_string(X[m]->shape()));
    return X[0]->shape();
  }
  std::vector<Shape> shapes;
  for (const Tensor* x : X) shapes.push_back(x->shape());
  auto s = broadcast_shape(shapes);
  if (!s) {
    std::string list;
    for (std::size_t m = 0; m < X.size(); ++m) list += fmt::format("{}X{} {}", m ? ", " : "", m, to_string(shapes[m]));
    refuse(c.err_broadcast, "{}-{}: the input shapes are not broadcastable ({}) [Common.broadcast.error]", c.op, version, list);
  }
  return *s;
}

// The index set: Ẋm[i] = Xm[f(i)] ([Common.broadcast.map]), one stride map over Y's axes per
// input (in versions 1 and 6 every shape is Y's, and the map is the identity).
std::vector<Strides> input_maps(const std::vector<const Tensor*>& X, const Shape& y_shape) {
  std::vector<Strides> maps;
  for (const Tensor* xm : X) maps.push_back(broadcast_strides(xm->shape(), y_shape));
  return maps;
}

// ---- evaluation -----------------------------------------------------------------------------------

// Input m along a run of Y: Y's innermost axis is input m's own last axis (broadcasting aligns the
// axes on the right, and Y's size-1 axes are skipped), so input m advances by 1 (it has that
// dimension) or by 0 (it is broadcast along it: one element for the whole run). Each case is its
// own loop, so that the compiler sees the access pattern and vectorises the body.
template <class T, class Body> inline void along(const T* x, std::int64_t s, std::int64_t n, Body body) {
  if (s == 0) {
    const T v = x[0];
    for (std::int64_t t = 0; t < n; ++t) body(t, v);
  } else {
    for (std::int64_t t = 0; t < n; ++t) body(t, x[t]);
  }
}
template <class T, class Body>
inline void along2(const T* a, std::int64_t sa, const T* b, std::int64_t sb, std::int64_t n, Body body) {
  // The four cases as four loops, written out: the vectoriser gets each as a plain loop, whatever the
  // compiler's limits on unswitching a loop would be.
  if (sa != 0 && sb != 0) {
    for (std::int64_t t = 0; t < n; ++t) body(t, a[t], b[t]);
  } else if (sa != 0) {
    const T v = b[0];
    for (std::int64_t t = 0; t < n; ++t) body(t, a[t], v);
  } else if (sb != 0) {
    const T u = a[0];
    for (std::int64_t t = 0; t < n; ++t) body(t, u, b[t]);
  } else {
    const T u = a[0], v = b[0];
    for (std::int64_t t = 0; t < n; ++t) body(t, u, v);
  }
}

// The formula, for every index i of Y (max_of for the max order, min_of for the min order):
//   Y[i] = max_of(... max_of(max_of(Ẋ0[i], Ẋ1[i]), Ẋ2[i]) ..., ẊL[i])
// Y's indices are walked in runs (core/index.hpp); within a run the fold is taken input by input
// over a block of the run — y = max_of(Ẋ0, Ẋ1), then y = max_of(y, Ẋm) for m = 2..L — which is the
// same left fold, in the same order of m, for every index of the block. The block (kBlock
// elements) stays in the first-level cache between the inputs.
template <class T, Extreme E>
void evaluate(const std::vector<const Tensor*>& X, Tensor& Y) {
  constexpr std::int64_t kBlock = 2048;
  std::vector<Strides> maps = input_maps(X, Y.shape());
  maps.push_back(row_major_strides(Y.shape()));  // Y itself, written in row-major order
  const std::size_t L = X.size() - 1, y_map = X.size();
  std::vector<const T*> x;
  for (const Tensor* xm : X) x.push_back(xm->values<T>().data());
  T* const y0 = Y.values<T>().data();
  for (RunWalker run(Y.shape(), maps); !run.done(); run.next()) {
    T* const y = y0 + run.offset(y_map);  // Y's stride along a run is 1 (its innermost axis)
    for (std::int64_t b = 0; b < run.length(); b += kBlock) {
      const std::int64_t n = std::min(kBlock, run.length() - b);
      T* const yb = y + b;
      const auto at = [&](std::size_t m) { return x[m] + run.offset(m) + b * run.stride(m); };
      if (L == 0) {
        along(at(0), run.stride(0), n, [yb](std::int64_t t, T v) { yb[t] = v; });  // Y[i] = Ẋ0[i]
        continue;
      }
      // [Common.order.max] [Common.order.min] a NaN already held is kept, so the result is the first
      // NaN ([Common.order.nan-payload]); +0 is above -0.
      along2(at(0), run.stride(0), at(1), run.stride(1), n,
             [yb](std::int64_t t, T u, T v) { yb[t] = extreme_of<E>(u, v); });
      for (std::size_t m = 2; m <= L; ++m)
        along(at(m), run.stride(m), n, [yb](std::int64_t t, T v) { yb[t] = extreme_of<E>(yb[t], v); });
    }
  }
}

// Every type and both orders, for the level chosen at run time (core/isa.hpp): the same source
// compiled for baseline x86-64, AVX2 and AVX-512.
void evaluate_level(Extreme order, const std::vector<const Tensor*>& X, Tensor& Y) {
  dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) {  // bool is refused by check_inputs
      if (order == Extreme::Max) at_active_level([&] { evaluate<T, Extreme::Max>(X, Y); });
      else at_active_level([&] { evaluate<T, Extreme::Min>(X, Y); });
    }
  });
}

}  // namespace

Shape variadic_shape(const VariadicClauses& c, int version, const std::vector<DType>& allowed,
                     const std::vector<const Tensor*>& inputs) {
  check_inputs(c, version, allowed, inputs);
  return output_shape(c, version, inputs);
}

std::vector<Strides> variadic_maps(const std::vector<const Tensor*>& inputs, const Shape& y_shape) {
  return input_maps(inputs, y_shape);
}

Tensor variadic(const VariadicClauses& c, int version, const std::vector<DType>& allowed,
                const std::vector<const Tensor*>& inputs) {
  Tensor Y(inputs.empty() || !inputs[0] ? DType::Float : inputs[0]->dtype(), variadic_shape(c, version, allowed, inputs),
           fmt::format("{} output Y", c.op), Fill::Unspecified);  // every Y[i] is written
  evaluate_level(c.order, inputs, Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

std::vector<Reach> reach_variadic(const VariadicClauses& c, int version, const NodeValues& v,
                                  const std::vector<Source>& sources) {
  const Tensor& Y = *v.output;
  const auto n = static_cast<std::int64_t>(v.inputs.size());  // the set {Ẋ0[i], ..., ẊL[i]}
  std::vector<Reach> out;
  const bool is_float = info(Y.dtype()).is_float;
  for (const Witnessed& w : fold_situations(is_float ? c.float_fold : c.int_fold, is_float))
    out.push_back(reach_by_pattern(w.situation, w.pattern, n, Y.dtype(), sources, v.input_names, c.order));
  const bool broadcast = std::any_of(v.inputs.begin(), v.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  out.push_back(reach_by_shape({"Common.broadcast.map", ""}, broadcast && version >= 8,
                               version < 8 ? fmt::format("{0}-1 and {0}-6 do not broadcast", c.op)
                                           : std::string("every input has the output's shape")));
  return out;
}

Decision decide_variadic(const VariadicClauses& c, int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& Y = *v.output;
  const std::vector<Strides> maps = input_maps(v.inputs, Y.shape());
  const auto n = static_cast<std::int64_t>(v.inputs.size());
  Decision d;
  d.set.name = "the set {Ẋm[i]}: each input at the index broadcasting maps i to, in input order";
  d.set.size = n;
  d.set.member = [maps, i](std::int64_t m) { return Member{static_cast<std::size_t>(m), offset_of(i, maps[m])}; };
  const bool max = c.order == Extreme::Max;
  const Selection sel = dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto at = [&](std::int64_t m) { return v.inputs[m]->template values<T>()[d.set.member(m).offset]; };
    return max ? fold_selection<T, Extreme::Max>(n, at) : fold_selection<T, Extreme::Min>(n, at);  // the fold over m
  });
  d.chosen = sel.position;
  d.copies_chosen = true;
  d.selection = true;
  const Member chosen = d.set.member(sel.position);
  const std::string y = output_name(v, i), x = member_name(v, chosen), set = set_values(v, d.set, d.chosen);
  const bool is_float = info(Y.dtype()).is_float;
  if (sel.nan) {
    d.clauses = {c.float_fold.nan, "Common.order.nan-payload"};
    d.reason = fmt::format("{} is NaN because input {} ({}) is the first NaN of the set {}{}; the result is that NaN, bit for bit",
                           y, sel.position, x, set, sel.nans > 1 ? fmt::format(" ({} NaNs in all)", sel.nans) : "");
  } else if (sel.zero_tie) {
    d.clauses = {c.float_fold.zero};
    d.reason = max ? fmt::format("{} = +0 because the set {} holds -0 and +0 and nothing greater: max(-0, +0) = +0 (input {}, {})",
                                 y, set, sel.position, x)
                   : fmt::format("{} = -0 because the set {} holds -0 and +0 and nothing less: min(-0, +0) = -0 (input {}, {})",
                                 y, set, sel.position, x);
  } else {
    d.clauses = {is_float ? c.float_fold.formula : c.int_fold.formula};
    d.reason = fmt::format("{} = {} because it is the {} element of the set {}, first attained by input {} ({}){}", y,
                           member_value(v, chosen), max ? "greatest" : "least", set, sel.position, x,
                           sel.equal > 0 ? " — equal elements are the same value, the first is kept" : "");
  }
  const bool broadcast = std::any_of(v.inputs.begin(), v.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  if (broadcast && version >= 8) d.clauses.emplace_back("Common.broadcast.map");
  d.situations = fold_decided_by(is_float ? c.float_fold : c.int_fold, is_float, sel);
  if (broadcast && version >= 8) d.situations.push_back({"Common.broadcast.map", ""});
  if (!same_bits(*v.inputs[chosen.input], chosen.offset, Y, offset_of(i, row_major_strides(Y.shape())))) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
