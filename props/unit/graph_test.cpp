// Hand-derived examples of spec/common/graph.md: model loading, version resolution, Constant nodes,
// evaluation order, feeds and the refusals of the graph loader. Models are built field by field
// (graph_util.hpp); expected values are worked out by hand in the comments.
#include "graph_util.hpp"

namespace graph_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using onnx::TensorProto;
using graph::Model;

namespace {

// The resolved version of the single node of a one-node model at `opset`.
int resolved(const std::string& op, std::int64_t opset, const std::vector<std::string>& ins = {"X"}) {
  ModelBuilder b(opset);
  b.input("X").output("Y");
  for (const auto& i : ins)
    if (i != "X" && !i.empty()) b.input(i);
  b.node(op, ins, {"Y"});
  return b.load({.assume_opset_reviewed = opset > graph::kReviewedOpset}).nodes().at(0).version;
}

int constant_version(std::int64_t opset) {
  ModelBuilder b(opset);
  b.output("C");
  attr_tensor(b.node("Constant", {}, {"C"}), "value", tp_f32("", {1}, {1}));
  return b.load({.assume_opset_reviewed = opset > graph::kReviewedOpset}).nodes().at(0).version;
}

}  // namespace

TEST_CASE("[Graph.opset.reviewed] an opset above 28 is refused unless --assume-opset-reviewed", "[graph]") {
  auto model = [](std::int64_t opset) {
    ModelBuilder b(opset);
    b.input("X").output("Y");
    b.node("Max", {"X"}, {"Y"});
    return b;
  };
  CHECK(graph::kReviewedOpset == 28);  // the spec's sentence: "reviewed ... up to 28"
  CHECK(refusal_id([&] { model(28).load(); }) == "");
  CHECK(refusal_id([&] { model(29).load(); }) == "Graph.opset.reviewed");
  CHECK(refusal_id([&] { model(99).load(); }) == "Graph.opset.reviewed");
  CHECK(refusal_id([&] { model(99).load({.assume_opset_reviewed = true}); }) == "");
  CHECK(model(99).load({.assume_opset_reviewed = true}).nodes().at(0).version == 13);  // the table's newest
}

// ---------------------------------------------------------------------------------------------
// Version resolution

TEST_CASE("[Graph.opset.resolve] each node runs the greatest since_version <= the opset", "[graph]") {
  // Max: 1, 6, 8, 12, 13
  CHECK(resolved("Max", 1) == 1);
  CHECK(resolved("Max", 5) == 1);
  CHECK(resolved("Max", 7) == 6);
  CHECK(resolved("Max", 10) == 8);
  CHECK(resolved("Max", 12) == 12);
  CHECK(resolved("Max", 21) == 13);
  // ReduceMax: 1, 11, 12, 13, 18, 20
  CHECK(resolved("ReduceMax", 10) == 1);
  CHECK(resolved("ReduceMax", 11) == 11);
  CHECK(resolved("ReduceMax", 17) == 13);
  CHECK(resolved("ReduceMax", 18) == 18);
  CHECK(resolved("ReduceMax", 19) == 18);
  CHECK(resolved("ReduceMax", 22) == 20);
  // Hardmax: 1, 11, 13
  CHECK(resolved("Hardmax", 10) == 1);
  CHECK(resolved("Hardmax", 12) == 11);
  CHECK(resolved("Hardmax", 18) == 13);
}

TEST_CASE("[Graph.opset.resolve] [Graph.constant] Constant versions 1, 9, 11, 12, 13, 19, 21, 23, 24, 25", "[graph]") {
  CHECK(constant_version(1) == 1);
  CHECK(constant_version(8) == 1);
  CHECK(constant_version(10) == 9);
  CHECK(constant_version(11) == 11);
  CHECK(constant_version(12) == 12);
  CHECK(constant_version(18) == 13);
  CHECK(constant_version(20) == 19);
  CHECK(constant_version(22) == 21);
  CHECK(constant_version(23) == 23);
  CHECK(constant_version(24) == 24);
  CHECK(constant_version(28) == 25);
}

TEST_CASE("[Graph.opset.resolve] domain \"ai.onnx\" is the default domain, other imports unused are fine",
          "[graph]") {
  ModelBuilder b(17, "ai.onnx");
  auto* ml = b.m.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(3);
  b.input("X").output("Y");
  b.node("ReduceMax", {"X"}, {"Y"}).set_domain("ai.onnx");
  const Model model = b.load();
  CHECK(model.opset() == 17);
  CHECK(model.nodes().at(0).version == 13);
}

// ---------------------------------------------------------------------------------------------
// Constants, chains, several outputs, initializers

