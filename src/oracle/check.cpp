// spec/common/check.md — whole-model judging: [Check.missing], [Check.shape], [Check.verdict],
// [Check.attribution], [Check.coverage], [Check.cases]; element comparison in compare.cpp
// ([Check.bitwise], [Check.ulp]); reading in actual.cpp, node-wise judging in nodewise.cpp, rendering
// in render.cpp.
#include "oracle/check.hpp"

#include "ops/computed.hpp"

#include <algorithm>
#include <set>

#include "core/index.hpp"
#include "io/io.hpp"
#include "oracle/nodewise.hpp"

namespace sonnx::check {

using Status = OutputVerdict::Status;
using NodeStatus = NodeVerdict::Status;

namespace {

const io::NamedTensor* find_tensor(const Actual& a, const std::string& name) {
  auto it = std::find_if(a.tensors.begin(), a.tensors.end(), [&](const io::NamedTensor& t) { return t.name == name; });
  return it == a.tensors.end() ? nullptr : &*it;
}

// [Check.attribution] Every node whose output the implementation under test gave, judged on the
// values it gave for the node's inputs (the reference's values for those it did not give).
std::vector<NodeVerdict> judge_nodes(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
                                     const compare::Options& options) {
  std::vector<NodeVerdict> out;
  const auto& nodes = model.nodes();
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto& node = nodes[k];
    if (!node.op) continue;
    // The node's inputs as the implementation under test had them (the reference's values for those it did not give).
    std::map<std::string, Tensor> values;
    for (const auto& name : node.inputs) {
      if (name.empty()) continue;
      const io::NamedTensor* a = find_tensor(actual, name);
      values[name] = a ? a->tensor : expected.values().at(name);
    }
    std::optional<std::vector<Tensor>> results;  // the node run on them, once, when one of its outputs was given
    std::string refused;
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {  // every output the node names, each its own verdict
      if (node.outputs[o].empty()) continue;
      NodeVerdict nv;
      nv.label = coverage::node_label(model, k);
      nv.output = node.outputs[o];
      const io::NamedTensor* given = find_tensor(actual, nv.output);
      if (!given) {
        nv.status = NodeStatus::NotObserved;
        nv.detail = "the implementation under test did not give its output";
        out.push_back(std::move(nv));
        continue;
      }
      if (!results && refused.empty()) {
        ops::Inputs in(node.inputs.size(), nullptr);  // an absent optional input stays nullptr
        for (std::size_t m = 0; m < node.inputs.size(); ++m)
          if (!node.inputs[m].empty()) in[m] = &values.at(node.inputs[m]);
        try {
          results = node.op->run(in, node.attributes, node.outputs.size());
        } catch (const SpecError& e) {
          refused = "the values it was given are refused: " + e.report();
        }
      }
      if (!results) {
        nv.status = NodeStatus::Refused;
        nv.detail = refused;
        out.push_back(std::move(nv));
        continue;
      }
      std::map<std::string, Tensor> node_values = values;
      for (std::size_t q = 0; q < node.outputs.size(); ++q)
        if (!node.outputs[q].empty()) node_values[node.outputs[q]] = (*results)[q];
      const ops::NodeValues v = coverage::node_values(node, node_values, o);
      nv.verdict = compare_value(nv.output, node_values.at(nv.output), &given->tensor, options,
                                 [&](const std::vector<std::int64_t>& i) {
                                   const ops::Decision d = node.op->decide(v, node.attributes, i);
                                   return std::pair{d.clauses, d.reason};
                                 },
                                 flush_of(node, v));
      nv.status = nv.verdict.status == Status::Conforms ? NodeStatus::Conforms : NodeStatus::Differs;
      out.push_back(std::move(nv));
    }
  }
  return out;
}

// [Check.attribution] The first node upstream of `value` (in evaluation order) that does not conform
// on its own inputs.
std::string upstream_fault(const graph::Model& model, const std::vector<NodeVerdict>& nodes, const std::string& value) {
  std::set<std::string> ancestors = {value}, frontier = {value};
  while (!frontier.empty()) {
    std::set<std::string> next;
    for (const auto& n : model.nodes())
      for (const auto& o : n.outputs)
        if (frontier.count(o))
          for (const auto& i : n.inputs)
            if (!i.empty() && ancestors.insert(i).second) next.insert(i);
    frontier = std::move(next);
  }
  for (const auto& nv : nodes)
    if (ancestors.count(nv.output) && nv.output != value &&
        (nv.status == NodeStatus::Differs || nv.status == NodeStatus::Refused))
      return nv.label;
  return "(unknown: no node upstream was observed to differ)";
}

}  // namespace

