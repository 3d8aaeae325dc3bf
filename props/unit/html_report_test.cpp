// [Check.report.html] [Check.report.input] The HTML report's view of reports the commands do not write
// in props/report/html-page's campaign (spec/common/check.md): a golden --nodes list, a conformance
// report with failing and erroneous cases and one that judged nothing, the clause x case matrix of a
// failing clause, the graph coloured by verdicts (not observed, refused, names of no node), the model
// found or not for the graph, and the JSON that is no report; the computed outputs of check and
// conformance reports with the accuracy model's numbers ([Acc.report]), from hand-written JSON in
// check's form. Expected values are read from the clause and from the JSON given; the page itself is
// checked in headless Chromium by the `report` label (props/report/html-page, html-accuracy).
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/html_report.hpp"
#include "oracle/node_golden.hpp"
#include "oracle/report.hpp"

namespace html_report_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;

html_report::Input input(const J& j, const std::string& path = "r.json") {
  return {path, j, html_report::kind_of(j, path)};
}

J one_view(const J& report, const graph::Model* model = nullptr, const std::string& path = "r.json") {
  return html_report::view({input(report, path)}, {model}, {""})["reports"][0];
}

// The matrix cell texts of row `row` of table `table`, column by column.
std::vector<std::string> cells(const J& r, std::size_t table, std::size_t row) {
  std::vector<std::string> out;
  for (const auto& c : r["matrix"][table]["rows"][row]["cells"]) out.push_back(c["text"]);
  return out;
}

std::vector<std::string> titles(const J& r) {
  std::vector<std::string> out;
  for (const auto& g : r["matrix"]) out.push_back(g["title"]);
  return out;
}


// A check report's computed output ([Acc.verdict], [Acc.report]): hand-written JSON in the form of
// render.cpp's output_json, so the expected texts are the JSON's own, not the page's. Its numbers are
// written as check writes them (the shortest text that reads back as the double), so the page gives
// them back character for character.
const char* const kComputedReport = R"J({"command": "check", "mode": "model", "conforms": false, "summary": {"cases": 2},
  "cases": [
    {"name": "c0", "conforms": false, "outputs": [
      {"name": "Y", "status": "differs", "conforms": false, "clause": "Acc.verdict", "dtype": "float", "shape": [2, 2],
       "elements": 4, "mismatches": 2, "by_clause": {"Gemm.float.formula": 2},
       "accuracy": {"judged": 4, "outside": 2, "worst": {"index": [0, 1], "offset": 1, "expected": "1.0000001",
         "expected_bits": "0x3f800001", "actual": "2", "actual_bits": "0x40000000", "clauses": ["Gemm.float.formula"],
         "reason": "r",
         "accuracy": {"ideal": 1.0000001192092896, "oracle_error": 7.771561172376096e-16, "bound": 2.980232238769531e-07,
                      "radius": 2.9802322465410924e-07, "error": 0.9999998807907104, "fraction": 3355443.1,
                      "ulps": 8388607.0, "allowed": "finite", "flush_margin": 0.0}}},
       "findings": [
         {"index": [0, 1], "offset": 1, "expected": "1.0000001", "expected_bits": "0x3f800001", "actual": "2",
          "actual_bits": "0x40000000", "clauses": ["Gemm.float.formula", "Acc.bound"], "reason": "Y[0, 1] = 1.0000001: 4 terms",
          "accuracy": {"ideal": 1.0000001192092896, "oracle_error": 7.771561172376096e-16, "bound": 2.980232238769531e-07,
                       "radius": 2.9802322465410924e-07, "error": 0.9999998807907104, "fraction": 3355443.1,
                       "ulps": 8388607.0, "allowed": "finite", "flush_margin": 0.0}},
         {"index": [1, 1], "offset": 3, "expected": "0", "expected_bits": "0x00000000", "actual": "1e-40",
          "actual_bits": "0x000116c2", "clauses": ["Gemm.float.formula"], "reason": "Y[1, 1] = 0",
          "accuracy": {"ideal": 0.0, "oracle_error": 0.0, "bound": 1.0e-45, "radius": 2.5e-40, "error": 1.0e-40,
                       "fraction": 2.0, "ulps": 71362.0, "allowed": "finite", "flush_margin": 2.4999e-40,
                       "a_future_term": 3.5e-50, "a_zero_term": 0.0}},
         {"index": [1, 0], "offset": 2, "expected": "3", "expected_bits": "0x40400000", "actual": "inf",
          "actual_bits": "0x7f800000", "clauses": ["Gemm.float.formula"], "reason": "Y[1, 0] = 3",
          "accuracy": {"ideal": 3.0, "oracle_error": 1.0e-15, "bound": 1.0e-6, "radius": 1.000000001e-06, "error": null,
                       "fraction": null, "ulps": null, "allowed": "finite"}}],
       "nan_payload_only": 0, "nan_payload_notes": []}]},
    {"name": "c1", "conforms": true, "outputs": [
      {"name": "Y", "status": "conforms", "conforms": true, "clause": "Acc.verdict", "dtype": "float", "shape": [2, 2],
       "elements": 4, "mismatches": 0, "by_clause": {},
       "accuracy": {"judged": 4, "outside": 0, "worst": {"index": [1, 0], "offset": 2, "expected": "inf",
         "expected_bits": "0x7f800000", "actual": "inf", "actual_bits": "0x7f800000", "clauses": ["Acc.nonfinite"],
         "reason": "r",
         "accuracy": {"ideal": null, "oracle_error": 1.7486012637847257e-15, "bound": 6.70552373627288e-07,
                      "radius": 6.705523753758893e-07, "error": 0.0, "fraction": 0.0, "ulps": 0.0, "allowed": "+inf, nan"}}},
       "findings": [], "nan_payload_only": 0, "nan_payload_notes": []},
      {"name": "Z", "status": "conforms", "conforms": true, "clause": "Check.bitwise", "dtype": "float", "shape": [2],
       "elements": 2, "mismatches": 0, "by_clause": {}, "findings": []}]}]})J";