TEST_CASE("[Graph.constant] Constant 'value' gives the axes of ReduceMax-18", "[graph]") {
  ModelBuilder b(18);
  b.input("X", TensorProto::FLOAT, Dims{{2, 3}}).output("Y", TensorProto::FLOAT, Dims{{2}});
  attr_tensor(b.node("Constant", {}, {"axes"}), "value", tp_i64("", {1}, {1}));
  attr_int(b.node("ReduceMax", {"X", "axes"}, {"Y"}), "keepdims", 0);
  const Model model = b.load();
  // X = [[1, 5, 2], [7, 0, 3]]; max over axis 1 = [5, 7]
  auto out = model.run({{"X", f32({2, 3}, {1, 5, 2, 7, 0, 3})}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].name == "Y");
  CHECK(out[0].tensor.shape() == Shape{2});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{5, 7});
}

TEST_CASE("[Graph.constant] value_ints (v12+) is an int64 tensor of rank 1", "[graph]") {
  ModelBuilder b(20);
  b.input("X").output("Y");
  attr_ints(b.node("Constant", {}, {"axes"}), "value_ints", {0});
  b.node("ReduceMax", {"X", "axes"}, {"Y"});  // keepdims default 1
  // X = [[1, 5, 2], [7, 0, 3]]; max over axis 0, kept = [[7, 5, 3]]
  auto out = b.load().run({{"X", f32({2, 3}, {1, 5, 2, 7, 0, 3})}});
  CHECK(out[0].tensor.shape() == Shape{1, 3});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{7, 5, 3});
}

TEST_CASE("[Graph.constant] value_float is a float scalar, value_floats a float vector", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("Y").output("Z");
  attr_float(b.node("Constant", {}, {"c"}), "value_float", 4.0f);
  attr_floats(b.node("Constant", {}, {"v"}), "value_floats", {0.5f, 6.0f, -1.0f});
  b.node("Max", {"X", "c"}, {"Y"});
  b.node("Max", {"X", "v"}, {"Z"});
  const Model model = b.load();
  // X = [[1, 5, 2], [7, 0, 3]]: Max with the scalar 4 = [[4, 5, 4], [7, 4, 4]];
  // Max with [0.5, 6, -1] broadcast on rows = [[1, 6, 2], [7, 6, 3]]
  auto out = model.run({{"X", f32({2, 3}, {1, 5, 2, 7, 0, 3})}});
  CHECK(values<float>(output(out, "Y")) == std::vector<float>{4, 5, 4, 7, 4, 4});
  CHECK(values<float>(output(out, "Z")) == std::vector<float>{1, 6, 2, 7, 6, 3});
}

TEST_CASE("[Graph.constant] value_int is an int64 scalar (rank 0: refused as ReduceMax axes)", "[graph]") {
  ModelBuilder b(18);
  b.input("X").output("Y").output("C", TensorProto::INT64);
  attr_int(b.node("Constant", {}, {"C"}), "value_int", -1);
  b.node("ReduceMax", {"X", "C"}, {"Y"});
  const Model model = b.load();
  CHECK(refusal_id([&] { model.run({{"X", f32({2}, {1, 2})}}); }) == "ReduceMax.err.axes-input");
  // The constant itself: rank 0, one element, -1.
  ModelBuilder c(18);
  c.output("C", TensorProto::INT64, Dims{std::vector<std::int64_t>{}});
  attr_int(c.node("Constant", {}, {"C"}), "value_int", -1);
  auto out = c.load().run({});
  CHECK(out[0].tensor.dtype() == DType::Int64);
  CHECK(out[0].tensor.shape() == Shape{});
  CHECK(values<std::int64_t>(out[0].tensor) == std::vector<std::int64_t>{-1});
}

TEST_CASE("[Graph.order.topological] a chain written backwards runs Max, Hardmax, ReduceMax", "[graph]") {
  ModelBuilder b(13);
  b.input("A").input("B").output("R");
  attr_ints(b.node("ReduceMax", {"H"}, {"R"}, "reduce"), "axes", {0});
  b.node("Hardmax", {"M"}, {"H"}, "hardmax");
  b.node("Max", {"A", "B"}, {"M"}, "max");
  const Model model = b.load();
  REQUIRE(model.nodes().size() == 3);
  CHECK(model.nodes()[0].name == "max");
  CHECK(model.nodes()[1].name == "hardmax");
  CHECK(model.nodes()[2].name == "reduce");
  // M = Max([[1, 4], [3, 2]], [[2, 0], [3, 5]]) = [[2, 4], [3, 5]]
  // H = Hardmax-13 (axis -1) = [[0, 1], [0, 1]];  R = ReduceMax over axis 0, keepdims = [[0, 1]]
  auto out = model.run({{"A", f32({2, 2}, {1, 4, 3, 2})}, {"B", f32({2, 2}, {2, 0, 3, 5})}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].tensor.shape() == Shape{1, 2});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{0, 1});
}

