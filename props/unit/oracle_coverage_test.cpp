// Requirement-based cases of spec/common/check.md for the parts of the oracle (check.cpp,
// report.cpp, compare.cpp) that the other unit tests leave unexercised: findings attributed to a
// node that was not observed or whose given inputs are refused, the propagated text, the
// --max-listed elision, every status name, output_K.pb names, folders that are or are not golden,
// ulp comparison of infinities, --ulp 0, and the XML escaping and JUnit properties of the reports.
// Every expected value is worked out by hand from the spec (or from a published test vector).
#include <cfloat>
#include <filesystem>
#include <fstream>
#include <limits>
#include <tuple>
#include <linux/capability.h>
#include <nlohmann/json.hpp>
#include <sys/syscall.h>
#include <unistd.h>

#include "graph_util.hpp"
#include "io/io.hpp"
#include "oracle/check.hpp"
#include "oracle/compare.hpp"
#include "oracle/report.hpp"

namespace oracle_coverage_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
using OStatus = check::OutputVerdict::Status;
using NStatus = check::NodeVerdict::Status;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Opset 18, X float [3]:
//   side:   S = Max-13(X)                     graph output S [3]
//   const:  C = Constant([1, 2, 3])
//   max:    M = Max-13(X, C, X)
//   reduce: R = ReduceMax-18(M, <no axes>), keepdims 0    graph output R []
// With X = [-1, 5, 0], by hand ([Max.float.formula], [ReduceMax.float.formula]):
//   S = [-1, 5, 0], C = [1, 2, 3], M = [1, 5, 3], R = 5.
graph::Model attribution_model() {
  ModelBuilder b(18);
  b.input("X", F, Dims{{3}}).output("S", F, Dims{{3}}).output("R", F, Dims{std::vector<std::int64_t>{}});
  b.node("Max", {"X"}, {"S"}, "side");
  attr_tensor(b.node("Constant", {}, {"C"}, "const"), "value", tp_f32("c", {3}, {1, 2, 3}));
  b.node("Max", {"X", "C", "X"}, {"M"}, "max");
  attr_int(b.node("ReduceMax", {"M", ""}, {"R"}, "reduce"), "keepdims", 0);
  return b.load();
}
const Feeds kX = {{"X", f32({3}, {-1, 5, 0})}};

const check::NodeVerdict& node_named(const check::Verdict& v, const std::string& label) {
  for (const auto& n : v.nodes)
    if (n.label == label) return n;
  FAIL("no node verdict " << label);
  throw 0;
}

// Y = Max-13(A [2, 3], B [2, 3]), float.
graph::Model max_model() {
  ModelBuilder b(13);
  b.input("A", F, Dims{{2, 3}}).input("B", F, Dims{{2, 3}}).output("Y", F, Dims{{2, 3}});
  b.node("Max", {"A", "B"}, {"Y"}, "max");
  return b.load();
}
const Feeds kAB = {{"A", f32({2, 3}, {1, -0.0f, 5, -3, 2, 0})}, {"B", f32({2, 3}, {0.5f, 0, -1, -4, 7, -0.0f})}};
// By hand ([Max.float.formula], [Max.float.zero]): Y = [[1, +0, 5], [-3, 7, +0]]
const Tensor kY = f32({2, 3}, {1, 0, 5, -3, 7, 0});

check::Verdict judge(const graph::Model& m, const Feeds& feeds, std::vector<io::NamedTensor> actual, std::vector<std::string> extra = {},
                     const compare::Options& o = {}) {
  explain::Explainer ex(m, m.run_all(feeds));
  check::Actual a;
  a.tensors = std::move(actual);
  a.extra = std::move(extra);
  return check::judge(m, ex, a, o);
}

const std::string kFFFD = "\xEF\xBF\xBD";

}  // namespace

// ---- check.cpp: [Check.attribution] -----------------------------------------------------------------

