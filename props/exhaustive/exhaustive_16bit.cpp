// Exhaustive checks of the two 16-bit float types (spec/common/dtypes.md, spec/common/order.md):
// every ordered pair of patterns for the order, max_of and min_of (the min order of
// [Common.order.min]), every pattern for the exact decoding and re-encoding and for the dual δ, and
// the values between adjacent patterns for the encoder's refusals.
//
// The expected side is an independent restatement written here from the spec text: patterns are
// decoded from their sign, exponent and fraction fields with std::ldexp ([Common.dtype.float16],
// [Common.dtype.bfloat16]) and the order is the comparison of those exact values with the -0/+0 and
// NaN rules of [Common.order.total] and [Common.order.max]. Nothing of src/core computes an expected
// value; src/core is only the implementation under test.
//
// The Why3 level (spec/formal/order.mlw) proves the same order and max_of properties for the
// formats; these checks tie the C++ of src/core to the clauses, pattern by pattern.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "core/float16.hpp"
#include "core/order.hpp"

namespace {

constexpr int kPatterns = 1 << 16;

// One 16-bit binary interchange format: w exponent bits, p fraction bits, bias 2^(w-1) - 1
// (spec/common/dtypes.md, the table before [Common.dtype.float16]).
struct Format {
  const char* name;
  int w, p;
};
constexpr Format kFloat16{"float16", 5, 10};    // [Common.dtype.float16]
constexpr Format kBFloat16{"bfloat16", 8, 7};   // [Common.dtype.bfloat16]

// Everything the restatement knows about one pattern, from its bit fields only.
struct Decoded {
  bool nan = false;
  bool negative = false;  // the sign bit
  double value = 0;       // the exact value (an infinity for the infinities), for non-NaN patterns
};

Decoded decode(const Format& fmt, std::uint32_t bits) {
  const int emax = (1 << fmt.w) - 1, bias = (1 << (fmt.w - 1)) - 1;
  const std::uint32_t s = bits >> (fmt.w + fmt.p);
  const std::uint32_t e = (bits >> fmt.p) & static_cast<std::uint32_t>(emax);
  const std::uint32_t f = bits & ((1u << fmt.p) - 1);
  Decoded d;
  d.negative = s != 0;
  const double sign = s ? -1.0 : 1.0;
  if (e == static_cast<std::uint32_t>(emax)) {
    d.nan = f != 0;                        // NaN
    d.value = sign * HUGE_VAL;             // +-Inf (unused for a NaN)
  } else if (e == 0) {                     // zero, subnormal: (-1)^s * 2^(1-bias) * f / 2^p
    d.value = sign * std::ldexp(static_cast<double>(f), 1 - bias - fmt.p);
  } else {                                 // normal: (-1)^s * 2^(e-bias) * (1 + f / 2^p)
    d.value = sign * std::ldexp(static_cast<double>((1u << fmt.p) + f), static_cast<int>(e) - bias - fmt.p);
  }
  return d;
}

std::vector<Decoded> decode_all(const Format& fmt) {
  std::vector<Decoded> t(kPatterns);
  for (int b = 0; b < kPatterns; ++b) t[b] = decode(fmt, static_cast<std::uint32_t>(b));
  return t;
}

// [Common.order.total] a < b for two non-NaN patterns: the value of a is less than that of b as
// extended reals, or a is -0 and b is +0.
inline bool spec_less(const Decoded& a, const Decoded& b) {
  return a.value < b.value || (a.value == 0 && b.value == 0 && a.negative && !b.negative);
}

std::uint64_t double_bits(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
double from_double_bits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F> F make(std::uint32_t bits) { return F{static_cast<std::uint16_t>(bits)}; }

std::vector<std::uint32_t> sorted_non_nan(const std::vector<Decoded>& table);

// The restatement as two tables for the 2^32-pair loops: whether a pattern is a NaN, and the rank of
// a non-NaN pattern in the increasing order of spec_less (the sorted non-NaN patterns, checked here
// to increase strictly: then a < b under [Common.order.total] iff rank[a] < rank[b]). The tables are
// made from the decoded fields and spec_less alone; nothing of src/core.
struct Ranked {
  std::vector<std::uint8_t> nan;
  std::vector<std::int32_t> rank;  // -1 for a NaN
};
Ranked ranked(const std::vector<Decoded>& table) {
  Ranked r{std::vector<std::uint8_t>(kPatterns), std::vector<std::int32_t>(kPatterns, -1)};
  const auto order = sorted_non_nan(table);
  for (std::size_t k = 0; k + 1 < order.size(); ++k) REQUIRE(spec_less(table[order[k]], table[order[k + 1]]));
  for (std::size_t k = 0; k < order.size(); ++k) r.rank[order[k]] = static_cast<std::int32_t>(k);
  for (std::uint32_t b = 0; b < kPatterns; ++b) r.nan[b] = table[b].nan;
  return r;
}

// All 2^32 ordered pairs: max_of(a, b) is the pattern [Common.order.max] selects, and, for two
// non-NaN patterns, greater(a, b) holds iff b < a. Row by row (a fixed): the mismatches of the row
// are counted without a branch, and a row with one is walked again to log its first ones.
template <class F>
void all_pairs(const Format& fmt) {
  const auto t0 = std::chrono::steady_clock::now();
  const Ranked r = ranked(decode_all(fmt));
  const std::uint8_t* const nan = r.nan.data();
  const std::int32_t* const rank = r.rank.data();
  std::uint64_t max_errors = 0, greater_errors = 0, pairs = 0, logged = 0;
  std::ostringstream log;  // the first five mismatches, reported with the checks below
  // [Common.order.max]: a if a is a NaN; else b if b is a NaN; else b if a < b; else a.
  const auto expected_max = [&](std::uint32_t a, std::uint32_t b) -> std::uint32_t {
    return nan[a] ? a : nan[b] ? b : rank[a] < rank[b] ? b : a;
  };
  for (std::uint32_t a = 0; a < kPatterns; ++a) {
    const F fa = make<F>(a);
    std::uint32_t row_max = 0, row_greater = 0;
    for (std::uint32_t b = 0; b < kPatterns; ++b) {
      const F fb = make<F>(b);
      row_max += sonnx::bits(sonnx::max_of(fa, fb)) != expected_max(a, b);
      row_greater += (!nan[a] & !nan[b]) & (sonnx::greater(fa, fb) != (rank[b] < rank[a]));
    }
    max_errors += row_max, greater_errors += row_greater, pairs += kPatterns;
    if (row_max + row_greater != 0)
      for (std::uint32_t b = 0; b < kPatterns && logged < 5; ++b) {
        const F fb = make<F>(b);
        const std::uint32_t got = sonnx::bits(sonnx::max_of(fa, fb));
        if (got != expected_max(a, b) && ++logged)
          log << fmt.name << " max_of(0x" << std::hex << a << ", 0x" << b << ") = 0x" << got << ", expected 0x"
              << expected_max(a, b) << std::dec << '\n';
        if (!nan[a] && !nan[b] && sonnx::greater(fa, fb) != (rank[b] < rank[a]) && ++logged)
          log << fmt.name << " greater(0x" << std::hex << a << ", 0x" << b << ") = " << sonnx::greater(fa, fb) << std::dec << '\n';
      }
  }
  std::printf("exhaustive %s: %llu pairs checked in %.1f s\n", fmt.name, static_cast<unsigned long long>(pairs),
              seconds_since(t0));
  INFO(log.str());
  CHECK(pairs == (std::uint64_t{1} << 32));
  CHECK(max_errors == 0);
  CHECK(greater_errors == 0);
}

// All 2^32 ordered pairs under the min order: min_of(a, b) is the pattern [Common.order.min] selects
// (a if a is a NaN; else b if b is a NaN; else b if b < a; else a), and it is δ(max_of(δa, δb)) bit for
// bit — the informative dual of [Common.order.min], with δ the implementation's dual. Row by row, as
// all_pairs.
template <class F>
void all_pairs_min(const Format& fmt) {
  const auto t0 = std::chrono::steady_clock::now();
  const Ranked r = ranked(decode_all(fmt));
  const std::uint8_t* const nan = r.nan.data();
  const std::int32_t* const rank = r.rank.data();
  std::uint64_t min_errors = 0, dual_errors = 0, pairs = 0, logged = 0;
  std::ostringstream log;  // the first five mismatches
  // b exactly when a is not a NaN and b is a NaN or below a: written as one integer test, not as
  // nested ?: (g++ 12 -O2 left that form of the row loop scalar: 34-38 s per type in a CI-like run,
  // 4 s now, as the max_of loop).
  const auto expected_min = [&](std::uint32_t a, std::uint32_t b) -> std::uint32_t {
    const std::uint32_t take_b = (1u - nan[a]) & (nan[b] | static_cast<std::uint32_t>(rank[b] < rank[a]));
    return take_b ? b : a;
  };
  for (std::uint32_t a = 0; a < kPatterns; ++a) {
    const F fa = make<F>(a), dfa = sonnx::dual(fa);
    std::uint32_t row_min = 0, row_dual = 0;
    for (std::uint32_t b = 0; b < kPatterns; ++b) {
      const F fb = make<F>(b);
      const std::uint32_t got = sonnx::bits(sonnx::min_of(fa, fb));
      row_min += got != expected_min(a, b);
      row_dual += sonnx::bits(sonnx::dual(sonnx::max_of(dfa, sonnx::dual(fb)))) != got;
    }
    min_errors += row_min, dual_errors += row_dual, pairs += kPatterns;
    if (row_min + row_dual != 0)
      for (std::uint32_t b = 0; b < kPatterns && logged < 5; ++b) {
        const F fb = make<F>(b);
        const std::uint32_t got = sonnx::bits(sonnx::min_of(fa, fb));
        if (got != expected_min(a, b) && ++logged)
          log << fmt.name << " min_of(0x" << std::hex << a << ", 0x" << b << ") = 0x" << got << ", expected 0x"
              << expected_min(a, b) << std::dec << '\n';
        const std::uint32_t via_max = sonnx::bits(sonnx::dual(sonnx::max_of(dfa, sonnx::dual(fb))));
        if (via_max != got && ++logged)
          log << fmt.name << " min_of(0x" << std::hex << a << ", 0x" << b << ") = 0x" << got
              << " but dual(max_of(dual a, dual b)) = 0x" << via_max << std::dec << '\n';
      }
  }
  std::printf("exhaustive %s: %llu pairs checked under the min order in %.1f s\n", fmt.name,
              static_cast<unsigned long long>(pairs), seconds_since(t0));
  INFO(log.str());
  CHECK(pairs == (std::uint64_t{1} << 32));
  CHECK(min_errors == 0);
  CHECK(dual_errors == 0);
}

// The dual δ on every pattern ([Common.order.min], informative): the sign bit flipped and nothing
// else; so δ is an involution, sends a NaN to a NaN with the same payload and the value x to -x
// (-0 and +0 exchanged); and it reverses the restated order: for every pattern a and every b,
// a < b iff δb < δa (checked on all 2^32 pairs of the restatement, by the sorted order).
template <class F>
void all_duals(const Format& fmt) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto table = decode_all(fmt);
  const std::uint32_t sign = 1u << (fmt.w + fmt.p);
  std::uint64_t errors = 0;
  std::ostringstream log;
  for (std::uint32_t b = 0; b < kPatterns; ++b) {
    const std::uint32_t d = sonnx::bits(sonnx::dual(make<F>(b)));
    const bool ok = d == (b ^ sign) && sonnx::bits(sonnx::dual(make<F>(d))) == b && table[d].nan == table[b].nan &&
                    (table[b].nan || (table[d].value == -table[b].value && table[d].negative != table[b].negative));
    if (!ok && ++errors <= 5) log << fmt.name << " dual(0x" << std::hex << b << ") = 0x" << d << std::dec << '\n';
  }
  // Order reversal: in the increasing order of the non-NaN patterns, their duals decrease.
  const auto order = sorted_non_nan(table);
  std::uint64_t reversal_errors = 0;
  for (std::size_t k = 0; k + 1 < order.size(); ++k)
    if (!spec_less(table[order[k + 1] ^ sign], table[order[k] ^ sign]) && ++reversal_errors <= 5)
      log << fmt.name << " dual does not reverse 0x" << std::hex << order[k] << " < 0x" << order[k + 1] << std::dec << '\n';
  std::printf("exhaustive %s: dual of %d patterns checked in %.2f s\n", fmt.name, kPatterns, seconds_since(t0));
  INFO(log.str());
  CHECK(errors == 0);
  CHECK(reversal_errors == 0);
}

// The restated order itself: on the non-NaN patterns it is a strict total order in which two
// patterns are unordered only when they are the same pattern ([Common.order.total]: each non-NaN
// value has exactly one encoding). Checked by sorting and comparing neighbours.
std::vector<std::uint32_t> sorted_non_nan(const std::vector<Decoded>& table) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t b = 0; b < kPatterns; ++b)
    if (!table[b].nan) order.push_back(b);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return spec_less(table[a], table[b]); });
  return order;
}

