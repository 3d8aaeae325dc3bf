// [Check.golden-nodes] Per-node golden sets: every node of a model that the spec covers, extracted as a
// single-node model with its real attributes and the input shapes it receives ([Graph.extract]), gets
// a golden folder of its own ([Check.golden], [Check.golden-coverage]), so that an engine is tested on
// the exact node configurations of the model.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/model.hpp"
#include "oracle/golden.hpp"

namespace sonnx::golden {

// One node of the model, as golden --nodes treated it.
struct NodeFolder {
  std::string label;   // "node 'n2' (MaxPool-8)"
  std::string folder;  // DIR/<folder> ("" when nothing was written)
  std::string status;  // "written", "not judged" (outside the spec, a Constant), "not written" (refused)
  std::string reason, clause;  // why not written / not judged
  Written written;
};

struct NodesWritten {
  std::vector<NodeFolder> nodes;  // every node, evaluation order; the nodes inside subgraphs last
  nlohmann::ordered_json index;   // DIR/nodes.json
};

// [Check.golden-nodes] Writes DIR/<folder>/ (a golden folder) for every node the spec covers, or only
// for the nodes named in `only` (each must name a node: else a usage error), and DIR/nodes.json listing
// every node with its folder, or why it has none. The folder name is the node's name with every
// character outside [A-Za-z0-9._-] replaced by '_' ("node_<k>" for an unnamed node, k its position in
// evaluation order; "_2", "_3", ... appended to a name already used). DIR is written under a temporary
// name beside it and renamed at the end. --inputs is not taken (usage error); a --dim sizes the
// symbolic dimension of that name wherever a node's inputs have one.
NodesWritten write_nodes(const graph::Model& model, const std::string& dir, const Options& options,
                         const std::vector<std::string>& only);

}  // namespace sonnx::golden
