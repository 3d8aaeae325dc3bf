// spec/ops/averagepool.md — read this file side by side with its sections.
// Named steps: check the type and the attributes -> the window geometry (MaxPool's, ops/window.hpp) ->
// the members and the divisor of each output index -> the oracle's sum, its division, the enclosure.
//
// The definition, once: for an output index (n, c, o), the members of its window W — the positions
// x_d = o_d·s_d − pb_d + q_d·dil_d inside X, in row-major order of the kernel offsets q ([MaxPool.window]);
// a position in the padding is never read ([MaxPool.window.padding]) — summed from −0 in binary64
// (double-double for double), then divided once by d: the members' count, or with count_include_pad the
// kernel positions inside the padded input ([AveragePool.divisor], [AveragePool.order], [Acc.divisor]).
// `evaluate` applies it to every output row at once (the interior's counters shared: accuracy::enclose_run);
// `element` to one index, for decide and for the rare elements whose members are not all finite.
#include "ops/averagepool.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "core/accuracy.hpp"
#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

std::vector<DType> averagepool_types(int version) {
  // [AveragePool.v1] [AveragePool.v7] [AveragePool.v10] [AveragePool.v11] [AveragePool.v19] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 22) t.push_back(DType::BFloat16);  // [AveragePool.v22]
  return t;
}

