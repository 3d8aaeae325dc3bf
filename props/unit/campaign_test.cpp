// Campaigns (spec/common/check.md): golden sets that exercise the clauses ([Check.golden-coverage]),
// written whole or not at all ([Check.golden]); many cases judged at once ([Check.cases]); findings
// attributed to the node that made them ([Check.attribution]); the clauses a verdict rests on
// ([Check.coverage]). Expected values are worked out by hand from the spec.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "graph_util.hpp"
#include "oracle/check.hpp"
#include "oracle/coverage.hpp"
#include "oracle/golden.hpp"

namespace campaign_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;

fs::path temp_dir(const std::string& name) { return fresh_path("sonnx-campaign-test", name); }

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// The status of one (node, clause, situation) in a golden manifest's coverage list ("" if absent).
std::string coverage_status(const nlohmann::json& manifest, const std::string& clause, const std::string& situation) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation) return c["status"];
  return "";
}

// Y = Max-13(X [2, 3], B [3]), float
ModelBuilder max13() {
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3}}).input("B", F, Dims{{3}}).output("Y", F, Dims{{2, 3}});
  b.node("Max", {"X", "B"}, {"Y"}, "max");
  return b;
}

}  // namespace

TEST_CASE("[Check.golden-coverage] a default golden set of Max-13 float exercises both signed-zero ties and the NaN rules",
          "[campaign]") {
  const auto m = max13().load();
  const auto d = temp_dir("max13");
  golden::Options o;  // defaults: seed 0, one drawn case, then the constructed ones
  const auto w = golden::write(m, d.string(), o);
  const auto manifest = read_json(d / "manifest.json");
  // With two inputs every situation of Max's float clauses is reachable, and built.
  for (const auto& [clause, situation] : std::vector<std::pair<std::string, std::string>>{
           {"Max.float.formula", ""},
           {"Max.float.nan", ""},
           {"Max.float.nan", "a NaN after a number"},
           {"Common.order.nan-payload", "two NaNs with different bits"},
           {"Max.float.zero", "-0 before +0"},
           {"Max.float.zero", "+0 before -0"},
           {"Common.broadcast.map", ""}})
    CHECK(coverage_status(manifest, clause, situation) == "exercised");
  CHECK(w.not_built == 0);
  CHECK(w.exercised == w.reachable);
  // The manifest records the seed and options, and per case the clauses exercised with a witness.
  CHECK(manifest["seed"] == 0);
  CHECK(manifest["options"]["cases"] == 1);
  CHECK(manifest["cases"][0]["made"] == "drawn");
  CHECK(manifest["cases"].size() == static_cast<std::size_t>(w.drawn + w.constructed));
  for (const auto& c : manifest["cases"]) CHECK_FALSE(c["exercised"].empty());
  // A constructed witness is what the reference decides: e.g. the -0-first tie at its witness index.
  for (const auto& c : manifest["coverage"])
    if (c["situation"] == "-0 before +0") {
      const auto k = std::string(c["case"]).substr(std::string("test_data_set_").size());
      const auto feeds = graph::load_feeds(m, (d / c["case"].get<std::string>()).string());
      const explain::Explainer ex(m, m.run_all(feeds));
      const auto index = c["witness"]["index"].get<std::vector<std::int64_t>>();
      const auto step = ex.step("Y", index);
      CHECK(step.clauses.at(0) == "Max.float.zero");
      CHECK(step.element.value == "+0");
      CHECK(step.set.at(0).value == "-0");  // X first, then B: -0 before +0
    }
  fs::remove_all(d);
}

TEST_CASE("[Check.golden-coverage] situations a node cannot reach are listed with why", "[campaign]") {
  // R = ReduceMax-13(Hardmax-13(X)): R's set holds only +0 and 1, so no NaN and no signed-zero tie.
  ModelBuilder b(13);
  b.input("X", F, Dims{{2, 3}}).output("R", F, Dims{{2}});
  b.node("Hardmax", {"X"}, {"H"}, "hm");
  auto& r = b.node("ReduceMax", {"H"}, {"R"}, "reduce");
  attr_ints(r, "axes", {1});
  attr_int(r, "keepdims", 0);
  const auto m = b.load();
  const auto d = temp_dir("onehot");
  golden::write(m, d.string(), {});
  const auto manifest = read_json(d / "manifest.json");
  for (const auto& c : manifest["coverage"])
    if (c["node"] == "node 'reduce' (ReduceMax-13)" && (c["clause"] == "ReduceMax.float.nan" || c["clause"] == "ReduceMax.float.zero")) {
      CHECK(c["status"] == "unreachable");
      CHECK(c["why"].get<std::string>().find("Hardmax output") != std::string::npos);
    }
  CHECK(coverage_status(manifest, "ReduceMax.float.empty", "") == "unreachable");  // no reduced dimension is 0
  // Hardmax itself still gets its ties: equal maxima and both signed-zero orders.
  CHECK(coverage_status(manifest, "Hardmax.float.first-max", "equal maxima") == "exercised");
  CHECK(coverage_status(manifest, "Hardmax.float.zero", "-0 before +0") == "exercised");
  fs::remove_all(d);
}

