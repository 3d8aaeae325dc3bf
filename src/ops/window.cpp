// spec/ops/maxpool.md, Steps 1 to 3 (the window), shared by MaxPool and Conv: read it with the clauses
// [MaxPool.shape], [MaxPool.shape.ceil], [MaxPool.pads.auto], [MaxPool.window].
#include "ops/window.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/extent.hpp"
#include "core/tensor.hpp"

namespace sonnx::ops {

Span offsets(const Geometry& g, std::size_t d, std::int64_t o) {
  const std::int64_t start = o * g.stride[d] - g.pad_begin[d], dil = g.dilation[d];
  if (start > g.in[d] - 1) return {0, 0};  // a window starting in the end padding (Conv's pads may reach it)
  const std::int64_t first = start >= 0 ? 0 : (-start + dil - 1) / dil;
  const std::int64_t last = std::min(g.kernel[d] - 1, (g.in[d] - 1 - start) / dil);  // floor: start <= D - 1
  return {first, std::max(first, last + 1)};
}

Span padded_offsets(const Geometry& g, std::size_t d, std::int64_t o) {
  const std::int64_t start = o * g.stride[d] - g.pad_begin[d];  // >= −pb; <= D − 1 ([MaxPool.prop.shape] 3)
  const std::int64_t room = g.in[d] + g.pad_end[d] - 1 - start;   // the last padded position, from the start
  return {0, room < 0 ? 0 : std::min(g.kernel[d], room / g.dilation[d] + 1)};
}

void check_windows(const WindowClauses& c, int version, const Geometry& g) {
  const auto k = static_cast<std::size_t>(g.k);
  if (c.err_pads_kernel)
    for (std::size_t d = 0; d < k; ++d)  // [MaxPool.err.pads-kernel] a window entirely in the padding
      if (g.pad_begin[d] >= g.effective(d) || g.pad_end[d] >= g.effective(d))
        refuse(c.err_pads_kernel, "{}-{}: along spatial axis {} the pads {} and {} are not below the effective kernel {}", c.op,
               version, d, g.pad_begin[d], g.pad_end[d], g.effective(d));
  if (c.err_empty)
    for (std::size_t d = 0; d < k; ++d)  // [MaxPool.err.window] every window has a member inside X
      for (std::int64_t o = 0; o < g.out[d]; ++o)
        if (offsets(g, d, o).first == offsets(g, d, o).end)
          refuse(c.err_empty, "{}-{}: along spatial axis {} the window of output position {} has no member inside X "
                 "(every kernel position, dilation {}, falls in the padding)", c.op, version, d, o, g.dilation[d]);
}

Span outputs_for(const Geometry& g, std::size_t d, std::int64_t q) {
  const std::int64_t s = g.stride[d], shift = q * g.dilation[d] - g.pad_begin[d];  // x = o * s + shift
  const std::int64_t first = shift >= 0 ? 0 : (-shift + s - 1) / s;
  const std::int64_t top = g.in[d] - 1 - shift;  // x <= D - 1
  const std::int64_t end = top < 0 ? 0 : std::min(g.out[d], top / s + 1);
  return {std::min(first, end), end};
}

Geometry window_geometry(const WindowClauses& c, int version, const std::vector<std::int64_t>& spatial,
                         const WindowAttributes& a, const std::string& x_shape) {
  const auto k = spatial.size();
  for (std::int64_t v : a.kernel_shape)
    if (v < 1) refuse(c.err_kernel, "{}-{}: kernel_shape {} has an entry below 1", c.op, version, to_string(a.kernel_shape));
  Geometry g;
  g.k = static_cast<std::int64_t>(k);
  g.kernel = a.kernel_shape;
  // default 1 along each axis
  g.stride = a.has_strides ? a.strides : std::vector<std::int64_t>(k, 1);
  if (g.stride.size() != k || std::any_of(g.stride.begin(), g.stride.end(), [](std::int64_t s) { return s < 1; }))
    refuse(c.err_strides, "{}-{}: strides must be {} entries of at least 1, got {}", c.op, version, k, to_string(g.stride));
  g.dilation = a.has_dilations ? a.dilations : std::vector<std::int64_t>(k, 1);
  if (g.dilation.size() != k || std::any_of(g.dilation.begin(), g.dilation.end(), [](std::int64_t s) { return s < 1; }))
    refuse(c.err_dilations, "{}-{}: dilations must be {} entries of at least 1, got {}", c.op, version, k,
           to_string(g.dilation));
  const bool same = a.auto_pad == "SAME_UPPER" || a.auto_pad == "SAME_LOWER";
  if (!same && a.auto_pad != "NOTSET" && a.auto_pad != "VALID")
    refuse(c.err_auto_pad, "{}-{}: auto_pad '{}' is none of NOTSET, VALID, SAME_UPPER, SAME_LOWER", c.op, version, a.auto_pad);
  if (a.auto_pad != "NOTSET" && a.has_pads)
    refuse(c.err_auto_pad, "{}-{}: pads are given with auto_pad '{}' (explicit pads go with NOTSET only)", c.op, version,
           a.auto_pad);
  // 2k entries (begins, then ends), none negative
  if (a.has_pads && (a.pads.size() != 2 * k || std::any_of(a.pads.begin(), a.pads.end(), [](std::int64_t v) { return v < 0; })))
    refuse(c.err_pads, "{}-{}: pads must be {} entries (begins, then ends) of at least 0, got {}", c.op, version, 2 * k,
           to_string(a.pads));
  g.in = spatial;
  g.pad_begin.assign(k, 0), g.pad_end.assign(k, 0), g.out.assign(k, 0), g.ceil_extra.assign(k, false);
  for (std::size_t d = 0; d < k; ++d) {
    const std::int64_t D = g.in[d], s = g.stride[d], ek = g.effective(d);
    if (same) {
      // [MaxPool.pads.auto] SAME_*: out = ceil(D / s), the total pad makes the last window end at the
      // padded end; the odd pad goes to the end (SAME_UPPER) or the beginning (SAME_LOWER).
      g.out[d] = (D + s - 1) / s;
      const std::int64_t total = std::max<std::int64_t>(0, (g.out[d] - 1) * s + ek - D);
      g.pad_begin[d] = a.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pad_end[d] = total - g.pad_begin[d];
    } else {
      if (a.has_pads) g.pad_begin[d] = a.pads[d], g.pad_end[d] = a.pads[d + k];  // VALID: no pads
      const std::int64_t span = D + g.pad_begin[d] + g.pad_end[d] - ek;  // where the last window may start
      if (span < 0)  // the kernel is larger than the padded input
        refuse(c.err_window,
               "{}-{}: along spatial axis {} the effective kernel {} is larger than the padded input {} (size {} + pads {} and {})",
               c.op, version, d, ek, D + g.pad_begin[d] + g.pad_end[d], D, g.pad_begin[d], g.pad_end[d]);
      g.out[d] = span / s + 1;  // [MaxPool.shape] floor
      if (a.ceil_mode == 1 && span % s != 0 && a.auto_pad == "NOTSET") {
        // [MaxPool.shape.ceil] ceil: one window more, unless it would start inside the end padding
        if (g.out[d] * s < D + g.pad_begin[d]) ++g.out[d], g.ceil_extra[d] = true;
      }
    }
  }
  g.in_plane = checked_product(g.in, std::string(c.op) + " input " + x_shape);
  g.out_plane = checked_product(g.out, std::string(c.op) + " output");
  return g;
}

}  // namespace sonnx::ops