namespace {

// [AveragePool.window] MaxPool's window clauses with AveragePool's error IDs; [AveragePool.err.empty] a
// window with no member only when the divisor counts the members (count_include_pad = 0).
const WindowClauses kWindow{"AveragePool",          "AveragePool.err.kernel",      "AveragePool.err.strides",
                            "AveragePool.err.dilations", "AveragePool.err.pads",   "AveragePool.err.auto-pad",
                            "AveragePool.err.window",    "AveragePool.err.pads-kernel", "AveragePool.err.empty"};
const WindowClauses kWindowPadsCounted{"AveragePool",          "AveragePool.err.kernel",      "AveragePool.err.strides",
                                       "AveragePool.err.dilations", "AveragePool.err.pads",   "AveragePool.err.auto-pad",
                                       "AveragePool.err.window",    "AveragePool.err.pads-kernel", nullptr};

// Step 1: the type and the attributes ([Common.gr.defaults]); the pads, the output shape and the
// windows' checks of ops/window.hpp.
AverageWindows geometry(int version, const Tensor& X, const AveragePoolParams& p) {
  const auto allowed = averagepool_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [AveragePool.err.dtype]
    refuse("AveragePool.err.dtype", "AveragePool-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(allowed));
  if (X.rank() < 3)  // [AveragePool.err.rank] X is [N, C, D1, ..., Dk], k >= 1
    refuse("AveragePool.err.rank", "AveragePool-{}: X has shape {}; it needs a batch, a channel and at least one spatial axis",
           version, to_string(X.shape()));
  const auto k = static_cast<std::size_t>(X.rank() - 2);
  if (!p.has_kernel_shape || p.window.kernel_shape.size() != k)  // [AveragePool.err.kernel] required, one per spatial axis
    refuse("AveragePool.err.kernel", "AveragePool-{}: kernel_shape must have {} entries (one per spatial axis of X {}), got {}",
           version, k, to_string(X.shape()), p.has_kernel_shape ? to_string(p.window.kernel_shape) : std::string("none"));
  if (p.window.ceil_mode != 0 && p.window.ceil_mode != 1)  // [AveragePool.err.flag]
    refuse("AveragePool.err.flag", "AveragePool-{}: attribute ceil_mode must be 0 or 1, got {}", version, p.window.ceil_mode);
  if (p.count_include_pad != 0 && p.count_include_pad != 1)  // [AveragePool.err.flag]
    refuse("AveragePool.err.flag", "AveragePool-{}: attribute count_include_pad must be 0 or 1, got {}", version,
           p.count_include_pad);
  const WindowClauses& c = p.count_include_pad == 1 ? kWindowPadsCounted : kWindow;
  AverageWindows g;
  // [AveragePool.err.strides] [AveragePool.err.dilations] [AveragePool.err.pads] [AveragePool.err.auto-pad] [AveragePool.err.window]
  static_cast<Geometry&>(g) = window_geometry(c, version, {X.shape().begin() + 2, X.shape().end()}, p.window, to_string(X.shape()));
  // [AveragePool.err.pads-kernel] a pad not below the effective kernel; [AveragePool.err.empty] d = 0
  check_windows(c, version, g);
  g.planes = checked_mul(X.shape()[0], X.shape()[1], "AveragePool input");
  g.count_pads = p.count_include_pad == 1;
  g.clause = "AveragePool.float.formula";
  g.op = "AveragePool";
  return g;
}

// [Acc.run] The binary64 value x rounded once to T (round to nearest, ties to even).
template <class T> T to_type(double x) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else if constexpr (std::is_same_v<T, float16>) return float16{accuracy::to_float16_bits(x)};
  else return bfloat16{accuracy::to_bfloat16_bits(x)};
}

// ---- one element: the definition ----------------------------------------------------------------

// The members of the window of output position o in `plane` (offsets in X, row-major order of the
// kernel offsets: [MaxPool.window]) and its divisor ([AveragePool.divisor]).
struct Members {
  std::vector<std::int64_t> offsets;
  std::int64_t d = 0;
  bool padded = false, ceil = false;
};

Members members(const AverageWindows& g, std::int64_t plane, const std::vector<std::int64_t>& o) {
  const auto k = static_cast<std::size_t>(g.k);
  const Strides in_strides = row_major_strides(g.in);
  Members w;
  std::vector<Span> spans(k);
  std::int64_t n = 1, padded = 1, kernel = 1;
  for (std::size_t d = 0; d < k; ++d) {
    spans[d] = offsets(g, d, o[d]);
    n *= spans[d].end - spans[d].first;
    const Span pd = padded_offsets(g, d, o[d]);
    padded *= pd.end - pd.first;
    kernel *= g.kernel[d];
    w.ceil = w.ceil || (g.ceil_extra[d] && o[d] == g.out[d] - 1);
  }
  w.padded = n < kernel;
  w.d = g.count_pads ? padded : n;  // [AveragePool.divisor]
  if (n == 0) return w;
  std::vector<std::int64_t> q(k);
  for (std::size_t d = 0; d < k; ++d) q[d] = spans[d].first;
  while (true) {  // [MaxPool.window] row-major order of the kernel offsets inside X
    std::int64_t off = plane * g.in_plane;
    for (std::size_t d = 0; d < k; ++d) off += (o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d]) * in_strides[d];
    w.offsets.push_back(off);
    std::size_t d = k;
    while (d-- > 0) {
      if (++q[d] < spans[d].end) break;
      q[d] = spans[d].first;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  return w;
}

// [AveragePool.order] [Acc.oracle] [Acc.divisor] The oracle's mean of `values` (the members' values, in
// order): the sum from −0, then one division by d (d >= 1); the terms one factor each, e_k = c_d.
accuracy::Sums oracle_mean(DType t, const std::vector<double>& values, std::int64_t d) {
  accuracy::Accumulator acc(t);
  for (double x : values) acc.add_value(x);
  acc.divide(d);
  return acc.result(0, 1, 1.0, static_cast<std::int64_t>(values.size()), accuracy::divisor_roundings(t, d), 2);
}

// ---- evaluation ---------------------------------------------------------------------------------

// [AveragePool.float.formula] [AveragePool.order] [Acc.oracle] For every plane and every output row
// (the positions of the spatial axes before the last), the members of the row's elements are summed at
// once: for each kernel offset of the axes before the last inside X (row-major), and each offset q of
// the last axis, every element t of the row whose position t·s + q·dil − pb lies inside X gets the
// member added — each element meets its members in row-major order of the kernel offsets, the oracle's
// order, so each receives exactly the oracle's sum. Then each element is divided by its d
// (Accumulator::divide's arithmetic), and the elements of one run of equal counters (n, d) — the
// interior of a row, and each border's positions — are enclosed at once (accuracy::enclose_run); an
// element whose members are not all finite, or that some evaluation may overflow, or that has no
// member, is enclosed by the one-element definition instead. The plane is read once as doubles (exact);
// the padding is never materialised.
template <class T>
void evaluate(const Tensor& X, const AverageWindows& g, Tensor& Y, accuracy::Annex& annex) {
  constexpr bool kDD = std::is_same_v<T, double>;
  const DType t = X.dtype();
  const std::size_t k = static_cast<std::size_t>(g.k), last = k - 1;
  const std::int64_t out_row = g.out[last], rows = g.out_plane / out_row, s = g.stride[last];
  const T* const x0 = X.values<T>().data();
  T* const y = Y.values<T>().data();
  const Strides in_strides = row_major_strides(g.in);
  std::vector<double> plane_values(static_cast<std::size_t>(g.in_plane));
  std::vector<std::int64_t> last_count(static_cast<std::size_t>(out_row)), last_padded(static_cast<std::size_t>(out_row));
  for (std::int64_t o = 0; o < out_row; ++o) {
    const Span sl = offsets(g, last, o), sp = padded_offsets(g, last, o);
    last_count[static_cast<std::size_t>(o)] = sl.end - sl.first, last_padded[static_cast<std::size_t>(o)] = sp.end - sp.first;
  }
  std::vector<double> sigma(static_cast<std::size_t>(out_row)), tau(static_cast<std::size_t>(out_row)),
      mag(static_cast<std::size_t>(out_row));
  std::vector<std::int64_t> n_of(static_cast<std::size_t>(out_row)), d_of(static_cast<std::size_t>(out_row));
  std::map<std::pair<std::int64_t, std::int64_t>, accuracy::Coefficients> cache;
  auto coefficients_of = [&](std::int64_t n, std::int64_t d) -> const accuracy::Coefficients& {
    auto it = cache.find({n, d});
    if (it == cache.end()) {
      accuracy::Sums counts;  // [Acc.terms] [Acc.divisor] n one-factor terms of e_k = c_d, the division's two steps
      accuracy::count_terms(t, counts, 0, 1, 1.0, n, accuracy::divisor_roundings(t, d), 2);
      counts.divisor = static_cast<double>(d);
      it = cache.emplace(std::pair{n, d}, accuracy::coefficients(t, counts)).first;
    }
    return it->second;
  };
  std::vector<double> values;
  // The one-element definition, for an element the runs leave: an exception, or a window of no member.
  auto one_by_one = [&](std::int64_t plane, const std::vector<std::int64_t>& o, std::size_t at) {
    const Members w = members(g, plane, o);
    values.clear();
    for (std::int64_t off : w.offsets) values.push_back(real_value(x0[off]));
    const accuracy::Element e = accuracy::enclose(t, oracle_mean(t, values, w.d));
    const std::uint64_t bits = accuracy::run_bits(t, e);  // [Acc.run]
    std::memcpy(y + at, &bits, sizeof(T));
    annex.set(at, e);
  };
  bool whole = g.out_plane == 1;  // one window per plane covering it: GlobalAveragePool, or a kernel of the spatial shape
  for (std::size_t d = 0; d < k; ++d)
    whole = whole && g.kernel[d] == g.in[d] && g.dilation[d] == 1 && g.pad_begin[d] == 0 && g.pad_end[d] == 0;
  if constexpr (!kDD)
    if (whole && g.in_plane > 0) {
      // Every member of a plane in row-major order — the row-major order of the kernel offsets — summed
      // from −0 in binary64, eight planes at a time read in place: eight independent chains, each plane's
      // own order, so the adds of one plane wait on no other's (no transposed copy); the last planes one
      // by one. Then divided by d = the plane's size, and every plane enclosed in one run (the same counters).
      constexpr std::int64_t kLanes = 8;
      std::vector<double> ps(static_cast<std::size_t>(g.planes)), pm(static_cast<std::size_t>(g.planes));
      const double dv = static_cast<double>(g.in_plane);
      std::int64_t p0 = 0;
      for (; p0 + kLanes <= g.planes; p0 += kLanes) {
        double sl[kLanes], ml[kLanes];
        for (std::int64_t l = 0; l < kLanes; ++l) sl[l] = -0.0, ml[l] = 0.0;
        const T* const xb = x0 + p0 * g.in_plane;
        for (std::int64_t j = 0; j < g.in_plane; ++j)
#pragma GCC unroll 8
          for (std::int64_t l = 0; l < kLanes; ++l) {
            const double v = real_value(xb[l * g.in_plane + j]);
            sl[l] = sl[l] + v, ml[l] = ml[l] + std::fabs(v);
          }
        for (std::int64_t l = 0; l < kLanes; ++l)  // [AveragePool.divisor] [Acc.divisor] one division by d
          ps[static_cast<std::size_t>(p0 + l)] = sl[l] / dv, pm[static_cast<std::size_t>(p0 + l)] = ml[l] / dv;
      }
      for (; p0 < g.planes; ++p0) {  // the same chain for each of the last planes
        double sl = -0.0, ml = 0.0;
        const T* const xb = x0 + p0 * g.in_plane;
        for (std::int64_t j = 0; j < g.in_plane; ++j) {
          const double v = real_value(xb[j]);
          sl = sl + v, ml = ml + std::fabs(v);
        }
        ps[static_cast<std::size_t>(p0)] = sl / dv, pm[static_cast<std::size_t>(p0)] = ml / dv;
      }
      const accuracy::Coefficients& c = coefficients_of(g.in_plane, g.in_plane);
      if (accuracy::enclose_run(c, ps.data(), nullptr, pm.data(), static_cast<std::size_t>(g.planes), annex, 0, y,
                                [](double v) { return to_type<T>(v); }))
        for (std::int64_t plane = 0; plane < g.planes; ++plane)
          if (accuracy::exceptional(c, ps[static_cast<std::size_t>(plane)], 0.0, pm[static_cast<std::size_t>(plane)]))
            one_by_one(plane, std::vector<std::int64_t>(k, 0), static_cast<std::size_t>(plane));
      return;
    }
  std::vector<std::int64_t> o(k, 0), q(k, 0);
  std::vector<Span> spans(last);
  for (std::int64_t plane = 0; plane < g.planes; ++plane) {
    const T* const xp = x0 + plane * g.in_plane;
    for (std::int64_t j = 0; j < g.in_plane; ++j) plane_values[static_cast<std::size_t>(j)] = real_value(xp[j]);
    const double* const x = plane_values.data();
    for (std::int64_t r = 0; r < rows; ++r) {
      std::int64_t rest = r;  // the output row's coordinates on the axes before the last
      for (std::size_t d = last; d-- > 0;) o[d] = rest % g.out[d], rest /= g.out[d];
      std::int64_t outer = 1, outer_padded = 1;
      for (std::size_t d = 0; d < last; ++d) {
        spans[d] = offsets(g, d, o[d]), outer *= spans[d].end - spans[d].first;
        const Span sp = padded_offsets(g, d, o[d]);
        outer_padded *= sp.end - sp.first;
      }
      std::fill(sigma.begin(), sigma.end(), -0.0);  // [Acc.oracle] from −0, the identity of IEEE addition
      if constexpr (kDD) std::fill(tau.begin(), tau.end(), 0.0);
      std::fill(mag.begin(), mag.end(), 0.0);
      double* const sg = sigma.data();
      double* const ta = tau.data();
      double* const mg = mag.data();
      for (std::size_t d = 0; d < last; ++d) q[d] = spans[d].first;
      while (outer > 0) {
        std::int64_t base = 0;  // the input row of these offsets
        for (std::size_t d = 0; d < last; ++d) base += (o[d] * g.stride[d] - g.pad_begin[d] + q[d] * g.dilation[d]) * in_strides[d];
        const double* const xr = x + base;
        for (std::int64_t ql = 0; ql < g.kernel[last]; ++ql) {
          const Span os = outputs_for(g, last, ql);
          const std::int64_t shift = ql * g.dilation[last] - g.pad_begin[last];  // the member of t: xr[t·s + shift]
          if constexpr (!kDD) {  // [Acc.oracle] binary64 additions of exact values
            if (s == 1)
              for (std::int64_t u = os.first; u < os.end; ++u) sg[u] = sg[u] + xr[u + shift], mg[u] = mg[u] + std::fabs(xr[u + shift]);
            else
              for (std::int64_t u = os.first; u < os.end; ++u)
                sg[u] = sg[u] + xr[u * s + shift], mg[u] = mg[u] + std::fabs(xr[u * s + shift]);
          } else {  // TwoSum (accuracy::Accumulator::add_value)
            for (std::int64_t u = os.first; u < os.end; ++u) {
              const double p = xr[u * s + shift];
              const double sv = sg[u] + p, bb = sv - sg[u], err = (sg[u] - (sv - bb)) + (p - bb);
              sg[u] = sv, ta[u] = ta[u] + (0.0 + err), mg[u] = mg[u] + std::fabs(p);
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
      // [AveragePool.divisor] [Acc.divisor] each element divided once by its d (Accumulator::divide)
      for (std::int64_t u = 0; u < out_row; ++u) {
        const std::int64_t n = outer * last_count[static_cast<std::size_t>(u)];
        const std::int64_t d = g.count_pads ? outer_padded * last_padded[static_cast<std::size_t>(u)] : n;
        n_of[static_cast<std::size_t>(u)] = n, d_of[static_cast<std::size_t>(u)] = d;
        const double dv = static_cast<double>(d);  // d >= 1: an empty window with d = 0 is refused
        if constexpr (!kDD) {
          sg[u] = sg[u] / dv;
        } else {
          const double q1 = sg[u] / dv, rr = std::fma(-q1, dv, sg[u]), q2 = (rr + ta[u]) / dv;
          sg[u] = q1, ta[u] = q2;
        }
        mg[u] = mg[u] / dv;
      }
      // The runs of equal counters, each enclosed at once; the exceptions one by one.
      const std::size_t y0 = static_cast<std::size_t>((plane * rows + r) * out_row);
      auto at_row = [&](std::int64_t u) {  // element u of the row, by the one-element definition
        std::vector<std::int64_t> ou(o);
        ou[last] = u;
        one_by_one(plane, ou, y0 + static_cast<std::size_t>(u));
      };
      for (std::int64_t a = 0; a < out_row;) {
        std::int64_t b = a + 1;
        while (b < out_row && n_of[static_cast<std::size_t>(b)] == n_of[static_cast<std::size_t>(a)] &&
               d_of[static_cast<std::size_t>(b)] == d_of[static_cast<std::size_t>(a)])
          ++b;
        const std::int64_t n = n_of[static_cast<std::size_t>(a)];
        if (n == 0) {  // [AveragePool.float.formula] no member, d >= 1: the empty sum +0
          for (std::int64_t u = a; u < b; ++u) at_row(u);
        } else {
          const accuracy::Coefficients& c = coefficients_of(n, d_of[static_cast<std::size_t>(a)]);
          // [Acc.run] [Acc.verdict] the run at once
          const bool exceptions = accuracy::enclose_run(c, sg + a, kDD ? ta + a : nullptr, mg + a, static_cast<std::size_t>(b - a),
                                                        annex, y0 + static_cast<std::size_t>(a), y, [](double v) { return to_type<T>(v); });
          if (exceptions)
            for (std::int64_t u = a; u < b; ++u)
              if (accuracy::exceptional(c, sg[u], kDD ? ta[u] : 0.0, mg[u])) at_row(u);
        }
        a = b;
      }
    }
  }
}

}  // namespace

Tensor average_windows(const Tensor& X, const AverageWindows& g, const Shape& y_shape) {
  Tensor Y(X.dtype(), y_shape, std::string(g.op) + " output Y", Fill::Unspecified);  // every element is written
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = g.clause;
  const auto size = static_cast<std::size_t>(Y.size());
  annex->resize(size);
  if (size > 0)
    dispatch(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) at_active_level([&] { evaluate<T>(X, g, Y, *annex); });
    });
  Y.annex = std::move(annex);
  return Y;
}

Tensor averagepool(int version, const Tensor& X, const AveragePoolParams& p) {
  const AverageWindows g = geometry(version, X, p);
  Shape y_shape = {X.shape()[0], X.shape()[1]};  // [AveragePool.window] (N, C, O_1, ..., O_k)
  y_shape.insert(y_shape.end(), g.out.begin(), g.out.end());
  return average_windows(X, g, y_shape);
}

Decision decide_average(const NodeValues& v, const AverageWindows& g, const std::vector<std::int64_t>& i,
                        const std::string& parameters, std::vector<std::string> more_clauses) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t plane = i[0] * X.shape()[1] + i[1];
  const std::vector<std::int64_t> o(i.begin() + 2, i.end());
  const Members w = members(g, plane, o);
  std::vector<double> values;
  std::vector<Term> terms;
  std::vector<TermFactors> factors;
  for (std::int64_t off : w.offsets) {
    values.push_back(member_real(v, Member{0, off}));
    terms.push_back(Term{{Member{0, off}}, {}});
    factors.push_back({values.back()});
  }
  Computation c;
  c.formula = fmt::format("(1/{})·Σ over the {} member{} of the window of {} in {}{}", w.d, w.offsets.size(),
                          w.offsets.size() == 1 ? "" : "s", output_name(v, i), v.input_names[0],
                          w.padded ? (g.count_pads ? " (d counts the positions in the padding)" : " (the padding is no term)")
                                   : "");
  c.terms = static_cast<std::int64_t>(terms.size());
  c.term = [terms](std::int64_t k) { return terms[static_cast<std::size_t>(k)]; };
  c.sums = oracle_mean(X.dtype(), values, w.d);
  c.element = accuracy::enclose(X.dtype(), c.sums);
  more_clauses.push_back("Acc.divisor");
  if (w.padded) more_clauses.emplace_back("MaxPool.window.padding");
  if (w.ceil) more_clauses.emplace_back("MaxPool.shape.ceil");
  Decision d = computed_decision(v, i, std::move(c), parameters, g.clause, more_clauses, factors);
  // [Check.coverage] the window's own situations
  if (w.padded) d.situations.push_back({"AveragePool.divisor", g.count_pads ? "a padded window, the padding counted in d"
                                                                            : "a padded window, d its members"});
  if (w.offsets.empty()) d.situations.push_back({"AveragePool.float.formula", "a window with no member, d >= 1"});
  if (w.ceil) d.situations.push_back({"MaxPool.shape.ceil", "the extra window of ceil_mode"});
  return d;
}

std::vector<Reach> reach_average(const NodeValues& v, const AverageWindows& g, const std::vector<Source>& sources) {
  std::int64_t n = 1;  // the largest window: the whole kernel
  for (std::int64_t kd : g.kernel) n *= kd;
  return accuracy_reaches(v.inputs[0]->dtype(), 0, n, Source::Fixed, Source::Fixed, sources[0], {"", "", v.input_names[0]});
}

Decision decide_averagepool(int version, const NodeValues& v, const AveragePoolParams& p, const std::vector<std::int64_t>& i) {
  const AverageWindows g = geometry(version, *v.inputs[0], p);
  const std::string parameters =
      fmt::format("kernel_shape = {}, strides = {}, pads = {} (begins) {} (ends), dilations = {}{}{}, count_include_pad = {}",
                  to_string(g.kernel), to_string(g.stride), to_string(g.pad_begin), to_string(g.pad_end), to_string(g.dilation),
                  p.window.auto_pad != "NOTSET" ? ", auto_pad = " + p.window.auto_pad : std::string(),
                  p.window.ceil_mode ? ", ceil_mode = 1" : "", p.count_include_pad);
  return decide_average(v, g, i, parameters, {"AveragePool.window", "AveragePool.divisor", "AveragePool.order"});
}

std::vector<Reach> reach_averagepool(int version, const NodeValues& v, const AveragePoolParams& p,
                                     const std::vector<Source>& sources) {
  const AverageWindows g = geometry(version, *v.inputs[0], p);
  std::vector<Reach> out = reach_average(v, g, sources);
  const bool pads = std::any_of(g.pad_begin.begin(), g.pad_begin.end(), [](std::int64_t x) { return x > 0; }) ||
                    std::any_of(g.pad_end.begin(), g.pad_end.end(), [](std::int64_t x) { return x > 0; }) ||
                    std::any_of(g.ceil_extra.begin(), g.ceil_extra.end(), [](bool b) { return b; });
  out.push_back(reach_by_shape({"AveragePool.divisor", g.count_pads ? "a padded window, the padding counted in d"
                                                                    : "a padded window, d its members"},
                               pads, "the node has no pads and no ceil_mode window"));
  out.push_back(reach_by_shape({"MaxPool.shape.ceil", "the extra window of ceil_mode"},
                               std::any_of(g.ceil_extra.begin(), g.ceil_extra.end(), [](bool b) { return b; }),
                               "ceil_mode adds no window here"));
  return out;
}

}  // namespace sonnx::ops
