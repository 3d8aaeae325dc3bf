// Test-side exact arithmetic and IEEE arithmetic of the float types (gen/exact.hpp).
#include "gen/exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace sonnx::props::exact {

Fmt fmt_of(DType t) {
  switch (t) {
    case DType::Float16: return Fmt::F16;
    case DType::BFloat16: return Fmt::BF16;
    case DType::Float: return Fmt::F32;
    case DType::Double: return Fmt::F64;
    default: throw std::logic_error("exact::fmt_of: not a float type");
  }
}

const char* fmt_name(Fmt f) {
  switch (f) {
    case Fmt::F16: return "float16";
    case Fmt::BF16: return "bfloat16";
    case Fmt::F32: return "binary32";
    case Fmt::F64: return "binary64";
    default: return "binary128";
  }
}

void showValue(Fmt f, std::ostream& os) { os << fmt_name(f); }

// spec/common/dtypes.md: [Common.dtype.float16] w = 5, 10 fraction bits, bias 15; [Common.dtype.bfloat16]
// w = 8, 7 fraction bits, bias 127; binary32 8/23; binary64 11/52; binary128 15/112.
FormatFacts facts(Fmt f) {
  auto make = [](int w, int frac) {
    const int bias = (1 << (w - 1)) - 1;
    return FormatFacts{w, frac, frac + 1, 1 - bias, bias};
  };
  switch (f) {
    case Fmt::F16: return make(5, 10);
    case Fmt::BF16: return make(8, 7);
    case Fmt::F32: return make(8, 23);
    case Fmt::F64: return make(11, 52);
    default: return make(15, 112);
  }
}

std::vector<Fmt> wider_formats(Fmt t) {
  switch (t) {
    case Fmt::F16:
    case Fmt::BF16: return {Fmt::F32, Fmt::F64};
    case Fmt::F32: return {Fmt::F64};
    default: return {Fmt::F128};
  }
}

double decode(DType t, std::uint64_t bits) {
  const FormatFacts F = facts(fmt_of(t));
  const std::uint64_t frac_mask = (std::uint64_t{1} << F.frac_bits) - 1;
  const std::uint64_t e = (bits >> F.frac_bits) & ((std::uint64_t{1} << F.exp_bits) - 1);
  const std::uint64_t f = bits & frac_mask;
  const bool negative = (bits >> (F.frac_bits + F.exp_bits)) & 1;
  double v;
  if (e == (std::uint64_t{1} << F.exp_bits) - 1) v = f == 0 ? INFINITY : NAN;
  else if (e == 0) v = std::ldexp(static_cast<double>(f), F.emin - F.frac_bits);  // subnormals and zeros
  else v = std::ldexp(static_cast<double>((std::uint64_t{1} << F.frac_bits) + f), static_cast<int>(e) - F.emax - F.frac_bits);
  return negative ? -v : v;
}

double round_pair(Fmt f, double hi, double lo) {
  if (!std::isfinite(hi) || hi == 0) return hi;
  const FormatFacts F = facts(f);
  const double a = std::fabs(hi);
  const double l = std::signbit(hi) ? -lo : lo;  // where the exact value lies, seen from |hi|
  int E = 0;
  std::frexp(a, &E);
  E -= 1;  // floor(log2 a)
  const int q = std::max(E, F.emin) - (F.p - 1);  // the quantum of f's values near a: 2^q
  const double scaled = std::ldexp(a, -q);        // exact
  double n = std::floor(scaled);
  const double rest = scaled - n;  // exact, in [0, 1)
  const bool odd = std::fmod(n, 2.0) == 1.0;
  if (rest > 0.5 || (rest == 0.5 && (l > 0 || (l == 0 && odd)))) n += 1;
  double r = std::ldexp(n, q);
  if (r >= std::ldexp(1.0, F.emax + 1)) r = INFINITY;
  return std::copysign(r, hi);
}

