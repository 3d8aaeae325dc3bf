// Hand-derived cases of spec/common/check.md: the NaN payload modes of the comparison
// ([Check.bitwise], [Check.nan-payload.strict], [Check.nan-payload.any], [Check.ulp]) and the
// partition of a campaign into shards ([Check.shard]). Expected counts, offsets and bit patterns are
// worked out by hand from the clauses.
#include "oracle/compare.hpp"
#include "oracle/shard.hpp"
#include "test_util.hpp"

namespace nan_payload_shard_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

compare::Options mode(bool strict, std::uint64_t ulp = 0) {
  compare::Options o = compare::options_for(ulp ? std::optional<std::uint64_t>(ulp) : std::nullopt);
  o.nan_payload_strict = strict;
  return o;
}

// expected [qNaN 0x7fc00001, 1, -qNaN 0xffc00002, qNaN 0x7fc00005]
// actual   [qNaN 0x7fc00003, 1, -qNaN 0xffc00002, 2]
// element 0: both NaN, other bits (payload-only); 1: equal; 2: the same NaN; 3: NaN against a number.
const Tensor kExpected = f32({4}, {nan_with_bits(0x7fc00001), 1, nan_with_bits(0xffc00002), nan_with_bits(0x7fc00005)});
const Tensor kActual = f32({4}, {nan_with_bits(0x7fc00003), 1, nan_with_bits(0xffc00002), 2});

}  // namespace

TEST_CASE("[Check.nan-payload.any] [Check.bitwise] by default two NaNs of other bits conform, counted and listed as a note",
          "[check][nan-payload]") {
  const auto r = compare::compare(kExpected, kActual, mode(false));
  CHECK_FALSE(r.conforms);    // element 3: a NaN conforms only to a NaN
  CHECK(r.mismatches == 1);   // element 3 alone
  CHECK(r.first.at(0).offset == 3);
  CHECK(r.nan_payload_only == 1);  // element 0 alone: element 2 holds the same bits
  REQUIRE(r.nan_payload_first.size() == 1);
  CHECK(r.nan_payload_first[0].offset == 0);
  CHECK(r.nan_payload_first[0].expected_bits == "0x7fc00001");
  CHECK(r.nan_payload_first[0].actual_bits == "0x7fc00003");
}

TEST_CASE("[Check.nan-payload.strict] [Common.order.nan-payload] under strict two NaNs conform only with the same bits",
          "[check][nan-payload]") {
  const auto r = compare::compare(kExpected, kActual, mode(true));
  CHECK_FALSE(r.conforms);
  CHECK(r.mismatches == 2);  // elements 0 and 3
  REQUIRE(r.first.size() == 2);
  CHECK(r.first[0].offset == 0);
  CHECK(r.first[0].actual_bits == "0x7fc00003");
  CHECK(r.first[1].offset == 3);
  CHECK(r.nan_payload_only == 1);         // counted in both modes
  CHECK(r.nan_payload_first.empty());     // a mismatch now, not a note
  // the same NaN (element 2) and equal numbers conform in both modes
  const Tensor same = f32({2}, {nan_with_bits(0xffc00002), 1});
  CHECK(compare::compare(same, same, mode(true)).conforms);
}

TEST_CASE("[Check.nan-payload.strict] [Check.ulp] strict holds within N ulps too, any accepts any NaN there",
          "[check][nan-payload]") {
  const Tensor e = f32({2}, {nan_with_bits(0x7fc00001), 1});
  const Tensor a = f32({2}, {nan_with_bits(0x7f800001), nan_with_bits(0x3f800001)});  // sNaN; 1 + 1 ulp
  const auto any = compare::compare(e, a, mode(false, 1));
  CHECK(any.conforms);
  CHECK(any.nan_payload_only == 1);
  const auto strict = compare::compare(e, a, mode(true, 1));
  CHECK_FALSE(strict.conforms);
  CHECK(strict.mismatches == 1);
  CHECK(strict.first.at(0).offset == 0);
}

