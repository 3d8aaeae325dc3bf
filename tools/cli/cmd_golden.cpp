// sonnx-ref golden MODEL -o DIR: deterministic golden test cases in ONNX's node-test layout
// ([Check.golden]). The library does the work (src/oracle/golden); this file reads the options.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "graph/model.hpp"
#include "oracle/golden.hpp"

namespace sonnx::cli {

namespace {

struct GoldenOptions {
  std::string model, dir;
  golden::Options o;
  std::vector<std::string> dims;  // NAME=SIZE
};

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
      std::cerr << "error: --dim expects NAME=SIZE with SIZE >= 0, got '" << d << "'\n";
      return 2;
    }
    g.o.dims[d.substr(0, eq)] = size;
  }
  const auto model = graph::Model::load(g.model);
  const auto folders = golden::write(model, g.dir, g.o);
  std::cout << "wrote " << g.dir << "/model.onnx and " << folders.size() << " test_data_set folder(s), seed "
            << g.o.seed << "\n";
  for (const auto& f : folders) std::cout << "  " << f << "\n";
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
  sub->add_option("--seed", g->o.seed, "seed of the input generator (default 0)")->type_name("S");
  sub->add_option("--cases", g->o.cases, "number of test_data_set folders (default 1)")->type_name("N");
  sub->add_option("--inputs", g->o.inputs, "take these inputs from a .npz or test_data_set folder; the others are drawn")
      ->type_name("FILE.npz");
  sub->add_option("--dim", g->dims, "size of a symbolic input dimension (repeatable)")->type_name("NAME=SIZE");
  sub->footer(
      "Writes DIR/model.onnx (the model's bytes) and DIR/test_data_set_K/ for K < N holding input_J.pb (the\n"
      "J-th graph input that is not an initializer), output_J.pb (the J-th graph output, computed by the\n"
      "reference), and their .npz twins inputs.npz / outputs.npz — the layout of ONNX's node tests, readable\n"
      "by onnx.numpy_helper and by 'sonnx-ref conformance DIR'.\n"
      "Inputs are drawn with the shapes the model declares (symbolic dims sized by --dim NAME=SIZE) by a\n"
      "seeded splitmix64 generator biased towards the values the spec decides: NaNs (quiet and signalling,\n"
      "random payloads), +-0, +-Inf, subnormals, extremes and ties (src/oracle/golden.hpp states the\n"
      "algorithm). The same model, seed and options give byte-identical files on every run, build type and\n"
      "machine [Check.golden]. The axes input of ReduceMax-18/20 is never drawn: give it with --inputs.\n"
      "Exit codes: 0 written; 1 refused (\"error: [ID] ...\"); 2 usage.\n"
      "Example: sonnx-ref golden examples/max_reduce_hardmax.onnx -o golden --seed 7 --cases 3");
  return [g] { return golden_command(*g); };
}

}  // namespace sonnx::cli
