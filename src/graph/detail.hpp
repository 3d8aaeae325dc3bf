// Internal pieces of the graph loader (spec/common/graph.md), one concern per file:
// attributes.cpp, constant.cpp, order.cpp, feeds.cpp; model.cpp assembles them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "graph/model.hpp"
#include "ops/registry.hpp"

namespace onnx {
class AttributeProto;
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace sonnx::graph::detail {

// "node 'name' (Op)" or, for an unnamed node, "node #k (Op)" — how messages name a node.
std::string describe(const onnx::NodeProto& node, std::size_t index);

// [Graph.node.attributes] An AttributeProto of kind INT, INTS, FLOAT, FLOATS, STRING or TENSOR as an
// ops::AttributeValue; every other kind, and references to a function's attributes, are refused.
ops::AttributeValue convert_attribute(const onnx::AttributeProto& a, const std::string& where);
ops::Attributes convert_attributes(const onnx::NodeProto& node, const std::string& where);

// [Graph.constant] The Constant versions of ONNX and the one in force at `opset`.
inline constexpr int kConstantVersions[] = {1, 9, 11, 12, 13, 19, 21, 23, 24, 25};
int resolve_constant(std::int64_t opset);
// [Graph.constant] The tensor a Constant node of `version` produces (checked: exactly one value
// attribute, of a kind the version defines; sparse and string values refused).
Tensor constant_value(const onnx::NodeProto& node, int version, const std::string& where);

// [Graph.order.topological] A node's value names, as the ordering sees them.
struct NodeIO {
  std::string label;                 // describe(node)
  std::vector<std::string> inputs;   // "" = absent optional input (ignored)
  std::vector<std::string> outputs;  // "" = unused optional output (ignored)
};
// Indices of `nodes` in an evaluation order (Kahn; ties keep the file order). `graph_values` are the
// values the graph provides (inputs and initializers). Refuses a value produced twice, a value used
// but never produced (naming the node and the value), and cycles (naming the nodes on them).
std::vector<std::size_t> topological_order(const std::vector<NodeIO>& nodes,
                                           const std::set<std::string>& graph_values);

// [Graph.partial.subgraph] Appends the nodes of every subgraph `node` holds (graph attributes), nested
// ones included, each with where it is; `label` names `node`.
void collect_subgraph_nodes(const onnx::NodeProto& node, const std::string& label, std::vector<SubgraphNode>& out);
// [Graph.partial] Why a node is outside the spec, from the refusal `e` it would be: short for an
// operator or domain the spec does not cover, the refusal's text otherwise (without the node's label).
std::string outside_reason(const onnx::NodeProto& node, const SpecError& e, const std::string& label,
                           std::size_t subgraph_nodes);
// "a, b, c and 5 more": the first labels of a list.
std::string list_labels(const std::vector<std::string>& labels);
// "76 node(s) in all (Concat 8, Conv 26, ...): node #0 (ConstantOfShape), ... and 68 more".
std::string outside_text(const std::vector<std::string>& labels, const std::vector<std::string>& op_types);
// [Graph.partial.run] The refusal of a model with nodes outside the spec: the first one's (file order),
// naming every one. `op_types[i]` is the operator of nodes[i].
SpecError outside_refusal(const std::vector<std::pair<std::size_t, SpecError>>& outside, const std::vector<NodeIO>& nodes,
                          const std::vector<std::string>& op_types);

// [Graph.feed.missing] [Graph.feed.extra] [Graph.feed.dtype] [Graph.feed.shape]
void check_feeds(const std::vector<io::NamedTensor>& feeds, const std::vector<ValueInfo>& required,
                 const std::vector<ValueInfo>& overridable);

}  // namespace sonnx::graph::detail
