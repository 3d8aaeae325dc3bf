// [Graph.infer] Types and shapes of a model's values by ONNX's own shape inference (libonnx).
#include "graph/infer.hpp"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

namespace sonnx::graph {

namespace detail {

std::map<std::string, const onnx::TypeProto*> infer_types(const onnx::ModelProto& model, onnx::ModelProto& inferred) {
  inferred = model;
  // [Graph.infer] ONNX's InferShapes: no type check, an error of one node ignored (error_mode 0),
  // which is what onnx.shape_inference.infer_shapes does by default.
  onnx::ShapeInferenceOptions options{false, 0, false};
  try {
    onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception&) {
    inferred = model;  // inference gave up on the whole graph: only what the model declares
  }
  std::map<std::string, const onnx::TypeProto*> out;
  const onnx::GraphProto& g = inferred.graph();
  for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto& v : *list)
      if (v.has_type() && !v.name().empty()) out.emplace(v.name(), &v.type());
  return out;
}

}  // namespace detail

namespace {

ValueType value_type(const onnx::TypeProto& t) {
  ValueType v;
  if (t.value_case() != onnx::TypeProto::kTensorType) return v;
  v.elem_type = t.tensor_type().elem_type();
  v.dtype = dtype_from_onnx(v.elem_type);
  if (t.tensor_type().has_shape()) {
    v.shape.emplace();
    for (const auto& d : t.tensor_type().shape().dim()) {
      const bool fixed = d.has_dim_value() && d.dim_value() >= 0;  // else unknown: named, neither, or negative
      v.shape->push_back(fixed ? std::optional<std::int64_t>(d.dim_value()) : std::nullopt);
    }
  }
  return v;
}

}  // namespace

std::map<std::string, ValueType> infer_value_types(const Model& model) {
  onnx::ModelProto proto, inferred;
  if (!proto.ParseFromString(model.serialized()))  // parsed once already ([Graph.model.parse])
    refuse("Graph.model.parse", "the model no longer parses");
  std::map<std::string, ValueType> out;
  for (const auto& [name, type] : detail::infer_types(proto, inferred)) out.emplace(name, value_type(*type));
  for (const auto& t : proto.graph().initializer()) {  // [Graph.initializer] as stored
    ValueType v;
    v.elem_type = t.data_type();
    v.dtype = dtype_from_onnx(v.elem_type);
    v.shape.emplace(t.dims().begin(), t.dims().end());
    out.insert_or_assign(t.name(), v);
  }
  return out;
}

}  // namespace sonnx::graph