// The texts of R's terms under R: "B̂ 2.980232238769531e-07", ...
std::vector<std::string> terms(const J& element) {
  std::vector<std::string> out;
  for (const auto& t : element["radius_terms"]) out.push_back(t["label"].get<std::string>() + " " + t["value"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("[Check.report.html] [Check.report.input] [Check.golden-nodes] a golden --nodes list — its nodes, folders and "
          "counts, no verdict",
          "[report][html]") {
  // X -> Foo -> Q; X -> Relu -> R: golden --nodes writes relu/, lists foo as not judged.
  ModelBuilder b(14);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}}).output("Q", F, Dims{{2}});
  b.node("Foo", {"X"}, {"Q"}, "foo");
  b.node("Relu", {"X"}, {"R"}, "relu");
  graph::LoadOptions o;
  o.partial = true;
  const TempDir dir;
  golden::write_nodes(b.load(o), (dir.path / "g").string(), {}, {});
  const auto in = html_report::read_input((dir.path / "g" / "nodes.json").string());
  CHECK(in.kind == html_report::Kind::GoldenNodes);
  const J v = html_report::view({in}, {nullptr}, {""});
  const J& r = v["reports"][0];
  CHECK(r["heading"] == "golden --nodes list · nodes.json");
  CHECK(r["verdict_text"] == "GOLDEN SETS");
  CHECK(r["verdict_clause"] == "Check.golden-nodes");
  REQUIRE(r["golden_nodes"].size() == 2);
  CHECK(r["golden_nodes"][0]["status"] == "not judged");
  CHECK(r["golden_nodes"][0]["why"] == "operator 'Foo' is outside the spec");
  CHECK(r["golden_nodes"][1]["folder"] == "relu");
  CHECK(r["golden_nodes"][1]["cls"] == "pass");
  CHECK(v["overall_text"] == "NO VERDICT");
  const std::string page = html_report::render(v);
  CHECK(page.find("operator &apos;Foo&apos; is outside the spec") != std::string::npos);
}