TEST_CASE("[Graph.order.topological] several outputs, a value read by two nodes, run_all", "[graph]") {
  ModelBuilder b(13);
  b.input("A").input("B").output("H").output("M").output("R");
  b.node("Max", {"A", "B"}, {"M"});
  b.node("Hardmax", {"M"}, {"H"});
  attr_int(b.node("ReduceMax", {"M"}, {"R"}), "keepdims", 0);
  const Model model = b.load();
  const Feeds feeds = {{"A", f32({2, 2}, {1, 4, 3, 2})}, {"B", f32({2, 2}, {2, 0, 3, 5})}};
  auto out = model.run(feeds);
  REQUIRE(out.size() == 3);  // in declaration order
  CHECK(out[0].name == "H");
  CHECK(out[1].name == "M");
  CHECK(out[2].name == "R");
  CHECK(values<float>(out[0].tensor) == std::vector<float>{0, 1, 0, 1});
  CHECK(values<float>(out[1].tensor) == std::vector<float>{2, 4, 3, 5});
  CHECK(out[2].tensor.shape() == Shape{});  // all axes, keepdims 0: max of 2, 4, 3, 5
  CHECK(values<float>(out[2].tensor) == std::vector<float>{5});
  auto all = model.run_all(feeds);
  CHECK(all.size() == 5);  // A, B, M, H, R
  CHECK(values<float>(all.at("A")) == std::vector<float>{1, 4, 3, 2});
  CHECK(values<float>(all.at("M")) == std::vector<float>{2, 4, 3, 5});
}

TEST_CASE("[Graph.order.topological] a graph output may be a graph input or an initializer", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("X").output("W").output("Y");
  b.initializer(tp_f32("W", {2}, {-0.0f, 8}));
  b.node("Max", {"X", "W"}, {"Y"});
  // Y = Max([1, -3], [-0, 8]) = [1, 8]
  auto out = b.load().run({{"X", f32({2}, {1, -3})}});
  CHECK(values<float>(output(out, "X")) == std::vector<float>{1, -3});
  CHECK(bits(output(out, "W")) == bits(std::vector<float>{-0.0f, 8}));
  CHECK(values<float>(output(out, "Y")) == std::vector<float>{1, 8});
}

TEST_CASE("[Graph.initializer] a graph input with an initializer is optional and may be overridden", "[graph]") {
  ModelBuilder b(13);
  b.input("X", TensorProto::FLOAT, Dims{{2}}).input("B", TensorProto::FLOAT, Dims{{2}}).output("Y");
  b.initializer(tp_f32("B", {2}, {10, -10}));
  b.node("Max", {"X", "B"}, {"Y"});
  const Model model = b.load();
  REQUIRE(model.inputs().size() == 1);
  CHECK(model.inputs()[0].name == "X");
  REQUIRE(model.overridable_inputs().size() == 1);
  CHECK(model.overridable_inputs()[0].name == "B");
  // Not fed: B = [10, -10]; Max([1, 2], B) = [10, 2]
  CHECK(values<float>(model.run({{"X", f32({2}, {1, 2})}})[0].tensor) == std::vector<float>{10, 2});
  // Fed: B = [0, 0]; Max([1, 2], [0, 0]) = [1, 2]
  CHECK(values<float>(model.run({{"X", f32({2}, {1, 2})}, {"B", f32({2}, {0, 0})}})[0].tensor) ==
        std::vector<float>{1, 2});
  // The override is checked against the declaration.
  CHECK(refusal_id([&] { model.run({{"X", f32({2}, {1, 2})}, {"B", f32({3}, {0, 0, 0})}}); }) ==
        "Graph.feed.shape");
}

TEST_CASE("[Graph.initializer] an initializer that is not a graph input is a constant value", "[graph]") {
  ModelBuilder b(18);
  b.input("X").output("Y");
  b.initializer(tp_i64("axes", {1}, {-1}));
  attr_int(b.node("ReduceMax", {"X", "axes"}, {"Y"}), "keepdims", 0);
  const Model model = b.load();
  CHECK(model.inputs().size() == 1);
  // X = [[1, 5, 2], [7, 0, 3]]; max over the last axis = [5, 7]
  CHECK(values<float>(model.run({{"X", f32({2, 3}, {1, 5, 2, 7, 0, 3})}})[0].tensor) == std::vector<float>{5, 7});
  // Feeding it is refused: it is no graph input.
  CHECK(refusal_id([&] { model.run({{"X", f32({1}, {1})}, {"axes", make_tensor<std::int64_t>({1}, {0})}}); }) ==
        "Graph.feed.extra");
}

