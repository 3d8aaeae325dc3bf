#include "oracle/coverage.hpp"

#include <algorithm>

#include "core/index.hpp"
#include "ops/registry.hpp"

namespace sonnx::coverage {

std::string node_label(const graph::Model& model, std::size_t node) {
  const auto& n = model.nodes().at(node);
  const std::string op = n.version > 0 ? fmt::format("{}-{}", n.op_type, n.version) : n.op_type;
  return n.name.empty() ? fmt::format("an unnamed node #{} ({})", node, op) : fmt::format("node '{}' ({})", n.name, op);
}

ops::NodeValues node_values(const graph::NodeInfo& node, const std::map<std::string, Tensor>& values,
                            std::size_t output) {
  ops::NodeValues v;
  for (const auto& in : node.inputs) {
    v.inputs.push_back(in.empty() ? nullptr : &values.at(in));
    v.input_names.push_back(in);
  }
  v.output = &values.at(node.outputs.at(output));
  v.output_name = node.outputs.at(output);
  v.output_index = output;
  v.outputs = node.outputs.size();
  return v;
}

NodeCoverage account_node(const graph::NodeInfo& node, const ops::NodeValues& v, std::int64_t budget,
                          std::int64_t member_budget) {
  NodeCoverage c;
  const Tensor& y = *v.output;
  std::int64_t members = 0;  // the members of the sets decided so far (a computed element's terms)
  for (std::int64_t offset = 0; offset < y.size(); ++offset) {
    if (offset >= budget || members >= member_budget) {
      c.skipped = y.size() - offset;
      break;
    }
    const auto index = index_of(y.shape(), offset);
    const ops::Decision d = node.op->decide(v, node.attributes, index);
    for (const auto& s : d.situations) c.exercised.try_emplace(s, Witness{v.output_name, index});
    members += std::max<std::int64_t>(1, d.computed ? d.computed->terms : d.set.size);
    ++c.elements;
  }
  return c;
}

std::vector<NodeCoverage> account(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                  std::int64_t budget, std::int64_t member_budget) {
  std::vector<NodeCoverage> out;
  const auto& nodes = model.nodes();
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto& node = nodes[k];
    if (!node.op) continue;  // a Constant decides nothing
    NodeCoverage c = account_node(node, node_values(node, values), budget, member_budget);
    c.node = k;
    c.label = node_label(model, k);
    out.push_back(std::move(c));
  }
  return out;
}

std::map<std::string, ops::Source> sources(const graph::Model& model, const std::set<std::string>& drawn) {
  std::map<std::string, ops::Source> out;
  for (const auto& in : model.inputs()) out[in.name] = drawn.count(in.name) ? ops::Source::Free : ops::Source::Fixed;
  for (const auto& in : model.overridable_inputs())
    out[in.name] = drawn.count(in.name) ? ops::Source::Free : ops::Source::Fixed;
  for (const auto& node : model.nodes()) {
    ops::Source s = ops::Source::Fixed;  // a Constant
    if (node.op) {
      std::vector<std::optional<ops::Source>> in;  // nullopt: an absent input
      for (const auto& name : node.inputs) {
        auto it = out.find(name);
        if (name.empty()) in.push_back(std::nullopt);
        else in.push_back(it == out.end() ? ops::Source::Fixed : it->second);  // not found: an initializer
      }
      s = node.op->output_source ? node.op->output_source(in) : ops::selection_source(*node.op, in);
    }
    for (const auto& o : node.outputs)
      if (!o.empty()) out[o] = s;
  }
  return out;
}

std::vector<std::vector<ops::Reach>> reach(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                           const std::map<std::string, ops::Source>& sources) {
  std::vector<std::vector<ops::Reach>> out;
  for (const auto& node : model.nodes()) {
    if (!node.op) {
      out.emplace_back();
      continue;
    }
    const ops::NodeValues v = node_values(node, values);
    std::vector<ops::Source> in;
    for (const auto& name : node.inputs) {
      auto it = sources.find(name);
      in.push_back(it == sources.end() ? ops::Source::Fixed : it->second);
    }
    auto r = node.op->reach(v, node.attributes, in);
    if (v.output->size() == 0)  // [Common.tensor.empty] no element to decide
      for (auto& x : r) x.reachable = false, x.why = fmt::format("the output '{}' is empty", v.output_name);
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::ordered_json to_json(const Witness& w) { return {{"value", w.value}, {"index", w.index}}; }

nlohmann::ordered_json to_json(const std::vector<NodeCoverage>& c) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& n : c)
    for (const auto& [s, w] : n.exercised)
      j.push_back({{"node", n.label}, {"clause", s.clause}, {"situation", s.detail}, {"witness", to_json(w)}});
  return j;
}

}  // namespace sonnx::coverage
