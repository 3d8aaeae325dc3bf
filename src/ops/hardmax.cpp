// spec/ops/hardmax.md — read this file side by side with its sections.
#include "ops/hardmax.hpp"

#include <algorithm>

#include "core/index.hpp"
#include "core/order.hpp"

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

// h(S): the position of the 1 in a sequence S(0..n-1), n > 0.
template <class T, class Read>
std::int64_t hardmax_position(std::int64_t n, Read S) {
  for (std::int64_t j = 0; j < n; ++j)
    if (is_nan(S(j))) return j;  // [Hardmax.float.nan] the first NaN
  // [Hardmax.float.first-max] the smallest j with S(j) equal to the maximum under the total order:
  // only a strictly greater element moves h, so the first of equal maxima stays; +0 is greater
  // than -0 ([Hardmax.float.zero]).
  std::int64_t h = 0;
  for (std::int64_t j = 1; j < n; ++j)
    if (greater(S(j), S(h))) h = j;
  return h;
}

// [Hardmax.float.formula] version 13: along the single axis k, for each index i of X,
//   Y[i] = 1 if i_k = h(X[i_0, ..., i_{k-1}, :, i_{k+1}, ...]) else 0.
template <class T>
void evaluate_along_axis(const Tensor& X, std::int64_t k, Tensor& Y) {
  const std::int64_t n = X.shape()[k];
  if (X.size() == 0) return;  // [Hardmax.empty]
  const Strides strides = row_major_strides(X.shape());
  Shape slice_starts = X.shape();
  slice_starts[k] = 1;  // one slice per index with i_k fixed to 0
  auto x = X.values<T>();
  auto y = Y.values<T>();
  for (IndexWalker i(slice_starts, {strides}); !i.done(); i.next()) {
    const std::int64_t base = i.offset(0), step = strides[k];
    const std::int64_t h = hardmax_position<T>(n, [&](std::int64_t j) { return x[base + j * step]; });
    y[base + h * step] = one<T>();  // [Hardmax.float.values] every other element stays +0
  }
}

// [Hardmax.coerce] versions 1 and 11: X is read as the 2-D matrix [N, D],
//   N = d0 * ... * d_{k-1},  D = d_k * ... * d_{r-1},  X2[n, d] = X[n * D + d] (row-major),
// and each row n gets a 1 at h(X2[n, :]).
template <class T>
void evaluate_coerced(const Tensor& X, std::int64_t k, Tensor& Y) {
  if (X.size() == 0) return;  // [Hardmax.empty] N = 0 or D = 0
  std::int64_t D = 1;
  for (std::size_t a = static_cast<std::size_t>(k); a < X.shape().size(); ++a) D *= X.shape()[a];
  const std::int64_t N = X.size() / D;
  auto x = X.values<T>();
  auto y = Y.values<T>();
  for (std::int64_t n = 0; n < N; ++n) {
    const std::int64_t h = hardmax_position<T>(D, [&](std::int64_t d) { return x[n * D + d]; });
    y[n * D + h] = one<T>();  // [Hardmax.float.values]
  }
}

}  // namespace

Tensor hardmax(int version, const Tensor& X, std::int64_t axis) {
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
  const std::int64_t k = axis < 0 ? axis + r : axis;  // [Hardmax.axis.normalise]
  Tensor Y(X.dtype(), X.shape(), "Hardmax output");   // [Hardmax.shape], every element +0
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      if (version >= 13) evaluate_along_axis<T>(X, k, Y);
      else evaluate_coerced<T>(X, k, Y);
    }
  });
  return Y;
}

}  // namespace sonnx::ops
