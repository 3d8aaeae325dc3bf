// spec/ops/maxpool.md — read this file side by side with its sections.
// Named steps: check the type and the attributes -> the geometry (pads, output shape) -> the windows.
//
// The definition, once: for an output index (n, c, o_1..o_k), the window W — the input positions
// (n, c, x_1..x_k) with x_d = o_d * s_d - pb_d + q_d * dil_d for the kernel offsets q_d in
// [0, k_d - 1] that fall inside X ([MaxPool.window]); a position in the padding is no member of W
// and never a value ([MaxPool.window.padding]) — in row-major order of the offsets, and the left
// fold of max_of over W ([MaxPool.float.formula], [MaxPool.int.formula]): the first NaN bit for bit,
// +0 above -0, the first element on ties. Indices is the flattened index in X of the member the fold
// kept ([MaxPool.indices]). `evaluate` applies it to every window run by run; `decide` to one.
#include "ops/maxpool.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/window.hpp"

namespace sonnx::ops {

std::vector<DType> maxpool_types(int version) {
  // [MaxPool.v1] [MaxPool.v8] [MaxPool.v10] [MaxPool.v11] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 12) t.insert(t.end(), {DType::Int8, DType::Uint8});  // [MaxPool.v12]
  if (version >= 22) t.push_back(DType::BFloat16);                     // [MaxPool.v22]
  return t;
}

namespace {

// The geometry of a node on its input: the window of ops/window.hpp ([MaxPool.shape],
// [MaxPool.shape.ceil], [MaxPool.pads.auto], [MaxPool.window]) and the number of planes N * C.
struct PoolGeometry : Geometry {
  std::int64_t planes = 0;
};

const WindowClauses kWindow{"MaxPool", "MaxPool.err.kernel", "MaxPool.err.strides", "MaxPool.err.dilations",
                            "MaxPool.err.pads", "MaxPool.err.auto-pad", "MaxPool.err.window",
                            "MaxPool.err.pads-kernel", "MaxPool.err.window"};

std::string list_text(const std::vector<std::int64_t>& v) { return to_string(v); }

// Step 1: the type and the attributes, with ONNX's defaults ([Common.gr.defaults]); Step 2: the pads
// and the output shape (ops/window.hpp); then MaxPool's own checks: no pad as long as the effective
// kernel, and every window holds a member.
PoolGeometry geometry(int version, const Tensor& X, const PoolParams& p) {
  const auto allowed = maxpool_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [MaxPool.err.dtype]
    refuse("MaxPool.err.dtype", "MaxPool-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
  const std::int64_t r = X.rank();
  if (r < 3)  // [MaxPool.err.rank] X is [N, C, D1, ..., Dk], k >= 1
    refuse("MaxPool.err.rank", "MaxPool-{}: X has shape {}; it needs a batch, a channel and at least one spatial axis", version,
           to_string(X.shape()));
  const auto k = static_cast<std::size_t>(r - 2);
  if (!p.has_kernel_shape || p.kernel_shape.size() != k)  // [MaxPool.err.kernel] required, one per spatial axis
    refuse("MaxPool.err.kernel", "MaxPool-{}: kernel_shape must have {} entries (one per spatial axis of X {}), got {}", version,
           k, to_string(X.shape()), p.has_kernel_shape ? list_text(p.kernel_shape) : std::string("none"));
  if (p.ceil_mode != 0 && p.ceil_mode != 1)  // [MaxPool.err.flag]
    refuse("MaxPool.err.flag", "attribute ceil_mode must be 0 or 1, got {}", p.ceil_mode);
  if (p.storage_order != 0 && p.storage_order != 1)
    refuse("MaxPool.err.flag", "attribute storage_order must be 0 or 1, got {}", p.storage_order);
  // [MaxPool.err.strides] [MaxPool.err.dilations] [MaxPool.v10] [MaxPool.err.auto-pad] [MaxPool.err.pads]
  // [MaxPool.err.window] the effective kernel longer than the padded axis
  const WindowAttributes a{p.kernel_shape, p.strides, p.pads, p.dilations, p.auto_pad, p.ceil_mode,
                           p.has_strides, p.has_pads, p.has_dilations};
  PoolGeometry g;
  static_cast<Geometry&>(g) = window_geometry(kWindow, version, {X.shape().begin() + 2, X.shape().end()}, a,
                                              to_string(X.shape()));
  g.planes = checked_mul(X.shape()[0], X.shape()[1], "MaxPool input");
  // [MaxPool.err.pads-kernel] a window entirely in the padding; [MaxPool.err.window] every window has a member inside X
  check_windows(kWindow, version, g);
  return g;
}

// Row-major strides of the spatial input, and the index strides of Indices ([MaxPool.indices],
// [MaxPool.indices.storage-order]): row-major, or column-major over the spatial axes.
std::vector<std::int64_t> index_strides(const Geometry& g, std::int64_t storage_order) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(g.k), 1);
  if (storage_order == 0)
    for (std::size_t d = s.size() - 1; d-- > 0;) s[d] = s[d + 1] * g.in[d + 1];
  else
    for (std::size_t d = 1; d < s.size(); ++d) s[d] = s[d - 1] * g.in[d - 1];
  return s;
}

// [MaxPool.float.formula] [MaxPool.int.formula] For every plane (n, c) and every output position
// o: Y = the left fold of max_of over W(o) in row-major order of the offsets. Run-wise: the output is
// walked row by row (all spatial axes but the last fixed); for each kernel offset of the other axes
// that falls inside X, and each offset q of the last axis, the row is updated at once over the
// outputs whose member lies inside X: y[o] = max_of(y[o], x[o * s + q * dil - pb]). Each output
// element meets its members in row-major order of the offsets, so it receives the left fold; Y starts
// as the identity of max_of (every window has a member: geometry's checks), which max_of(identity, x)
// replaces by x, bit for bit. With Indices, the fold also keeps the index of the member it took: the
// first member (h < 0), then a member that is the first NaN or greater than what is held.
template <class T, bool kIndices>
void evaluate(const Tensor& X, const PoolGeometry& g, std::int64_t storage_order, Tensor& Y, Tensor* I) {
  const std::size_t k = static_cast<std::size_t>(g.k), last = k - 1;
  const T* const x0 = X.values<T>().data();
  T* const y0 = Y.values<T>().data();
  std::int64_t* const i0 = kIndices ? I->values<std::int64_t>().data() : nullptr;
  const Strides in_strides = row_major_strides(g.in);
  const std::vector<std::int64_t> index_stride = index_strides(g, storage_order);
  const std::int64_t rows = g.out_plane / g.out[last], s = g.stride[last];
  std::fill(y0, y0 + g.planes * g.out_plane, identity<Extreme::Max, T>());
  if constexpr (kIndices) std::fill(i0, i0 + g.planes * g.out_plane, std::int64_t{-1});
  std::vector<std::int64_t> o(k, 0), q(k, 0);
  for (std::int64_t plane = 0; plane < g.planes; ++plane) {
    const T* const x = x0 + plane * g.in_plane;
    for (std::int64_t row = 0; row < rows; ++row) {
      std::int64_t rest = row;  // the output row's coordinates on the axes before the last
      for (std::size_t d = last; d-- > 0;) o[d] = rest % g.out[d], rest /= g.out[d];
      T* const y = y0 + plane * g.out_plane + row * g.out[last];
      std::int64_t* const h = kIndices ? i0 + plane * g.out_plane + row * g.out[last] : nullptr;
      // The offsets of the axes before the last, in row-major order, each inside X.
      std::vector<Span> spans(last);
      bool empty = false;
      for (std::size_t d = 0; d < last; ++d) spans[d] = offsets(g, d, o[d]), empty = empty || spans[d].first == spans[d].end;
      if (empty) continue;  // no window here has a member: cannot happen after geometry's checks
      for (std::size_t d = 0; d < last; ++d) q[d] = spans[d].first;
      while (true) {
        std::int64_t base = 0, index_base = plane * g.in_plane;  // the input row of these offsets
        for (std::size_t d = 0; d < last; ++d) {
          const std::int64_t xd = o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d];
          base += xd * in_strides[d], index_base += xd * index_stride[d];
        }
        const T* const xr = x + base;
        for (std::int64_t ql = 0; ql < g.kernel[last]; ++ql) {
          const Span os = outputs_for(g, last, ql);
          const std::int64_t shift = ql * g.dilation[last] - g.pad_begin[last];  // member of o: xr[o * s + shift]
          if constexpr (!kIndices) {
            if (s == 1)
              for (std::int64_t t = os.first; t < os.end; ++t) y[t] = max_of(y[t], xr[t + shift]);  // first NaN, +0 over -0
            else
              for (std::int64_t t = os.first; t < os.end; ++t) y[t] = max_of(y[t], xr[t * s + shift]);
          } else {
            const std::int64_t step = index_stride[last];
            for (std::int64_t t = os.first; t < os.end; ++t) {
              const T v = xr[t * s + shift];
              // [Common.order.max] [MaxPool.float.nan] the first NaN; [MaxPool.float.zero] +0 above -0
              const bool take = (h[t] < 0) | ((!is_nan(y[t])) & (is_nan(v) | greater(v, y[t])));
              y[t] = choose(take, v, y[t]);
              h[t] = take ? index_base + (t * s + shift) * step : h[t];
            }
          }
        }
        std::size_t d = last;  // the next offsets, row-major
        while (d-- > 0) {
          if (++q[d] < spans[d].end) break;
          q[d] = spans[d].first;
        }
        if (d == static_cast<std::size_t>(-1)) break;
      }
    }
  }
}

