// sonnx-ref check MODEL INPUTS ACTUAL: the verdict on another implementation's outputs
// (spec/common/check.md). The library does the work (src/oracle/check, compare, explain, report);
// this file only reads the options and writes the reports.
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "graph/model.hpp"
#include "oracle/check.hpp"
#include "oracle/report.hpp"

namespace sonnx::cli {

namespace {

struct CheckOptions {
  std::string model, inputs, actual, report, junit;
  std::optional<std::uint64_t> ulp;
  std::size_t max_listed = 10;
};

int check(const CheckOptions& o) {
  const auto model = graph::Model::load(o.model);
  const auto feeds = graph::load_feeds(model, o.inputs);
  const explain::Explainer expected(model, model.run_all(feeds));
  const auto actual = check::load_actual(model, o.actual);
  compare::Options c;
  c.ulp_mode = o.ulp.has_value();  // [Check.ulp]; else [Check.bitwise]
  c.ulp = o.ulp.value_or(0);
  c.max_listed = o.max_listed;
  const auto verdict = check::judge(model, expected, actual, c);
  std::cout << check::to_text(verdict, c);
  if (!o.report.empty() || !o.junit.empty()) {
    const auto manifest = report::manifest({o.model, o.inputs, o.actual}, report::command_line());
    if (!o.report.empty()) {
      nlohmann::ordered_json j;
      j["command"] = "check";
      j["manifest"] = manifest;
      const auto body = check::to_json(verdict, c);
      for (const auto& [k, v] : body.items()) j[k] = v;
      report::write_json(o.report, j);
    }
    if (!o.junit.empty()) {
      const std::string stem = std::filesystem::path(o.model).stem().string();
      report::write_junit(o.junit, "sonnx-ref check " + stem, check::to_junit(verdict, "check." + stem), manifest);
    }
  }
  return verdict.conforms ? 0 : 1;  // [Check.verdict]
}

}  // namespace

Action add_check(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  auto* sub = app.add_subcommand("check", "Judge another implementation's outputs against the reference");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx)")->required();
  sub->add_option("INPUTS", o->inputs, "the inputs the implementation under test was run on: a .npz or a test_data_set_N folder")
      ->required();
  sub->add_option("ACTUAL", o->actual, "its outputs: a .npz keyed by output name, or a test_data_set_N folder of output_K.pb")
      ->required();
  sub->add_option("--ulp", o->ulp, "accept float elements within N units in the last place [Check.ulp]")->type_name("N");
  sub->add_option("--report", o->report, "also write a JSON report (with the run manifest)")->type_name("FILE.json");
  sub->add_option("--junit", o->junit, "also write a JUnit XML report, one test case per output")->type_name("FILE.xml");
  sub->add_option("--max-listed", o->max_listed, "list at most K mismatching elements per output (default 10)")
      ->type_name("K");
  sub->footer(
      "The reference computes the expected outputs from MODEL and INPUTS; every graph output is then\n"
      "compared with ACTUAL (spec/common/check.md):\n"
      "  default   bitwise: same bit pattern; any NaN matches any NaN; +0 and -0 differ [Check.bitwise]\n"
      "  --ulp N   floats within N ranks of the total order (-0 and +0 are 1 apart); NaN only matches NaN,\n"
      "            an infinity only itself; integers and bool exact [Check.ulp]\n"
      "A dtype or shape difference fails the whole output [Check.shape]; an output absent from ACTUAL, or an\n"
      "actual output naming no graph output, fails too [Check.missing]. In a test_data_set folder,\n"
      "output_K.pb is the K-th graph output.\n"
      "For each failing output: the number of differing elements and the first K (index, expected and\n"
      "actual values with hex bits, and the spec clause that determines the expected value).\n"
      "Exit codes: 0 every output conforms; 1 some output does not (or refused input, \"error: [ID] ...\");\n"
      "2 usage. [Check.verdict]\n"
      "Example: sonnx-ref check model.onnx inputs.npz their_outputs.npz --ulp 1 --junit check.xml");
  return [o] { return check(*o); };
}

}  // namespace sonnx::cli
