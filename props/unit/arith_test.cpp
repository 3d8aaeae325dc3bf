// Hand-derived examples of spec/common/arithmetic.md and spec/ops/{add,sub,mul,div}.md: the documents'
// worked examples, the refusals of every version, the legacy broadcast, Div's integer rules, the
// one-element definition and the witnesses of golden, each citing its clauses. Expected bits worked out
// by hand in the comments.
#include <set>

#include "ops/add.hpp"
#include "ops/div.hpp"
#include "ops/mul.hpp"
#include "ops/registry.hpp"
#include "ops/sub.hpp"
#include "oracle/compare.hpp"
#include "test_util.hpp"

namespace arith_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using ops::LegacyBroadcast;

namespace {

Tensor h16(std::vector<std::uint16_t> b) {
  std::vector<float16> v;
  for (auto x : b) v.push_back(float16{x});
  return make_tensor<float16>({static_cast<std::int64_t>(v.size())}, v);
}
Tensor b16(std::vector<std::uint16_t> b) {
  std::vector<bfloat16> v;
  for (auto x : b) v.push_back(bfloat16{x});
  return make_tensor<bfloat16>({static_cast<std::int64_t>(v.size())}, v);
}
float fb(std::uint32_t b) { return nan_with_bits(b); }  // any float from its bits

}  // namespace

TEST_CASE("[Add.float.formula] [Common.arith.rounding] [Common.arith.zero] [Common.arith.nan] [Add.v14] add.md Example 1",
          "[arith]") {
  // 1 + 2^-24: the tie between 1 and 1 + 2^-23 goes to the even 1; -0 + -0 = -0; 3 + -3 = +0;
  // +Inf + -Inf: the canonical quiet NaN; 2^-126 - 1.5·2^-126 = -2^-127 (subnormal, 0x80400000).
  auto y = ops::add(14, f32({5}, {1.0f, -0.0f, 3.0f, kInf, fb(0x00800000)}),
                    f32({5}, {fb(0x33800000), -0.0f, -3.0f, -kInf, fb(0x80C00000)}), {});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x3F800000u, 0x80000000u, 0x00000000u, 0x7FC00000u, 0x80400000u});
  // float16: 65504 + 16 = 65520 = Ω rounds to +Inf; 65504 + 15 stays 65504
  CHECK(bits16(ops::add(7, h16({0x7BFF, 0x7BFF}), h16({0x4C00, 0x4B80}), {})) == std::vector<std::uint16_t>{0x7C00, 0x7BFF});
}

TEST_CASE("[Sub.float.formula] [Common.arith.rounding] [Common.arith.zero] [Common.arith.nan] [Sub.v7] sub.md Example 1",
          "[arith]") {
  // 1 - 2^-25: the tie between 1 - 2^-24 and 1 goes to the even 1; -0 - +0 = -0; 3 - 3 = +0;
  // Inf - Inf: NaN; 1.5·2^-126 - 2^-126 = 2^-127
  auto y = ops::sub(7, f32({5}, {1.0f, -0.0f, 3.0f, kInf, fb(0x00C00000)}), f32({5}, {fb(0x33000000), 0.0f, 3.0f, kInf, fb(0x00800000)}),
                    {});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x3F800000u, 0x80000000u, 0x00000000u, 0x7FC00000u, 0x00400000u});
  // float16: -65504 - 16 = -Inf
  CHECK(bits16(ops::sub(13, h16({0xFBFF}), h16({0x4C00}), {})) == std::vector<std::uint16_t>{0xFC00});
}

