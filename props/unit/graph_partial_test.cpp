// Hand-derived cases of spec/common/graph.md's partial models, inference, exposure and extraction
// ([Graph.partial], [Graph.partial.run], [Graph.constant], [Graph.infer], [Graph.expose],
// [Graph.extract]) on the layouts props/unit/nodewise_test.cpp does not build: more than eight nodes
// outside the spec, graph outputs whose declarations are refused, a Constant the spec refuses,
// value_info entries inference keeps as declared, nodes with empty and repeated names, initializer
// inputs at IR version 3 and as graph inputs. Every expected value is read from the clause named.
#include <onnx/onnx_pb.h>

#include "graph/expose.hpp"
#include "graph/infer.hpp"
#include "graph_util.hpp"
#include "oracle/check.hpp"

namespace graph_partial_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;

graph::Model partial(const ModelBuilder& b) {
  graph::LoadOptions o;
  o.partial = true;
  return b.load(o);
}

// A value_info entry of the graph: `name`, and a tensor type only when `elem` >= 0 (0: no element type).
onnx::ValueInfoProto& value_info(ModelBuilder& b, const std::string& name, int elem) {
  onnx::ValueInfoProto& v = *b.g().add_value_info();
  v.set_name(name);
  if (elem >= 0) {
    auto* tt = v.mutable_type()->mutable_tensor_type();
    if (elem > 0) tt->set_elem_type(elem);
  }
  return v;
}

std::size_t node_index(const graph::Model& m, const std::string& name) {
  for (std::size_t k = 0; k < m.nodes().size(); ++k)
    if (m.nodes()[k].name == name) return k;
  FAIL("no node " << name);
  return 0;
}

std::vector<std::string> input_names(const graph::Model& m) {
  std::vector<std::string> out;
  for (const auto& v : m.inputs()) out.push_back(v.name);
  for (const auto& v : m.overridable_inputs()) out.push_back(v.name);
  return out;
}

}  // namespace

TEST_CASE("[Graph.partial.run] the refusal of a partial model names the first eight nodes outside the spec, then how many "
          "more, and counts them per operator",
          "[graph][partial]") {
  // X -> n1 -> ... -> n9 -> Y, nine nodes of an operator outside the spec (Foo): the message names
  // n1 to n8 and says "and 1 more"; the per-operator count is "Foo 9".
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
  for (int k = 1; k <= 9; ++k)
    b.node("Foo", {k == 1 ? "X" : fmt::format("V{}", k - 1)}, {k == 9 ? "Y" : fmt::format("V{}", k)}, fmt::format("n{}", k));
  CHECK(refusal_id([&] { b.load(); }) == "Graph.opset.unsupported");
  const std::string message = refusal_message([&] { b.load(); });
  CHECK(message.find("9 node(s) in all (Foo 9)") != std::string::npos);
  CHECK(message.find("node 'n8' (Foo) and 1 more") != std::string::npos);
  CHECK(message.find("node 'n9' (Foo)") == std::string::npos);
  CHECK(partial(b).nodes().size() == 9);  // node-wise, it loads
}

TEST_CASE("[Graph.partial] [Common.gr.explicit-types] [Graph.model.parse] a graph output whose declaration is refused is kept without a type "
          "in a partial model, and refuses a whole one",
          "[graph][partial]") {
  // Q is the output of Foo (outside the spec) and declares no element type: kept, untyped.
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}}).output("Q", 0, Dims{{2}});
  b.node("Relu", {"X"}, {"R"}, "relu");
  b.node("Foo", {"X"}, {"Q"}, "foo");
  const auto m = partial(b);
  REQUIRE(m.outputs().size() == 2);
  CHECK(m.outputs()[1].name == "Q");
  CHECK_FALSE(m.outputs()[1].dtype.has_value());
  CHECK_FALSE(m.complete());
  CHECK_FALSE(check::value_dtype(m, "Q").has_value());  // no type from the model: none to read Q's bits by
  CHECK(check::value_dtype(m, "R") == DType::Float);
  // Every node supported (Relu for Foo): the model is whole, and the refused declaration refuses it,
  // partial load or not.
  b.g().mutable_node(1)->set_op_type("Relu");
  CHECK(refusal_id([&] { partial(b); }) == "Common.gr.explicit-types");
  CHECK(refusal_id([&] { b.load(); }) == "Common.gr.explicit-types");
  // A graph output with no name names no value: refused ([Graph.model.parse]) in a partial model too.
  ModelBuilder c(13);
  c.input("X", F, Dims{{2}}).output("R", F, Dims{{2}}).output("", F, Dims{{2}});
  c.node("Relu", {"X"}, {"R"}, "relu");
  c.node("Foo", {"X"}, {"Q"}, "foo");
  CHECK(refusal_id([&] { partial(c); }) == "Graph.model.parse");
}

