// spec/ops/max.md — read this file side by side with its sections.
//
// The definition, once: the output index space ([Max.shape]), the index set of the formula for an
// output index i — Ẋm[i] for m = 0..L, each input read through its broadcast map
// ([Common.broadcast.map]) — and the selection rule, the left fold of max_of in increasing m
// ([Max.float.formula], [Max.int.formula]). `evaluate` applies it to every index, run by run;
// `decide` applies it to one index and says which clause decided the value.
#include "ops/max.hpp"

#include <algorithm>

#include "core/broadcast.hpp"
#include "core/index.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

std::vector<DType> max_types(int version) {
  // [Max.v1] [Max.v6] [Max.v8] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 12)  // [Max.v12] the eight integer types join
    t.insert(t.end(), {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Uint8,
                       DType::Uint16, DType::Uint32, DType::Uint64});
  if (version >= 13) t.push_back(DType::BFloat16);  // [Max.v13]
  return t;
}

namespace {

// Step 1: the checks of the Error conditions table, before anything is evaluated.
void check_inputs(int version, const std::vector<const Tensor*>& X) {
  if (X.empty())  // [Max.err.arity] between 1 and 2147483647 inputs
    refuse("Max.err.arity", "Max-{} needs at least one input, got none", version);
  for (std::size_t m = 0; m < X.size(); ++m)
    if (X[m] == nullptr) refuse("Max.err.arity", "Max-{}: input X{} is absent (Max has no optional input)", version, m);
  const DType t = X[0]->dtype();
  for (std::size_t m = 1; m < X.size(); ++m)  // [Max.err.type] one T for every input
    if (X[m]->dtype() != t)
      refuse("Max.err.type", "Max-{}: X0 is {} but X{} is {}; all inputs must have the same type (no implicit conversion)",
             version, name(t), m, name(X[m]->dtype()));
  const auto allowed = max_types(version);
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())  // [Max.err.dtype]
    refuse("Max.err.dtype", "Max-{} does not accept {} (T in {{{}}})", version, name(t), join_names(allowed));
}

// Step 2: [Max.shape] the shape of Y.
Shape output_shape(int version, const std::vector<const Tensor*>& X) {
  if (version < 8) {  // [Max.v1] [Max.v6] no broadcasting: every input has the shape of X0
    for (std::size_t m = 1; m < X.size(); ++m)
      if (X[m]->shape() != X[0]->shape())  // [Max.err.same-shape]
        refuse("Max.err.same-shape", "Max-{} does not broadcast: X0 has shape {} but X{} has shape {}", version,
               to_string(X[0]->shape()), m, to_string(X[m]->shape()));
    return X[0]->shape();
  }
  std::vector<Shape> shapes;  // [Max.v8] multidirectional broadcasting
  for (const Tensor* x : X) shapes.push_back(x->shape());
  auto s = broadcast_shape(shapes);
  if (!s) {  // [Max.err.broadcast] [Common.broadcast.error]
    std::string list;
    for (std::size_t m = 0; m < X.size(); ++m) list += fmt::format("{}X{} {}", m ? ", " : "", m, to_string(shapes[m]));
    refuse("Max.err.broadcast", "Max-{}: the input shapes are not broadcastable ({}) [Common.broadcast.error]", version, list);
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
  along(a, sa, n, [&](std::int64_t t, T u) {
    if (sb == 0) body(t, u, b[0]);
    else body(t, u, b[t]);
  });
}

// [Max.float.formula] [Max.int.formula] For every index i of Y:
//   Y[i] = max_of(... max_of(max_of(Ẋ0[i], Ẋ1[i]), Ẋ2[i]) ..., ẊL[i])
// Y's indices are walked in runs (core/index.hpp); within a run the fold is taken input by input
// over a block of the run — y = max_of(Ẋ0, Ẋ1), then y = max_of(y, Ẋm) for m = 2..L — which is the
// same left fold, in the same order of m, for every index of the block. The block (kBlock
// elements) stays in the first-level cache between the inputs.
template <class T>
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
      // [Common.order.max] a NaN already held is kept, so the result is the first NaN
      // ([Max.float.nan], [Common.order.nan-payload]); +0 is above -0 ([Max.float.zero]).
      along2(at(0), run.stride(0), at(1), run.stride(1), n,
             [yb](std::int64_t t, T u, T v) { yb[t] = max_of(u, v); });
      for (std::size_t m = 2; m <= L; ++m)
        along(at(m), run.stride(m), n, [yb](std::int64_t t, T v) { yb[t] = max_of(yb[t], v); });
    }
  }
}

}  // namespace

