// spec/ops/conv.md — read this file side by side with its sections.
// Named steps: check the inputs and attributes -> the window geometry (MaxPool's, ops/window.hpp) ->
// the terms of each output index -> the oracle's sum and the enclosure (core/accuracy.hpp).
//
// The definition, once: for an output index (n, m, o), the terms X[n, g(m)·C_g + c', x(o, q)]·W[m, c', q]
// for c' in [0, C_g − 1] and the kernel offsets q whose positions x(o, q) lie inside X, in the order
// c' then q row-major, then B[m] when given ([Conv.window], [Conv.window.padding], [Conv.order]); the
// oracle sums them in that order ([Acc.oracle]) and writes fl_T of the sum ([Acc.run]). `evaluate`
// applies it to every output row at once; `element` to one index, for decide and for the rare
// elements whose terms are not all finite.
#include "ops/conv.hpp"

#include <algorithm>
#include <map>

#include "core/accuracy.hpp"
#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

std::vector<DType> conv_types(int version) {
  // [Conv.v1] [Conv.v11] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 22) t.push_back(DType::BFloat16);  // [Conv.v22]
  return t;
}

namespace {

const WindowClauses kWindow{"Conv", "Conv.err.kernel", "Conv.err.strides", "Conv.err.dilations",
                            "Conv.err.pads", "Conv.err.auto-pad", "Conv.err.window"};

// The geometry of a node: the window ([Conv.shape], [Conv.window]) and the channels of its groups.
struct ConvGeometry : Geometry {
  std::int64_t N = 0, C = 0, M = 0, G = 1, Cg = 0, Mg = 0, kernel_plane = 1;
  bool bias = false;
  std::int64_t group_of(std::int64_t m) const { return m / Mg; }  // [Conv.group] g(m) = floor(m / M_g)
};

// Step 1: the inputs and the attributes ([Common.gr.defaults]); Step 2: the pads and the output shape.
ConvGeometry geometry(int version, const Tensor& X, const Tensor& W, const Tensor* B, const ConvParams& p) {
  const auto allowed = conv_types(version);
  // [Conv.err.type] one T for X, W and B
  if (W.dtype() != X.dtype() || (B && B->dtype() != X.dtype()))
    refuse("Conv.err.type", "Conv-{}: X is {}, W is {}{}; the inputs must share one type", version, name(X.dtype()),
           name(W.dtype()), B ? fmt::format(", B is {}", name(B->dtype())) : std::string());
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Conv.err.dtype]
    refuse("Conv.err.dtype", "Conv-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
  if (X.rank() < 3 || W.rank() != X.rank())  // [Conv.err.rank] X (N, C, D...), W (M, C_g, k...)
    refuse("Conv.err.rank", "Conv-{}: X has shape {} and W {}; X needs a batch, a channel and a spatial axis, W the rank of X",
           version, to_string(X.shape()), to_string(W.shape()));
  ConvGeometry g;
  g.N = X.shape()[0], g.C = X.shape()[1], g.M = W.shape()[0], g.Cg = W.shape()[1], g.G = p.group;
  // [Conv.err.group] G >= 1, C = C_g·G, G divides M
  if (g.G < 1 || g.Cg * g.G != g.C || g.M % g.G != 0)
    refuse("Conv.err.group", "Conv-{}: group {} with X {} ({} channels) and W {} ({} per group, {} filters): C must be {}·group "
           "and group must divide M", version, g.G, to_string(X.shape()), g.C, to_string(W.shape()), g.Cg, g.M, g.Cg);
  g.Mg = g.M / g.G;
  const std::vector<std::int64_t> kernel(W.shape().begin() + 2, W.shape().end());
  // [Conv.err.kernel] kernel_shape, when given, is W's spatial shape
  if (p.has_kernel_shape && p.window.kernel_shape != kernel)
    refuse("Conv.err.kernel", "Conv-{}: kernel_shape {} is not the spatial shape {} of W {}", version,
           to_string(p.window.kernel_shape), to_string(kernel), to_string(W.shape()));
  if (B && (B->rank() != 1 || B->shape()[0] != g.M))  // [Conv.err.bias] B is (M)
    refuse("Conv.err.bias", "Conv-{}: B has shape {}; it must be ({}), one bias per filter of W {}", version,
           to_string(B->shape()), g.M, to_string(W.shape()));
  g.bias = B != nullptr;
  WindowAttributes a = p.window;
  a.kernel_shape = kernel;  // [Conv.shape] the kernel is W's spatial shape
  a.ceil_mode = 0;          // Conv rounds the output size down
  // [Conv.err.kernel] [Conv.err.strides] [Conv.err.dilations] [Conv.err.pads] [Conv.err.auto-pad] [Conv.err.window]
  static_cast<Geometry&>(g) = window_geometry(kWindow, version, {X.shape().begin() + 2, X.shape().end()}, a,
                                              to_string(X.shape()));
  g.kernel_plane = checked_product(kernel, "Conv kernel");
  return g;
}

// The offsets q of the kernel inside X for output position o, axis by axis ([Conv.window]).
std::vector<Span> spans_of(const ConvGeometry& g, const std::vector<std::int64_t>& o) {
  std::vector<Span> s;
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.k); ++d) s.push_back(offsets(g, d, o[d]));
  return s;
}

