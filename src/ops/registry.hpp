// The operator versions sonnx-ref implements, and the adapters from ONNX nodes (inputs and
// attributes) to the typed operator functions of src/ops/. [Graph.opset.resolve]
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// An attribute value as read from the model (AttributeProto's INT, INTS, FLOAT, FLOATS, STRING,
// TENSOR kinds). The graph loader converts; kinds not listed are refused there.
using AttributeValue = std::variant<std::int64_t, std::vector<std::int64_t>, float, std::vector<float>,
                                    std::string, Tensor>;
using Attributes = std::map<std::string, AttributeValue>;
std::string attribute_kind_name(const AttributeValue& v);  // "int", "ints", "float", ...

// Node inputs: nullptr for an absent optional input (empty name in the node).
using Inputs = std::vector<const Tensor*>;
using Kernel = std::function<std::vector<Tensor>(const Inputs&, const Attributes&)>;
// The operator's definition at one index of its output: `v` holds the node's inputs, names and its
// evaluated output ([ops/definition.hpp]).
using Decide = std::function<Decision(const NodeValues& v, const Attributes&, const std::vector<std::int64_t>& index)>;

struct OpVersion {
  std::string op_type;
  int since_version;
  int min_inputs, max_inputs;  // [Graph.node.arity]
  int outputs;
  Kernel run;  // checks attribute names and kinds ([Graph.node.attributes]) then calls the operator
  // [Graph.node.attributes] the same attribute check alone, so a model is refused when it is
  // loaded, before any node runs.
  std::function<void(const Attributes&)> check_attributes;
  Decide decide;  // why one output element has its value (explain, check, golden)
  // [Check.golden-coverage] the situations the node can reach, given where its inputs' values come from
  std::function<std::vector<Reach>(const NodeValues&, const Attributes&, const std::vector<Source>&)> reach;
};

// [Graph.opset.resolve] The version of `op_type` in force at default-domain `opset`: the greatest
// since_version <= opset. Refuses unknown operators and opsets below the first version
// ([Graph.opset.unsupported]), listing what is supported.
const OpVersion& resolve(const std::string& op_type, std::int64_t opset);

// "Max 1, 6, 8, 12, 13; ReduceMax 1, 11, 12, 13, 18, 20; Hardmax 1, 11, 13"
std::string supported_operators();
const std::vector<OpVersion>& all_versions();

}  // namespace sonnx::ops
