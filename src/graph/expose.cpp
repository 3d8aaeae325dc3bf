// [Graph.expose] every value as a graph output; [Graph.extract] one node as a model of its own.
#include "graph/expose.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <set>

#include "graph/infer.hpp"
#include "io/io.hpp"

namespace sonnx::graph {

namespace {

onnx::ModelProto parsed(const Model& model) {
  onnx::ModelProto m;
  if (!m.ParseFromString(model.serialized())) refuse("Graph.model.parse", "the model no longer parses");
  return m;
}

// Why a value cannot be declared from what inference gives (empty: it can): the ONNX checker needs an
// element type and a shape on every graph input and output.
std::string undeclarable(const std::map<std::string, const onnx::TypeProto*>& types, const std::string& name) {
  auto it = types.find(name);
  if (it == types.end()) return "ONNX's shape inference gives it no type";
  const onnx::TypeProto& t = *it->second;
  if (t.value_case() != onnx::TypeProto::kTensorType) return "it is not a tensor";
  if (!t.tensor_type().has_elem_type() || t.tensor_type().elem_type() == 0)
    return "ONNX's shape inference gives it no element type";
  if (!t.tensor_type().has_shape()) return "ONNX's shape inference gives it no shape";
  return "";
}

}  // namespace

Exposed expose(const Model& model) {
  onnx::ModelProto m = parsed(model), inferred;
  const auto types = detail::infer_types(m, inferred);  // [Graph.infer]
  Exposed out;
  std::set<std::string> outputs;
  for (const auto& o : m.graph().output()) {
    out.outputs.push_back(o.name());
    outputs.insert(o.name());
  }
  for (const auto& node : model.nodes())  // [Graph.expose] evaluation order
    for (const auto& name : node.outputs) {
      if (name.empty() || outputs.count(name)) continue;
      outputs.insert(name);
      if (auto why = undeclarable(types, name); !why.empty()) {
        out.not_exposed.emplace_back(name, why);
        continue;
      }
      onnx::ValueInfoProto* v = m.mutable_graph()->add_output();
      v->set_name(name);
      *v->mutable_type() = *types.at(name);
      out.outputs.push_back(name);
      out.added.push_back(name);
    }
  if (!m.SerializeToString(&out.bytes)) throw std::runtime_error("expose: the model cannot be serialised");
  return out;
}

std::string extract_node(const Model& model, std::size_t k) {
  const NodeInfo& node = model.nodes().at(k);
  const onnx::ModelProto m = parsed(model);
  onnx::ModelProto inferred;
  const auto types = detail::infer_types(m, inferred);  // [Graph.infer]
  // The values the model fixes: initializers, and the outputs of Constant nodes.
  std::map<std::string, const Tensor*> fixed;
  for (std::size_t p = 0; p < model.nodes().size(); ++p)
    if (const Tensor* c = model.constant(p)) fixed[model.nodes()[p].outputs.at(0)] = c;
  const onnx::NodeProto& source = m.graph().node(static_cast<int>(node.file_index));
  onnx::ModelProto one;
  one.set_ir_version(m.ir_version());
  *one.mutable_opset_import() = m.opset_import();
  one.set_producer_name("sonnx-ref golden --nodes");
  onnx::GraphProto* g = one.mutable_graph();
  g->set_name(node.name.empty() ? fmt::format("node_{}", k) : node.name);
  *g->add_node() = source;
  const auto declare = [&](onnx::ValueInfoProto* v, const std::string& name, const char* role) {
    if (auto why = undeclarable(types, name); !why.empty())  // [Graph.extract]
      refuse("Graph.extract", "{} '{}' of {} cannot be declared: {}", role, name, source.name().empty() ? "the node" : "node '" + source.name() + "'", why);
    v->set_name(name);
    *v->mutable_type() = *types.at(name);
  };
  std::set<std::string> seen;
  for (const auto& name : node.inputs) {
    if (name.empty() || !seen.insert(name).second) continue;
    const Tensor* value = model.initializer(name);
    if (auto c = fixed.find(name); c != fixed.end()) value = c->second;
    if (value) {  // [Graph.extract] a value the model fixes stays fixed (IR version 3: also as a graph input)
      io::to_proto(*value, name, *g->add_initializer());
      const bool overridable = std::any_of(model.overridable_inputs().begin(), model.overridable_inputs().end(),
                                           [&](const ValueInfo& v) { return v.name == name; });
      if (m.ir_version() < 4 || overridable) declare(g->add_input(), name, "input");
      continue;
    }
    declare(g->add_input(), name, "input");
  }
  // [Graph.extract] an output inference leaves untyped that nothing reads (Dropout-7's mask in the light
  // CNNs) is left out of the node: its name emptied, trailing empty names removed
  std::set<std::string> read;
  for (const auto& n : model.nodes()) read.insert(n.inputs.begin(), n.inputs.end());
  for (const auto& o : model.outputs()) read.insert(o.name);
  onnx::NodeProto& copy = *g->mutable_node(0);
  for (int q = 0; q < copy.output_size(); ++q) {
    const std::string& name = copy.output(q);
    if (name.empty()) continue;
    if (!undeclarable(types, name).empty() && !read.count(name)) copy.set_output(q, "");
    else declare(g->add_output(), name, "output");
  }
  while (copy.output_size() > 0 && copy.output(copy.output_size() - 1).empty()) copy.mutable_output()->RemoveLast();
  std::string bytes;
  if (!one.SerializeToString(&bytes)) throw std::runtime_error("extract: the model cannot be serialised");
  return bytes;
}

}  // namespace sonnx::graph