TEST_CASE("[Graph.node.arity] absent optional input (empty name) of ReduceMax-18 is nullptr", "[graph]") {
  ModelBuilder b(18);
  b.input("X").output("Y");
  attr_int(b.node("ReduceMax", {"X", ""}, {"Y"}), "keepdims", 0);
  // axes absent, noop_with_empty_axes 0: every axis reduced; max of [[1, 5, 2], [7, 0, 3]] = 7
  auto out = b.load().run({{"X", f32({2, 3}, {1, 5, 2, 7, 0, 3})}});
  CHECK(out[0].tensor.shape() == Shape{});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{7});
}

TEST_CASE("[Graph.feed.shape] symbolic dims take any size, fixed dims and rank must match", "[graph]") {
  ModelBuilder b(13);
  b.input("X", TensorProto::FLOAT, Dims{{-1, 2}}).output("Y");
  b.node("Hardmax", {"X"}, {"Y"});
  const Model model = b.load();
  CHECK(model.inputs()[0].shape->at(0) == std::nullopt);
  CHECK(model.inputs()[0].shape->at(1) == 2);
  // [[3, 1], [1, 3], [2, 2]] -> one-hot of the first maximum per row: [[1, 0], [0, 1], [1, 0]]
  CHECK(values<float>(model.run({{"X", f32({3, 2}, {3, 1, 1, 3, 2, 2})}})[0].tensor) ==
        std::vector<float>{1, 0, 0, 1, 1, 0});
  CHECK(values<float>(model.run({{"X", f32({1, 2}, {0, 9})}})[0].tensor) == std::vector<float>{0, 1});
  CHECK(refusal_id([&] { model.run({{"X", f32({2, 3}, {1, 2, 3, 4, 5, 6})}}); }) == "Graph.feed.shape");
  CHECK(refusal_id([&] { model.run({{"X", f32({2}, {1, 2})}}); }) == "Graph.feed.shape");
  CHECK(refusal_id([&] { model.run({{"X", f32({1, 1, 2}, {1, 2})}}); }) == "Graph.feed.shape");
  const auto msg = refusal_message([&] { model.run({{"X", f32({2, 3}, {1, 2, 3, 4, 5, 6})}}); });
  CHECK_THAT(msg, Catch::Contains("'X'") && Catch::Contains("[2, 3]") && Catch::Contains("[?, 2]"));
}

// ---------------------------------------------------------------------------------------------
// Refusals: the model file

TEST_CASE("[Graph.model.parse] garbage, truncated and graph-less models are refused", "[graph]") {
  CHECK(refusal_id([] { Model::from_bytes("\xff\xff\xff\xff garbage", "g"); }) == "Graph.model.parse");
  CHECK(refusal_id([] { Model::from_bytes("", "empty"); }) == "Graph.model.parse");  // parses, no graph
  ModelBuilder b(13);
  b.input("X").output("Y");
  b.node("Max", {"X"}, {"Y"});
  const std::string bytes = b.bytes();
  // The last field (opset_import) cut short: its length prefix promises more than there is.
  CHECK(refusal_id([&] { Model::from_bytes(bytes.substr(0, bytes.size() - 1), "cut"); }) == "Graph.model.parse");
  // Every truncation is refused or loads a smaller model; none crashes.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      Model::from_bytes(bytes.substr(0, n), "cut");
    } catch (const SpecError&) {
    }
  }
  CHECK(refusal_id([] { Model::load("/nonexistent/model.onnx"); }) == "Graph.model.parse");
  CHECK(refusal_id([] { Model::load("/"); }) == "Graph.model.parse");
}

TEST_CASE("[Graph.opset.domain] no default-domain opset import, a node of another domain", "[graph]") {
  ModelBuilder b(13, "ai.onnx.ml");
  b.input("X").output("Y");
  b.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { b.load(); }) == "Graph.opset.domain");

  ModelBuilder c(13);
  c.input("X").output("Y");
  c.node("Max", {"X"}, {"Y"}, "mx").set_domain("com.microsoft");
  CHECK(refusal_id([&] { c.load(); }) == "Graph.opset.domain");
  CHECK_THAT(refusal_message([&] { c.load(); }), Catch::Contains("com.microsoft") && Catch::Contains("mx"));
}

