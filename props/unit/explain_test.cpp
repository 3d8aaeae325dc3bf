// Hand-made cases of `explain` (src/oracle/explain): for each output element, the expected
// determining input element, its ORIGINAL index and the deciding clause were worked out by hand
// from spec/ops/*.md and are written literally below.
#include <functional>

#include "core/index.hpp"
#include "graph_util.hpp"
#include "oracle/compare.hpp"
#include "oracle/explain.hpp"
#include "oracle/golden.hpp"

namespace explain_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using Index = std::vector<std::int64_t>;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
const float kNanA = nan_with_bits(0x7FC00123);
const float kNanB = nan_with_bits(0xFF800001);  // signalling, negative

explain::Step step_of(const ModelBuilder& b, const Feeds& feeds, const std::string& name, const Index& index) {
  const auto m = b.load();
  return explain::Explainer(m, m.run_all(feeds)).step(name, index);
}

// Y = Max(X [2,3], B [3], C [2,1]) (Max-13, multidirectional broadcasting)
ModelBuilder max3() {
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3}}).input("B", F, Dims{{3}}).input("C", F, Dims{{2, 1}}).output("Y", F, Dims{{2, 3}});
  b.node("Max", {"X", "B", "C"}, {"Y"}, "max");
  return b;
}
const Feeds kMaxFeeds = {{"X", f32({2, 3}, {1, -0.0f, 5, -3, -0.0f, 2})},
                         {"B", f32({3}, {0.5f, 0, -1})},
                         {"C", f32({2, 1}, {-7, kNanA})}};

}  // namespace

TEST_CASE("[Max.float.formula] explain: Y[0,0] = 1 comes from X[0,0]", "[explain]") {
  const auto s = step_of(max3(), kMaxFeeds, "Y", {0, 0});
  CHECK(s.element.value == "1");
  CHECK(s.clauses.at(0) == "Max.float.formula");
  REQUIRE(s.determining);
  CHECK(s.determining->tensor == "X");
  CHECK(s.determining->index == Index{0, 0});
  CHECK(s.chosen == 0);
  // the set {X[0,0], B[0], C[0,0]} with the original (un-broadcast) indices
  REQUIRE(s.set.size() == 3);
  CHECK(s.set[1].tensor == "B");
  CHECK(s.set[1].index == Index{0});
  CHECK(s.set[2].index == Index{0, 0});
  CHECK(std::find(s.clauses.begin(), s.clauses.end(), "Common.broadcast.map") != s.clauses.end());
}

TEST_CASE("[Max.float.zero] explain: Y[0,1] = +0 because {-0, +0, -7} holds +0, from B[1]", "[explain]") {
  const auto s = step_of(max3(), kMaxFeeds, "Y", {0, 1});
  CHECK(s.element.value == "+0");
  CHECK(s.clauses.at(0) == "Max.float.zero");
  REQUIRE(s.determining);
  CHECK(s.determining->tensor == "B");
  CHECK(s.determining->index == Index{1});  // B's own index, not the broadcast [0, 1]
  CHECK(s.reason.find("{-0, +0, -7}") != std::string::npos);
}

TEST_CASE("[Max.float.nan] explain: Y[1,2] is C's NaN, at C's own index [1,0]", "[explain]") {
  const auto s = step_of(max3(), kMaxFeeds, "Y", {1, 2});
  CHECK(s.element.value == "nan(0x7fc00123)");
  CHECK(s.element.bits == "0x7fc00123");
  CHECK(s.clauses.at(0) == "Max.float.nan");
  REQUIRE(s.determining);
  CHECK(s.determining->tensor == "C");
  CHECK(s.determining->index == Index{1, 0});
  CHECK(s.chosen == 2);
}

