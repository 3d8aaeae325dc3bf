// spec/ops/gather.md — read this file side by side with its sections.
//
// The definition, once: X viewed as [outer, s, inner] around the normalised axis k, the indices
// normalised into [0, s-1] (checked, every one, before anything is written), and
// Y[a, i, b] = X[a, nu(I[i]), b]: Y is [outer, |I|, inner], each (a, i) one block of `inner` elements.
// `evaluate` copies the blocks (memcpy, or one element per index when inner is 1); `decide` names
// the one element of X at one index.
#include "ops/gather.hpp"

#include <cstring>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/movement.hpp"

namespace sonnx::ops {

std::vector<DType> gather_types(int version) {
  // [Gather.v1] [Gather.v11] every type of sonnx-ref but bfloat16
  std::vector<DType> t = {DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,   DType::Int64, DType::Uint8,
                          DType::Uint16, DType::Uint32, DType::Uint64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Gather.v13]
  return t;
}

namespace {

struct Layout {
  std::int64_t k = 0, outer = 1, s = 0, inner = 1;
};

// The checks of the Error conditions table on types and axis, then [Gather.axis.normalise].
Layout layout(int version, const Tensor& X, const Tensor& I, std::int64_t axis) {
  if (!accepts(gather_types(version), X.dtype()))  // [Gather.err.dtype]
    refuse("Gather.err.dtype", "Gather-{} does not accept {} for X (T in {{{}}})", version, name(X.dtype()),
           join_names(gather_types(version)));
  if (I.dtype() != DType::Int32 && I.dtype() != DType::Int64)  // [Gather.err.indices-dtype]
    refuse("Gather.err.indices-dtype", "Gather-{}: indices must be int32 or int64, got {}", version, name(I.dtype()));
  const std::int64_t r = X.rank();
  if (axis < -r || axis > r - 1)  // [Gather.err.axis-range] (so rank 0 is refused)
    refuse("Gather.err.axis-range", "Gather-{}: axis {} is outside [{}, {}] for X of shape {}", version, axis, -r, r - 1,
           to_string(X.shape()));
  Layout l;
  l.k = axis < 0 ? axis + r : axis;  // [Gather.axis.normalise]
  const std::span<const std::int64_t> d(X.shape());
  l.outer = checked_product(d.first(static_cast<std::size_t>(l.k)), "Gather");
  l.s = d[static_cast<std::size_t>(l.k)];
  l.inner = checked_product(d.subspan(static_cast<std::size_t>(l.k) + 1), "Gather");
  return l;
}

// [Gather.index.normalise] nu(v) = v + s for v < 0 (versions 11 and 13), each in [0, s-1].
std::int64_t normalised(int version, const Tensor& I, std::int64_t position, std::int64_t v, std::int64_t s) {
  const std::int64_t lowest = version >= 11 ? -s : 0;  // [Gather.v1] [Gather.v11]
  if (v < lowest || v > s - 1)  // [Gather.err.index-range] the index, named with its position in I
    refuse("Gather.err.index-range", "Gather-{}: indices{} = {} is outside [{}, {}] (axis of size {} in X)", version,
           I.rank() == 0 ? std::string("") : to_string(index_of(I.shape(), position)), v, lowest, s - 1, s);
  return v < 0 ? v + s : v;
}

// [Gather.shape] (dX_0, ..., dX_{k-1}, dI..., dX_{k+1}, ...)
Shape output_shape(const Tensor& X, const Tensor& I, std::int64_t k) {
  Shape out(X.shape().begin(), X.shape().begin() + k);
  out.insert(out.end(), I.shape().begin(), I.shape().end());
  out.insert(out.end(), X.shape().begin() + k + 1, X.shape().end());
  return out;
}

}  // namespace

Tensor gather(int version, const Tensor& X, const Tensor& I, std::int64_t axis) {
  const Layout l = layout(version, X, I, axis);
  std::vector<std::int64_t> idx = int_values(I);
  for (std::size_t t = 0; t < idx.size(); ++t)
    idx[t] = normalised(version, I, static_cast<std::int64_t>(t), idx[t], l.s);  // before anything is written
  Tensor Y(X.dtype(), output_shape(X, I, l.k), "Gather output", Fill::Unspecified);  // [Gather.shape]
  if (Y.size() == 0) return Y;
  // [Gather.formula] Y[a, i, b] = X[a, nu(I[i]), b]: block (a, i) of `inner` elements
  const std::int64_t n = static_cast<std::int64_t>(idx.size());
  const int width = info(X.dtype()).size;
  const std::byte* const x = X.bytes().data();
  std::byte* const y = Y.bytes().data();
  const std::size_t block = static_cast<std::size_t>(l.inner) * static_cast<std::size_t>(width);
  for (std::int64_t a = 0; a < l.outer; ++a) {
    const std::byte* const slab = x + static_cast<std::size_t>(a * l.s) * block;
    std::byte* const out = y + static_cast<std::size_t>(a * n) * block;
    switch (block) {  // one element per index: a fixed-width copy the compiler keeps in registers
      case 1: for (std::int64_t t = 0; t < n; ++t) out[t] = slab[idx[t]]; break;
      case 2: for (std::int64_t t = 0; t < n; ++t) std::memcpy(out + 2 * t, slab + 2 * idx[t], 2); break;
      case 4: for (std::int64_t t = 0; t < n; ++t) std::memcpy(out + 4 * t, slab + 4 * idx[t], 4); break;
      case 8: for (std::int64_t t = 0; t < n; ++t) std::memcpy(out + 8 * t, slab + 8 * idx[t], 8); break;
      default:
        for (std::int64_t t = 0; t < n; ++t)
          std::memcpy(out + static_cast<std::size_t>(t) * block, slab + static_cast<std::size_t>(idx[t]) * block, block);
    }
  }
  return Y;
}

Decision decide_gather(int version, const NodeValues& v, std::int64_t axis, const std::vector<std::int64_t>& j) {
  const Tensor& X = *v.inputs[0];
  const Tensor& I = *v.inputs[1];
  const Layout l = layout(version, X, I, axis);
  // j = (a, i, b): a the first k coordinates, i the next q, b the rest
  const std::size_t k = static_cast<std::size_t>(l.k), q = static_cast<std::size_t>(I.rank());
  const std::vector<std::int64_t> i(j.begin() + k, j.begin() + k + q);
  const std::int64_t position = offset_of(i, row_major_strides(I.shape()));
  const std::int64_t raw = int_values(I)[static_cast<std::size_t>(position)];
  const std::int64_t c = normalised(version, I, position, raw, l.s);
  std::vector<std::int64_t> xi(j.begin(), j.begin() + k);
  xi.push_back(c);
  xi.insert(xi.end(), j.begin() + k + q, j.end());
  const std::int64_t offset = offset_of(xi, row_major_strides(X.shape()));  // [Gather.formula]
  std::string parameters = fmt::format("axis = {}{}; {}{} = {}", axis, axis < 0 ? fmt::format(" -> {}", l.k) : "",
                                       v.input_names[1], q ? to_string(i) : "", raw);
  std::vector<std::string> clauses = {"Gather.formula", "Gather.shape"};
  if (raw < 0) clauses.push_back("Gather.index.normalise"), parameters += fmt::format(" -> {}", c);
  return moved_decision(v, j, {0, offset}, "the element of X at the gathered index: X[a, nu(I[i]), b]", clauses, parameters);
}

std::vector<Reach> reach_gather(int version, const NodeValues& v, std::int64_t axis, const std::vector<Source>& sources) {
  layout(version, *v.inputs[0], *v.inputs[1], axis);
  return {moved_reach("Gather.formula", v.inputs[0]->dtype(), sources[0], v.input_names[0])};
}

}  // namespace sonnx::ops
