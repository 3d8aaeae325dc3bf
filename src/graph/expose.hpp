// [Graph.expose] A model with every intermediate value as a graph output, so that any runtime gives
// them all (`sonnx-ref expose`, sonnx_ref.expose); and [Graph.extract] one node of a model as a
// single-node model of its own (`golden --nodes`).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/model.hpp"

namespace sonnx::graph {

struct Exposed {
  std::string bytes;                 // the exposed model (a serialised ModelProto)
  std::vector<std::string> outputs;  // its graph outputs in order: the model's own, then the added ones
  std::vector<std::string> added;    // the values added as graph outputs
  std::vector<std::pair<std::string, std::string>> not_exposed;  // a node output left out, and why
};

// [Graph.expose] Every node output of the main graph that is not yet a graph output, in evaluation
// order, appended to the graph outputs with the type and shape ONNX's shape inference gives it
// ([Graph.infer]); one it gives no element type or no shape is left out and listed. Nothing else of
// the model changes.
Exposed expose(const Model& model);

// [Graph.extract] nodes()[node] as a model of its own: the model's IR version and opset imports, the
// node with its attributes, each input produced by a node (or a graph input) as a graph input and
// each output as a graph output with the type and shape ONNX's shape inference gives it, each input
// that is an initializer or a Constant's output as an initializer holding the model's value. Refuses
// ([Graph.extract]) a node whose input or output inference leaves without a type or a shape.
std::string extract_node(const Model& model, std::size_t node);

}  // namespace sonnx::graph