TEST_CASE("[Graph.constant] [Graph.partial] a Constant node whose value the spec refuses is not judged and fixes no value",
          "[graph][partial]") {
  // A Constant holding strings (value_strings) is refused by [Graph.constant]: in a partial model it is
  // a node not judged, with that clause, and the model has no constant value for it.
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}});
  auto& k = b.node("Constant", {}, {"S"}, "strings");
  add_attr(k, "value_strings", onnx::AttributeProto::STRINGS).add_strings("a");
  auto& f = b.node("Constant", {}, {"C"}, "floats");
  attr_tensor(f, "value", tp_f32("", {2}, {1, 2}));
  b.node("Foo", {"S"}, {"T"}, "foo");
  b.node("Relu", {"X"}, {"R"}, "relu");
  const auto m = partial(b);
  const std::size_t s = node_index(m, "strings");
  CHECK(m.nodes()[s].not_judged_clause == "Graph.constant");
  CHECK(m.constant(s) == nullptr);
  REQUIRE(m.constant(node_index(m, "floats")) != nullptr);
  CHECK(values<float>(*m.constant(node_index(m, "floats"))) == std::vector<float>{1, 2});
}

TEST_CASE("[Graph.infer] what the model's value_info declares of a value no schema computes is kept — unnamed or untyped "
          "entries give nothing, a dimension neither fixed nor named stays unknown",
          "[graph][infer]") {
  // Q = Foo(X) has no schema, so ONNX's inference leaves its value_info as written: float, shape
  // [2, N, ?, -1] — 2 fixed, N named (unknown size), one dimension with neither value nor name, and a
  // negative value, which fixes nothing. An entry with no type, and one with no name, describe nothing.
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}});
  b.node("Foo", {"X"}, {"Q"}, "foo");
  b.node("Relu", {"X"}, {"R"}, "relu");
  auto* shape = value_info(b, "Q", F).mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->add_dim()->set_dim_value(2);
  shape->add_dim()->set_dim_param("N");
  shape->add_dim();
  shape->add_dim()->set_dim_value(-1);
  value_info(b, "U", -1);  // a name, no type
  value_info(b, "", F);    // a type, no name
  const auto types = graph::infer_value_types(partial(b));
  REQUIRE(types.count("Q"));
  CHECK(types.at("Q").dtype == DType::Float);
  REQUIRE(types.at("Q").shape.has_value());
  CHECK(*types.at("Q").shape == std::vector<std::optional<std::int64_t>>{2, std::nullopt, std::nullopt, std::nullopt});
  if (types.count("U")) {  // known to be a value, of no known type
    CHECK(types.at("U").elem_type == 0);
    CHECK_FALSE(types.at("U").shape.has_value());
  }
  CHECK_FALSE(types.count(""));
}

TEST_CASE("[Graph.infer] when ONNX's inference refuses the graph, what the model declares is kept", "[graph][infer]") {
  // The model declares Q = Relu(X) int64 in value_info where Relu of a float is a float: libonnx's
  // InferShapes throws on that conflict even in error mode 0, so nothing is inferred and the types are
  // the model's own declarations: Q int64 [2] as declared, U (declared without a type) nothing, the
  // graph input X float [2].
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}});
  b.node("Relu", {"X"}, {"Q"}, "relu");
  b.node("Foo", {"Q"}, {"R"}, "foo");
  set_tensor_type(*b.g().add_value_info(), "Q", onnx::TensorProto::INT64, Dims{{2}});
  value_info(b, "U", -1);
  const auto types = graph::infer_value_types(partial(b));
  REQUIRE(types.count("Q"));
  CHECK(types.at("Q").dtype == DType::Int64);
  CHECK(types.at("X").dtype == DType::Float);
  CHECK_FALSE(types.count("U"));
}