TEST_CASE("[Graph.opset.unsupported] unknown operators and opsets below the first version", "[graph]") {
  CHECK(refusal_id([] { resolved("Softsign", 13); }) == "Graph.opset.unsupported");
  CHECK_THAT(refusal_message([] { resolved("Softsign", 13); }),
             Catch::Contains("ReduceMax") && Catch::Contains("Constant"));
  CHECK(refusal_id([] { resolved("Max", 0); }) == "Graph.opset.unsupported");
  CHECK(refusal_id([] { constant_version(0); }) == "Graph.opset.unsupported");
}

TEST_CASE("[Graph.node.attributes] attribute kinds outside int/ints/float/floats/string/tensor", "[graph]") {
  auto with_attr = [](auto set) {
    ModelBuilder b(13);
    b.input("X").output("Y");
    set(b.node("Hardmax", {"X"}, {"Y"}));
    return b;
  };
  auto graph_attr = with_attr([](onnx::NodeProto& n) {
    add_attr(n, "body", onnx::AttributeProto::GRAPH).mutable_g()->set_name("sub");
  });
  CHECK(refusal_id([&] { graph_attr.load(); }) == "Graph.node.attributes");
  auto ref_attr = with_attr([](onnx::NodeProto& n) {
    add_attr(n, "axis", onnx::AttributeProto::INT).set_ref_attr_name("outer_axis");
  });
  CHECK(refusal_id([&] { ref_attr.load(); }) == "Graph.node.attributes");
  auto strings_attr = with_attr([](onnx::NodeProto& n) {
    add_attr(n, "names", onnx::AttributeProto::STRINGS).add_strings()->push_back('a');
  });
  CHECK(refusal_id([&] { strings_attr.load(); }) == "Graph.node.attributes");
  auto twice = with_attr([](onnx::NodeProto& n) {
    attr_int(n, "axis", 0);
    attr_int(n, "axis", 1);
  });
  CHECK(refusal_id([&] { twice.load(); }) == "Graph.node.attributes");
  // Name and kind are checked against the resolved version when the model is loaded, before any
  // node runs.
  auto unknown = with_attr([](onnx::NodeProto& n) { attr_int(n, "keepdims", 1); });
  CHECK(refusal_id([&] { unknown.load(); }) == "Graph.node.attributes");
  auto wrong_kind = with_attr([](onnx::NodeProto& n) { attr_float(n, "axis", 0.0f); });
  CHECK(refusal_id([&] { wrong_kind.load(); }) == "Graph.node.attributes");
  // ReduceMax-18 has no axes attribute (axes is an input from version 18 on)
  ModelBuilder r(18);
  r.input("X").output("Y");
  attr_ints(r.node("ReduceMax", {"X"}, {"Y"}), "axes", {0});
  CHECK(refusal_id([&] { r.load(); }) == "Graph.node.attributes");
}

TEST_CASE("[Graph.node.attributes] an attribute without type is read from its one value field", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("Y");
  auto& n = b.node("Hardmax", {"X"}, {"Y"});
  auto* a = n.add_attribute();  // type UNDEFINED, as in models older than AttributeProto.type
  a->set_name("axis");
  a->set_i(0);
  // Hardmax-13 axis 0 of [[1, 2], [3, 0]]: column maxima at row 1 and row 0 -> [[0, 1], [1, 0]]
  auto out = b.load().run({{"X", f32({2, 2}, {1, 2, 3, 0})}});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{0, 1, 1, 0});
}

TEST_CASE("[Common.gr.sparse] sparse initializers, sparse attributes, sparse inputs, sparse_value", "[graph]") {
  ModelBuilder a(13);
  a.input("X").output("Y");
  a.node("Max", {"X"}, {"Y"});
  auto* sp = a.g().add_sparse_initializer();
  *sp->mutable_values() = tp_f32("S", {1}, {1});
  sp->add_dims(4);
  CHECK(refusal_id([&] { a.load(); }) == "Common.gr.sparse");

  ModelBuilder b(13);
  b.output("C");
  auto& c = b.node("Constant", {}, {"C"});
  add_attr(c, "sparse_value", onnx::AttributeProto::SPARSE_TENSOR).mutable_sparse_tensor()->add_dims(2);
  CHECK(refusal_id([&] { b.load(); }) == "Common.gr.sparse");

  ModelBuilder d(13);
  d.output("Y");
  auto* in = d.g().add_input();
  in->set_name("X");
  in->mutable_type()->mutable_sparse_tensor_type()->set_elem_type(TensorProto::FLOAT);
  d.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { d.load(); }) == "Common.gr.sparse");
}

