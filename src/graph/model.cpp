// spec/common/graph.md: the model loader and the graph evaluator.
#include "graph/model.hpp"

#include <onnx/onnx_pb.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "graph/detail.hpp"

namespace sonnx::graph {

using detail::describe;

namespace {

// One node ready to run: its operator version and converted attributes, or its Constant value.
struct Step {
  std::string label;                    // describe(node)
  const ops::OpVersion* op = nullptr;   // nullptr for a Constant node
  ops::Attributes attributes;
  Tensor constant;                      // [Graph.constant] the value of a Constant node
  std::size_t input_count = 0;          // inputs passed to the kernel (trailing absent ones dropped)
  std::vector<std::string> release;     // node outputs no longer needed after this step
  bool outside = false;                 // [Graph.partial] a node outside the spec (partial models only)
};

// [Graph.opset.domain] The default-domain ("" or "ai.onnx") opset import; other domains may be
// imported as long as no node uses them.
std::int64_t default_opset(const onnx::ModelProto& m) {
  std::optional<std::int64_t> opset;
  for (const auto& imp : m.opset_import()) {
    if (imp.domain() != "" && imp.domain() != "ai.onnx") continue;
    if (opset && *opset != imp.version())
      refuse("Graph.opset.domain", "the model imports the default ONNX domain twice, at opsets {} and {}", *opset,
             imp.version());
    opset = imp.version();
  }
  if (!opset)
    refuse("Graph.opset.domain", "the model has no opset import for the default ONNX domain (\"\" or \"ai.onnx\")");
  return *opset;
}

std::string onnx_type_name(int code) {
  if (onnx::TensorProto::DataType_IsValid(code))
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(code));
  return fmt::format("code {}", code);
}

// [Common.gr.explicit-types] A declared graph input/output: a tensor type with an element type of
// Common.dtype.set; dims with dim_value are fixed, others (dim_param or nothing) symbolic.
ValueInfo parse_value_info(const onnx::ValueInfoProto& v, const char* role) {
  if (v.name().empty()) refuse("Graph.model.parse", "a {} has no name", role);
  if (!v.has_type()) refuse("Common.gr.explicit-types", "{} '{}' declares no type", role, v.name());
  const auto& type = v.type();
  if (type.value_case() == onnx::TypeProto::kSparseTensorType)  // [Common.gr.sparse]
    refuse("Common.gr.sparse", "{} '{}' is a sparse tensor; sparse tensors are not supported", role, v.name());
  if (type.value_case() != onnx::TypeProto::kTensorType)
    refuse("Common.gr.explicit-types", "{} '{}' is not declared as a tensor (only tensor values are supported)", role,
           v.name());
  const auto& tt = type.tensor_type();
  if (!tt.has_elem_type() || tt.elem_type() == onnx::TensorProto::UNDEFINED)
    refuse("Common.gr.explicit-types", "{} '{}' declares no element type", role, v.name());
  ValueInfo out{v.name(), dtype_from_onnx(tt.elem_type()), std::nullopt};
  if (!out.dtype)  // [Common.dtype.set]
    refuse("Common.dtype.set", "{} '{}' is declared {}, which is not a supported dtype ({})", role, v.name(),
           onnx_type_name(tt.elem_type()), join_names({std::begin(kAllDTypes), std::end(kAllDTypes)}));
  if (tt.has_shape()) {
    out.shape.emplace();
    for (const auto& d : tt.shape().dim()) {
      if (d.has_dim_value()) {
        if (d.dim_value() < 0)  // [Common.tensor.shape]
          refuse("Common.tensor.shape", "{} '{}' declares a negative dimension {}", role, v.name(), d.dim_value());
        out.shape->push_back(d.dim_value());
      } else {
        out.shape->push_back(std::nullopt);  // dim_param or unknown: symbolic
      }
    }
  }
  return out;
}

bool fits(const Shape& s, const std::optional<std::vector<std::optional<std::int64_t>>>& declared) {
  if (!declared) return true;
  if (s.size() != declared->size()) return false;
  for (std::size_t k = 0; k < s.size(); ++k)
    if ((*declared)[k] && *(*declared)[k] != s[k]) return false;
  return true;
}

std::string range_text(int lo, int hi) {
  if (lo == hi) return fmt::format("exactly {}", lo);
  if (hi == std::numeric_limits<int>::max()) return fmt::format("at least {}", lo);
  return fmt::format("{} to {}", lo, hi);
}

// [Graph.node.arity] The node's inputs (trailing absent ones dropped) and outputs are within what
// the version allows; an absent (empty) name only stands for an optional input. Variadic inputs
// (Max) are all required. Returns the number of inputs passed to the kernel.
std::size_t check_arity(const onnx::NodeProto& node, const std::string& label, const std::string& op, int version,
                        int min_inputs, int max_inputs, int outputs) {
  int n = node.input_size();
  while (n > 0 && node.input(n - 1).empty()) --n;
  if (n < min_inputs || n > max_inputs)
    refuse("Graph.node.arity", "{}: {}-{} takes {} input(s), the node has {}", label, op, version,
           range_text(min_inputs, max_inputs), n);
  const bool variadic = max_inputs == std::numeric_limits<int>::max();
  for (int k = 0; k < n; ++k)
    if (node.input(k).empty() && (k < min_inputs || variadic))
      refuse("Graph.node.arity", "{}: input {} of {}-{} is required but has an empty name", label, k, op, version);
  const int m = node.output_size();
  if (m < 1 || m > outputs)
    refuse("Graph.node.arity", "{}: {}-{} has {} output(s), the node has {}", label, op, version,
           range_text(1, outputs), m);
  if (node.output(0).empty())
    refuse("Graph.node.arity", "{}: output 0 of {}-{} is required but has an empty name", label, op, version);
  return static_cast<std::size_t>(n);
}

// [Graph.opset.resolve] [Graph.opset.unsupported] The registry's version of `op_type`; refusals name
// the node and list every supported operator, Constant included.
const ops::OpVersion& resolve_operator(const std::string& op_type, std::int64_t opset, const std::string& label) {
  bool known = false;
  for (const auto& v : ops::all_versions()) known = known || v.op_type == op_type;
  if (!known)
    refuse("Graph.opset.unsupported", "{}: operator '{}' is not supported (supported: {}; Constant {})", label, op_type,
           ops::supported_operators(), fmt::join(detail::kConstantVersions, ", "));
  try {
    return ops::resolve(op_type, opset);
  } catch (const SpecError& e) {
    throw SpecError(e.id(), fmt::format("{}: {}", label, e.what()), e.kind());
  }
}

}  // namespace

