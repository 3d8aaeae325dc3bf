// spec/ops/lrn.md — read this file side by side with its sections.
//
// The definition, once: for X of shape (N, C, D1, ..., Dk) and element (n, c, s), the window of channels
// W(c) = [max(0, c − ⌊(size − 1)/2⌋), min(C − 1, c + ⌈(size − 1)/2⌉)] ([LRN.window]), S = Σ_{i ∈ W(c)}
// X[n, i, s]², and Y[n, c, s] = X[n, c, s] / (bias + (alpha/size)·S)^beta ([LRN.float.formula]); the oracle's
// binary64 enclosure of it (MPFR for double and where the rounding is undecided, [Elem.oracle], [Elem.run]),
// the bound of [LRN.bound] from the sum's θ, pow's K and the roundings of [LRN.hyp], and the elements that
// [LRN.edge] decides. Evaluation sums the window's squares over a channel's run of positions at once (S in
// the window's order for every position), then finishes each element with `element`, which `decide` uses.
#include "ops/lrn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/accuracy.hpp"
#include "ops/elementary.hpp"
#include "core/float16.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/computed.hpp"
#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> lrn_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [LRN.v1]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [LRN.v13]
  return t;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// X as (N, C, inner) and the window's half-widths ([LRN.window]).
struct Geometry {
  std::int64_t N = 0, C = 0, inner = 1, below = 0, above = 0;
};