TEST_CASE("[Check.attribution] [Check.missing] a node whose output was not given is not observed, one whose given inputs are refused does not conform",
          "[check]") {
  const auto m = attribution_model();
  const explain::Explainer ex(m, m.run_all(kX));
  // The IUT gave C as [7, 7] (shape [2]), M = [7, 7, 7], R = 7, and no S.
  const auto actual = check::actual_from_tensors(
      m, {{"C", f32({2}, {7, 7})}, {"M", f32({3}, {7, 7, 7})}, {"R", f32({}, {7})}});
  CHECK(actual.extra.empty());
  const auto v = check::judge(m, ex, actual, {});
  CHECK_FALSE(v.conforms);
  REQUIRE(v.nodes.size() == 3);  // the Constant node is not judged
  const auto& side = node_named(v, "node 'side' (Max-13)");
  CHECK(side.status == NStatus::NotObserved);
  CHECK(side.detail == "the implementation under test did not give its output");
  // Max(X [3], C [2], X [3]): [3] and [2] do not broadcast ([Max.err.broadcast])
  const auto& max = node_named(v, "node 'max' (Max-13)");
  CHECK(max.status == NStatus::Refused);
  CHECK(contains(max.detail, "the values it was given are refused: "));
  CHECK(contains(max.detail, "[Max.err.broadcast]"));
  // ReduceMax of the given M = [7, 7, 7] is 7: the node conforms
  CHECK(node_named(v, "node 'reduce' (ReduceMax-18)").status == NStatus::Conforms);
  REQUIRE(v.outputs.size() == 2);
  CHECK(v.outputs[0].name == "S");
  CHECK(v.outputs[0].status == OStatus::Missing);
  CHECK(v.outputs[0].id == "Check.missing");
  CHECK(v.outputs[1].name == "R");
  CHECK(v.outputs[1].status == OStatus::Mismatch);  // 7 against 5
  CHECK(v.outputs[1].propagated_from == "node 'max' (Max-13)");

  const std::string text = check::to_text(v, {});
  CHECK(contains(text, "output 'S': DOES NOT CONFORM, absent from ACTUAL [Check.missing]\n"));
  CHECK(contains(text, "  node 'side' (Max-13): not observed (the implementation under test did not give its output)\n"));
  CHECK(contains(text, "  node 'max' (Max-13): DOES NOT CONFORM, the values it was given are refused: "));
  CHECK(contains(text, "  node 'reduce' (ReduceMax-18): conforms\n"));
  CHECK(contains(text, "  propagated: the node producing 'R' conforms on the values it was given; the difference comes "
                       "from node 'max' (Max-13) [Check.attribution]\n"));
  CHECK(contains(text, "verdict: DOES NOT CONFORM: 2 of 2 output(s) do not conform [Check.verdict]\n"));

  const auto j = check::to_json(v, {});
  CHECK(j["outputs"][0]["status"] == "missing");
  CHECK(j["outputs"][1]["status"] == "differs");
  CHECK(j["outputs"][1]["propagated_from"] == "node 'max' (Max-13)");
  std::map<std::string, std::string> node_status;
  for (const auto& n : j["nodes"]) node_status[n["node"]] = n["status"];
  CHECK(node_status["node 'side' (Max-13)"] == "not observed");
  CHECK(node_status["node 'max' (Max-13)"] == "refused");
  CHECK(node_status["node 'reduce' (ReduceMax-18)"] == "conforms");

  // JUnit: the not-observed node is skipped with its reason; the refused one fails with its reason.
  const auto junit = check::to_junit(v, "check.attr");
  std::map<std::string, report::JunitCase> by_name;
  for (const auto& c : junit) by_name[c.name] = c;
  REQUIRE(by_name.count("node node 'side' (Max-13)") == 1);
  CHECK(by_name["node node 'side' (Max-13)"].skipped);
  CHECK(by_name["node node 'side' (Max-13)"].failure == side.detail);
  CHECK_FALSE(by_name["node node 'max' (Max-13)"].skipped);
  CHECK(by_name["node node 'max' (Max-13)"].failure == max.detail);
  CHECK_FALSE(by_name["node node 'reduce' (ReduceMax-18)"].skipped);
  CHECK(by_name["node node 'reduce' (ReduceMax-18)"].failure.empty());
  CHECK_FALSE(by_name["S"].failure.empty());
  CHECK_FALSE(by_name["R"].failure.empty());
}

TEST_CASE("[Check.attribution] a difference that no judged node made is propagated from an unknown node",
          "[check]") {
  const auto m = attribution_model();
  const explain::Explainer ex(m, m.run_all(kX));
  // The IUT's Constant gave [7, 7, 7]; its Max and ReduceMax are right for that value: M = [7, 7, 7],
  // R = 7; S = X is right. The Constant node is not judged, so no node is seen to differ.
  const auto actual = check::actual_from_tensors(
      m, {{"S", f32({3}, {-1, 5, 0})}, {"C", f32({3}, {7, 7, 7})}, {"M", f32({3}, {7, 7, 7})}, {"R", f32({}, {7})}});
  const auto v = check::judge(m, ex, actual, {});
  CHECK_FALSE(v.conforms);
  for (const auto& n : v.nodes) CHECK(n.status == NStatus::Conforms);
  REQUIRE(v.outputs.size() == 2);
  CHECK(v.outputs[0].status == OStatus::Conforms);
  CHECK(v.outputs[1].status == OStatus::Mismatch);
  CHECK(v.outputs[1].propagated_from == "(unknown: no node upstream was observed to differ)");
  const std::string text = check::to_text(v, {});
  // S = [-1, 5, 0]: 3 elements of float, shape [3]
  CHECK(contains(text, "output 'S': conforms (float [3], 3 elements, [Check.bitwise])\n"));
  CHECK(contains(text, "output 'R': DOES NOT CONFORM, 1 of 1 element differs [Check.bitwise]\n"));
  CHECK(contains(text, "the difference comes from (unknown: no node upstream was observed to differ) [Check.attribution]"));
}

