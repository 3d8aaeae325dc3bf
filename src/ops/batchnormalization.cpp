// spec/ops/batchnormalization.md — read this file side by side with its sections.
//
// The definition, once: per channel ([BatchNormalization.channel]) the factor â = γ/√(σ² + ε), the
// coefficient b̂ = β − â·μ, the rounding counts and the coefficients of the bound
// ([BatchNormalization.counts], [BatchNormalization.order]), or the channel's degenerate kind
// ([BatchNormalization.edge]); per element ŷ = â·x + b̂ and Ŝ = |â·x| + (|â|·|μ| + |β|), enclosed by the
// accuracy model ([Acc.verdict]) and written as fl_T(ŷ) ([Acc.run]). The element loop is a plain loop
// over a channel's run; an element that is not plain (non-finite, may overflow) goes through the
// one-element definition `element`, which `decide` uses too.
#include "ops/batchnormalization.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/accuracy.hpp"
#include "core/float16.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"

namespace sonnx::ops {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSlack = 1 + 0x1p-40;  // covers the binary64 roundings of â, 1/ŝ against a, 1/√w

std::vector<DType> types_of(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [BatchNormalization.versions] 1 to 9
  if (version >= 14) t.push_back(DType::BFloat16);                       // [BatchNormalization.versions] 14, 15
  return t;
}

bool accepted(int version, DType t) {
  const auto allowed = types_of(version);
  return std::find(allowed.begin(), allowed.end(), t) != allowed.end();
}

// Whether x is a value of T (NaN and infinities are).
bool in_type(DType t, double x) {
  if (!std::isfinite(x)) return true;
  switch (t) {
    case DType::Float16: return exact_float16(x).has_value();
    case DType::BFloat16: return exact_bfloat16(x).has_value();
    case DType::Float: return static_cast<double>(static_cast<float>(x)) == x;
    default: return true;
  }
}

// The values of a float tensor as doubles (exact).
std::vector<double> doubles(const Tensor& x) {
  return dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> out;
    if constexpr (is_float_v<T>) {
      out.reserve(static_cast<std::size_t>(x.size()));
      for (T v : x.values<T>()) out.push_back(real_value(v));
    }
    return out;
  });
}

// [BatchNormalization.channel] X as (N, P) with P = C·inner; element (n, j) takes the parameters at
// spatial ? j / inner : j.
struct Layout {
  std::int64_t N = 0, C = 0, inner = 1, P = 0, params = 0;
  bool spatial = true;
};

Layout layout(int version, const Tensor& X, const Tensor& scale, const Tensor& B, const Tensor& mean, const Tensor& var,
              const BatchNormParams& p) {
  const DType t = X.dtype();
  if (!accepted(version, t))  // [BatchNormalization.err.dtype]
    refuse("BatchNormalization.err.dtype", "BatchNormalization-{} does not accept {} for X (T in {{{}}})", version, name(t),
           join_names(types_of(version)));
  const Tensor* params[4] = {&scale, &B, &mean, &var};
  const char* names[4] = {"scale", "B", "mean", "var"};
  for (int k = 0; k < 4; ++k)
    if (!accepted(version, params[k]->dtype()))  // [BatchNormalization.err.dtype]
      refuse("BatchNormalization.err.dtype", "BatchNormalization-{} does not accept {} for {} (in {{{}}})", version,
             name(params[k]->dtype()), names[k], join_names(types_of(version)));
  // [BatchNormalization.err.type] [BatchNormalization.versions] versions 1 to 9: one T; 14: scale and B of T,
  // mean and var of one U; 15: scale and B of one T1, mean and var of one T2
  const bool same_sb = scale.dtype() == B.dtype(), same_mv = mean.dtype() == var.dtype();
  bool ok = same_sb && same_mv;
  if (version < 14) ok = ok && scale.dtype() == t && mean.dtype() == t;
  else if (version < 15) ok = ok && scale.dtype() == t;
  if (!ok)
    refuse("BatchNormalization.err.type", "BatchNormalization-{}: X is {}, scale {}, B {}, mean {}, var {}: {}", version, name(t),
           name(scale.dtype()), name(B.dtype()), name(mean.dtype()), name(var.dtype()),
           version < 14 ? "every input must have the type of X"
           : version < 15 ? "scale and B must have the type of X, mean and var one type"
                          : "scale and B must share one type, and mean and var one type");
  if (X.rank() == 0)  // [BatchNormalization.err.rank]
    refuse("BatchNormalization.err.rank", "BatchNormalization-{}: X is a scalar; it must have rank 1 or more (N, C, D1, ...)", version);
  Layout l;
  const Shape& s = X.shape();
  l.N = s[0];
  l.C = s.size() >= 2 ? s[1] : 1;  // [BatchNormalization.channel] rank 1: C = 1
  for (std::size_t d = 2; d < s.size(); ++d) l.inner *= s[d];
  l.P = l.C * l.inner;
  l.spatial = version >= 9 || p.spatial != 0;
  l.params = l.spatial ? l.C : l.P;
  // [BatchNormalization.channel] shapes: (C) when spatial; (C, D1, ..., Dn) — or, versions 1 and 6, flat — otherwise
  Shape want = l.spatial ? Shape{l.C} : Shape(s.begin() + std::min<std::size_t>(1, s.size()), s.end());
  if (!l.spatial && s.size() == 1) want = Shape{1};
  for (int k = 0; k < 4; ++k) {
    const Shape& ps = params[k]->shape();
    const bool fits = ps == want || (!l.spatial && version < 7 && ps == Shape{l.P});
    if (!fits)  // [BatchNormalization.err.shape]
      refuse("BatchNormalization.err.shape", "BatchNormalization-{}: {} has shape {}; with X of shape {}{} it must be {}", version,
             names[k], to_string(ps), to_string(s), l.spatial ? "" : " and spatial 0", to_string(want));
  }
  return l;
}