TEST_CASE("[Max.int.formula] explain: integer Max names the first input attaining the maximum", "[explain]") {
  ModelBuilder b(13);
  b.input("P", onnx::TensorProto::INT8, Dims{{2}}).input("Q", onnx::TensorProto::INT8, Dims{{2}});
  b.output("Y", onnx::TensorProto::INT8, Dims{{2}});
  b.node("Max", {"P", "Q"}, {"Y"});
  const Feeds feeds = {{"P", make_tensor<std::int8_t>({2}, {-5, 7})}, {"Q", make_tensor<std::int8_t>({2}, {-4, 7})}};
  auto s = step_of(b, feeds, "Y", {0});
  CHECK(s.clauses.at(0) == "Max.int.formula");
  CHECK(s.determining->tensor == "Q");
  s = step_of(b, feeds, "Y", {1});  // 7 = 7: the first, P
  CHECK(s.determining->tensor == "P");
}

namespace {
// X [2,3,2]; R = ReduceMax-13(X, axes = `axes`, keepdims = `keep`)
//   X[0,:,0] = 1, 4, 4        X[0,:,1] = -0, +0, -0
//   X[1,:,0] = 2, nanA, nanB  X[1,:,1] = -inf, -inf, -inf
ModelBuilder reduce_model(std::vector<std::int64_t> axes, std::int64_t keep, Dims out) {
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3, 2}}).output("R", F, out);
  auto& n = b.node("ReduceMax", {"X"}, {"R"}, "reduce");
  attr_ints(n, "axes", axes);
  attr_int(n, "keepdims", keep);
  return b;
}
const float kInfN = -kInf;
const Feeds kReduceFeeds = {{"X", f32({2, 3, 2}, {1, -0.0f, 4, 0, 4, -0.0f, 2, kInfN, kNanA, kInfN, kNanB, kInfN})}};
}  // namespace

TEST_CASE("[ReduceMax.float.formula] explain: R[0,0] = 4, first met at X[0,1,0] (X[0,2,0] ties)", "[explain]") {
  const auto s = step_of(reduce_model({1}, 0, Dims{{2, 2}}), kReduceFeeds, "R", {0, 0});
  CHECK(s.element.value == "4");
  CHECK(s.clauses.at(0) == "ReduceMax.float.formula");
  CHECK(s.determining->index == Index{0, 1, 0});
  CHECK(s.set_size == 3);
  REQUIRE(s.set.size() == 3);  // R(j) = X[0,0,0], X[0,1,0], X[0,2,0]
  CHECK(s.set[0].index == Index{0, 0, 0});
  CHECK(s.set[2].index == Index{0, 2, 0});
}

TEST_CASE("[ReduceMax.float.zero] explain: R[0,1] = +0 from X[0,1,1]", "[explain]") {
  const auto s = step_of(reduce_model({1}, 0, Dims{{2, 2}}), kReduceFeeds, "R", {0, 1});
  CHECK(s.element.value == "+0");
  CHECK(s.clauses.at(0) == "ReduceMax.float.zero");
  CHECK(s.determining->index == Index{0, 1, 1});
}

TEST_CASE("[ReduceMax.float.nan] explain: R[1,0] is the first NaN in row-major order, X[1,1,0]", "[explain]") {
  const auto s = step_of(reduce_model({1}, 0, Dims{{2, 2}}), kReduceFeeds, "R", {1, 0});
  CHECK(s.element.bits == "0x7fc00123");
  CHECK(s.clauses.at(0) == "ReduceMax.float.nan");
  CHECK(s.determining->index == Index{1, 1, 0});
}

TEST_CASE("[ReduceMax.axes.normalise] explain: axes [-2] with keepdims: R[1,0,1] = -inf from X[1,0,1]", "[explain]") {
  const auto s = step_of(reduce_model({-2}, 1, Dims{{2, 1, 2}}), kReduceFeeds, "R", {1, 0, 1});
  CHECK(s.element.value == "-inf");
  CHECK(s.clauses.at(0) == "ReduceMax.float.formula");
  CHECK(std::find(s.clauses.begin(), s.clauses.end(), "ReduceMax.axes.normalise") != s.clauses.end());
  CHECK(s.determining->index == Index{1, 0, 1});  // all three are -inf: the first
}

