#include "oracle/coverage.hpp"

#include "core/index.hpp"

namespace sonnx::coverage {

std::string node_label(const graph::Model& model, std::size_t node) {
  const auto& n = model.nodes().at(node);
  const std::string op = fmt::format("{}-{}", n.op_type, n.version);
  return n.name.empty() ? fmt::format("an unnamed node #{} ({})", node, op) : fmt::format("node '{}' ({})", n.name, op);
}

ops::NodeValues node_values(const graph::NodeInfo& node, const std::map<std::string, Tensor>& values) {
  ops::NodeValues v;
  for (const auto& in : node.inputs) {
    v.inputs.push_back(in.empty() ? nullptr : &values.at(in));
    v.input_names.push_back(in);
  }
  v.output = &values.at(node.outputs.at(0));
  v.output_name = node.outputs.at(0);
  return v;
}

std::vector<NodeCoverage> account(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                  std::int64_t budget) {
  std::vector<NodeCoverage> out;
  const auto& nodes = model.nodes();
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto& node = nodes[k];
    if (!node.op) continue;  // a Constant decides nothing
    NodeCoverage c;
    c.node = k;
    c.label = node_label(model, k);
    const ops::NodeValues v = node_values(node, values);
    const Tensor& y = *v.output;
    for (std::int64_t offset = 0; offset < y.size(); ++offset) {
      if (offset >= budget) {
        c.skipped = y.size() - offset;
        break;
      }
      const auto index = index_of(y.shape(), offset);
      for (const auto& s : node.op->decide(v, node.attributes, index).situations)
        c.exercised.try_emplace(s, Witness{v.output_name, index});
      ++c.elements;
    }
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
    ops::Source s = ops::Source::Fixed;
    if (node.op_type == "Hardmax") {
      s = ops::Source::OneHot;
    } else if (node.op) {
      bool all_free = true, all_one_hot = true;
      for (std::size_t m = 0; m < node.inputs.size(); ++m) {
        if (node.inputs[m].empty() || (node.op_type == "ReduceMax" && m == 1)) continue;  // axes select, not values
        auto it = out.find(node.inputs[m]);
        const ops::Source in = it == out.end() ? ops::Source::Fixed : it->second;  // an initializer
        all_free = all_free && in == ops::Source::Free;
        all_one_hot = all_one_hot && in == ops::Source::OneHot;
      }
      s = all_free ? ops::Source::Free : all_one_hot ? ops::Source::OneHot : ops::Source::Fixed;
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
