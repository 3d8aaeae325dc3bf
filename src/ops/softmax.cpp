// spec/ops/softmax.md and spec/ops/logsoftmax.md — read this file side by side with their sections.
//
// The definition, once, for a row V = (x_0, ..., x_{n-1}) — a slice along the axis (version 13) or a row
// of the 2-D coercion (versions 1 and 11), the one view of ops/position.hpp ([Softmax.coerce]):
//   m = max x_j, w_j = e^(x_j − m), W = Σ_j w_j,
//   Softmax:    y_i = w_i / W                ([Softmax.float.formula])
//   LogSoftmax: y_i = (x_i − m) − ln W       ([LogSoftmax.float.formula])
// the oracle's binary64 enclosure of each y_i (MPFR for double and where the rounding is undecided,
// [Elem.oracle], [Elem.run]), the bound of [Softmax.bound] / [LogSoftmax.bound] composed from exp's
// (and log's) K ([Softmax.hyp]), and the rows that [Softmax.edge] decides. Evaluation walks the rows;
// `decide` runs the same row function on the row of the element.
#include "ops/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/accuracy.hpp"
#include "ops/elementary.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/computed.hpp"
#include "ops/position.hpp"
#include "ops/unary.hpp"

namespace sonnx::ops {

const SoftmaxClauses kSoftmax{"Softmax",          false,           "Softmax.err.dtype", "Softmax.err.axis-range",
                              "Softmax.float.formula", "Softmax.coerce", "Softmax.bound", "Softmax.edge", "Softmax.hyp"};
const SoftmaxClauses kLogSoftmax{"LogSoftmax",        true,              "LogSoftmax.err.dtype", "LogSoftmax.err.axis-range",
                                 "LogSoftmax.float.formula", "LogSoftmax.coerce", "LogSoftmax.bound", "LogSoftmax.edge",
                                 "LogSoftmax.hyp"};

std::vector<DType> softmax_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Softmax.v1] [Softmax.v11]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Softmax.v13]
  return t;
}

// [Common.gr.defaults] [Softmax.v1] [Softmax.v11] axis = 1; [Softmax.v13] axis = −1
std::int64_t softmax_default_axis(int version) { return version >= 13 ? -1 : 1; }

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The checks of the Error conditions table, then the axis k in [0, r − 1] ([Softmax.axis]).
std::int64_t normalised_axis(const SoftmaxClauses& c, int version, const Tensor& X, std::int64_t axis) {
  const auto allowed = softmax_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Softmax.err.dtype]
    refuse(c.err_dtype, "{}-{} does not accept {} (T in {{{}}})", c.op, version, name(X.dtype()), join_names(allowed));
  const std::int64_t r = X.rank();
  const std::int64_t lowest = -r;  // [Softmax.axis] [−r, r − 1] in every version (version 1 too: onnxruntime, PyTorch's exports)
  if (axis < lowest || axis > r - 1)  // [Softmax.err.axis-range] (so rank 0 is refused)
    refuse(c.err_axis, "{}-{}: axis {} is outside [{}, {}] for an input of shape {}", c.op, version, axis, lowest, r - 1,
           to_string(X.shape()));
  return axis < 0 ? axis + r : axis;
}

// The numbers of the hypothesis for the reasons: K_exp (and K_log).
std::string hypothesis(const SoftmaxClauses& c, DType t) {
  const UnaryConsts ke = unary_consts(t, elementary::Fn::Exp), kl = unary_consts(t, elementary::Fn::Log);
  std::string h = unary_hypothesis(ke, elementary::Fn::Exp);
  if (c.log_form) h += fmt::format("; K_log = {:g}: κ = {:.3g}, α = {:.3g}", elementary::ulps(elementary::Fn::Log, t), kl.p.kappa,
                                   kl.p.alpha);
  return h;
}