TEST_CASE("[Check.attribution] [Check.shape] a node output of another shape is that node's finding, the verdict rests on the graph outputs",
          "[check]") {
  const auto m = attribution_model();
  const explain::Explainer ex(m, m.run_all(kX));
  // The IUT's Max gave M = [1, 5] (shape [2], expected [3]); ReduceMax of that is 5, and R = 5, S = X are right.
  const auto actual = check::actual_from_tensors(m, {{"S", f32({3}, {-1, 5, 0})}, {"M", f32({2}, {1, 5})}, {"R", f32({}, {5})}});
  const auto v = check::judge(m, ex, actual, {});
  CHECK(v.conforms);  // [Check.attribution] the verdict is unchanged: every graph output conforms
  const auto& max = node_named(v, "node 'max' (Max-13)");
  CHECK(max.status == NStatus::Differs);
  CHECK(max.verdict.status == OStatus::Structure);
  CHECK(max.verdict.id == "Check.shape");
  CHECK(node_named(v, "node 'reduce' (ReduceMax-18)").status == NStatus::Conforms);
  const std::string text = check::to_text(v, {});
  CHECK(contains(text, "  node 'max' (Max-13): DOES NOT CONFORM, dtype or shape of 'M' differs: expected float [3], got float [2] [Check.shape]\n"));
  const auto j = check::to_json(v, {});
  bool seen = false;
  for (const auto& n : j["nodes"])
    if (n["node"] == "node 'max' (Max-13)") {
      seen = true;
      CHECK(n["status"] == "differs");
      CHECK(n["verdict"]["status"] == "shape");
    }
  CHECK(seen);
}

TEST_CASE("[Check.attribution] a difference made by Max and passed on is Max's, with a graph input read twice and an absent optional input",
          "[check]") {
  const auto m = attribution_model();
  const explain::Explainer ex(m, m.run_all(kX));
  // The IUT's Max gave M = [1, 5, 9] (M[2] should be max(0, 3, 0) = 3); its ReduceMax is right for that M.
  const auto actual = check::actual_from_tensors(m, {{"S", f32({3}, {-1, 5, 0})}, {"M", f32({3}, {1, 5, 9})}, {"R", f32({}, {9})}});
  const auto v = check::judge(m, ex, actual, {});
  CHECK_FALSE(v.conforms);
  const auto& max = node_named(v, "node 'max' (Max-13)");
  CHECK(max.status == NStatus::Differs);
  REQUIRE(max.verdict.findings.size() == 1);
  CHECK(max.verdict.findings[0].mismatch.index == std::vector<std::int64_t>{2});
  CHECK(node_named(v, "node 'side' (Max-13)").status == NStatus::Conforms);
  CHECK(v.outputs.at(1).propagated_from == "node 'max' (Max-13)");
  CHECK(v.outputs.at(0).propagated_from.empty());  // S conforms
}

TEST_CASE("[IO.npy.bfloat16] [Check.attribution] the element type of an intermediate value is its node's first input's",
          "[check]") {
  const auto m = attribution_model();
  CHECK(check::value_dtype(m, "X") == DType::Float);   // a declared input
  CHECK(check::value_dtype(m, "R") == DType::Float);   // a declared output
  CHECK(check::value_dtype(m, "M") == DType::Float);   // Max's output: the type of X
  // Only declared values and the outputs of Max, ReduceMax and Hardmax are typed without running
  // the model (check.hpp): a Constant's output and a name of no value are not.
  CHECK(check::value_dtype(m, "C") == std::nullopt);
  CHECK(check::value_dtype(m, "nothing") == std::nullopt);
  // bfloat16: M = Max(X) with X bfloat16
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::BFLOAT16, Dims{{2}}).output("Y", onnx::TensorProto::BFLOAT16, Dims{{2}});
  b.node("Max", {"X"}, {"M"}, "a");
  b.node("Max", {"M"}, {"Y"}, "b");
  CHECK(check::value_dtype(b.load(), "M") == DType::BFloat16);
}

TEST_CASE("[Check.missing] actual values by name: graph inputs, overridable ones included, are not actual values, unknown names are extra",
          "[check]") {
  // Y = Max-13(X, W), W an initializer that is also a graph input (overridable).
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).input("W", F, Dims{{2}}).output("Y", F, Dims{{2}});
  b.initializer(tp_f32("W", {2}, {0, 0}));
  b.node("Max", {"X", "W"}, {"Y"}, "max");
  const auto m = b.load();
  REQUIRE(m.overridable_inputs().size() == 1);
  const auto a = check::actual_from_tensors(
      m, {{"X", f32({2}, {1, 2})}, {"W", f32({2}, {3, 4})}, {"Y", f32({2}, {3, 4})}, {"Q", f32({2}, {0, 0})}});
  REQUIRE(a.tensors.size() == 1);
  CHECK(a.tensors[0].name == "Y");
  CHECK(a.extra == std::vector<std::string>{"Q"});
  CHECK(a.notes.empty());
}

