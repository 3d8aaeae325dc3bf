// The sliding window of spec/ops/maxpool.md, Steps 2 and 3 — the pads ([MaxPool.pads.auto]), the
// output shape ([MaxPool.shape], [MaxPool.shape.ceil]) and the kernel offsets of an output position
// that fall inside the input ([MaxPool.window], [MaxPool.window.padding]) — stated once, for MaxPool
// and for Conv, whose document cites these clauses ([Conv.shape], [Conv.window]). Each operator
// passes its own error clauses, which the refusals cite.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sonnx::ops {

// The attributes of a window, as given (empty or absent: not given).
struct WindowAttributes {
  std::vector<std::int64_t> kernel_shape, strides, pads, dilations;
  std::string auto_pad = "NOTSET";
  std::int64_t ceil_mode = 0;  // MaxPool-10 and later; 0 for Conv
  bool has_strides = false, has_pads = false, has_dilations = false;
};

// The error clauses of an operator's window checks (one per row of its Error conditions table).
struct WindowClauses {
  const char* op;            // "MaxPool", "Conv"
  const char* err_kernel;    // a kernel entry below 1 (the kernel's length is the operator's check)
  const char* err_strides;   // strides: length k, entries >= 1
  const char* err_dilations; // dilations: length k, entries >= 1
  const char* err_pads;      // pads: length 2k, entries >= 0
  const char* err_auto_pad;  // auto_pad: one of four strings; no pads with an auto_pad
  const char* err_window;    // the effective kernel longer than the padded axis
  // check_windows: a pad not below the effective kernel (MaxPool, AveragePool; null for Conv: not
  // checked), and a window with no member inside X (MaxPool, AveragePool with count_include_pad 0;
  // null: such a window is allowed)
  const char* err_pads_kernel = nullptr;
  const char* err_empty = nullptr;
};

// The geometry of a window over spatial sizes D_1..D_k: per axis the input size, kernel, stride,
// dilation, begin and end pads, output size, and whether ceil_mode added a last window.
struct Geometry {
  std::int64_t k = 0;
  std::vector<std::int64_t> in, kernel, stride, dilation, pad_begin, pad_end, out;
  std::vector<bool> ceil_extra;
  std::int64_t in_plane = 1, out_plane = 1;
  std::int64_t effective(std::size_t d) const { return (kernel[d] - 1) * dilation[d] + 1; }
};

// Steps 1 and 2 of spec/ops/maxpool.md for `spatial` sizes and a kernel of spatial.size() entries:
// the attribute checks (err_kernel, err_strides, err_dilations, err_pads, err_auto_pad), the pads and
// the output sizes ([MaxPool.shape], [MaxPool.shape.ceil] when ceil_mode = 1, [MaxPool.pads.auto]),
// and the refusal of an effective kernel longer than its padded axis (err_window). `x_shape` is for
// the messages.
Geometry window_geometry(const WindowClauses& c, int version, const std::vector<std::int64_t>& spatial,
                         const WindowAttributes& a, const std::string& x_shape);

// [MaxPool.err.pads-kernel] each pad below the effective kernel of its axis (err_pads_kernel, when
// given); [MaxPool.err.window] every window holds a position of X (err_empty, when given): the checks
// on the windows themselves, after window_geometry.
void check_windows(const WindowClauses& c, int version, const Geometry& g);

// [MaxPool.window] The kernel offsets q in [0, k_d − 1] of output position o along axis d whose input
// position o·s − pb + q·dil lies in [0, D): the first and one past the last (first == end: none).
struct Span {
  std::int64_t first, end;
};
Span offsets(const Geometry& g, std::size_t d, std::int64_t o);
// The kernel offsets q of output position o along axis d whose position o·s − pb + q·dil lies inside
// the padded axis [−pb, D + pe) (AveragePool's divisor with count_include_pad = 1): from 0 (a window
// starts at −pb or later) to the last before D + pe — a ceil_mode window may reach past it.
Span padded_offsets(const Geometry& g, std::size_t d, std::int64_t o);
// The output positions o along d whose offset q falls inside the input: o·s − pb + q·dil in [0, D).
Span outputs_for(const Geometry& g, std::size_t d, std::int64_t q);

}  // namespace sonnx::ops