// What a row computes: the enclosure and the bits of each of its elements (b), and the row's
// intermediates (reused from row to row).
struct RowResult {
  FinishBlock b;
  std::vector<double> w, d, E;
  std::vector<std::uint8_t> odd;
  double m = 0, W = 0;  // the maximum and the oracle's Ŵ (for the reasons)
  bool edge = false;    // [Softmax.edge] decided the whole row
};

// The constants of a row's bound, as `row` computes them.
struct RowConsts {
  bool log_form, bounded;
  double v, kappa, alpha, eta_bar, omega, W, W_lo, Delta, phi, eps_y, eps_W, L, E_L, slack;
};

// [Elem.oracle] d_j = fl(x_j − m), ŵ_j = exp_o(d_j) (+0 for an element −Inf), n of them (a loop that vectorises).
void exps(const double* __restrict x, double m, double* __restrict d, double* __restrict w, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    d[j] = x[j] - m;  // −Inf for an element −Inf
    w[j] = elementary::pick(x[j] == -kInf, 0.0, elementary::exp_o(d[j]));
  }
}

// [Softmax.bound] E_j >= |e_j − w_j| where v|x_j − m| < 0.35 (expm1_o's small form: no second exponential);
// odd[j] not 0 for the others (an element −Inf, v|x_j − m| >= 0.35), which `row` computes one by one.
bool errors(const double* __restrict d, const double* __restrict w, const double* __restrict x, double v, double kappa, double alpha,
            double slack, double* __restrict E, std::uint8_t* __restrict odd, std::size_t n) {
  unsigned some = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double ad = std::fabs(d[j]) * (1 + 0x1p-52);  // >= |x_j − m|
    const double wj = w[j] * (1 + 0x1p-42) + 0x1p-1070;  // >= w_j
    const double a = v * ad;
    const double r = (elementary::expm1_small_o(a) * (1 + 0x1p-43) * (1 + kappa) + kappa) * slack;  // e^(v|d|)(1 + κ) − 1
    E[j] = (wj * r + alpha) * slack;
    odd[j] = static_cast<std::uint8_t>((x[j] == -kInf) | !(a < 0.35));
    some |= odd[j];
  }
  return some != 0;
}

// [Softmax.bound] [LogSoftmax.bound] the centre, e_o and B̂ of each element (every element as if finite:
// `row` finishes an element −Inf on its own), n of them (a loop that vectorises: no branch).
template <bool kLog>
void finish_row(const RowConsts& k, const double* __restrict d, const double* __restrict w, const double* __restrict E,
                double* __restrict hi, double* __restrict oracle, double* __restrict bound, std::uint8_t* __restrict allowed, std::size_t n) {
  const double slack = k.slack, W = k.W, eps_y = k.eps_y, L = k.L, v = k.v, phi = k.phi, Delta = k.Delta, E_L = k.E_L;
  const double eo_log = k.eps_W * 1.01 + 0x1p-47 * (L + 1), divisor = (k.W_lo - Delta) * (1 - 0x1p-52), eta_bar = k.eta_bar;
  const double omega = k.omega;
  const bool bounded = k.bounded;
  for (std::size_t i = 0; i < n; ++i) {
    double yhat, eo, B;
    if constexpr (!kLog) {
      yhat = w[i] / W;
      eo = (yhat * eps_y + 0x1p-1069) * slack;
    } else {
      yhat = d[i] - L;
      eo = (std::fabs(d[i]) * 0x1p-52 + eo_log + std::fabs(yhat) * 0x1p-52 + 0x1p-1069) * slack;
    }
    const double Y = std::fabs(yhat) + eo;  // >= |y_i|
    if constexpr (!kLog) {  // [Softmax.bound] (1 + φ)(E_i + y_i·Δ_s)/(W − Δ_s) + y_i·φ + η_T
      B = ((1 + phi) * (E[i] + Y * Delta) / divisor + Y * phi + eta_bar) * slack;
    } else {  // [LogSoftmax.bound] (1 + v)(v|x_i − m| + E_L) + v|y_i|
      const double ad = std::fabs(d[i]) * (1 + 0x1p-52);
      B = ((1 + v) * (v * ad + E_L) + v * Y) * slack;
    }
    B = elementary::pick(bounded, B, kInf);
    hi[i] = yhat, oracle[i] = eo * accuracy::kInflate;
    bound[i] = B * accuracy::kInflate + accuracy::kTiny;
    // [LogSoftmax.bound] overflow
    allowed[i] = static_cast<std::uint8_t>(accuracy::kFinite | (kLog && (Y + B) * accuracy::kInflate >= omega ? accuracy::kNegInf : 0));
  }
}

