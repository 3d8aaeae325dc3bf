// [Check.golden-nodes] golden --nodes: one golden folder per node the spec covers.
#include "oracle/node_golden.hpp"

#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "graph/expose.hpp"
#include "io/io.hpp"
#include "oracle/coverage.hpp"
#include "oracle/report.hpp"

namespace sonnx::golden {

namespace fs = std::filesystem;

namespace {

// [Check.golden-nodes] The folder of a node: its name, every character outside [A-Za-z0-9._-] as '_'.
std::string folder_name(const graph::NodeInfo& node, std::size_t k, std::set<std::string>& used) {
  std::string base = node.name.empty() ? fmt::format("node_{}", k) : node.name;
  for (char& c : base)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
  if (base == "." || base == "..") base = "node_" + std::to_string(k);
  std::string name = base;
  for (int n = 2; !used.insert(name).second; ++n) name = fmt::format("{}_{}", base, n);
  return name;
}

// The symbolic dimension names of a model's graph inputs.
std::set<std::string> dim_params(const std::string& bytes) {
  onnx::ModelProto m;
  m.ParseFromString(bytes);
  std::set<std::string> out;
  for (const auto& in : m.graph().input())
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape())
      for (const auto& d : in.type().tensor_type().shape().dim())
        if (!d.has_dim_value() && !d.dim_param().empty()) out.insert(d.dim_param());
  return out;
}

// DIR may be absent, empty, or a previous golden --nodes folder (nodes.json and golden folders).
void check_replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) refuse("Check.golden", "'{}' exists and is not a directory", dir.string());
  const bool empty = fs::is_empty(dir, ec);
  if (!empty && !fs::is_regular_file(dir / "nodes.json", ec))
    refuse("Check.golden", "'{}' is not a golden --nodes folder (it has no nodes.json); choose an empty or new -o DIR",
           dir.string());
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n == "nodes.json" && e.is_regular_file()) continue;
    if (!e.is_directory() || !fs::is_regular_file(e.path() / "manifest.json", ec))
      refuse("Check.golden", "'{}' is not a golden --nodes folder ({} is not a golden folder); choose an empty or new -o DIR",
             dir.string(), e.path().string());
  }
  if (ec) io_failure("Check.golden", "cannot list '{}': {}", dir.string(), ec.message());
}

// Removes the temporary folder unless the whole was written.
struct Temporary {
  fs::path path;
  bool keep = false;
  ~Temporary() {
    std::error_code ec;
    if (!keep) fs::remove_all(path, ec);
  }
};

}  // namespace