TEST_CASE("[Graph.expose] a value whose declared type has no element type is left out with why, an empty output name is "
          "skipped",
          "[graph][expose]") {
  // Foo's outputs: Q, whose value_info is a tensor type without element type, and "" (no output);
  // Relu's output R is the graph output. Exposed: R, then nothing of Foo ([Graph.expose]: not empty,
  // and an element type and a shape, which Q lacks).
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}});
  b.node("Foo", {"X"}, {"Q", "", "P"}, "foo");
  b.node("Relu", {"X"}, {"R"}, "relu");
  value_info(b, "Q", 0).mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  // P's element type is written, as 0 (UNDEFINED): no element type either.
  auto* p = value_info(b, "P", 0).mutable_type()->mutable_tensor_type();
  p->set_elem_type(0);
  p->mutable_shape()->add_dim()->set_dim_value(2);
  const auto e = graph::expose(partial(b));
  CHECK(e.outputs == std::vector<std::string>{"R"});
  REQUIRE(e.not_exposed.size() == 2);
  CHECK(e.not_exposed[0].first == "Q");
  CHECK(e.not_exposed[0].second == "ONNX's shape inference gives it no element type");
  CHECK(e.not_exposed[1].first == "P");
  CHECK(e.not_exposed[1].second == "ONNX's shape inference gives it no element type");
}

TEST_CASE("[Graph.extract] every distinct input once, none for an empty name, an initializer stays an initializer, also a "
          "graph input when the model lists it as one",
          "[graph][extract]") {
  // Y = Max-13(X, X, B) and Z = Clip-13(X, "", H): the extracted Max's graph inputs are X and B (X
  // once), B an initializer with the model's value, declared as a graph input because the model lists
  // it as one (IR version 8); the extracted Clip's are X and H ("" is no input).
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).input("B", F, Dims{{2}}).input("H", F, Dims{std::vector<std::int64_t>{}});
  b.output("Y", F, Dims{{2}}).output("Z", F, Dims{{2}});
  b.initializer(tp_f32("B", {2}, {0.5f, -0.5f}));
  b.node("Max", {"X", "X", "B"}, {"Y"}, "max");
  b.node("Clip", {"X", "", "H"}, {"Z"}, "clip");
  const auto m = b.load();
  const auto one = graph::Model::from_bytes(graph::extract_node(m, node_index(m, "max")), "extracted");
  CHECK(input_names(one) == std::vector<std::string>{"X", "B"});
  REQUIRE(one.initializer("B") != nullptr);
  CHECK(values<float>(*one.initializer("B")) == std::vector<float>{0.5f, -0.5f});
  CHECK(one.nodes()[0].inputs == std::vector<std::string>{"X", "X", "B"});
  const auto clip = graph::Model::from_bytes(graph::extract_node(m, node_index(m, "clip")), "extracted");
  CHECK(input_names(clip) == std::vector<std::string>{"X", "H"});
  CHECK(clip.nodes()[0].inputs == std::vector<std::string>{"X", "", "H"});
  // The same model without B among the graph inputs: B is an initializer only.
  b.g().mutable_input()->DeleteSubrange(1, 1);
  const auto m2 = b.load();
  const auto two = graph::Model::from_bytes(graph::extract_node(m2, node_index(m2, "max")), "extracted");
  CHECK(input_names(two) == std::vector<std::string>{"X"});
  CHECK(two.initializer("B") != nullptr);
}

TEST_CASE("[Graph.extract] at IR version 3 an initializer input is declared as a graph input, as ONNX requires there",
          "[graph][extract]") {
  // Y = Max-8(X, B), B an initializer (listed among the graph inputs, as IR version 3 requires): the
  // extracted model, IR version 3 too, declares B as a graph input beside its initializer.
  ModelBuilder b(8);
  b.m.set_ir_version(3);
  b.input("X", F, Dims{{2}}).input("B", F, Dims{{2}}).output("Y", F, Dims{{2}});
  b.initializer(tp_f32("B", {2}, {1, 2}));
  b.node("Max", {"X", "B"}, {"Y"}, "max");
  const std::string bytes = graph::extract_node(b.load(), 0);
  onnx::ModelProto one;
  REQUIRE(one.ParseFromString(bytes));
  CHECK(one.ir_version() == 3);
  REQUIRE(one.graph().input_size() == 2);
  CHECK(one.graph().input(1).name() == "B");
  REQUIRE(one.graph().initializer_size() == 1);
  CHECK(one.graph().initializer(0).name() == "B");
}

}  // namespace graph_partial_test