// [Softmax.float.formula] [LogSoftmax.float.formula] [Softmax.bound] [LogSoftmax.bound] [Softmax.edge]
// [LogSoftmax.edge] [Elem.oracle] [Elem.run] One row x[0..n), n >= 1, of type t.
void row(const SoftmaxClauses& c, DType t, const double* x, std::int64_t n, RowResult& out) {
  const auto N = static_cast<std::size_t>(n);
  FinishBlock& b = out.b;
  b.resize(t, N);
  out.edge = false;
  bool nan = false;
  std::int64_t finite = 0;
  double m = -kInf;
  for (std::size_t j = 0; j < N; ++j) {
    if (x[j] != x[j] || x[j] == kInf) nan = true;  // a NaN, or +Inf: x − m = +Inf − (+Inf)
    else if (x[j] > -kInf) ++finite, m = std::max(m, x[j]);
  }
  out.m = m;
  if (nan || finite == 0) {  // [Softmax.edge] a NaN or +Inf in the row, or every element −Inf: a NaN everywhere
    accuracy::Element e;
    e.hi = kNaN, e.allowed = accuracy::kNan;
    for (std::size_t j = 0; j < N; ++j) b.set(j, e, unary_bits(t, kNaN));
    out.edge = true;
    return;
  }
  const UnaryConsts ke = unary_consts(t, elementary::Fn::Exp), kl = unary_consts(t, elementary::Fn::Log);
  const accuracy::Format& f = ke.f;
  const double v = f.v, kappa = ke.p.kappa, alpha = ke.p.alpha;
  // [Elem.oracle] ŵ_j = exp_o(fl(x_j − m)), Ŵ = Σ ŵ_j left to right: ŵ_j within 2^-43·w_j + 2^-1070 of w_j,
  // Ŵ within ε_W·W of W (W >= 1)
  std::vector<double>& w = out.w;
  std::vector<double>& d = out.d;
  w.resize(N), d.resize(N);
  at_active_level([&] { exps(x, m, d.data(), w.data(), N); });
  // [Softmax.bound] E_j >= |e_j − w_j|, e_j = exp̃(fl(x_j − m)); Δ_s >= |s − W|
  const double slack = 1 + 0x1p-40;
  std::vector<double>& E = out.E;
  std::vector<std::uint8_t>& odd = out.odd;
  E.resize(N), odd.resize(N);
  bool some = false;
  at_active_level([&] { some = errors(d.data(), w.data(), x, v, kappa, alpha, slack, E.data(), odd.data(), N); });
  if (some)
    for (std::size_t j = 0; j < N; ++j) {
      if (!odd[j]) continue;
      if (x[j] == -kInf) {  // exp̃(−Inf) = +0 exactly ([Elem.special]): no error
        E[j] = 0;
        continue;
      }
      const double ad = std::fabs(d[j]) * (1 + 0x1p-52);
      const double wj = w[j] * (1 + 0x1p-42) + 0x1p-1070;
      if (v * ad <= 1) {
        const double r = (elementary::expm1_o(v * ad) * (1 + 0x1p-43) * (1 + kappa) + kappa) * slack;
        E[j] = (wj * r + alpha) * slack;
      } else {  // e_j <= e^(d(1 − v))(1 + κ) + α: both e_j and w_j are tiny
        E[j] = (elementary::exp_o(-ad * (1 - v)) * (1 + 0x1p-45) * (1 + kappa) + alpha + wj) * slack;
      }
    }
  double W = 0, sumE = 0;  // left to right, in one loop (two chains of additions side by side)
  for (std::size_t j = 0; j < N; ++j) W += w[j], sumE += E[j];  // an element −Inf adds +0: the sum of the others
  out.W = W;
  const double nf = static_cast<double>(finite);
  const double eps_W = 0x1p-43 + (nf + 1) * 0x1p-53 * (1 + 0x1p-20) + nf * 0x1p-1070;
  const double W_up = W * (1 + eps_W), W_lo = W * (1 - eps_W);
  sumE *= 1 + (nf + 1) * 0x1p-52;
  const double theta = accuracy::theta(t, finite - 1);
  const double Delta = ((1 + theta) * sumE + theta * W_up + (nf - 1) * f.eta_bar * (1 + theta) / 2) * slack;
  const bool bounded = W_lo > Delta;  // δ_s < 1: the sum cannot vanish
  const double phi = ((1 + v) * (1 + v) - 1) * slack;
  // the oracle's values, their error e_o
  const double eps_y = (0x1p-42 + (nf + 2) * 0x1p-53) * (1 + 0x1p-20) + eps_W;
  const double L = c.log_form ? elementary::log_o(W) : 0.0;
  double lambda_s = 0, E_L = 0;
  if (c.log_form && bounded) {
    const double delta = Delta / W_lo;
    lambda_s = delta / (1 - delta) * slack;  // >= −ln(1 − δ_s)
    const double L_up = elementary::log_o(W_up) * (1 + 0x1p-46) + 0x1p-1070;  // >= ln W >= 0
    E_L = (lambda_s + kl.p.kappa * (L_up + lambda_s) + kl.p.alpha) * slack;
  }
  const RowConsts k{c.log_form, bounded, v, kappa, alpha, f.eta_bar, f.omega, W, W_lo, Delta, phi, eps_y, eps_W, L, E_L, slack};
  at_active_level([&] {
    if (c.log_form) finish_row<true>(k, d.data(), w.data(), E.data(), b.hi.data(), b.oracle.data(), b.bound.data(), b.allowed.data(), N);
    else finish_row<false>(k, d.data(), w.data(), E.data(), b.hi.data(), b.oracle.data(), b.bound.data(), b.allowed.data(), N);
  });
  bool undecided = b.decide(t, N);
  if (!bounded)  // s may vanish: anything, finite values included (an infinite radius would refuse every finite value)
    for (std::size_t i = 0; i < N; ++i) {
      b.allowed[i] |= accuracy::kPosInf | accuracy::kNegInf | accuracy::kNan;
      b.bound[i] = b.radius[i] = std::numeric_limits<double>::max();
    }
  if (finite < n) {
    accuracy::Element e;  // [Softmax.edge] an element −Inf with a finite maximum: exactly 0 (LogSoftmax: −Inf)
    e.hi = c.log_form ? -kInf : 0.0;
    e.allowed = c.log_form ? accuracy::kNegInf : accuracy::kFinite;
    for (std::size_t i = 0; i < N; ++i)
      if (x[i] == -kInf) b.set(i, e, unary_bits(t, e.hi));
  }
  if (!undecided) return;
  // [Elem.oracle.mpfr] [Elem.run] the row in MPFR (its finite elements); double takes its centre from it, the
  // short types only the values of the undecided elements
  std::vector<double> xf;
  std::vector<std::size_t> at;
  std::vector<std::uint8_t> want;
  undecided = false;
  for (std::size_t j = 0; j < N; ++j)
    if (x[j] > -kInf) xf.push_back(x[j]), at.push_back(j), want.push_back(b.undecided[j] != 0), undecided |= b.undecided[j] != 0;
  if (!undecided) return;
  std::vector<elementary::Pair> p(xf.size());
  elementary::softmax_mp(xf.data(), xf.size(), c.log_form, p.data(), want.data());
  for (std::size_t q = 0; q < xf.size(); ++q) {
    const std::size_t i = at[q];
    if (t == DType::Double) {
      b.hi[i] = p[q].hi, b.lo[i] = p[q].lo;
      b.oracle[i] = (std::fabs(p[q].hi) * p[q].rel + 0x1p-1072) * accuracy::kInflate;
      if (b.bound[i] < std::numeric_limits<double>::max()) b.radius[i] = (b.bound[i] + b.oracle[i]) * accuracy::kInflate + accuracy::kTiny;
      b.bits[i] = elementary::round_pair(t, p[q]);
    } else if (b.undecided[i]) {
      b.bits[i] = elementary::round_pair(t, p[q]);
    }
  }
}