// One channel's parameters and what the bound needs of them ([BatchNormalization.counts],
// [BatchNormalization.order], [BatchNormalization.edge]).
struct Channel {
  enum Kind { Regular, Nan, NonFinite, Any } kind = Regular;
  double gamma = 0, beta = 0, mu = 0;
  double a = 0, b = 0, m0 = 0;  // â, b̂ = β − â·μ, |â|·|μ| + |β|
  double inv_s = 0;             // 1/ŝ
  double theta = 0;             // θ(D)
  double lam = 0;               // Σλ in units of η̄, without the per-element part
  bool chi = false;             // [BatchNormalization.counts] χ: a' may be below λ_T (or γ converted and tiny)
  bool per_element = false;     // the coefficients depend on x: every element through `element`
  bool tiny_double = false;     // T double and |â| < 2^-1000: the oracle's absolute error scales with |x|
  double K = 1;                 // max(1, 1/√w, |a|), bounding the partial values x ⊖ μ, its quotient
  double x_lim = -1;            // |x| <= x_lim: no partial value of x can overflow
  accuracy::Sums base;          // n, D, m, Σλ, P of the channel
  accuracy::Coefficients coef;  // coefficients(t, base), adjusted for the binary64 oracle
};

// [BatchNormalization.counts] c_in, the count of the radicand's inputs' relative perturbation r.
std::int64_t input_count(double r, double u) {
  if (r == 0) return 0;
  if (r <= u) return 1;  // 1 − r >= 1 − u >= 1 − v: one rounding's exponents
  // ⌈r/((1 − r)·v)⌉ <= this (u <= v; every operation moved up)
  const double q = std::nextafter(r / std::nextafter((1 - r) * u * (1 - 0x1p-50), 0.0), kInf);
  return q >= 0x1p40 ? (std::int64_t{1} << 40) : static_cast<std::int64_t>(std::ceil(q));
}