TEST_CASE("[Check.report.input] JSON that is none of the reports report reads is refused, naming the clause",
          "[report][html]") {
  for (const char* text : {R"({"command": "check", "cases": []})", R"({"command": "check", "summary": {}})",
                           R"({"command": "conformance", "cases": [], "summary": {"line": 3}})",
                           R"({"clause": "Check.golden-nodes", "nodes": {}})", R"({"clause": "Check.golden", "nodes": []})",
                           R"({"tool": {}, "cases": []})", R"({"tool": {}, "coverage": []})", R"([1, 2])"})
    CHECK(refusal_id([&] { html_report::kind_of(J::parse(text), "r.json"); }) == "Check.report.input");
  // conformance --report writes no "command" key.
  CHECK(html_report::kind_of(J::parse(R"({"cases": [], "summary": {"line": "0 passed, 0 failed"}})"), "r.json") ==
        html_report::Kind::Conformance);
}

TEST_CASE("[Check.report.html] [Check.exit] a conformance report — failing cases' findings without a deciding clause, a "
          "case that could not run, the matrix per operator, a run that judged nothing does not conform",
          "[report][html]") {
  const J report = J::parse(R"J({
    "summary": {"total": 5, "passed": 1, "failed": 3, "not_implemented": 0, "skipped": 1, "line": "1 passed, 3 failed, 1 skipped"},
    "cases": [
      {"name": "c1", "status": "failed", "outputs": [
         {"status": "differs", "data_set": "test_data_set_0", "name": "y", "clause": "Check.bitwise", "mismatches": 3,
          "first": [{"index": [0], "expected": "1", "expected_bits": "0x3f800000", "actual": "2", "actual_bits": "0x40000000"}]},
         {"status": "shape", "data_set": "test_data_set_0", "name": "", "position": 1, "clause": "Check.shape",
          "message": "shape [2] instead of [3]"},
         {"status": "conforms", "data_set": "test_data_set_0", "name": "z"}]},
      {"name": "c2", "status": "failed", "error": {"clause": "Graph.model.parse"}, "message": "the model does not parse"},
      {"name": "c3", "status": "passed", "coverage": [
         {"node": "node 'max' (Max-13)", "clause": "Max.float.formula", "situation": ""},
         {"node": "node 'c' (Conv-)", "clause": "Conv.x", "situation": ""},
         {"node": "node 'v' (My-Op)", "clause": "My.x", "situation": ""},
         {"node": "node 'w' (Op-1.5)", "clause": "Op.x", "situation": ""},
         {"node": "node 'c2' (Conv)", "clause": "Conv.y", "situation": ""},
         {"node": "node 'q' (Open", "clause": "Q.x", "situation": ""},
         {"node": "a label without parentheses", "clause": "L.x", "situation": ""},
         {"node": "node ) reversed (", "clause": "R.x", "situation": ""}]},
      {"name": "c4", "status": "skipped"},
      {"name": "c5", "status": "failed", "outputs": [
         {"status": "differs", "data_set": "test_data_set_0", "name": "w", "clause": "Check.bitwise", "mismatches": 2,
          "first": [], "message": "2 elements differ"}]}]})J");
  const J r = one_view(report);
  CHECK(r["verdict_text"] == "FAILS");
  CHECK(r["verdict_line"] == "1 passed, 3 failed, 1 skipped");
  REQUIRE(r["findings"].size() == 4);
  CHECK(r["findings"][0]["index"] == "[0]");
  CHECK(r["findings"][0]["where"] == "test_data_set_0, output 'y'");
  CHECK(r["findings"][0]["clauses"].empty());  // a conformance report carries no deciding clause
  CHECK(r["findings"][1]["index"] == "(whole)");
  CHECK(r["findings"][1]["where"] == "test_data_set_0, output #1");
  CHECK(r["findings"][2]["where"] == "case");
  CHECK(r["findings"][2]["clauses"] == J({"Graph.model.parse"}));
  CHECK(r["findings"][3]["where"] == "test_data_set_0, output 'w'");  // differing elements, none listed: the whole output
  CHECK(r["findings"][3]["index"] == "(whole)");
  CHECK(r["findings_note"] == "4 finding(s) listed, each failing case by its first mismatching elements; 2 more differing "
                              "element(s) counted.");
  // One table per operator: "Max" from Max-13; a label that names no versioned operator stays as it is.
  CHECK(titles(r) == std::vector<std::string>{"Max", "Conv-", "My-Op", "Op-1.5", "Conv", "node 'q' (Open", "a label without parentheses", "node ) reversed ("});
  // Nothing passed, nothing failed: no case judged, no pass ([Check.exit]).
  const J none = J::parse(R"J({"summary": {"total": 1, "passed": 0, "failed": 0, "skipped": 1, "line": "0 passed, 0 failed, 1 skipped"},
                              "cases": [{"name": "c", "status": "skipped"}]})J");
  CHECK(one_view(none)["verdict_text"] == "NO CASE JUDGED");
  CHECK(html_report::verdict_of(input(none)) == false);
  CHECK(html_report::verdict_of(input(report)) == false);
}

