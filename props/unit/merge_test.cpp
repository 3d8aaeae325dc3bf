// [Check.report.merge] [Check.shard] [Check.shard.report] `report --merge` on pieces written here by
// hand (spec/common/check.md): the cases put back at their positions, the summaries' counts added, the
// verdict recomputed from the whole, the manifests' files in the unsharded order; and every way pieces
// can fail to make one campaign, refused with [Check.report.merge]. props/report/shard-merge checks the
// merge of pieces the commands wrote against the unsharded run; these are the pieces no command
// writes (a JSON report is a file a user can edit).
#include <nlohmann/json.hpp>

#include "oracle/merge.hpp"
#include "graph_util.hpp"

namespace merge_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using J = nlohmann::ordered_json;

namespace {

J manifest(const J& files = J::array()) {
  return {{"tool", "sonnx-ref"}, {"sonnx_ref_version", "0.2.0"}, {"git_revision", "abc"}, {"spec_revision", "def"},
          {"spec_version", "0.2.0"}, {"argv", {"sonnx-ref", "check"}}, {"date_utc", "2024-01-01T00:00:00Z"},
          {"files", files}};
}

// A piece K/N of a check over `total` cases holding the cases at `positions` (named test_data_set_P).
J check_piece(std::size_t k, std::size_t n, std::size_t total, const std::vector<std::size_t>& positions, bool conforms,
              const J& summary = J{{"cases", 1}}) {
  J cases = J::array(), names = J::array();
  for (auto p : positions) {
    const std::string name = "test_data_set_" + std::to_string(p);
    cases.push_back({{"name", name}, {"conforms", conforms}});
    names.push_back(name);
  }
  return {{"command", "check"},
          {"manifest", manifest()},
          {"verdict", conforms ? "conforms" : "does not conform"},
          {"conforms", conforms},
          {"comparison", {{"mode", "bitwise"}}},
          {"summary", summary},
          {"shard", {{"index", k}, {"count", n}, {"total", total}, {"cases", names}, {"positions", positions}}},
          {"cases", cases}};
}

html_report::Input input(const J& j, const std::string& path) { return {path, j, html_report::kind_of(j, path)}; }

merge::Merged merged(const std::vector<J>& pieces) {
  std::vector<html_report::Input> in;
  for (std::size_t i = 0; i < pieces.size(); ++i) in.push_back(input(pieces[i], "piece" + std::to_string(i) + ".json"));
  return merge::merge(in, {"sonnx-ref", "report", "--merge"});
}

std::string refused(const std::vector<J>& pieces) {
  return refusal_id([&] { merged(pieces); });
}

std::vector<std::string> case_names(const J& report) {
  std::vector<std::string> out;
  for (const auto& c : report["cases"]) out.push_back(c["name"]);
  return out;
}

}  // namespace

TEST_CASE("[Check.report.merge] [Check.cases] the pieces of a check, in any order — cases at their positions, counts "
          "added, the verdict of the whole",
          "[merge]") {
  // Three cases; piece 1/2 holds positions 0 and 2 (conforming), piece 2/2 position 1 (not).
  J s1 = {{"cases", 2}, {"failing_cases", 0}, {"elements", 10}, {"by_clause", {{"A", 1}, {"C", 2}}}};
  J s2 = {{"cases", 1}, {"failing_cases", 1}, {"elements", 4}, {"by_clause", {{"B", 5}}}};
  const auto m = merged({check_piece(2, 2, 3, {1}, false, s2), check_piece(1, 2, 3, {0, 2}, true, s1)});
  CHECK(case_names(m.json) == std::vector<std::string>{"test_data_set_0", "test_data_set_1", "test_data_set_2"});
  CHECK(m.json["summary"]["cases"] == 3);
  CHECK(m.json["summary"]["failing_cases"] == 1);
  CHECK(m.json["summary"]["elements"] == 14);
  CHECK(m.json["summary"]["by_clause"].dump() == R"({"A":1,"B":5,"C":2})");  // sorted maps stay sorted
  CHECK(m.json["conforms"] == false);
  CHECK(m.json["verdict"] == "does not conform");
  CHECK_FALSE(m.json.contains("shard"));  // the whole run has none
  CHECK(m.conforms == false);
  CHECK(m.summary == "2 piece(s) of 2, 3 case(s): DOES NOT CONFORM");
  CHECK(m.json["manifest"]["argv"] == J({"sonnx-ref", "report", "--merge"}));
  REQUIRE(m.json["manifest"]["shards"].size() == 2);
  CHECK(m.json["manifest"]["shards"][0]["index"] == 1);
  CHECK(m.json["manifest"]["shards"][0]["cases"] == 2);
  // Every piece conforms: the whole conforms.
  const auto ok = merged({check_piece(1, 2, 3, {0, 2}, true), check_piece(2, 2, 3, {1}, true)});
  CHECK(ok.json["conforms"] == true);
  CHECK(ok.json["verdict"] == "conforms");
  // A report without a shard object is the whole run, the one piece of 1/1.
  J whole = check_piece(1, 1, 2, {0, 1}, true);
  whole.erase("shard");
  CHECK(case_names(merged({whole}).json) == std::vector<std::string>{"test_data_set_0", "test_data_set_1"});
}

