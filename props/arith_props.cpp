// Properties of spec/common/arithmetic.md and spec/ops/{add,sub,mul,div}.md. The expected element of
// a float operation is computed on the test side with exact arithmetic (gen/exact.hpp: the exact sum or
// product as a fixed-point integer, rounded once to T by the test's own rounding; a quotient judged by
// the signs of its exact residuals against the midpoints around the implementation's value) — never
// through src/core/accuracy.* or the implementation's conversions. Integers: __int128 arithmetic
// taken modulo 2^w, Div truncated toward zero.
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "gen/exact.hpp"
#include "gen/props.hpp"
#include "ops/add.hpp"
#include "ops/div.hpp"
#include "ops/mul.hpp"
#include "ops/sub.hpp"

namespace sonnx::props::arith_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using exact::Exact;
using exact::Fmt;
using ops::BinaryOp;
using ops::LegacyBroadcast;

const DType kFloats[] = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};
const BinaryOp kOps[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div};

const char* op_name(BinaryOp k) {
  switch (k) {
    case BinaryOp::Add: return "Add";
    case BinaryOp::Sub: return "Sub";
    case BinaryOp::Mul: return "Mul";
    default: return "Div";
  }
}

Tensor run(BinaryOp k, int version, const Tensor& A, const Tensor& B, const LegacyBroadcast& l = {}) {
  switch (k) {
    case BinaryOp::Add: return ops::add(version, A, B, l);
    case BinaryOp::Sub: return ops::sub(version, A, B, l);
    case BinaryOp::Mul: return ops::mul(version, A, B, l);
    default: return ops::div(version, A, B, l);
  }
}

int width(DType t) { return 8 * info(t).size; }
std::uint64_t sign_bit(DType t) { return std::uint64_t{1} << (width(t) - 1); }

Tensor from_bits(DType t, const std::vector<std::uint64_t>& bits) {
  Tensor x(t, {static_cast<std::int64_t>(bits.size())});
  const auto size = static_cast<std::size_t>(info(t).size);
  for (std::size_t k = 0; k < bits.size(); ++k) std::memcpy(x.bytes().data() + k * size, &bits[k], size);
  return x;
}
std::uint64_t bits_at_(const Tensor& x, std::size_t k) {
  std::uint64_t b = 0;
  const auto size = static_cast<std::size_t>(info(x.dtype()).size);
  std::memcpy(&b, x.bytes().data() + k * size, size);
  return b;
}

// The neighbours of a finite value r of T (as doubles): the next value up and down; ±Inf beyond the
// greatest finite value (then the distance is taken to the virtual 2^(emax+1), see below).
double next_up(DType t, double r) {
  const std::uint64_t b = exact::encode(t, r);
  if (r == 0) return exact::decode(t, 1);
  const std::uint64_t n = std::signbit(r) ? b - 1 : b + 1;
  return exact::decode(t, n);
}
double next_down(DType t, double r) { return -next_up(t, -r); }

// [Common.arith.zero] the sign of a zero result: products and quotients the exclusive or of the signs;
// an exact zero sum +0 unless both addends are -0; an underflow to zero the sign of the exact result.
bool zero_sign(BinaryOp k, double a, double b, int exact_sign) {
  if (k == BinaryOp::Mul || k == BinaryOp::Div) return std::signbit(a) != std::signbit(b);
  const bool nb = k == BinaryOp::Sub ? !std::signbit(b) : std::signbit(b);
  if (exact_sign != 0) return exact_sign < 0;
  return std::signbit(a) && nb && a == 0 && b == 0;
}

