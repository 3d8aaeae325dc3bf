// spec/common/graph.md: loading an ONNX model and evaluating its graph of supported nodes.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "io/io.hpp"
#include "ops/registry.hpp"

namespace sonnx::graph {

// A declared graph input or output: name, element type, dims (nullopt = symbolic/unknown dim).
struct ValueInfo {
  std::string name;
  std::optional<DType> dtype;
  std::optional<std::vector<std::optional<std::int64_t>>> shape;  // nullopt = no shape declared
};

// "[2, ?, 3]" (symbolic dims as '?'; "unranked" when no shape is declared).
std::string declared_shape_text(const std::optional<std::vector<std::optional<std::int64_t>>>& shape);

// One node after resolution ([Graph.opset.resolve]).
struct NodeInfo {
  std::string name;       // node name (may be empty)
  std::string op_type;    // "Max", "ReduceMax", "Hardmax", "Constant", ... (any op_type in a partial model)
  int version;            // resolved since_version (0 for a node outside the spec)
  std::vector<std::string> inputs;   // "" = absent optional input
  std::vector<std::string> outputs;
  const ops::OpVersion* op = nullptr;  // the operator version (nullptr for a Constant node, or one not judged)
  ops::Attributes attributes;          // as converted and checked at load ([Graph.node.attributes])
  std::size_t file_index = 0;          // position in the file's node list
  // [Graph.partial] Only in a model loaded with LoadOptions::partial: why the node is outside the spec
  // ("" for a supported or Constant node), and the clause that says so.
  std::string not_judged;
  std::string not_judged_clause;
  bool judged() const { return not_judged.empty(); }
};

// [Graph.partial.subgraph] A node inside a subgraph (a graph attribute of If, Loop, Scan, ...): never
// evaluated nor judged.
struct SubgraphNode {
  std::string name, op_type;
  std::string where;  // "in attribute 'then_branch' of node 'if' (If)"
};

// The model file size limit: the smaller of protobuf's 2 GiB message limit and the tensor byte
// limit ([Common.tensor.size-limit], SONNX_REF_MAX_BYTES). Checked before the file is read.
std::uint64_t max_model_bytes();

// [Graph.opset.reviewed] The newest default-domain opset this specification has been reviewed against.
inline constexpr std::int64_t kReviewedOpset = 28;

struct LoadOptions {
  // [Graph.opset.reviewed] accept an opset above kReviewedOpset (--assume-opset-reviewed).
  bool assume_opset_reviewed = false;
  // [Graph.partial] keep the nodes outside the spec (classified, with why) instead of refusing the
  // model: for the node-wise commands. run() still refuses such a model ([Graph.partial.run]).
  bool partial = false;
};

class Model {
 public:
  // [Graph.model.parse] Loads and checks the model (opsets, domains, operators, attributes,
  // topological order, initializers, external data); refuses with SpecError.
  static Model load(const std::string& path, const LoadOptions& options = {});
  static Model from_bytes(const std::string& bytes, const std::string& what, const LoadOptions& options = {});

  const std::vector<ValueInfo>& inputs() const;    // graph inputs that must be fed (not initializers)
  // [Graph.initializer] graph inputs that also have an initializer: a feed may override them.
  const std::vector<ValueInfo>& overridable_inputs() const;
  const std::vector<ValueInfo>& outputs() const;   // graph outputs
  const std::vector<NodeInfo>& nodes() const;      // in evaluation (topological) order
  // [Graph.partial.subgraph] the nodes inside subgraphs, depth first, after the node holding them
  const std::vector<SubgraphNode>& subgraph_nodes() const;
  // [Graph.partial] every node is supported or a Constant (always true unless loaded partial)
  bool complete() const;
  const Tensor* initializer(const std::string& name) const;  // [Graph.initializer] nullptr if none
  const Tensor* constant(std::size_t node) const;  // [Graph.constant] the value of nodes()[node], if a Constant
  std::int64_t opset() const;                      // default-domain opset import
  const std::string& serialized() const;           // the model bytes as loaded
  // Declared element type of a graph input (fed or overridable) by name; nullopt if none.
  std::optional<DType> declared_input_type(const std::string& name) const;

  // [Graph.feed.*] Checks the feeds against the declared inputs, as run does before evaluating.
  void check_feeds(const std::vector<io::NamedTensor>& feeds) const;
  // [Graph.feed.*] Checks the feeds against the declared inputs, then evaluates every node in
  // topological order; returns the graph outputs in declaration order. `progress`, when given, is
  // called after each node: (nodes evaluated, nodes, the node's label).
  using NodeProgress = std::function<void(std::size_t, std::size_t, const std::string&)>;
  std::vector<io::NamedTensor> run(const std::vector<io::NamedTensor>& feeds, const NodeProgress& progress = {}) const;
  // Same, also returning every value by name: feeds, initializers, every node output (for `explain`).
  std::map<std::string, Tensor> run_all(const std::vector<io::NamedTensor>& feeds) const;

  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

 private:
  Model();
  static Model from_owned_bytes(std::string bytes, const std::string& what, const LoadOptions& options);  // no copy
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// [Graph.node.unique-names] Refuses a model two of whose nodes have the same non-empty name (the
// node-wise commands name and select nodes by name).
void check_unique_node_names(const Model& model);

// [IO.testdata.folder] [IO.npz.archive] The feeds of `path`: a .npz (keys = input names) or a
// test_data_set_N folder of input_K.pb (named by TensorProto.name, else by graph input order).
std::vector<io::NamedTensor> load_feeds(const Model& model, const std::string& path);

}  // namespace sonnx::graph