Channel channel_of(DType t, double gamma, double beta, double mu, double var, double eps, DType scale_t, DType mean_t) {
  const accuracy::Format& f = accuracy::format_of(t);
  Channel ch;
  ch.gamma = gamma, ch.beta = beta, ch.mu = mu;
  const double w = var + eps;  // [BatchNormalization.order] ŵ
  // [BatchNormalization.edge] NaN parameters, σ² + ε = −∞ or NaN: a NaN
  if (std::isnan(gamma) || std::isnan(beta) || std::isnan(mu) || std::isnan(w) || w == -kInf) {
    ch.kind = Channel::Nan;
    return ch;
  }
  // [BatchNormalization.counts] the conversions of ε and σ² to T: ξ_ε, ξ_σ
  const double xi_eps = in_type(t, eps) ? 0.0 : std::max(f.v * std::fabs(eps), f.eta_bar);
  const double xi_var = (mean_t != t && !in_type(t, var)) ? std::max(f.v * std::fabs(var), f.eta_bar) : 0.0;
  const double xi = xi_eps + xi_var == 0 ? 0.0 : std::nextafter(xi_eps + xi_var, kInf);
  std::int64_t c_in = 0;
  if (w != kInf) {
    const double w_lo = std::fabs(w) * (1 - 0x1p-52);  // |w| >= this
    const bool regular = var > -eps && w_lo > xi * (1 + 0x1p-50);
    if (!regular) {  // [BatchNormalization.edge] a degenerate channel
      if (var < -eps && w_lo > xi * (1 + 0x1p-50)) ch.kind = Channel::Nan;  // w' < 0 in every evaluation
      else if (var == -eps && xi_eps + xi_var == 0) ch.kind = Channel::NonFinite;  // w' = 0: 1/0
      else ch.kind = Channel::Any;  // w' of either sign
      return ch;
    }
    c_in = input_count(xi == 0 ? 0.0 : std::nextafter(xi / w_lo, kInf), f.u);  // r = ξ/w, rounded up
    if (c_in >= (std::int64_t{1} << 40)) {  // r within 2^-40·… of 1: θ(D) not finite
      ch.kind = Channel::Any;
      return ch;
    }
  }
  if (std::isinf(gamma)) {  // [BatchNormalization.edge] a = ±∞ (σ² = +∞: ∞/∞, a NaN)
    ch.kind = w == kInf ? Channel::Nan : Channel::NonFinite;
    return ch;
  }
  // [BatchNormalization.order] â = γ/√ŵ, b̂ = β − â·μ, m0 = |â|·|μ| + |β| (binary64, σ² = +∞: â = ±0)
  const double s = std::sqrt(w);
  ch.a = gamma / s;
  ch.inv_s = 1 / s;
  ch.b = beta - ch.a * mu;
  ch.m0 = std::fabs(ch.a) * std::fabs(mu) + std::fabs(beta);
  // [BatchNormalization.counts] e = c_in + 6 + g + m, D = 2 + e: the largest count of the forms of [BatchNormalization.hyp]
  const bool g_conv = scale_t != t && !in_type(t, gamma), m_conv = mean_t != t && !in_type(t, mu);
  const bool b_conv = scale_t != t && !in_type(t, beta);
  const std::int64_t D = c_in + 8 + (g_conv ? 1 : 0) + (m_conv ? 1 : 0);
  ch.theta = accuracy::theta(t, D);
  const double a_mag = std::fabs(ch.a) * kSlack;
  const bool a_nonzero = gamma != 0 && w != kInf;
  ch.chi = (a_nonzero && std::fabs(ch.a) * (1 - ch.theta) < 2 * f.lambda) || (g_conv && std::fabs(gamma) < 2 * f.lambda);
  ch.tiny_double = t == DType::Double && a_nonzero && std::fabs(ch.a) < 0x1p-1000;
  ch.per_element = ch.chi || ch.tiny_double;
  const double grow = (1 + ch.theta) * (1 + ch.theta);
  // [BatchNormalization.counts] U = (1 + θ(D))²·η̄·(6 + |γ| + |a| + χ·(|x| + |μ|)·max(1, 1/√w)); for double the
  // oracle's absolute errors 2^-1072·(2 + |μ|) ([BatchNormalization.order]), in units of η̄ = 2^-1074
  ch.lam = grow * (6 + std::fabs(gamma) + a_mag) + (t == DType::Double ? 4 * (2 + std::fabs(mu)) : 0.0);
  ch.K = std::max({1.0, ch.inv_s * kSlack, a_mag});
  // [Acc.overflow] P: a', q, and the converted parameters
  double P = (1 + ch.theta) * std::max(a_mag, ch.inv_s * kSlack) * kSlack + f.eta_bar;
  for (double x : {g_conv ? gamma : 0.0, b_conv ? beta : 0.0, m_conv ? mu : 0.0, xi_var > 0 ? var : 0.0})
    P = std::max(P, (1 + f.v) * std::fabs(x));
  ch.base.n = 3;
  ch.base.depth = D;
  ch.base.ops = 7;  // [BatchNormalization.order] m = 7
  ch.base.lambda_units = ch.lam * kSlack;
  ch.base.partial = P;
  ch.base.double_type = false;  // [BatchNormalization.order] binary64 for every T: e_o = γ_7·Ŝ↑
  ch.coef = accuracy::coefficients(t, ch.base);
  if (t == DType::Double) {
    ch.coef.mag_add = 4 * 0x1p-1074;          // Ŝ's own products may lose a subnormal unit each
    ch.coef.oracle_factor += 0x1p-70;         // 2^-1072·|x| <= 2^-72·|â·x| when |â| >= 2^-1000
  }
  // |x| <= x_lim: (1 + θ)·(|x| + |μ|)·K·kInflate stays below Ω_T with room for its roundings
  ch.x_lim = f.omega / (accuracy::kInflate * (1 + ch.theta) * ch.K * (1 + 0x1p-30)) - std::fabs(mu) - 1;
  return ch;
}