// The expected bits of fl_T(a ∘ b) for +, -, × ([Common.arith.rounding], [Common.arith.zero]); nullopt
// for a NaN result (any NaN conforms: [Common.arith.nan]) — not for ÷, judged by `quotient_ok`.
std::optional<std::uint64_t> expected(DType t, BinaryOp k, double a, double b) {
  const Fmt f = exact::fmt_of(t);
  if (std::isnan(a) || std::isnan(b)) return std::nullopt;
  if (std::isinf(a) || std::isinf(b)) {  // IEEE 754's infinities, restated
    double r;
    if (k == BinaryOp::Mul) {
      if (a == 0 || b == 0) return std::nullopt;
      r = (std::signbit(a) != std::signbit(b)) ? -INFINITY : INFINITY;
    } else {
      const double bb = k == BinaryOp::Sub ? -b : b;
      if (std::isinf(a) && std::isinf(bb) && std::signbit(a) != std::signbit(bb)) return std::nullopt;
      r = std::isinf(a) ? a : bb;
    }
    return exact::encode(t, r);
  }
  Exact e;
  if (k == BinaryOp::Mul) {
    const double factors[2] = {a, b};
    e.add_product(factors, 2);
  } else {
    e.add(a);
    e.add(b, k == BinaryOp::Sub);
  }
  const double r = e.round_to(f);
  if (r == 0) return zero_sign(k, a, b, e.sign()) ? sign_bit(t) : 0;
  return exact::encode(t, r);
}

// [Common.arith.rounding] for ÷: q is fl_T(a / b) when the exact quotient lies between the midpoints
// around q, on q's even side at a tie; checked by the signs of exact residuals (2a against (2q ± δ)·b,
// δ the distance to the neighbour, products of doubles summed exactly). Infinite and zero cases by
// IEEE 754's rules; NaN results: any NaN.
bool quotient_ok(DType t, double a, double b, std::uint64_t got) {
  const double q = exact::decode(t, got);
  const bool nan = std::isnan(a) || std::isnan(b) || (a == 0 && b == 0) || (std::isinf(a) && std::isinf(b));
  if (nan) return std::isnan(q);
  if (std::isnan(q)) return false;
  const bool negative = std::signbit(a) != std::signbit(b);
  if (b == 0) return std::isinf(q) && std::signbit(q) == negative;                 // x / ±0
  if (std::isinf(a)) return std::isinf(q) && std::signbit(q) == negative;          // ∞ / x
  if (std::isinf(b) || a == 0) return q == 0 && std::signbit(q) == negative;       // x / ∞, 0 / x
  if (std::signbit(q) != negative && q != 0) return false;
  // |a| / |b| against |q|
  const double x = std::fabs(a), y = std::fabs(b), r = std::fabs(q);
  if (r == 0 && std::signbit(q) != negative) return false;
  const exact::FormatFacts ff = exact::facts(exact::fmt_of(t));
  const double max = exact::decode(t, exact::encode(t, INFINITY) - 1);
  if (std::isinf(r)) {  // x / y >= Ω = max + ulp(max)/2: 2x >= (2 max + ulp(max)) y
    const double ulp_max = std::ldexp(1.0, ff.emax - ff.p + 1);
    Exact e;
    e.add(x);
    e.add(x);
    const double f1[3] = {2.0, max, y}, f2[2] = {ulp_max, y};
    e.add_product(f1, 3, true);
    e.add_product(f2, 2, true);
    return e.sign() >= 0;
  }
  const double up = r == max ? r + std::ldexp(1.0, ff.emax - ff.p + 1) : next_up(t, r);
  const double down = r == 0 ? 0.0 : next_down(t, r);
  const bool even = (exact::encode(t, r) & 1) == 0;
  // upper: (2r + (up - r))·y - 2x >= 0 (> 0 unless even); up - r is a power of two, a double
  {
    Exact e;
    const double f1[3] = {2.0, r, y}, f2[2] = {up - r, y};
    e.add_product(f1, 3);
    e.add_product(f2, 2);
    e.add(x, true);
    e.add(x, true);
    if (e.sign() < 0 || (e.sign() == 0 && !even)) return false;
  }
  if (r > 0) {  // lower: 2x - (2r - (r - down))·y >= 0
    Exact e;
    e.add(x);
    e.add(x);
    const double f1[3] = {2.0, r, y}, f2[2] = {r - down, y};
    e.add_product(f1, 3, true);
    e.add_product(f2, 2);
    if (e.sign() < 0 || (e.sign() == 0 && !even)) return false;
  }
  return true;
}