TEST_CASE("[Check.nan-payload.any] [Check.nan-payload.strict] float16, bfloat16 and double: sign, quiet bit and payload count",
          "[check][nan-payload]") {
  // float16: quiet NaN 0x7e00 vs signalling 0x7c01 vs -quiet 0xfe00 (three patterns, all NaN)
  const Tensor h_e = make_tensor<float16>({3}, {float16{std::uint16_t(0x7e00)}, float16{std::uint16_t(0x7e00)},
                                                float16{std::uint16_t(0x3c00)}});
  const Tensor h_a = make_tensor<float16>({3}, {float16{std::uint16_t(0x7c01)}, float16{std::uint16_t(0xfe00)},
                                                float16{std::uint16_t(0x3c00)}});
  CHECK(compare::compare(h_e, h_a, mode(false)).conforms);
  CHECK(compare::compare(h_e, h_a, mode(false)).nan_payload_only == 2);
  CHECK(compare::compare(h_e, h_a, mode(true)).mismatches == 2);
  // bfloat16: 0x7fc1 vs 0x7fc0
  const Tensor b_e = make_tensor<bfloat16>({1}, {bfloat16{std::uint16_t(0x7fc1)}});
  const Tensor b_a = make_tensor<bfloat16>({1}, {bfloat16{std::uint16_t(0x7fc0)}});
  CHECK(compare::compare(b_e, b_a, mode(false)).nan_payload_only == 1);
  CHECK(compare::compare(b_e, b_a, mode(true)).mismatches == 1);
  // double: payload 1 vs payload 2
  double d1, d2;
  const std::uint64_t u1 = 0x7ff8000000000001ull, u2 = 0x7ff8000000000002ull;
  std::memcpy(&d1, &u1, 8);
  std::memcpy(&d2, &u2, 8);
  const Tensor d_e = make_tensor<double>({1}, {d1}), d_a = make_tensor<double>({1}, {d2});
  CHECK(compare::compare(d_e, d_a, mode(false)).nan_payload_first.at(0).actual_bits == "0x7ff8000000000002");
  CHECK_FALSE(compare::compare(d_e, d_a, mode(true)).conforms);
}

TEST_CASE("[Check.shard] K/N is two decimal integers with 1 <= K <= N", "[shard]") {
  CHECK(shard::parse("1/1").has_value());
  CHECK(shard::parse("3/7")->index == 3);
  CHECK(shard::parse("3/7")->count == 7);
  for (const char* bad : {"0/3", "4/3", "x", "3", "1/0", "/3", "3/", "-1/3", "1/3/3", " 1/3", "1.5/3", "+1/3", ""})
    CHECK_FALSE(shard::parse(bad).has_value());
}

TEST_CASE("[Check.shard] position p is in piece p mod N + 1: the pieces partition the cases, sizes within one", "[shard]") {
  CHECK(shard::positions({2, 3}, 10) == std::vector<std::size_t>{1, 4, 7});  // by hand: 1 mod 3 = 1, 4, 7
  CHECK(shard::positions({3, 3}, 2).empty());
  CHECK(shard::positions({1, 1}, 3) == std::vector<std::size_t>{0, 1, 2});
  for (std::size_t n = 1; n <= 9; ++n)
    for (std::size_t total = 0; total <= 20; ++total) {
      std::vector<int> seen(total, 0);
      std::size_t smallest = total, largest = 0;
      for (std::size_t k = 1; k <= n; ++k) {
        const auto p = shard::positions({k, n}, total);
        for (std::size_t q : p) {
          ++seen.at(q);
          CHECK(shard::holds({k, n}, q));
        }
        smallest = std::min(smallest, p.size());
        largest = std::max(largest, p.size());
      }
      CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
      CHECK(largest - smallest <= 1);
    }
}

}  // namespace nan_payload_shard_test
