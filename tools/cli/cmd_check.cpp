// sonnx-ref check MODEL INPUTS ACTUAL | MODEL GOLDEN_DIR IUT_DIR | MODEL BUNDLE.npz: the verdict on
// another implementation's outputs (spec/common/check.md). The library does the work
// (src/oracle/check, compare, explain, coverage, report); this file reads the options and writes
// the reports.
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "graph/model.hpp"
#include "options.hpp"
#include "oracle/check.hpp"
#include "progress.hpp"
#include "oracle/report.hpp"

#include "ops/elementary.hpp"

namespace sonnx::cli {

namespace {

struct CheckOptions {
  std::string model, a, b, report, junit, ulp, max_listed = "10", nan_payload = "any", shard, elementary_ulps;
  bool json = false, assume_opset_reviewed = false, nodes = false, quiet = false, sharded = false, flush = false;
  int jobs = 1;
};

int check(const CheckOptions& o) {
  if (!o.elementary_ulps.empty()) elementary::parse_ulps(o.elementary_ulps);  // the K declaration, refused as the spec says (ops/elementary.cpp)
  std::optional<std::uint64_t> ulp;
  if (!o.ulp.empty()) ulp = parse_unsigned(o.ulp, "--ulp");
  compare::Options c =
      compare::options_for(ulp, static_cast<std::size_t>(parse_unsigned(o.max_listed, "--max-listed")));
  c.nan_payload_strict = parse_nan_payload(o.nan_payload, "--nan-payload");  // [Check.nan-payload.strict]
  c.flush_subnormals = o.flush;  // [Acc.hyp.ftz]
  const shard::Shard piece = o.sharded ? parse_shard(o.shard, "--shard") : shard::Shard{};
  const bool folder_form = !o.b.empty() && check::is_golden_folder(o.a);
  if (o.sharded && !folder_form)  // [Check.shard] the folder form only
    usage_error("--shard takes the folder form, check MODEL GOLDEN_DIR IUT_DIR; '{}' is not a folder of "
                "test_data_set_K folders", o.a);
  graph::LoadOptions load;
  load.assume_opset_reviewed = o.assume_opset_reviewed;
  load.partial = true;  // [Graph.partial] a model with nodes outside the spec is checked node by node
  const auto model = graph::Model::load(o.model, load);
  const bool nodewise = !check::nodewise_reason(model, o.nodes).empty();  // [Check.nodewise]
  Progress progress("check", o.quiet || !(folder_form || nodewise));  // a terminal only, not under --quiet
  check::ReadOptions read(nodewise);
  read.shard = piece;
  read.progress = [&](std::size_t done, std::size_t of) { progress.update("cases read", done, of); };
  std::size_t total = 0;
  const auto cases = check::load_cases(model, o.a, o.b, read, &total);
  check::NodeRun run;  // [Check.nodewise.jobs]
  run.jobs = static_cast<std::size_t>(o.jobs);
  if (cases.size() == 1)  // one case node by node: node k of n, the node just judged
    run.node_progress = [&](std::size_t done, std::size_t of, const std::string& label) {
      progress.update("nodes judged", done, of, label);
    };
  auto campaign = check::judge_cases(
      model, cases, c, nodewise, [&](std::size_t done, std::size_t of) { progress.update("cases judged", done, of); },
      run);
  progress.clear();
  if (o.sharded) {  // [Check.shard.report] what a merge needs
    shard::Piece p{piece, total, {}, {}};
    for (const auto& k : cases) p.cases.push_back(k.name), p.positions.push_back(k.position);
    campaign.shard = std::move(p);
    if (cases.empty()) campaign.conforms = true;  // [Check.shard.exit] a piece without a case judges nothing
  }
  if (o.json) std::cout << check::to_json(campaign, c).dump(2) << "\n";
  else if (o.report != "-") std::cout << check::to_text(campaign, c);
  if (!o.report.empty() || !o.junit.empty()) {
    std::vector<std::string> files = {o.model};
    for (const auto& k : cases) files.insert(files.end(), k.files.begin(), k.files.end());
    const auto manifest = report::manifest(files, report::command_line());
    if (!o.report.empty()) write_report(o.report, check::report_document(campaign, c, manifest));
    if (!o.junit.empty()) {
      const std::string stem = std::filesystem::path(o.model).stem().string();
      report::write_junit(o.junit, "sonnx-ref check " + stem, check::to_junit(campaign, stem), manifest);
    }
  }
  return check::exit_status(campaign.conforms);
}

}  // namespace

Action add_check(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  auto* sub = app.add_subcommand("check", "Judge another implementation's outputs against the reference");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx)")->required();
  sub->add_option("INPUTS", o->a,
                  "the inputs the implementation under test was run on: a .npz or a test_data_set_N folder; or a "
                  "golden folder of test_data_set_K folders; or one bundle .npz of inputs and actual values")
      ->required();
  sub->add_option("ACTUAL", o->b,
                  "its outputs: a .npz keyed by value name, or a test_data_set_N folder of output_K.pb; for a golden "
                  "folder, a folder of test_data_set_K/ (or test_data_set_K.npz); none for a bundle");
  sub->add_option("--ulp", o->ulp, "accept float elements within N ranks of the total order, N >= 0 [Check.ulp]")
      ->type_name("N");
  sub->add_option("--report", o->report, "also write a JSON report (with the run manifest); '-' writes it to stdout")
      ->type_name("FILE.json");
  sub->add_option("--junit", o->junit, "also write a JUnit XML report, one test per case and output")->type_name("FILE.xml");
  sub->add_flag("--json", o->json, "print the verdict as JSON instead of text");
  sub->add_flag("--nodes", o->nodes,
                "judge node by node: each node the spec covers on the values ACTUAL gives for its inputs "
                "[Check.nodewise] (the default when the model has nodes outside the spec)");
  sub->add_flag("--flush-subnormals", o->flush,
                "the implementation declares flush to zero (FTZ/DAZ): a computed element is also accepted within "
                "R + F, F the flush margin of its terms [Acc.hyp.ftz]");
  sub->add_option("--elementary-ulps", o->elementary_ulps,
                  "the K of the implementation's exp, log, tanh, pow in ULPs of the element type, as FUNCTION=K items "
                  "separated by commas (exp=2,tanh=6); the others keep their defaults [Elem.ulps]")
      ->type_name("F=K,...");
  sub->add_option("--max-listed", o->max_listed, "list at most K mismatching elements per output (default 10)")
      ->type_name("K");
  sub->add_option("--nan-payload", o->nan_payload,
                  "strict: a NaN conforms only to a NaN of the same bits [Check.nan-payload.strict]; any (default): to "
                  "any NaN, and the elements that differ only in NaN payload are counted and listed as notes "
                  "[Check.nan-payload.any]")
      ->type_name("strict|any");
  auto* shard = sub->add_option("--shard", o->shard,
                  "folder form: judge only piece K of N of the test_data_set_K folders (the one at position p, in "
                  "increasing K, is in piece p mod N + 1) [Check.shard]; the report carries 'shard' for the merge")
      ->type_name("K/N");
  sub->add_option("-j,--jobs", o->jobs,
                  "node-wise: judge N nodes at a time, each node whole on its own thread (default 1); the verdict "
                  "and the reports are the same for every N [Check.nodewise.jobs]")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  sub->add_flag("-q,--quiet", o->quiet, "no progress line on a terminal (there is none elsewhere)");
  sub->add_flag("--assume-opset-reviewed", o->assume_opset_reviewed,
                "accept a model whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->footer(
      "The reference computes the expected outputs from MODEL and the inputs; every graph output is then\n"
      "compared with the actual one (spec/common/check.md):\n"
      "  default   bitwise: same bit pattern; any NaN matches any NaN; +0 and -0 differ [Check.bitwise]\n"
      "  --ulp N   floats within N ranks of the total order (-0 and +0 are 1 apart); NaN only matches NaN,\n"
      "            an infinity only itself; integers and bool exact [Check.ulp]\n"
      "Computed outputs (Conv, Gemm, MatMul) are judged by the accuracy model: an element conforms within\n"
      "its radius R of the ideal [Acc.verdict]; --flush-subnormals widens R by F [Acc.hyp.ftz]. Outputs of\n"
      "exp, log, tanh, pow (Softmax, Sigmoid, ...) are judged within K ULPs of those functions [Elem.hyp].\n"
      "A dtype or shape difference fails the whole output [Check.shape]; an output absent from the actual\n"
      "values, or an actual value naming no value of the graph, fails too [Check.missing]. In a\n"
      "test_data_set folder, output_K.pb is the K-th graph output; .npz files hold values by name.\n"
      "\n"
      "Three forms [Check.cases]:\n"
      "  check MODEL INPUTS ACTUAL          one case\n"
      "  check MODEL GOLDEN_DIR IUT_DIR     every GOLDEN_DIR/test_data_set_K against IUT_DIR/test_data_set_K/\n"
      "                                     (output_J.pb, *.npz) or IUT_DIR/test_data_set_K.npz\n"
      "  check MODEL BUNDLE.npz             one .npz holding the inputs and the actual values by name (tract)\n"
      "When the actual values include values of the graph other than its outputs (tools that mark every\n"
      "tensor as an output), each node is also judged on the values it was given, and a difference that a\n"
      "node only passed on is reported as propagated from the node that made it [Check.attribution].\n"
      "For each failing output: the number of differing elements and the first K (index, expected and\n"
      "actual values with hex bits, and the spec clause that determines the expected value); the clauses\n"
      "and situations that decided the expected values are listed [Check.coverage].\n"
      "NaN payloads: by default (--nan-payload any) any NaN matches any NaN, and an element whose expected and\n"
      "actual values are NaNs with different bits is counted and listed as a note ('differ only in NaN payload',\n"
      "JSON nan_payload_only / nan_payload_notes per output, summary.nan_payload_only / nan_payload_cases), never\n"
      "a finding [Check.nan-payload.any]; --nan-payload strict judges NaNs bit for bit, as the first NaN's bits\n"
      "are the expected value [Common.order.nan-payload] [Check.nan-payload.strict].\n"
      "Shards [Check.shard]: --shard K/N judges piece K of N of GOLDEN_DIR's cases: the case at position p of\n"
      "test_data_set_K in increasing K (p from 0) belongs to piece p mod N + 1, on every machine. The JSON\n"
      "report of a piece is the unsharded one restricted to its cases, with 'shard': {index: K, count: N,\n"
      "total: cases in all, cases: [names], positions: [p of each, in the unsharded order]} [Check.shard.report];\n"
      "a piece with no case exits 0 [Check.shard.exit]. 'sonnx-ref report --merge' puts the pieces together.\n"
      "Progress: with GOLDEN_DIR, a line on stderr (cases done, rate, time left) when stderr is a terminal\n"
      "and not --quiet; node-wise on one case, the nodes judged and the node last judged (check: 12/82\n"
      "nodes judged, ..., node 'n12' (Conv-1)); nothing otherwise.\n"
      "Exit codes [Check.exit]: 0 every output conforms (node-wise: every judged node, at least one judged);\n"
      "1 some output or judged node does not, or node-wise no node was judged; 2 usage error;\n"
      "3 input refused by a spec clause (\"error: [ID] ...\"); 4 I/O failure; 5 internal error.\n"
      "Examples: sonnx-ref check model.onnx inputs.npz their_outputs.npz --ulp 1 --junit check.xml\n"
      "          sonnx-ref check squeezenet.onnx inputs.npz ort_values.npz --report nodes.json   (node-wise)\n"
      "          sonnx-ref check golden/model.onnx golden iut --report report.json --junit report.xml");
  return [o, shard] {
    o->sharded = shard->count() > 0;
    return check(*o);
  };
}

}  // namespace sonnx::cli
