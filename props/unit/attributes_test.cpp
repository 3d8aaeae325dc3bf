// Hand-derived checks of attributes without a declared type ([Graph.node.attributes]): "for models
// that predate that field (type UNDEFINED), [the kind] is the one value field that is set, and an
// attribute with no or several value fields set is refused". Every value field of AttributeProto
// is paired with the field of each kind a supported node takes, so that a reader which overlooks
// any one field (or accepts the first of several) takes a refused attribute for a valid one.
#include <functional>

#include "graph_util.hpp"

namespace attributes_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using onnx::AttributeProto;

namespace {

// The 14 value fields of AttributeProto, each set to a small value.
struct Field {
  const char* name;
  std::function<void(AttributeProto&)> set;
};
const std::vector<Field>& value_fields() {
  static const std::vector<Field> fields = {
      {"i", [](AttributeProto& a) { a.set_i(0); }},
      {"f", [](AttributeProto& a) { a.set_f(1.0f); }},
      {"s", [](AttributeProto& a) { a.set_s("1"); }},
      {"t", [](AttributeProto& a) { *a.mutable_t() = tp_f32("", {1}, {1.0f}); }},
      {"g", [](AttributeProto& a) { a.mutable_g()->set_name("g"); }},
      {"sparse_tensor", [](AttributeProto& a) { a.mutable_sparse_tensor()->add_dims(1); }},
      {"tp", [](AttributeProto& a) { a.mutable_tp()->mutable_tensor_type()->set_elem_type(1); }},
      {"ints", [](AttributeProto& a) { a.add_ints(0); }},
      {"floats", [](AttributeProto& a) { a.add_floats(1.0f); }},
      {"strings", [](AttributeProto& a) { a.add_strings("1"); }},
      {"tensors", [](AttributeProto& a) { *a.add_tensors() = tp_f32("", {1}, {1.0f}); }},
      {"graphs", [](AttributeProto& a) { a.add_graphs()->set_name("g"); }},
      {"sparse_tensors", [](AttributeProto& a) { a.add_sparse_tensors()->add_dims(1); }},
      {"type_protos", [](AttributeProto& a) { a.add_type_protos()->mutable_tensor_type()->set_elem_type(1); }},
  };
  return fields;
}

// A node attribute that is valid when its one value field is `field`: the node, and its name.
struct Accepting {
  const char* field;
  const char* what;
  std::function<ModelBuilder(const std::function<void(AttributeProto&)>&)> model;
};

// A model whose only node has one attribute named `name`, of type UNDEFINED, filled by `fill`.
ModelBuilder with_untyped(std::int64_t opset, const std::string& op, const std::vector<std::string>& ins,
                          const std::string& name, const std::function<void(AttributeProto&)>& fill) {
  ModelBuilder b(opset);
  for (const auto& in : ins) b.input(in, onnx::TensorProto::FLOAT, std::vector<std::int64_t>{2, 2});
  b.output("Y");
  auto* a = b.node(op, ins, {"Y"}).add_attribute();
  a->set_name(name);  // type left UNDEFINED
  fill(*a);
  return b;
}

const std::vector<Accepting>& accepting() {
  static const std::vector<Accepting> cases = {
      {"i", "Hardmax-13 axis (int)",
       [](auto fill) { return with_untyped(13, "Hardmax", {"X"}, "axis", fill); }},
      {"ints", "ReduceMax-13 axes (ints)",
       [](auto fill) { return with_untyped(13, "ReduceMax", {"X"}, "axes", fill); }},
      {"f", "Constant-12 value_float (float)",
       [](auto fill) { return with_untyped(12, "Constant", {}, "value_float", fill); }},
      {"floats", "Constant-12 value_floats (floats)",
       [](auto fill) { return with_untyped(12, "Constant", {}, "value_floats", fill); }},
      {"t", "Constant-12 value (tensor)",
       [](auto fill) { return with_untyped(12, "Constant", {}, "value", fill); }},
  };
  return cases;
}

const Field& field_named(const std::string& name) {
  for (const auto& f : value_fields())
    if (name == f.name) return f;
  FAIL("no field " << name);
  throw 0;
}

}  // namespace

TEST_CASE("[Graph.node.attributes] an attribute without type is read from its one value field, for each kind a "
          "supported node takes",
          "[graph]") {
  for (const Accepting& c : accepting()) {
    INFO(c.what << " given as field " << c.field << " alone");
    const ModelBuilder b = c.model(field_named(c.field).set);
    CHECK(refusal_id([&] { b.load(); }) == "");
  }
  // And the value is the field's: Hardmax-13 axis 0 (field i = 0) of [[1, 2], [3, 0]] puts the 1
  // of each column at its maximum: column 0 at row 1 (3 > 1), column 1 at row 0 (2 > 0).
  const ModelBuilder hardmax = accepting()[0].model(field_named("i").set);
  const auto out = hardmax.load().run({{"X", f32({2, 2}, {1, 2, 3, 0})}});
  CHECK(values<float>(out.at(0).tensor) == std::vector<float>{0, 1, 1, 0});
}

TEST_CASE("[Graph.node.attributes] an attribute without type and with two value fields set is refused, for every "
          "field beside each accepted kind",
          "[graph]") {
  int checked = 0;
  for (const Accepting& c : accepting()) {
    for (const Field& other : value_fields()) {
      if (std::string(other.name) == c.field) continue;
      INFO(c.what << " given as fields " << c.field << " and " << other.name);
      const ModelBuilder b = c.model([&](AttributeProto& a) {
        field_named(c.field).set(a);
        other.set(a);
      });
      CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
      ++checked;
    }
  }
  CHECK(checked == 5 * 13);
}

TEST_CASE("[Graph.node.attributes] an attribute without type and without any value field is refused", "[graph]") {
  for (const Accepting& c : accepting()) {
    INFO(c.what << " with no value field");
    const ModelBuilder b = c.model([](AttributeProto&) {});
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
  }
}

}  // namespace attributes_test