// Every type, with or without Indices, for the level chosen at run time (core/isa.hpp).
void evaluate_level(const Tensor& X, const PoolGeometry& g, std::int64_t storage_order, Tensor& Y, Tensor* I) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) {  // bool is refused by geometry
      if (I) at_active_level([&] { evaluate<T, true>(X, g, storage_order, Y, I); });
      else at_active_level([&] { evaluate<T, false>(X, g, storage_order, Y, nullptr); });
    }
  });
}

}  // namespace

std::vector<Tensor> maxpool(int version, const Tensor& X, const PoolParams& p, bool indices) {
  const PoolGeometry g = geometry(version, X, p);
  Shape y_shape = {X.shape()[0], X.shape()[1]};
  y_shape.insert(y_shape.end(), g.out.begin(), g.out.end());
  std::vector<Tensor> out;
  out.emplace_back(X.dtype(), y_shape, "MaxPool output Y", Fill::Unspecified);  // every element is written
  if (indices) out.emplace_back(DType::Int64, y_shape, "MaxPool output Indices", Fill::Unspecified);
  if (out[0].size() == 0) return out;
  evaluate_level(X, g, p.storage_order, out[0], indices ? &out[1] : nullptr);
  return out;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

const FoldClauses kFloatFold{"MaxPool.float.formula", "MaxPool.float.nan", "MaxPool.float.zero", Extreme::Max};
const FoldClauses kIntFold{"MaxPool.int.formula", "", "", Extreme::Max};
const Situation kPadding{"MaxPool.window.padding", "a window partly in the padding"};
// A padded window whose members are all negative: a padded position taken for a 0 (or -Inf taken
// for a member) would show here.
const Situation kPaddingNegative{"MaxPool.window.padding", "a window partly in the padding, every member negative"};
const Situation kCeil{"MaxPool.shape.ceil", "the extra window of ceil_mode"};
const Situation kTies{"MaxPool.indices", "equal maxima: the first member's index"};
const Situation kColumnMajor{"MaxPool.indices.storage-order", "column-major indices"};

// The window of output position `o` (spatial coordinates) in plane `plane`: its members' offsets in
// X, in row-major order of the kernel offsets, and the Indices value of each.
struct Window {
  std::vector<std::int64_t> offsets, indices;
  bool padded = false, ceil = false;
};
Window window(const PoolGeometry& g, std::int64_t plane, const std::vector<std::int64_t>& o, std::int64_t storage_order) {
  const std::size_t k = static_cast<std::size_t>(g.k);
  const Strides in_strides = row_major_strides(g.in);
  const auto index_stride = index_strides(g, storage_order);
  Window w;
  std::vector<std::int64_t> q(k, 0);
  std::int64_t total = 1;
  for (std::size_t d = 0; d < k; ++d) {
    total *= g.kernel[d];
    w.ceil = w.ceil || (g.ceil_extra[d] && o[d] == g.out[d] - 1);
  }
  for (std::int64_t t = 0; t < total; ++t) {
    std::int64_t rest = t, off = plane * g.in_plane, idx = plane * g.in_plane;
    bool inside = true;
    for (std::size_t d = k; d-- > 0;) q[d] = rest % g.kernel[d], rest /= g.kernel[d];
    for (std::size_t d = 0; d < k; ++d) {
      const std::int64_t xd = o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d];
      inside = inside && xd >= 0 && xd < g.in[d];
      off += xd * in_strides[d], idx += xd * index_stride[d];
    }
    if (!inside) {  // a position in the padding (or, under ceil_mode, past it): no member
      w.padded = true;
      continue;
    }
    w.offsets.push_back(off);
    w.indices.push_back(idx);
  }
  return w;
}

}  // namespace

