// spec/common/check.md — [Check.missing], [Check.shape], [Check.verdict], [Check.attribution],
// [Check.coverage], [Check.cases]; element comparison in compare.cpp ([Check.bitwise], [Check.ulp]).
#include "oracle/check.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "core/index.hpp"
#include "io/io.hpp"

namespace sonnx::check {

namespace fs = std::filesystem;
using Status = OutputVerdict::Status;
using NodeStatus = NodeVerdict::Status;

namespace {

// Every value name of the graph: inputs, initializers read by nodes, node outputs.
std::set<std::string> value_names(const graph::Model& model) {
  std::set<std::string> names;
  for (const auto& in : model.inputs()) names.insert(in.name);
  for (const auto& in : model.overridable_inputs()) names.insert(in.name);
  for (const auto& n : model.nodes()) {
    names.insert(n.inputs.begin(), n.inputs.end());
    names.insert(n.outputs.begin(), n.outputs.end());
  }
  names.erase("");
  return names;
}

// The element type of a value, as far as the model tells without running it ([IO.npy.bfloat16]
// needs it to read bfloat16 bits): declared inputs and outputs, and node outputs — the type the
// operator states for the output (OpVersion::output_dtype), else their first input's.
std::optional<DType> dtype_of_value(const graph::Model& model, const std::string& name, int depth) {
  if (auto t = model.declared_input_type(name)) return t;
  for (const auto& o : model.outputs())
    if (o.name == name && o.dtype) return o.dtype;
  if (depth > 256) return std::nullopt;
  for (const auto& n : model.nodes()) {
    const auto k = std::find(n.outputs.begin(), n.outputs.end(), name);
    if (!n.op || k == n.outputs.end() || n.inputs.empty()) continue;
    if (n.op->output_dtype)
      if (auto t = n.op->output_dtype(static_cast<std::size_t>(k - n.outputs.begin()))) return t;
    return dtype_of_value(model, n.inputs[0], depth + 1);
  }
  return std::nullopt;
}

// Values by name: graph outputs and other values; names that match nothing are extra. With
// `inputs`, the graph inputs among them are the case's inputs (a bundle).
void add_values(const graph::Model& model, std::vector<io::NamedTensor> tensors, const std::set<std::string>& names,
                Actual& a, std::vector<io::NamedTensor>* inputs = nullptr) {
  for (auto& t : tensors) {
    const bool is_input = std::any_of(model.inputs().begin(), model.inputs().end(), [&](const graph::ValueInfo& v) { return v.name == t.name; }) ||
                          std::any_of(model.overridable_inputs().begin(), model.overridable_inputs().end(),
                                      [&](const graph::ValueInfo& v) { return v.name == t.name; });
    if (inputs && is_input) inputs->push_back(std::move(t));  // a bundle: the case's inputs
    else if (!names.count(t.name)) a.extra.push_back(t.name);  // [Check.missing] names no value of the graph
    else if (!is_input) a.tensors.push_back(std::move(t));
  }
}

void add_npz(const graph::Model& model, const std::string& path, const std::set<std::string>& names, Actual& a,
             std::vector<io::NamedTensor>* inputs = nullptr) {
  add_values(model, io::read_npz(path, [&](const std::string& n) { return value_dtype(model, n); }), names, a, inputs);
}

// The *.npz files directly in a folder, sorted by name.
std::vector<fs::path> npz_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".npz" && it->is_regular_file(ec)) out.push_back(it->path());
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", dir.string(), ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<DType> value_dtype(const graph::Model& model, const std::string& name) {
  return dtype_of_value(model, name, 0);
}

Actual actual_from_tensors(const graph::Model& model, std::vector<io::NamedTensor> tensors) {
  Actual a;
  add_values(model, std::move(tensors), value_names(model), a);
  return a;
}