// The number of products of an output position: C_g times the offsets inside X on every axis.
std::int64_t products_of(const ConvGeometry& g, const std::vector<Span>& spans) {
  std::int64_t n = g.Cg;
  for (const Span& s : spans) n *= s.end - s.first;
  return n;
}

// ---- one element: the definition ----------------------------------------------------------------

// The terms of output index (n, m, o) in the order of [Conv.order], as members and as values.
struct ElementTerms {
  std::vector<Term> terms;
  std::vector<TermFactors> values;
  std::int64_t products = 0;
  accuracy::Sums sums;
};

template <class T> double real(T x) { return real_value(x); }

ElementTerms element(const ConvGeometry& g, const Tensor& X, const Tensor& W, const Tensor* B,
                     const std::vector<std::int64_t>& i) {
  ElementTerms out;
  const std::size_t k = static_cast<std::size_t>(g.k);
  const std::int64_t n = i[0], m = i[1];
  const std::vector<std::int64_t> o(i.begin() + 2, i.end());
  const std::vector<Span> spans = spans_of(g, o);
  const Strides xs = row_major_strides(X.shape()), ws = row_major_strides(W.shape());
  accuracy::Accumulator acc(X.dtype());
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      auto x = X.values<T>();
      auto w = W.values<T>();
      for (std::int64_t c = 0; c < g.Cg; ++c) {  // [Conv.order] c' ascending, then q row-major
        std::vector<std::int64_t> q(k);
        bool empty = false;
        for (std::size_t d = 0; d < k; ++d) q[d] = spans[d].first, empty = empty || spans[d].first == spans[d].end;
        while (!empty) {
          // [Conv.window] X[n, g(m)·C_g + c', x(o, q)]·W[m, c', q]; a padded position is no term [Conv.window.padding]
          std::int64_t xo = n * xs[0] + (g.group_of(m) * g.Cg + c) * xs[1], wo = m * ws[0] + c * ws[1];
          for (std::size_t d = 0; d < k; ++d)
            xo += (o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d]) * xs[d + 2], wo += q[d] * ws[d + 2];
          const double a = real(x[static_cast<std::size_t>(xo)]), b = real(w[static_cast<std::size_t>(wo)]);
          acc.add_product(a, b);
          out.terms.push_back(Term{{Member{0, xo}, Member{1, wo}}, {}});
          out.values.push_back({a, b});
          std::size_t d = k;
          while (d-- > 0) {
            if (++q[d] < spans[d].end) break;
            q[d] = spans[d].first;
          }
          if (d == static_cast<std::size_t>(-1)) break;
        }
      }
      out.products = static_cast<std::int64_t>(out.terms.size());
      if (B) {  // [Conv.float.formula] the bias, one factor, last
        const double b = real(B->values<T>()[static_cast<std::size_t>(m)]);
        acc.add_value(b);
        out.terms.push_back(Term{{Member{2, m}}, {}});
        out.values.push_back({b});
      }
    }
  });
  out.sums = acc.result(out.products, 1, 1.0, B ? 1 : 0, 0, 0);  // [Acc.terms] products e = 1, the bias e = 0
  return out;
}

// ---- evaluation ---------------------------------------------------------------------------------

// X as doubles (exact), each row of the last spatial axis split by the stride s into its s phases
// (positions r, r + s, r + 2s, ...), so that the positions o·s + shift of one kernel offset are
// consecutive in one phase: the inner loop reads contiguous memory whatever the stride.
struct Phased {
  std::vector<double> data;
  std::vector<std::int64_t> phase_start;  // within a row
  std::int64_t row = 0, s = 1;
  const double* at(const double* row_start, std::int64_t shift, std::int64_t& first) const {
    const std::int64_t r = ((shift % s) + s) % s;  // the phase of o·s + shift
    first = (shift - r) / s;                        // o·s + shift = s·(o + first) + r
    return row_start + phase_start[static_cast<std::size_t>(r)];
  }
};

