// [Check.coverage] Which clauses, and which situations of them, decided the elements of one
// evaluation of a model; [Check.golden-coverage] which ones each node can reach. Both are asked of
// the operators' own definitions in src/ops/ (OpVersion::decide and OpVersion::reach); this file
// walks the graph and keeps the first witness of each situation.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "graph/model.hpp"
#include "ops/definition.hpp"

namespace sonnx::coverage {

// One element that witnesses a situation.
struct Witness {
  std::string value;                // the node's output (value name)
  std::vector<std::int64_t> index;  // the element's index in it
};

// What one node's elements exercised in one evaluation.
struct NodeCoverage {
  std::size_t node = 0;       // position in Model::nodes()
  std::string label;          // "node 'max' (Max-13)"
  std::map<ops::Situation, Witness> exercised;  // the first witness of each situation
  std::int64_t elements = 0;  // output elements decided
  std::int64_t skipped = 0;   // output elements past the budget, not examined
};

// "node 'max' (Max-13)" ("an unnamed node #2 (Max-13)"; "node 'c' (Conv)" for a node outside the spec).
std::string node_label(const graph::Model& model, std::size_t node);

// The situations that decided the first `budget` elements of one node's output `v` (row-major), or
// fewer: the examination stops once the sets of the elements examined hold `member_budget` members
// together (a computed element's terms count as its members: one Conv element of VGG-19 has up to
// 4608, and deciding it costs as much as deciding 4608 Relu elements).
NodeCoverage account_node(const graph::NodeInfo& node, const ops::NodeValues& v, std::int64_t budget,
                          std::int64_t member_budget);

// The situations that decided the output elements of every operator node, for the values of one
// evaluation (Model::run_all). At most `budget` elements of each node's output are examined (in
// row-major order), and no more once their sets hold `member_budget` members (account_node); the
// rest are counted in `skipped`.
std::vector<NodeCoverage> account(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                  std::int64_t budget = std::int64_t{1} << 16, std::int64_t member_budget = std::int64_t{1} << 22);

// Where the values of each value of the graph come from ([Check.golden-coverage]): graph inputs
// in `drawn` are Free; other graph inputs, initializers and Constant outputs are Fixed; a Hardmax
// output is OneHot; a Max or ReduceMax output is Free when all its inputs are Free, OneHot when all
// are OneHot, Fixed otherwise.
std::map<std::string, ops::Source> sources(const graph::Model& model, const std::set<std::string>& drawn);

// The reach of every operator node ([Check.golden-coverage]), from one evaluation's values (only
// their shapes and the node attributes matter) and the sources of the values.
std::vector<std::vector<ops::Reach>> reach(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                           const std::map<std::string, ops::Source>& sources);

// The node's inputs, names and output as OpVersion::decide and OpVersion::reach take them.
ops::NodeValues node_values(const graph::NodeInfo& node, const std::map<std::string, Tensor>& values,
                            std::size_t output = 0);

nlohmann::ordered_json to_json(const Witness& w);
// [{"node", "clause", "situation", "witness": {"value", "index"}}], node by node, situations in order.
nlohmann::ordered_json to_json(const std::vector<NodeCoverage>& c);

}  // namespace sonnx::coverage