Actual load_actual(const graph::Model& model, const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  const auto& outputs = model.outputs();
  const auto names = value_names(model);
  Actual a;
  if (!fs::exists(status))
    io_failure(fs::path(path).extension() == ".npz" ? "IO.npz.archive" : "IO.testdata.folder",
               "ACTUAL '{}' does not exist (ACTUAL is a .npz file or a test_data_set_N folder of output_K.pb files)", path);
  if (!fs::is_directory(status)) {
    add_npz(model, path, names, a);  // [IO.npz.archive] keys = value names
    return a;
  }
  // [Check.missing] in a test_data_set folder, output_K.pb is the K-th graph output
  auto tensors = io::read_test_data_set(path, "output");
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    if (k >= outputs.size()) {
      a.extra.push_back(fmt::format("output_{}.pb{}", k, tensors[k].name.empty() ? "" : " ('" + tensors[k].name + "')"));
      continue;
    }
    if (!tensors[k].name.empty() && tensors[k].name != outputs[k].name)
      a.notes.push_back(fmt::format("output_{}.pb is named '{}' but is judged as graph output {} '{}' (by position)", k,
                                    tensors[k].name, k, outputs[k].name));
    a.tensors.push_back({outputs[k].name, std::move(tensors[k].tensor)});
  }
  for (const auto& f : npz_files(path)) {  // [Check.attribution] values by name, intermediate ones included
    Actual more;
    add_npz(model, f.string(), names, more);
    for (auto& t : more.tensors)
      if (std::none_of(a.tensors.begin(), a.tensors.end(), [&](const io::NamedTensor& x) { return x.name == t.name; }))
        a.tensors.push_back(std::move(t));
    a.extra.insert(a.extra.end(), more.extra.begin(), more.extra.end());
  }
  return a;
}

namespace {

const io::NamedTensor* find_tensor(const Actual& a, const std::string& name) {
  auto it = std::find_if(a.tensors.begin(), a.tensors.end(), [&](const io::NamedTensor& t) { return t.name == name; });
  return it == a.tensors.end() ? nullptr : &*it;
}

// Compares one value with its expected value; `decide(index)` gives the clauses and reason of an
// expected element. The first max_listed mismatches are listed; up to kClassified are counted by
// the clause that decides their expected value.
constexpr std::size_t kClassified = 4096;
template <class Decide>
OutputVerdict compare_value(const std::string& name, const Tensor& e, const Tensor* actual, const compare::Options& options,
                            Decide decide) {
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
  const compare::Result r = compare::compare(e, *actual, o);
  if (!r.structural.empty()) {  // [Check.shape] no element is compared
    ov.status = Status::Structure;
    ov.id = "Check.shape";
    ov.detail = r.structural;
    return ov;
  }
  ov.id = options.ulp_mode ? "Check.ulp" : "Check.bitwise";
  ov.mismatches = r.mismatches;
  ov.status = r.conforms ? Status::Conforms : Status::Mismatch;
  for (const compare::Mismatch& m : r.first) {  // [Check.verdict] the clause that determines the expected value
    auto [clauses, reason] = decide(m.index);
    ov.findings.push_back({m, clauses, reason});
  }
  for (std::int64_t offset : r.offsets) {
    auto [clauses, reason] = decide(index_of(e.shape(), offset));
    ++ov.by_clause[clauses.empty() ? std::string("(none)") : clauses.front()];
  }
  if (r.mismatches > static_cast<std::int64_t>(r.offsets.size()))
    ov.by_clause["(not classified)"] += r.mismatches - static_cast<std::int64_t>(r.offsets.size());
  return ov;
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
                                 });
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
                                     });
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

std::string status_name(Status s) {
  switch (s) {
    case Status::Conforms: return "conforms";
    case Status::Mismatch: return "differs";
    case Status::Structure: return "shape";
    case Status::Missing: return "missing";
    case Status::Extra: return "extra";
  }
  return "?";
}

std::string status_name(NodeStatus s) {
  switch (s) {
    case NodeStatus::Conforms: return "conforms";
    case NodeStatus::Differs: return "differs";
    case NodeStatus::NotObserved: return "not observed";
    case NodeStatus::Refused: return "refused";
  }
  return "?";
}

namespace {

std::string ids_text(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "[" : " [") + id + "]";
  return out;
}