// Checks every element of `got` = A ∘ B (1-D, same length); returns the first failure's text.
std::string judge(DType t, BinaryOp k, const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                  const Tensor& got) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = exact::decode(t, a[i]), y = exact::decode(t, b[i]);
    const std::uint64_t g = bits_at_(got, i);
    bool ok;
    std::string want = "a NaN";
    if (k == BinaryOp::Div) {
      ok = quotient_ok(t, x, y, g);
      want = "the correctly rounded quotient";
    } else {
      const auto e = expected(t, k, x, y);
      ok = e ? g == *e : std::isnan(exact::decode(t, g));
      if (e) want = fmt::format("{:#x}", *e);
    }
    if (!ok)
      return fmt::format("{} {}: {:#x} ({}) {} {:#x} ({}) gave {:#x}, expected {}", op_name(k), name(t), a[i], x,
                         k == BinaryOp::Add ? "+" : k == BinaryOp::Sub ? "-" : k == BinaryOp::Mul ? "*" : "/", b[i], y, g, want);
  }
  return "";
}

// Random bit patterns of T: uniform over every pattern, over the finite ones near 1, and edge values.
std::uint64_t draw(std::mt19937_64& rng, DType t) {
  const int w = width(t);
  const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  const std::uint64_t r = rng();
  switch (r % 8) {
    case 0: return exact::encode(t, std::ldexp(static_cast<double>((rng() % 2000)) - 1000, static_cast<int>(rng() % 9) - 4));
    case 1: return (rng() % 4) | ((rng() & 1) ? sign_bit(t) : 0);  // zeros and the least subnormals
    default: return rng() & mask;
  }
}

TEST_CASE("[Common.prop.arith-exact] [Common.arith.rounding] [Common.arith.zero] [Common.arith.nan] [Add.float.formula] "
          "[Sub.float.formula] [Mul.float.formula] [Div.float.formula] random pairs of every float type are the exact "
          "result rounded once",
          "[arith][props]") {
  std::mt19937_64 rng(31);
  for (DType t : kFloats)
    for (BinaryOp k : kOps) {
      const std::size_t n = t == DType::Double ? 20000 : 60000;
      std::vector<std::uint64_t> a(n), b(n);
      for (std::size_t i = 0; i < n; ++i) a[i] = draw(rng, t), b[i] = draw(rng, t);
      const Tensor got = run(k, 14, from_bits(t, a), from_bits(t, b));
      INFO(op_name(k) << " " << name(t));
      CHECK(judge(t, k, a, b, got) == "");
    }
}

// [Common.prop.arith-routes] pairs whose exact result is within a few units of float's last place of a
// midpoint of T: normal midpoints, subnormal midpoints, the least midpoint η/2 and Ω_T. The partner of
// a drawn operand is the midpoint's inverse image rounded to T (by the test's own rounding), then
// moved by up to 3 units of T; the float route of run must still give the exact result rounded once.
TEST_CASE("[Common.prop.arith-routes] [Common.arith.rounding] float16 and bfloat16 through float: targeted pairs "
          "near the midpoints of T, normal, subnormal, at the least midpoint and at the overflow threshold",
          "[arith][props]") {
  std::mt19937_64 rng(1995);
  for (DType t : {DType::Float16, DType::BFloat16}) {
    const exact::FormatFacts ff = exact::facts(exact::fmt_of(t));
    const double eta = std::ldexp(1.0, ff.emin - ff.p + 1);
    const double omega = std::ldexp(2.0 - std::ldexp(1.0, -ff.p), ff.emax);
    for (BinaryOp k : kOps) {
      std::vector<std::uint64_t> a, b;
      for (int s = 0; s < 40000; ++s) {
        double m;  // a midpoint of T (or Ω_T)
        switch (s % 4) {
          case 0: {  // a normal midpoint
            const double v = exact::decode(t, exact::encode(t, std::ldexp(1.0 + static_cast<double>(rng() % 1000) / 1000, static_cast<int>(rng() % 20) - 10)));
            m = (v + next_up(t, v)) / 2;
            break;
          }
          case 1: m = (2.0 * static_cast<double>(rng() % (1u << (ff.p - 1))) + 1) * eta / 2; break;  // subnormal
          case 2: m = eta / 2; break;
          default: m = omega; break;
        }
        if (rng() & 1) m = -m;
        double x = exact::decode(t, draw(rng, t));
        if (!std::isfinite(x) || x == 0) x = 1.5;
        if (s % 4 == 1 || s % 4 == 2) x = std::ldexp(1.0 + static_cast<double>(rng() % 64) / 64, static_cast<int>(rng() % 6));
        double y;  // the partner, so that x ∘ y ≈ m
        switch (k) {
          case BinaryOp::Add: y = m - x; break;
          case BinaryOp::Sub: y = x - m; break;
          case BinaryOp::Mul: y = m / x; break;
          default: y = x / m; break;  // x / y ≈ m
        }
        std::uint64_t yb = exact::encode(t, y);
        if (!std::isfinite(exact::decode(t, yb))) continue;
        const int move = static_cast<int>(rng() % 7) - 3;
        yb = static_cast<std::uint64_t>(static_cast<std::int64_t>(yb) + move) & ((std::uint64_t{1} << 16) - 1);
        a.push_back(exact::encode(t, x));
        b.push_back(yb);
      }
      const Tensor got = run(k, 14, from_bits(t, a), from_bits(t, b));
      INFO(op_name(k) << " " << name(t) << ", " << a.size() << " pairs");
      CHECK(judge(t, k, a, b, got) == "");
    }
  }
}