// ---- check.cpp: folders and names ([Check.missing], [Check.cases]) ---------------------------------

TEST_CASE("[Check.missing] [IO.testdata.folder] output_K.pb is judged as the K-th graph output whatever its name, a differing name is noted",
          "[check]") {
  const auto m = max_model();
  TempDir dir("sonnx-oracle-cov");
  fs::create_directories(dir.path / "same");
  fs::create_directories(dir.path / "other");
  fs::create_directories(dir.path / "unnamed");
  io::write_tensor_pb(dir / "same/output_0.pb", kY, "Y");
  io::write_tensor_pb(dir / "other/output_0.pb", kY, "Q");
  io::write_tensor_pb(dir / "unnamed/output_0.pb", kY, "");
  const auto same = check::load_actual(m, dir / "same");
  REQUIRE(same.tensors.size() == 1);
  CHECK(same.tensors[0].name == "Y");
  CHECK(same.notes.empty());
  const auto unnamed = check::load_actual(m, dir / "unnamed");
  REQUIRE(unnamed.tensors.size() == 1);
  CHECK(unnamed.tensors[0].name == "Y");
  CHECK(unnamed.notes.empty());
  const auto other = check::load_actual(m, dir / "other");
  REQUIRE(other.tensors.size() == 1);
  CHECK(other.tensors[0].name == "Y");
  CHECK(other.extra.empty());
  REQUIRE(other.notes.size() == 1);
  CHECK(other.notes[0] == "output_0.pb is named 'Q' but is judged as graph output 0 'Y' (by position)");
  // the note is carried into the verdict's report; Y is the expected value, so the output conforms
  const explain::Explainer ex(m, m.run_all(kAB));
  const auto v = check::judge(m, ex, other, {});
  CHECK(v.conforms);
  CHECK(contains(check::to_text(v, {}), "note: output_0.pb is named 'Q' but is judged as graph output 0 'Y' (by position)\n"));
}

TEST_CASE("[Check.attribution] [IO.npz.archive] a test_data_set folder's .npz files hold values by name, a folder named .npz is not one",
          "[check]") {
  // M = Max-13(A, B); Y = Max-13(M)
  ModelBuilder b(13);
  b.input("A", F, Dims{{2, 3}}).input("B", F, Dims{{2, 3}}).output("Y", F, Dims{{2, 3}});
  b.node("Max", {"A", "B"}, {"M"}, "max");
  b.node("Max", {"M"}, {"Y"}, "copy");
  const auto m = b.load();
  TempDir dir("sonnx-oracle-cov");
  fs::create_directories(dir.path / "set" / "folder.npz");
  io::write_tensor_pb(dir / "set/output_0.pb", kY, "Y");
  io::write_npz(dir / "set/values.npz", {{"M", kY}});
  const auto a = check::load_actual(m, dir / "set");
  REQUIRE(a.tensors.size() == 2);
  CHECK(a.tensors[0].name == "Y");
  CHECK(a.tensors[1].name == "M");
  CHECK(a.extra.empty());
  const explain::Explainer ex(m, m.run_all(kAB));
  const auto v = check::judge(m, ex, a, {});
  CHECK(v.conforms);
  REQUIRE(v.nodes.size() == 2);
  CHECK(v.nodes[0].status == NStatus::Conforms);
  CHECK(v.nodes[1].status == NStatus::Conforms);
}

TEST_CASE("[Check.cases] a folder without test_data_set_K folders is one case, other entries of a golden folder are ignored",
          "[check]") {
  const auto m = max_model();
  TempDir dir("sonnx-oracle-cov");
  // One case: INPUTS is a test_data_set folder holding a sub-folder and a file named like a set.
  const fs::path in = dir.path / "inputs";
  fs::create_directories(in / "notes");
  io::write_tensor_pb((in / "input_0.pb").string(), kAB[0].tensor, "A");
  io::write_tensor_pb((in / "input_1.pb").string(), kAB[1].tensor, "B");
  std::ofstream(in / "test_data_set_7") << "not a folder";
  fs::create_directories(dir.path / "iut");
  io::write_tensor_pb(dir / "iut/output_0.pb", kY, "Y");
  auto cases = check::load_cases(m, in.string(), dir / "iut");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].name == "inputs");
  CHECK(cases[0].feeds.size() == 2);
  CHECK(check::judge_cases(m, cases, {}).conforms);

  // A golden folder: test_data_set_0, plus a folder and a file that are not test_data_set_K folders.
  const fs::path golden = dir.path / "golden";
  fs::create_directories(golden / "test_data_set_0");
  fs::create_directories(golden / "test_data_set_x");
  fs::create_directories(golden / "extra");
  std::ofstream(golden / "test_data_set_1") << "a file, not a case";
  io::write_tensor_pb((golden / "test_data_set_0" / "input_0.pb").string(), kAB[0].tensor, "A");
  io::write_tensor_pb((golden / "test_data_set_0" / "input_1.pb").string(), kAB[1].tensor, "B");
  fs::create_directories(dir.path / "iut2" / "test_data_set_0");
  io::write_tensor_pb(dir / "iut2/test_data_set_0/output_0.pb", kY, "Y");
  cases = check::load_cases(m, golden.string(), dir / "iut2");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].name == "test_data_set_0");
  CHECK(check::judge_cases(m, cases, {}).conforms);
}

