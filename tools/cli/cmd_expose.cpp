// sonnx-ref expose MODEL -o MODEL_ALL.onnx: the model with every intermediate value as a graph output,
// so that any runtime gives them all to the node-wise check ([Graph.expose], [Check.nodewise]). The
// library does the work (src/graph/expose); this file reads the options and writes the file.
#include <iostream>
#include <memory>
#include <span>

#include "commands.hpp"
#include "graph/expose.hpp"
#include "graph/model.hpp"
#include "io/io.hpp"

namespace sonnx::cli {

namespace {

struct ExposeOptions {
  std::string model, out;
  bool assume_opset_reviewed = false, quiet = false;
};

int expose(const ExposeOptions& o) {
  graph::LoadOptions load;
  load.assume_opset_reviewed = o.assume_opset_reviewed;
  load.partial = true;  // [Graph.partial] any operator: the runtime computes them, not sonnx-ref
  const auto model = graph::Model::load(o.model, load);
  const graph::Exposed e = graph::expose(model);  // [Graph.expose]
  io::write_file(o.out, std::span(reinterpret_cast<const std::byte*>(e.bytes.data()), e.bytes.size()), "Graph.expose");
  if (o.quiet) return 0;
  std::cout << "wrote " << o.out << ": " << e.outputs.size() << " graph output(s), " << e.added.size()
            << " of them added, every node output ONNX's shape inference types [Graph.expose]\n";
  for (const auto& [name, why] : e.not_exposed) std::cout << "  not exposed: '" << name << "': " << why << "\n";
  return 0;
}

}  // namespace

Action add_expose(CLI::App& app) {
  auto o = std::make_shared<ExposeOptions>();
  auto* sub = app.add_subcommand("expose", "Write the model with every intermediate value as a graph output");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx); any operators")->required();
  sub->add_option("-o,--output", o->out, "the model to write")->required()->type_name("MODEL_ALL.onnx");
  sub->add_flag("-q,--quiet", o->quiet, "print nothing on success");
  sub->add_flag("--assume-opset-reviewed", o->assume_opset_reviewed,
                "accept a model whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->footer(
      "Appends to the graph outputs of MODEL every node output of its main graph that is not one yet, in\n"
      "evaluation order, each with the element type and shape ONNX's own shape inference (libonnx) gives it;\n"
      "nothing else changes. Any runtime then gives every intermediate value (output_K.pb is the K-th output of\n"
      "the written model) for the node-wise check: sonnx-ref check MODEL INPUTS VALUES [Check.nodewise].\n"
      "A value inference gives no element type or no shape (which the ONNX checker requires of a graph output)\n"
      "is left out and listed ('not exposed'); values inside subgraphs are not exposed [Graph.expose].\n"
      "MODEL may hold any operator ([Graph.partial]); it must still parse, import the default domain, and have\n"
      "one producer per value ([Graph.model.parse], [Graph.opset.domain], [Graph.order.topological]).\n"
      "Exit codes: 0 written; 2 usage; 3 refused (\"error: [ID] ...\"); 4 I/O failure.\n"
      "Example: sonnx-ref expose squeezenet.onnx -o squeezenet_all.onnx");
  return [o] { return expose(*o); };
}

}  // namespace sonnx::cli