template <class T> Phased phased(const Tensor& X, std::int64_t row, std::int64_t s) {
  Phased p;
  p.row = row, p.s = s;
  for (std::int64_t r = 0, at = 0; r < s; ++r) p.phase_start.push_back(at), at += (row - r + s - 1) / s;
  auto x = X.values<T>();
  p.data.resize(x.size());
  for (std::int64_t base = 0; base < static_cast<std::int64_t>(x.size()); base += row)
    for (std::int64_t j = 0; j < row; ++j)
      p.data[static_cast<std::size_t>(base + p.phase_start[static_cast<std::size_t>(j % s)] + j / s)] =
          real_value(x[static_cast<std::size_t>(base + j)]);
  return p;
}

// [Conv.float.formula] [Conv.order] [Acc.oracle] For every output row (n, m, and the positions of the
// spatial axes before the last), the terms of the row's elements are accumulated at once: for each
// c', each kernel offset of the axes before the last inside X, and each offset q of the last axis,
// every element o of the row whose position o·s + q·dil − pb lies inside X gets the product
// W[m, c', q]·X[...] added, in the order c', then q row-major — each element's own order, so each
// element receives exactly the oracle's sum, in binary64 (the short types: exact products) or
// double-double (double). The bias last. Then each element's enclosure and fl_T(ŝ).
template <class T>
void evaluate(const Tensor& X, const Tensor& W, const Tensor* B, const ConvGeometry& g, Tensor& Y, accuracy::Annex& annex) {
  constexpr bool kDD = std::is_same_v<T, double>;
  const std::size_t k = static_cast<std::size_t>(g.k), last = k - 1;
  const std::int64_t row = g.in[last], out_row = g.out[last], rows = g.out_plane / std::max<std::int64_t>(out_row, 1);
  const Phased x = phased<T>(X, row, g.stride[last]);
  std::vector<double> w(static_cast<std::size_t>(W.size()));
  for (std::size_t j = 0; j < w.size(); ++j) w[j] = real_value(W.values<T>()[j]);
  const Strides in_strides = row_major_strides(g.in), kernel_strides = row_major_strides(g.kernel);
  T* const y = Y.values<T>().data();
  std::vector<double> sigma(static_cast<std::size_t>(out_row)), tau(static_cast<std::size_t>(out_row)),
      mag(static_cast<std::size_t>(out_row));
  std::map<std::int64_t, accuracy::Coefficients> coefficients;  // by number of products
  std::vector<std::int64_t> o(k, 0), q(k, 0);
  for (std::int64_t n = 0; n < g.N; ++n)
    for (std::int64_t m = 0; m < g.M; ++m) {
      const std::int64_t grp = g.group_of(m);
      for (std::int64_t r = 0; r < rows; ++r) {
        std::int64_t rest = r;
        for (std::size_t d = last; d-- > 0;) o[d] = rest % g.out[d], rest /= g.out[d];
        std::vector<Span> spans(last);
        std::int64_t outer = g.Cg;  // products per element from the axes before the last
        for (std::size_t d = 0; d < last; ++d) spans[d] = offsets(g, d, o[d]), outer *= spans[d].end - spans[d].first;
        std::fill(sigma.begin(), sigma.end(), -0.0);  // [Acc.oracle] from −0, the identity of IEEE addition
        std::fill(tau.begin(), tau.end(), 0.0);
        std::fill(mag.begin(), mag.end(), 0.0);
        for (std::int64_t c = 0; c < g.Cg && outer > 0; ++c) {
          const double* xc = x.data.data() + ((n * g.C + grp * g.Cg + c) * g.in_plane);
          const double* wc = w.data() + ((m * g.Cg + c) * g.kernel_plane);
          for (std::size_t d = 0; d < last; ++d) q[d] = spans[d].first;
          while (true) {
            std::int64_t xbase = 0, wbase = 0;  // the input row and kernel row of these offsets
            for (std::size_t d = 0; d < last; ++d)
              xbase += (o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d]) * in_strides[d],
                  wbase += q[d] * kernel_strides[d];
            for (std::int64_t ql = 0; ql < g.kernel[last]; ++ql) {
              const Span os = outputs_for(g, last, ql);
              std::int64_t first = 0;
              const double* xr = x.at(xc + xbase, ql * g.dilation[last] - g.pad_begin[last], first) + first;
              const double wv = wc[wbase + ql];
              double* const sg = sigma.data();
              double* const mg = mag.data();
              if constexpr (!kDD) {
                for (std::int64_t t = os.first; t < os.end; ++t) {
                  const double p = wv * xr[t];  // exact: two factors of a short type
                  sg[t] = sg[t] + p;
                  mg[t] = mg[t] + std::fabs(p);
                }
              } else {
                double* const ta = tau.data();
                for (std::int64_t t = os.first; t < os.end; ++t) {  // TwoProduct and TwoSum (accuracy::Accumulator)
                  const double p = wv * xr[t], qq = std::fma(wv, xr[t], -p);
                  const double s = sg[t] + p, bb = s - sg[t], err = (sg[t] - (s - bb)) + (p - bb);
                  sg[t] = s;
                  ta[t] = ta[t] + (qq + err);
                  mg[t] = mg[t] + std::fabs(p);
                }
              }
            }
            std::size_t d = last;  // the next offsets of the axes before the last, row-major
            while (d-- > 0) {
              if (++q[d] < spans[d].end) break;
              q[d] = spans[d].first;
            }
            if (d == static_cast<std::size_t>(-1)) break;
          }
        }
        const double b = B ? real_value(B->values<T>()[static_cast<std::size_t>(m)]) : 0.0;
        const std::int64_t y0 = ((n * g.M + m) * rows + r) * out_row;
        for (std::int64_t t = 0; t < out_row; ++t) {
          if (B) {  // [Conv.float.formula] the bias, last (accuracy::Accumulator::add_value)
            if constexpr (!kDD) {
              sigma[t] = sigma[t] + b;
            } else {
              const double s = sigma[t] + b, bb = s - sigma[t], err = (sigma[t] - (s - bb)) + (b - bb);
              sigma[t] = s, tau[t] = tau[t] + (0.0 + err);
            }
            mag[t] = mag[t] + std::fabs(b);
          }
          const Span sl = offsets(g, last, t);
          const std::int64_t products = outer * (sl.end - sl.first);
          accuracy::Element e;
          if (std::isfinite(sigma[t] + tau[t]) && std::isfinite(mag[t])) {
            auto it = coefficients.find(products);
            if (it == coefficients.end()) {
              accuracy::Sums counts;
              accuracy::count_terms(Y.dtype(), counts, products, 1, 1.0, B ? 1 : 0, 0, 0);
              it = coefficients.emplace(products, accuracy::coefficients(Y.dtype(), counts)).first;
            }
            accuracy::Sums s;
            s.n = products + (B ? 1 : 0);
            s.sigma = sigma[t], s.tau = tau[t], s.mag = mag[t];
            e = accuracy::finish(it->second, s);
          } else {  // [Acc.nonfinite] a NaN or infinite term: the one-element definition sorts the terms
            std::vector<std::int64_t> index = {n, m};
            index.insert(index.end(), o.begin(), o.begin() + static_cast<std::ptrdiff_t>(last));
            index.push_back(t);
            e = accuracy::enclose(Y.dtype(), element(g, X, W, B, index).sums);
          }
          const auto at = static_cast<std::size_t>(y0 + t);
          const std::uint64_t bits = accuracy::run_bits(Y.dtype(), e);  // [Acc.run]
          std::memcpy(y + at, &bits, sizeof(T));
          annex.hi[at] = e.hi, annex.radius[at] = e.radius, annex.bound[at] = e.bound, annex.oracle[at] = e.oracle;
          annex.allowed[at] = e.allowed;
          if constexpr (kDD) annex.lo[at] = e.lo;
        }
      }
    }
}