TEST_CASE("[Check.report.html] [Check.coverage] the matrix marks a failing clause on the situations the case exercised, "
          "else once, on the clause's first column",
          "[report][html]") {
  // Case a exercised Max.float.formula (no situation) and fails elements decided by Max.float.formula
  // and by Max.float.zero, which it did not exercise; case b exercised two situations of each.
  const J report = J::parse(R"J({"command": "check", "mode": "model", "conforms": false, "summary": {"cases": 2},
    "cases": [
      {"name": "a", "conforms": false, "verdict": "does not conform",
       "coverage": [{"node": "node 'max' (Max-13)", "clause": "Max.float.formula", "situation": ""}],
       "outputs": [{"name": "Y", "status": "differs", "by_clause": {"Max.float.formula": 1, "Max.float.zero": 2}, "mismatches": 3,
                    "findings": []}]},
      {"name": "b", "conforms": true, "verdict": "conforms",
       "coverage": [{"node": "node 'max' (Max-13)", "clause": "Max.float.formula", "situation": "a subnormal greatest"},
                    {"node": "node 'max' (Max-13)", "clause": "Max.float.zero", "situation": "+0 before -0"},
                    {"node": "node 'max' (Max-13)", "clause": "Max.float.zero", "situation": "-0 before +0"}]}]})J");
  const J r = one_view(report);
  REQUIRE(r["matrix"].size() == 1);
  // Columns in order: (formula, ""), (formula, "a subnormal greatest"), (zero, "") — the failing clause
  // no case exercised without a situation —, (zero, "+0 before -0"), (zero, "-0 before +0").
  CHECK(cells(r, 0, 0) == std::vector<std::string>{"✗", "", "✗", "", ""});
  CHECK(cells(r, 0, 1) == std::vector<std::string>{"", "●", "", "●", "●"});
  // The output's differing elements without listed findings: one finding for the whole output.
  REQUIRE(r["findings"].size() == 1);
  CHECK(r["findings"][0]["index"] == "(whole)");
}