std::uint64_t max_model_bytes() {
  return std::min<std::uint64_t>(std::numeric_limits<int>::max(), max_tensor_bytes());
}

struct Model::Impl {
  std::string bytes;
  std::int64_t opset = 0;
  std::vector<ValueInfo> inputs, overridable, outputs;
  std::map<std::string, Tensor> initializers;  // [Graph.initializer]
  std::vector<NodeInfo> nodes;                 // evaluation order
  std::vector<Step> steps;                     // steps[i] runs nodes[i]
  std::vector<SubgraphNode> subgraph_nodes;    // [Graph.partial.subgraph]
  bool complete = true;                        // [Graph.partial] no node outside the spec

  void load(const onnx::ModelProto& m, const LoadOptions& options);
  void load_node(const onnx::NodeProto& node, Step& step, NodeInfo& info) const;
  // Runs the graph; the returned map holds every live value (all of them when keep_all).
  struct Values {
    std::map<std::string, const Tensor*> live;
    std::map<std::string, Tensor> owned;  // node outputs
  };
  void evaluate(const std::vector<io::NamedTensor>& feeds, bool keep_all, Values& values,
                const Model::NodeProgress& progress = {}) const;
};

// One node's domain, version, arity and attributes, or its Constant value; refuses what the spec refuses.
void Model::Impl::load_node(const onnx::NodeProto& node, Step& step, NodeInfo& info) const {
  // [Graph.opset.domain]
  if (node.domain() != "" && node.domain() != "ai.onnx")
    refuse("Graph.opset.domain", "{} is in domain '{}'; only the default ONNX domain (\"\" or \"ai.onnx\") is supported",
           step.label, node.domain());
  if (node.op_type() == "Constant") {
    info.version = detail::resolve_constant(opset);  // [Graph.opset.resolve]
    step.input_count = check_arity(node, step.label, "Constant", info.version, 0, 0, 1);
    step.constant = detail::constant_value(node, info.version, step.label);  // [Graph.constant]
    return;
  }
  info.version = 0;
  step.op = &resolve_operator(node.op_type(), opset, step.label);  // [Graph.opset.resolve]
  info.version = step.op->since_version;
  step.input_count = check_arity(node, step.label, step.op->op_type, info.version, step.op->min_inputs,
                                 step.op->max_inputs, step.op->outputs);
  step.attributes = detail::convert_attributes(node, step.label);
  try {
    step.op->check_attributes(step.attributes);  // [Graph.node.attributes] at load, before any node runs
  } catch (const SpecError& e) {
    throw SpecError(e.id(), fmt::format("{}: {}", step.label, e.what()), e.kind());
  }
  info.op = step.op;
  info.attributes = step.attributes;
}