TEST_CASE("[Check.report.merge] summaries — numbers added whatever their JSON kind, objects key by key, anything else kept "
          "from the first piece",
          "[merge]") {
  // A user's JSON may hold any numbers: 2 (unsigned) + (-1) = 1, -3 + 2 = -1, 1 + 0.5 = 1.5; a number against
  // a boolean or an object against a number keeps the first piece's value; a map unsorted in one piece keeps
  // the order of first appearance.
  J s1 = {{"a", 2u}, {"b", -3}, {"c", 1}, {"d", 7}, {"e", {{"x", 1}}}, {"f", {{"y", 3}}}, {"g", 1.5}};
  J s2 = {{"a", -1}, {"b", 2}, {"c", 0.5}, {"d", true}, {"e", 4}, {"f", {{"z", 1}, {"y", 2}}}, {"g", 2}};
  const auto m = merged({check_piece(1, 2, 2, {0}, true, s1), check_piece(2, 2, 2, {1}, true, s2)});
  const J& s = m.json["summary"];
  CHECK(s["a"] == 1);
  CHECK(s["b"] == -1);
  CHECK(s["c"] == 1.5);
  CHECK(s["d"] == 7);
  CHECK(s["e"].dump() == R"({"x":1})");
  CHECK(s["f"].dump() == R"({"y":5,"z":1})");  // the second piece's map is not sorted: the order of first appearance
  CHECK(s["g"] == 3.5);
}

TEST_CASE("[Check.report.merge] [Check.shard.report] a piece whose shard object does not describe its cases is refused",
          "[merge]") {
  const J good = check_piece(1, 2, 3, {0, 2}, true), other = check_piece(2, 2, 3, {1}, true);
  auto with = [&](const char* key, const J& value) {
    J p = good;
    p["shard"][key] = value;
    return p;
  };
  CHECK(refused({with("index", -1), other}) == "Check.report.merge");
  CHECK(refused({with("index", "1"), other}) == "Check.report.merge");
  CHECK(refused({with("count", 0), other}) == "Check.report.merge");
  CHECK(refused({with("index", 0), other}) == "Check.report.merge");
  CHECK(refused({with("index", 3), other}) == "Check.report.merge");
  CHECK(refused({with("cases", "test_data_set_0"), other}) == "Check.report.merge");
  CHECK(refused({with("positions", 0), other}) == "Check.report.merge");
  CHECK(refused({with("positions", J::array({0})), other}) == "Check.report.merge");  // two names, one position
  J fewer = with("cases", J::array({"test_data_set_0"}));  // one name, one position, two cases
  fewer["shard"]["positions"] = J::array({0});
  CHECK(refused({fewer, other}) == "Check.report.merge");
  CHECK(refused({with("positions", J({0, 4})), other}) == "Check.report.merge");  // 4 >= 3 cases
  CHECK(refused({with("positions", J({0, 1})), other}) == "Check.report.merge");  // 1 is piece 2's
  CHECK(refused({with("cases", J({"test_data_set_0", "test_data_set_9"})), other}) == "Check.report.merge");
  J not_object = good;
  not_object["shard"] = 3;
  CHECK(refused({not_object, other}) == "Check.report.merge");
}