TEST_CASE("[Check.report.html] [Check.nodewise.verdict] [Check.attribution] the graph — each node coloured by its verdicts "
          "over the cases, verdicts naming no node of the model counted",
          "[report][html]") {
  // X -> Relu -> R; Max(R, R, B, K) -> M (B an initializer, K a Constant); Clip(M, "", H) -> Y; an
  // unused Constant U. Case 1: relu conforms, clip not observed, and a verdict of a node 'ghost' the
  // model lacks; case 2: relu not observed, max refused, clip not observed.
  ModelBuilder b(14);
  b.input("X", F, Dims{{2}}).input("H", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{2}});
  b.initializer(tp_f32("B", {2}, {0, 0}));
  attr_tensor(b.node("Constant", {}, {"K"}, "k"), "value", tp_f32("", {2}, {1, 1}));
  attr_tensor(b.node("Constant", {}, {"U"}, "u"), "value", tp_f32("", {1}, {1}));
  b.node("Relu", {"X"}, {"R"}, "relu");
  b.node("Max", {"R", "R", "B", "K"}, {"M"}, "max");
  b.node("Clip", {"M", "", "H"}, {"Y"}, "clip");
  const auto m = b.load();
  const J report = J::parse(R"J({"command": "check", "conforms": false, "summary": {"cases": 2}, "cases": [
      {"name": "1", "nodes": [{"node": "node 'relu' (Relu-14)", "status": "conforms"},
                              {"node": "node 'clip' (Clip-13)", "status": "not observed", "detail": "not given"},
                              {"node": "node 'ghost' (Max-13)", "status": "conforms"}]},
      {"name": "2", "nodes": [{"node": "node 'relu' (Relu-14)", "status": "not observed", "detail": "not given"},
                              {"node": "node 'max' (Max-13)", "status": "refused", "detail": "refused"},
                              {"node": "node 'clip' (Clip-13)", "status": "not observed", "detail": "not given"}]}]})J");
  const J r = one_view(report, &m);
  CHECK(r["has_graph"] == true);
  CHECK(r["graph_note"] == "1 node verdict(s) of the report name no node of this model.");
  std::map<std::string, std::string> cls, title;
  for (const auto& v : r["graph_nodes"]) cls[v["line2"]] = v["cls"], title[v["line2"]] = v["title"];
  CHECK(cls["relu"] == "pass");   // conforms in one case, not observed in the other
  CHECK(cls["max"] == "fail");    // refused on the IUT's values
  CHECK(cls["clip"] == "warn");   // never observed
  CHECK(title["clip"] == "node 'clip' (Clip-13): not observed: not given");
  CHECK(cls["k"] == "none");
  CHECK(cls["u"] == "none");
  // Max's three distinct inputs drawn once each: R (relu) and K; B is an initializer, no vertex.
  CHECK(r["graph_label"] == "the model's graph: 5 node(s)");
  // Edges: X-relu, relu-max (R twice: one edge), k-max, max-clip, H-clip ("" is no input), clip-Y; B is
  // an initializer, no vertex; u has none.
  CHECK(r["graph_edges"].size() == 6);
}

TEST_CASE("[Check.report.html] the model of a check report's graph — --model when its SHA-256 is the manifest's, else the "
          "manifest's model when it is there with that SHA-256, else none, and why",
          "[report][html]") {
  const TempDir dir;
  const std::string model = dir / "model.onnx", other = dir / "other.onnx";
  std::ofstream(model) << "model bytes";
  std::ofstream(other) << "other bytes";
  const std::string sha = report::sha256_file(model);
  auto check_report = [&](const J& files) {
    J j = {{"command", "check"}, {"cases", J::array()}, {"summary", J::object()}, {"manifest", {{"files", files}}}};
    return input(j, (dir.path / "sub" / "r.json").string());
  };
  std::string why;
  const auto with_sha = check_report(J::array({{{"path", model}, {"sha256", sha}}}));
  CHECK(html_report::model_for(with_sha, model, why) == model);
  CHECK(html_report::model_for(with_sha, other, why).empty());
  CHECK(why.find("is not the model this report was made on") != std::string::npos);
  CHECK(html_report::model_for(with_sha, dir / "missing.onnx", why).empty());
  CHECK(html_report::model_for(with_sha, "", why) == model);  // the manifest's, present with its SHA-256
  // Recorded relative to the report's folder.
  fs::create_directories(dir.path / "sub");
  std::ofstream(dir.path / "sub" / "rel.onnx") << "model bytes";
  CHECK(html_report::model_for(check_report(J::array({{{"path", "rel.onnx"}, {"sha256", sha}}})), "", why) ==
        (dir.path / "sub" / "rel.onnx").string());
  // Present with another SHA-256, or absent: no graph, and why.
  CHECK(html_report::model_for(check_report(J::array({{{"path", other}, {"sha256", sha}}})), "", why).empty());
  CHECK(why.find("is not here with its recorded SHA-256") != std::string::npos);
  CHECK(html_report::model_for(check_report(J::array()), "", why).empty());
  CHECK(why == "The report's manifest names no model: give --model MODEL.onnx to draw the graph.");
  // No SHA-256 recorded: any file will do.
  CHECK(html_report::model_for(check_report(J::array({{{"path", model}}})), other, why) == other);
  // Only a check report has a graph.
  const J conf = J::parse(R"({"cases": [], "summary": {"line": "x"}})");
  CHECK(html_report::model_for(input(conf), model, why).empty());
}