TEST_CASE("[Mul.float.formula] [Common.arith.rounding] [Common.arith.zero] [Common.arith.nan] [Mul.v13] mul.md Example 1",
          "[arith]") {
  // (1 + 2^-23)·1.5 = 1.5 + 3·2^-24: the tie between 1.5 + 2^-23 (odd) and 1.5 + 2^-22 (even,
  // 0x3FC00002); FLT_MAX·2 = +Inf; -1·+0 = -0; 0·Inf = NaN; 2^-126·0.5 = 2^-127; 2^-149·0.5: the tie
  // between 0 and 2^-149 goes to the even +0
  auto y = ops::mul(13, f32({6}, {fb(0x3F800001), fb(0x7F7FFFFF), -1.0f, 0.0f, fb(0x00800000), fb(0x00000001)}),
                    f32({6}, {1.5f, 2.0f, 0.0f, kInf, 0.5f, 0.5f}), {});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x3FC00002u, 0x7F800000u, 0x80000000u, 0x7FC00000u, 0x00400000u, 0x00000000u});
}

TEST_CASE("[Div.float.formula] [Common.arith.rounding] [Common.arith.zero] [Common.arith.nan] [Div.v13] div.md Example 1",
          "[arith]") {
  // 3·2^-149 / 2: the tie between 2^-149 and 2^-148 goes to the even 2^-148 (0x00000002); 1/3 =
  // 0x3EAAAAAB; +0 / -3 = -0; 1 / -0 = -Inf; FLT_MAX / 0.5 = +Inf; 0/0 NaN; 1/10 = 0x3DCCCCCD
  auto y = ops::div(13, f32({7}, {fb(0x00000003), 1.0f, 0.0f, 1.0f, fb(0x7F7FFFFF), 0.0f, 1.0f}),
                    f32({7}, {2.0f, 3.0f, -3.0f, -0.0f, 0.5f, 0.0f, 10.0f}), {});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x00000002u, 0x3EAAAAABu, 0x80000000u, 0xFF800000u, 0x7F800000u, 0x7FC00000u,
                                              0x3DCCCCCDu});
}

TEST_CASE("[Div.float.formula] [Common.arith.rounding] Div through a reciprocal estimate differs: 5/3 in every float type",
          "[arith]") {
  // float: 5/3 = 0x3FD55555 (1.66666662693), 5·fl(1/3) = 1.66666674614 = 0x3FD55556 (the fault)
  CHECK(bits(ops::div(7, f32({1}, {5.0f}), f32({1}, {3.0f}), {})) == std::vector<std::uint32_t>{0x3FD55555u});
  // float16: 5/3 = 1.6669921875 = 0x3EAB; bfloat16: 1.6640625 = 0x3FD5
  CHECK(bits16(ops::div(7, h16({0x4500}), h16({0x4200}), {})) == std::vector<std::uint16_t>{0x3EAB});
  CHECK(bits16(ops::div(13, b16({0x40A0}), b16({0x4040}), {})) == std::vector<std::uint16_t>{0x3FD5});
  // double: 5/3 = 0x3FFAAAAAAAAAAAAB
  auto d = ops::div(7, make_tensor<double>({1}, {5.0}), make_tensor<double>({1}, {3.0}), {});
  CHECK(bits_of(values<double>(d)[0]) == 0x3FFAAAAAAAAAAAABull);
}

TEST_CASE("[Common.arith.rounding] float16 and bfloat16 through float: ties, subnormals and the overflow threshold",
          "[arith]") {
  // bfloat16: 1 + 2^-8 is the tie between 1 and 1 + 2^-7: 1 (0x3F80); 2^-126 · 2^-7 = 2^-133, the least
  // subnormal (0x0001); 2^-133 · 0.5: the tie at the least midpoint goes to +0; Ω = (2 - 2^-8)·2^127:
  // max (0x7F7F) = 2^128 - 2^120, + 2^119 (0x7B00) = Ω exactly: the tie rounds to +Inf
  CHECK(bits16(ops::add(13, b16({0x3F80}), b16({0x3B80}), {})) == std::vector<std::uint16_t>{0x3F80});
  CHECK(bits16(ops::mul(13, b16({0x0080, 0x0001}), b16({0x3C00, 0x3F00}), {})) == std::vector<std::uint16_t>{0x0001, 0x0000});
  CHECK(bits16(ops::add(13, b16({0x7F7F, 0x7F7F}), b16({0x7B00, 0x7A80}), {})) == std::vector<std::uint16_t>{0x7F80, 0x7F7F});
  // float16: 3·2^-24 / 2: the tie between 2^-24 and 2^-23 goes to the even 2^-23 (0x0002)
  CHECK(bits16(ops::div(13, h16({0x0003}), h16({0x4000}), {})) == std::vector<std::uint16_t>{0x0002});
  // NaN operands of float16 and bfloat16 give the canonical quiet NaN
  CHECK(bits16(ops::add(13, h16({0xFC01}), h16({0x3C00}), {})) == std::vector<std::uint16_t>{0x7E00});
  CHECK(bits16(ops::add(13, b16({0xFF81}), b16({0x3F80}), {})) == std::vector<std::uint16_t>{0x7FC0});
}