Geometry geometry(int version, const Tensor& X, const LrnParams& p) {
  const auto allowed = lrn_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [LRN.err.dtype]
    refuse("LRN.err.dtype", "LRN-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
  if (X.rank() < 3)  // [LRN.err.rank]
    refuse("LRN.err.rank", "LRN-{}: X has shape {}; it must have rank 3 or more (N, C, D1, ...)", version, to_string(X.shape()));
  if (p.size < 1)  // [LRN.err.size]
    refuse("LRN.err.size", "LRN-{}: size = {}; it must be a positive integer (the number of channels summed)", version, p.size);
  Geometry g;
  g.N = X.shape()[0], g.C = X.shape()[1];
  for (std::size_t d = 2; d < X.shape().size(); ++d) g.inner *= X.shape()[d];
  g.below = (p.size - 1) / 2, g.above = p.size - 1 - g.below;  // ⌊(size − 1)/2⌋, ⌈(size − 1)/2⌉
  return g;
}

// Whether the float attribute a is a value of T.
bool in_type(DType t, double a) {
  if (t == DType::Float16) return exact_float16(a).has_value();
  if (t == DType::BFloat16) return exact_bfloat16(a).has_value();
  return true;
}

// The constants of one evaluation ([LRN.bound]).
struct Consts {
  DType t;
  accuracy::Format f;
  elementary::Perturbation pow;
  double alpha, beta, bias, c;  // c = alpha/size (binary64, within 2^-53 relative)
  std::int64_t size;
  int c_count;    // roundings of the coefficient: α converted, the division (or reciprocal and product)
  bool bias_conv;  // bias converted to T
  double c_fac;    // (1 + v)^(c + 1), rounded up
  double bias_v;   // |bias|·v when bias is converted to T, else 0
};

// What the bound takes from the window's length n ([LRN.bound]): the sum of the n squares (two factors
// each, e = 1): θ(n) and U ([Acc.bound]).
struct Window {
  double nd, thS, U;
};

Consts consts_of(DType t, const LrnParams& p) {
  Consts k{t, accuracy::format_of(t), elementary::perturbation(elementary::Fn::Pow, t), p.alpha, p.beta, p.bias,
           static_cast<double>(p.alpha) / static_cast<double>(p.size), p.size, 0, false, 0, 0};
  k.c_count = 2 + (in_type(t, p.alpha) ? 0 : 1);
  k.bias_conv = !in_type(t, p.bias);
  k.c_fac = std::pow(1 + k.f.v, k.c_count + 1) * (1 + 0x1p-50);
  k.bias_v = std::fabs(k.bias) * (k.bias_conv ? k.f.v : 0.0);
  return k;
}

Window window_of(const Consts& k, std::int64_t n) {
  const double nd = static_cast<double>(n);
  return {nd, accuracy::theta(k.t, n), (1 + accuracy::theta(k.t, std::max<std::int64_t>(n - 1, 0))) * (2 * nd - 1) * k.f.eta_bar};
}

// [LRN.bound] The arithmetic of one element with every value of its window finite: x, the window's
// binary64 sum of squares Ŝ (left to right, exact squares for the short types). No branch, so that a loop
// over it vectorises; kSmall: expm1_o's arguments taken to be below 0.35 in magnitude (its small form, no
// exponential: `fill` checks them).
struct Core {
  double q_hat, q_err, Dq, q_lo, rho_q, a1, arg_err, yhat, eo, Y, B;
};
template <bool kSmall> inline Core core(const Consts& k, const Window& g, double x, double S) {
  const double slack = 1 + 0x1p-40;
  const accuracy::Format& f = k.f;
  const double v = f.v, nd = g.nd, thS = g.thS, U = g.U;
  Core r;
  const double S_up = S * (1 + (nd + 1) * 0x1p-53);  // Ŝ: n − 1 binary64 additions of exact squares
  const double cabs = std::fabs(k.c) * (1 + 0x1p-52);
  const double cS = k.c * S;
  r.q_hat = k.bias + cS;  // the oracle's base
  r.q_err = ((std::fabs(k.bias) + cabs * S_up) * 0x1p-51 + nd * 0x1p-1070) * slack;  // |q̂ − q|
  // [LRN.bound] Δ_q >= |q̃ − q| for every evaluation of [LRN.hyp]
  const double c_fac = k.c_fac;
  r.Dq = ((1 + v) * (k.bias_v + cabs * (S_up * ((1 + thS) * c_fac - 1) + U * c_fac)) +
          v * (std::fabs(r.q_hat) + r.q_err) + f.eta_bar) *
         slack;
  r.q_lo = r.q_hat - r.q_err;  // `element`: q_lo > Δ_q + q_err, else [LRN.edge]
  r.rho_q = r.Dq / r.q_lo * slack;  // |q̃ − q| / q
  const double ab = std::fabs(k.beta);
  // (1 − ρ_q)^(−|β|) − 1 = e^(|β|·(−ln(1 − ρ_q))) − 1, −ln(1 − ρ) <= ρ/(1 − ρ)
  r.a1 = ab * r.rho_q / (1 - r.rho_q) * slack;
  const double rho_beta = kSmall ? elementary::expm1_small_o(r.a1) * (1 + 0x1p-43) * slack
                                 : (r.rho_q < 1 ? elementary::expm1_o(r.a1) * (1 + 0x1p-43) * slack : kInf);
  // the oracle: p̂ = exp_o(β·log_o(q̂)), ŷ = x / p̂
  const double lq = kSmall ? elementary::log_finite_o(r.q_hat) : elementary::log_o(r.q_hat);  // kSmall: q̂ > 0 (`fill` checks it)
  const double p_hat = elementary::exp_o(k.beta * lq);
  r.yhat = x / p_hat;
  // p̂'s relative error: q̂'s (q_err/q_lo) times |β|, log's 2^-47 and the product's 2^-53 of |β ln q|, exp's 2^-46
  r.arg_err = ab * (std::fabs(lq) * (0x1p-47 + 0x1p-52) + r.q_err / r.q_lo * (1 + 0x1p-20)) * slack;
  const double em = kSmall ? elementary::expm1_small_o(r.arg_err) : elementary::expm1_o(r.arg_err);
  const double eps_p = (em * (1 + 0x1p-43) + 0x1p-46) * (1 + 0x1p-45) * slack;
  const double eps_y = (eps_p / (1 - eps_p) + 0x1p-52) * slack;
  r.eo = (std::fabs(r.yhat) * eps_y + 0x1p-1069) * slack;
  r.Y = std::fabs(r.yhat) + r.eo;
  const double p_lo = p_hat * (1 - eps_p), p_up = p_hat * (1 + eps_p);
  // [LRN.bound] τ̄ = (1 + ρ_β)(1 + κ) − 1 + α_pow·max(1/p, p); B = |y|((1 + v)/(1 − τ̄) − 1) + η_T/2
  const double tau = ((1 + rho_beta) * (1 + k.pow.kappa) - 1 + k.pow.alpha * std::max(1 / p_lo, p_up)) * slack;
  const double B = elementary::pick(tau < 1, (r.Y * ((1 + v) / (1 - tau) - 1) + f.eta_bar / 2) * slack, kInf);
  // [LRN.bound] pow̃(q̃, β) may overflow to +Inf (then x/Inf = 0), pow̃(q̃, −β) underflow to 0: 0 conforms
  const double p_max = std::max(p_up, 1 / p_lo) * (1 + rho_beta) * slack;
  r.B = p_max * (1 + k.pow.kappa) + k.pow.alpha >= f.omega ? std::max(B, r.Y) : B;
  return r;
}

// [LRN.bound] an overflow to an infinity of x's sign
inline std::uint8_t overflow(const Consts& k, double x, const Core& r) {
  return (r.Y + r.B) * accuracy::kInflate >= k.f.omega ? (x > 0 ? accuracy::kPosInf : accuracy::kNegInf) : 0;
}

// [LRN.float.formula] [LRN.bound] [LRN.edge] One element: x, the window's values w[0..n), their binary64
// sum of squares Ŝ (left to right, exact squares for the short types).
accuracy::Element element(const Consts& k, const Window& g, double x, const double* w, std::int64_t n, double S, std::uint64_t* bits) {
  accuracy::Element e;
  // [LRN.edge] a NaN or an infinity in the window: the value IEEE's binary64 evaluation of the formula gives
  bool special = !std::isfinite(x);
  for (std::int64_t j = 0; j < n; ++j) special = special || !std::isfinite(w[j]);
  if (special) {
    const double q = k.bias + k.c * S;  // S = +Inf or NaN
    double p;
    if (q != q) p = kNaN;
    else if (q == kInf) p = k.beta > 0 ? kInf : k.beta < 0 ? 0.0 : 1.0;  // pow(+Inf, β) of C's Annex F
    else p = elementary::exp_o(k.beta * elementary::log_o(q));  // a finite base: only x is infinite
    const double y = x / p;
    e.hi = y;
    e.allowed = y != y ? accuracy::kNan : std::isinf(y) ? (y > 0 ? accuracy::kPosInf : accuracy::kNegInf) : accuracy::kFinite;
    *bits = unary_bits(k.t, y);
    return e;
  }
  const Core r = core<false>(k, g, x, S);
  if (!(r.q_lo > r.Dq + r.q_err)) {  // [LRN.edge] the base may be 0 or negative in some evaluation: any value
    e.hi = 0, e.radius = e.bound = std::numeric_limits<double>::max();
    e.allowed = accuracy::kFinite | accuracy::kPosInf | accuracy::kNegInf | accuracy::kNan;
    *bits = unary_bits(k.t, 0.0);
    return e;
  }
  e.hi = r.yhat;
  e.allowed = accuracy::kFinite;
  if (!(r.B < kInf)) {  // the bound says nothing: any value
    e.radius = e.bound = std::numeric_limits<double>::max();
    e.allowed |= accuracy::kPosInf | accuracy::kNegInf | accuracy::kNan;
    *bits = accuracy::run_bits(k.t, e);
    return e;
  }
  e.allowed |= overflow(k, x, r);
  double eo = r.eo;
  std::uint64_t b = 0;
  const bool is_double = k.t == DType::Double;
  if (is_double || !elementary::rounding_decided(k.t, r.yhat, eo * accuracy::kInflate, &b)) {
    const elementary::Pair mp = elementary::lrn_mp(x, w, static_cast<std::size_t>(n), k.alpha, k.size, k.bias, k.beta);
    if (is_double) e.hi = mp.hi, e.lo = mp.lo, eo = std::fabs(mp.hi) * mp.rel + 0x1p-1072;
    b = elementary::round_pair(k.t, mp);
  }
  e.oracle = eo * accuracy::kInflate;
  e.bound = r.B * accuracy::kInflate + accuracy::kTiny;
  e.radius = (e.bound + e.oracle) * accuracy::kInflate + accuracy::kTiny;
  *bits = b;
  return e;
}

// `element` for the common element (every value of the window finite, the base bounded away from 0,
// expm1_o's arguments small, a finite B), count positions of one channel at once: x[s], the window's sum
// Ŝ[s]; odd[s] not 0 for the others, which `element` finishes one by one (a loop that vectorises).
bool fill(const Consts& k, const Window& g, const double* __restrict x, const double* __restrict S, double* __restrict hi,
          double* __restrict oracle, double* __restrict bound, std::uint8_t* __restrict allowed, std::uint8_t* __restrict odd,
          std::size_t count) {
  unsigned some = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const Core r = core<true>(k, g, x[s], S[s]);
    hi[s] = r.yhat, oracle[s] = r.eo * accuracy::kInflate, bound[s] = r.B * accuracy::kInflate + accuracy::kTiny;
    allowed[s] = static_cast<std::uint8_t>(accuracy::kFinite | overflow(k, x[s], r));
    odd[s] = static_cast<std::uint8_t>(!(x[s] - x[s] == 0) | !(S[s] - S[s] == 0) | !(r.q_lo > r.Dq + r.q_err) | !(r.rho_q < 1) |
                                       !((r.a1 > -0.35) & (r.a1 < 0.35)) | !((r.arg_err > -0.35) & (r.arg_err < 0.35)) | !(r.B < kInf));
    some |= odd[s];
  }
  return some != 0;
}

