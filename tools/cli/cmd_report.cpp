// sonnx-ref report REPORT.json... -o FILE.html | report --merge PIECE.json... -o ALL.json: one
// self-contained HTML page from JSON reports ([Check.report.html]), or the report of a whole campaign
// from the reports of its shards ([Check.report.merge]). The library does the work
// (src/oracle/html_report, src/oracle/merge); this file reads the options and writes the file.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "core/error.hpp"
#include "graph/model.hpp"
#include "options.hpp"
#include "oracle/html_report.hpp"
#include "oracle/merge.hpp"
#include "oracle/report.hpp"

namespace sonnx::cli {

namespace {

struct ReportOptions {
  std::vector<std::string> inputs;
  std::string out, model;
  bool merge = false, gate = false, quiet = false;
};

void write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  const auto parent = std::filesystem::path(path).parent_path();  // reports/page.html in a fresh folder, as --report
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) io_failure("Check.report.html", "cannot write '{}'", path);
  f << text;
  f.close();
  if (!f) io_failure("Check.report.html", "error while writing '{}'", path);
}

int report(const ReportOptions& o) {
  if (o.merge && !o.model.empty()) usage_error("--model draws a graph in the HTML page; it is not taken with --merge");
  std::vector<html_report::Input> inputs;
  for (const auto& path : o.inputs) inputs.push_back(html_report::read_input(path));  // [Check.report.input]
  if (o.merge) {
    const auto merged = merge::merge(inputs, report::command_line());  // [Check.report.merge]
    write_report(o.out, merged.json);
    if (!o.quiet && o.out != "-")
      std::cout << "wrote " << o.out << ": " << merged.summary << " [Check.report.merge]\n";
    return o.gate && !merged.conforms.value_or(true) ? 1 : 0;
  }
  // [Check.report.html] the page; a check report's graph needs its model.
  std::vector<std::optional<graph::Model>> models(inputs.size());
  std::vector<const graph::Model*> pointers(inputs.size(), nullptr);
  std::vector<std::string> notes(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string path = html_report::model_for(inputs[i], o.model, notes[i]);
    if (path.empty()) continue;
    graph::LoadOptions load;
    load.partial = true;  // [Graph.partial] only drawn: any operator
    load.assume_opset_reviewed = true;
    try {
      models[i].emplace(graph::Model::load(path, load));
      pointers[i] = &*models[i];
    } catch (const SpecError& e) {
      notes[i] = "The model '" + path + "' could not be loaded to draw its graph: " + e.report();
    }
  }
  const auto view = html_report::view(inputs, pointers, notes);
  write_text(o.out, html_report::render(view));
  bool conforms = true, any = false;
  for (const auto& in : inputs)
    if (const auto v = html_report::verdict_of(in)) any = true, conforms = conforms && *v;
  if (!o.quiet && o.out != "-")
    std::cout << "wrote " << o.out << ": " << inputs.size() << " report(s), "
              << (!any ? "no verdict (golden sets only)" : conforms ? "CONFORMS" : "DOES NOT CONFORM") << " [Check.report.html]\n";
  return o.gate && any && !conforms ? 1 : 0;
}

}  // namespace

Action add_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* sub = app.add_subcommand("report", "Write one self-contained HTML page from JSON reports, or merge the reports of shards");
  sub->add_option("REPORT", o->inputs,
                  "JSON reports: check --report, conformance --report, a golden manifest.json, golden --nodes' nodes.json, "
                  "report --merge's output")
      ->required();
  sub->add_option("-o,--output", o->out, "the file to write: the HTML page, or with --merge the JSON report ('-': stdout)")
      ->required()
      ->type_name("FILE");
  sub->add_flag("--merge", o->merge,
                "merge the reports of the N shards of one campaign (--shard K/N) into the report the unsharded run "
                "writes [Check.report.merge]");
  sub->add_option("--model", o->model,
                  "the model of the check reports, to draw its graph (default: the manifest's model, when it is there "
                  "with its recorded SHA-256)")
      ->type_name("MODEL.onnx");
  sub->add_flag("--gate", o->gate,
                "exit with status 1 when a verdict of the reports does not conform (as check and conformance do) "
                "[Check.exit]");
  sub->add_flag("-q,--quiet", o->quiet, "print nothing on success");
  sub->footer(
      "HTML [Check.report.html]: one page, one file, that opens in any browser without a server or a network:\n"
      "no script, no external stylesheet, font or image (a Content-Security-Policy forbids every external load).\n"
      "Per report: the verdict and counts, the manifest (versions, spec SHA-256, instruction set, files read),\n"
      "a clause x case matrix (which clauses and situations each case exercised, where its findings lie),\n"
      "every finding the report lists (index, expected and actual values with hex bits, deciding clause), the\n"
      "computed outputs (Conv, Gemm, MatMul) with the accuracy model's numbers as the report gives them: per\n"
      "output its elements judged and outside R and its element with the largest fraction of R, per finding\n"
      "the ideal, R = B + e_o (+ F), the error, its fraction of R and ULPs, per node its largest fraction\n"
      "[Acc.report]; and for a check report whose model is at hand the model's graph, each node coloured by\n"
      "its verdict.\n"
      "The page restates the reports: it never judges again. Several reports give one page.\n"
      "\n"
      "Merge [Check.report.merge]: the reports of the N pieces of one campaign (check, conformance or golden\n"
      "run with --shard K/N, [Check.shard]) give the report the unsharded run writes: the cases put back at\n"
      "their positions, the counts added, the verdict of the whole; the pieces' manifests are listed under\n"
      "manifest.shards. Pieces of different campaigns, builds, specifications or options, or a piece missing\n"
      "or given twice, are refused.\n"
      "\n"
      "Exit codes: 0 written (with --gate: and every verdict conforms); 1 with --gate, a verdict does not\n"
      "conform; 2 usage; 3 a REPORT refused (\"error: [Check.report.input] ...\": not a report this command\n"
      "reads; \"error: [Check.report.merge] ...\": pieces that do not make one campaign); 4 I/O failure\n"
      "(a REPORT that cannot be read, an output that cannot be written); 5 internal error.\n"
      "Examples: sonnx-ref report reports/check.json golden/manifest.json -o campaign.html\n"
      "          sonnx-ref report --merge shard-*.json -o all.json && sonnx-ref report all.json -o all.html");
  return [o] { return report(*o); };
}

}  // namespace sonnx::cli
