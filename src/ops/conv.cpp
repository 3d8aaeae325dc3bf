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

// ---- one element: the definition ----------------------------------------------------------------

// The terms of output index (n, m, o) in the order of [Conv.order], as members and as values.
struct ElementTerms {
  std::vector<Term> terms;
  std::vector<TermFactors> values;
  std::int64_t products = 0;
  accuracy::Sums sums;
};

template <class T> double real(T x) { return real_value(x); }

// [Acc.run] The binary64 value x rounded once to T (round to nearest, ties to even).
template <class T> T to_type(double x) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else if constexpr (std::is_same_v<T, float16>) return float16{accuracy::to_float16_bits(x)};
  else return bfloat16{accuracy::to_bfloat16_bits(x)};
}

ElementTerms element(const ConvGeometry& g, const Tensor& X, const Tensor& W, const Tensor* B,
                     const std::vector<std::int64_t>& i) {
  ElementTerms out;
  std::int64_t products = 0;
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
          ++products;
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
      out.products = products;
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
  // Where position o·s + shift of a row is, from the row's start in data: phase_start[r] + o + first.
  std::int64_t at(std::int64_t shift, std::int64_t& first) const {
    const std::int64_t r = ((shift % s) + s) % s;  // the phase of o·s + shift
    first = (shift - r) / s;                        // o·s + shift = s·(o + first) + r
    return phase_start[static_cast<std::size_t>(r)];
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
//
// Two ways, the same operations per element in the same order: the elements of the row whose every
// last-axis offset falls inside X (the interior of the row) are summed kRun at a time for up to four
// output channels of one group, the sums kept in registers (the x loads shared by the channels; the
// last run may overlap the one before it, which only computes the same sums again); the others (the
// borders) one channel at a time over the row.
constexpr std::int64_t kRun = 8, kChannels = 4;

template <bool kFma> inline double madd(double a, double b, double c) {
  if constexpr (kFma) return __builtin_fma(a, b, c);  // a·b exact: the same rounding as a·b + c
  else return a * b + c;
}

// The offsets of the axes before the last inside X for one output row, as the row of X and the row of
// the kernel they read (row-major order of the offsets).
struct RowOffsets {
  std::vector<std::int64_t> x, w;
};

template <std::int64_t MB, bool kFma>
void interior_run(const ConvGeometry& g, const double* xc0, const double* w0, const double* a0, std::int64_t w_channel,
                  const RowOffsets& rows, const std::int64_t* xoff, std::int64_t t0, double* sigma, double* mag, std::int64_t row_len) {
  const std::int64_t kl = g.kernel.back();
  double s[MB][kRun], m[MB][kRun];
  for (std::int64_t b = 0; b < MB; ++b)
    for (std::int64_t t = 0; t < kRun; ++t) s[b][t] = -0.0, m[b][t] = 0.0;
  for (std::int64_t c = 0; c < g.Cg; ++c) {
    const double* xc = xc0 + c * g.in_plane + t0;
    for (std::size_t r = 0; r < rows.x.size(); ++r) {
      const double* xr = xc + rows.x[r];
      const double* wr = w0 + c * g.kernel_plane + rows.w[r];  // W[m, c', q] and |W[m, c', q]|
      const double* ar = a0 + c * g.kernel_plane + rows.w[r];
      for (std::int64_t ql = 0; ql < kl; ++ql) {
        const double* xq = xr + xoff[ql];
        double xv[kRun], xa[kRun];
        for (std::int64_t t = 0; t < kRun; ++t) xv[t] = xq[t], xa[t] = std::fabs(xq[t]);
#pragma GCC unroll 4
        for (std::int64_t b = 0; b < MB; ++b) {
          const double wv = wr[b * w_channel + ql], wa = ar[b * w_channel + ql];
#pragma GCC unroll 8
          for (std::int64_t t = 0; t < kRun; ++t) s[b][t] = madd<kFma>(wv, xv[t], s[b][t]), m[b][t] = madd<kFma>(wa, xa[t], m[b][t]);
        }
      }
    }
  }
  for (std::int64_t b = 0; b < MB; ++b)
    for (std::int64_t t = 0; t < kRun; ++t) sigma[b * row_len + t0 + t] = s[b][t], mag[b * row_len + t0 + t] = m[b][t];
}

template <class T, bool kFma>
void evaluate(const Tensor& X, const Tensor& W, const Tensor* B, const ConvGeometry& g, Tensor& Y, accuracy::Annex& annex) {
  constexpr bool kDD = std::is_same_v<T, double>;
  const std::size_t k = static_cast<std::size_t>(g.k), last = k - 1;
  const std::int64_t row = g.in[last], out_row = g.out[last], rows = g.out_plane / std::max<std::int64_t>(out_row, 1);
  const std::int64_t s_last = g.stride[last], dil_last = g.dilation[last], pb_last = g.pad_begin[last], kl = g.kernel[last];
  const Phased x = phased<T>(X, row, s_last);
  std::vector<double> w(static_cast<std::size_t>(W.size())), wabs(static_cast<std::size_t>(W.size()));  // W and |W|
  for (std::size_t j = 0; j < w.size(); ++j) w[j] = real_value(W.values<T>()[j]), wabs[j] = std::fabs(w[j]);
  const Strides in_strides = row_major_strides(g.in), kernel_strides = row_major_strides(g.kernel);
  T* const y = Y.values<T>().data();
  // Per last-axis offset ql: where output t's member is in a phased row, xoff[ql] + t ([Conv.window]).
  std::vector<std::int64_t> xoff(static_cast<std::size_t>(kl));
  for (std::int64_t ql = 0; ql < kl; ++ql) {
    std::int64_t first = 0;
    xoff[static_cast<std::size_t>(ql)] = x.at(ql * dil_last - pb_last, first) + first;
  }
  std::vector<std::int64_t> last_count(static_cast<std::size_t>(out_row));  // last-axis offsets inside X, per t
  std::vector<Span> last_span(static_cast<std::size_t>(out_row));
  for (std::int64_t t = 0; t < out_row; ++t) {
    const Span sl = offsets(g, last, t);
    last_span[static_cast<std::size_t>(t)] = sl, last_count[static_cast<std::size_t>(t)] = sl.end - sl.first;
  }
  // The interior of a row: the t whose every last-axis offset lies inside X, t·s − pb >= 0 and
  // t·s − pb + (k − 1)·dil <= D − 1, summed in runs with the sums in registers (the short types, and
  // an interior of kRun elements at least).
  const std::int64_t t_lo = std::min(out_row, (pb_last + s_last - 1) / s_last);
  const std::int64_t top = row - 1 + pb_last - (kl - 1) * dil_last;
  std::int64_t t_hi = top < 0 ? t_lo : std::max(t_lo, std::min(out_row, top / s_last + 1));
  const bool runs = !kDD && t_hi - t_lo >= kRun;
  const std::int64_t f_lo = runs ? t_lo : 0, f_hi = runs ? t_hi : 0;  // [f_lo, f_hi): in registers
  std::vector<double> sigma(static_cast<std::size_t>(kChannels * out_row)), tau(static_cast<std::size_t>(kChannels * out_row)),
      mag(static_cast<std::size_t>(kChannels * out_row));
  std::vector<std::optional<accuracy::Coefficients>> coefficients(static_cast<std::size_t>(g.Cg * g.kernel_plane + 1));
  auto coefficients_of = [&](std::int64_t products) -> const accuracy::Coefficients& {
    auto& coef = coefficients[static_cast<std::size_t>(products)];
    if (!coef) {
      accuracy::Sums counts;
      accuracy::count_terms(Y.dtype(), counts, products, 1, 1.0, B ? 1 : 0, 0, 0);  // [Acc.terms]
      coef = accuracy::coefficients(Y.dtype(), counts);
    }
    return *coef;
  };
  std::vector<std::int64_t> o(k, 0), q(k, 0);
  std::vector<Span> spans(last);
  RowOffsets offs;

  for (std::int64_t n = 0; n < g.N; ++n)
    for (std::int64_t m0 = 0; m0 < g.M;) {
      const std::int64_t grp = g.group_of(m0);
      const std::int64_t MB = std::min(kChannels, (grp + 1) * g.Mg - m0);  // channels of one group at a time
      const double* xg = x.data.data() + (n * g.C + grp * g.Cg) * g.in_plane;
      for (std::int64_t r = 0; r < rows; ++r) {
        std::int64_t rest = r;
        for (std::size_t d = last; d-- > 0;) o[d] = rest % g.out[d], rest /= g.out[d];
        std::int64_t outer = g.Cg;  // products per element from the axes before the last
        for (std::size_t d = 0; d < last; ++d) spans[d] = offsets(g, d, o[d]), outer *= spans[d].end - spans[d].first;
        offs.x.clear(), offs.w.clear();  // the offsets of the axes before the last inside X, row-major
        for (std::size_t d = 0; d < last; ++d) q[d] = spans[d].first;
        while (outer > 0) {
          std::int64_t xbase = 0, wbase = 0;
          for (std::size_t d = 0; d < last; ++d)
            xbase += (o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d]) * in_strides[d], wbase += q[d] * kernel_strides[d];
          offs.x.push_back(xbase), offs.w.push_back(wbase);
          std::size_t d = last;
          while (d-- > 0) {
            if (++q[d] < spans[d].end) break;
            q[d] = spans[d].first;
          }
          if (d == static_cast<std::size_t>(-1)) break;
        }
        const auto used = static_cast<std::ptrdiff_t>(MB * out_row);
        std::fill(sigma.begin(), sigma.begin() + used, -0.0);  // [Acc.oracle] from −0, the identity of IEEE addition
        if constexpr (kDD) std::fill(tau.begin(), tau.begin() + used, 0.0);
        std::fill(mag.begin(), mag.begin() + used, 0.0);
        const double* w0 = w.data() + m0 * g.Cg * g.kernel_plane;
        // The interior runs: every channel of the block at once; the last run ends at f_hi.
        if constexpr (!kDD)
          if (outer > 0 && runs) {
            const double* a0 = wabs.data() + m0 * g.Cg * g.kernel_plane;
            const std::int64_t ch = g.Cg * g.kernel_plane;
            for (std::int64_t t0 = f_lo;; t0 += kRun) {
              const std::int64_t at = std::min(t0, f_hi - kRun);
              if (MB == kChannels) interior_run<kChannels, kFma>(g, xg, w0, a0, ch, offs, xoff.data(), at, sigma.data(), mag.data(), out_row);
              else
                for (std::int64_t b = 0; b < MB; ++b)
                  interior_run<1, kFma>(g, xg, w0 + b * ch, a0 + b * ch, 0, offs, xoff.data(), at, sigma.data() + b * out_row,
                                        mag.data() + b * out_row, out_row);
              if (at + kRun >= f_hi) break;
            }
          }
        // The rest of the row, element by element: t outside [f_lo, f_hi), its terms in the same order.
        for (std::int64_t b = 0; b < MB && outer > 0; ++b) {
          double* const sg = sigma.data() + b * out_row;
          double* const ta = tau.data() + b * out_row;
          double* const mg = mag.data() + b * out_row;
          for (const Span part : {Span{0, f_lo}, Span{f_hi, out_row}})
            for (std::int64_t t = part.first; t < part.end; ++t) {
              const Span sl = last_span[static_cast<std::size_t>(t)];
              double sv = sg[t], tv = ta[t], mv = mg[t];
              for (std::int64_t c = 0; c < g.Cg; ++c) {
                const double* xc = xg + c * g.in_plane + t;
                const double* wc = w0 + b * g.Cg * g.kernel_plane + c * g.kernel_plane;
                for (std::size_t rr = 0; rr < offs.x.size(); ++rr)
                  for (std::int64_t ql = sl.first; ql < sl.end; ++ql) {
                    const double xv = xc[offs.x[rr] + xoff[static_cast<std::size_t>(ql)]], wv = wc[offs.w[rr] + ql];
                    if constexpr (!kDD) {
                      const double p = wv * xv;  // exact: two factors of a short type
                      sv = sv + p;
                      mv = mv + std::fabs(p);
                    } else {  // TwoProduct and TwoSum (accuracy::Accumulator)
                      const double p = wv * xv, qq = std::fma(wv, xv, -p);
                      const double s2 = sv + p, bb = s2 - sv, err = (sv - (s2 - bb)) + (p - bb);
                      sv = s2;
                      tv = tv + (qq + err);
                      mv = mv + std::fabs(p);
                    }
                  }
              }
              sg[t] = sv, ta[t] = tv, mg[t] = mv;
            }
        }
        // The bias, last, then each element's enclosure and the value run writes.
        const accuracy::Coefficients* interior = runs && outer > 0 ? &coefficients_of(outer * kl) : nullptr;
        for (std::int64_t b = 0; b < MB; ++b) {
          const std::int64_t m = m0 + b;
          double* const sg = sigma.data() + b * out_row;
          double* const ta = tau.data() + b * out_row;
          double* const mg = mag.data() + b * out_row;
          const double bias = B ? real_value(B->values<T>()[static_cast<std::size_t>(m)]) : 0.0;
          const std::size_t y0 = static_cast<std::size_t>(((n * g.M + m) * rows + r) * out_row);
          if (B)  // [Conv.float.formula] the bias, last (accuracy::Accumulator::add_value)
            for (std::int64_t t = 0; t < out_row; ++t) {
              if constexpr (!kDD) {
                sg[t] = sg[t] + bias;
              } else {
                const double sv = sg[t] + bias, bb = sv - sg[t], err = (sg[t] - (sv - bb)) + (bias - bb);
                sg[t] = sv, ta[t] = ta[t] + (0.0 + err);
              }
              mg[t] = mg[t] + std::fabs(bias);
            }
          // The interior in one straight loop (accuracy::finish's arithmetic for a finite element that no
          // evaluation can overflow), the exceptions after it, one by one.
          bool exceptions = false;
          if constexpr (!kDD)
            if (interior)  // [Acc.run] [Acc.verdict] the interior at once, the exceptions after it
              exceptions = accuracy::enclose_run(*interior, sg + f_lo, nullptr, mg + f_lo, static_cast<std::size_t>(f_hi - f_lo),
                                                 annex, y0 + static_cast<std::size_t>(f_lo), y, [](double v) { return to_type<T>(v); });
          for (std::int64_t t = 0; t < out_row; ++t) {
            const bool done = !kDD && interior && t >= f_lo && t < f_hi;
            if (done && !exceptions) continue;
            const std::int64_t products = outer * last_count[static_cast<std::size_t>(t)];
            const accuracy::Coefficients& coef = coefficients_of(products);
            const std::size_t at = y0 + static_cast<std::size_t>(t);
            const double centre = sg[t] + ta[t];
            const bool finite = std::isfinite(centre) && std::isfinite(mg[t]);
            if (done && finite && !accuracy::may_overflow(coef, mg[t])) continue;  // the straight loop's value holds
            accuracy::Element e;
            if (finite) {
              accuracy::Sums sm;
              sm.n = products + (B ? 1 : 0);
              sm.sigma = sg[t], sm.tau = ta[t], sm.mag = mg[t];
              e = accuracy::finish(coef, sm);
            } else {  // [Acc.nonfinite] a NaN or infinite term: the terms again, in the same order (element's),
              // through the accumulator that sorts them (element(g, X, W, B, i).sums, without its index arithmetic)
              accuracy::Accumulator acc(X.dtype());
              const Span sl = last_span[static_cast<std::size_t>(t)];
              for (std::int64_t c = 0; c < g.Cg; ++c) {
                const double* xc = xg + c * g.in_plane + t;
                const double* wc = w0 + b * g.Cg * g.kernel_plane + c * g.kernel_plane;
                for (std::size_t rr = 0; rr < offs.x.size(); ++rr)
                  for (std::int64_t ql = sl.first; ql < sl.end; ++ql)
                    acc.add_product(xc[offs.x[rr] + xoff[static_cast<std::size_t>(ql)]], wc[offs.w[rr] + ql]);
              }
              if (B) acc.add_value(bias);
              e = accuracy::enclose(Y.dtype(), acc.result(products, 1, 1.0, B ? 1 : 0, 0, 0));  // [Acc.terms]
            }
            const std::uint64_t bits = accuracy::run_bits(Y.dtype(), e);  // [Acc.run]
            std::memcpy(y + at, &bits, sizeof(T));
            annex.set(at, e);
          }
        }
      }
      m0 += MB;
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
  annex->resize(size);
  if (size > 0)
    dispatch(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>)
        at_active_level_fma([&](auto fma) { evaluate<T, decltype(fma)::value>(X, W, B, g, Y, *annex); });
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