TEST_CASE("[Check.cases] [Check.exit] a bundle must be one .npz: a folder alone is a usage error", "[check]") {
  const auto m = max_model();
  TempDir dir("sonnx-oracle-cov");
  CHECK(failure_kind([&] { check::load_cases(m, dir.path.string(), ""); }) == Failure::Usage);
}

// ---- check.cpp: [Check.verdict] texts ---------------------------------------------------------------

TEST_CASE("[Check.verdict] [Check.missing] [Check.shape] every status has its name", "[check]") {
  // check.hpp: "conforms", "differs", "shape", "missing", "extra"; nodes: "conforms", "differs",
  // "not observed", "refused"
  CHECK(check::status_name(OStatus::Conforms) == "conforms");
  CHECK(check::status_name(OStatus::Mismatch) == "differs");
  CHECK(check::status_name(OStatus::Structure) == "shape");
  CHECK(check::status_name(OStatus::Missing) == "missing");
  CHECK(check::status_name(OStatus::Extra) == "extra");
  CHECK(check::status_name(NStatus::Conforms) == "conforms");
  CHECK(check::status_name(NStatus::Differs) == "differs");
  CHECK(check::status_name(NStatus::NotObserved) == "not observed");
  CHECK(check::status_name(NStatus::Refused) == "refused");
}

TEST_CASE("[Check.shape] [Check.missing] [Check.verdict] the text report of a shape difference and of an extra actual value",
          "[check]") {
  const auto m = max_model();
  const auto v = judge(m, kAB, {{"Y", f32({3, 2}, {1, 0, 5, -3, 7, 0})}}, {"Z"});
  CHECK_FALSE(v.conforms);
  REQUIRE(v.outputs.size() == 2);
  const std::string text = check::to_text(v, {});
  CHECK(contains(text, "output 'Y': DOES NOT CONFORM, dtype or shape differs: expected float [2, 3], got float [3, 2] [Check.shape]\n"));
  CHECK(contains(text, "actual value 'Z': DOES NOT CONFORM, names no value of the graph [Check.missing]\n"));
  const auto j = check::to_json(v, {});
  CHECK(j["outputs"][0]["status"] == "shape");
  CHECK(j["outputs"][1]["status"] == "extra");
  CHECK_FALSE(j["outputs"][1].contains("dtype"));  // an extra value has no expected dtype or shape
}

TEST_CASE("[Check.verdict] [Check.cases] beyond --max-listed the rest is counted, every mismatching element is counted by clause",
          "[check]") {
  // Y = Max-13(A), A float [70000] all 1: Y = A ([Max.float.formula]); the IUT gives 2 everywhere.
  ModelBuilder b(13);
  b.input("A", F, Dims{{70000}}).output("Y", F, Dims{{70000}});
  b.node("Max", {"A"}, {"Y"}, "max");
  const auto m = b.load();
  const auto o = compare::options_for(std::nullopt, 2);
  const auto v = judge(m, {{"A", f32({70000}, std::vector<float>(70000, 1.0f))}},
                       {{"Y", f32({70000}, std::vector<float>(70000, 2.0f))}}, {}, o);
  const auto& y = v.outputs.at(0);
  CHECK(y.mismatches == 70000);
  CHECK(y.findings.size() == 2);
  CHECK(contains(check::to_text(v, o), "  ... 69998 more (--max-listed)\n"));
  // every one of the 70000 is counted once; beyond the first 65536 (check.cpp: kClassified, the
  // number spec/common/check.md states) the deciding clause is not looked up
  std::int64_t total = 0;
  for (const auto& [clause, n] : y.by_clause) total += n;
  CHECK(total == 70000);
  CHECK(y.by_clause.at("Max.float.formula") == 65536);
  CHECK(y.by_clause.at("(not classified)") == 70000 - 65536);
}

// ---- compare.cpp: [Check.ulp] ------------------------------------------------------------------------