TEST_CASE("[Graph.constant] string values, no value, two values, attributes of later versions", "[graph]") {
  auto constant = [](std::int64_t opset, auto set) {
    ModelBuilder b(opset);
    b.output("C");
    set(b.node("Constant", {}, {"C"}));
    return b;
  };
  auto str = constant(13, [](onnx::NodeProto& n) { attr_string(n, "value_string", "abc"); });
  CHECK(refusal_id([&] { str.load(); }) == "Graph.constant");
  auto strs = constant(13, [](onnx::NodeProto& n) {
    add_attr(n, "value_strings", onnx::AttributeProto::STRINGS).add_strings()->push_back('a');
  });
  CHECK(refusal_id([&] { strs.load(); }) == "Graph.constant");
  auto none = constant(13, [](onnx::NodeProto&) {});
  CHECK(refusal_id([&] { none.load(); }) == "Graph.constant");
  auto two = constant(13, [](onnx::NodeProto& n) {
    attr_int(n, "value_int", 1);
    attr_float(n, "value_float", 1);
  });
  CHECK(refusal_id([&] { two.load(); }) == "Graph.constant");
  // value_int exists from Constant-12 on: at opset 11 it is no attribute of Constant-11.
  auto early = constant(11, [](onnx::NodeProto& n) { attr_int(n, "value_int", 1); });
  CHECK(refusal_id([&] { early.load(); }) == "Graph.node.attributes");
  auto wrong_kind = constant(13, [](onnx::NodeProto& n) { attr_float(n, "value_ints", 1); });
  CHECK(refusal_id([&] { wrong_kind.load(); }) == "Graph.node.attributes");
  auto tensor_ok = constant(1, [](onnx::NodeProto& n) { attr_tensor(n, "value", tp_f32("", {2}, {-0.0f, 3})); });
  CHECK(bits(tensor_ok.load().run({})[0].tensor) == bits(std::vector<float>{-0.0f, 3}));
}

TEST_CASE("[Graph.external-data] initializers and tensor attributes with external data", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("Y");
  auto w = tp_f32("W", {2}, {});
  w.set_data_location(TensorProto::EXTERNAL);
  auto* e = w.add_external_data();
  e->set_key("location");
  e->set_value("../../etc/passwd");
  b.initializer(w);
  b.node("Max", {"X", "W"}, {"Y"});
  CHECK(refusal_id([&] { b.load(); }) == "Graph.external-data");

  ModelBuilder c(13);
  c.output("C");
  auto t = tp_f32("", {2}, {});
  t.set_data_location(TensorProto::EXTERNAL);
  attr_tensor(c.node("Constant", {}, {"C"}), "value", t);
  CHECK(refusal_id([&] { c.load(); }) == "Graph.external-data");
}

TEST_CASE("[Graph.initializer] an initializer disagreeing with its graph input declaration", "[graph]") {
  ModelBuilder b(13);
  b.input("X").input("B", TensorProto::DOUBLE).output("Y");
  b.initializer(tp_f32("B", {1}, {0}));
  b.node("Max", {"X", "B"}, {"Y"});
  CHECK(refusal_id([&] { b.load(); }) == "Graph.initializer");
  ModelBuilder c(13);
  c.input("X").input("B", TensorProto::FLOAT, Dims{{2}}).output("Y");
  c.initializer(tp_f32("B", {1}, {0}));
  c.node("Max", {"X", "B"}, {"Y"});
  CHECK(refusal_id([&] { c.load(); }) == "Graph.initializer");
}

TEST_CASE("[Graph.order.topological] cycles, values never produced, values produced twice", "[graph]") {
  ModelBuilder cycle(13);
  cycle.input("X").output("Y");
  cycle.node("Max", {"X", "B"}, {"A"}, "first");
  cycle.node("Max", {"A"}, {"B"}, "second");
  cycle.node("Max", {"A"}, {"Y"});
  CHECK(refusal_id([&] { cycle.load(); }) == "Graph.order.topological");
  CHECK_THAT(refusal_message([&] { cycle.load(); }), Catch::Contains("first") && Catch::Contains("second"));

  ModelBuilder self(13);
  self.input("X").output("Y");
  self.node("Max", {"X", "Y"}, {"Y"});
  CHECK(refusal_id([&] { self.load(); }) == "Graph.order.topological");

  ModelBuilder unknown(13);
  unknown.input("X").output("Y");
  unknown.node("Max", {"X", "ghost"}, {"Y"}, "mx");
  CHECK(refusal_id([&] { unknown.load(); }) == "Graph.order.topological");
  CHECK_THAT(refusal_message([&] { unknown.load(); }), Catch::Contains("ghost") && Catch::Contains("mx"));

  ModelBuilder twice(13);
  twice.input("X").output("Y");
  twice.node("Max", {"X"}, {"Y"});
  twice.node("Hardmax", {"X"}, {"Y"});
  CHECK(refusal_id([&] { twice.load(); }) == "Graph.order.topological");

  ModelBuilder shadow(13);  // a node output named like a graph input
  shadow.input("X").output("Y");
  shadow.node("Max", {"X"}, {"X"});
  shadow.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { shadow.load(); }) == "Graph.order.topological");

  ModelBuilder dangling(13);
  dangling.input("X").output("Y").output("Z");
  dangling.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { dangling.load(); }) == "Graph.order.topological");
}