std::string parameters_text(const ConvGeometry& g, const ConvParams& p) {
  return fmt::format("group = {}, kernel = {}, strides = {}, pads = {} (begins) {} (ends), dilations = {}{}", g.G,
                     to_string(g.kernel), to_string(g.stride), to_string(g.pad_begin), to_string(g.pad_end),
                     to_string(g.dilation), p.window.auto_pad != "NOTSET" ? ", auto_pad = " + p.window.auto_pad : std::string());
}

}  // namespace

Tensor conv(int version, const Tensor& X, const Tensor& W, const Tensor* B, const ConvParams& p) {
  const ConvGeometry g = geometry(version, X, W, B, p);
  Shape y_shape = {g.N, g.M};  // [Conv.shape] (N, M, O_1, ..., O_k)
  y_shape.insert(y_shape.end(), g.out.begin(), g.out.end());
  Tensor Y(X.dtype(), y_shape, "Conv output Y", Fill::Unspecified);  // every element is written
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = "Conv.float.formula";
  const auto size = static_cast<std::size_t>(Y.size());
  annex->hi.resize(size), annex->radius.resize(size), annex->bound.resize(size), annex->oracle.resize(size);
  annex->allowed.resize(size);
  if (X.dtype() == DType::Double) annex->lo.resize(size);
  if (size > 0)
    dispatch(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) at_active_level([&] { evaluate<T>(X, W, B, g, Y, *annex); });
    });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_conv(int version, const NodeValues& v, const ConvParams& p, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& W = *v.inputs[1];
  const Tensor* B = v.inputs.size() > 2 ? v.inputs[2] : nullptr;
  const ConvGeometry g = geometry(version, X, W, B, p);
  ElementTerms et = element(g, X, W, B, i);
  Computation c;
  c.formula = fmt::format("Σ over c' < {} and the kernel offsets inside {} of {}[{}, {}·{} + c', x(o, q)]·{}[{}, c', q]{}", g.Cg,
                          v.input_names[0], v.input_names[0], i[0], g.group_of(i[1]), g.Cg, v.input_names[1], i[1],
                          B ? fmt::format(" + {}[{}]", v.input_names[2], i[1]) : std::string());
  c.terms = static_cast<std::int64_t>(et.terms.size());
  const auto terms = et.terms;
  c.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  c.sums = et.sums;
  c.element = accuracy::enclose(X.dtype(), et.sums);
  std::vector<std::string> more = {"Conv.window", "Conv.order"};
  const bool padded = et.products < g.Cg * g.kernel_plane;
  if (padded) more.push_back("Conv.window.padding");
  if (g.G > 1) more.push_back("Conv.group");
  Decision d = computed_decision(v, i, std::move(c), parameters_text(g, p), "Conv.float.formula", more, et.values);
  // [Check.coverage] Conv's own situations
  if (padded) d.situations.push_back({"Conv.window.padding", "a window partly in the padding"});
  if (et.products == 0) d.situations.push_back({"Conv.window.padding", "a window wholly in the padding"});
  if (g.G > 1) d.situations.push_back({"Conv.group", g.Cg == 1 ? "depthwise" : "grouped"});
  if (std::any_of(g.dilation.begin(), g.dilation.end(), [](std::int64_t x) { return x > 1; }))
    d.situations.push_back({"Conv.window", "dilations above 1"});
  if (std::any_of(g.stride.begin(), g.stride.end(), [](std::int64_t x) { return x > 1; }))
    d.situations.push_back({"Conv.window", "strides above 1"});
  return d;
}