template <class F, class Encode>
void all_patterns(const Format& fmt, Encode encode, double (*decode_under_test)(F)) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto table = decode_all(fmt);
  const auto order = sorted_non_nan(table);
  const int nan_count = 2 * ((1 << fmt.p) - 1);  // exponent all ones, fraction not zero, either sign
  CHECK(static_cast<int>(order.size()) == kPatterns - nan_count);
  for (std::size_t k = 0; k + 1 < order.size(); ++k)
    REQUIRE(spec_less(table[order[k]], table[order[k + 1]]));  // strictly increasing: one encoding per value
  const std::uint32_t neg_inf = ((1u << (fmt.w + 1)) - 1) << fmt.p, pos_inf = neg_inf & 0x7FFF;
  CHECK(order.front() == neg_inf);  // -Inf is the least element ([ReduceMax.float.empty])
  CHECK(order.back() == pos_inf);

  // Exact value -> pattern, keyed by the double's bits (so -0 and +0 are distinct keys).
  std::unordered_map<std::uint64_t, std::uint32_t> pattern_of;
  for (std::uint32_t b : order) pattern_of.emplace(double_bits(table[b].value), b);

  std::uint64_t decode_errors = 0, encode_errors = 0, refusal_checks = 0;
  std::ostringstream log;  // the first mismatches, reported with the checks below
  // The encoder accepts x iff x is exactly a value of the type, and then returns its pattern.
  auto check_encoding = [&](double x) {
    const auto it = pattern_of.find(double_bits(x));
    const auto got = encode(x);
    const bool ok = it == pattern_of.end() ? !got.has_value() : (got.has_value() && sonnx::bits(*got) == it->second);
    if (it == pattern_of.end()) ++refusal_checks;
    if (!ok && ++encode_errors <= 5)
      log << fmt.name << " encoding of " << x << " (double 0x" << std::hex << double_bits(x) << std::dec
                             << "): " << (got ? "accepted" : "refused") << '\n';
  };

  for (std::uint32_t b = 0; b < kPatterns; ++b) {
    const Decoded& d = table[b];
    const F f = make<F>(b);
    const double v = decode_under_test(f);
    if (d.nan) {  // a NaN has no value; the type recognises it and the encoder maps NaN to a NaN
      if (!(std::isnan(v) && sonnx::is_nan(f)) && ++decode_errors <= 5)
        log << fmt.name << " NaN pattern 0x" << std::hex << b << std::dec << " not recognised" << '\n';
      const auto n = encode(std::nan(""));
      if (!(n && table[sonnx::bits(*n)].nan) && ++encode_errors <= 5) log << fmt.name << " NaN not encoded as a NaN" << '\n';
      continue;
    }
    // The exact value, sign of zero included.
    if ((double_bits(v) != double_bits(d.value) || sonnx::is_nan(f)) && ++decode_errors <= 5)
      log << fmt.name << " 0x" << std::hex << b << std::dec << " decodes to " << v << ", expected " << d.value << '\n';
    check_encoding(d.value);  // re-encodes to itself
    // Any one of the double's 52 fraction bits flipped: accepted iff the result is again a value
    // of the type (the discarded bits of a normal value, all bits below a subnormal's).
    if (std::isfinite(d.value))
      for (int bit = 0; bit < 52; ++bit) check_encoding(from_double_bits(double_bits(d.value) ^ (std::uint64_t{1} << bit)));
  }
  // Strictly between two adjacent values (the midpoint and the doubles next to either end), and
  // beyond the largest finite values: refused.
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    const double lo = table[order[k]].value, hi = table[order[k + 1]].value;
    if (lo == hi) continue;  // -0, +0
    if (std::isinf(lo) || std::isinf(hi)) {  // the gap to +-Inf: the next finite step, and the doubles near it
      const double fin = std::isinf(lo) ? hi : lo, step = std::isinf(lo) ? -1.0 : 1.0;
      const double ulp = fin - table[order[std::isinf(lo) ? k + 2 : k - 1]].value;  // spacing of the top binade
      check_encoding(fin + step * std::fabs(ulp) / 2);
      check_encoding(fin + step * std::fabs(ulp));
      check_encoding(std::nextafter(fin, step * HUGE_VAL));
      continue;
    }
    check_encoding(lo + (hi - lo) / 2);
    check_encoding(std::nextafter(lo, hi));
    check_encoding(std::nextafter(hi, lo));
  }
  // For bfloat16, [Common.dtype.bfloat16]: the value of b is the binary32 pattern b * 2^16. Every
  // binary32 value b * 2^16 + t with 0 < t < 2^16 and b finite lies strictly between b and the next
  // pattern: refused (the 16 single bits of t, and t = 0xFFFF).
  if (fmt.w == 8) {
    for (std::uint32_t b = 0; b < kPatterns; ++b) {
      if (table[b].nan || std::isinf(table[b].value)) continue;
      for (std::uint32_t t : {0x0001u, 0x0002u, 0x0004u, 0x0008u, 0x0010u, 0x0020u, 0x0040u, 0x0080u, 0x0100u, 0x0200u,
                              0x0400u, 0x0800u, 0x1000u, 0x2000u, 0x4000u, 0x8000u, 0xFFFFu}) {
        const std::uint32_t u = (b << 16) | t;
        float x;
        std::memcpy(&x, &u, sizeof x);
        check_encoding(static_cast<double>(x));
      }
    }
  }
  std::printf("exhaustive %s: %d patterns decoded and re-encoded, %llu refusals checked in %.2f s\n", fmt.name,
              kPatterns, static_cast<unsigned long long>(refusal_checks), seconds_since(t0));
  INFO(log.str());
  CHECK(decode_errors == 0);
  CHECK(encode_errors == 0);
}

}  // namespace