TEST_CASE("[Graph.node.arity] inputs and outputs outside what the version allows", "[graph]") {
  auto one_node = [](std::int64_t opset, const std::string& op, std::vector<std::string> ins,
                     std::vector<std::string> outs) {
    ModelBuilder b(opset);
    b.input("X").input("Z").output("Y");
    b.node(op, ins, outs);
    return b;
  };
  CHECK(refusal_id([&] { one_node(13, "Max", {}, {"Y"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "Hardmax", {"X", "Z"}, {"Y"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "ReduceMax", {"X", "Z"}, {"Y"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(18, "ReduceMax", {"", "Z"}, {"Y"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "Max", {"X", "", "Z"}, {"Y"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "Hardmax", {"X"}, {"Y", "W"}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "Hardmax", {"X"}, {}).load(); }) == "Graph.node.arity");
  CHECK(refusal_id([&] { one_node(13, "Constant", {"X"}, {"Y"}).load(); }) == "Graph.node.arity");
  // Trailing empty names are absent optional inputs: accepted.
  CHECK(refusal_id([&] { one_node(13, "Hardmax", {"X", ""}, {"Y"}).load(); }) == "");
}

TEST_CASE("[Common.gr.explicit-types] graph inputs and outputs declare a tensor element type", "[graph]") {
  ModelBuilder untyped(13);
  untyped.output("Y");
  untyped.g().add_input()->set_name("X");
  untyped.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { untyped.load(); }) == "Common.gr.explicit-types");

  ModelBuilder no_elem(13);
  no_elem.input("X", TensorProto::UNDEFINED).output("Y");
  no_elem.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { no_elem.load(); }) == "Common.gr.explicit-types");

  ModelBuilder sequence(13);
  sequence.input("X");
  auto* y = sequence.g().add_output();
  y->set_name("Y");
  y->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
  sequence.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { sequence.load(); }) == "Common.gr.explicit-types");

  ModelBuilder strings(13);
  strings.input("X", TensorProto::STRING).output("Y");
  strings.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { strings.load(); }) == "Common.dtype.set");
  CHECK_THAT(refusal_message([&] { strings.load(); }), Catch::Contains("STRING"));
}

// ---------------------------------------------------------------------------------------------
// Refusals: feeds and outputs

TEST_CASE("[Graph.feed.missing] [Graph.feed.extra] [Graph.feed.dtype] feeds against declarations", "[graph]") {
  ModelBuilder b(13);
  b.input("A", TensorProto::FLOAT, Dims{{2}}).input("B", TensorProto::FLOAT, Dims{{2}}).output("Y");
  b.node("Max", {"A", "B"}, {"Y"});
  const Model model = b.load();
  const Tensor a = f32({2}, {1, 2});
  CHECK(refusal_id([&] { model.run({{"A", a}}); }) == "Graph.feed.missing");
  CHECK_THAT(refusal_message([&] { model.run({}); }), Catch::Contains("A, B"));
  CHECK(refusal_id([&] { model.run({{"A", a}, {"B", a}, {"C", a}}); }) == "Graph.feed.extra");
  CHECK(refusal_id([&] { model.run({{"A", a}, {"B", a}, {"A", a}}); }) == "Graph.feed.extra");
  // [Common.gr.no-conversion] a double feed for a float input is refused, not converted
  const Tensor d = make_tensor<double>({2}, {1, 2});
  CHECK(refusal_id([&] { model.run({{"A", a}, {"B", d}}); }) == "Graph.feed.dtype");
  CHECK_THAT(refusal_message([&] { model.run({{"A", a}, {"B", d}}); }),
             Catch::Contains("'B'") && Catch::Contains("float") && Catch::Contains("double"));
}

TEST_CASE("[Graph.output.declared] a graph output declared with another dtype", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("Y", TensorProto::INT64);
  b.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { b.load().run({{"X", f32({1}, {1})}}); }) == "Graph.output.declared");
}