TEST_CASE("[Check.report.html] [Check.shard.report] the counts of a piece of a check name the piece, a node-wise report "
          "without node counts shows the others",
          "[report][html]") {
  const J piece = J::parse(R"J({"command": "check", "mode": "nodewise", "conforms": true, "summary": {"cases": 1},
    "shard": {"index": 2, "count": 3, "total": 5, "cases": ["c"], "positions": [1]},
    "cases": [{"name": "c", "nodewise": {"nodes": []}}]})J");
  const J r = one_view(piece);
  bool shard_card = false;
  for (const auto& c : r["counts"])
    if (c["label"] == "shard [Check.shard]") shard_card = c["value"] == "2/3";
  CHECK(shard_card);
  for (const auto& c : r["counts"]) CHECK(c["label"] != "node verdicts");
  // A verdict that is not a boolean true does not conform.
  J edited = piece;
  edited["conforms"] = "yes";
  CHECK(one_view(edited)["verdict_text"] == "DOES NOT CONFORM");
  CHECK(html_report::verdict_of(input(edited)) == false);
  CHECK(r["verdict_line"] == "0 of the 0 judged node verdict(s) do not conform; 0 of 0 judged, 0 not judged, over 1 case(s)");
}

TEST_CASE("[Check.report.html] [Check.verdict] a finding whose clause list holds a null is shown with its other clauses",
          "[report][html]") {
  // A hand-edited check report: the page is written, the finding listed with the clause it names.
  const J report = J::parse(R"J({"command": "check", "conforms": false, "summary": {"cases": 1}, "cases": [
      {"name": "c", "conforms": false, "outputs": [{"name": "Y", "status": "differs", "mismatches": 1,
        "findings": [{"index": [0], "expected": "1", "actual": "2", "clauses": [null, "Max.float.formula"], "reason": "r"}]}]}]})J");
  const J v = html_report::view({input(report)}, {nullptr}, {""});
  REQUIRE(v["reports"][0]["findings"].size() == 1);
  const std::string page = html_report::render(v);
  CHECK(page.find("Max.float.formula") != std::string::npos);
}