std::string comparison_text(const compare::Options& o) {
  return o.ulp_mode ? fmt::format("within {} ulp [Check.ulp]", o.ulp) : std::string("bitwise [Check.bitwise]");
}

std::string findings_text(const OutputVerdict& o, const std::string& indent) {
  std::string out;
  for (const auto& f : o.findings) {
    const auto& m = f.mismatch;
    out += fmt::format("{}{}: expected {} ({}), actual {} ({})\n", indent, explain::element_name(o.name, m.index), m.expected,
                       m.expected_bits, m.actual, m.actual_bits);
    out += fmt::format("{}    expected value by {}: {}\n", indent, ids_text(f.clauses), f.reason);
  }
  if (o.mismatches > static_cast<std::int64_t>(o.findings.size()))
    out += fmt::format("{}... {} more (--max-listed)\n", indent, o.mismatches - static_cast<std::int64_t>(o.findings.size()));
  return out;
}

std::string output_text(const OutputVerdict& o, const std::string& indent = "") {
  std::string out;
  switch (o.status) {
    case Status::Conforms:
      return fmt::format("{}output '{}': conforms ({} {}, {} element{}, [{}])\n", indent, o.name, o.dtype, to_string(o.shape),
                         o.elements, o.elements == 1 ? "" : "s", o.id);
    case Status::Structure:
      out = fmt::format("{}output '{}': DOES NOT CONFORM, dtype or shape differs: {} [{}]\n", indent, o.name, o.detail, o.id);
      break;
    case Status::Missing:
      return fmt::format("{}output '{}': DOES NOT CONFORM, {} [{}]\n", indent, o.name, o.detail, o.id);
    case Status::Extra:
      return fmt::format("{}actual value '{}': DOES NOT CONFORM, {} [{}]\n", indent, o.name, o.detail, o.id);
    case Status::Mismatch:
      out = fmt::format("{}output '{}': DOES NOT CONFORM, {} of {} element{} differ{} [{}]\n", indent, o.name, o.mismatches,
                        o.elements, o.elements == 1 ? "" : "s", o.mismatches == 1 ? "s" : "", o.id);
      break;
  }
  if (!o.propagated_from.empty())
    out += fmt::format("{}  propagated: the node producing '{}' conforms on the values it was given; the difference comes "
                       "from {} [Check.attribution]\n",
                       indent, o.name, o.propagated_from);
  return out + findings_text(o, indent + "  ");
}

std::string nodes_text(const std::vector<NodeVerdict>& nodes, const std::string& indent) {
  if (nodes.empty()) return "";
  std::string out = indent + "nodes, each on the values the implementation under test gave it [Check.attribution]:\n";
  for (const auto& n : nodes) {
    switch (n.status) {
      case NodeStatus::Conforms: out += fmt::format("{}  {}: conforms\n", indent, n.label); break;
      case NodeStatus::NotObserved: out += fmt::format("{}  {}: not observed ({})\n", indent, n.label, n.detail); break;
      case NodeStatus::Refused: out += fmt::format("{}  {}: DOES NOT CONFORM, {}\n", indent, n.label, n.detail); break;
      case NodeStatus::Differs:
        if (n.verdict.status == Status::Structure)
          out += fmt::format("{}  {}: DOES NOT CONFORM, dtype or shape of '{}' differs: {} [{}]\n", indent, n.label,
                             n.output, n.verdict.detail, n.verdict.id);
        else
          out += fmt::format("{}  {}: DOES NOT CONFORM, {} of {} element{} of '{}' differ{} [{}]\n", indent, n.label,
                             n.verdict.mismatches, n.verdict.elements, n.verdict.elements == 1 ? "" : "s", n.output,
                             n.verdict.mismatches == 1 ? "s" : "", n.verdict.id);
        out += findings_text(n.verdict, indent + "    ");
        break;
    }
  }
  return out;
}