NodesWritten write_nodes(const graph::Model& model, const std::string& dir, const Options& options,
                         const std::vector<std::string>& only) {
  if (!options.inputs.empty())
    usage_error("--inputs cannot be combined with --nodes: each node's inputs are drawn (an initializer or a Constant "
                "input keeps the model's value)");
  graph::check_unique_node_names(model);  // [Graph.node.unique-names]
  for (const auto& name : only)
    if (std::none_of(model.nodes().begin(), model.nodes().end(), [&](const graph::NodeInfo& n) { return n.name == name; }))
      usage_error("--node '{}' names no node of the model", name);
  const fs::path target = fs::path(dir).lexically_normal();
  check_replaceable(target);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) io_failure("Check.golden", "cannot create '{}': {}", parent.string(), ec.message());
  Temporary tmp{parent / fmt::format(".{}.nodes-{}", target.filename().string(), getpid())};
  fs::remove_all(tmp.path, ec);
  fs::create_directories(tmp.path, ec);
  if (ec) io_failure("Check.golden", "cannot create '{}': {}", tmp.path.string(), ec.message());

  NodesWritten out;
  std::set<std::string> used = {"nodes.json"}, dims_used;
  for (std::size_t k = 0; k < model.nodes().size(); ++k) {
    const graph::NodeInfo& node = model.nodes()[k];
    if (!only.empty() && std::find(only.begin(), only.end(), node.name) == only.end()) continue;
    NodeFolder f;
    f.label = coverage::node_label(model, k);
    if (!node.judged()) {  // outside the spec: nothing to test
      f.status = "not judged";
      f.reason = node.not_judged;
      f.clause = node.not_judged_clause;
      out.nodes.push_back(std::move(f));
      continue;
    }
    try {
      const std::string bytes = graph::extract_node(model, k);  // [Graph.extract]
      graph::LoadOptions load;
      load.assume_opset_reviewed = options.assume_opset_reviewed;
      const auto single = graph::Model::from_bytes(bytes, fmt::format("{} as a model of its own", f.label), load);
      Options o = options;
      o.dims.clear();
      for (const auto& d : dim_params(bytes))
        if (auto it = options.dims.find(d); it != options.dims.end()) o.dims.insert(*it), dims_used.insert(d);
      f.folder = folder_name(node, k, used);
      f.written = write(single, (tmp.path / f.folder).string(), o);  // [Check.golden] [Check.golden-coverage]
      f.status = "written";
    } catch (const SpecError& e) {
      if (e.kind() != Failure::Refused) throw;
      f.folder.clear();
      f.status = "not written";
      f.reason = e.report();
      f.clause = e.id();
    }
    out.nodes.push_back(std::move(f));
  }
  if (only.empty())
    for (const auto& s : model.subgraph_nodes())  // [Graph.partial.subgraph]
      out.nodes.push_back({s.name.empty() ? fmt::format("an unnamed {} node {}", s.op_type, s.where)
                                          : fmt::format("node '{}' ({}) {}", s.name, s.op_type, s.where),
                           "", "not judged", "it is inside a subgraph", "Graph.partial.subgraph", {}});
  for (const auto& [d, size] : options.dims)
    if (!dims_used.count(d)) usage_error("--dim {}: no input of an extracted node has a symbolic dimension named '{}'", d, d);

  nlohmann::ordered_json& j = out.index;
  j["tool"] = report::revisions();
  j["clause"] = "Check.golden-nodes";
  j["options"] = {{"seed", options.seed}, {"cases", options.cases}, {"construct", options.construct},
                  {"dims", options.dims}, {"nodes", only}};
  std::int64_t written = 0, reachable = 0, exercised = 0;
  j["nodes"] = nlohmann::ordered_json::array();
  for (const auto& f : out.nodes) {
    nlohmann::ordered_json n = {{"node", f.label}, {"status", f.status}};
    if (f.status == "written") {
      n["folder"] = f.folder;
      n["cases"] = f.written.folders.size();
      n["situations"] = {{"reachable", f.written.reachable}, {"exercised", f.written.exercised},
                         {"not_built", f.written.not_built}, {"unreachable", f.written.unreachable}};
      ++written, reachable += f.written.reachable, exercised += f.written.exercised;
    } else {
      n["reason"] = f.reason;
      n["clause"] = f.clause;
    }
    j["nodes"].push_back(n);
  }
  j["summary"] = {{"nodes", out.nodes.size()}, {"written", written}, {"reachable", reachable}, {"exercised", exercised}};
  const std::string text = j.dump(2) + "\n";
  io::write_file((tmp.path / "nodes.json").string(), std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()),
                 "Check.golden");
  fs::remove_all(target, ec);
  if (ec) io_failure("Check.golden", "cannot replace '{}': {}", target.string(), ec.message());
  fs::rename(tmp.path, target, ec);
  if (ec) io_failure("Check.golden", "cannot rename '{}' to '{}': {}", tmp.path.string(), target.string(), ec.message());
  tmp.keep = true;
  for (auto& f : out.nodes)  // the folders as written, under DIR
    for (auto& folder : f.written.folders) {
      const std::string from = (tmp.path / f.folder).lexically_normal().string();
      if (folder.rfind(from, 0) == 0) folder = (target / f.folder).string() + folder.substr(from.size());
    }
  return out;
}

}  // namespace sonnx::golden
