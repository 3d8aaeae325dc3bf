// [Graph.order.topological] The evaluation order of the nodes, computed from value names (Kahn).
#include <algorithm>
#include <map>

#include "graph/detail.hpp"

namespace sonnx::graph::detail {

namespace {

// The nodes of one cycle among the unordered nodes: each of them waits for another unordered node,
// so following those waits from any of them must come back to a node already met.
std::string cycle_through(const std::vector<NodeIO>& nodes, const std::vector<std::set<std::size_t>>& deps,
                          const std::vector<bool>& ordered) {
  std::size_t at = 0;
  while (ordered[at]) ++at;
  std::vector<std::size_t> path;
  std::vector<bool> on_path(nodes.size(), false);
  while (!on_path[at]) {
    on_path[at] = true;
    path.push_back(at);
    for (std::size_t d : deps[at])
      if (!ordered[d]) { at = d; break; }
  }
  // The cycle is the part of the path from the first visit of `at`, walked here against the data flow.
  auto first = std::find(path.begin(), path.end(), at);
  std::string out;
  for (auto it = path.rbegin(); it != std::make_reverse_iterator(first); ++it)
    out += nodes[*it].label + " -> ";
  return out + nodes[*(path.end() - 1)].label;
}

}  // namespace

std::vector<std::size_t> topological_order(const std::vector<NodeIO>& nodes,
                                           const std::set<std::string>& graph_values) {
  const std::size_t n = nodes.size();
  // Each value has one producer: a graph input, an initializer, or one node output.
  std::map<std::string, std::size_t> producer;
  for (std::size_t i = 0; i < n; ++i)
    for (const std::string& out : nodes[i].outputs) {
      if (out.empty()) continue;
      if (graph_values.count(out))
        refuse("Graph.order.topological", "{} produces '{}', which is already a graph input or initializer",
               nodes[i].label, out);
      auto [it, fresh] = producer.emplace(out, i);
      if (!fresh)
        refuse("Graph.order.topological", "value '{}' is produced twice: by {} and by {}", out,
               nodes[it->second].label, nodes[i].label);
    }
  // deps[i]: the nodes whose outputs node i reads.
  std::vector<std::set<std::size_t>> deps(n);
  std::vector<std::vector<std::size_t>> consumers(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const std::string& in : nodes[i].inputs) {
      if (in.empty() || graph_values.count(in)) continue;
      auto it = producer.find(in);
      if (it == producer.end())
        refuse("Graph.order.topological", "{} uses value '{}', which no node, graph input or initializer produces",
               nodes[i].label, in);
      deps[i].insert(it->second);
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p : deps[i]) consumers[p].push_back(i);

  // Kahn: repeatedly take the first node (in file order) whose inputs are all available.
  std::vector<std::size_t> pending(n), order;
  std::set<std::size_t> ready;
  for (std::size_t i = 0; i < n; ++i)
    if ((pending[i] = deps[i].size()) == 0) ready.insert(i);
  std::vector<bool> ordered(n, false);
  while (!ready.empty()) {
    const std::size_t i = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(i);
    ordered[i] = true;
    for (std::size_t c : consumers[i])
      if (--pending[c] == 0) ready.insert(c);
  }
  if (order.size() != n)
    refuse("Graph.order.topological", "the graph has a cycle: {} ({} of {} nodes cannot be ordered)",
           cycle_through(nodes, deps, ordered), n - order.size(), n);
  return order;
}

}  // namespace sonnx::graph::detail