TEST_CASE("[ReduceMax.axes.default] explain: no axes reduces everything, the first 4 is X[0,1,0]", "[explain]") {
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3, 2}}).output("R", F, Dims{{1, 1, 1}});
  b.node("ReduceMax", {"X"}, {"R"});
  const Feeds feeds = {{"X", f32({2, 3, 2}, {1, -0.0f, 4, 0, 4, -0.0f, 2, kInfN, 3, kInfN, 4, kInfN})}};
  const auto s = step_of(b, feeds, "R", {0, 0, 0});
  CHECK(s.clauses.at(0) == "ReduceMax.float.formula");
  CHECK(std::find(s.clauses.begin(), s.clauses.end(), "ReduceMax.axes.default") != s.clauses.end());
  CHECK(s.set_size == 12);
  CHECK(s.determining->index == Index{0, 1, 0});
}

TEST_CASE("[ReduceMax.float.empty] explain: an empty R(j) is -inf and determined by no element", "[explain]") {
  ModelBuilder b(18);
  b.input("X", F, Dims{{2, 0}}).output("R", F, Dims{{2}});
  b.initializer(tp_i64("axes", {1}, {1}));
  auto& n = b.node("ReduceMax", {"X", "axes"}, {"R"});
  attr_int(n, "keepdims", 0);
  const auto s = step_of(b, {{"X", f32({2, 0}, {})}}, "R", {1});
  CHECK(s.element.value == "-inf");
  CHECK(s.clauses.at(0) == "ReduceMax.float.empty");
  CHECK_FALSE(s.determining);
  CHECK_FALSE(s.stop.empty());
  CHECK(s.set_size == 0);
}

TEST_CASE("[ReduceMax.bool.formula] explain: bool ReduceMax is true from the first true", "[explain]") {
  ModelBuilder b(20);
  b.input("X", onnx::TensorProto::BOOL, Dims{{2, 3}}).output("R", onnx::TensorProto::BOOL, Dims{{2}});
  b.initializer(tp_i64("axes", {1}, {1}));
  auto& n = b.node("ReduceMax", {"X", "axes"}, {"R"});
  attr_int(n, "keepdims", 0);
  const Feeds feeds = {{"X", make_tensor<bool>({2, 3}, {false, true, true, false, false, false})}};
  auto s = step_of(b, feeds, "R", {0});
  CHECK(s.element.value == "true");
  CHECK(s.clauses.at(0) == "ReduceMax.bool.formula");
  CHECK(s.determining->index == Index{0, 1});
  s = step_of(b, feeds, "R", {1});
  CHECK(s.element.value == "false");
}

namespace {
// H = Hardmax-13(X [3,3]), axis -1:
//   row 0 [-0, +0, -1] -> h = 1 ([Hardmax.float.zero]); row 1 [3, nanA, 3] -> h = 1 (NaN);
//   row 2 [2, 5, 5] -> h = 1 (first maximum)
ModelBuilder hardmax13() {
  ModelBuilder b(13);
  b.input("X", F, Dims{{3, 3}}).output("H", F, Dims{{3, 3}});
  b.node("Hardmax", {"X"}, {"H"}, "hm");
  return b;
}
const Feeds kHardmaxFeeds = {{"X", f32({3, 3}, {-0.0f, 0, -1, 3, kNanA, 3, 2, 5, 5})}};
}  // namespace