TEST_CASE("[Check.ulp] [Check.bitwise] --ulp 0 is the bitwise comparison, no --ulp too, --ulp N > 0 the ulp one", "[check]") {
  const auto none = compare::options_for(std::nullopt);
  CHECK_FALSE(none.ulp_mode);
  CHECK(none.ulp == 0);
  CHECK(none.max_listed == 10);
  const auto zero = compare::options_for(0, 3);
  CHECK_FALSE(zero.ulp_mode);
  CHECK(zero.ulp == 0);
  CHECK(zero.max_listed == 3);
  const auto two = compare::options_for(2);
  CHECK(two.ulp_mode);
  CHECK(two.ulp == 2);
  // With --ulp 0, +0 against -0 (1 rank apart) does not conform and the report names [Check.bitwise].
  const auto m = max_model();
  const auto v = judge(m, kAB, {{"Y", f32({2, 3}, {1, -0.0f, 5, -3, 7, 0})}}, {}, zero);
  CHECK_FALSE(v.conforms);
  CHECK(v.outputs[0].id == "Check.bitwise");
  CHECK(check::to_json(v, zero)["comparison"]["mode"] == "bitwise");
  CHECK(contains(check::to_text(v, zero), "comparison: bitwise [Check.bitwise]\n"));
  // With --ulp 1 it conforms.
  CHECK(judge(m, kAB, {{"Y", f32({2, 3}, {1, -0.0f, 5, -3, 7, 0})}}, {}, compare::options_for(1)).conforms);
}

TEST_CASE("[Check.ulp] an infinite value conforms only to the same infinity, however large N", "[check]") {
  compare::Options o;
  o.ulp_mode = true;
  o.ulp = std::uint64_t{1} << 40;  // far more than the 2^32 ranks of float
  const auto one = [&](float e, float a) { return compare::compare(f32({1}, {e}), f32({1}, {a}), o).conforms; };
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(one(inf, inf));
  CHECK(one(-inf, -inf));
  CHECK_FALSE(one(inf, FLT_MAX));   // FLT_MAX is the rank just below +inf
  CHECK_FALSE(one(FLT_MAX, inf));
  CHECK_FALSE(one(inf, -inf));
  CHECK_FALSE(one(-FLT_MAX, -inf));
  CHECK(one(1.0f, FLT_MAX));        // finite values: any rank difference up to N
  CHECK(one(-FLT_MAX, FLT_MAX));
  // double
  const double dinf = std::numeric_limits<double>::infinity();
  compare::Options o1;
  o1.ulp_mode = true;
  o1.ulp = 1;
  CHECK_FALSE(compare::compare(make_tensor<double>({1}, {DBL_MAX}), make_tensor<double>({1}, {dinf}), o1).conforms);
  CHECK(compare::compare(make_tensor<double>({1}, {dinf}), make_tensor<double>({1}, {dinf}), o1).conforms);
}

// ---- report.cpp ---------------------------------------------------------------------------------------