std::uint64_t round_pair_bits(Fmt f, double hi, double lo) {
  const FormatFacts F = facts(f);
  const std::uint64_t sign = std::uint64_t{1} << (F.exp_bits + F.frac_bits);
  const std::uint64_t all_ones = (std::uint64_t{1} << F.exp_bits) - 1;
  if (std::isnan(hi)) return (all_ones << F.frac_bits) | (std::uint64_t{1} << (F.frac_bits - 1));
  const double r = round_pair(f, hi, lo);
  std::uint64_t out = std::signbit(r) ? sign : 0;
  const double a = std::fabs(r);
  if (std::isinf(a)) return out | (all_ones << F.frac_bits);
  if (a == 0) return out;
  int E = 0;
  std::frexp(a, &E);
  E -= 1;
  if (E < F.emin) return out | static_cast<std::uint64_t>(std::ldexp(a, F.frac_bits - F.emin));  // subnormal
  const auto frac = static_cast<std::uint64_t>(std::ldexp(a, F.frac_bits - E)) - (std::uint64_t{1} << F.frac_bits);
  return out | (static_cast<std::uint64_t>(E + F.emax) << F.frac_bits) | frac;
}

std::uint64_t encode(DType t, double x) {
  if (t == DType::Double) {
    if (std::isnan(x)) return 0x7FF8000000000000ull;
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  }
  return round_pair_bits(fmt_of(t), x, 0.0);
}

// ---- Exact ---------------------------------------------------------------------------------------

namespace {

// x = m · 2^e with m a 53-bit odd-or-even integer (finite, non-zero x).
void split(double x, std::uint64_t& m, int& e) {
  int E = 0;
  const double f = std::frexp(std::fabs(x), &E);
  m = static_cast<std::uint64_t>(std::ldexp(f, 53));
  e = E - 53;
}

}  // namespace

void Exact::add_bits(const std::uint64_t* chunk, int chunk_limbs, int bit_position, bool negate) {
  if (bit_position < 0 || bit_position + 64 * chunk_limbs > 64 * kLimbs - 8)
    throw std::range_error(fmt::format("exact::Exact: a term at 2^{} is outside the accumulator's window", bit_position + kLow));
  const int li = bit_position / 64, sh = bit_position % 64;
  std::uint64_t s[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i <= chunk_limbs; ++i) {
    const std::uint64_t low = i < chunk_limbs ? chunk[i] << sh : 0;
    const std::uint64_t high = (i > 0 && sh != 0) ? chunk[i - 1] >> (64 - sh) : 0;
    s[i] = low | high;
  }
  const int len = chunk_limbs + 1;
  std::uint64_t carry = 0;
  for (int i = 0; li + i < kLimbs; ++i) {
    if (i >= len && carry == 0) break;
    const std::uint64_t add = i < len ? s[i] : 0;
    std::uint64_t& limb = w_[static_cast<std::size_t>(li + i)];
    if (!negate) {
      const unsigned __int128 t = static_cast<unsigned __int128>(limb) + add + carry;
      limb = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    } else {
      const unsigned __int128 sub = static_cast<unsigned __int128>(add) + carry;
      carry = static_cast<unsigned __int128>(limb) < sub ? 1 : 0;
      limb = static_cast<std::uint64_t>(static_cast<unsigned __int128>(limb) - sub);
    }
  }
}

void Exact::add_product(const double* factors, int n, bool negate) {
  std::uint64_t limbs[4] = {1, 0, 0, 0};
  int used = 1, e = 0;
  bool negative = negate;
  for (int k = 0; k < n; ++k) {
    const double x = factors[k];
    if (!std::isfinite(x)) throw std::logic_error("exact::Exact: a non-finite factor");
    if (x == 0) return;
    negative = negative != std::signbit(x);
    std::uint64_t m;
    int ex;
    split(x, m, ex);
    e += ex;
    std::uint64_t carry = 0;
    for (int i = 0; i < used; ++i) {
      const unsigned __int128 t = static_cast<unsigned __int128>(limbs[i]) * m + carry;
      limbs[i] = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    }
    if (carry != 0) limbs[used++] = carry;
  }
  // drop trailing zero bits (so that products of short-type values stay well inside the window)
  while (used > 0 && limbs[0] == 0) {
    for (int i = 0; i + 1 < used; ++i) limbs[i] = limbs[i + 1];
    limbs[--used] = 0;
    e += 64;
  }
  if (used == 0) return;
  const int tz = __builtin_ctzll(limbs[0]);
  if (tz > 0) {
    for (int i = 0; i < used; ++i) limbs[i] = (limbs[i] >> tz) | (i + 1 < used ? limbs[i + 1] << (64 - tz) : 0);
    e += tz;
    if (limbs[used - 1] == 0) --used;
  }
  add_bits(limbs, used, e - kLow, negative);
}