TEST_CASE("[Hardmax.float.zero] explain: H[0,0] = +0 because h = 1 in [-0, +0, -1]", "[explain]") {
  const auto s = step_of(hardmax13(), kHardmaxFeeds, "H", {0, 0});
  CHECK(s.element.value == "+0");
  CHECK(s.chosen == 1);
  CHECK(s.clauses.at(0) == "Hardmax.float.zero");
  CHECK(std::find(s.clauses.begin(), s.clauses.end(), "Hardmax.float.formula") != s.clauses.end());
  CHECK(s.determining->index == Index{0, 1});
  CHECK_FALSE(s.stop.empty());  // depends on the whole slice
  const auto one = step_of(hardmax13(), kHardmaxFeeds, "H", {0, 1});
  CHECK(one.element.value == "1");
}

TEST_CASE("[Hardmax.float.nan] explain: H[1,1] = 1 at the first NaN of row 1", "[explain]") {
  const auto s = step_of(hardmax13(), kHardmaxFeeds, "H", {1, 1});
  CHECK(s.element.value == "1");
  CHECK(s.clauses.at(0) == "Hardmax.float.nan");
  CHECK(s.determining->index == Index{1, 1});
}

TEST_CASE("[Hardmax.float.first-max] explain: H[2,2] = +0 because the first maximum of [2, 5, 5] is at 1", "[explain]") {
  const auto s = step_of(hardmax13(), kHardmaxFeeds, "H", {2, 2});
  CHECK(s.element.value == "+0");
  CHECK(s.clauses.at(0) == "Hardmax.float.first-max");
  CHECK(s.chosen == 1);
  CHECK(s.determining->index == Index{2, 1});
  REQUIRE(s.set.size() == 3);
  CHECK(s.set[0].index == Index{2, 0});
}

TEST_CASE("[Hardmax.coerce] explain: Hardmax-11 axis 1 reads X [2,2,2] as rows of 4", "[explain]") {
  ModelBuilder b(11);
  b.input("X", F, Dims{{2, 2, 2}}).output("H", F, Dims{{2, 2, 2}});
  attr_int(b.node("Hardmax", {"X"}, {"H"}), "axis", 1);
  // row 0 = [0, 1, 2, 3]; row 1 = [9, 8, 9, -1] -> h = 0 (X[1,0,0]) by [Hardmax.float.first-max]
  const Feeds feeds = {{"X", f32({2, 2, 2}, {0, 1, 2, 3, 9, 8, 9, -1})}};
  const auto s = step_of(b, feeds, "H", {1, 0, 1});
  CHECK(s.element.value == "+0");
  CHECK(std::find(s.clauses.begin(), s.clauses.end(), "Hardmax.coerce") != s.clauses.end());
  CHECK(s.set_size == 4);
  CHECK(s.determining->index == Index{1, 0, 0});
  CHECK(s.set_name.find("row 1") != std::string::npos);
  CHECK(step_of(b, feeds, "H", {1, 0, 0}).element.value == "1");
}

TEST_CASE("[Max.float.formula] [ReduceMax.float.formula] explain follows the chain R <- M <- B", "[explain]") {
  // M = Max(X [2,3], B [3]); R = ReduceMax-13(M, axes [1], keepdims 0); H = Hardmax(M)
  // X = [[1, 2, 3], [4, -0, 6]], B = [0, 9, 0]: M = [[1, 9, 3], [4, 9, 6]], R = [9, 9]
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3}}).input("B", F, Dims{{3}}).output("R", F, Dims{{2}}).output("H", F, Dims{{2, 3}});
  b.node("Max", {"X", "B"}, {"M"}, "max");
  auto& r = b.node("ReduceMax", {"M"}, {"R"}, "reduce");
  attr_ints(r, "axes", {1});
  attr_int(r, "keepdims", 0);
  b.node("Hardmax", {"M"}, {"H"}, "hardmax");
  const auto m = b.load();
  const Feeds feeds = {{"X", f32({2, 3}, {1, 2, 3, 4, -0.0f, 6})}, {"B", f32({3}, {0, 9, 0})}};
  const explain::Explainer ex(m, m.run_all(feeds));
  const auto e = ex.chain("R", {1});
  REQUIRE(e.chain.size() == 3);
  CHECK(e.chain[0].determining->tensor == "M");
  CHECK(e.chain[0].determining->index == Index{1, 1});
  CHECK(e.chain[1].element.tensor == "M");
  CHECK(e.chain[1].determining->tensor == "B");
  CHECK(e.chain[1].determining->index == Index{1});
  CHECK(e.chain[2].producer == "graph input 'B'");
  const auto text = explain::to_text(e);
  CHECK(text.find("<- selected") != std::string::npos);
  CHECK(text.find("[ReduceMax.float.formula]") != std::string::npos);
  const auto j = explain::to_json(e);
  CHECK(j["chain"].size() == 3);
  CHECK(j["chain"][1]["determining"]["index"] == nlohmann::ordered_json::array({1}));
  // a Hardmax element stops the chain at once
  CHECK(ex.chain("H", {0, 1}).chain.size() == 1);
}