void Model::Impl::load(const onnx::ModelProto& m, const LoadOptions& options) {
  if (!m.has_graph()) refuse("Graph.model.parse", "the model has no graph");
  opset = default_opset(m);
  if (opset > kReviewedOpset && !options.assume_opset_reviewed)  // [Graph.opset.reviewed]
    refuse("Graph.opset.reviewed",
           "the model imports default-domain opset {}; this specification has been reviewed against opsets up to {} "
           "(a newer opset may define versions it does not describe); --assume-opset-reviewed runs it with the "
           "versions of opset {}",
           opset, kReviewedOpset, kReviewedOpset);
  const onnx::GraphProto& g = m.graph();

  // [Common.gr.sparse] [Graph.initializer] [Graph.external-data]
  if (g.sparse_initializer_size() > 0)
    refuse("Common.gr.sparse", "the graph has {} sparse initializer(s) (first: '{}'); sparse tensors are not supported",
           g.sparse_initializer_size(), g.sparse_initializer(0).values().name());
  for (const auto& t : g.initializer()) {
    if (t.name().empty()) refuse("Graph.initializer", "an initializer has no name");
    // [IO.tensorproto.fields]; io::from_proto also refuses external data ([Graph.external-data])
    Tensor value = io::from_proto(t, fmt::format("initializer '{}'", t.name()));
    if (!initializers.emplace(t.name(), std::move(value)).second)
      refuse("Graph.order.topological", "initializer '{}' is given twice", t.name());
  }

  std::set<std::string> graph_values;
  for (const auto& [n, t] : initializers) graph_values.insert(n);
  std::set<std::string> input_names;
  for (const auto& vi : g.input()) {
    ValueInfo v = parse_value_info(vi, "graph input");
    if (!input_names.insert(v.name).second)
      refuse("Graph.order.topological", "graph input '{}' is declared twice", v.name);
    auto init = initializers.find(v.name);
    if (init == initializers.end()) {
      inputs.push_back(std::move(v));
      continue;
    }
    // [Graph.initializer] a graph input with an initializer: the initializer is its default value,
    // so it must agree with the declaration a feed is checked against.
    if (init->second.dtype() != *v.dtype)
      refuse("Graph.initializer", "graph input '{}' is declared {} but its initializer is {}", v.name,
             name(*v.dtype), name(init->second.dtype()));
    if (!fits(init->second.shape(), v.shape))
      refuse("Graph.initializer", "graph input '{}' is declared with shape {} but its initializer has shape {}", v.name,
             declared_shape_text(v.shape), to_string(init->second.shape()));
    overridable.push_back(std::move(v));
  }
  graph_values.insert(input_names.begin(), input_names.end());
  std::optional<SpecError> output_error;  // [Graph.partial] the first output declaration refused, in a partial load
  for (const auto& vo : g.output()) {
    try {
      outputs.push_back(parse_value_info(vo, "graph output"));
    } catch (const SpecError& e) {  // [Graph.partial] an output of a node outside the spec may be of any type
      if (!options.partial || vo.name().empty()) throw;
      if (!output_error) output_error = e;
      outputs.push_back({vo.name(), std::nullopt, std::nullopt});
    }
  }

  // Each node: domain, version, arity, attributes (or Constant value). [Graph.partial] A node outside
  // the spec is classified (why, and the clause) rather than refused; a whole-model load then refuses
  // the model citing the first of them in file order, and naming every one ([Graph.partial.run]).
  std::vector<Step> file_steps(g.node_size());
  std::vector<NodeInfo> file_nodes(g.node_size());
  std::vector<detail::NodeIO> io(g.node_size());
  std::vector<std::pair<std::size_t, SpecError>> outside;  // file index, the refusal it would be
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& node = g.node(i);
    Step& step = file_steps[i];
    NodeInfo& info = file_nodes[i];
    step.label = describe(node, i);
    info.name = node.name();
    info.op_type = node.op_type();
    info.file_index = static_cast<std::size_t>(i);
    info.inputs.assign(node.input().begin(), node.input().end());
    info.outputs.assign(node.output().begin(), node.output().end());
    io[i] = {step.label, info.inputs, info.outputs};
    const std::size_t before = subgraph_nodes.size();
    detail::collect_subgraph_nodes(node, step.label, subgraph_nodes);  // [Graph.partial.subgraph]
    try {
      load_node(node, step, info);
    } catch (const SpecError& e) {
      if (e.kind() != Failure::Refused) throw;
      info.op = step.op = nullptr;
      info.attributes.clear();
      info.not_judged = detail::outside_reason(node, e, step.label, subgraph_nodes.size() - before);
      info.not_judged_clause = e.id();
      step.outside = true;
      outside.emplace_back(static_cast<std::size_t>(i), e);
    }
  }
  if (!outside.empty() && !options.partial)  // [Graph.partial.run] the first node outside the spec, naming all
    throw detail::outside_refusal(outside, io, [&] {
      std::vector<std::string> ops;
      for (const auto& n : file_nodes) ops.push_back(n.op_type);
      return ops;
    }());

  // [Graph.order.topological]
  const auto order = detail::topological_order(io, graph_values);
  std::set<std::string> produced = graph_values;
  for (const auto& n : io)
    for (const auto& o : n.outputs) produced.insert(o);
  std::set<std::string> output_names;
  for (const auto& o : outputs) {
    if (!produced.count(o.name))
      refuse("Graph.order.topological", "graph output '{}' is produced by no node, graph input or initializer", o.name);
    output_names.insert(o.name);
  }
  for (std::size_t i : order) {
    nodes.push_back(std::move(file_nodes[i]));
    steps.push_back(std::move(file_steps[i]));
  }
  complete = outside.empty();
  if (complete && output_error) throw *output_error;  // a whole model declares every output as the spec requires
  // Free each node output after its last use, unless it is a graph output.
  std::map<std::string, std::size_t> last_use;
  for (std::size_t p = 0; p < nodes.size(); ++p) {
    for (const auto& in : nodes[p].inputs) last_use[in] = p;
    for (const auto& out : nodes[p].outputs) last_use.emplace(out, p);  // never read: freed at once
  }
  for (std::size_t p = 0; p < nodes.size(); ++p)
    for (const auto& out : nodes[p].outputs)
      if (!out.empty() && !output_names.count(out)) steps[last_use.at(out)].release.push_back(out);
}