TEST_CASE("[Common.order.total] [Common.order.max] [Common.order.nan] [Common.order.nan-payload] exhaustive float16: "
          "max_of and greater on all 2^32 ordered pairs of patterns",
          "[exhaustive]") {
  all_pairs<sonnx::float16>(kFloat16);
}

TEST_CASE("[Common.order.total] [Common.order.max] [Common.order.nan] [Common.order.nan-payload] exhaustive "
          "bfloat16: max_of and greater on all 2^32 ordered pairs of patterns",
          "[exhaustive]") {
  all_pairs<sonnx::bfloat16>(kBFloat16);
}

TEST_CASE("[Common.dtype.float16] exhaustive float16: every pattern decodes exactly and re-encodes to itself, "
          "values between patterns are refused",
          "[exhaustive]") {
  all_patterns<sonnx::float16>(kFloat16, [](double x) { return sonnx::exact_float16(x); },
                               [](sonnx::float16 h) { return sonnx::to_double(h); });
}

TEST_CASE("[Common.dtype.bfloat16] exhaustive bfloat16: every pattern decodes exactly and re-encodes to itself, "
          "values between patterns are refused",
          "[exhaustive]") {
  all_patterns<sonnx::bfloat16>(kBFloat16, [](double x) { return sonnx::exact_bfloat16(x); },
                                [](sonnx::bfloat16 b) { return sonnx::to_double(b); });
}

TEST_CASE("[Common.order.min] [Common.order.total] [Common.order.nan] [Common.order.nan-payload] exhaustive float16: "
          "min_of and its dual form on all 2^32 ordered pairs of patterns",
          "[exhaustive]") {
  all_pairs_min<sonnx::float16>(kFloat16);
}

TEST_CASE("[Common.order.min] [Common.order.total] [Common.order.nan] [Common.order.nan-payload] exhaustive "
          "bfloat16: min_of and its dual form on all 2^32 ordered pairs of patterns",
          "[exhaustive]") {
  all_pairs_min<sonnx::bfloat16>(kBFloat16);
}

TEST_CASE("[Common.order.min] [Common.dtype.float16] exhaustive float16: dual flips the sign bit of every pattern and "
          "reverses the order",
          "[exhaustive]") {
  all_duals<sonnx::float16>(kFloat16);
}

TEST_CASE("[Common.order.min] [Common.dtype.bfloat16] exhaustive bfloat16: dual flips the sign bit of every pattern "
          "and reverses the order",
          "[exhaustive]") {
  all_duals<sonnx::bfloat16>(kBFloat16);
}