std::vector<Reach> reach_conv(int version, const NodeValues& v, const ConvParams& p, const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const Tensor& W = *v.inputs[1];
  const Tensor* B = v.inputs.size() > 2 ? v.inputs[2] : nullptr;
  const ConvGeometry g = geometry(version, X, W, B, p);
  std::vector<std::string> names = {v.input_names[0], v.input_names[1], B ? v.input_names[2] : std::string()};
  std::vector<Reach> out = accuracy_reaches(X.dtype(), g.Cg * g.kernel_plane, B ? 1 : 0, sources[0], sources[1],
                                            B ? sources[2] : Source::Fixed, names);
  const bool pads = std::any_of(g.pad_begin.begin(), g.pad_begin.end(), [](std::int64_t x) { return x > 0; }) ||
                    std::any_of(g.pad_end.begin(), g.pad_end.end(), [](std::int64_t x) { return x > 0; });
  out.push_back(reach_by_shape({"Conv.window.padding", "a window partly in the padding"}, pads, "the node has no pads"));
  bool whole = false;  // a window wholly in the padding: an axis with an output position of no offset inside X
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.k); ++d)
    for (std::int64_t o = 0; o < g.out[d] && !whole; ++o) whole = offsets(g, d, o).first == offsets(g, d, o).end;
  out.push_back(reach_by_shape({"Conv.window.padding", "a window wholly in the padding"}, whole && g.Cg > 0,
                               "every window holds a position of X"));
  out.push_back(reach_by_shape({"Conv.group", g.Cg == 1 ? "depthwise" : "grouped"}, g.G > 1, "group is 1"));
  out.push_back(reach_by_shape({"Conv.window", "dilations above 1"},
                               std::any_of(g.dilation.begin(), g.dilation.end(), [](std::int64_t x) { return x > 1; }),
                               "every dilation is 1"));
  out.push_back(reach_by_shape({"Conv.window", "strides above 1"},
                               std::any_of(g.stride.begin(), g.stride.end(), [](std::int64_t x) { return x > 1; }),
                               "every stride is 1"));
  return out;
}

}  // namespace sonnx::ops