void Model::Impl::evaluate(const std::vector<io::NamedTensor>& feeds, bool keep_all, Values& values,
                           const Model::NodeProgress& progress) const {
  if (!complete) {  // [Graph.partial.run] a partial model cannot be run
    std::vector<std::string> labels, ops;
    for (std::size_t p = 0; p < nodes.size(); ++p)
      if (steps[p].outside) labels.push_back(steps[p].label), ops.push_back(nodes[p].op_type);
    const auto first = std::min_element(nodes.begin(), nodes.end(), [](const NodeInfo& a, const NodeInfo& b) {
      return a.judged() != b.judged() ? !a.judged() : a.file_index < b.file_index;  // the first outside, in file order
    });
    refuse(first->not_judged_clause, "the model cannot be run: outside the spec: {} (the node-wise commands judge the "
           "nodes the spec covers: check --nodes, golden --nodes)", detail::outside_text(labels, ops));
  }
  detail::check_feeds(feeds, inputs, overridable);  // [Graph.feed.*]
  for (const auto& [n, t] : initializers) values.live[n] = &t;  // [Graph.initializer]
  for (const auto& f : feeds) values.live[f.name] = &f.tensor;  // a feed overrides an initializer
  for (std::size_t p = 0; p < steps.size(); ++p) {
    const Step& step = steps[p];
    const NodeInfo& node = nodes[p];
    if (!step.op) {
      values.live[node.outputs[0]] = &step.constant;  // [Graph.constant]
    } else {
      ops::Inputs in(step.input_count, nullptr);  // absent optional input: nullptr
      for (std::size_t k = 0; k < step.input_count; ++k)
        if (!node.inputs[k].empty()) in[k] = values.live.at(node.inputs[k]);
      std::vector<Tensor> results;
      try {
        results = step.op->run(in, step.attributes, node.outputs.size());
      } catch (const SpecError& e) {  // the operator's refusal, naming the node
        throw SpecError(e.id(), fmt::format("{}: {}", step.label, e.what()), e.kind());
      }
      if (results.size() < node.outputs.size())
        throw std::logic_error(fmt::format("{} returned {} outputs", step.label, results.size()));
      for (std::size_t k = 0; k < node.outputs.size(); ++k) {
        if (node.outputs[k].empty()) continue;
        Tensor& slot = values.owned[node.outputs[k]] = std::move(results[k]);
        values.live[node.outputs[k]] = &slot;
      }
    }
    if (progress) progress(p + 1, steps.size(), step.label);
    if (keep_all) continue;
    for (const auto& r : step.release) {
      values.live.erase(r);
      values.owned.erase(r);
    }
  }
  // [Graph.output.declared] the computed dtype of each graph output is the declared one
  for (const auto& o : outputs) {
    const Tensor& t = *values.live.at(o.name);
    if (t.dtype() != *o.dtype)
      refuse("Graph.output.declared", "graph output '{}' is declared {} but its computed value is {}", o.name,
             name(*o.dtype), name(t.dtype()));
  }
}