TEST_CASE("[Check.report.merge] pieces that are not one campaign are refused — counts, builds, options, missing pieces, "
          "uncovered positions, golden --nodes lists",
          "[merge]") {
  const J one = check_piece(1, 2, 3, {0, 2}, true), two = check_piece(2, 2, 3, {1}, true);
  CHECK(refused({one, check_piece(2, 3, 3, {1}, true)}) == "Check.report.merge");  // N = 2 and N = 3
  CHECK(refused({one, check_piece(2, 2, 4, {1, 3}, true)}) == "Check.report.merge");  // 3 and 4 cases
  J build = two;
  build["manifest"]["git_revision"] = "other";
  CHECK(refused({one, build}) == "Check.report.merge");
  J option = two;
  option["comparison"] = {{"mode", "ulp"}, {"ulp", 1}};
  CHECK(refused({one, option}) == "Check.report.merge");
  J extra = two;
  extra["nodes_only"] = true;
  CHECK(refused({one, extra}) == "Check.report.merge");
  J lacking = two;
  lacking.erase("comparison");
  CHECK(refused({one, lacking}) == "Check.report.merge");
  J mode_a = one, mode_b = two;
  mode_a["summary"] = {{"cases", 2}, {"nan_payload", "any"}, {"line", "a"}};
  mode_b["summary"] = {{"cases", 1}, {"nan_payload", "strict"}, {"line", "b"}};
  CHECK(refused({mode_a, mode_b}) == "Check.report.merge");
  mode_b["summary"]["nan_payload"] = "any";  // same mode, other closing line: one campaign
  CHECK(merged({mode_a, mode_b}).json["summary"]["cases"] == 3);
  // Pieces 2/3 and 3/3 missing; a piece given twice (shard-merge pins its message).
  CHECK(refusal_message([&] { merged({check_piece(1, 3, 3, {0}, true)}); }).find("2/3, 3/3 missing") != std::string::npos);
  CHECK(refusal_message([&] { merged({check_piece(2, 3, 3, {1}, true)}); }).find("1/3, 3/3 missing") != std::string::npos);
  // Every piece present, but no piece holds position 2 of 3.
  CHECK(refused({check_piece(1, 2, 3, {0}, true), two}) == "Check.report.merge");
  // golden --nodes is not sharded; a check and a conformance are not one command.
  J nodes = {{"tool", manifest()}, {"clause", "Check.golden-nodes"}, {"nodes", J::array()}};
  CHECK(refused({one, nodes}) == "Check.report.merge");
  J conf = {{"command", "conformance"}, {"cases", J::array()}, {"summary", {{"line", "0 passed, 0 failed"}}}};
  CHECK(refused({one, conf}) == "Check.report.merge");
}

TEST_CASE("[Check.report.merge] a piece whose verdict is not a boolean true makes the whole not conform", "[merge]") {
  J unknown = check_piece(2, 2, 2, {1}, true);
  unknown["conforms"] = "yes";
  const auto m = merged({check_piece(1, 2, 2, {0}, true), unknown});
  CHECK(m.json["conforms"] == false);
  CHECK(m.conforms == false);
  const auto first = merged({check_piece(1, 2, 2, {0}, false), check_piece(2, 2, 2, {1}, true)});
  CHECK(first.json["verdict"] == "does not conform");
}

TEST_CASE("[Check.report.merge] [Check.verdict] the manifest lists the files the pieces read, by case in the unsharded "
          "order, files no case owns are listed piece after piece",
          "[merge]") {
  auto file = [](const std::string& path) { return J{{"path", path}, {"bytes", 1}, {"sha256", "0"}}; };
  // Piece 1/2 read the model, then case 0's and case 2's files; piece 2/2 the model and case 1's.
  J one = check_piece(1, 2, 3, {0, 2}, true), two = check_piece(2, 2, 3, {1}, true);
  one["manifest"]["files"] = J::array({file("model.onnx"), file("g/test_data_set_0/input_0.pb"), file("iut/test_data_set_2.npz")});
  two["manifest"]["files"] = J::array({file("model.onnx"), file("g/test_data_set_1/input_0.pb")});
  auto paths = [](const J& report) {
    std::vector<std::string> out;
    for (const auto& f : report["manifest"]["files"]) out.push_back(f["path"]);
    return out;
  };
  CHECK(paths(merged({two, one}).json) ==
        std::vector<std::string>{"model.onnx", "g/test_data_set_0/input_0.pb", "g/test_data_set_1/input_0.pb",
                                 "iut/test_data_set_2.npz"});
  // A file of no case (extra.bin after the cases' files): the files of every piece, each once, piece by piece.
  one["manifest"]["files"].push_back(file("extra.bin"));
  CHECK(paths(merged({two, one}).json) ==
        std::vector<std::string>{"model.onnx", "g/test_data_set_0/input_0.pb", "iut/test_data_set_2.npz", "extra.bin",
                                 "g/test_data_set_1/input_0.pb"});
  // A case with an empty path, one named "", one whose name is a number: their files cannot be told apart.
  J odd1 = check_piece(1, 3, 3, {0}, true), odd2 = check_piece(2, 3, 3, {1}, true), odd3 = check_piece(3, 3, 3, {2}, true);
  odd1["cases"][0]["path"] = "";
  odd2["cases"][0]["name"] = "";
  odd2["shard"]["cases"][0] = "";
  odd3["cases"][0]["name"] = 5;
  odd3["shard"]["cases"][0] = 5;
  odd1["manifest"]["files"] = J::array({file("model.onnx"), file("a/test_data_set_0/x.pb")});
  odd2["manifest"]["files"] = J::array({file("model.onnx"), file("b/x.pb")});
  odd3["manifest"]["files"] = J::array({file("model.onnx"), file("c/x.pb")});
  CHECK(paths(merged({odd3, odd1, odd2}).json) ==
        std::vector<std::string>{"model.onnx", "a/test_data_set_0/x.pb", "b/x.pb", "c/x.pb"});
  // Cases named by numbers: no file is theirs; every piece read the model only.
  J num1 = check_piece(1, 2, 2, {0}, true), num2 = check_piece(2, 2, 2, {1}, true);
  num1["cases"][0]["name"] = num1["shard"]["cases"][0] = 5;
  num2["cases"][0]["name"] = num2["shard"]["cases"][0] = 6;
  num1["manifest"]["files"] = num2["manifest"]["files"] = J::array({file("model.onnx")});
  CHECK(paths(merged({num1, num2}).json) == std::vector<std::string>{"model.onnx"});
  // A piece holding no case (N above the number of cases): its files are all read before any case.
  J empty = check_piece(2, 2, 1, {}, true);
  J full = check_piece(1, 2, 1, {0}, true);
  full["manifest"]["files"] = J::array({file("model.onnx"), file("g/test_data_set_0/input_0.pb")});
  empty["manifest"]["files"] = J::array({file("model.onnx")});
  CHECK(paths(merged({full, empty}).json) == std::vector<std::string>{"model.onnx", "g/test_data_set_0/input_0.pb"});
  // A manifest that is not an object is the first piece's, as it is.
  J a = check_piece(1, 2, 2, {0}, true), b = check_piece(2, 2, 2, {1}, true);
  a["manifest"] = nullptr;
  b["manifest"] = nullptr;
  CHECK(merged({a, b}).json["manifest"].is_null());
}

