// sonnx-ref golden MODEL -o DIR: deterministic golden test cases in ONNX's node-test layout
// ([Check.golden]). The library does the work (src/oracle/golden); this file reads the options.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "graph/model.hpp"
#include "oracle/golden.hpp"
#include "oracle/node_golden.hpp"
#include "progress.hpp"

namespace sonnx::cli {

namespace {

struct GoldenOptions {
  std::string model, dir, seed = "0", shard;
  golden::Options o;
  std::vector<std::string> dims;  // NAME=SIZE
  std::vector<std::string> nodes;  // --node NAME
  bool no_construct = false, all_nodes = false, quiet = false, sharded = false;
};

// [Check.golden-nodes] golden MODEL --nodes / --node NAME: a golden folder per node the spec covers.
int golden_nodes(const GoldenOptions& g) {
  graph::LoadOptions load;
  load.assume_opset_reviewed = g.o.assume_opset_reviewed;
  load.partial = true;  // [Graph.partial] the nodes outside the spec are listed, not refused
  const auto model = graph::Model::load(g.model, load);
  const auto w = golden::write_nodes(model, g.dir, g.o, g.nodes);
  std::size_t written = 0, not_written = 0, not_judged = 0;
  std::int64_t reachable = 0, exercised = 0;
  for (const auto& n : w.nodes) {
    written += n.status == "written", not_written += n.status == "not written", not_judged += n.status == "not judged";
    reachable += n.written.reachable, exercised += n.written.exercised;
  }
  std::cout << "wrote " << g.dir << "/nodes.json and " << written << " golden folder(s), one per node the spec covers, "
            << "seed " << g.o.seed << " [Check.golden-nodes]\n";
  for (const auto& n : w.nodes) {
    if (n.status == "written")
      std::cout << "  " << g.dir << "/" << n.folder << ": " << n.label << ", " << n.written.folders.size()
                << " case(s), " << n.written.exercised << " of " << n.written.reachable << " reachable situation(s) exercised\n";
    else if (n.status == "not written")
      std::cout << "  not written: " << n.label << ": " << n.reason << "\n";
  }
  std::cout << "clauses [Check.golden-coverage]: " << exercised << " of " << reachable
            << " reachable situation(s) exercised over the nodes; " << not_judged << " node(s) not judged, "
            << not_written << " not written (" << g.dir << "/nodes.json lists every node with why)\n";
  return 0;
}

int golden_command(GoldenOptions& g) {
  for (const auto& d : g.dims) {
    const auto eq = d.find('=');
    std::int64_t size = -1;
    std::size_t used = 0;
    if (eq != std::string::npos && eq > 0) try {
        size = std::stoll(d.substr(eq + 1), &used);
      } catch (const std::exception&) {
        used = 0;
      }
    if (eq == std::string::npos || eq == 0 || used == 0 || used != d.size() - eq - 1 || size < 0) {
      usage_error("--dim expects NAME=SIZE with SIZE >= 0, got '{}'", d);
    }
    g.o.dims[d.substr(0, eq)] = size;
  }
  g.o.seed = parse_unsigned(g.seed, "--seed");
  g.o.construct = !g.no_construct;
  if (g.sharded) g.o.shard = parse_shard(g.shard, "--shard");
  if ((g.all_nodes || !g.nodes.empty()) && g.sharded)
    usage_error("--shard is not taken with --nodes / --node [Check.shard]");
  if (g.all_nodes || !g.nodes.empty()) return golden_nodes(g);  // [Check.golden-nodes]
  const auto model = graph::Model::load(g.model, {g.o.assume_opset_reviewed});
  Progress progress("golden", g.quiet);  // a terminal only, not under --quiet
  g.o.progress = [&](const std::string& phase, std::size_t done, std::size_t total) { progress.update(phase, done, total); };
  const auto w = golden::write(model, g.dir, g.o);
  progress.clear();
  std::cout << "wrote " << g.dir << "/model.onnx, manifest.json and " << w.folders.size()
            << " test_data_set folder(s), seed " << g.o.seed << ": " << w.drawn << " drawn, " << w.constructed
            << " constructed [Check.golden]\n";
  if (g.sharded)  // [Check.shard.report]
    std::cout << "shard " << g.o.shard->index << "/" << g.o.shard->count << ": " << w.folders.size() << " of " << w.total
              << " case(s) written [Check.shard]\n";
  if (!g.quiet)
    for (const auto& f : w.folders) std::cout << "  " << f << "\n";
  std::cout << "clauses [Check.golden-coverage]: " << w.exercised << " of " << w.reachable
            << " reachable situation(s) exercised";
  if (w.not_built > 0) std::cout << ", " << w.not_built << " reachable but not built";
  std::cout << ", " << w.unreachable << " unreachable (" << g.dir << "/manifest.json lists them with why)\n";
  return 0;
}

}  // namespace

Action add_golden(CLI::App& app) {
  auto g = std::make_shared<GoldenOptions>();
  auto* sub = app.add_subcommand("golden", "Write deterministic golden test cases (inputs and reference outputs)");
  sub->add_option("MODEL", g->model, "ONNX model file (.onnx)")->required();
  sub->add_option("-o,--output", g->dir, "the folder to write (new, empty, or a previous golden folder)")
      ->required()
      ->type_name("DIR");
  sub->add_option("--seed", g->seed, "seed of the input generator, 0 to 2^64-1 (default 0)")->type_name("S");
  sub->add_option("--cases", g->o.cases, "number of drawn cases, at least 1 (default 1); constructed ones follow")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-construct", g->no_construct,
                "write only the drawn cases: no case is built for the situations they did not reach");
  sub->add_flag("--assume-opset-reviewed", g->o.assume_opset_reviewed,
                "accept a model whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->add_option("--inputs", g->o.inputs, "take these inputs from a .npz or test_data_set folder; the others are drawn")
      ->type_name("FILE.npz");
  sub->add_option("--dim", g->dims, "size of a symbolic input dimension (repeatable)")->type_name("NAME=SIZE");
  auto* nodes = sub->add_flag("--nodes", g->all_nodes,
                              "one golden folder per node the spec covers, DIR/<node name>/, and DIR/nodes.json "
                              "[Check.golden-nodes]; the model may hold operators outside the spec");
  sub->add_option("--node", g->nodes, "only the node of this name (repeatable; implies --nodes)")
      ->type_name("NAME")
      ->excludes(nodes);
  auto* shard = sub->add_option("--shard", g->shard,
                  "write only piece K of N of the cases: test_data_set_k is in piece k mod N + 1; every case is "
                  "still computed [Check.shard]")
      ->type_name("K/N");
  sub->add_flag("-q,--quiet", g->quiet, "no progress line on a terminal, and no list of the folders written");
  sub->footer(
      "Writes DIR/model.onnx (the model's bytes), DIR/manifest.json and DIR/test_data_set_K/ holding\n"
      "input_J.pb (the J-th graph input that is not an initializer), output_J.pb (the J-th graph output,\n"
      "computed by the reference), and their .npz twins inputs.npz / outputs.npz — the layout of ONNX's node\n"
      "tests, readable by onnx.numpy_helper and by 'sonnx-ref conformance DIR' and 'sonnx-ref check'.\n"
      "The first N cases (--cases) are drawn with the shapes the model declares (symbolic dims sized by\n"
      "--dim NAME=SIZE) by a seeded splitmix64 generator biased towards the values the spec decides: NaNs\n"
      "(quiet and signalling, random payloads), +-0, +-Inf, subnormals, extremes and ties\n"
      "(src/oracle/golden.hpp states the algorithm). Then, for every situation of every node's clauses that\n"
      "the node can reach and the drawn cases did not (a signed-zero tie with -0 first, or +0 first; a NaN\n"
      "after a number; two NaNs with different bits; equal maxima; ...), further cases are built: a drawn\n"
      "case into which the values of a witness are written, kept only if the reference then decides that\n"
      "element by that situation [Check.golden-coverage]. manifest.json records the seed, the options, the\n"
      "sonnx-ref and spec revisions, the clauses each case exercises with a witness index, and every\n"
      "situation not reached, with why. The same model, seed and options give byte-identical files on every\n"
      "run, build type and machine [Check.golden]. DIR is written under a temporary name and renamed at the\n"
      "end: a refused model leaves nothing behind. The axes input of ReduceMax-18/20 is never drawn: give it\n"
      "with --inputs.\n"
      "\n"
      "--nodes (or --node NAME) [Check.golden-nodes]: MODEL may hold operators outside the spec (a real network).\n"
      "Each node the spec covers is extracted as a single-node model with its real attributes and the input\n"
      "shapes it receives (ONNX's shape inference; an initializer or Constant input keeps the model's value)\n"
      "[Graph.extract], and gets its own golden folder DIR/<node name>/ as above (any character outside\n"
      "[A-Za-z0-9._-] of the name becomes '_'; an unnamed node is node_<k>). DIR/nodes.json lists every node:\n"
      "its folder and situations, or why it has none (outside the spec, a Constant, inside a subgraph).\n"
      "'sonnx-ref conformance DIR' runs every folder. --inputs is not taken with --nodes.\n"
      "\n"
      "--shard K/N [Check.shard]: every case is computed as without it (the constructed cases depend on what all\n"
      "the drawn ones exercise), and only the test_data_set_k with k mod N = K - 1 are written, each byte for\n"
      "byte as the unsharded run writes it; the N pieces' folders are disjoint. manifest.json lists the piece's\n"
      "cases, keeps the whole coverage list, and has 'shard': {index: K, count: N, total: cases in all, cases:\n"
      "[test_data_set_k names], positions: [k]} [Check.shard.report]. Not taken with --nodes.\n"
      "Progress: a line on stderr (cases drawn, constructed, written; rate, time left) when stderr is a\n"
      "terminal and not --quiet; nothing otherwise.\n"
      "Exit codes: 0 written; 2 usage; 3 refused (\"error: [ID] ...\"); 4 I/O failure.\n"
      "Example: sonnx-ref golden examples/max_reduce_hardmax.onnx -o golden --seed 7 --cases 3\n"
      "         sonnx-ref golden squeezenet.onnx --nodes -o squeezenet-nodes");
  return [g, shard] {
    g->sharded = shard->count() > 0;
    return golden_command(*g);
  };
}

}  // namespace sonnx::cli