// The coefficients of element x of a channel: the channel's, or for a per-element channel with the
// χ part of U (and for double the oracle's |x|-scaled absolute error), and P with the partial values of x.
accuracy::Coefficients coefficients_at(DType t, const Channel& ch, double x) {
  const double ax = std::isfinite(x) ? std::fabs(x) : 0.0;
  accuracy::Coefficients c = ch.coef;
  if (ch.per_element) {
    accuracy::Sums s = ch.base;
    double lam = ch.lam;
    if (ch.chi) lam += (1 + ch.theta) * (1 + ch.theta) * (ax + std::fabs(ch.mu)) * std::max(1.0, ch.inv_s * kSlack);
    if (ch.tiny_double) lam += 4 * ax;
    s.lambda_units = lam * kSlack;
    c = accuracy::coefficients(t, s);
    if (t == DType::Double) {
      c.mag_add = 4 * 0x1p-1074 + (ch.tiny_double ? 4 * 0x1p-1074 * (ax + std::fabs(ch.mu)) : 0.0);
      c.oracle_factor += 0x1p-70;
    }
  }
  // [BatchNormalization.counts] P with x ⊖ μ and its quotient: (1 + θ)·(|x| + |μ|)·K
  c.partial = std::max(c.partial, (1 + ch.theta) * (ax + std::fabs(ch.mu)) * ch.K * kSlack + accuracy::format_of(t).eta_bar);
  return c;
}

// The one-element definition: the enclosure of Y[i] = a·x − a·μ + β ([BatchNormalization.float.formula]).
accuracy::Element element(DType t, const Channel& ch, double x, accuracy::Sums* counters = nullptr) {
  accuracy::Element e;
  switch (ch.kind) {
    case Channel::Nan:  // [BatchNormalization.edge] only a NaN
      e.allowed = accuracy::kNan, e.hi = kNaN;
      return e;
    case Channel::NonFinite:  // [BatchNormalization.edge] NaN, +Inf, −Inf
      e.allowed = accuracy::kNan | accuracy::kPosInf | accuracy::kNegInf, e.hi = kNaN;
      return e;
    case Channel::Any:  // [BatchNormalization.edge] any value: the largest finite radius, run writes +0
      e.allowed = accuracy::kFinite | accuracy::kNan | accuracy::kPosInf | accuracy::kNegInf;
      e.hi = 0, e.radius = e.bound = DBL_MAX;
      return e;
    default: break;
  }
  const accuracy::Coefficients c = coefficients_at(t, ch, x);
  accuracy::Sums s = ch.base;
  const double p = ch.a * x;  // [BatchNormalization.order] ŷ = â·x + b̂, Ŝ = |â·x| + m0
  s.sigma = p + ch.b;
  s.mag = std::fabs(p) + ch.m0;
  if (!std::isfinite(s.sigma) || !std::isfinite(s.mag)) {
    // [Acc.nonfinite] [BatchNormalization.edge] the terms a·x, −a·μ, β decide; an infinite x or μ meeting a
    // factor a' an evaluation may round to zero (χ) may give a NaN
    const double terms[3] = {p, -(ch.a * ch.mu), ch.beta};
    s.sigma = -0.0, s.mag = 0;
    for (double v : terms) {
      if (std::isnan(v)) s.nan_term = true;
      else if (v == kInf) s.pos_inf_term = true;
      else if (v == -kInf) s.neg_inf_term = true;
      else s.sigma += v, s.mag += std::fabs(v);
    }
    const bool infinite_factor = std::isinf(x) || std::isinf(ch.mu);
    if ((infinite_factor && ch.chi) || (std::isfinite(x) && std::isfinite(ch.mu) && (std::isinf(terms[0]) || std::isinf(terms[1]))))
      s.three_factor_inf = true;  // (double: a finite product beyond binary64's range, [Acc.oracle])
  }
  if (counters) *counters = s;
  return accuracy::finish(c, s);
}