// The row through element `offset` of X viewed by `l`: its positions' offsets.
std::vector<std::int64_t> row_offsets(const Layout& l, std::int64_t offset) {
  const std::int64_t o = offset / (l.n * l.inner), c = offset % l.inner;
  std::vector<std::int64_t> out(static_cast<std::size_t>(l.n));
  for (std::int64_t q = 0; q < l.n; ++q) out[static_cast<std::size_t>(q)] = (o * l.n + q) * l.inner + c;
  return out;
}

template <class T> double value_at(const Tensor& X, std::int64_t k) { return real_value(X.values<T>()[static_cast<std::size_t>(k)]); }

}  // namespace

Tensor softmax_family(const SoftmaxClauses& c, int version, const Tensor& X, std::int64_t axis) {
  const std::int64_t k = normalised_axis(c, version, X, axis);
  Tensor Y(X.dtype(), X.shape(), fmt::format("{} output", c.op), Fill::Unspecified);  // [Softmax.shape]
  if (Y.size() == 0) return Y;  // [Softmax.shape] an empty row: no element
  const Layout l = axis_layout(version < 13, X.shape(), k, c.op);
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = version >= 13 ? c.formula : c.coerce;
  annex->resize(static_cast<std::size_t>(Y.size()));
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      std::vector<double> buffer(static_cast<std::size_t>(l.n));
      RowResult r;
      for (std::int64_t o = 0; o < l.outer; ++o)
        for (std::int64_t ci = 0; ci < l.inner; ++ci) {
          const std::int64_t base = o * l.n * l.inner + ci;
          for (std::int64_t q = 0; q < l.n; ++q) buffer[static_cast<std::size_t>(q)] = real_value(x[base + q * l.inner]);
          row(c, X.dtype(), buffer.data(), l.n, r);
          store_block(r.b, static_cast<std::size_t>(l.n), *annex, y, static_cast<std::size_t>(base), static_cast<std::size_t>(l.inner));
        }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_softmax_family(const SoftmaxClauses& c, int version, const NodeValues& v, std::int64_t axis,
                               const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t k = normalised_axis(c, version, X, axis);
  const Layout l = axis_layout(version < 13, X.shape(), k, c.op);
  const std::int64_t offset = offset_of(i, row_major_strides(X.shape()));
  const std::vector<std::int64_t> offsets = row_offsets(l, offset);
  std::vector<double> x;
  std::vector<Member> members;
  std::size_t position = 0;
  for (std::size_t q = 0; q < offsets.size(); ++q) {
    x.push_back(dispatch(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) return value_at<T>(X, offsets[q]);
      else return 0.0;
    }));
    members.push_back(Member{0, offsets[q]});
    if (offsets[q] == offset) position = q;
  }
  RowResult r;
  row(c, X.dtype(), x.data(), l.n, r);
  const std::string xi = element_name(v.input_names[0], i);
  const std::string row_text = version >= 13 ? fmt::format("the slice along axis {}", k)
                                             : fmt::format("row {} of the [{}, {}] coercion", offset / l.n, l.outer, l.n);
  const std::string formula =
      c.log_form ? fmt::format("({} − m) − ln Σ_j e^(x_j − m) over {} ({} elements), m = {:.9g}, Ŵ = {:.9g}", xi, row_text, l.n, r.m, r.W)
                 : fmt::format("e^({} − m) / Σ_j e^(x_j − m) over {} ({} elements), m = {:.9g}, Ŵ = {:.9g}", xi, row_text, l.n, r.m, r.W);
  std::vector<std::string> clauses;
  if (r.edge || x[position] == -kInf) clauses = {c.edge, version >= 13 ? c.formula : c.coerce};
  else clauses = {version >= 13 ? c.formula : c.coerce, c.bound, c.hyp, "Elem.hyp"};
  Decision d = function_decision(v, i, members, r.b.element(position), r.b.bits[position], formula, fmt::format("axis = {} -> {}", axis, k),
                                 clauses, hypothesis(c, X.dtype()));
  d.situations.clear();
  if (r.edge) {
    const bool nan = std::any_of(x.begin(), x.end(), [](double a) { return a != a; });
    const bool pinf = std::any_of(x.begin(), x.end(), [](double a) { return a == kInf; });
    d.situations.push_back({c.edge, nan ? "a NaN in the row" : pinf ? "+Inf in the row" : "every element -Inf"});
  } else {
    d.situations.push_back({version >= 13 ? c.formula : c.coerce, ""});
    if (x[position] == -kInf) d.situations.push_back({c.edge, "an element -Inf"});
    if (r.m > 88) d.situations.push_back({c.hyp, "logits beyond exp's overflow: the maximum must be subtracted"});
    if (std::count(x.begin(), x.end(), r.m) > 1) d.situations.push_back({c.formula, "tied maxima"});
    if (!c.log_form && r.b.hi[position] > 0 && r.b.hi[position] < accuracy::format_of(X.dtype()).lambda)
      d.situations.push_back({c.bound, "a result below λ_T"});
  }
  return d;
}