TEST_CASE("[Common.arith.nan] a NaN operand gives the canonical quiet NaN, sign clear, whatever its payload", "[arith]") {
  auto y = ops::mul(7, f32({2}, {fb(0xFFC00001), 1.0f}), f32({2}, {2.0f, fb(0x7F800002)}), {});
  CHECK(bits(y) == std::vector<std::uint32_t>{0x7FC00000u, 0x7FC00000u});
}

TEST_CASE("[Check.nan-payload.free] an arithmetic NaN conforms whatever its payload, under --nan-payload strict too", "[arith]") {
  const auto& op = ops::resolve("Add", 14);
  CHECK(op.nan_payload_free);
  const Tensor a = f32({2}, {kInf, 1.0f}), b = f32({2}, {-kInf, 2.0f});
  auto out = op.run({&a, &b}, {}, 1);
  REQUIRE(out[0].nan_payload_free);
  compare::Options strict;
  strict.nan_payload_strict = true;
  const Tensor iut = f32({2}, {fb(0xFFC00123), 3.0f});
  const auto r = compare::compare(out[0], iut, strict);
  CHECK(r.conforms);
  CHECK(r.nan_payload_only == 0);
  CHECK_FALSE(compare::compare(out[0], f32({2}, {1.0f, 3.0f}), strict).conforms);  // a NaN against a number
  // A selecting operator's output keeps the payload rule: Max's NaN under strict
  const Tensor m = f32({1}, {fb(0x7FC00001)});
  auto mx = ops::resolve("Max", 13).run({&m}, {}, 1);
  CHECK_FALSE(mx[0].nan_payload_free);
  CHECK_FALSE(compare::compare(mx[0], f32({1}, {fb(0x7FC00000)}), strict).conforms);
}

TEST_CASE("[Add.int.formula] [Sub.int.formula] [Mul.int.formula] [Common.arith.int] [Add.v6] [Sub.v6] [Mul.v6] [Sub.v14] "
          "[Mul.v14] integer Examples, wrap-around",
          "[arith]") {
  CHECK(values<std::int8_t>(ops::add(14, make_tensor<std::int8_t>({2}, {127, -7}), make_tensor<std::int8_t>({2}, {1, 2}), {})) ==
        std::vector<std::int8_t>{-128, -5});
  CHECK(values<std::uint8_t>(ops::add(14, make_tensor<std::uint8_t>({1}, {200}), make_tensor<std::uint8_t>({1}, {100}), {})) ==
        std::vector<std::uint8_t>{44});
  CHECK(values<std::int8_t>(ops::sub(14, make_tensor<std::int8_t>({1}, {-128}), make_tensor<std::int8_t>({1}, {1}), {})) ==
        std::vector<std::int8_t>{127});
  CHECK(values<std::uint8_t>(ops::sub(14, make_tensor<std::uint8_t>({1}, {0}), make_tensor<std::uint8_t>({1}, {1}), {})) ==
        std::vector<std::uint8_t>{255});
  CHECK(values<std::int8_t>(ops::mul(14, make_tensor<std::int8_t>({1}, {127}), make_tensor<std::int8_t>({1}, {2}), {})) ==
        std::vector<std::int8_t>{-2});
  CHECK(values<std::uint16_t>(ops::mul(14, make_tensor<std::uint16_t>({1}, {65535}), make_tensor<std::uint16_t>({1}, {65535}), {})) ==
        std::vector<std::uint16_t>{1});
  CHECK(values<std::int32_t>(ops::mul(6, make_tensor<std::int32_t>({1}, {2147483647}), make_tensor<std::int32_t>({1}, {2}), {})) ==
        std::vector<std::int32_t>{-2});
  CHECK(values<std::uint64_t>(ops::sub(6, make_tensor<std::uint64_t>({1}, {0}), make_tensor<std::uint64_t>({1}, {1}), {})) ==
        std::vector<std::uint64_t>{18446744073709551615ull});
}