std::string coverage_text(const std::vector<coverage::NodeCoverage>& c, const std::string& indent) {
  std::string out = indent + "clauses the expected values rest on [Check.coverage]:\n";
  for (const auto& n : c) {
    std::string list;
    for (const auto& [s, w] : n.exercised) list += (list.empty() ? "" : ", ") + s.text();
    out += fmt::format("{}  {}: {}{}\n", indent, n.label, list.empty() ? "(no element)" : list,
                       n.skipped ? fmt::format(" (first {} of {} elements examined)", n.elements, n.elements + n.skipped) : "");
  }
  return out;
}

nlohmann::ordered_json output_json(const OutputVerdict& o) {
  nlohmann::ordered_json oj;
  oj["name"] = o.name;
  oj["status"] = status_name(o.status);
  oj["conforms"] = o.status == Status::Conforms;
  oj["clause"] = o.id;
  if (!o.detail.empty()) oj["detail"] = o.detail;
  if (o.status != Status::Extra) {
    oj["dtype"] = o.dtype;
    oj["shape"] = o.shape;
    oj["elements"] = o.elements;
  }
  oj["mismatches"] = o.mismatches;
  oj["by_clause"] = o.by_clause;
  if (!o.propagated_from.empty()) oj["propagated_from"] = o.propagated_from;
  oj["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : o.findings) {
    const auto& m = f.mismatch;
    oj["findings"].push_back({{"index", m.index},
                              {"offset", m.offset},
                              {"expected", m.expected},
                              {"expected_bits", m.expected_bits},
                              {"actual", m.actual},
                              {"actual_bits", m.actual_bits},
                              {"clauses", f.clauses},
                              {"reason", f.reason}});
  }
  return oj;
}

nlohmann::ordered_json comparison_json(const compare::Options& options) {
  return {{"mode", options.ulp_mode ? "ulp" : "bitwise"},
          {"ulp", options.ulp_mode ? options.ulp : 0},
          {"clause", options.ulp_mode ? "Check.ulp" : "Check.bitwise"}};
}

}  // namespace

std::string to_text(const Verdict& v, const compare::Options& options) {
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  for (const auto& n : v.notes) out += "note: " + n + "\n";
  std::size_t bad = 0;
  for (const auto& o : v.outputs) {
    out += output_text(o);
    bad += o.status != Status::Conforms;
  }
  out += nodes_text(v.nodes, "");
  if (v.conforms)
    out += fmt::format("verdict: CONFORMS: every one of the {} output(s) conforms [Check.verdict]\n", v.outputs.size());
  else
    out += fmt::format("verdict: DOES NOT CONFORM: {} of {} output(s) do not conform [Check.verdict]\n", bad,
                       v.outputs.size());
  return out;
}

nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options) {
  nlohmann::ordered_json j;
  j["verdict"] = v.conforms ? "conforms" : "does not conform";
  j["conforms"] = v.conforms;
  j["clause"] = "Check.verdict";
  j["comparison"] = comparison_json(options);
  j["notes"] = v.notes;
  j["outputs"] = nlohmann::ordered_json::array();
  for (const auto& o : v.outputs) j["outputs"].push_back(output_json(o));
  j["nodes"] = nlohmann::ordered_json::array();
  for (const auto& n : v.nodes) {
    nlohmann::ordered_json nj = {{"node", n.label}, {"output", n.output}, {"status", status_name(n.status)}};
    if (!n.detail.empty()) nj["detail"] = n.detail;
    if (n.status == NodeStatus::Differs) nj["verdict"] = output_json(n.verdict);
    j["nodes"].push_back(nj);
  }
  j["coverage"] = coverage::to_json(v.coverage);
  return j;
}

std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname) {
  std::vector<report::JunitCase> cases;
  for (const auto& o : v.outputs) {
    report::JunitCase c;
    c.classname = classname;
    c.name = o.name;
    if (o.status != Status::Conforms) c.failure = output_text(o);
    cases.push_back(std::move(c));
  }
  for (const auto& n : v.nodes) {
    report::JunitCase c;
    c.classname = classname;
    c.name = "node " + n.label;
    c.skipped = n.status == NodeStatus::NotObserved;
    if (n.status == NodeStatus::Differs) c.failure = output_text(n.verdict);
    if (n.status == NodeStatus::Refused || c.skipped) c.failure = n.detail;
    cases.push_back(std::move(c));
  }
  return cases;
}

