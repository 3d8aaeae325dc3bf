// Node attributes and tensors held in the model (spec/common/graph.md).
#include <onnx/onnx_pb.h>

#include "graph/detail.hpp"

namespace sonnx::graph::detail {

using onnx::AttributeProto;

std::string describe(const onnx::NodeProto& node, std::size_t index) {
  if (node.name().empty()) return fmt::format("node #{} ({})", index, node.op_type());
  return fmt::format("node '{}' ({})", node.name(), node.op_type());
}

namespace {

// The kind of `a`: its declared type or, for models written before AttributeProto.type existed,
// the one value field that is set.
AttributeProto::AttributeType kind_of(const AttributeProto& a, const std::string& where) {
  if (a.type() != AttributeProto::UNDEFINED) return a.type();
  std::vector<AttributeProto::AttributeType> set;
  if (a.has_i()) set.push_back(AttributeProto::INT);
  if (a.has_f()) set.push_back(AttributeProto::FLOAT);
  if (a.has_s()) set.push_back(AttributeProto::STRING);
  if (a.has_t()) set.push_back(AttributeProto::TENSOR);
  if (a.has_g()) set.push_back(AttributeProto::GRAPH);
  if (a.has_sparse_tensor()) set.push_back(AttributeProto::SPARSE_TENSOR);
  if (a.has_tp()) set.push_back(AttributeProto::TYPE_PROTO);
  if (a.ints_size() > 0) set.push_back(AttributeProto::INTS);
  if (a.floats_size() > 0) set.push_back(AttributeProto::FLOATS);
  if (a.strings_size() > 0) set.push_back(AttributeProto::STRINGS);
  if (a.tensors_size() > 0) set.push_back(AttributeProto::TENSORS);
  if (a.graphs_size() > 0) set.push_back(AttributeProto::GRAPHS);
  if (a.sparse_tensors_size() > 0) set.push_back(AttributeProto::SPARSE_TENSORS);
  if (a.type_protos_size() > 0) set.push_back(AttributeProto::TYPE_PROTOS);
  if (set.size() != 1)
    refuse("Graph.node.attributes", "{}: attribute '{}' declares no type and its value is {}", where, a.name(),
           set.empty() ? "empty" : "ambiguous (several value fields are set)");
  return set.front();
}

}  // namespace

ops::AttributeValue convert_attribute(const AttributeProto& a, const std::string& where) {
  if (a.name().empty()) refuse("Graph.node.attributes", "{}: an attribute has no name", where);
  // [Graph.node.attributes] a reference to an attribute of an enclosing function is not a value
  if (!a.ref_attr_name().empty())
    refuse("Graph.node.attributes", "{}: attribute '{}' refers to a function attribute ('{}'); only attribute values are supported",
           where, a.name(), a.ref_attr_name());
  const auto kind = kind_of(a, where);
  switch (kind) {
    case AttributeProto::INT: return a.i();
    case AttributeProto::INTS: return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case AttributeProto::FLOAT: return a.f();
    case AttributeProto::FLOATS: return std::vector<float>(a.floats().begin(), a.floats().end());
    case AttributeProto::STRING: return a.s();
    case AttributeProto::TENSOR:
      return io::from_proto(a.t(), fmt::format("{}: attribute '{}'", where, a.name()));  // [Graph.external-data] checked there
    case AttributeProto::SPARSE_TENSOR:
    case AttributeProto::SPARSE_TENSORS:
      // [Common.gr.sparse]
      refuse("Common.gr.sparse", "{}: attribute '{}' holds a sparse tensor; sparse tensors are not supported", where,
             a.name());
    default:
      refuse("Graph.node.attributes",
             "{}: attribute '{}' is of kind {}, which no supported operator takes (kinds: int, ints, float, "
             "floats, string, tensor)",
             where, a.name(), AttributeProto::AttributeType_Name(kind));
  }
}

ops::Attributes convert_attributes(const onnx::NodeProto& node, const std::string& where) {
  ops::Attributes out;
  for (const AttributeProto& a : node.attribute()) {
    auto value = convert_attribute(a, where);
    if (!out.emplace(a.name(), std::move(value)).second)
      refuse("Graph.node.attributes", "{}: attribute '{}' is given twice", where, a.name());
  }
  return out;
}

}  // namespace sonnx::graph::detail