Model::Model() : impl_(std::make_unique<Impl>()) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::load(const std::string& path, const LoadOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) io_failure("Graph.model.parse", "model '{}' does not exist", path);
  if (!fs::is_regular_file(status)) io_failure("Graph.model.parse", "model '{}' is not a regular file", path);
  const auto size = fs::file_size(path, ec);
  if (ec) io_failure("Graph.model.parse", "model '{}' cannot be read: {}", path, ec.message());
  if (size > max_model_bytes())  // checked before reading
    refuse("Graph.model.parse", "model '{}' is {} bytes, above the {}-byte limit (protobuf, SONNX_REF_MAX_BYTES)",
           path, size, max_model_bytes());
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size)))
    io_failure("Graph.model.parse", "model '{}' cannot be read", path);
  return from_owned_bytes(std::move(bytes), fmt::format("model '{}'", path), options);
}

Model Model::from_bytes(const std::string& bytes, const std::string& what, const LoadOptions& options) {
  return from_owned_bytes(bytes, what, options);
}

Model Model::from_owned_bytes(std::string bytes, const std::string& what, const LoadOptions& options) {
  if (bytes.size() > max_model_bytes())
    refuse("Graph.model.parse", "{} is {} bytes, above the {}-byte limit", what, bytes.size(), max_model_bytes());
  onnx::ModelProto proto;
  // [Graph.model.parse] onnx's checker and shape inference are not used: they stop at opset 17.
  if (!proto.ParseFromString(bytes))
    refuse("Graph.model.parse", "{} is not an ONNX ModelProto (protobuf parse failed: garbage or truncated file)",
           what);
  Model model;
  model.impl_->bytes = std::move(bytes);
  try {
    model.impl_->load(proto, options);
  } catch (const SpecError& e) {
    throw SpecError(e.id(), fmt::format("{}: {}", what, e.what()), e.kind());
  }
  return model;
}