TEST_CASE("[Acc.report] [Check.report.html] [Acc.verdict] a computed output — its verdict, elements judged and outside R, "
          "its element with the largest fraction of R, each finding with the ideal, R and its terms (F and any other "
          "number when not 0), the error, its fraction of R and ULPs, every number as the JSON gives it",
          "[report][html]") {
  const J report = J::parse(kComputedReport);
  const J r = one_view(report);
  CHECK(r["has_accuracy"] == true);
  // Two computed outputs (Z, judged bit for bit, is none).
  REQUIRE(r["accuracy_outputs"].size() == 2);
  const J& o0 = r["accuracy_outputs"][0];
  CHECK(o0["case"] == "c0");
  CHECK(o0["where"] == "output 'Y'");
  CHECK(o0["status"] == "DOES NOT CONFORM");
  CHECK(o0["judged"] == "4");
  CHECK(o0["outside"] == "2");
  CHECK(o0["index"] == "[0, 1]");
  CHECK(o0["actual"] == "2");
  CHECK(o0["actual_bits"] == "0x40000000");
  CHECK(o0["ideal"] == "1.0000001192092896");
  CHECK(o0["radius"] == "2.9802322465410924e-07");
  CHECK(o0["error"] == "0.9999998807907104");
  CHECK(o0["fraction"] == "3355443.1");
  CHECK(o0["fraction_cls"] == "fail");
  CHECK(o0["ulps"] == "8388607.0");
  // R = B̂ + e_o; F of 0 is not shown.
  CHECK(terms(o0) == std::vector<std::string>{"B̂ 2.980232238769531e-07", "e_o 7.771561172376096e-16"});
  CHECK(o0["has_allowed"] == false);  // "finite": the text report says nothing either
  const J& o1 = r["accuracy_outputs"][1];
  CHECK(o1["status"] == "conforms");
  CHECK(o1["outside"] == "0");
  CHECK(o1["ideal"] == "not finite");  // null: an infinite ideal
  CHECK(o1["fraction"] == "0.0");
  CHECK(o1["fraction_cls"] == "pass");
  CHECK(o1["allowed"] == "+inf, nan");
  CHECK(o1["has_allowed"] == true);
  // The largest fraction of R over the report, among the counts.
  bool card = false;
  for (const auto& c : r["counts"])
    if (c["label"] == "largest fraction of R (c0 · output 'Y')") card = c["value"] == "3355443.1" && c["cls"] == "fail";
  CHECK(card);
  // The findings: the three elements outside R, in the accuracy table, numbered as findings.
  CHECK(r["has_plain_findings"] == false);
  REQUIRE(r["accuracy_findings"].size() == 3);
  const J& f1 = r["accuracy_findings"][1];
  CHECK(f1["n"] == "2");
  CHECK(f1["index"] == "[1, 1]");
  CHECK(f1["expected"] == "0");  // the reference's own value, shown beside the ideal ([Acc.run])
  CHECK(f1["radius"] == "2.5e-40");
  CHECK(f1["fraction"] == "2.0");
  // R widened by F ([Acc.hyp.ftz]), and a number the page does not know, by its JSON name; 0 not shown.
  CHECK(terms(f1) == std::vector<std::string>{"B̂ 1e-45", "e_o 0.0", "F 2.4999e-40", "a_future_term 3.5e-50"});
  CHECK(r["accuracy_findings"][0]["clauses"] == J({"Gemm.float.formula", "Acc.bound"}));
  const J& f2 = r["accuracy_findings"][2];
  CHECK(f2["error"] == "not finite");
  CHECK(f2["fraction"] == "not finite");
  CHECK(f2["fraction_cls"] == "fail");  // a null fraction is above every number
  CHECK(r["findings_note"].get<std::string>().rfind("3 finding(s) listed", 0) == 0);
  // On the page, escaped as every text is.
  const std::string page = html_report::render(html_report::view({input(report)}, {nullptr}, {""}));
  for (const char* s : {"1.0000001192092896", "2.9802322465410924e-07", "3355443.1", "8388607.0", "F 2.4999e-40",
                        "a_future_term 3.5e-50", "Computed outputs, judged by the accuracy model", "+inf, nan"})
    CHECK(page.find(s) != std::string::npos);
  CHECK(page.find("a_zero_term") == std::string::npos);
}