TEST_CASE("[Check.golden] a refused model leaves no folder, and a previous golden folder untouched", "[campaign]") {
  // Declared shapes [2] and [3] do not broadcast: the drawn case is refused when it runs.
  ModelBuilder bad(13);
  bad.input("X", F, Dims{{2}}).input("B", F, Dims{{3}}).output("Y", F, std::nullopt);
  bad.node("Max", {"X", "B"}, {"Y"});
  const auto d = temp_dir("atomic");
  CHECK(refusal_id([&] { golden::write(bad.load(), d.string(), {}); }) == "Max.err.broadcast");
  CHECK_FALSE(fs::exists(d));
  CHECK(std::none_of(fs::directory_iterator(d.parent_path()), fs::directory_iterator(),
                     [&](const fs::directory_entry& e) { return e.path().filename().string().find(d.filename().string() + ".golden-") != std::string::npos; }));
  golden::write(max13().load(), d.string(), {});
  const auto before = fs::last_write_time(d / "manifest.json");
  CHECK(refusal_id([&] { golden::write(bad.load(), d.string(), {}); }) == "Max.err.broadcast");
  CHECK(fs::exists(d / "test_data_set_0" / "input_0.pb"));
  CHECK(fs::last_write_time(d / "manifest.json") == before);
  fs::remove_all(d);
}

namespace {

// M = Max-13(X [3], B [3]); R = ReduceMax-13(M, keepdims 0): only R is a graph output.
ModelBuilder chain() {
  ModelBuilder b(13);
  b.input("X", F, Dims{{3}}).input("B", F, Dims{{3}}).output("R", F, Dims{std::vector<std::int64_t>{}});
  b.node("Max", {"X", "B"}, {"M"}, "max");
  attr_int(b.node("ReduceMax", {"M"}, {"R"}, "reduce"), "keepdims", 0);
  return b;
}
const Feeds kChainFeeds = {{"X", f32({3}, {-0.0f, -1, -2})}, {"B", f32({3}, {0, -1, -2})}};
// Reference: M = [+0, -1, -2] ([Max.float.zero]), R = +0.

}  // namespace

TEST_CASE("[Check.attribution] a difference made by Max and passed on by ReduceMax is Max's finding", "[campaign]") {
  const auto m = chain().load();
  const explain::Explainer expected(m, m.run_all(kChainFeeds));
  // The IUT's Max keeps the first operand on the tie (M[0] = -0); its ReduceMax is right for that M.
  check::Actual actual;
  actual.tensors = {{"R", f32({}, {-0.0f})}, {"M", f32({3}, {-0.0f, -1, -2})}};
  const auto v = check::judge(m, expected, actual, {});
  CHECK_FALSE(v.conforms);
  REQUIRE(v.outputs.size() == 1);
  CHECK(v.outputs[0].status == check::OutputVerdict::Status::Mismatch);
  CHECK(v.outputs[0].propagated_from == "node 'max' (Max-13)");
  REQUIRE(v.nodes.size() == 2);
  CHECK(v.nodes[0].label == "node 'max' (Max-13)");
  CHECK(v.nodes[0].status == check::NodeVerdict::Status::Differs);
  REQUIRE(v.nodes[0].verdict.findings.size() == 1);
  CHECK(v.nodes[0].verdict.findings[0].clauses.at(0) == "Max.float.zero");
  CHECK(v.nodes[1].status == check::NodeVerdict::Status::Conforms);  // -0 is the max of {-0, -1, -2}
  // Without the intermediate M, the finding stays on R, unattributed.
  check::Actual outputs_only;
  outputs_only.tensors = {{"R", f32({}, {-0.0f})}};
  const auto plain = check::judge(m, expected, outputs_only, {});
  CHECK(plain.nodes.empty());
  CHECK(plain.outputs[0].propagated_from.empty());
  CHECK(plain.outputs[0].findings.at(0).clauses.at(0) == "ReduceMax.float.formula");  // R(j) = {+0, -1, -2}
}

