// spec/ops/max.md — read this file side by side with its sections.
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

// Step 3: [Max.float.formula] [Max.int.formula] for any tensor index i of Y:
//   Y[i] = max over m in [0, L] of Ẋm[i],   Ẋm[i] = Xm[f(i)]   ([Common.broadcast.map])
template <class T>
void evaluate(const std::vector<const Tensor*>& X, Tensor& Y) {
  std::vector<Strides> maps;  // one broadcast index map per input
  std::vector<std::span<const T>> x;
  for (const Tensor* xm : X) {
    maps.push_back(broadcast_strides(xm->shape(), Y.shape()));
    x.push_back(xm->values<T>());
  }
  auto y = Y.values<T>();
  std::int64_t y_offset = 0;  // Y is row-major, walked in row-major order
  for (IndexWalker i(Y.shape(), maps); !i.done(); i.next(), ++y_offset) {
    T max_so_far = x[0][i.offset(0)];  // Ẋ0[i]
    for (std::size_t m = 1; m < X.size(); ++m)
      // [Common.order.max] folded in m order: a NaN already held is kept, so the result is the
      // first NaN ([Max.float.nan], [Common.order.nan-payload]); +0 is above -0 ([Max.float.zero]).
      max_so_far = max_of(max_so_far, x[m][i.offset(m)]);
    y[y_offset] = max_so_far;
  }
}

}  // namespace

Tensor max(int version, const std::vector<const Tensor*>& inputs) {
  check_inputs(version, inputs);
  Tensor Y(inputs[0]->dtype(), output_shape(version, inputs), "Max output Y");
  dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) evaluate<T>(inputs, Y);  // bool is refused by check_inputs
  });
  return Y;
}

}  // namespace sonnx::ops