FlushElement flush_of(const graph::NodeInfo& node, const ops::NodeValues& v) {
  return [&node, &v](const std::vector<std::int64_t>& i) {  // [Acc.hyp.ftz]
    const ops::Decision d = node.op->decide(v, node.attributes, i);
    return d.computed ? ops::flush_margin(v, *d.computed) : 0.0;
  };
}

OutputVerdict compare_value(const std::string& name, const Tensor& e, const Tensor* actual, const compare::Options& options,
                            const DecideElement& decide, const FlushElement& flush) {
  constexpr std::size_t kClassified = 65536;  // mismatches counted by their deciding clause ([Check.verdict])
  OutputVerdict ov;
  ov.name = name;
  ov.dtype = std::string(sonnx::name(e.dtype()));
  ov.shape = e.shape();
  ov.elements = e.size();
  if (actual == nullptr) {  // [Check.missing]
    ov.status = Status::Missing;
    ov.id = "Check.missing";
    ov.detail = "absent from ACTUAL";
    return ov;
  }
  compare::Options o = options;
  o.max_offsets = kClassified;
  if (o.flush_subnormals && flush)  // [Acc.hyp.ftz]
    o.flush_margin = [&](std::int64_t offset) { return flush(index_of(e.shape(), offset)); };
  const compare::Result r = compare::compare(e, *actual, o);
  if (!r.structural.empty()) {  // [Check.shape] no element is compared
    ov.status = Status::Structure;
    ov.id = "Check.shape";
    ov.detail = r.structural;
    return ov;
  }
  ov.id = r.accuracy ? compare::kAccuracyClause : options.ulp_mode ? "Check.ulp" : "Check.bitwise";
  ov.accuracy = r.accuracy;
  if (r.worst) {  // [Acc.report] the largest fraction of the radius
    auto [clauses, reason] = decide(r.worst->index);
    ov.worst = Finding{*r.worst, clauses, reason};
  }
  ov.mismatches = r.mismatches;
  ov.status = r.conforms ? Status::Conforms : Status::Mismatch;
  for (const compare::Mismatch& m : r.first) {  // [Check.verdict] the clause that determines the expected value
    auto [clauses, reason] = decide(m.index);
    ov.findings.push_back({m, clauses, reason});
  }
  ov.nan_payload_only = r.nan_payload_only;  // [Check.nan-payload.any] noted, with their deciding clauses
  ov.nan_payload_strict = options.nan_payload_strict;
  for (const compare::Mismatch& m : r.nan_payload_first) {
    auto [clauses, reason] = decide(m.index);
    ov.nan_payload_notes.push_back({m, clauses, reason});
  }
  for (std::int64_t offset : r.offsets) {
    auto [clauses, reason] = decide(index_of(e.shape(), offset));
    ++ov.by_clause[clauses.empty() ? std::string("(none)") : clauses.front()];
  }
  if (r.mismatches > static_cast<std::int64_t>(r.offsets.size()))
    ov.by_clause["(not classified)"] += r.mismatches - static_cast<std::int64_t>(r.offsets.size());
  return ov;
}