// One operand exhaustive: every pattern of float16 and of bfloat16 against 48 drawn partners, each
// operation (3.1 million pairs per type and operation).
TEST_CASE("[Common.prop.arith-exact] [Common.prop.arith-routes] every float16 and bfloat16 pattern against drawn "
          "partners, both orders",
          "[arith][props]") {
  std::mt19937_64 rng(65536);
  for (DType t : {DType::Float16, DType::BFloat16})
    for (BinaryOp k : kOps) {
      std::vector<std::uint64_t> a, b;
      for (int j = 0; j < (k == BinaryOp::Div ? 8 : 24); ++j) {
        const std::uint64_t p = draw(rng, t);
        for (std::uint64_t x = 0; x < 65536; ++x) {
          a.push_back(x), b.push_back(p);
          a.push_back(p), b.push_back(x);
        }
      }
      const Tensor got = run(k, 14, from_bits(t, a), from_bits(t, b));
      INFO(op_name(k) << " " << name(t));
      CHECK(judge(t, k, a, b, got) == "");
    }
}

// [Common.arith.int] [Div.int.formula] integers: __int128 arithmetic modulo 2^w, Div truncated.
template <class T> void check_ints(std::mt19937_64& rng) {
  const DType t = dtype_of<T>();
  for (BinaryOp k : kOps) {
    const std::size_t n = 20000;
    std::vector<T> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<T>(rng() >> (rng() % 64));
      b[i] = static_cast<T>(rng() >> (rng() % 64));
      if (rng() % 8 == 0) a[i] = std::numeric_limits<T>::min(), b[i] = static_cast<T>(-1);
      if (k == BinaryOp::Div && b[i] == 0) b[i] = 1;
    }
    const Tensor got = run(k, 14, make_tensor<T>({static_cast<std::int64_t>(n)}, a), make_tensor<T>({static_cast<std::int64_t>(n)}, b));
    const auto y = got.values<T>();
    for (std::size_t i = 0; i < n; ++i) {
      const __int128 x = a[i], z = b[i];
      __int128 e = k == BinaryOp::Add ? x + z : k == BinaryOp::Sub ? x - z : k == BinaryOp::Div ? x / z : 0;
      if (k == BinaryOp::Mul) {  // |x·z| may reach 2^128: multiply modulo 2^128 on unsigned
        e = static_cast<__int128>(static_cast<unsigned __int128>(x) * static_cast<unsigned __int128>(z));
      }
      const auto wrapped = static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<unsigned __int128>(e)));
      if (y[i] != wrapped) {
        FAIL(fmt::format("{} {}: {} and {} gave {}, expected {}", op_name(k), name(t), static_cast<long long>(a[i]),
                         static_cast<long long>(b[i]), static_cast<long long>(y[i]), static_cast<long long>(wrapped)));
      }
    }
  }
}

