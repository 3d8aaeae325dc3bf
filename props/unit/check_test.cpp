// Hand-derived cases of spec/common/check.md: the verdict on another implementation's outputs.
// Expected outputs below are worked out by hand from spec/ops/max.md; the "actual" outputs are
// those values with chosen bits changed.
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "graph_util.hpp"
#include "oracle/check.hpp"

namespace check_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

// Y = Max(A, B), A and B of `elem` and shape [2, 3] (Max-13).
graph::Model max_model(int elem) {
  ModelBuilder b(13);
  b.input("A", elem, Dims{{2, 3}}).input("B", elem, Dims{{2, 3}}).output("Y", elem, Dims{{2, 3}});
  b.node("Max", {"A", "B"}, {"Y"}, "max");
  return b.load();
}

check::Verdict judge(const graph::Model& m, const Feeds& feeds, std::vector<io::NamedTensor> actual,
                     compare::Options o = {}) {
  explain::Explainer ex(m, m.run_all(feeds));
  check::Actual a;
  a.tensors = std::move(actual);
  return check::judge(m, ex, a, o);
}

// Adds `delta` to the bit pattern of element `offset` (element width `size` bytes, little-endian host).
Tensor with_bits_added(Tensor t, std::int64_t offset, std::int64_t delta) {
  const int size = info(t.dtype()).size;
  std::uint64_t u = 0;
  std::memcpy(&u, t.bytes().data() + offset * size, size);
  u += static_cast<std::uint64_t>(delta);
  std::memcpy(t.bytes().data() + offset * size, &u, size);
  return t;
}

Tensor with_bit_flipped(Tensor t, std::int64_t offset, int bit) {
  const int size = info(t.dtype()).size;
  std::uint64_t u = 0;
  std::memcpy(&u, t.bytes().data() + offset * size, size);
  u ^= std::uint64_t{1} << bit;
  std::memcpy(t.bytes().data() + offset * size, &u, size);
  return t;
}

const Feeds kFloatFeeds = {{"A", f32({2, 3}, {1, -0.0f, 5, -3, 2, 0})}, {"B", f32({2, 3}, {0.5f, 0, -1, -4, 7, -0.0f})}};
// By hand ([Max.float.formula], [Max.float.zero]): Y = [[1, +0, 5], [-3, 7, +0]]
const Tensor kFloatY = f32({2, 3}, {1, 0, 5, -3, 7, 0});

}  // namespace

TEST_CASE("[Check.verdict] the reference's own outputs conform", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  const auto v = judge(m, kFloatFeeds, {{"Y", kFloatY}});
  CHECK(v.conforms);
  REQUIRE(v.outputs.size() == 1);
  CHECK(v.outputs[0].status == check::OutputVerdict::Status::Conforms);
  CHECK(v.outputs[0].id == "Check.bitwise");
}

TEST_CASE("[Check.bitwise] [Check.verdict] one flipped bit fails, naming the element and its clause", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  for (int bit : {0, 22, 31}) {
    const auto v = judge(m, kFloatFeeds, {{"Y", with_bit_flipped(kFloatY, 5, bit)}});  // element [1, 2]
    CHECK_FALSE(v.conforms);
    const auto& o = v.outputs.at(0);
    CHECK(o.status == check::OutputVerdict::Status::Mismatch);
    CHECK(o.mismatches == 1);
    REQUIRE(o.findings.size() == 1);
    CHECK(o.findings[0].mismatch.index == std::vector<std::int64_t>{1, 2});
    CHECK(o.findings[0].mismatch.expected_bits == "0x00000000");
    // Y[1, 2] = max(A = +0, B = -0) = +0 by [Max.float.zero]
    CHECK(o.findings[0].clauses.at(0) == "Max.float.zero");
  }
  // bit 31 of element [1, 2]: actual -0 against expected +0 ([Check.bitwise]: +0 != -0)
  const auto v = judge(m, kFloatFeeds, {{"Y", with_bit_flipped(kFloatY, 5, 31)}});
  CHECK(v.outputs[0].findings[0].mismatch.actual == "-0");
  const auto text = check::to_text(v, {});
  CHECK(text.find("Y[1, 2]: expected +0 (0x00000000), actual -0 (0x80000000)") != std::string::npos);
  CHECK(text.find("[Max.float.zero]") != std::string::npos);
}

TEST_CASE("[Check.verdict] a NaN expected because of input 1 names [Max.float.nan] and that input", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  const float qnan = nan_with_bits(0x7FC00000);
  const Feeds feeds = {{"A", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"B", f32({2, 3}, {0, 0, qnan, 0, 0, 0})}};
  const auto v = judge(m, feeds, {{"Y", f32({2, 3}, {1, 2, 3, 4, 5, 6})}});
  const auto& f = v.outputs.at(0).findings.at(0);
  CHECK(f.mismatch.index == std::vector<std::int64_t>{0, 2});
  CHECK(f.clauses.at(0) == "Max.float.nan");
  CHECK(f.reason.find("input 1 (B[0, 2])") != std::string::npos);
}