TEST_CASE("[Check.coverage] a verdict lists the clauses and situations that decided the expected values", "[campaign]") {
  const auto m = chain().load();
  const explain::Explainer expected(m, m.run_all(kChainFeeds));
  check::Actual actual;
  actual.tensors = {{"R", f32({}, {0.0f})}};
  const auto v = check::judge(m, expected, actual, {});
  CHECK(v.conforms);
  REQUIRE(v.coverage.size() == 2);
  // M[0] from {-0, +0} (-0 first), M[1] from {-1, -1}, M[2] from {-2, -2}; R from {+0, -1, -2}.
  std::set<std::string> max_situations, reduce_situations;
  for (const auto& [s, w] : v.coverage[0].exercised) max_situations.insert(s.text());
  for (const auto& [s, w] : v.coverage[1].exercised) reduce_situations.insert(s.text());
  CHECK(max_situations == std::set<std::string>{"Max.float.zero (-0 before +0)", "Max.float.formula"});
  CHECK(reduce_situations == std::set<std::string>{"ReduceMax.float.formula", "ReduceMax.axes.default"});
  CHECK(v.coverage[0].exercised.at({"Max.float.zero", "-0 before +0"}).index == std::vector<std::int64_t>{0});
}

TEST_CASE("[Check.cases] a golden folder is judged case by case, with unique JUnit names", "[campaign]") {
  const auto m = max13().load();
  const auto d = temp_dir("cases");
  const auto w = golden::write(m, (d / "golden").string(), {});
  // The IUT: the reference's own outputs, but case 0 lost, and one element of the last case flipped.
  fs::create_directories(d / "iut");
  for (std::size_t k = 1; k < w.folders.size(); ++k) {
    const fs::path src = w.folders[k];
    fs::create_directories(d / "iut" / src.filename());
    auto y = io::read_tensor_pb((src / "output_0.pb").string());
    if (k + 1 == w.folders.size()) y.tensor.values<float>()[0] = -y.tensor.values<float>()[0];  // sign flipped
    io::write_tensor_pb((d / "iut" / src.filename() / "output_0.pb").string(), y.tensor, "Y");
  }
  const auto cases = check::load_cases(m, (d / "golden").string(), (d / "iut").string());
  REQUIRE(cases.size() == w.folders.size());
  const auto c = check::judge_cases(m, cases, {});
  CHECK_FALSE(c.conforms);
  CHECK(c.failing_cases == 2);  // case 0 (missing) and the last (one element)
  CHECK(c.cases[0].verdict.outputs[0].status == check::OutputVerdict::Status::Missing);
  CHECK(c.cases.back().verdict.outputs[0].mismatches == 1);
  CHECK(c.mismatches == 1);
  const auto junit = check::to_junit(c, "max13");
  std::set<std::string> names;
  for (const auto& t : junit) names.insert(t.name);
  CHECK(names.size() == junit.size());
  CHECK(names.count("max13/test_data_set_0/Y") == 1);
  fs::remove_all(d);
}

TEST_CASE("[Check.cases] a bundle .npz holds the inputs and the actual values by name", "[campaign]") {
  const auto m = chain().load();
  const auto d = temp_dir("bundle");
  fs::create_directories(d);
  io::write_npz((d / "io.npz").string(), {{"X", kChainFeeds[0].tensor}, {"B", kChainFeeds[1].tensor}, {"R", f32({}, {0.0f})}});
  const auto cases = check::load_cases(m, (d / "io.npz").string(), "");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].feeds.size() == 2);
  CHECK(check::judge_cases(m, cases, {}).conforms);
  fs::remove_all(d);
}

// Issue #12 (mutant hardmax-13): Hardmax-11's rows span several axes only when axis k is not the last
// non-trivial one: D = d_k * ... * d_{r-1} > d_k ([Hardmax.coerce]).
TEST_CASE("[Hardmax.coerce] [Check.golden-coverage] Hardmax-11: a row across several axes is reachable on axis 0 of [2, 3], not on axis 1",
          "[campaign]") {
  for (const std::int64_t axis : {0, 1}) {
    CAPTURE(axis);
    ModelBuilder b(11);
    b.input("X", F, Dims{{2, 3}}).output("H", F, Dims{{2, 3}});
    attr_int(b.node("Hardmax", {"X"}, {"H"}, "hm"), "axis", axis);
    const auto d = temp_dir("coerce" + std::to_string(axis));
    golden::write(b.load(), d.string(), {});
    const auto manifest = read_json(d / "manifest.json");
    // axis 0: D = 2 * 3 = 6 > d_0 = 2; axis 1: D = 3 = d_1, a row is the axis itself.
    CHECK(coverage_status(manifest, "Hardmax.coerce", "a row across several axes") == (axis == 0 ? "exercised" : "unreachable"));
    fs::remove_all(d);
  }
}

