// Hand-derived checks of spec/common/accuracy.md: the constants of each type, θ(D), the rounding of
// the ideal to T, the verdict's allowed values. Expected values are worked out by hand from the
// clauses (θ(D) = (1 + v)^D − 1, v = u + u²(1 + u)).
#include "core/accuracy.hpp"
#include "test_util.hpp"

namespace accuracy_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace acc = sonnx::accuracy;

TEST_CASE("[Acc.bound] [Acc.hyp] the constants of each type and θ(D), an upper bound within 2^-40", "[accuracy]") {
  CHECK(acc::format_of(DType::Float).u == 0x1p-24);
  CHECK(acc::format_of(DType::Float16).u == 0x1p-11);
  CHECK(acc::format_of(DType::BFloat16).u == 0x1p-8);
  CHECK(acc::format_of(DType::Double).u == 0x1p-53);
  CHECK(acc::format_of(DType::Float16).omega == 65520.0);  // (2 - 2^-11)·2^15: the midpoint past 65504
  CHECK(acc::format_of(DType::Float).lambda == 0x1p-126);
  // v = 2^-24 + 2^-48 + 2^-72 (exact in binary64), then one unit up
  const double v = 0x1p-24 + 0x1p-48 + 0x1p-72;
  CHECK(acc::theta(DType::Float, 0) == 0);
  CHECK(acc::theta(DType::Float, 1) >= v);
  CHECK(acc::theta(DType::Float, 1) <= v * (1 + 0x1p-40));
  // θ(577) = Σ_k C(577, k)·v^k = 3.43924724678796174e-05 (the binomial series in rational arithmetic, to
  // 18 digits: the first 19 terms)
  CHECK(acc::theta(DType::Float, 577) >= 3.43924724678796174e-05);
  CHECK(acc::theta(DType::Float, 577) <= 3.43924724678796174e-05 * (1 + 0x1p-40));
  // float16, D = 28: (1 + 2^-11 + 2^-22 + 2^-33)^28 - 1 = 1.37691473818908477e-02 (the same way)
  CHECK(acc::theta(DType::Float16, 28) >= 1.37691473818908477e-02);
  CHECK(acc::theta(DType::Float16, 28) <= 1.37691473818908477e-02 * (1 + 0x1p-40));
  // beyond the table (D >= 2^16) the same binary powering; θ(2^20) for float: 0.064494460900635 (the series)
  const double t20 = acc::theta(DType::Float, 1 << 20);
  CHECK(t20 >= 0.064494460900634);
  CHECK(t20 <= 0.064494460900636);
  CHECK(acc::theta(DType::Float, 65535) < acc::theta(DType::Float, 65536));
}

TEST_CASE("[Acc.run] the ideal rounded once to T, to nearest, ties to even", "[accuracy]") {
  CHECK(acc::to_float16_bits(1 + 0x1p-11) == 0x3C00);      // a tie: to even
  CHECK(acc::to_float16_bits(1 + 3 * 0x1p-11) == 0x3C02);  // a tie: to even, upwards
  CHECK(acc::to_float16_bits(1 + 0x1p-11 + 0x1p-40) == 0x3C01);  // above the tie: one rounding, not two
  CHECK(acc::to_float16_bits(65519.99) == 0x7BFF);
  CHECK(acc::to_float16_bits(65520) == 0x7C00);  // Ω of float16: infinity
  CHECK(acc::to_float16_bits(-65520) == 0xFC00);
  CHECK(acc::to_float16_bits(0x1p-25) == 0x0000);  // half the least subnormal: a tie, to even (+0)
  CHECK(acc::to_float16_bits(3 * 0x1p-25) == 0x0002);  // 1.5 subnormal units: a tie, to even
  CHECK(acc::to_float16_bits(-0.0) == 0x8000);
  CHECK(acc::to_bfloat16_bits(1 + 0x1p-8) == 0x3F80);
  CHECK(acc::to_bfloat16_bits(1 + 3 * 0x1p-8) == 0x3F82);
  CHECK(acc::to_bfloat16_bits(1 + 0x1p-8 + 0x1p-30) == 0x3F81);  // not 0x3F80, as rounding through float would give
  CHECK(acc::to_bfloat16_bits(std::nan("")) == 0x7FC0);
  acc::Element nan;
  nan.allowed = acc::kNan;
  CHECK(acc::run_bits(DType::Float, nan) == 0x7FC00000);
  CHECK(acc::run_bits(DType::Double, nan) == 0x7FF8000000000000);
  CHECK(acc::run_bits(DType::Float16, nan) == 0x7E00);
  acc::Element pair;  // double: fl(σ + τ)
  pair.hi = 1, pair.lo = 0x1p-53 + 0x1p-80;
  CHECK(acc::run_bits(DType::Double, pair) == bits_of(1 + 0x1p-52));
}

