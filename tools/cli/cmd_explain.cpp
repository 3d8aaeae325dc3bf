// sonnx-ref explain MODEL INPUTS --output NAME --index i,j,...: which node, which input elements and
// which spec clauses determined one element. The library does the work (src/oracle/explain).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "graph/model.hpp"
#include "oracle/explain.hpp"

namespace sonnx::cli {

namespace {

struct ExplainOptions {
  std::string model, inputs, output, index;
  bool json = false, assume_opset_reviewed = false;
};

int explain_command(const ExplainOptions& o) {
  std::string text = o.index;  // "1,2", "[1, 2]" or "(1, 2)"; "" for a rank-0 value
  if (text.size() >= 2 && ((text.front() == '[' && text.back() == ']') || (text.front() == '(' && text.back() == ')')))
    text = text.substr(1, text.size() - 2);
  const auto index = parse_index(text, "--index");
  const auto model = graph::Model::load(o.model, {o.assume_opset_reviewed});
  const auto feeds = graph::load_feeds(model, o.inputs);
  const explain::Explainer ex(model, model.run_all(feeds));
  const auto e = ex.chain(o.output, index);
  if (o.json) std::cout << explain::to_json(e).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else std::cout << explain::to_text(e);
  return 0;
}

}  // namespace

Action add_explain(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  auto* sub = app.add_subcommand("explain", "Explain how one output element was determined, clause by clause");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx)")->required();
  sub->add_option("INPUTS", o->inputs, "a .npz file or a test_data_set_N folder (as for run)")->required();
  sub->add_option("--output", o->output, "the graph output (or any intermediate value) to explain")
      ->required()
      ->type_name("NAME");
  sub->add_option("--index", o->index, "the element's tensor index, e.g. 1,2 (omit for a rank-0 value)")
      ->type_name("i,j,...");
  sub->add_flag("--json", o->json, "print the explanation as JSON");
  sub->add_flag("--assume-opset-reviewed", o->assume_opset_reviewed,
                "accept a model whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->footer(
      "For the element NAME[i, j, ...]: the node that produced it, the set its operator's clause ranges over\n"
      "(Max: each input at the broadcast index, with its own index; ReduceMax: R(j), the reduced elements in\n"
      "row-major order; Hardmax: the slice along the axis, or the row of the [N, D] view for versions 1 and\n"
      "11), the element selected (first NaN, else first maximum under the total order), the spec clauses\n"
      "that applied and why. The chain is then followed through the selected input element up to a graph\n"
      "input, initializer or constant; it stops at a Hardmax element (its value depends on the whole slice)\n"
      "and at an empty reduction. Sets of more than 16 elements are listed in part.\n"
      "--json prints {\"chain\": [{\"element\", \"producer\", \"parameters\", \"set_name\", \"set_size\", \"set\",\n"
      "\"chosen\", \"clauses\", \"reason\", \"determining\", \"stop\"}]}.\n"
      "Exit codes: 0 explained; 2 usage (unknown NAME, an index that is not integers separated by commas or\n"
      "lies outside the value's shape); 3 input refused by a spec clause (\"error: [ID] ...\"); 4 I/O failure.\n"
      "Example: sonnx-ref explain examples/max_reduce_hardmax.onnx examples/inputs.npz --output R --index 0");
  return [o] { return explain_command(*o); };
}

}  // namespace sonnx::cli