namespace {

// The "why" of one (clause, situation) in a golden manifest's coverage list ("" if absent).
std::string coverage_why(const nlohmann::json& manifest, const std::string& clause, const std::string& situation) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation) return c.value("why", "");
  return "";
}

// The witness of (clause, situation): the explanation of its output element in its case.
explain::Step witness_step(const graph::Model& m, const fs::path& d, const nlohmann::json& manifest,
                           const std::string& clause, const std::string& situation, const std::string& output) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation) {
      const auto feeds = graph::load_feeds(m, (d / c["case"].get<std::string>()).string());
      const explain::Explainer ex(m, m.run_all(feeds));
      return ex.step(output, c["witness"]["index"].get<std::vector<std::int64_t>>());
    }
  FAIL("no witness for " << clause << " / " << situation);
  return {};
}

}  // namespace

TEST_CASE("[Check.golden-coverage] [Max.int.formula] Max-13 int32: the formula and the type's extremes -2^31, 2^31 - 1 are exercised",
          "[campaign]") {
  constexpr int I = onnx::TensorProto::INT32;
  ModelBuilder b(13);
  b.input("X", I, Dims{{2, 3}}).input("B", I, Dims{{3}}).output("Y", I, Dims{{2, 3}});
  b.node("Max", {"X", "B"}, {"Y"}, "max");
  const auto m = b.load();
  const auto d = temp_dir("maxint");
  const auto w = golden::write(m, d.string(), {});
  const auto manifest = read_json(d / "manifest.json");
  CHECK(coverage_status(manifest, "Max.int.formula", "") == "exercised");
  CHECK(coverage_status(manifest, "Max.int.formula", "the type's extremes") == "exercised");
  CHECK(w.not_built == 0);
  // The extremes' witness: Y = max(-2147483648, 2147483647) = 2147483647, from B.
  const auto s = witness_step(m, d, manifest, "Max.int.formula", "the type's extremes", "Y");
  CHECK(s.element.value == "2147483647");
  REQUIRE(s.set.size() == 2);
  CHECK(s.set[0].value == "-2147483648");
  CHECK(s.set[1].value == "2147483647");
  fs::remove_all(d);
}

TEST_CASE("[Check.golden-coverage] [ReduceMax.axes.normalise] ReduceMax-18 uint8, axes [-1]: the negative axis and the extremes 0, 255",
          "[campaign]") {
  constexpr int U8 = onnx::TensorProto::UINT8;
  for (const std::int64_t axis : {-1, 1}) {
    CAPTURE(axis);
    ModelBuilder b(18);
    b.input("X", U8, Dims{{2, 3}}).output("R", U8, Dims{{2}});
    b.initializer(tp_i64("axes", {1}, {axis}));
    attr_int(b.node("ReduceMax", {"X", "axes"}, {"R"}, "reduce"), "keepdims", 0);
    const auto m = b.load();
    const auto d = temp_dir("reduceu8");
    golden::write(m, d.string(), {});
    const auto manifest = read_json(d / "manifest.json");
    CHECK(coverage_status(manifest, "ReduceMax.int.formula", "the type's extremes") == "exercised");
    const auto s = witness_step(m, d, manifest, "ReduceMax.int.formula", "the type's extremes", "R");
    CHECK(s.element.value == "255");  // R(j) = {0, 255, 0}
    REQUIRE(s.set.size() == 3);
    CHECK(s.set[0].value == "0");
    CHECK(s.set[2].value == "0");
    if (axis < 0) {
      CHECK(coverage_status(manifest, "ReduceMax.axes.normalise", "") == "exercised");
    } else {
      CHECK(coverage_status(manifest, "ReduceMax.axes.normalise", "") == "unreachable");
      CHECK(coverage_why(manifest, "ReduceMax.axes.normalise", "") == "no axis is negative");
    }
    fs::remove_all(d);
  }
}