TEST_CASE("[Check.ulp] --ulp 1 accepts a 1-ulp change and rejects 2, in float, float16, bfloat16, double", "[check]") {
  struct Case {
    const char* name;
    int elem;
    Feeds feeds;
    Tensor expected;  // Y by hand
  };
  // A = [[1, 2, 3], [-1, -2, 4]], B = +0 everywhere: Y = A except -1, -2 -> +0 (by [Max.float.formula])
  const std::vector<std::uint16_t> a16 = {0x3C00, 0x4000, 0x4200, 0xBC00, 0xC000, 0x4400};   // float16 1 2 3 -1 -2 4
  const std::vector<std::uint16_t> ab16 = {0x3F80, 0x4000, 0x4040, 0xBF80, 0xC000, 0x4080};  // bfloat16 1 2 3 -1 -2 4
  std::vector<float16> h;
  std::vector<bfloat16> bh;
  for (auto u : a16) h.push_back(float16{u});
  for (auto u : ab16) bh.push_back(bfloat16{u});
  const std::vector<Case> cases = {
      {"float", onnx::TensorProto::FLOAT, {{"A", f32({2, 3}, {1, 2, 3, -1, -2, 4})}, {"B", f32({2, 3}, {0, 0, 0, 0, 0, 0})}},
       f32({2, 3}, {1, 2, 3, 0, 0, 4})},
      {"double", onnx::TensorProto::DOUBLE,
       {{"A", make_tensor<double>({2, 3}, {1, 2, 3, -1, -2, 4})}, {"B", make_tensor<double>({2, 3}, {0, 0, 0, 0, 0, 0})}},
       make_tensor<double>({2, 3}, {1, 2, 3, 0, 0, 4})},
      {"float16", onnx::TensorProto::FLOAT16,
       {{"A", make_tensor<float16>({2, 3}, h)}, {"B", make_tensor<float16>({2, 3}, std::vector<float16>(6))}},
       make_tensor<float16>({2, 3}, {float16{0x3C00}, float16{0x4000}, float16{0x4200}, float16{0x0000}, float16{0x0000}, float16{0x4400}})},
      {"bfloat16", onnx::TensorProto::BFLOAT16,
       {{"A", make_tensor<bfloat16>({2, 3}, bh)}, {"B", make_tensor<bfloat16>({2, 3}, std::vector<bfloat16>(6))}},
       make_tensor<bfloat16>({2, 3}, {bfloat16{0x3F80}, bfloat16{0x4000}, bfloat16{0x4040}, bfloat16{0x0000}, bfloat16{0x0000}, bfloat16{0x4080}})},
  };
  compare::Options ulp1;
  ulp1.ulp_mode = true;
  ulp1.ulp = 1;
  for (const auto& c : cases) {
    INFO(c.name);
    const auto m = max_model(c.elem);
    const Tensor y = m.run(c.feeds).at(0).tensor;
    REQUIRE(y.bitwise_equal(c.expected));  // the base of the perturbations is the hand-derived Y
    CHECK(judge(m, c.feeds, {{"Y", y}}, ulp1).conforms);
    // element 0 (= 1.0): +1 and -1 in the pattern are its neighbours; +2 is two ranks away
    CHECK(judge(m, c.feeds, {{"Y", with_bits_added(y, 0, 1)}}, ulp1).conforms);
    CHECK(judge(m, c.feeds, {{"Y", with_bits_added(y, 0, -1)}}, ulp1).conforms);
    const auto two = judge(m, c.feeds, {{"Y", with_bits_added(y, 0, 2)}}, ulp1);
    CHECK_FALSE(two.conforms);
    CHECK(two.outputs[0].id == "Check.ulp");
    CHECK(two.outputs[0].findings.at(0).mismatch.index == std::vector<std::int64_t>{0, 0});
    // without --ulp the 1-ulp change fails ([Check.bitwise])
    CHECK_FALSE(judge(m, c.feeds, {{"Y", with_bits_added(y, 0, 1)}}).conforms);
    // element 3 (= +0): -0 is 1 rank below +0; the smallest negative subnormal is 2 below
    const int sign = info(y.dtype()).size * 8 - 1;
    CHECK(judge(m, c.feeds, {{"Y", with_bit_flipped(y, 3, sign)}}, ulp1).conforms);
    CHECK_FALSE(judge(m, c.feeds, {{"Y", with_bits_added(with_bit_flipped(y, 3, sign), 3, 1)}}, ulp1).conforms);
  }
}