template <class T> T to_type(double x) {  // [Acc.run] the binary64 value rounded once to T
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(x);
  else if constexpr (std::is_same_v<T, double>) return x;
  else if constexpr (std::is_same_v<T, float16>) return float16{accuracy::to_float16_bits(x)};
  else return bfloat16{accuracy::to_bfloat16_bits(x)};
}

std::vector<Channel> channels_of(const Tensor& X, const Tensor& scale, const Tensor& B, const Tensor& mean, const Tensor& var,
                                 const BatchNormParams& p, const Layout& l) {
  const std::vector<double> g = doubles(scale), b = doubles(B), m = doubles(mean), v = doubles(var);
  std::vector<Channel> out;
  out.reserve(static_cast<std::size_t>(l.params));
  for (std::size_t k = 0; k < static_cast<std::size_t>(l.params); ++k)
    out.push_back(channel_of(X.dtype(), g[k], b[k], m[k], v[k], p.epsilon, scale.dtype(), mean.dtype()));
  return out;
}

Channel channel_at(const NodeValues& v, const BatchNormParams& p, const Layout& l, std::int64_t k) {
  auto one = [&](std::size_t input) {
    const Tensor& t = *v.inputs[input];
    return dispatch(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) return real_value(t.values<T>()[static_cast<std::size_t>(k)]);
      else return 0.0;
    });
  };
  (void)l;
  return channel_of(v.inputs[0]->dtype(), one(1), one(2), one(3), one(4), p.epsilon, v.inputs[1]->dtype(), v.inputs[3]->dtype());
}

}  // namespace

void check_batchnorm_mode(int version, const BatchNormParams& p, std::size_t outputs) {
  // [BatchNormalization.mode] training_mode not 0, or an output besides Y: the training mode
  if (version >= 14 && p.training_mode != 0)
    refuse("BatchNormalization.err.unsupported-training",
           "BatchNormalization-{}: training_mode = {}: the training mode is outside the SONNX profile (inference only)", version,
           p.training_mode);
  if (outputs > 1)
    refuse("BatchNormalization.err.unsupported-training",
           "BatchNormalization-{}: the node names {} outputs; the outputs besides Y (mean, var, saved_mean, saved_var, running_mean, "
           "running_var) are the training mode's, outside the SONNX profile{}",
           version, outputs, version < 7 ? fmt::format(" (is_test = {})", p.is_test) : std::string());
}