std::vector<Reach> reach_maxpool(int version, const NodeValues& v, const PoolParams& p, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const PoolGeometry g = geometry(version, X, p);
  std::int64_t n = 1;  // the largest window: the whole kernel
  for (std::int64_t kd : g.kernel) n *= kd;
  const bool is_float = info(X.dtype()).is_float;
  std::vector<Reach> out;
  for (const Witnessed& w : fold_situations(is_float ? kFloatFold : kIntFold, is_float))
    out.push_back(reach_by_pattern(w.situation, w.pattern, n, X.dtype(), {sources[0]}, {v.input_names[0]}));
  // A window holds positions outside X when the node pads, or when ceil_mode's extra window reaches
  // past the end of the input.
  const bool padded = std::any_of(g.pad_begin.begin(), g.pad_begin.end(), [](std::int64_t x) { return x > 0; }) ||
                      std::any_of(g.pad_end.begin(), g.pad_end.end(), [](std::int64_t x) { return x > 0; }) ||
                      std::any_of(g.ceil_extra.begin(), g.ceil_extra.end(), [](bool b) { return b; });
  out.push_back(reach_by_shape(kPadding, padded, "the node has no pads"));
  // The witness: the duals of one maximum and its followers (5, 1, 1, ... becomes -5, -1, -1, ...).
  const bool negatives = is_float || info(X.dtype()).is_signed_int;
  if (padded && negatives)
    out.push_back(reach_by_pattern(kPaddingNegative, Pattern::Plain, n, X.dtype(), {sources[0]}, {v.input_names[0]},
                                   Extreme::Min));
  else
    out.push_back(reach_by_shape(kPaddingNegative, false, padded ? "the type has no negative value" : "the node has no pads"));
  out.push_back(reach_by_shape(kCeil, std::any_of(g.ceil_extra.begin(), g.ceil_extra.end(), [](bool b) { return b; }),
                               "ceil_mode adds no window here (ceil_mode 0, or the windows fit the padded input exactly)"));
  if (v.outputs > 1) {
    out.push_back(reach_by_pattern(kTies, Pattern::EqualMaxima, n, X.dtype(), {sources[0]}, {v.input_names[0]}));
    out.push_back(reach_by_shape(kColumnMajor, p.storage_order == 1, "storage_order is 0"));
  }
  return out;
}