TEST_CASE("[Check.ulp] integers stay exact whatever N", "[check]") {
  const auto m = max_model(onnx::TensorProto::INT32);
  const Feeds feeds = {{"A", make_tensor<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6})},
                       {"B", make_tensor<std::int32_t>({2, 3}, {6, 5, 4, 3, 2, 1})}};
  const Tensor y = make_tensor<std::int32_t>({2, 3}, {6, 5, 4, 4, 5, 6});  // by hand
  compare::Options ulp9;
  ulp9.ulp_mode = true;
  ulp9.ulp = 9;
  CHECK(judge(m, feeds, {{"Y", y}}, ulp9).conforms);
  const auto v = judge(m, feeds, {{"Y", with_bits_added(y, 4, 1)}}, ulp9);
  CHECK_FALSE(v.conforms);
  CHECK(v.outputs[0].findings.at(0).clauses.at(0) == "Max.int.formula");
}

TEST_CASE("[Check.shape] a shape or dtype difference fails the whole output", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  auto v = judge(m, kFloatFeeds, {{"Y", f32({3, 2}, {1, 0, 5, -3, 7, 0})}});
  CHECK_FALSE(v.conforms);
  CHECK(v.outputs[0].status == check::OutputVerdict::Status::Structure);
  CHECK(v.outputs[0].id == "Check.shape");
  CHECK(v.outputs[0].findings.empty());
  v = judge(m, kFloatFeeds, {{"Y", make_tensor<double>({2, 3}, {1, 0, 5, -3, 7, 0})}});
  CHECK(v.outputs[0].status == check::OutputVerdict::Status::Structure);
}

TEST_CASE("[Check.missing] a missing output and an extra one are non-conformances", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  explain::Explainer ex(m, m.run_all(kFloatFeeds));
  check::Actual none;
  auto v = check::judge(m, ex, none, {});
  CHECK_FALSE(v.conforms);
  CHECK(v.outputs.at(0).status == check::OutputVerdict::Status::Missing);
  check::Actual extra;
  extra.tensors = {{"Y", kFloatY}};
  extra.extra = {"Z"};
  v = check::judge(m, ex, extra, {});
  CHECK_FALSE(v.conforms);
  CHECK(v.outputs.at(0).status == check::OutputVerdict::Status::Conforms);
  CHECK(v.outputs.at(1).status == check::OutputVerdict::Status::Extra);
  CHECK(v.outputs.at(1).id == "Check.missing");
}

TEST_CASE("[Check.missing] ACTUAL as an .npz or a test_data_set folder (output_K.pb = K-th output)", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  const auto dir = std::filesystem::temp_directory_path() / ("sonnx-check-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "set");
  io::write_tensor_pb((dir / "set" / "output_0.pb").string(), kFloatY, "");
  auto a = check::load_actual(m, (dir / "set").string());
  REQUIRE(a.tensors.size() == 1);
  CHECK(a.tensors[0].name == "Y");
  CHECK(a.extra.empty());
  io::write_tensor_pb((dir / "set" / "output_1.pb").string(), kFloatY, "Q");
  a = check::load_actual(m, (dir / "set").string());
  CHECK(a.extra.size() == 1);
  io::write_npz((dir / "a.npz").string(), {{"Y", kFloatY}, {"Q", kFloatY}});
  a = check::load_actual(m, (dir / "a.npz").string());
  CHECK(a.tensors.size() == 1);  // Y; Q names no value of the graph
  CHECK(a.extra == std::vector<std::string>{"Q"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("[Check.verdict] the JSON report lists each finding with its index, bits and spec IDs", "[check]") {
  const auto m = max_model(onnx::TensorProto::FLOAT);
  const auto v = judge(m, kFloatFeeds, {{"Y", with_bit_flipped(kFloatY, 1, 31)}});  // [0, 1]: +0 -> -0
  const auto j = check::to_json(v, {});
  CHECK(j["verdict"] == "does not conform");
  CHECK(j["comparison"]["clause"] == "Check.bitwise");
  const auto& f = j["outputs"][0]["findings"][0];
  CHECK(f["index"] == nlohmann::ordered_json::array({0, 1}));
  CHECK(f["expected_bits"] == "0x00000000");
  CHECK(f["actual_bits"] == "0x80000000");
  CHECK(f["clauses"][0] == "Max.float.zero");  // A = -0, B = +0
  const auto junit = check::to_junit(v, "check.max");
  REQUIRE(junit.size() == 1);
  CHECK_FALSE(junit[0].failure.empty());
}

}  // namespace check_test