void Exact::add(long double x, bool negate) {
  if (!std::isfinite(x)) throw std::logic_error("exact::Exact: a non-finite value");
  if (x == 0) return;
  int E = 0;
  const long double f = std::frexp(std::fabs(x), &E);
  std::uint64_t m = static_cast<std::uint64_t>(std::ldexp(f, 64));
  int e = E - 64;
  const int tz = __builtin_ctzll(m);
  m >>= tz, e += tz;
  add_bits(&m, 1, e - kLow, negate != std::signbit(x));
}

void Exact::add(const Exact& other, bool negate) {
  std::uint64_t carry = 0;
  for (int i = 0; i < kLimbs; ++i) {
    std::uint64_t& limb = w_[static_cast<std::size_t>(i)];
    const std::uint64_t o = other.w_[static_cast<std::size_t>(i)];
    if (!negate) {
      const unsigned __int128 t = static_cast<unsigned __int128>(limb) + o + carry;
      limb = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    } else {
      const unsigned __int128 sub = static_cast<unsigned __int128>(o) + carry;
      carry = static_cast<unsigned __int128>(limb) < sub ? 1 : 0;
      limb = static_cast<std::uint64_t>(static_cast<unsigned __int128>(limb) - sub);
    }
  }
}

int Exact::sign() const {
  if (w_[kLimbs - 1] >> 63) return -1;
  for (std::uint64_t x : w_)
    if (x != 0) return 1;
  return 0;
}