Decision decide_maxpool(int version, const NodeValues& v, const PoolParams& p, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& out = *v.output;
  const PoolGeometry g = geometry(version, X, p);
  const std::int64_t plane = i[0] * X.shape()[1] + i[1];
  const std::vector<std::int64_t> o(i.begin() + 2, i.end());
  const Window w = window(g, plane, o, p.storage_order);
  Decision d;
  d.parameters = fmt::format("kernel_shape = {}, strides = {}, pads = {} (begins) {} (ends), dilations = {}{}{}",
                             to_string(g.kernel), to_string(g.stride), to_string(g.pad_begin), to_string(g.pad_end),
                             to_string(g.dilation), p.auto_pad != "NOTSET" ? ", auto_pad = " + p.auto_pad : std::string(),
                             p.ceil_mode ? ", ceil_mode = 1" : "");
  if (v.output_index == 1) d.parameters += fmt::format(", storage_order = {}", p.storage_order);
  d.set.size = static_cast<std::int64_t>(w.offsets.size());
  const auto offsets = w.offsets;
  d.set.member = [offsets](std::int64_t k) { return Member{0, offsets[static_cast<std::size_t>(k)]}; };
  d.set.name = fmt::format("the window of {}: the members of the kernel inside {}, in row-major order of the kernel offsets{}",
                           output_name(v, i), v.input_names[0], w.padded ? " (the others are padding, no value)" : "");
  const bool is_float = info(X.dtype()).is_float;
  const Selection sel = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    return fold_selection<T>(d.set.size, [&](std::int64_t k) { return x[offsets[static_cast<std::size_t>(k)]]; });
  });
  d.chosen = sel.position;
  const Member c = d.set.member(sel.position);
  const std::string at = member_name(v, c), value = member_value(v, c), set = set_values(v, d.set, d.chosen);
  const std::string y = output_name(v, i);
  std::string why;
  if (sel.nan) {
    d.clauses = {"MaxPool.float.nan", "Common.order.nan-payload"};
    why = fmt::format("{} is the first NaN of the window {}", at, set);
  } else if (sel.zero_tie) {
    d.clauses = {"MaxPool.float.zero"};
    why = fmt::format("the window {} holds -0 and +0 and nothing greater; +0 first at {}", set, at);
  } else {
    d.clauses = {is_float ? "MaxPool.float.formula" : "MaxPool.int.formula"};
    why = fmt::format("{} = {} is the greatest element of the window {}, first met{}", at, value, set,
                      sel.equal > 0 ? fmt::format(" ({} other member(s) are equal to it)", sel.equal) : "");
  }
  d.clauses.push_back("MaxPool.window");
  if (w.padded) d.clauses.push_back("MaxPool.window.padding");
  if (w.ceil) d.clauses.push_back("MaxPool.shape.ceil");
  d.situations = fold_decided_by(is_float ? kFloatFold : kIntFold, is_float, sel);
  if (w.padded) d.situations.push_back(kPadding);
  const bool all_negative = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_bool_v<T>) {
      return false;
    } else {
      auto x = X.values<T>();
      return std::all_of(offsets.begin(), offsets.end(), [&](std::int64_t k) {
        return !is_nan(x[k]) && greater(zero<T>(), x[k]) && bits_of(x[k]) != bits_of(negative_zero<T>());
      });
    }
  });
  if (w.padded && all_negative) d.situations.push_back(kPaddingNegative);
  if (w.ceil) d.situations.push_back(kCeil);
  // The node's Indices (when it has them) are decided by the same selection: its situations are
  // the node's, whichever output is asked about.
  if (v.outputs > 1 && sel.equal > 0) d.situations.push_back(kTies);
  if (v.outputs > 1 && p.storage_order == 1) d.situations.push_back(kColumnMajor);
  const std::int64_t y_offset = offset_of(i, row_major_strides(out.shape()));
  if (v.output_index == 0) {
    d.copies_chosen = true;
    d.selection = true;
    d.reason = fmt::format("{} = {} because {}", y, value, why);
    if (!same_bits(X, c.offset, out, y_offset)) disagree(v, i);
  } else {  // Indices
    const std::int64_t index = w.indices[static_cast<std::size_t>(sel.position)];
    d.clauses.insert(d.clauses.begin(), "MaxPool.indices");
    if (p.storage_order == 1) d.clauses.insert(d.clauses.begin() + 1, "MaxPool.indices.storage-order");
    d.reason = fmt::format("{} = {} because {}; its flattened index in {} ({}) is {}", y, index, why, v.input_names[0],
                           p.storage_order == 1 ? "spatial axes column-major" : "row-major", index);
    d.stop = "an index depends on the whole window (every member was compared): the chain stops here";
    if (out.values<std::int64_t>()[y_offset] != index) disagree(v, i);
  }
  return d;
}

}  // namespace sonnx::ops