TEST_CASE("[Common.arith.int] [Add.int.formula] [Sub.int.formula] [Mul.int.formula] [Div.int.formula] every integer "
          "type: modulo 2^w, Div truncated toward zero, min / -1 = min",
          "[arith][props]") {
  std::mt19937_64 rng(14);
  check_ints<std::int8_t>(rng);
  check_ints<std::int16_t>(rng);
  check_ints<std::int32_t>(rng);
  check_ints<std::int64_t>(rng);
  check_ints<std::uint8_t>(rng);
  check_ints<std::uint16_t>(rng);
  check_ints<std::uint32_t>(rng);
  check_ints<std::uint64_t>(rng);
}

// [Common.arith.map] [Common.broadcast.map] a broadcast output equals the same operation on the inputs
// expanded on the test side (index by index), and [Common.prop.arith-commute].
TEST_CASE("[Common.arith.map] [Common.prop.arith-commute] [Common.broadcast.map] broadcast shapes read the element "
          "the map gives, Add and Mul commute, a - b is a + (-b), bit for bit",
          "[arith][props]") {
  check("broadcast equals the expanded operation", [] {
    const auto shapes = (*gen::broadcastable(2, 2)).inputs;
    const DType t = *rc::gen::element(DType::Float16, DType::BFloat16, DType::Float, DType::Double, DType::Int32, DType::Uint8);
    const Tensor A = *gen::tensor_without_nan(t, shapes[0]);
    const Tensor B = *gen::tensor_without_nan(t, shapes[1]);
    const BinaryOp k = *rc::gen::element(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul);
    const Tensor C = run(k, 14, A, B);
    // expand both on the test side: the index map restated (padding on the left, size 1 read at 0)
    const Shape& s = C.shape();
    const std::int64_t n = element_count(s);
    std::vector<std::uint64_t> ea, eb;
    for (std::int64_t off = 0; off < n; ++off) {
      std::vector<std::int64_t> idx(s.size());
      std::int64_t r = off;
      for (std::size_t d = s.size(); d-- > 0;) idx[d] = r % s[d], r /= s[d];
      const auto at = [&](const Tensor& X) {
        std::int64_t o = 0;
        const std::size_t pad = s.size() - X.shape().size();
        for (std::size_t d = 0; d < X.shape().size(); ++d) o = o * X.shape()[d] + (X.shape()[d] == 1 ? 0 : idx[pad + d]);
        return bits_at_(X, static_cast<std::size_t>(o));
      };
      ea.push_back(at(A)), eb.push_back(at(B));
    }
    const Tensor D = run(k, 14, from_bits(t, ea), from_bits(t, eb));
    for (std::int64_t off = 0; off < n; ++off) RC_ASSERT(bits_at_(C, static_cast<std::size_t>(off)) == bits_at_(D, static_cast<std::size_t>(off)));
    if (k == BinaryOp::Sub && info(t).is_float) {  // a - b = a + (-b), the sign bit of B flipped on the test side
      Tensor negB(t, B.shape());
      const auto size = static_cast<std::size_t>(info(t).size);
      for (std::int64_t m = 0; m < element_count(B.shape()); ++m) {
        const std::uint64_t v = bits_at_(B, static_cast<std::size_t>(m)) ^ sign_bit(t);
        std::memcpy(negB.bytes().data() + static_cast<std::size_t>(m) * size, &v, size);
      }
      const Tensor F = run(BinaryOp::Add, 14, A, negB);
      for (std::int64_t off = 0; off < n; ++off) RC_ASSERT(bits_at_(C, static_cast<std::size_t>(off)) == bits_at_(F, static_cast<std::size_t>(off)));
    }
    if (k != BinaryOp::Sub) {  // commutativity, bit for bit (no NaN drawn)
      const Tensor E = run(k, 14, B, A);
      for (std::int64_t off = 0; off < n; ++off) RC_ASSERT(bits_at_(C, static_cast<std::size_t>(off)) == bits_at_(E, static_cast<std::size_t>(off)));
    }
    RC_TAG(op_name(k));
  });
}

}  // namespace
}  // namespace sonnx::props::arith_props