TEST_CASE("[Div.int.formula] [Div.v6] [Div.v14] integer Div truncates toward zero, min / -1 wraps to min", "[arith]") {
  CHECK(values<std::int32_t>(ops::div(6, make_tensor<std::int32_t>({4}, {7, -7, 7, -7}), make_tensor<std::int32_t>({4}, {2, 2, -2, -2}), {})) ==
        std::vector<std::int32_t>{3, -3, -3, 3});
  CHECK(values<std::int8_t>(ops::div(14, make_tensor<std::int8_t>({1}, {-128}), make_tensor<std::int8_t>({1}, {-1}), {})) ==
        std::vector<std::int8_t>{-128});
  const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  CHECK(values<std::int64_t>(ops::div(7, make_tensor<std::int64_t>({1}, {min64}), make_tensor<std::int64_t>({1}, {-1}), {})) ==
        std::vector<std::int64_t>{min64});
  CHECK(values<std::uint8_t>(ops::div(14, make_tensor<std::uint8_t>({2}, {255, 7}), make_tensor<std::uint8_t>({2}, {2, 8}), {})) ==
        std::vector<std::uint8_t>{127, 0});
}

TEST_CASE("[Div.err.zero] integer division by zero is refused, naming the element, float division by zero is not", "[arith][error]") {
  const Tensor a = make_tensor<std::int32_t>({2, 2}, {1, 2, 3, 4}), b = make_tensor<std::int32_t>({2}, {5, 0});
  try {
    ops::div(14, a, b, {});
    FAIL("not refused");
  } catch (const SpecError& e) {
    CHECK(e.id() == "Div.err.zero");
    const std::string m = e.report();
    CHECK(m.find("C[0, 1]") != std::string::npos);  // the first index of C whose divisor is 0
    CHECK(m.find("B[1]") != std::string::npos);
  }
  // an empty output reads no divisor: no refusal
  CHECK(refusal_id([] { ops::div(14, make_tensor<std::int32_t>({0, 2}, {}), make_tensor<std::int32_t>({2}, {0, 0}), {}); }) == "");
  CHECK(refusal_id([] { ops::div(14, make_tensor<std::uint8_t>({1}, {3}), make_tensor<std::uint8_t>({1}, {0}), {}); }) == "Div.err.zero");
  CHECK(refusal_id([] { ops::div(14, f32({1}, {3.0f}), f32({1}, {0.0f}), {}); }) == "");
}