std::vector<Reach> reach_softmax_family(const SoftmaxClauses& c, int version, const NodeValues& v, std::int64_t axis,
                                        const std::vector<Source>& sources) {
  const Tensor& X = *v.inputs[0];
  const std::int64_t k = normalised_axis(c, version, X, axis);
  const Layout l = axis_layout(version < 13, X.shape(), k, c.op);
  const DType t = X.dtype();
  std::vector<Reach> out;
  const std::vector<std::string> names(1, v.input_names[0]);
  const std::vector<Source> src(1, sources[0]);
  auto given = [&](Situation s, std::vector<double> values, std::vector<bool> write = {}) {
    if (static_cast<std::int64_t>(values.size()) != l.n) {
      out.push_back(reach_by_shape(s, false, fmt::format("the witness needs a row of {} elements; the rows have {}", values.size(), l.n)));
      return;
    }
    std::vector<std::uint64_t> bits;
    for (double a : values) bits.push_back(bits_in(t, a));
    out.push_back(reach_by_given(s, std::move(bits), l.n, src, names, std::move(write)));
  };
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(l.n, 1));
  std::vector<double> big(n, 100.0), tie(n, 1.0), ninf(n, -kInf), one_ninf(n, 0.0), nan(n, 0.0), pinf(n, 0.0);
  if (n >= 2) big[0] = 110.0, tie[0] = 2.0, tie[1] = 2.0, one_ninf[0] = -kInf;
  nan[0] = kNaN, pinf[0] = kInf;
  const bool wide = t != DType::Float16;  // 110 is beyond float16's range
  if (wide) given({c.hyp, "logits beyond exp's overflow: the maximum must be subtracted"}, big);
  if (n >= 2) given({c.formula, "tied maxima"}, tie);
  if (n >= 2) given({c.edge, "an element -Inf"}, one_ninf);
  given({c.edge, "every element -Inf"}, ninf);
  given({c.edge, "a NaN in the row"}, nan);
  given({c.edge, "+Inf in the row"}, pinf);
  return out;
}

}  // namespace sonnx::ops