Tensor max(int version, const std::vector<const Tensor*>& inputs) {
  check_inputs(version, inputs);
  Tensor Y(inputs[0]->dtype(), output_shape(version, inputs), "Max output Y", Fill::Unspecified);  // every Y[i] is written
  dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) evaluate<T>(inputs, Y);  // bool is refused by check_inputs
  });
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// [Check.coverage] Max is a fold of max_of over {Ẋ0[i], ..., ẊL[i]}: its clauses.
const FoldClauses kFloatFold{"Max.float.formula", "Max.float.nan", "Max.float.zero"};
const FoldClauses kIntFold{"Max.int.formula", "", ""};

std::vector<Situation> situations(bool is_float, const Selection& sel, bool broadcast) {
  std::vector<Situation> out = fold_decided_by(is_float ? kFloatFold : kIntFold, is_float, sel);
  if (broadcast) out.push_back({"Common.broadcast.map", ""});
  return out;
}

}  // namespace

std::vector<Reach> reach_max(int version, const NodeValues& v, const std::vector<Source>& sources) {
  const Tensor& Y = *v.output;
  const auto n = static_cast<std::int64_t>(v.inputs.size());  // the set {Ẋ0[i], ..., ẊL[i]}
  std::vector<Reach> out;
  const bool is_float = info(Y.dtype()).is_float;
  for (const Witnessed& c : fold_situations(is_float ? kFloatFold : kIntFold, is_float))
    out.push_back(reach_by_pattern(c.situation, c.pattern, n, Y.dtype(), sources, v.input_names));
  const bool broadcast = std::any_of(v.inputs.begin(), v.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  out.push_back(reach_by_shape({"Common.broadcast.map", ""}, broadcast && version >= 8,
                               version < 8 ? "Max-1 and Max-6 do not broadcast" : "every input has the output's shape"));
  return out;
}


Decision decide_max(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& Y = *v.output;
  const std::vector<Strides> maps = input_maps(v.inputs, Y.shape());
  const auto n = static_cast<std::int64_t>(v.inputs.size());
  Decision d;
  d.set.name = "the set {Ẋm[i]}: each input at the index broadcasting maps i to, in input order";
  d.set.size = n;
  d.set.member = [maps, i](std::int64_t m) { return Member{static_cast<std::size_t>(m), offset_of(i, maps[m])}; };
  const Selection sel = dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return fold_selection<T>(n, [&](std::int64_t m) {  // the fold over m of [Max.float.formula]
      return v.inputs[m]->template values<T>()[d.set.member(m).offset];
    });
  });
  d.chosen = sel.position;
  d.copies_chosen = true;
  const Member c = d.set.member(sel.position);
  const std::string y = output_name(v, i), x = member_name(v, c), set = set_values(v, d.set, d.chosen);
  if (sel.nan) {
    d.clauses = {"Max.float.nan", "Common.order.nan-payload"};
    d.reason = fmt::format("{} is NaN because input {} ({}) is the first NaN of the set {}{}; the result is that NaN, bit for bit",
                           y, sel.position, x, set, sel.nans > 1 ? fmt::format(" ({} NaNs in all)", sel.nans) : "");
  } else if (sel.zero_tie) {
    d.clauses = {"Max.float.zero"};
    d.reason = fmt::format("{} = +0 because the set {} holds -0 and +0 and nothing greater: max(-0, +0) = +0 (input {}, {})",
                           y, set, sel.position, x);
  } else {
    d.clauses = {info(Y.dtype()).is_float ? "Max.float.formula" : "Max.int.formula"};
    d.reason = fmt::format("{} = {} because it is the greatest element of the set {}, first attained by input {} ({}){}", y,
                           member_value(v, c), set, sel.position, x,
                           sel.equal > 0 ? " — equal elements are the same value, the first is kept" : "");
  }
  const bool broadcast = std::any_of(v.inputs.begin(), v.inputs.end(), [&](const Tensor* t) { return t->shape() != Y.shape(); });
  if (broadcast && version >= 8) d.clauses.push_back("Common.broadcast.map");
  d.situations = situations(info(Y.dtype()).is_float, sel, broadcast && version >= 8);
  if (!same_bits(*v.inputs[c.input], c.offset, Y, offset_of(i, row_major_strides(Y.shape())))) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
