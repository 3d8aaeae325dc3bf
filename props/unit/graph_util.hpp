// Builders of small ONNX models for the graph tests (props/unit/graph_*.cpp). They write the
// ModelProto fields directly, as a model file would hold them; nothing here evaluates anything.
#pragma once
#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <vector>

#include "graph/model.hpp"
#include "test_util.hpp"

namespace sonnx::test {

// dims: nullopt = no shape declared; a dim of -1 is symbolic (dim_param "N").
using Dims = std::optional<std::vector<std::int64_t>>;

inline void set_tensor_type(onnx::ValueInfoProto& v, const std::string& name, int elem, const Dims& dims) {
  v.set_name(name);
  auto* tt = v.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (!dims) return;
  auto* shape = tt->mutable_shape();
  for (std::int64_t d : *dims) {
    auto* dim = shape->add_dim();
    if (d < 0) dim->set_dim_param("N");
    else dim->set_dim_value(d);
  }
}

inline onnx::TensorProto tp_f32(const std::string& name, std::vector<std::int64_t> dims, std::vector<float> v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t.add_dims(d);
  for (float x : v) t.add_float_data(x);
  return t;
}
inline onnx::TensorProto tp_i64(const std::string& name, std::vector<std::int64_t> dims,
                                std::vector<std::int64_t> v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  for (auto d : dims) t.add_dims(d);
  for (auto x : v) t.add_int64_data(x);
  return t;
}

inline onnx::AttributeProto& add_attr(onnx::NodeProto& n, const std::string& name,
                                      onnx::AttributeProto::AttributeType type) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(type);
  return *a;
}
inline void attr_int(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
  add_attr(n, name, onnx::AttributeProto::INT).set_i(v);
}
inline void attr_ints(onnx::NodeProto& n, const std::string& name, std::vector<std::int64_t> v) {
  auto& a = add_attr(n, name, onnx::AttributeProto::INTS);
  for (auto x : v) a.add_ints(x);
}
inline void attr_float(onnx::NodeProto& n, const std::string& name, float v) {
  add_attr(n, name, onnx::AttributeProto::FLOAT).set_f(v);
}
inline void attr_floats(onnx::NodeProto& n, const std::string& name, std::vector<float> v) {
  auto& a = add_attr(n, name, onnx::AttributeProto::FLOATS);
  for (auto x : v) a.add_floats(x);
}
inline void attr_string(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  add_attr(n, name, onnx::AttributeProto::STRING).set_s(v);
}
inline void attr_tensor(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t) {
  *add_attr(n, name, onnx::AttributeProto::TENSOR).mutable_t() = t;
}

// A model with one default-domain opset import (domain "" unless given).
struct ModelBuilder {
  onnx::ModelProto m;

  explicit ModelBuilder(std::int64_t opset, const std::string& domain = "") {
    m.set_ir_version(8);
    auto* o = m.add_opset_import();
    o->set_domain(domain);
    o->set_version(opset);
    m.mutable_graph()->set_name("test");
  }
  onnx::GraphProto& g() { return *m.mutable_graph(); }

  ModelBuilder& input(const std::string& name, int elem = onnx::TensorProto::FLOAT, const Dims& dims = std::nullopt) {
    set_tensor_type(*g().add_input(), name, elem, dims);
    return *this;
  }
  ModelBuilder& output(const std::string& name, int elem = onnx::TensorProto::FLOAT, const Dims& dims = std::nullopt) {
    set_tensor_type(*g().add_output(), name, elem, dims);
    return *this;
  }
  ModelBuilder& initializer(const onnx::TensorProto& t) {
    *g().add_initializer() = t;
    return *this;
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, const std::string& name = "") {
    auto* n = g().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) n->add_output(o);
    return *n;
  }
  std::string bytes() const { return m.SerializeAsString(); }
  graph::Model load(const graph::LoadOptions& options = {}) const {
    return graph::Model::from_bytes(bytes(), "test model", options);
  }
};

using Feeds = std::vector<io::NamedTensor>;

// The output named `name` of a run.
inline const Tensor& output(const std::vector<io::NamedTensor>& outs, const std::string& name) {
  for (const auto& o : outs)
    if (o.name == name) return o.tensor;
  FAIL("no output named " << name);
  throw 0;
}

// The message of the SpecError thrown by f ("" if none).
template <class F> std::string refusal_message(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

}  // namespace sonnx::test