TEST_CASE("[Acc.report] [Check.report.html] [Check.nodewise.verdict] a node-wise report — per node its outputs and "
          "elements judged and outside R over the cases and its element with the largest fraction of R, on the graph too",
          "[report][html]") {
  ModelBuilder b(13);
  b.input("A", F, Dims{{3, 5}}).input("B", F, Dims{{5, 4}}).input("W", F, Dims{{4, 4}}).input("C", F, Dims{{3, 1}});
  b.output("Y", F, Dims{{3, 4}});
  b.node("MatMul", {"A", "B"}, {"H"}, "mm");
  b.node("Gemm", {"H", "W", "C"}, {"Y"}, "gemm");
  const auto m = b.load();
  auto out = [](const char* name, const char* status, int outside, const char* fraction, const char* index) {
    J o = J::parse(R"J({"status": "conforms", "clause": "Acc.verdict", "elements": 12, "by_clause": {},
      "accuracy": {"judged": 12, "worst": {"expected": "1", "expected_bits": "0x3f800000", "actual": "1",
        "actual_bits": "0x3f800000", "accuracy": {"ideal": 1.0, "oracle_error": 0.0, "bound": 1e-07, "radius": 1e-07,
        "error": 0.0, "ulps": 0.0, "allowed": "finite"}}}, "findings": []})J");
    o["name"] = name;
    o["status"] = status;
    o["mismatches"] = outside;
    o["accuracy"]["outside"] = outside;
    o["accuracy"]["worst"]["accuracy"]["fraction"] = J::parse(fraction);
    o["accuracy"]["worst"]["index"] = J::parse(index);
    return o;
  };
  J report = J::parse(R"J({"command": "check", "mode": "nodewise", "conforms": false, "summary": {"cases": 2},
    "cases": [{"name": "c0", "nodewise": {"nodes": []}}, {"name": "c1", "nodewise": {"nodes": []}}]})J");
  auto node = [](const char* label, const char* op, const char* status, const J& o) {
    return J{{"node", label}, {"name", ""}, {"op_type", op}, {"status", status}, {"outputs", J::array({o})}};
  };
  auto& n0 = report["cases"][0]["nodewise"]["nodes"];
  auto& n1 = report["cases"][1]["nodewise"]["nodes"];
  n0.push_back(node("node 'mm' (MatMul-13)", "MatMul", "conforms", out("H", "conforms", 0, "0.25", "[0, 0]")));
  n0.push_back(node("node 'gemm' (Gemm-13)", "Gemm", "differs", out("Y", "differs", 3, "1234.5", "[2, 3]")));
  n1.push_back(node("node 'mm' (MatMul-13)", "MatMul", "conforms", out("H", "conforms", 0, "0.5000000000000001", "[1, 2]")));
  n1.push_back(node("node 'gemm' (Gemm-13)", "Gemm", "differs", out("Y", "differs", 1, "7.0", "[0, 0]")));
  const J r = one_view(report, &m);
  REQUIRE(r["accuracy_nodes"].size() == 2);
  const J& mm = r["accuracy_nodes"][0];
  CHECK(mm["node"] == "node 'mm' (MatMul-13)");
  CHECK(mm["outputs"] == "2");
  CHECK(mm["judged"] == "24");
  CHECK(mm["outside"] == "0");
  CHECK(mm["fraction"] == "0.5000000000000001");  // c1's, the larger
  CHECK(mm["index"] == "[1, 2]");
  CHECK(mm["at"] == "c1 · node 'mm' (MatMul-13), output 'H'");
  const J& gemm = r["accuracy_nodes"][1];
  CHECK(gemm["outside"] == "4");
  CHECK(gemm["fraction"] == "1234.5");
  CHECK(gemm["index"] == "[2, 3]");
  CHECK(gemm["fraction_cls"] == "fail");
  // The graph: each computed node's largest fraction, as the report gives it.
  std::map<std::string, std::string> line3;
  for (const auto& v : r["graph_nodes"]) line3[v["line2"]] = v["line3"];
  CHECK(line3["mm"] == "max 0.5000000000000001 of R");
  CHECK(line3["gemm"] == "max 1234.5 of R");
  CHECK(r["has_graph_accuracy"] == true);
}

TEST_CASE("[Acc.report] [Check.report.html] a conformance report's computed outputs — listed with their elements and "
          "mismatches, the page saying the report holds no accuracy numbers",
          "[report][html]") {
  const J report = J::parse(R"J({"summary": {"total": 1, "passed": 0, "failed": 1, "line": "0 passed, 1 failed"},
    "cases": [{"name": "test_gemm", "status": "failed", "outputs": [
      {"data_set": "test_data_set_0", "position": 0, "name": "y", "status": "differs", "clause": "Acc.verdict", "elements": 6,
       "mismatches": 2, "message": "output 'y' 2 of 6 elements outside their bound",
       "first": [{"index": [0, 1], "expected": "1", "actual": "2", "expected_bits": "0x3f800000", "actual_bits": "0x40000000"}]},
      {"data_set": "test_data_set_0", "position": 1, "name": "z", "status": "conforms", "clause": "Check.bitwise", "elements": 2}]}]})J");
  const J r = one_view(report);
  REQUIRE(r["accuracy_outputs"].size() == 1);
  const J& o = r["accuracy_outputs"][0];
  CHECK(o["where"] == "test_data_set_0, output 'y'");
  CHECK(o["judged"] == "6");
  CHECK(o["outside"] == "2");
  CHECK(o["has_worst"] == false);
  CHECK(o["no_worst_text"] == "this report carries no accuracy numbers: output 'y' 2 of 6 elements outside their bound");
  REQUIRE(r["findings"].size() == 1);
  CHECK(r["findings"][0]["reason"].get<std::string>().find("a computed output (Acc.verdict)") == 0);
}

}  // namespace html_report_test