Tensor batch_normalization(int version, const Tensor& X, const Tensor& scale, const Tensor& B, const Tensor& mean,
                           const Tensor& var, const BatchNormParams& p, std::size_t outputs) {
  check_batchnorm_mode(version, p, outputs);
  const Layout l = layout(version, X, scale, B, mean, var, p);
  Tensor Y(X.dtype(), X.shape(), "BatchNormalization output Y", Fill::Unspecified);
  if (Y.size() == 0) return Y;
  const DType t = X.dtype();
  const std::vector<Channel> channels = channels_of(X, scale, B, mean, var, p, l);
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = t;
  annex->clause = "BatchNormalization.float.formula";
  annex->resize(static_cast<std::size_t>(Y.size()));
  dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      const std::int64_t run = l.spatial ? l.inner : 1;
      std::vector<double> sigma(static_cast<std::size_t>(run)), mag(static_cast<std::size_t>(run)), xs(static_cast<std::size_t>(run));
      // double: the annex's τ is 0 (the oracle is binary64, [BatchNormalization.order])
      const std::vector<double> zeros(t == DType::Double ? static_cast<std::size_t>(run) : 0, 0.0);
      const double* const tau = zeros.empty() ? nullptr : zeros.data();
      auto one_by_one = [&](const Channel& ch, std::size_t at) {
        const accuracy::Element e = element(t, ch, real_value(x[at]));
        const std::uint64_t bits = accuracy::run_bits(t, e);  // [Acc.run]
        std::memcpy(y + at, &bits, sizeof(T));
        annex->set(at, e);
      };
      for (std::int64_t n = 0; n < l.N; ++n)
        for (std::int64_t j = 0; j < l.P; j += run) {
          const Channel& ch = channels[static_cast<std::size_t>(l.spatial ? j / l.inner : j)];
          const auto at = static_cast<std::size_t>(n * l.P + j);
          const auto count = static_cast<std::size_t>(run);
          if (ch.kind != Channel::Regular || ch.per_element) {
            for (std::size_t q = 0; q < count; ++q) one_by_one(ch, at + q);
            continue;
          }
          // [BatchNormalization.order] ŷ = â·x + b̂, Ŝ = |â·x| + m0: a plain loop over the run
          const double a = ch.a, b = ch.b, m0 = ch.m0, lim = ch.x_lim;
          int far = 0;
          for (std::size_t q = 0; q < count; ++q) xs[q] = real_value(x[at + q]);
          for (std::size_t q = 0; q < count; ++q) {
            const double pr = a * xs[q];
            sigma[q] = pr + b;
            mag[q] = std::fabs(pr) + m0;
            far |= !(std::fabs(xs[q]) <= lim);
          }
          // [Acc.run] [Acc.verdict] the run at once, then its exceptions one by one
          if (accuracy::enclose_run(ch.coef, sigma.data(), tau, mag.data(), count, *annex, at, y,
                                    [](double v) { return to_type<T>(v); }) ||
              far)
            for (std::size_t q = 0; q < count; ++q)
              if (accuracy::exceptional(ch.coef, sigma[q], 0.0, mag[q]) || !(std::fabs(xs[q]) <= lim)) one_by_one(ch, at + q);
        }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_batch_normalization(int version, const NodeValues& v, const BatchNormParams& p,
                                    const std::vector<std::int64_t>& index) {
  const Tensor& X = *v.inputs[0];
  const Layout l = layout(version, X, *v.inputs[1], *v.inputs[2], *v.inputs[3], *v.inputs[4], p);
  const std::int64_t offset = offset_of(index, row_major_strides(X.shape()));
  const std::int64_t j = offset % std::max<std::int64_t>(l.P, 1);
  const std::int64_t k = l.spatial ? j / l.inner : j;  // [BatchNormalization.channel] c(i)
  const Channel ch = channel_at(v, p, l, k);
  const DType t = X.dtype();
  const double x = member_real(v, Member{0, offset});
  accuracy::Sums sums = ch.base;
  Computation comp;
  comp.element = element(t, ch, x, &sums);
  comp.sums = sums;
  const std::string c = fmt::format("[{}]", k);
  comp.formula = fmt::format("a·{} − a·{}{} + {}{}, a = {}{}/√({}{} + ε)", element_name(v.input_names[0], index), v.input_names[3], c,
                             v.input_names[2], c, v.input_names[1], c, v.input_names[4], c);
  std::vector<Term> terms = {Term{{Member{0, offset}}, {{"a", ch.a}}}, Term{{Member{3, k}}, {{"-a", -ch.a}}},
                             Term{{Member{2, k}}, {}}};
  comp.terms = 3;
  comp.term = [terms](std::int64_t q) { return terms[static_cast<std::size_t>(q)]; };
  const std::vector<TermFactors> values = {{ch.a, x}, {-ch.a, ch.mu}, {ch.beta}};
  const std::string parameters =
      fmt::format("epsilon = {}, channel {}, a = {:.9g}, b = {:.9g}, D = {}{}", p.epsilon, k, ch.a, ch.b, ch.base.depth,
                  ch.kind == Channel::Regular ? "" : ch.kind == Channel::Nan ? " (NaN channel)" : ch.kind == Channel::NonFinite ? " (a = ±Inf or 1/0)" : " (var + epsilon within the conversion of epsilon of 0: any value)");
  std::vector<std::string> more = {"BatchNormalization.counts", "BatchNormalization.order", "BatchNormalization.channel"};
  if (ch.kind != Channel::Regular) more.insert(more.begin(), "BatchNormalization.edge");
  Decision d = computed_decision(v, index, std::move(comp), parameters, "BatchNormalization.float.formula", more, values);
  if (!l.spatial) d.situations.push_back({"BatchNormalization.channel", "spatial 0: parameters per activation"});
  if (ch.kind != Channel::Regular) d.situations.push_back({"BatchNormalization.edge", "a degenerate or non-finite channel"});
  return d;
}

std::vector<Reach> reach_batch_normalization(int version, const NodeValues& v, const BatchNormParams& p, const std::vector<Source>&) {
  const Layout l = layout(version, *v.inputs[0], *v.inputs[1], *v.inputs[2], *v.inputs[3], *v.inputs[4], p);
  std::vector<Reach> out;
  out.push_back(reach_by_shape({"BatchNormalization.channel", "spatial 0: parameters per activation"}, !l.spatial,
                               "spatial is 1 (or the version has no spatial)"));
  return out;
}

}  // namespace sonnx::ops