TEST_CASE("[Acc.verdict] [Acc.nonfinite] [Acc.zero] what conforms to an enclosure", "[accuracy]") {
  acc::Element e;
  e.hi = 1, e.radius = 0x1p-20, e.allowed = acc::kFinite;
  CHECK(acc::judge(DType::Float, e, 1 + 0x1p-20).conforms);
  CHECK_FALSE(acc::judge(DType::Float, e, 1 + 0x1p-19).conforms);
  CHECK_FALSE(acc::judge(DType::Float, e, INFINITY).conforms);
  CHECK_FALSE(acc::judge(DType::Float, e, std::nan("")).conforms);
  const acc::Judgement j = acc::judge(DType::Float, e, 1 + 8 * 0x1p-23);  // 8 units in the last place of 1
  CHECK(j.ulps == 8);
  CHECK(j.fraction == 1.0);  // 2^-20 = 8·2^-23: exactly at the radius
  CHECK(j.conforms);
  acc::Element z;  // [Acc.zero] a zero ideal: both zeros conform
  z.hi = -0.0, z.radius = 0, z.allowed = acc::kFinite;
  CHECK(acc::judge(DType::Float, z, 0.0).conforms);
  CHECK(acc::judge(DType::Float, z, -0.0).conforms);
  acc::Element over;  // [Acc.overflow] finite within R, or +Inf
  over.hi = 1e38, over.radius = 1e30, over.allowed = acc::kFinite | acc::kPosInf;
  CHECK(acc::judge(DType::Float, over, INFINITY).conforms);
  CHECK_FALSE(acc::judge(DType::Float, over, -INFINITY).conforms);
  CHECK_FALSE(acc::judge(DType::Float, over, std::nan("")).conforms);
  acc::Element unbounded;  // a finite value never conforms to an enclosure that is not finite
  unbounded.hi = 1, unbounded.radius = INFINITY, unbounded.allowed = acc::kFinite;
  CHECK_FALSE(acc::judge(DType::Double, unbounded, 1).conforms);
}

TEST_CASE("[Acc.oracle] [Acc.terms] the counters of an element and the oracle's own allowance", "[accuracy]") {
  acc::Sums s;
  acc::count_terms(DType::Float, s, 576, 1, 1.0, 1, 0, 0);  // a 3 x 3 x 64 Conv with its bias
  CHECK(s.n == 577);
  CHECK(s.depth == 577);  // (n - 1) + max e_k = 576 + 1
  CHECK(s.lambda_units == 576);  // one η̄ per product, none for the bias
  acc::Sums g;
  acc::count_terms(DType::Float16, g, 4, 3, 2.0, 1, 2, 2);  // Gemm: α not a float16 value (e = 3), β likewise (e = 2)
  CHECK(g.depth == 4 + 3);
  CHECK(g.partial > 4);  // (1 + v)·M² + η̄ with M = 2
  // e_o for the short types: γ_m(2^-53)·Ŝ↑, m = n + steps + 1
  s.sigma = 1, s.mag = 1;
  const acc::Element e = acc::enclose(DType::Float, s);
  CHECK(e.oracle > 578 * 0x1p-53);
  CHECK(e.oracle < 579 * 0x1p-53);
}