TEST_CASE("[Common.tensor.index] explain: an index outside the shape, or an unknown name, is a usage error", "[explain]") {
  const auto m = max3().load();
  const explain::Explainer ex(m, m.run_all(kMaxFeeds));
  CHECK(failure_kind([&] { ex.step("Y", {2, 0}); }) == Failure::Usage);
  CHECK(failure_kind([&] { ex.step("Y", {0}); }) == Failure::Usage);
  CHECK(failure_kind([&] { ex.step("nope", {0, 0}); }) == Failure::Usage);
  CHECK(failure_kind([&] { ex.step("Y", {1, 2}); }) == std::nullopt);
}

TEST_CASE("[Max.float.formula] explain lists large sets in part, always with the selected element", "[explain]") {
  ModelBuilder b(13);
  b.input("X", F, Dims{{40}}).output("R", F, Dims{std::vector<std::int64_t>{}});
  attr_int(b.node("ReduceMax", {"X"}, {"R"}), "keepdims", 0);
  std::vector<float> x(40, 1.0f);
  x[30] = 2;
  const auto s = step_of(b, {{"X", f32({40}, x)}}, "R", {});
  CHECK(s.set_size == 40);
  CHECK(s.set.size() == explain::kListed);
  CHECK(s.set.back().index == Index{30});
  CHECK(s.set_positions.back() == 30);
}

namespace {
// Explains every element of every output of `b` over inputs drawn by golden's generator (NaNs,
// ±0, ties, extremes...). Explainer::step throws std::logic_error when the value its restated
// clause selects differs, bit for bit, from the evaluated one.
void explain_everything(const ModelBuilder& b, const std::vector<std::pair<std::string, Shape>>& inputs,
                        const std::vector<DType>& types, std::int64_t& explained) {
  const auto m = b.load();
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    Feeds feeds;
    for (std::size_t j = 0; j < inputs.size(); ++j) {
      golden::Stream s(seed, 0, j);
      feeds.push_back({inputs[j].first, golden::draw(types[j], inputs[j].second, s)});
    }
    const explain::Explainer ex(m, m.run_all(feeds));
    for (const auto& o : m.outputs()) {
      const Tensor& t = ex.values().at(o.name);
      for (std::int64_t k = 0; k < t.size(); ++k) {
        const auto index = index_of(t.shape(), k);
        INFO(o.name << to_string(index) << " seed " << seed);
        const auto s = ex.step(o.name, index);
        CHECK_FALSE(s.clauses.empty());
        ++explained;
      }
    }
  }
}
}  // namespace

