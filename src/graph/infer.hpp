// [Graph.infer] The element type and shape of every value of a model, as ONNX's own shape inference
// (libonnx, onnx::shape_inference::InferShapes) gives them — never a hand-written inference. Used by
// the node-wise commands: expose ([Graph.expose]), the single-node models of golden --nodes
// ([Graph.extract]) and the check of an IUT's values against the model ([Check.nodewise.dump]).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/model.hpp"

namespace onnx {
class ModelProto;
class TypeProto;
}  // namespace onnx

namespace sonnx::graph {

// What the model says of one value (main graph only).
struct ValueType {
  int elem_type = 0;                // TensorProto.DataType; 0: unknown
  std::optional<DType> dtype;       // the same when it is one of [Common.dtype.set]
  // nullopt: no shape known; a dim nullopt: symbolic or unknown
  std::optional<std::vector<std::optional<std::int64_t>>> shape;
};

// Every value of the main graph whose type is known: graph inputs and outputs as declared, initializers
// as stored, value_info entries, and what ONNX's shape inference adds.
std::map<std::string, ValueType> infer_value_types(const Model& model);

namespace detail {
// The same as TypeProtos, on a parsed model: the inferred copy of `model` is written to `inferred`
// (ONNX's InferShapes, errors of single nodes ignored, as onnx.shape_inference.infer_shapes does by
// default); the map points into it.
std::map<std::string, const onnx::TypeProto*> infer_types(const onnx::ModelProto& model, onnx::ModelProto& inferred);
}  // namespace detail

}  // namespace sonnx::graph