// ---- [Check.cases] --------------------------------------------------------------------------------

namespace {

bool is_golden_folder(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return false;
  static const std::regex pattern("test_data_set_[0-9]{1,9}");
  for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && std::regex_match(it->path().filename().string(), pattern)) return true;
  return false;
}

std::vector<std::string> files_below(const fs::path& p) {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return {p.string()};
  for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry;  // an entry whose type cannot be read (a dangling link) is not a regular file
    if (it->is_regular_file(entry)) out.push_back(it->path().string());
  }
  // [Check.verdict] the manifest lists every file read: a folder not listed to its end is an I/O failure
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list every file below it: {}", p.string(), ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<Case> load_cases(const graph::Model& model, const std::string& a, const std::string& b) {
  std::vector<Case> cases;
  std::error_code ec;
  if (b.empty()) {  // a bundle: inputs and actual values by name in one .npz (tract's convention)
    if (!fs::exists(a, ec)) io_failure("IO.npz.archive", "BUNDLE '{}' does not exist", a);
    if (fs::is_directory(a, ec))
      usage_error("check MODEL BUNDLE.npz takes one .npz holding inputs and actual values; '{}' is a folder "
                  "(give ACTUAL as well)", a);
    Case c;
    c.name = fs::path(a).filename().string();
    add_npz(model, a, value_names(model), c.actual, &c.feeds);
    c.files = {a};
    cases.push_back(std::move(c));
    return cases;
  }
  if (!is_golden_folder(a)) {  // one case: INPUTS and ACTUAL
    Case c;
    c.name = fs::path(a).filename().string();
    c.feeds = graph::load_feeds(model, a);
    c.actual = load_actual(model, b);
    c.files = files_below(a);
    for (auto& f : files_below(b)) c.files.push_back(f);
    cases.push_back(std::move(c));
    return cases;
  }
  // A golden folder: every test_data_set_K, in increasing K.
  static const std::regex pattern("test_data_set_([0-9]{1,9})");
  std::vector<std::pair<long, fs::path>> sets;
  for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string n = it->path().filename().string();
    if (it->is_directory(ec) && std::regex_match(n, m, pattern)) sets.emplace_back(std::stol(m[1]), it->path());
  }
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", a, ec.message());
  std::sort(sets.begin(), sets.end());
  if (!fs::is_directory(b, ec)) io_failure("IO.testdata.folder", "IUT_DIR '{}' is not a folder", b);
  for (const auto& [k, dir] : sets) {
    Case c;
    c.name = dir.filename().string();
    c.feeds = graph::load_feeds(model, dir.string());
    for (const auto& f : files_below(dir))
      if (fs::path(f).filename().string().rfind("input", 0) == 0) c.files.push_back(f);
    const fs::path folder = fs::path(b) / c.name, npz = fs::path(b) / (c.name + ".npz");
    if (fs::is_directory(folder, ec)) c.actual = load_actual(model, folder.string()), c.files.push_back(folder.string());
    else if (fs::is_regular_file(npz, ec)) c.actual = load_actual(model, npz.string()), c.files.push_back(npz.string());
    else c.actual.notes.push_back(fmt::format("no actual values for {} (neither {} nor {})", c.name, folder.string(), npz.string()));
    cases.push_back(std::move(c));
  }
  return cases;
}

Campaign judge_cases(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options) {
  Campaign c;
  for (const auto& k : cases) {
    const explain::Explainer expected(model, model.run_all(k.feeds));
    CaseVerdict cv{k.name, judge(model, expected, k.actual, options)};
    c.conforms = c.conforms && cv.verdict.conforms;
    c.failing_cases += !cv.verdict.conforms;
    for (const auto& o : cv.verdict.outputs) {
      c.outputs += o.status != Status::Extra;
      c.elements += o.elements;
      c.mismatches += o.mismatches;
      for (const auto& [clause, n] : o.by_clause) c.by_clause[clause] += n;
    }
    for (const auto& n : cv.verdict.coverage)
      for (const auto& [s, w] : n.exercised) c.exercised[n.label].try_emplace(s, k.name);
    c.cases.push_back(std::move(cv));
  }
  return c;
}