TEST_CASE("[Acc.divisor] c_d on hand-derived divisors: 0 for d = 1, the division, the reciprocal's rounding, d's rounding twice",
          "[accuracy]") {
  // float: 2 and 2^24 are powers of two (1/d a float: c_d = 1); 3 and 1000 are floats whose reciprocal
  // is not (2); 2^24 + 1 = 16777217 has 25 significant bits, not a float (1 + 2 = 3)
  CHECK(acc::divisor_roundings(DType::Float, 1) == 0);
  CHECK(acc::divisor_roundings(DType::Float, 2) == 1);
  CHECK(acc::divisor_roundings(DType::Float, 1 << 24) == 1);
  CHECK(acc::divisor_roundings(DType::Float, 3) == 2);
  CHECK(acc::divisor_roundings(DType::Float, 1000) == 2);
  CHECK(acc::divisor_roundings(DType::Float, (1 << 24) + 1) == 3);
  // float16 (p = 11, η = 2^-24, Ω = 65520): 2049 has 12 significant bits (3); 2050 = 2·1025 is a value (2);
  // 65504 = 2^5·2047 is the largest (2); 65536 is beyond Ω but 2^-16 is a subnormal value (1 + 2 = 3);
  // 2^24: 1/d = η is a value, d is not (3); 2^25: neither (3); 2048: 1
  CHECK(acc::divisor_roundings(DType::Float16, 2048) == 1);
  CHECK(acc::divisor_roundings(DType::Float16, 2049) == 3);
  CHECK(acc::divisor_roundings(DType::Float16, 2050) == 2);
  CHECK(acc::divisor_roundings(DType::Float16, 65504) == 2);
  CHECK(acc::divisor_roundings(DType::Float16, 65536) == 3);
  CHECK(acc::divisor_roundings(DType::Float16, 1 << 24) == 3);
  CHECK(acc::divisor_roundings(DType::Float16, 1 << 25) == 3);
  // bfloat16 (p = 8): 255 is a value (2), 256 a power of two (1), 257 has 9 bits (3)
  CHECK(acc::divisor_roundings(DType::BFloat16, 255) == 2);
  CHECK(acc::divisor_roundings(DType::BFloat16, 256) == 1);
  CHECK(acc::divisor_roundings(DType::BFloat16, 257) == 3);
  // double: 3 (2); 2^53 + 1 has 54 bits (3); 2^62 (1)
  CHECK(acc::divisor_roundings(DType::Double, 3) == 2);
  CHECK(acc::divisor_roundings(DType::Double, (std::int64_t{1} << 53) + 1) == 3);
  CHECK(acc::divisor_roundings(DType::Double, std::int64_t{1} << 62) == 1);
}

TEST_CASE("[Acc.divisor] [Acc.oracle] the oracle's division after the sum, pinned", "[accuracy]") {
  // double: 1/3 = 0x1.5555555555555p-2 (rounded down); 3·q1 = 1 − 2^-54, so r = 2^-54 exactly and
  // q2 = fl(2^-54/3) = 0x1.5555555555555p-56
  acc::Accumulator d(DType::Double);
  d.add_value(1.0);
  d.divide(3);
  const acc::Sums s = d.result(0, 0, 1.0, 1, acc::divisor_roundings(DType::Double, 3), 2);
  CHECK(s.sigma == 0x1.5555555555555p-2);
  CHECK(s.tau == 0x1.5555555555555p-56);
  CHECK(s.mag == 0x1.5555555555555p-2);
  CHECK(s.ops == 1 + 2 + 1);    // one addition, the division's two steps, the first
  CHECK(s.depth == 0 + 2);      // n − 1 + c_d
  CHECK(s.divisor == 3);
  // float: 1 + 1 summed in binary64, then 2/3 = 0x1.5555555555555p-1
  acc::Accumulator f(DType::Float);
  f.add_value(1.0), f.add_value(1.0);
  f.divide(3);
  CHECK(f.sigma() == 0x1.5555555555555p-1);
  // a sum of −0 divided stays −0 ([Acc.run]), and an infinity stays
  acc::Accumulator z(DType::Float);
  z.add_value(-0.0), z.add_value(-0.0);
  z.divide(2);
  CHECK(std::signbit(z.sigma()));
  acc::Accumulator i(DType::Float);
  i.add_value(std::numeric_limits<double>::infinity()), i.add_value(1.0);
  i.divide(2);
  const acc::Element e = acc::enclose(DType::Float, i.result(0, 0, 1.0, 2, 1, 2));
  CHECK(e.allowed == acc::kPosInf);
  // d = 1 changes nothing; d = 0 is not a division
  acc::Accumulator one(DType::Float);
  one.add_value(0.1);
  one.divide(1);
  one.divide(0);
  CHECK(one.sigma() == 0.1);
}

}  // namespace accuracy_test
