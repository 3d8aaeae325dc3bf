// The operator versions sonnx-ref implements, and the adapters from ONNX nodes (inputs and
// attributes) to the typed operator functions of src/ops/. [Graph.opset.resolve]
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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
// The kernel of a version: its outputs for the node's inputs and attributes; `wanted` is how many
// outputs the node names (at least 1): a kernel returns at least that many, and need not compute an
// optional output the node does not name (MaxPool's Indices).
using Kernel = std::function<std::vector<Tensor>(const Inputs&, const Attributes&, std::size_t wanted)>;
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
  // The inputs that select rather than carry values (ReduceMax-18's axes): golden does not draw them
  // (they must be given), and their values enter no set.
  struct Parameter {
    std::size_t input;  // the input's position
    std::string name;   // its ONNX name ("axes")
  };
  std::vector<Parameter> parameter_inputs = {};
  // [Check.golden-coverage] What can reach the output given what reaches each input (parameters
  // included, as the node lists them; nullopt for an absent input). Empty: the output selects among
  // its value inputs' values, so it is Free when they all are, OneHot when they all are, else Fixed
  // (selection_source).
  std::function<Source(const std::vector<std::optional<Source>>&)> output_source = {};
  // The element type of output k when it is not the first input's (ArgMax's int64 positions), given the
  // node's attributes (Cast's `to`, ConstantOfShape's `value`).
  std::function<std::optional<DType>(std::size_t, const Attributes&)> output_dtype = {};
  // [Acc.verdict] The operator computes (Conv, Gemm, MatMul): its float outputs are judged within their
  // bound, not bit for bit.
  bool computes = false;
  // [Check.nan-payload.free] The operator's NaN results are arithmetic (Add, Sub, Mul, Div:
  // [Common.arith.nan]): IEEE 754 fixes no payload, so its outputs carry Tensor::nan_payload_free and
  // any NaN conforms to them, under --nan-payload strict too. Set once per operator; the table marks
  // the outputs of every version that declares it.
  bool nan_payload_free = false;
};

// What reaches the output of a node that selects among its value inputs' values.
Source selection_source(const OpVersion& op, const std::vector<std::optional<Source>>& inputs);

// [Graph.opset.resolve] The version of `op_type` in force at default-domain `opset`: the greatest
// since_version <= opset. Refuses unknown operators and opsets below the first version
// ([Graph.opset.unsupported]), listing what is supported.
const OpVersion& resolve(const std::string& op_type, std::int64_t opset);

// "Max 1, 6, 8, 12, 13; ReduceMax 1, 11, 12, 13, 18, 20; Hardmax 1, 11, 13"
std::string supported_operators();
const std::vector<OpVersion>& all_versions();

}  // namespace sonnx::ops