std::string to_text(const Campaign& c, const compare::Options& options) {
  if (c.cases.size() == 1) {
    std::string out = to_text(c.cases.front().verdict, options);
    const auto verdict_line = out.rfind("verdict: ");
    return out.insert(verdict_line, coverage_text(c.cases.front().verdict.coverage, ""));
  }
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  for (const auto& k : c.cases) {
    const Verdict& v = k.verdict;
    if (v.conforms) {
      out += fmt::format("case {}: conforms ({} output(s))\n", k.name, v.outputs.size());
      continue;
    }
    out += fmt::format("case {}: DOES NOT CONFORM\n", k.name);
    for (const auto& n : v.notes) out += "  note: " + n + "\n";
    for (const auto& o : v.outputs)
      if (o.status != Status::Conforms) out += output_text(o, "  ");
    out += nodes_text(v.nodes, "  ");
  }
  std::string by;
  for (const auto& [clause, n] : c.by_clause) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", clause, n);
  out += fmt::format("summary [Check.cases]: {} case(s), {} do not conform; {} output(s), {} element(s) judged, {} differ{}\n",
                     c.cases.size(), c.failing_cases, c.outputs, c.elements, c.mismatches,
                     by.empty() ? "" : "; by the clause deciding the expected value: " + by);
  out += "clauses the expected values rest on [Check.coverage]:\n";
  for (const auto& [label, situations] : c.exercised) {
    std::string list;
    for (const auto& [s, first] : situations) list += (list.empty() ? "" : ", ") + s.text();
    out += fmt::format("  {}: {}\n", label, list);
  }
  if (c.conforms)
    out += fmt::format("verdict: CONFORMS: every output of the {} case(s) conforms [Check.verdict]\n", c.cases.size());
  else
    out += fmt::format("verdict: DOES NOT CONFORM: {} of {} case(s) do not conform [Check.verdict]\n", c.failing_cases,
                       c.cases.size());
  return out;
}

nlohmann::ordered_json to_json(const Campaign& c, const compare::Options& options) {
  nlohmann::ordered_json j;
  j["verdict"] = c.conforms ? "conforms" : "does not conform";
  j["conforms"] = c.conforms;
  j["clause"] = "Check.verdict";
  j["comparison"] = comparison_json(options);
  j["summary"] = {{"cases", c.cases.size()},     {"failing_cases", c.failing_cases}, {"outputs", c.outputs},
                  {"elements", c.elements},      {"mismatches", c.mismatches},       {"by_clause", c.by_clause}};
  j["cases"] = nlohmann::ordered_json::array();
  for (const auto& k : c.cases) {
    nlohmann::ordered_json cj = {{"name", k.name}};
    const nlohmann::ordered_json verdict = to_json(k.verdict, options);  // alive while its items are read
    for (const auto& [key, value] : verdict.items())
      if (key != "comparison" && key != "clause") cj[key] = value;
    j["cases"].push_back(cj);
  }
  return j;
}

nlohmann::ordered_json report_document(const Campaign& c, const compare::Options& options, const nlohmann::json& manifest) {
  nlohmann::ordered_json j;
  j["command"] = "check";
  j["manifest"] = manifest;
  const nlohmann::ordered_json body = to_json(c, options);  // alive while its items are read
  for (const auto& [key, value] : body.items()) j[key] = value;
  return j;
}

std::vector<report::JunitCase> to_junit(const Campaign& c, const std::string& model_name) {
  std::vector<report::JunitCase> out;
  for (const auto& k : c.cases)
    for (auto& t : to_junit(k.verdict, model_name)) {
      t.name = model_name + "/" + k.name + "/" + t.name;
      out.push_back(std::move(t));
    }
  return out;
}

}  // namespace sonnx::check