template <class T> double at(const Tensor& X, std::int64_t k) { return real_value(X.values<T>()[static_cast<std::size_t>(k)]); }

}  // namespace

Tensor lrn(int version, const Tensor& X, const LrnParams& p) {
  const Geometry g = geometry(version, X, p);
  Tensor Y(X.dtype(), X.shape(), "LRN output Y", Fill::Unspecified);  // [LRN.shape]
  if (Y.size() == 0) return Y;
  const Consts k = consts_of(X.dtype(), p);
  auto annex = std::make_shared<accuracy::Annex>();
  annex->dtype = X.dtype();
  annex->clause = "LRN.float.formula";
  annex->resize(static_cast<std::size_t>(Y.size()));
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      const auto inner = static_cast<std::size_t>(g.inner);
      std::vector<double> S(inner), xc(inner), w(static_cast<std::size_t>(p.size));
      std::vector<std::uint8_t> odd(inner);
      FinishBlock b;
      b.resize(k.t, inner);
      const bool is_double = k.t == DType::Double;
      for (std::int64_t n = 0; n < g.N; ++n)
        for (std::int64_t c = 0; c < g.C; ++c) {
          const std::int64_t lo = std::max<std::int64_t>(0, c - g.below), hi = std::min(g.C - 1, c + g.above);
          const Window win = window_of(k, hi - lo + 1);
          // [LRN.window] [LRN.float.formula] Ŝ = Σ_{i = lo..hi} x_i², left to right, for the whole run at once
          std::fill(S.begin(), S.end(), 0.0);
          for (std::int64_t i = lo; i <= hi; ++i) {
            const T* const xi = x + (n * g.C + i) * g.inner;
            for (std::size_t s = 0; s < inner; ++s) {
              const double a = real_value(xi[s]);
              S[s] += a * a;
            }
          }
          const std::int64_t base = (n * g.C + c) * g.inner;
          for (std::size_t s = 0; s < inner; ++s) xc[s] = real_value(x[base + static_cast<std::int64_t>(s)]);
          // the window of position s, for `element` and MPFR
          auto window = [&](std::size_t s) {
            for (std::int64_t i = lo; i <= hi; ++i) w[static_cast<std::size_t>(i - lo)] = real_value(x[(n * g.C + i) * g.inner + static_cast<std::int64_t>(s)]);
          };
          bool some = true;
          if (!is_double)
            at_active_level([&] { some = fill(k, win, xc.data(), S.data(), b.hi.data(), b.oracle.data(), b.bound.data(), b.allowed.data(), odd.data(), inner); });
          else
            std::fill(odd.begin(), odd.end(), std::uint8_t{1});  // double: MPFR's centre, one by one
          const bool undecided = !is_double && b.decide(k.t, inner);
          if (some)
            for (std::size_t s = 0; s < inner; ++s)
              if (odd[s]) {
                window(s);
                std::uint64_t bits = 0;
                const accuracy::Element e = element(k, win, xc[s], w.data(), hi - lo + 1, S[s], &bits);
                b.set(s, e, bits);
              }
          if (undecided)  // [Elem.run] the MPFR value decides
            for (std::size_t s = 0; s < inner; ++s)
              if (b.undecided[s]) {
                window(s);
                b.bits[s] = elementary::round_pair(k.t, elementary::lrn_mp(xc[s], w.data(), static_cast<std::size_t>(hi - lo + 1), k.alpha,
                                                                           k.size, k.bias, k.beta));
              }
          store_block(b, inner, *annex, y, static_cast<std::size_t>(base), 1);
        }
    }
  });
  Y.annex = std::move(annex);
  return Y;
}

