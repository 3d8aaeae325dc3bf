// [Graph.constant] Constant nodes are evaluated by the graph loader, not by the operator registry.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <map>

#include "graph/detail.hpp"

namespace sonnx::graph::detail {

namespace {

std::string constant_versions() {
  std::string out;
  for (int v : kConstantVersions) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

// The value attributes of Constant-`version` and their kinds ("tensor", "float", ...; "" for the
// ones ONNX defines but sonnx-ref refuses: sparse_value, value_string, value_strings).
std::map<std::string, std::string> value_attributes(int version) {
  std::map<std::string, std::string> kinds = {{"value", "tensor"}};
  if (version >= 11) kinds["sparse_value"] = "";
  if (version >= 12) {  // the v12 attribute set
    kinds["value_float"] = "float";
    kinds["value_floats"] = "floats";
    kinds["value_int"] = "int";
    kinds["value_ints"] = "ints";
    kinds["value_string"] = "";
    kinds["value_strings"] = "";
  }
  return kinds;
}

std::string names_of(const std::map<std::string, std::string>& kinds) {
  std::string out;
  for (const auto& [n, k] : kinds) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

int resolve_constant(std::int64_t opset) {
  int best = 0;
  for (int v : kConstantVersions)
    if (v <= opset) best = v;  // [Graph.opset.resolve] greatest since_version <= opset
  if (best == 0)
    refuse("Graph.opset.unsupported", "Constant has no version at opset {} (Constant versions: {})", opset,
           constant_versions());
  return best;
}

Tensor constant_value(const onnx::NodeProto& node, int version, const std::string& where) {
  const auto kinds = value_attributes(version);
  const onnx::AttributeProto* chosen = nullptr;
  std::vector<std::string> given;
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (!kinds.count(a.name()))
      refuse("Graph.node.attributes", "{}: Constant-{} has no attribute '{}' (its attributes: {})", where, version,
             a.name(), names_of(kinds));
    given.push_back(a.name());
    chosen = &a;
  }
  // [Graph.constant] exactly one value attribute
  if (given.size() != 1) {
    std::string list;
    for (const auto& g : given) list += (list.empty() ? "" : ", ") + g;
    refuse("Graph.constant", "{}: Constant-{} needs exactly one of {}; got {}", where, version, names_of(kinds),
           given.empty() ? "none" : list);
  }
  const std::string& attr = chosen->name();
  if (attr == "sparse_value")  // [Common.gr.sparse]
    refuse("Common.gr.sparse", "{}: Constant 'sparse_value' is a sparse tensor; sparse tensors are not supported",
           where);
  if (kinds.at(attr).empty())  // [Graph.constant] value_string / value_strings: no string dtype
    refuse("Graph.constant", "{}: Constant '{}' holds strings; string tensors are not supported (dtypes: {})", where,
           attr, join_names({std::begin(kAllDTypes), std::end(kAllDTypes)}));
  ops::AttributeValue value = convert_attribute(*chosen, where);
  if (ops::attribute_kind_name(value) != kinds.at(attr))
    refuse("Graph.node.attributes", "{}: Constant-{} attribute '{}' must be {}, got {}", where, version, attr,
           kinds.at(attr), ops::attribute_kind_name(value));
  // [Graph.constant] value: the tensor; value_float(s): float of rank 0 (1); value_int(s): int64 of rank 0 (1)
  if (auto* t = std::get_if<Tensor>(&value)) return std::move(*t);
  if (auto* f = std::get_if<float>(&value)) return make_tensor<float>({}, {*f});
  if (auto* i = std::get_if<std::int64_t>(&value)) return make_tensor<std::int64_t>({}, {*i});
  if (auto* fs = std::get_if<std::vector<float>>(&value))
    return make_tensor<float>({static_cast<std::int64_t>(fs->size())}, *fs);
  const auto& is = std::get<std::vector<std::int64_t>>(value);
  return make_tensor<std::int64_t>({static_cast<std::int64_t>(is.size())}, is);
}

}  // namespace sonnx::graph::detail