TEST_CASE("[Check.golden-coverage] a situation that needs two elements is unreachable in a set of one, and every one in empty sets",
          "[campaign]") {
  constexpr int I = onnx::TensorProto::INT32;
  {  // Y = Max-13(X): each set is {X[i]}
    ModelBuilder b(13);
    b.input("X", I, Dims{{3}}).output("Y", I, Dims{{3}});
    b.node("Max", {"X"}, {"Y"}, "max");
    const auto d = temp_dir("maxone");
    golden::write(b.load(), d.string(), {});
    const auto manifest = read_json(d / "manifest.json");
    CHECK(coverage_status(manifest, "Max.int.formula", "") == "exercised");
    CHECK(coverage_status(manifest, "Max.int.formula", "the type's extremes") == "unreachable");
    CHECK(coverage_why(manifest, "Max.int.formula", "the type's extremes") == "its set has 1 element; the situation needs two");
    fs::remove_all(d);
  }
  {  // R = ReduceMax-18(X [2, 0], axes [1]): each R(j) is empty
    ModelBuilder b(18);
    b.input("X", I, Dims{{2, 0}}).output("R", I, Dims{{2}});
    b.initializer(tp_i64("axes", {1}, {1}));
    attr_int(b.node("ReduceMax", {"X", "axes"}, {"R"}, "reduce"), "keepdims", 0);
    const auto d = temp_dir("reduceempty");
    golden::write(b.load(), d.string(), {});
    const auto manifest = read_json(d / "manifest.json");
    CHECK(coverage_status(manifest, "ReduceMax.int.formula", "") == "unreachable");
    CHECK(coverage_why(manifest, "ReduceMax.int.formula", "") == "its sets are empty");
    fs::remove_all(d);
  }
}

TEST_CASE("[Check.coverage] at most the budget of a node's output elements are examined, the rest counted", "[campaign]") {
  const auto m = max13().load();
  const Feeds feeds = {{"X", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"B", f32({3}, {0, 0, 0})}};
  const auto all = coverage::account(m, m.run_all(feeds));
  REQUIRE(all.size() == 1);
  CHECK(all[0].elements == 6);
  CHECK(all[0].skipped == 0);
  const auto some = coverage::account(m, m.run_all(feeds), 2);
  CHECK(some[0].elements == 2);
  CHECK(some[0].skipped == 4);
}

TEST_CASE("[Check.golden-coverage] where values come from: drawn inputs are free, given ones, initializers and constants fixed",
          "[campaign]") {
  // Y = Max-13(X, V), V an initializer also declared as a graph input; Z = Max-13(W, X), W an
  // initializer; R = ReduceMax-18(X, "") (no axes input); E = Max-13(Y, R).
  ModelBuilder b(18);
  b.input("X", F, Dims{{3}}).input("V", F, Dims{{3}}).output("E", F, std::nullopt).output("Z", F, std::nullopt);
  b.initializer(tp_f32("W", {3}, {1, 2, 3})).initializer(tp_f32("V", {3}, {4, 5, 6}));
  b.node("Max", {"X", "V"}, {"Y"});
  b.node("Max", {"W", "X"}, {"Z"});
  b.node("ReduceMax", {"X", ""}, {"R"});
  b.node("Max", {"Y", "R"}, {"E"});
  const auto m = b.load();
  auto s = coverage::sources(m, {"X", "V"});
  CHECK(s.at("X") == ops::Source::Free);
  CHECK(s.at("V") == ops::Source::Free);  // drawn: golden writes it like any input
  CHECK(s.at("Y") == ops::Source::Free);
  CHECK(s.at("Z") == ops::Source::Fixed);  // W is what the model holds
  CHECK(s.at("R") == ops::Source::Free);   // the empty axes name is no input
  CHECK(s.at("E") == ops::Source::Free);
  s = coverage::sources(m, {"X"});
  CHECK(s.at("V") == ops::Source::Fixed);  // not drawn: the initializer's value
  CHECK(s.at("Y") == ops::Source::Fixed);
  CHECK(s.at("E") == ops::Source::Fixed);
}

TEST_CASE("[Common.tensor.empty] [Check.golden-coverage] a node whose output is empty reaches no situation", "[campaign]") {
  ModelBuilder b(13);
  b.input("X", F, Dims{{0, 3}}).input("B", F, Dims{{3}}).output("Y", F, Dims{{0, 3}});
  b.node("Max", {"X", "B"}, {"Y"});
  const auto m = b.load();
  const auto values = m.run_all({{"X", f32({0, 3}, {})}, {"B", f32({3}, {1, 2, 3})}});
  const auto r = coverage::reach(m, values, coverage::sources(m, {"X", "B"}));
  REQUIRE(r.size() == 1);
  REQUIRE_FALSE(r[0].empty());
  for (const auto& x : r[0]) {
    CHECK_FALSE(x.reachable);
    CHECK(x.why == "the output 'Y' is empty");
  }
}

}  // namespace campaign_test