TEST_CASE("[Max.float.formula] [ReduceMax.float.formula] [Hardmax.float.formula] explain's restated clauses select "
          "the evaluated value of every element",
          "[explain]") {
  std::int64_t explained = 0;
  {  // Max-13 over float16, three inputs broadcast
    ModelBuilder b(13);
    b.input("A", onnx::TensorProto::FLOAT16, Dims{{3, 1, 4}}).input("B", onnx::TensorProto::FLOAT16, Dims{{5, 1}});
    b.input("C", onnx::TensorProto::FLOAT16, Dims{{4}}).output("Y", onnx::TensorProto::FLOAT16, std::nullopt);
    b.node("Max", {"A", "B", "C"}, {"Y"});
    explain_everything(b, {{"A", {3, 1, 4}}, {"B", {5, 1}}, {"C", {4}}}, {DType::Float16, DType::Float16, DType::Float16},
                       explained);
  }
  {  // Max-12 over uint8 and int64
    for (auto [elem, dt] : {std::pair{onnx::TensorProto::UINT8, DType::Uint8}, std::pair{onnx::TensorProto::INT64, DType::Int64}}) {
      ModelBuilder b(12);
      b.input("A", elem, Dims{{2, 3}}).input("B", elem, Dims{{3}}).output("Y", elem, std::nullopt);
      b.node("Max", {"A", "B"}, {"Y"});
      explain_everything(b, {{"A", {2, 3}}, {"B", {3}}}, {dt, dt}, explained);
    }
  }
  {  // ReduceMax-13 over bfloat16, axes {0, 2} keepdims 1 and 0; and axes absent
    for (std::int64_t keep : {0, 1}) {
      ModelBuilder b(13);
      b.input("X", onnx::TensorProto::BFLOAT16, Dims{{3, 2, 4}}).output("R", onnx::TensorProto::BFLOAT16, std::nullopt);
      auto& n = b.node("ReduceMax", {"X"}, {"R"});
      attr_ints(n, "axes", {0, -1});
      attr_int(n, "keepdims", keep);
      explain_everything(b, {{"X", {3, 2, 4}}}, {DType::BFloat16}, explained);
    }
  }
  {  // ReduceMax-20 over bool and int8, axes as an initializer
    for (auto [elem, dt] : {std::pair{onnx::TensorProto::BOOL, DType::Bool}, std::pair{onnx::TensorProto::INT8, DType::Int8}}) {
      ModelBuilder b(20);
      b.input("X", elem, Dims{{4, 3}}).output("R", elem, std::nullopt);
      b.initializer(tp_i64("axes", {1}, {0}));
      b.node("ReduceMax", {"X", "axes"}, {"R"});
      explain_everything(b, {{"X", {4, 3}}}, {dt}, explained);
    }
  }
  {  // Hardmax 1, 11, 13 over double, axis 1 on rank 3
    for (int opset : {1, 11, 13}) {
      ModelBuilder b(opset);
      b.input("X", onnx::TensorProto::DOUBLE, Dims{{2, 3, 4}}).output("H", onnx::TensorProto::DOUBLE, std::nullopt);
      attr_int(b.node("Hardmax", {"X"}, {"H"}), "axis", 1);
      explain_everything(b, {{"X", {2, 3, 4}}}, {DType::Double}, explained);
    }
  }
  // 6 seeds x (Max f16 [3,5,4]: 60; Max-12 [2,3]: 2 x 6; ReduceMax-13 [2] or [1,2,1]: 2 x 2;
  // ReduceMax-20 [3]: 2 x 3; Hardmax [2,3,4]: 3 x 24) = 6 x 154
  CHECK(explained == 924);
}