TEST_CASE("[Add.err.dtype] [Sub.err.dtype] [Mul.err.dtype] [Div.err.dtype] [Add.v1] [Sub.v1] [Mul.v1] [Div.v1] [Add.v13] "
          "[Sub.v13] [Div.v14] [Add.v14] the types of each version",
          "[arith][error]") {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    INFO(op);
    const auto run = [op](int v, const Tensor& x) {
      return ops::resolve(op, v).run({&x, &x}, {}, 1);
    };
    const std::string err = std::string(op) + ".err.dtype";
    CHECK(refusal_id([&] { run(1, make_tensor<std::int32_t>({1}, {1})); }) == err);
    CHECK(refusal_id([&] { run(6, make_tensor<std::int32_t>({1}, {1})); }) == "");
    CHECK(refusal_id([&] { run(7, make_tensor<bfloat16>({1}, {bfloat16{0x3F80}})); }) == err);
    CHECK(refusal_id([&] { run(13, make_tensor<bfloat16>({1}, {bfloat16{0x3F80}})); }) == "");
    CHECK(refusal_id([&] { run(13, make_tensor<std::int8_t>({1}, {1})); }) == err);
    CHECK(refusal_id([&] { run(14, make_tensor<std::uint16_t>({1}, {1})); }) == "");
    CHECK(refusal_id([&] { run(14, make_tensor<bool>({1}, {true})); }) == err);
  }
}

TEST_CASE("[Add.err.type] [Sub.err.type] [Mul.err.type] [Div.err.type] [Add.err.broadcast] [Sub.err.broadcast] "
          "[Mul.err.broadcast] [Div.err.broadcast] [Add.v7] [Sub.v7] [Mul.v7] [Div.v7] two types, shapes that do not broadcast",
          "[arith][error]") {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    INFO(op);
    const Tensor f = f32({2}, {1, 2}), d = make_tensor<double>({2}, {1, 2}), g = f32({3}, {1, 2, 3});
    CHECK(refusal_id([&] { ops::resolve(op, 14).run({&f, &d}, {}, 1); }) == std::string(op) + ".err.type");
    CHECK(refusal_id([&] { ops::resolve(op, 7).run({&f, &g}, {}, 1); }) == std::string(op) + ".err.broadcast");
    const Tensor row = f32({1, 3}, {1, 2, 3}), col = f32({2, 1}, {1, 2});
    auto y = ops::resolve(op, 7).run({&row, &col}, {}, 1);
    CHECK(y[0].shape() == Shape{2, 3});
  }
}

TEST_CASE("[Common.arith.legacy] [Add.err.legacy] [Sub.err.legacy] [Mul.err.legacy] [Div.err.legacy] [Add.v6] [Div.v6] "
          "[Mul.v1] [Common.prop.arith-commute] the legacy broadcast - axis against suffix matching, one element, refusals",
          "[arith]") {
  // A (2, 2) = [[1, 2], [3, 4]], B = [10, 20]: axis 0 adds by row, suffix matching by column
  const Tensor A = f32({2, 2}, {1, 2, 3, 4}), B = f32({2}, {10, 20});
  CHECK(bits(ops::add(6, A, B, LegacyBroadcast{1, 0})) == bits(std::vector<float>{11, 12, 23, 24}));
  CHECK(bits(ops::add(6, A, B, LegacyBroadcast{1, std::nullopt})) == bits(std::vector<float>{11, 22, 13, 24}));
  CHECK(bits(ops::add(6, A, B, LegacyBroadcast{1, 1})) == bits(std::vector<float>{11, 22, 13, 24}));  // axis = rA - rB: suffix
  // Div-1, A (2, 3, 4) and B (3, 4) axis 1; B one element (rank 2 <= 3): read for every index
  const Tensor A3 = f32({2, 3, 4}, std::vector<float>(24, 12.0f));
  std::vector<float> bv(12);
  for (int k = 0; k < 12; ++k) bv[k] = static_cast<float>(k + 1);
  auto q = ops::div(1, A3, f32({3, 4}, bv), LegacyBroadcast{1, 1});
  CHECK(values<float>(q)[13] == 12.0f / 2.0f);
  CHECK(values<float>(ops::mul(1, A3, f32({1, 1}, {0.5f}), LegacyBroadcast{1, std::nullopt}))[23] == 6.0f);
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    INFO(op);
    const std::string err = std::string(op) + ".err.legacy";
    const Tensor b34 = f32({3, 4}, bv), b15 = f32({1, 4}, {1, 2, 3, 4});
    const auto run = [&](const Tensor& b, ops::Attributes at) { return ops::resolve(op, 6).run({&A3, &b}, at, 1); };
    CHECK(refusal_id([&] { run(b34, {}); }) == err);                                    // broadcast 0, shapes differ
    const Tensor b23 = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    CHECK(refusal_id([&] { run(b23, {{"broadcast", std::int64_t{1}}}); }) == err);     // suffix matching: (3, 4), not (2, 3)
    CHECK(refusal_id([&] { run(b23, {{"broadcast", std::int64_t{1}}, {"axis", std::int64_t{0}}}); }) == "");
    CHECK(refusal_id([&] { run(b34, {{"broadcast", std::int64_t{1}}}); }) == "");      // suffix matching: (3, 4)
    CHECK(refusal_id([&] { run(b15, {{"broadcast", std::int64_t{1}}}); }) == err);     // no size-1 stretching
    CHECK(refusal_id([&] { run(b34, {{"broadcast", std::int64_t{1}}, {"axis", std::int64_t{2}}}); }) == err);  // 2 + 2 > 3
    CHECK(refusal_id([&] { run(b34, {{"broadcast", std::int64_t{1}}, {"axis", std::int64_t{-1}}}); }) == err);
    CHECK(refusal_id([&] { run(b34, {{"broadcast", std::int64_t{1}}, {"axis", std::int64_t{1}}}); }) == "");
    CHECK(refusal_id([&] { ops::resolve(op, 7).run({&A3, &b34}, {{"broadcast", std::int64_t{1}}}, 1); }) == "Graph.node.attributes");
  }
}