TEST_CASE("[Check.report.merge] [Check.exit] conformance pieces — the closing line of the whole, which conforms only when "
          "none failed and one passed",
          "[merge]") {
  auto piece = [](std::size_t k, std::int64_t passed, std::int64_t failed, std::int64_t skipped) {
    const std::string name = "case" + std::to_string(k - 1);
    return J{{"manifest", manifest()},
             {"summary", {{"failed", failed}, {"line", "..."}, {"not_implemented", 1}, {"passed", passed}, {"skipped", skipped}}},
             {"shard", {{"index", k}, {"count", 2}, {"total", 2}, {"cases", {name}}, {"positions", {k - 1}}}},
             {"cases", {{{"name", name}, {"path", "cases/" + name}}}}};
  };
  const auto pass = merged({piece(1, 1, 0, 0), piece(2, 2, 0, 1)});
  CHECK(pass.json["summary"]["line"] == "3 passed, 0 failed, 2 not implemented, 1 skipped");
  CHECK(pass.conforms == true);
  CHECK(pass.summary == "2 piece(s) of 2, 2 case(s): CONFORMS");
  CHECK(merged({piece(1, 1, 1, 0), piece(2, 2, 0, 0)}).conforms == false);  // one failed
  CHECK(merged({piece(1, 0, 0, 1), piece(2, 0, 0, 1)}).conforms == false);  // nothing judged
  // A conformance report's own "conforms" and "verdict", were a user to add them, are kept as they are.
  J a = piece(1, 1, 0, 0), b = piece(2, 1, 0, 0);
  a["conforms"] = b["conforms"] = "kept";
  a["verdict"] = b["verdict"] = "kept";
  const auto kept = merged({a, b});
  CHECK(kept.json["conforms"] == "kept");
  CHECK(kept.json["verdict"] == "kept");
}

TEST_CASE("[Check.report.merge] golden manifests of the pieces of golden --shard — no verdict", "[merge]") {
  auto piece = [](std::size_t k) {
    const std::string name = "test_data_set_" + std::to_string(k - 1);
    return J{{"tool", {{"sonnx_ref_version", "0.2.0"}}},
             {"coverage", J::array()},
             {"shard", {{"index", k}, {"count", 2}, {"total", 2}, {"cases", {name}}, {"positions", {k - 1}}}},
             {"cases", {{{"name", name}}}}};
  };
  const auto m = merged({piece(2), piece(1)});
  CHECK_FALSE(m.conforms.has_value());
  CHECK(m.summary == "2 piece(s) of 2, 2 case(s): golden manifest");
  CHECK(case_names(m.json) == std::vector<std::string>{"test_data_set_0", "test_data_set_1"});
}

}  // namespace merge_test