// Issue #12 (mutant order-24): the signed-zero rule of float16 needs a -0 in the set.
TEST_CASE("[Max.float.zero] [Max.float.formula] [Common.dtype.float16] explain: float16 +0 from {+0, -1} is the formula, from {-0, +0} the zero rule",
          "[explain]") {
  constexpr int H = onnx::TensorProto::FLOAT16;
  ModelBuilder b(13);
  b.input("X", H, Dims{{1}}).input("B", H, Dims{{1}}).output("Y", H, Dims{{1}});
  b.node("Max", {"X", "B"}, {"Y"}, "max");
  // {X[0], B[0]} = {+0, -1}: no -0, so +0 is simply the greatest ([Max.float.formula]).
  const Feeds plain = {{"X", make_tensor<float16>({1}, {float16{0x0000}})}, {"B", make_tensor<float16>({1}, {float16{0xBC00}})}};
  const auto s = step_of(b, plain, "Y", {0});
  CHECK(s.element.value == "+0");
  CHECK(s.clauses.at(0) == "Max.float.formula");
  // {-0, +0}: +0 by [Max.float.zero], from B[0].
  const Feeds tie = {{"X", make_tensor<float16>({1}, {float16{0x8000}})}, {"B", make_tensor<float16>({1}, {float16{0x0000}})}};
  const auto t = step_of(b, tie, "Y", {0});
  CHECK(t.element.value == "+0");
  CHECK(t.clauses.at(0) == "Max.float.zero");
  CHECK(t.determining->tensor == "B");
}