Exact Exact::abs() const {
  if (sign() >= 0) return *this;
  Exact r;
  std::uint64_t carry = 1;
  for (int i = 0; i < kLimbs; ++i) {
    const unsigned __int128 t = static_cast<unsigned __int128>(~w_[static_cast<std::size_t>(i)]) + carry;
    r.w_[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(t);
    carry = static_cast<std::uint64_t>(t >> 64);
  }
  return r;
}

int Exact::compare_abs(const Exact& other) const {
  const Exact a = abs(), b = other.abs();
  for (int i = kLimbs - 1; i >= 0; --i) {
    const auto x = a.w_[static_cast<std::size_t>(i)], y = b.w_[static_cast<std::size_t>(i)];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

bool Exact::abs_le(long double bound) const {
  if (std::isinf(bound)) return bound > 0;
  Exact b;
  b.add(bound);
  return compare_abs(b) <= 0;
}

bool Exact::bit(int i) const {
  if (i < 0 || i >= 64 * kLimbs) return false;
  return (w_[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1;
}

namespace {
int top_bit(const std::array<std::uint64_t, Exact::kLimbs>& w) {
  for (int i = Exact::kLimbs - 1; i >= 0; --i)
    if (w[static_cast<std::size_t>(i)] != 0) return 64 * i + 63 - __builtin_clzll(w[static_cast<std::size_t>(i)]);
  return -1;
}
}  // namespace

long double Exact::approx() const {
  const Exact a = abs();
  const int msb = top_bit(a.w_);
  if (msb < 0) return 0.0L;
  const int start = std::max(0, msb - 63);
  std::uint64_t n = 0;
  for (int i = msb; i >= start; --i) n = (n << 1) | (a.bit(i) ? 1 : 0);
  const long double v = std::ldexp(static_cast<long double>(n), start + kLow);
  return sign() < 0 ? -v : v;
}

double Exact::round_to(Fmt f) const {
  const FormatFacts F = facts(f);
  const Exact a = abs();
  const int msb = top_bit(a.w_);
  if (msb < 0) return 0.0;
  const int E = msb + kLow;
  const int q = std::max(E, F.emin) - (F.p - 1);
  const int qi = q - kLow;  // the bit of weight 2^q
  std::uint64_t n = 0;
  for (int i = msb; i >= qi; --i) n = (n << 1) | (a.bit(i) ? 1 : 0);
  const bool round_bit = a.bit(qi - 1);
  bool sticky = false;  // any bit below the round bit
  const int below = qi - 1;
  for (int j = 0; j < below / 64 && !sticky; ++j) sticky = a.w_[static_cast<std::size_t>(j)] != 0;
  for (int i = (below / 64) * 64; i < below && !sticky; ++i) sticky = a.bit(i);
  if (round_bit && (sticky || (n & 1))) ++n;
  double r = std::ldexp(static_cast<double>(n), q);
  if (r >= std::ldexp(1.0, F.emax + 1)) r = INFINITY;
  return sign() < 0 ? -r : r;
}

std::string Exact::text() const { return fmt::format("{:.21Lg}", approx()); }

// ---- Arithmetic ----------------------------------------------------------------------------------

namespace {
// TwoSum: hi + lo = x + y exactly, hi = fl(x + y) (binary64, no overflow for the short types' values).
void two_sum(double x, double y, double& hi, double& lo) {
  hi = x + y;
  const double bb = hi - x;
  lo = (x - (hi - bb)) + (y - bb);
}
bool short_fmt(Fmt f) { return f == Fmt::F16 || f == Fmt::BF16; }
}  // namespace

bool is_nan(Quad x) { return x != x; }
bool is_inf(Quad x) { return x == x && (x - x) != (x - x); }

Quad add(Fmt f, Quad x, Quad y) {
  if (short_fmt(f)) {
    double hi, lo;
    two_sum(static_cast<double>(x), static_cast<double>(y), hi, lo);
    return round_pair(f, hi, std::isfinite(hi) ? lo : 0.0);
  }
  if (f == Fmt::F32) {
    const float r = static_cast<float>(static_cast<double>(x)) + static_cast<float>(static_cast<double>(y));
    return static_cast<double>(r);
  }
  if (f == Fmt::F64) return static_cast<double>(x) + static_cast<double>(y);
  return x + y;
}

Quad mul(Fmt f, Quad x, Quad y) {
  if (short_fmt(f)) return round_pair(f, static_cast<double>(x) * static_cast<double>(y), 0.0);  // the product is exact
  if (f == Fmt::F32) {
    const float r = static_cast<float>(static_cast<double>(x)) * static_cast<float>(static_cast<double>(y));
    return static_cast<double>(r);
  }
  if (f == Fmt::F64) return static_cast<double>(x) * static_cast<double>(y);
  return x * y;
}

Quad fma(Fmt f, Quad a, Quad b, Quad c) {
  if (short_fmt(f)) {
    const double p = static_cast<double>(a) * static_cast<double>(b);  // exact: values of at most 24 bits
    double hi, lo;
    two_sum(p, static_cast<double>(c), hi, lo);
    return round_pair(f, hi, std::isfinite(hi) ? lo : 0.0);
  }
  if (f == Fmt::F32)
    return static_cast<double>(std::fmaf(static_cast<float>(static_cast<double>(a)), static_cast<float>(static_cast<double>(b)),
                                         static_cast<float>(static_cast<double>(c))));
  if (f == Fmt::F64) return std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
  // binary128: a·b is exact when a and b are doubles (106 bits), so the sum is the one rounding
  return a * b + c;
}

Quad round(Fmt f, Quad x) {
  if (is_nan(x) || is_inf(x)) return x;
  if (short_fmt(f)) return round_pair(f, static_cast<double>(x), 0.0);  // x: a value of binary32 or binary64
  if (f == Fmt::F32) return static_cast<double>(static_cast<float>(static_cast<double>(x)));
  if (f == Fmt::F64) return static_cast<double>(x);  // correctly rounded (soft-float)
  return x;
}

}  // namespace sonnx::props::exact
