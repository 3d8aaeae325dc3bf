// The operator versions of sonnx-ref and their node adapters: attribute names and kinds
// ([Graph.node.attributes]), ONNX defaults ([Common.gr.defaults]), then the typed operator.
#include "ops/registry.hpp"

#include <algorithm>
#include <limits>

#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/reducemax.hpp"

namespace sonnx::ops {

std::string attribute_kind_name(const AttributeValue& v) {
  switch (v.index()) {
    case 0: return "int";
    case 1: return "ints";
    case 2: return "float";
    case 3: return "floats";
    case 4: return "string";
    default: return "tensor";
  }
}

namespace {

using Kinds = std::map<std::string, std::string>;  // attribute name -> kind

// [Graph.node.attributes] every attribute is one the version defines, with its kind.
void check_attributes(const std::string& op, int version, const Attributes& a, const Kinds& allowed) {
  for (const auto& [attr, value] : a) {
    auto it = allowed.find(attr);
    if (it == allowed.end()) {
      std::string names;
      for (const auto& [n, kind] : allowed) names += (names.empty() ? "" : ", ") + n;
      refuse("Graph.node.attributes", "{}-{} has no attribute '{}' (its attributes: {})", op, version, attr,
             names.empty() ? "none" : names);
    }
    if (attribute_kind_name(value) != it->second)
      refuse("Graph.node.attributes", "{}-{}: attribute '{}' must be {}, got {}", op, version, attr, it->second,
             attribute_kind_name(value));
  }
}

std::int64_t int_attribute(const Attributes& a, const std::string& n, std::int64_t default_value) {
  auto it = a.find(n);
  return it == a.end() ? default_value : std::get<std::int64_t>(it->second);  // [Common.gr.defaults]
}

OpVersion max_version(int v) {
  Kinds kinds;
  if (v == 1) kinds["consumed_inputs"] = "ints";  // [Max.v1] legacy, accepted and ignored
  return {"Max", v, 1, std::numeric_limits<int>::max(), 1,
          [v, kinds](const Inputs& in, const Attributes& a) {
            check_attributes("Max", v, a, kinds);
            return std::vector<Tensor>{max(v, in)};
          },
          [v, kinds](const Attributes& a) { check_attributes("Max", v, a, kinds); },
          [v](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& i) {
            return decide_max(v, values, i);
          },
          [v](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
            return reach_max(v, values, sources);
          }};
}

// The parameters of a ReduceMax node: attributes, defaults ([Common.gr.defaults]) and, from
// version 18, the optional `axes` input; `from` (when given) records where each came from.
ReduceMaxParams reducemax_params(int v, const Inputs& in, const Attributes& a, ReduceMaxSources* from = nullptr,
                                 const std::string& axes_input_name = "") {
  ReduceMaxParams p;
  ReduceMaxSources sources;
  sources.keepdims_default = !a.count("keepdims");
  p.keepdims = int_attribute(a, "keepdims", 1);
  if (v < 18) {
    if (auto it = a.find("axes"); it != a.end()) {
      p.axes = std::get<std::vector<std::int64_t>>(it->second);
      sources.axes = "attribute";
    }
  } else {
    sources.noop_default = !a.count("noop_with_empty_axes");
    p.noop_with_empty_axes = int_attribute(a, "noop_with_empty_axes", 0);
    if (in.size() > 1 && in[1] != nullptr) {
      p.axes = axes_from_input(*in[1]);
      sources.axes = "input '" + axes_input_name + "'";
    }
  }
  if (from) *from = sources;
  return p;
}

OpVersion reducemax_version(int v) {
  Kinds kinds = {{"keepdims", "int"}};
  if (v < 18) kinds["axes"] = "ints";                  // [ReduceMax.v1] axes is an attribute
  else kinds["noop_with_empty_axes"] = "int";         // [ReduceMax.v18] axes is an input
  return {"ReduceMax", v, 1, v < 18 ? 1 : 2, 1, [v, kinds](const Inputs& in, const Attributes& a) {
            check_attributes("ReduceMax", v, a, kinds);
            return std::vector<Tensor>{reduce_max(v, *in[0], reducemax_params(v, in, a))};
          },
          [v, kinds](const Attributes& a) { check_attributes("ReduceMax", v, a, kinds); },
          [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& j) {
            ReduceMaxSources from;
            const std::string axes_name = values.input_names.size() > 1 ? values.input_names[1] : "";
            const ReduceMaxParams p = reducemax_params(v, values.inputs, a, &from, axes_name);
            return decide_reduce_max(v, values, p, from, j);
          },
          [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
            return reach_reduce_max(v, values, reducemax_params(v, values.inputs, a), sources);
          }};
}

OpVersion hardmax_version(int v) {
  return {"Hardmax", v, 1, 1, 1, [v](const Inputs& in, const Attributes& a) {
            check_attributes("Hardmax", v, a, {{"axis", "int"}});
            return std::vector<Tensor>{hardmax(v, *in[0], int_attribute(a, "axis", hardmax_default_axis(v)))};
          },
          [v](const Attributes& a) { check_attributes("Hardmax", v, a, {{"axis", "int"}}); },
          [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
            return decide_hardmax(v, values, int_attribute(a, "axis", hardmax_default_axis(v)), a.count("axis") > 0, i);
          },
          [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
            return reach_hardmax(v, values, int_attribute(a, "axis", hardmax_default_axis(v)), sources);
          }};
}

std::vector<OpVersion> make_table() {
  std::vector<OpVersion> t;
  for (int v : {1, 6, 8, 12, 13}) t.push_back(max_version(v));
  for (int v : {1, 11, 12, 13, 18, 20}) t.push_back(reducemax_version(v));
  for (int v : {1, 11, 13}) t.push_back(hardmax_version(v));
  return t;
}

}  // namespace

const std::vector<OpVersion>& all_versions() {
  static const std::vector<OpVersion> table = make_table();
  return table;
}

std::string supported_operators() {
  std::string out, current;
  for (const OpVersion& v : all_versions()) {
    if (v.op_type != current) {
      out += (out.empty() ? "" : "; ") + v.op_type + " ";
      current = v.op_type;
    } else {
      out += ", ";
    }
    out += std::to_string(v.since_version);
  }
  return out;
}

const OpVersion& resolve(const std::string& op_type, std::int64_t opset) {
  const OpVersion* best = nullptr;
  bool known = false;
  for (const OpVersion& v : all_versions()) {
    if (v.op_type != op_type) continue;
    known = true;
    // [Graph.opset.resolve] the greatest since_version <= opset
    if (v.since_version <= opset && (!best || v.since_version > best->since_version)) best = &v;
  }
  if (!known)
    refuse("Graph.opset.unsupported", "operator '{}' is not supported (supported: {})", op_type, supported_operators());
  if (!best)
    refuse("Graph.opset.unsupported", "{} has no version at opset {} (supported: {})", op_type, opset,
           supported_operators());
  return *best;
}

}  // namespace sonnx::ops