// explain restates each operator's clauses to say why an element has its value, and then requires
// that value to be the one the evaluation wrote. Given values that the operator could not have
// produced (an implementation under test's, or a corrupted one), it must refuse to explain them as an
// internal error naming the element, never give a reason for a value the clauses do not give.
namespace {

std::string explain_failure(const ModelBuilder& b, const Feeds& feeds, const std::string& name, const Index& index,
                            const std::function<void(Tensor&)>& corrupt) {
  const auto m = b.load();
  auto values = m.run_all(feeds);
  corrupt(values.at(name));
  try {
    explain::Explainer(m, std::move(values)).step(name, index);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(explained)";
}

void set_first(Tensor& t, float v) { t.values<float>()[0] = v; }

}  // namespace

TEST_CASE("[Max.float.formula] explain refuses a Max output its clauses do not give, naming the element", "[explain]") {
  // Y[0,0] = max(1, 0.5, -7) = 1 by the formula; a 2 there is not explained.
  const auto what = explain_failure(max3(), kMaxFeeds, "Y", {0, 0}, [](Tensor& y) { set_first(y, 2); });
  CHECK(what == "the value the definition derives for Y[0, 0] differs from the evaluated 2");
}

TEST_CASE("[ReduceMax.float.formula] [ReduceMax.axes.noop] explain refuses a ReduceMax output its clauses do not give",
          "[explain]") {
  // R[0,0] = max(1, 4, 4) = 4 over axis 1; +0 there is not explained.
  const auto reduced = explain_failure(reduce_model({1}, 0, Dims{{2, 2}}), kReduceFeeds, "R", {0, 0},
                                       [](Tensor& r) { set_first(r, 0); });
  CHECK(reduced == "the value the definition derives for R[0, 0] differs from the evaluated +0");
  // ReduceMax-18 with no axes and noop_with_empty_axes = 1 is Y = X: Y[0,0,0] must be X[0,0,0] = 1.
  ModelBuilder noop(18);
  noop.input("X", F, Dims{{2, 3, 2}}).output("R", F, Dims{{2, 3, 2}});
  attr_int(noop.node("ReduceMax", {"X"}, {"R"}), "noop_with_empty_axes", 1);
  const auto copied = explain_failure(noop, kReduceFeeds, "R", {0, 0, 0}, [](Tensor& r) { set_first(r, -1); });
  CHECK(copied == "the value the definition derives for R[0, 0, 0] differs from the evaluated -1");
}

TEST_CASE("[Hardmax.float.formula] explain refuses a Hardmax output its clauses do not give", "[explain]") {
  // Row 0 [-0, +0, -1] has h = 1, so H[0,0] = +0; a 1 there is not explained.
  const auto what = explain_failure(hardmax13(), kHardmaxFeeds, "H", {0, 0}, [](Tensor& h) { set_first(h, 1); });
  CHECK(what == "the value the definition derives for H[0, 0] differs from the evaluated 1");
}

TEST_CASE("[Common.gr.no-conversion] explain's agreement test compares bits and types: 1.0f is not 1.0", "[explain]") {
  const Tensor f = f32({2}, {1, -0.0f}), d = make_tensor<double>({1}, {1}), g = f32({1}, {0});
  CHECK(ops::same_bits(f, 0, f, 0));
  CHECK_FALSE(ops::same_bits(f, 0, d, 0));  // another type
  CHECK_FALSE(ops::same_bits(f, 1, g, 0));  // -0 is not +0
}

namespace {
// Y = Max-13(X [3], W, V, C, U): W an initializer, V and U initializers also declared as graph inputs
// (they may be fed), C the output of a Constant node.
ModelBuilder values_of_the_graph() {
  ModelBuilder b(13);
  b.input("X", F, Dims{{3}}).input("V", F, Dims{{3}}).input("U", F, Dims{{3}}).output("Y", F, Dims{{3}});
  b.initializer(tp_f32("W", {3}, {1, 2, 3})).initializer(tp_f32("V", {3}, {4, 5, 6}));
  b.initializer(tp_f32("U", {3}, {-1, -1, -1}));
  attr_tensor(b.node("Constant", {}, {"C"}, "k"), "value", tp_f32("", {3}, {7, 8, 9}));
  b.node("Max", {"X", "W", "V", "C", "U"}, {"Y"}, "max");
  return b;
}
}  // namespace

TEST_CASE("[Graph.initializer] [Graph.constant] explain ends the chain at a graph input, an initializer or a constant",
          "[explain]") {
  const auto b = values_of_the_graph();
  const Feeds feeds = {{"X", f32({3}, {0, 0, 10})}};
  // X is the first of the fed inputs of max3(), V of the initializers that may be fed here.
  CHECK(step_of(max3(), kMaxFeeds, "X", {0, 2}).producer == "graph input 'X'");
  auto s = step_of(b, feeds, "X", {2});
  CHECK(s.producer == "graph input 'X'");
  CHECK(s.element.value == "10");
  CHECK(s.clauses.empty());
  CHECK(s.stop == "the chain ends at a value of the graph");
  s = step_of(b, feeds, "W", {1});
  CHECK(s.producer == "initializer 'W'");
  CHECK(s.clauses == std::vector<std::string>{"Graph.initializer"});
  CHECK(s.reason == "W is an initializer of the model");
  CHECK(s.element.value == "2");
  s = step_of(b, feeds, "V", {0});
  CHECK(s.producer == "graph input with an initializer 'V'");
  CHECK(s.reason == "V is the fed value, or else the initializer");
  CHECK(s.element.value == "4");
  s = step_of(b, feeds, "C", {2});
  CHECK(s.producer == "node 'k' (Constant-13)");
  CHECK(s.clauses == std::vector<std::string>{"Graph.constant"});
  CHECK(s.stop == "the chain ends at a constant");
  CHECK(s.element.value == "9");
  // Y[2] = max(10, 3, 6, 9) = 10 from X[2]; Y[0] = max(0, 1, 4, 7) = 7 from the constant: the chain ends there.
  const auto m = b.load();
  const explain::Explainer ex(m, m.run_all(feeds));
  const auto e = ex.chain("Y", {0});
  REQUIRE(e.chain.size() == 2);
  CHECK(e.chain[1].element.tensor == "C");
  CHECK(e.chain[1].stop == "the chain ends at a constant");
}

TEST_CASE("[Common.tensor.index] explain: a negative coordinate is outside every shape", "[explain]") {
  const auto m = values_of_the_graph().load();
  const explain::Explainer ex(m, m.run_all({{"X", f32({3}, {0, 0, 10})}}));
  CHECK(failure_kind([&] { ex.step("Y", {-1}); }) == Failure::Usage);
  CHECK(failure_kind([&] { ex.step("Y", {3}); }) == Failure::Usage);
}

}  // namespace explain_test