Decision decide_lrn(int version, const NodeValues& v, const LrnParams& p, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Geometry g = geometry(version, X, p);
  const Consts k = consts_of(X.dtype(), p);
  const std::int64_t offset = offset_of(i, row_major_strides(X.shape()));
  const std::int64_t n = offset / (g.C * g.inner), c = (offset / g.inner) % g.C, s = offset % g.inner;
  const std::int64_t lo = std::max<std::int64_t>(0, c - g.below), hi = std::min(g.C - 1, c + g.above);
  std::vector<double> w;
  std::vector<Member> members;
  double S = 0;
  for (std::int64_t q = lo; q <= hi; ++q) {
    const std::int64_t o = (n * g.C + q) * g.inner + s;
    const double a = dispatch(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) return at<T>(X, o);
      else return 0.0;
    });
    w.push_back(a), members.push_back(Member{0, o});
    S += a * a;  // [LRN.float.formula] the window's order, as the evaluation sums
  }
  const double x = member_real(v, Member{0, offset});
  std::uint64_t bits = 0;
  const accuracy::Element e = element(k, window_of(k, hi - lo + 1), x, w.data(), hi - lo + 1, S, &bits);
  const std::string formula =
      fmt::format("{} / (bias + alpha/size·Σ_{{c' = {}..{}}} X[{}, c', ...]²)^beta, Σ = {:.9g}", element_name(v.input_names[0], i), lo,
                  hi, n, S);
  const std::string parameters = fmt::format("size = {}, alpha = {}, beta = {}, bias = {}", p.size, p.alpha, p.beta, p.bias);
  const bool edge = !std::isfinite(S) || !std::isfinite(x) || e.radius == std::numeric_limits<double>::max();
  std::vector<std::string> clauses = edge ? std::vector<std::string>{"LRN.edge", "LRN.float.formula"}
                                          : std::vector<std::string>{"LRN.float.formula", "LRN.bound", "LRN.hyp", "LRN.window", "Elem.hyp"};
  Decision d = function_decision(v, i, members, e, bits, formula, parameters, clauses,
                                 fmt::format("K_pow = {:g}: κ = {:.3g}, α = {:.3g}", elementary::ulps(elementary::Fn::Pow, X.dtype()),
                                             k.pow.kappa, k.pow.alpha));
  if (hi - lo + 1 < p.size) d.situations.push_back({"LRN.window", "a window cut by the first or last channel"});
  if (edge) d.situations.push_back({"LRN.edge", ""});
  return d;
}

std::vector<Reach> reach_lrn(int version, const NodeValues& v, const LrnParams& p, const std::vector<Source>&) {
  const Geometry g = geometry(version, *v.inputs[0], p);
  return {reach_by_shape({"LRN.window", "a window cut by the first or last channel"}, g.C >= 1 && (g.below > 0 || g.above > 0),
                         "size is 1: every window is its own channel")};
}

}  // namespace sonnx::ops
