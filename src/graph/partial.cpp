// [Graph.partial] Partial models: the nodes outside the spec, why, and the nodes inside subgraphs.
// model.cpp classifies each node with these; the node-wise commands (check, golden --nodes, expose)
// read the classification from graph::NodeInfo.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <map>

#include "graph/detail.hpp"

namespace sonnx::graph::detail {

void collect_subgraph_nodes(const onnx::NodeProto& node, const std::string& label, std::vector<SubgraphNode>& out) {
  for (const auto& a : node.attribute()) {
    std::vector<const onnx::GraphProto*> graphs;
    if (a.has_g()) graphs.push_back(&a.g());
    for (const auto& g : a.graphs()) graphs.push_back(&g);
    for (const auto* g : graphs)
      for (int k = 0; k < g->node_size(); ++k) {
        const onnx::NodeProto& inner = g->node(k);
        const std::string where = fmt::format("in attribute '{}' of {}", a.name(), label);
        out.push_back({inner.name(), inner.op_type(), where});  // [Graph.partial.subgraph]
        collect_subgraph_nodes(inner, fmt::format("{} {}", describe(inner, static_cast<std::size_t>(k)), where), out);
      }
  }
}

std::string outside_reason(const onnx::NodeProto& node, const SpecError& e, const std::string& label,
                           std::size_t subgraph_nodes) {
  std::string reason = e.what();
  const bool known = std::any_of(ops::all_versions().begin(), ops::all_versions().end(),
                                 [&](const ops::OpVersion& v) { return v.op_type == node.op_type(); });
  if (e.id() == "Graph.opset.domain" && !node.domain().empty() && node.domain() != "ai.onnx")
    reason = fmt::format("domain '{}' is outside the spec", node.domain());
  else if (e.id() == "Graph.opset.unsupported" && !known)
    reason = fmt::format("operator '{}' is outside the spec", node.op_type());
  else if (reason.rfind(label + ": ", 0) == 0)
    reason = reason.substr(label.size() + 2);
  if (subgraph_nodes > 0)
    reason += fmt::format("; it holds {} node(s) in subgraphs, not judged either", subgraph_nodes);
  return reason;
}

std::string list_labels(const std::vector<std::string>& labels) {
  constexpr std::size_t kShown = 8;
  std::string out;
  for (std::size_t k = 0; k < labels.size() && k < kShown; ++k) out += (k ? ", " : "") + labels[k];
  if (labels.size() > kShown) out += fmt::format(" and {} more", labels.size() - kShown);
  return out;
}

std::string outside_text(const std::vector<std::string>& labels, const std::vector<std::string>& op_types) {
  std::map<std::string, std::size_t> by_op;
  for (const auto& op : op_types) ++by_op[op];
  std::string counts;
  for (const auto& [op, n] : by_op) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", op, n);
  return fmt::format("{} node(s) in all ({}): {}", labels.size(), counts, list_labels(labels));
}

SpecError outside_refusal(const std::vector<std::pair<std::size_t, SpecError>>& outside, const std::vector<NodeIO>& nodes,
                          const std::vector<std::string>& op_types) {
  // [Graph.partial.run] the first node outside the spec in file order gives the ID; every one is named.
  const auto& error = outside.front().second;
  std::vector<std::string> labels, ops;
  for (const auto& [index, e] : outside) labels.push_back(nodes[index].label), ops.push_back(op_types[index]);
  std::string message = error.what();
  if (outside.size() > 1) message += "; outside the spec: " + outside_text(labels, ops);
  message += " (the node-wise commands judge the nodes the spec covers: check --nodes, golden --nodes)";
  return SpecError(error.id(), message, error.kind());
}

}  // namespace sonnx::graph::detail

namespace sonnx::graph {

void check_unique_node_names(const Model& model) {
  std::map<std::string, const NodeInfo*> first;  // name -> its first node
  for (const auto& n : model.nodes()) {
    if (n.name.empty()) continue;
    auto [it, fresh] = first.emplace(n.name, &n);
    if (!fresh) {  // [Graph.node.unique-names]
      const auto [a, b] = std::minmax(it->second->file_index, n.file_index);
      refuse("Graph.node.unique-names", "nodes #{} and #{} of the graph (file order; {} and {}) are both named '{}'; a "
             "node-wise verdict names each node, so node names must be unique", a, b, it->second->op_type, n.op_type,
             n.name);
    }
  }
}

}  // namespace sonnx::graph