const std::vector<ValueInfo>& Model::inputs() const { return impl_->inputs; }
const std::vector<ValueInfo>& Model::overridable_inputs() const { return impl_->overridable; }
const std::vector<ValueInfo>& Model::outputs() const { return impl_->outputs; }
const std::vector<NodeInfo>& Model::nodes() const { return impl_->nodes; }
const std::vector<SubgraphNode>& Model::subgraph_nodes() const { return impl_->subgraph_nodes; }
bool Model::complete() const { return impl_->complete; }

const Tensor* Model::initializer(const std::string& n) const {
  auto it = impl_->initializers.find(n);
  return it == impl_->initializers.end() ? nullptr : &it->second;
}

const Tensor* Model::constant(std::size_t node) const {
  const Step& step = impl_->steps.at(node);
  return impl_->nodes.at(node).op_type == "Constant" && !step.outside ? &step.constant : nullptr;
}
std::int64_t Model::opset() const { return impl_->opset; }
const std::string& Model::serialized() const { return impl_->bytes; }

std::optional<DType> Model::declared_input_type(const std::string& n) const {
  for (const auto* list : {&impl_->inputs, &impl_->overridable})
    for (const auto& v : *list)
      if (v.name == n) return v.dtype;
  return std::nullopt;
}

void Model::check_feeds(const std::vector<io::NamedTensor>& feeds) const {
  detail::check_feeds(feeds, impl_->inputs, impl_->overridable);  // [Graph.feed.*]
}

std::vector<io::NamedTensor> Model::run(const std::vector<io::NamedTensor>& feeds, const NodeProgress& progress) const {
  Impl::Values values;
  impl_->evaluate(feeds, false, values, progress);
  std::vector<io::NamedTensor> out;
  const auto& outs = impl_->outputs;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    const std::string& n = outs[k].name;
    bool again = false;  // the same value is also a later output: copy, do not move
    for (std::size_t j = k + 1; j < outs.size(); ++j) again = again || outs[j].name == n;
    auto owned = values.owned.find(n);
    if (owned != values.owned.end() && !again) out.push_back({n, std::move(owned->second)});
    else out.push_back({n, *values.live.at(n)});
  }
  return out;
}

std::map<std::string, Tensor> Model::run_all(const std::vector<io::NamedTensor>& feeds) const {
  Impl::Values values;
  impl_->evaluate(feeds, true, values);
  std::map<std::string, Tensor> out;
  for (const auto& [n, t] : values.live) {
    auto owned = values.owned.find(n);
    if (owned != values.owned.end()) out.emplace(n, std::move(owned->second));
    else out.emplace(n, *t);
  }
  return out;
}

}  // namespace sonnx::graph
