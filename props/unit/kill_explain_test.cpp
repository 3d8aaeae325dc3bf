// Hand-made cases of `explain` for the new operators: for each output element, the deciding clause,
// the value and the determining input element were worked out by hand from spec/ops/*.md. Written to
// kill the mutants of props/mutation/catalogue.json that change the clauses `explain` and `check`
// cite, or the definition they apply (a definition that disagrees with the evaluated output is an
// internal error, never an explanation).
#include "graph_util.hpp"
#include "oracle/explain.hpp"

namespace kill_explain_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using Index = std::vector<std::int64_t>;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int I64 = onnx::TensorProto::INT64;

explain::Step step_of(const ModelBuilder& b, const Feeds& feeds, const std::string& name, const Index& index) {
  const auto m = b.load();
  return explain::Explainer(m, m.run_all(feeds)).step(name, index);
}

bool cites(const explain::Step& s, const std::string& id) {
  return std::find(s.clauses.begin(), s.clauses.end(), id) != s.clauses.end();
}

}  // namespace

TEST_CASE("[Relu.float.nan] [Relu.float.zero] explain: Relu(NaN 0xFF800001) is that NaN by [Relu.float.nan], Relu(-0) = +0 "
          "by [Relu.float.zero]",
          "[kill][explain]") {
  ModelBuilder b(14);
  b.input("X", F, Dims{{3}}).output("Y", F, Dims{{3}});
  b.node("Relu", {"X"}, {"Y"});
  const Feeds feeds = {{"X", f32({3}, {nan_with_bits(0xFF800001), -0.0f, -2.0f})}};
  auto s = step_of(b, feeds, "Y", {0});
  CHECK(s.clauses.at(0) == "Relu.float.nan");
  CHECK(cites(s, "Common.order.nan-payload"));
  CHECK(s.element.value == "nan(0xff800001)");
  s = step_of(b, feeds, "Y", {1});
  CHECK(s.clauses.at(0) == "Relu.float.zero");
  CHECK(s.element.value == "+0");
  s = step_of(b, feeds, "Y", {2});  // -2 is below +0: the constant
  CHECK(s.clauses.at(0) == "Relu.float.formula");
  CHECK(s.element.value == "+0");
  CHECK_FALSE(s.determining);
}

TEST_CASE("[GlobalMaxPool.float.formula] [GlobalMaxPool.shape] explain: Y[0,1,0,0] = 7 from X[0,1,1,0], citing the "
          "output shape",
          "[kill][explain]") {
  // X [1, 2, 2, 2]: channel 0 {1, 3, 2, -1}, channel 1 {4, 5, 7, 6}; Y [1, 2, 1, 1] = {3, 7}.
  ModelBuilder b(1);
  b.input("X", F, Dims{{1, 2, 2, 2}}).output("Y", F, Dims{{1, 2, 1, 1}});
  b.node("GlobalMaxPool", {"X"}, {"Y"});
  const Feeds feeds = {{"X", f32({1, 2, 2, 2}, {1, 3, 2, -1, 4, 5, 7, 6})}};
  const auto s = step_of(b, feeds, "Y", {0, 1, 0, 0});
  CHECK(s.element.value == "7");
  CHECK(s.clauses.at(0) == "GlobalMaxPool.float.formula");
  CHECK(cites(s, "GlobalMaxPool.shape"));
  CHECK(s.set_size == 4);
  REQUIRE(s.determining);
  CHECK(s.determining->index == Index{0, 1, 1, 0});
}

TEST_CASE("[ReduceMin.float.empty] explain: an empty R(j) of ReduceMin is +inf and determined by no element", "[kill][explain]") {
  // R = ReduceMin-18(X [2, 0], axes [1], keepdims 0): R(j) is empty for both j, Y = [+Inf, +Inf].
  ModelBuilder b(18);
  b.input("X", F, Dims{{2, 0}}).output("R", F, Dims{{2}});
  b.initializer(tp_i64("axes", {1}, {1}));
  auto& n = b.node("ReduceMin", {"X", "axes"}, {"R"});
  attr_int(n, "keepdims", 0);
  const auto s = step_of(b, {{"X", f32({2, 0}, {})}}, "R", {1});
  CHECK(s.element.value == "inf");
  CHECK(s.clauses.at(0) == "ReduceMin.float.empty");
  CHECK_FALSE(s.determining);
  CHECK(s.set_size == 0);
}

TEST_CASE("[ArgMax.last-index] [ArgMin.last-index] explain: with select_last_index = 1 the position is the last extreme",
          "[kill][explain]") {
  // X [2, 3] = [[5, 1, 5], [0, 0, 3]], axis 1, keepdims 0, select_last_index 1:
  // ArgMax = [2, 2] (the last 5; the only 3), ArgMin = [1, 1] (the only 1; the last 0).
  for (const std::string op : {"ArgMax", "ArgMin"}) {
    ModelBuilder b(13);
    b.input("X", F, Dims{{2, 3}}).output("P", I64, Dims{{2}});
    auto& n = b.node(op, {"X"}, {"P"});
    attr_int(n, "axis", 1);
    attr_int(n, "keepdims", 0);
    attr_int(n, "select_last_index", 1);
    const Feeds feeds = {{"X", f32({2, 3}, {5, 1, 5, 0, 0, 3})}};
    const bool max = op == "ArgMax";
    auto s = step_of(b, feeds, "P", {0});
    CHECK(s.element.value == (max ? "2" : "1"));
    CHECK(s.chosen == (max ? 2 : 1));
    CHECK(cites(s, op + ".last-index"));
    s = step_of(b, feeds, "P", {1});
    CHECK(s.element.value == (max ? "2" : "1"));
    CHECK(s.chosen == (max ? 2 : 1));
  }
}

}  // namespace kill_explain_test