TEST_CASE("[Graph.order.topological] an intermediate read by two later nodes lives until its last reader",
          "[graph]") {
  ModelBuilder b(13);
  b.input("A").input("B").output("Y");
  b.node("Max", {"H", "R"}, {"Y"}, "last");
  attr_ints(b.node("ReduceMax", {"M"}, {"R"}, "reduce"), "axes", {1});
  b.node("Max", {"A", "B"}, {"M"}, "max");
  b.node("Hardmax", {"M"}, {"H"}, "hardmax");
  const Model model = b.load();
  // File order: last, reduce, max, hardmax. Kahn, ties in file order: max, then reduce (file index 1)
  // before hardmax (file index 3), then last.
  REQUIRE(model.nodes().size() == 4);
  CHECK(model.nodes()[0].name == "max");
  CHECK(model.nodes()[1].name == "reduce");
  CHECK(model.nodes()[2].name == "hardmax");
  CHECK(model.nodes()[3].name == "last");
  // M = [[2, 4], [3, 5]]; R = row maxima, kept = [[4], [5]]; H = [[0, 1], [0, 1]];
  // Y = Max(H, R) broadcast = [[4, 4], [5, 5]]
  const Feeds feeds = {{"A", f32({2, 2}, {1, 4, 3, 2})}, {"B", f32({2, 2}, {2, 0, 3, 5})}};
  auto out = model.run(feeds);
  REQUIRE(out.size() == 1);
  CHECK(out[0].tensor.shape() == Shape{2, 2});
  CHECK(values<float>(out[0].tensor) == std::vector<float>{4, 4, 5, 5});
  CHECK(model.run_all(feeds).size() == 6);  // A, B, M, R, H, Y
}

// ---------------------------------------------------------------------------------------------
// Issue #12: requirement-based tests written for mutants that survived the suite

TEST_CASE("[Graph.opset.domain] the default domain imported twice: refused at different versions, accepted at the same",
          "[graph]") {
  ModelBuilder b(13);
  auto* again = b.m.add_opset_import();
  again->set_domain("ai.onnx");
  again->set_version(11);
  b.input("X").output("Y");
  b.node("Max", {"X"}, {"Y"});
  CHECK(refusal_id([&] { b.load(); }) == "Graph.opset.domain");
  again->set_version(13);  // "" and "ai.onnx" at one version: one import
  CHECK(b.load().opset() == 13);
}

TEST_CASE("[Common.tensor.shape] a graph input or output declaring a negative dimension is refused", "[graph]") {
  ModelBuilder b(13);
  b.input("X", TensorProto::FLOAT, Dims{{2, 3}}).output("Y");
  b.node("Max", {"X"}, {"Y"});
  b.g().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->set_dim_value(-3);
  CHECK(refusal_id([&] { b.load(); }) == "Common.tensor.shape");
  ModelBuilder c(13);
  c.input("X").output("Y", TensorProto::FLOAT, Dims{{-1}});  // -1 here is a symbolic dim "N"
  c.node("Max", {"X"}, {"Y"});
  c.g().mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-1);
  CHECK(refusal_id([&] { c.load(); }) == "Common.tensor.shape");
}

TEST_CASE("[Graph.output.declared] a value declared twice as a graph output is returned twice, whole", "[graph]") {
  // Y = Max(X) listed as outputs 0 and 1: both are X's values [1, 2, 3], in declaration order.
  ModelBuilder b(13);
  b.input("X").output("Y").output("Y");
  b.node("Max", {"X"}, {"Y"});
  const auto out = b.load().run({{"X", f32({3}, {1, 2, 3})}});
  REQUIRE(out.size() == 2);
  for (const auto& o : out) {
    CHECK(o.name == "Y");
    CHECK(o.tensor.shape() == Shape{3});
    CHECK(values<float>(o.tensor) == std::vector<float>{1, 2, 3});
  }
}

TEST_CASE("[Graph.constant] value_float gives a rank-0 tensor: Max with it keeps X's shape", "[graph]") {
  // X [3] = [1, 5, 2], c = 4 of shape (): Max(X, c) has shape [3]; Max(c, c) has shape ().
  ModelBuilder b(13);
  b.input("X").output("Y").output("C");
  attr_float(b.node("Constant", {}, {"c"}), "value_float", 4.0f);
  b.node("Max", {"X", "c"}, {"Y"});
  b.node("Max", {"c", "c"}, {"C"});
  const auto out = b.load().run({{"X", f32({3}, {1, 5, 2})}});
  CHECK(output(out, "Y").shape() == Shape{3});
  CHECK(output(out, "C").shape() == Shape{});
  CHECK(values<float>(output(out, "C")) == std::vector<float>{4});
}

}  // namespace graph_test
