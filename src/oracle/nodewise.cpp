// spec/common/check.md — [Check.nodewise], [Check.nodewise.constant], [Check.nodewise.dump], [Check.nodewise.missing],
// [Check.nodewise.verdict]: each node judged on the values the implementation under test gave it.
#include "oracle/nodewise.hpp"

#include "ops/computed.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

#include "oracle/coverage.hpp"

namespace sonnx::check {

using Status = NodeJudgement::Status;

namespace {

// [Check.coverage] Output elements examined per judged node for the situations they exercise.
// 4096 keeps the node-wise check of a real network fast (SqueezeNet: 29 nodes in 0.2 s; 65536 as for whole
// models: 1.4 s). The mismatching elements are classified by clause apart from it (compare_value).
// Computed nodes: no more elements once their terms number 2^14 (VGG-19's Conv nodes, 4608 terms an
// element: 4 elements; the node-wise check of VGG-19 took 108 s with the 4096 elements alone). Deciding
// an element's clauses costs far more than computing it: at 2^18 the accounting was 89% of SqueezeNet's
// node-wise check (2.5 s, its run 0.2 s); the first elements of a Conv already meet its padded windows.
constexpr std::int64_t kCoverageBudget = std::int64_t{1} << 12, kCoverageMembers = std::int64_t{1} << 14;

std::string value_text(DType t, const Shape& s) { return fmt::format("{} {}", name(t), to_string(s)); }

std::string declared_text(const graph::ValueType& v) {
  const std::string type = v.dtype ? std::string(name(*v.dtype)) : fmt::format("ONNX type {}", v.elem_type);
  return v.shape ? fmt::format("{} {}", type, graph::declared_shape_text(v.shape)) : type;
}

// The values each name holds for the judging: the IUT's where ACTUAL has them, else the case's inputs,
// the model's initializers and Constant values. Never a value the reference computed for a node.
class Values {
 public:
  Values(const graph::Model& model, const std::vector<io::NamedTensor>& feeds, const Actual& actual) {
    for (std::size_t p = 0; p < model.nodes().size(); ++p)
      if (const Tensor* c = model.constant(p)) known_[model.nodes()[p].outputs.at(0)] = c;  // [Graph.constant]
    for (const auto& n : model.nodes())
      for (const auto& in : n.inputs)
        if (const Tensor* t = model.initializer(in)) known_[in] = t;  // [Graph.initializer]
    for (const auto& f : feeds) known_[f.name] = &f.tensor;  // a feed overrides an initializer
    for (const auto& t : actual.tensors) known_[t.name] = &t.tensor;  // the IUT's own values first
    for (const auto& t : actual.tensors) given_.insert(t.name);
  }
  const Tensor* find(const std::string& n) const {
    auto it = known_.find(n);
    return it == known_.end() ? nullptr : it->second;
  }
  bool given(const std::string& n) const { return given_.count(n) > 0; }