Verdict judge(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
              const compare::Options& options) {
  Verdict v;
  v.notes = actual.notes;
  // [Check.attribution] when the actual values include one that a node reads (an intermediate value,
  // or a graph output that feeds another node), every node is judged on the values it was given.
  const bool feeds_a_node = std::any_of(actual.tensors.begin(), actual.tensors.end(), [&](const io::NamedTensor& t) {
    return std::any_of(model.nodes().begin(), model.nodes().end(), [&](const graph::NodeInfo& n) {
      return n.op && std::find(n.inputs.begin(), n.inputs.end(), t.name) != n.inputs.end();
    });
  });
  if (feeds_a_node) v.nodes = judge_nodes(model, expected, actual, options);
  for (const auto& o : model.outputs()) {
    const io::NamedTensor* a = find_tensor(actual, o.name);
    OutputVerdict ov = compare_value(o.name, expected.values().at(o.name), a ? &a->tensor : nullptr, options,
                                     [&](const std::vector<std::int64_t>& i) {
                                       const explain::Step s = expected.step(o.name, i);
                                       return std::pair{s.clauses, s.reason};
                                     },
                                     [&](const std::vector<std::int64_t>& i) {  // [Acc.hyp.ftz]
                                       const explain::Step s = expected.step(o.name, i);
                                       return s.accuracy ? s.accuracy->flush : 0.0;
                                     });
    if (ov.accuracy && ov.worst) ov.producer = expected.step(o.name, ov.worst->mismatch.index).producer;  // [Acc.report]
    if (ov.status == Status::Mismatch || ov.status == Status::Structure) {
      auto own = std::find_if(v.nodes.begin(), v.nodes.end(), [&](const NodeVerdict& n) { return n.output == o.name; });
      if (own != v.nodes.end() && own->status == NodeStatus::Conforms) ov.propagated_from = upstream_fault(model, v.nodes, o.name);
    }
    v.conforms = v.conforms && ov.status == Status::Conforms;
    v.outputs.push_back(std::move(ov));
  }
  for (const auto& x : actual.extra) {  // [Check.missing] an extra actual output is a non-conformance
    OutputVerdict ov;
    ov.name = x;
    ov.status = Status::Extra;
    ov.id = "Check.missing";
    ov.detail = "names no value of the graph";
    v.conforms = false;
    v.outputs.push_back(std::move(ov));
  }
  v.coverage = coverage::account(model, expected.values());  // [Check.coverage]
  return v;
}

std::string nodewise_reason(const graph::Model& model, bool nodes) {
  if (nodes) return "--nodes";
  if (!model.complete())
    return fmt::format("the model has {} node(s) outside the spec", std::count_if(model.nodes().begin(), model.nodes().end(),
                                                                                  [](const graph::NodeInfo& n) { return !n.judged(); }));
  // [Acc.verdict] a computed value read by another node: that node is judged on the implementation's own value
  for (std::size_t k = 0; k < model.nodes().size(); ++k) {
    const auto& n = model.nodes()[k];
    if (!n.op || !n.op->computes) continue;
    for (const auto& reader : model.nodes())
      for (const auto& in : reader.inputs)
        if (!in.empty() && std::find(n.outputs.begin(), n.outputs.end(), in) != n.outputs.end())
          return fmt::format("the computed value '{}' of {} is read by another node, which is judged on the implementation's "
                             "own value of it [Acc.verdict]", in, coverage::node_label(model, k));
  }
  return "";
}

Campaign judge_cases(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options,
                     bool nodewise, const Progress& progress, const NodeRun& run) {
  if (nodewise || !nodewise_reason(model, false).empty())  // [Check.nodewise]
    return judge_cases_nodewise(model, cases, options, progress, run);
  Campaign c;
  for (const auto& k : cases) {
    const explain::Explainer expected(model, model.run_all(k.feeds));
    CaseVerdict cv{k.name, judge(model, expected, k.actual, options)};
    c.conforms = c.conforms && cv.verdict.conforms;
    c.failing_cases += !cv.verdict.conforms;
    std::int64_t payload_only = 0;
    for (const auto& o : cv.verdict.outputs) {
      c.outputs += o.status != Status::Extra;
      c.elements += o.elements;
      c.mismatches += o.mismatches;
      payload_only += o.nan_payload_only;
      for (const auto& [clause, n] : o.by_clause) c.by_clause[clause] += n;
    }
    c.nan_payload_only += payload_only;  // [Check.nan-payload.any] over the cases
    c.nan_payload_cases += payload_only > 0;
    for (const auto& n : cv.verdict.coverage)
      for (const auto& [s, w] : n.exercised) c.exercised[n.label].try_emplace(s, k.name);
    c.cases.push_back(std::move(cv));
    if (progress) progress(c.cases.size(), cases.size());
  }
  return c;
}

}  // namespace sonnx::check