TEST_CASE("[Common.arith.map] [Add.float.formula] rank 0 and empty outputs", "[arith]") {
  auto y = ops::add(14, make_tensor<double>({}, {1.5}), make_tensor<double>({}, {-0.25}), {});
  CHECK(y.shape() == Shape{});
  CHECK(values<double>(y)[0] == 1.25);
  auto e = ops::mul(14, f32({2, 0}, {}), f32({1}, {3}), {});
  CHECK(e.shape() == Shape{2, 0});
}

TEST_CASE("[Check.golden-coverage] [Common.arith.rounding] every witness of each operator and type is decided by the "
          "situation it was built for, and decide agrees with run",
          "[arith][golden]") {
  for (const char* op : {"Add", "Sub", "Mul", "Div"})
    for (DType t : {DType::Float16, DType::BFloat16, DType::Float, DType::Double, DType::Int8, DType::Int32, DType::Uint64}) {
      INFO(op << " " << name(t));
      const auto& version = ops::resolve(op, 14);
      const Tensor a(t, {1}), b(t, {1});
      ops::NodeValues probe{{&a, &b}, {"A", "B"}, nullptr, "C"};
      probe.output = &a;  // reach reads the inputs' types and shapes only
      const auto reaches = version.reach(probe, {}, {ops::Source::Free, ops::Source::Free});
      int built = 0;
      for (const auto& r : reaches) {
        if (r.pattern != ops::Pattern::Given) continue;
        Tensor x(t, {1}), w(t, {1});
        const auto size = static_cast<std::size_t>(info(t).size);
        std::memcpy(x.bytes().data(), &r.given[0], size);
        std::memcpy(w.bytes().data(), &r.given[1], size);
        if (std::string(op) == "Div" && !info(t).is_float && r.given[1] == 0) continue;
        const Tensor c = version.run({&x, &w}, {}, 1)[0];
        ops::NodeValues v{{&x, &w}, {"A", "B"}, &c, "C"};
        const ops::Decision d = version.decide(v, {}, {0});  // throws if run and the binary64 route disagree
        INFO(r.situation.text());
        CHECK(std::find(d.situations.begin(), d.situations.end(), r.situation) != d.situations.end());
        ++built;
      }
      CHECK(built >= 1);
    }
}

}  // namespace arith_test