TEST_CASE("[Check.verdict] manifest hashes: a missing file and a folder are refused, a file is hashed", "[report]") {
  TempDir dir("sonnx-oracle-cov");
  std::ofstream(dir / "abc", std::ios::binary) << "abc";
  // FIPS 180-2 appendix B.1
  CHECK(report::sha256_file(dir / "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(failure_kind([&] { report::sha256_file(dir / "absent"); }) == Failure::Io);
  CHECK(refusal_id([&] { report::sha256_file(dir / "absent"); }) == "Check.verdict");
  CHECK(failure_kind([&] { report::sha256_file(dir.path.string()); }) == Failure::Io);
  CHECK(refusal_id([&] { report::sha256_file(dir.path.string()); }) == "Check.verdict");
}

TEST_CASE("[Check.verdict] XML escaping: carriage return, DEL and the UTF-8 sequences of RFC 3629", "[report]") {
  CHECK(report::xml_escape("a\rb") == "a&#13;b");
  CHECK(report::xml_escape("~\x7F~") == "~" + kFFFD + "~");  // 0x7E is printable, 0x7F (DEL) a control
  // four-byte sequences: U+1F600 and U+10FFFF are kept
  CHECK(report::xml_escape("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");
  CHECK(report::xml_escape("\xF4\x8F\xBF\xBF") == "\xF4\x8F\xBF\xBF");
  // beyond U+10FFFF (F4 90 ..) and leads F5..FF are not UTF-8: each byte becomes U+FFFD
  CHECK(report::xml_escape("\xF4\x90\x80\x80") == kFFFD + kFFFD + kFFFD + kFFFD);
  CHECK(report::xml_escape("\xF5\x80\x80\x80") == kFFFD + kFFFD + kFFFD + kFFFD);
  CHECK(report::xml_escape("\xFF") == kFFFD);
  // a lone continuation byte, and the overlong lead C1
  CHECK(report::xml_escape("x\x80y") == "x" + kFFFD + "y");
  CHECK(report::xml_escape("\xC1\xBF") == kFFFD + kFFFD);
  // a three-byte sequence whose third byte is not a continuation byte (below 0x80, above 0xBF)
  CHECK(report::xml_escape("\xE2\x88\x92") == "\xE2\x88\x92");  // U+2212 kept
  CHECK(report::xml_escape("\xE2\x88" "A") == kFFFD + kFFFD + "A");
  CHECK(report::xml_escape("\xE2\x88\xC0") == kFFFD + kFFFD + kFFFD);
  // a four-byte sequence whose last byte is not a continuation byte
  CHECK(report::xml_escape("\xF0\x9F\x98" "A") == kFFFD + kFFFD + kFFFD + "A");
  // a sequence cut short by the end of the text
  CHECK(report::xml_escape("\xF0\x9F\x98") == kFFFD + kFFFD + kFFFD);
}

TEST_CASE("[Check.verdict] JUnit properties: the manifest's date is the timestamp, file hashes and other fields are properties",
          "[report]") {
  nlohmann::json manifest = {{"date_utc", "2026-01-02T03:04:05Z"},
                             {"tool", "sonnx-ref"},
                             {"argv", {"sonnx-ref", "check"}},
                             {"nothing", nullptr},
                             {"files", {"a string", {{"sha256", "11"}}, {{"path", "p-only"}}, {{"path", "m.onnx"}, {"sha256", "00ff"}}}}};
  const std::string x = report::junit_xml("s", {{"c", "t", "", false, 0}}, manifest);
  CHECK(contains(x, "skipped=\"0\" time=\"0.000\" timestamp=\"2026-01-02T03:04:05Z\">\n"));
  CHECK(contains(x, "    <property name=\"tool\" value=\"sonnx-ref\"/>\n"));
  CHECK(contains(x, "    <property name=\"date_utc\" value=\"2026-01-02T03:04:05Z\"/>\n"));
  CHECK(contains(x, "    <property name=\"argv\" value=\"[&quot;sonnx-ref&quot;,&quot;check&quot;]\"/>\n"));
  CHECK(contains(x, "    <property name=\"sha256:m.onnx\" value=\"00ff\"/>\n"));
  // only the entry with both a path and a hash is a file property; null fields are left out
  std::size_t hashes = 0;
  for (auto p = x.find("sha256:"); p != std::string::npos; p = x.find("sha256:", p + 1)) ++hashes;
  CHECK(hashes == 1);
  CHECK_FALSE(contains(x, "p-only"));
  CHECK_FALSE(contains(x, "name=\"files\""));
  CHECK_FALSE(contains(x, "name=\"nothing\""));

  // no date: no timestamp; a "files" field that is not a list is an ordinary property
  const std::string y = report::junit_xml("s", {}, nlohmann::json{{"files", 3}});
  CHECK_FALSE(contains(y, "timestamp="));
  CHECK(contains(y, "    <property name=\"files\" value=\"3\"/>\n"));
  // no manifest: no properties at all
  CHECK_FALSE(contains(report::junit_xml("s", {}), "<properties>"));
}

TEST_CASE("[Check.verdict] JUnit properties of a real manifest name each hashed file", "[report]") {
  TempDir dir("sonnx-oracle-cov");
  std::ofstream(dir / "model.onnx", std::ios::binary) << "abc";
  const auto m = report::manifest({dir / "model.onnx"}, {"sonnx-ref", "check"});
  const std::string x = report::junit_xml("s", {}, m);
  // FIPS 180-2 appendix B.1: SHA-256("abc")
  CHECK(contains(x, "<property name=\"sha256:" + report::xml_escape(dir / "model.onnx") +
                        "\" value=\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"/>"));
  CHECK(contains(x, " timestamp=\"" + m["date_utc"].get<std::string>() + "\""));
}

// ---- a folder that cannot be listed ---------------------------------------------------------------

namespace {

// For the scope of a test, this thread without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH in its
// effective set, so that a folder of mode 000 cannot be listed even by root; restored afterwards
// (they stay in the permitted set). `active` is false when the capabilities could not be changed.
struct NoDacOverride {
  bool active = false;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct saved[2]{};
  NoDacOverride() {
    if (::syscall(SYS_capget, &header, saved) != 0) return;
    __user_cap_data_struct reduced[2] = {saved[0], saved[1]};
    reduced[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
    active = ::syscall(SYS_capset, &header, reduced) == 0;
  }
  NoDacOverride(const NoDacOverride&) = delete;
  NoDacOverride& operator=(const NoDacOverride&) = delete;
  ~NoDacOverride() {
    if (active) ::syscall(SYS_capset, &header, saved);
  }
};

}  // namespace

TEST_CASE("[Check.cases] [IO.testdata.folder] a folder of inputs that cannot be listed is an I/O failure", "[check]") {
  const auto m = max_model();
  TempDir dir("sonnx-oracle-cov");
  const fs::path in = dir.path / "inputs";
  fs::create_directories(in);
  io::write_tensor_pb((in / "input_0.pb").string(), kAB[0].tensor, "A");
  io::write_tensor_pb((in / "input_1.pb").string(), kAB[1].tensor, "B");
  fs::create_directories(dir.path / "iut");
  io::write_tensor_pb(dir / "iut/output_0.pb", kY, "Y");
  fs::permissions(in, fs::perms::none);
  std::optional<Failure> kind;
  std::string id;
  bool unlistable = false;
  {
    NoDacOverride guard;
    std::error_code ec;
    fs::directory_iterator probe(in, ec);
    unlistable = static_cast<bool>(ec);
    if (unlistable) {
      kind = failure_kind([&] { check::load_cases(m, in.string(), dir / "iut"); });
      id = refusal_id([&] { check::load_cases(m, in.string(), dir / "iut"); });
    }
  }
  fs::permissions(in, fs::perms::owner_all);
  if (!unlistable) {
    WARN("a folder of mode 000 can still be listed here (capabilities could not be dropped); skipped");
    return;
  }
  // [IO.testdata.folder] a folder that cannot be listed is refused with this ID, as an I/O failure
  CHECK(kind == Failure::Io);
  CHECK(id == "IO.testdata.folder");
}

namespace {

// Runs `f` with `folder` at mode 000 and the DAC capabilities dropped; returns (whether the folder was
// unlistable, the failure kind, the ID).
template <class F> std::tuple<bool, std::optional<Failure>, std::string> with_unlistable(const fs::path& folder, F&& f) {
  fs::permissions(folder, fs::perms::none);
  bool unlistable = false;
  std::optional<Failure> kind;
  std::string id;
  {
    NoDacOverride guard;
    std::error_code ec;
    fs::directory_iterator probe(folder, ec);
    unlistable = static_cast<bool>(ec);
    if (unlistable) {
      kind = failure_kind(f);
      id = refusal_id(f);
    }
  }
  fs::permissions(folder, fs::perms::owner_all);
  return {unlistable, kind, id};
}

}  // namespace

// Found while covering files_below: a folder that could not be listed was hashed as if empty.
TEST_CASE("[Check.verdict] a folder below spec/ or below a manifest's folder that cannot be listed is an I/O failure, never left out",
          "[report]") {
  TempDir dir("sonnx-oracle-cov");
  fs::create_directories(dir.path / "spec" / "ops");
  std::ofstream(dir.path / "spec" / "README.md") << "# spec\n";
  std::ofstream(dir.path / "spec" / "ops" / "max.md") << "# Max\n";
  // Listed: the documented hash is over both files ("<sha256>  <path>\n" lines, sorted).
  CHECK_FALSE(report::spec_hash(dir.path.string()).empty());
  CHECK(report::manifest({(dir.path / "spec").string()}, {})["files"].size() == 2);
  auto [unlistable, kind, id] = with_unlistable(dir.path / "spec" / "ops", [&] { report::spec_hash(dir.path.string()); });
  if (!unlistable) {
    WARN("a folder of mode 000 can still be listed here (capabilities could not be dropped); skipped");
    return;
  }
  CHECK(kind == Failure::Io);
  CHECK(id == "Check.verdict");
  std::tie(unlistable, kind, id) =
      with_unlistable(dir.path / "spec" / "ops", [&] { report::manifest({(dir.path / "spec").string()}, {}); });
  CHECK(kind == Failure::Io);
  CHECK(id == "Check.verdict");
}

TEST_CASE("[Check.cases] [IO.testdata.folder] a case folder with a subfolder that cannot be listed is an I/O failure", "[check]") {
  const auto m = max_model();
  TempDir dir("sonnx-oracle-cov");
  const fs::path set = dir.path / "golden" / "test_data_set_0";
  fs::create_directories(set / "more");
  io::write_tensor_pb((set / "input_0.pb").string(), kAB[0].tensor, "A");
  io::write_tensor_pb((set / "input_1.pb").string(), kAB[1].tensor, "B");
  fs::create_directories(dir.path / "iut" / "test_data_set_0");
  io::write_tensor_pb(dir / "iut/test_data_set_0/output_0.pb", kY, "Y");
  CHECK(check::load_cases(m, (dir.path / "golden").string(), (dir.path / "iut").string()).size() == 1);
  const auto [unlistable, kind, id] = with_unlistable(set / "more", [&] {
    check::load_cases(m, (dir.path / "golden").string(), (dir.path / "iut").string());
  });
  if (!unlistable) {
    WARN("a folder of mode 000 can still be listed here (capabilities could not be dropped); skipped");
    return;
  }
  CHECK(kind == Failure::Io);
  CHECK(id == "IO.testdata.folder");
}

}  // namespace oracle_coverage_test