 private:
  std::map<std::string, const Tensor*> known_;
  std::set<std::string> given_;
};

// The producer of each value, by label (for "not in ACTUAL: the output of node 'n0' (Conv)").
std::map<std::string, std::string> producers(const graph::Model& model) {
  std::map<std::string, std::string> out;
  for (std::size_t p = 0; p < model.nodes().size(); ++p)
    for (const auto& o : model.nodes()[p].outputs)
      if (!o.empty()) out[o] = coverage::node_label(model, p);
  return out;
}

std::string names_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

// [Check.nodewise.constant] A Constant node: ACTUAL's value of its output against the model's value
// ([Graph.constant]), bit for bit (or within --ulp); not judged when ACTUAL does not hold it.
NodeJudgement judge_constant(const graph::Model& model, std::size_t p, const Values& values,
                             const compare::Options& options, NodeJudgement j) {
  const std::string& out = model.nodes()[p].outputs.at(0);
  if (!values.given(out)) {
    j.reason = fmt::format("its output '{}' is not in ACTUAL", out);
    j.clause = "Check.nodewise.missing";
    return j;
  }
  const Tensor& value = *model.constant(p);
  OutputVerdict ov = compare_value(out, value, values.find(out), options, [](const std::vector<std::int64_t>&) {
    return std::pair{std::vector<std::string>{"Graph.constant"}, std::string("the model's constant")};
  });
  j.status = ov.status == OutputVerdict::Status::Conforms ? Status::Conforms : Status::Differs;
  j.coverage.node = p;
  j.coverage.label = j.label;
  j.coverage.elements = value.size();
  j.coverage.exercised[ops::Situation{"Graph.constant", ""}] = sonnx::coverage::Witness{out, {}};
  j.outputs.push_back(std::move(ov));
  return j;
}

NodeJudgement judge_node(const graph::Model& model, std::size_t p, const Values& values,
                         const std::map<std::string, std::string>& producer, const compare::Options& options) {
  const graph::NodeInfo& node = model.nodes()[p];
  NodeJudgement j;
  j.label = coverage::node_label(model, p);
  j.name = node.name;
  j.op_type = node.op_type;
  j.version = node.version;
  if (!node.judged()) {  // [Graph.partial] outside the spec: why, and the clause that says so
    j.reason = node.not_judged;
    j.clause = node.not_judged_clause;
    return j;
  }
  if (!node.op) return judge_constant(model, p, values, options, std::move(j));  // [Check.nodewise.constant]
  // [Check.nodewise.missing] every input from the IUT (or the case's inputs, the model's constants),
  // never from the reference
  ops::NodeValues v;
  std::vector<std::string> missing;
  for (const auto& in : node.inputs) {
    const Tensor* t = in.empty() ? nullptr : values.find(in);
    if (!in.empty() && !t) missing.push_back(in);
    v.inputs.push_back(t);
    v.input_names.push_back(in);
  }
  if (!missing.empty()) {
    j.reason = fmt::format("its input {} is not in ACTUAL{}", names_text(missing),
                           producer.count(missing.front()) ? " (the output of " + producer.at(missing.front()) + ")" : "");
    j.clause = "Check.nodewise.missing";
    return j;
  }
  std::vector<std::size_t> given;
  for (std::size_t q = 0; q < node.outputs.size(); ++q) {
    if (node.outputs[q].empty()) continue;
    if (values.given(node.outputs[q])) given.push_back(q);
    else j.not_given.push_back(node.outputs[q]);
  }
  if (given.empty()) {
    j.reason = fmt::format("its output {} is not in ACTUAL", names_text(j.not_given));
    j.clause = "Check.nodewise.missing";
    j.not_given.clear();
    return j;
  }
  std::vector<Tensor> results;
  try {
    results = node.op->run(v.inputs, node.attributes, node.outputs.size());
  } catch (const SpecError& e) {  // the spec refuses the node on the values the IUT gave it
    j.status = Status::Differs;
    j.reason = "the spec refuses the node on the values it was given: " + e.report();
    j.clause = e.id();
    return j;
  }
  j.status = Status::Conforms;
  v.outputs = node.outputs.size();
  for (std::size_t q : given) {
    v.output = &results.at(q);
    v.output_name = node.outputs[q];
    v.output_index = q;
    OutputVerdict ov = compare_value(node.outputs[q], results[q], values.find(node.outputs[q]), options,
                                     [&](const std::vector<std::int64_t>& i) {
                                       const ops::Decision d = node.op->decide(v, node.attributes, i);
                                       return std::pair{d.clauses, d.reason};
                                     },
                                     check::flush_of(node, v));
    if (ov.status != OutputVerdict::Status::Conforms) j.status = Status::Differs;
    if (q == given.front()) {  // [Check.coverage] the clauses the expected values of its first output rest on
      j.coverage = coverage::account_node(node, v, kCoverageBudget, kCoverageMembers);
      j.coverage.node = p;
      j.coverage.label = j.label;
    }
    j.outputs.push_back(std::move(ov));
  }
  return j;
}

}  // namespace

void check_dump(const graph::Model& model, const Actual& actual, const std::map<std::string, graph::ValueType>& types) {
  // [Check.nodewise.dump] every name is a value of the model
  if (!actual.extra.empty())
    refuse("Check.nodewise.dump", "ACTUAL holds {} value(s) the model does not have: {}; nothing is judged on values "
           "that may belong to another model", actual.extra.size(), names_text(actual.extra));
  std::set<std::string> judged_outputs;  // [Check.shape] judged with their node
  for (const auto& n : model.nodes())
    if (n.judged()) judged_outputs.insert(n.outputs.begin(), n.outputs.end());  // Constant nodes too
  for (const auto& t : actual.tensors) {
    if (judged_outputs.count(t.name)) continue;
    auto it = types.find(t.name);
    if (it == types.end()) continue;  // the model says nothing of it
    const graph::ValueType& want = it->second;
    bool fits = want.elem_type == 0 || (want.dtype && *want.dtype == t.tensor.dtype());
    if (fits && want.shape) {
      const Shape& s = t.tensor.shape();
      fits = s.size() == want.shape->size();
      for (std::size_t k = 0; fits && k < s.size(); ++k) fits = !(*want.shape)[k] || *(*want.shape)[k] == s[k];
    }
    if (!fits)
      refuse("Check.nodewise.dump", "ACTUAL's value '{}' is {} but the model gives it {} ([Graph.infer]); nothing is "
             "judged on it", t.name, value_text(t.tensor.dtype(), t.tensor.shape()), declared_text(want));
  }
}

namespace {

// [Check.nodewise.jobs] Every node of the main graph judged, `jobs` at a time: a node is judged whole by
// one thread (its evaluation keeps its fixed order), into its own slot, so the verdict is the same for
// every number of threads. An exception of any node is rethrown once every thread has stopped.
std::vector<NodeJudgement> judge_all(const graph::Model& model, const Values& values,
                                     const std::map<std::string, std::string>& producer, const compare::Options& options,
                                     const NodeRun& run) {
  const std::size_t n = model.nodes().size();
  std::vector<NodeJudgement> out(n);
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;  // guards done, failure and the progress callback
  std::exception_ptr failure;
  const auto work = [&] {
    for (std::size_t p = next++; p < n; p = next++) {
      try {
        out[p] = judge_node(model, p, values, producer, options);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = n;  // no node after a failure
        return;
      }
      const std::lock_guard lock(mutex);
      ++done;
      if (run.node_progress) run.node_progress(done, n, out[p].label);
    }
  };
  const std::size_t threads = std::min(std::max<std::size_t>(run.jobs, 1), std::max<std::size_t>(n, 1));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace

Verdict judge_nodewise(const graph::Model& model, const std::vector<io::NamedTensor>& feeds, const Actual& actual,
                       const compare::Options& options, const std::map<std::string, graph::ValueType>& types,
                       const NodeRun& run) {
  model.check_feeds(feeds);  // [Graph.feed.*] the case's inputs as for a run
  check_dump(model, actual, types);  // [Check.nodewise.dump]
  Verdict v;
  v.nodewise = true;
  v.notes = actual.notes;
  const Values values(model, feeds, actual);
  const auto producer = producers(model);
  v.judgements = judge_all(model, values, producer, options, run);  // [Check.nodewise.jobs]
  for (const auto& s : model.subgraph_nodes()) {  // [Graph.partial.subgraph] never judged
    NodeJudgement j;
    j.label = s.name.empty() ? fmt::format("an unnamed {} node {}", s.op_type, s.where)
                             : fmt::format("node '{}' ({}) {}", s.name, s.op_type, s.where);
    j.name = s.name;
    j.op_type = s.op_type;
    j.reason = "it is inside a subgraph, which the node-wise check does not enter";
    j.clause = "Graph.partial.subgraph";
    v.judgements.push_back(std::move(j));
  }
  const NodewiseSummary sum = summarize(v.judgements);
  v.conforms = sum.all.judged > 0 && sum.all.differing == 0;  // [Check.nodewise.verdict] judging nothing is no pass
  return v;
}

NodewiseSummary summarize(const std::vector<NodeJudgement>& nodes) {
  NodewiseSummary s;
  for (const auto& j : nodes)
    for (NodeCounts* c : {&s.all, &s.by_operator[j.op_type]}) {
      ++c->nodes;
      c->judged += j.status != Status::NotJudged;
      c->conforming += j.status == Status::Conforms;
      c->differing += j.status == Status::Differs;
      c->not_judged += j.status == Status::NotJudged;
    }
  return s;
}

Campaign judge_cases_nodewise(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options,
                               const Progress& progress, const NodeRun& run) {
  graph::check_unique_node_names(model);  // [Graph.node.unique-names] a node is named in the verdict
  const auto types = graph::infer_value_types(model);  // [Graph.infer]
  Campaign c;
  c.nodewise = true;
  std::vector<NodeJudgement> all;
  for (const auto& k : cases) {
    CaseVerdict cv{k.name, judge_nodewise(model, k.feeds, k.actual, options, types, run)};
    const std::string why = nodewise_reason(model, false);
    cv.verdict.nodewise_why = why.empty() ? "--nodes" : why;
    c.conforms = c.conforms && cv.verdict.conforms;
    c.failing_cases += !cv.verdict.conforms;
    std::int64_t payload_only = 0;
    for (const auto& j : cv.verdict.judgements) {
      all.push_back(j);
      all.back().outputs.clear();  // only the counts are kept across cases
      for (const auto& o : j.outputs) {
        c.outputs += 1;
        c.elements += o.elements;
        c.mismatches += o.mismatches;
        payload_only += o.nan_payload_only;  // [Check.nan-payload.any]
        for (const auto& [clause, n] : o.by_clause) c.by_clause[clause] += n;
      }
      for (const auto& [s, w] : j.coverage.exercised) c.exercised[j.label].try_emplace(s, k.name);
    }
    c.nan_payload_only += payload_only;
    c.nan_payload_cases += payload_only > 0;
    c.cases.push_back(std::move(cv));
    if (progress) progress(c.cases.size(), cases.size());
  }
  c.nodes = summarize(all);
  if (cases.empty()) c.conforms = false;
  return c;
}

}  // namespace sonnx::check
