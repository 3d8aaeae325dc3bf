// sonnx-ref run MODEL INPUTS [-o OUT.npz] [--json] [--all]: evaluates a model on its inputs and prints
// every graph output (name, dtype, shape, values). The library does the work: src/graph (loading,
// evaluation, the printed form in summary.hpp) and src/io.
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "graph/model.hpp"
#include "graph/summary.hpp"
#include "io/io.hpp"
#include "oracle/report.hpp"

namespace sonnx::cli {

namespace {

struct RunOptions {
  std::string model, inputs, out, report;
  bool json = false, all = false, assume_opset_reviewed = false, quiet = false;
};

int run(const RunOptions& o) {
  const auto model = graph::Model::load(o.model, {o.assume_opset_reviewed});
  const auto feeds = graph::load_feeds(model, o.inputs);
  Progress progress("run", o.quiet);  // node k of n on a terminal, nothing elsewhere
  const auto outputs =
      model.run(feeds, [&](std::size_t done, std::size_t of, const std::string& label) {
        progress.update("nodes evaluated", done, of, label);
      });
  progress.clear();
  if (!o.out.empty()) io::write_npz(o.out, outputs);
  if (!o.report.empty()) {  // every output value, the operator versions run, and the run manifest
    nlohmann::ordered_json doc = graph::summary_json(outputs, true);
    doc["command"] = "run";
    doc["manifest"] = report::manifest({o.model, o.inputs}, report::command_line());
    doc["nodes"] = nlohmann::ordered_json::array();
    for (const auto& n : model.nodes())  // the spec ID of each operator version run ([Max.v13], [Graph.constant], ...)
      doc["nodes"].push_back({{"name", n.name}, {"op_type", n.op_type}, {"version", n.version},
                              {"clause", n.op_type == "Constant" ? std::string("Graph.constant")
                                                             : n.op_type + ".v" + std::to_string(n.version)}});
    write_report(o.report, doc);
  }
  if (o.report == "-") return 0;  // the report is the output
  if (o.json) {
    std::cout << graph::summary_json(outputs, o.all).dump(2) << "\n";
  } else {
    for (const auto& out : outputs) std::cout << graph::summary_line(out, o.all) << "\n";
  }
  return 0;
}

}  // namespace

Action add_run(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* sub = app.add_subcommand("run", "Evaluate a model on its inputs and print every output");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx)")->required();
  sub->add_option("INPUTS", o->inputs, "a .npz file or a test_data_set_N folder (see below)")->required();
  sub->add_option("-o,--output", o->out, "also write the outputs to OUT.npz, keyed by output name")
      ->type_name("OUT.npz");
  sub->add_flag("--json", o->json, "print the outputs as JSON instead of text");
  sub->add_flag("--all", o->all, "print every value (no elision of large tensors)");
  sub->add_flag("--assume-opset-reviewed", o->assume_opset_reviewed,
                "accept a model whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->add_flag("-q,--quiet", o->quiet, "no progress line on a terminal (there is none elsewhere)");
  sub->add_option("--report", o->report,
                  "also write a JSON report: every output value, the operator versions run, and the run manifest "
                  "(versions, spec revision, SHA-256 of model and inputs, compiler, platform, date); '-' writes it to stdout")
      ->type_name("FILE.json");
  sub->footer(
      "INPUTS is one of:\n"
      "  FILE.npz           a numpy .npz archive (numpy.savez / savez_compressed) whose keys are the\n"
      "                     graph input names. bfloat16 has no numpy dtype: give a bfloat16 input as a\n"
      "                     uint16 array ('<u2') holding the raw bfloat16 bits (upper 16 bits of float32).\n"
      "  test_data_set_N/   a folder of input_0.pb, input_1.pb, ... ONNX TensorProto files (the layout of\n"
      "                     onnx's node tests); each is named by its TensorProto.name, or else fed to the\n"
      "                     graph inputs (those without initializer) in order.\n"
      "Feeds must match the declared inputs exactly: every input fed, no extra feed, same dtype (no\n"
      "conversion), same rank and fixed dims. A graph input that has an initializer may be fed to override it.\n"
      "\n"
      "Output: one line per graph output, 'NAME: DTYPE [SHAPE] = [VALUES]', values in row-major order;\n"
      "tensors of more than 20 elements show the first and last 8 (--all shows every value). Floats are\n"
      "printed as the shortest decimal that reads back to the same float/double (float16 and bfloat16 as\n"
      "their exact value), with +0 and -0, inf, -inf, and NaN with its bit pattern, e.g. nan(0x7fc00000).\n"
      "--json prints {\"outputs\": [{\"name\", \"dtype\", \"shape\", \"size\", \"values\", \"elided\"}]}: floats\n"
      "as the double of their exact value, non-finite ones as the strings \"nan(0x<bits>)\", \"inf\", \"-inf\";\n"
      "when elided, \"values\" holds the first 8 values then the last 8.\n"
      "-o writes an .npz readable by numpy.load (bfloat16 outputs as '<u2' bits).\n"
      "Progress: when stderr is a terminal and not --quiet, a line on stderr (nodes evaluated, rate, time\n"
      "left, the node last evaluated); nothing otherwise.\n"
      "A whole-model output is each node's value as its clauses define it, node after node: the ideal of a\n"
      "computed node rounded to its type [Acc.run], then read by the next nodes. It is one exact\n"
      "evaluation, not an enclosure: no bound on the propagated error is given for a network's output.\n"
      "\n"
      "Exit codes: 0 ok; 2 usage; 3 input refused (\"error: [ID] ...\" on stderr, ID = the spec clause);\n"
      "4 I/O failure (a file that cannot be found, read or written).\n"
      "Example: sonnx-ref run examples/max_reduce_hardmax.onnx examples/inputs.npz -o out.npz");
  return [o] { return run(*o); };
}

}  // namespace sonnx::cli
