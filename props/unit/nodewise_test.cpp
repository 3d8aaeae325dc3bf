// Hand-derived cases of the node-wise commands: partial models ([Graph.partial] and the clauses after
// it in spec/common/graph.md) and the node-wise check ([Check.nodewise] ... in spec/common/check.md).
// The model is a small network of the kind a real one is made of:
//
//   X [1,1,4,4] -> Abs -> C -> Relu -> R -> MaxPool 2x2/2 -> P -> Softsign -> Y
//
// Abs and Softsign are outside the spec; Relu-13 and MaxPool-12 are judged. The "IUT's" values below
// are written by hand: C anything (Abs is not judged), R = Relu(C) by [Relu.float.formula], P the
// greatest of each 2x2 window of R by [MaxPool.float.formula].
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "graph/expose.hpp"
#include "graph/infer.hpp"
#include "graph_util.hpp"
#include "oracle/check.hpp"
#include "oracle/node_golden.hpp"
#include "oracle/nodewise.hpp"

namespace nodewise_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

ModelBuilder mixed_builder() {
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::FLOAT, Dims{{1, 1, 4, 4}}).output("Y", onnx::TensorProto::FLOAT, Dims{{1, 1, 2, 2}});
  b.initializer(tp_f32("W", {1, 1, 1, 1}, {1}));  // read by no node: its type is the one stored ([Graph.infer])
  b.node("Abs", {"X"}, {"C"}, "abs");
  b.node("Relu", {"C"}, {"R"}, "relu");
  auto& pool = b.node("MaxPool", {"R"}, {"P"}, "pool");
  attr_ints(pool, "kernel_shape", {2, 2});
  attr_ints(pool, "strides", {2, 2});
  b.node("Softsign", {"P"}, {"Y"}, "softsign");
  return b;
}

graph::Model partial(const ModelBuilder& b) {
  graph::LoadOptions o;
  o.partial = true;
  return b.load(o);
}

const Tensor kX = f32({1, 1, 4, 4}, {1, -2, 3, -4, 5, -6, 7, -8, -1, 2, -3, 4, 0.5f, -0.5f, 9, -9});
const Tensor kC = kX;  // the IUT's Abs (not judged: any value would do)
// [Relu.float.formula] max(x, +0)
const Tensor kR = f32({1, 1, 4, 4}, {1, 0, 3, 0, 5, 0, 7, 0, 0, 2, 0, 4, 0.5f, 0, 9, 0});
// [MaxPool.float.formula] windows {1, 0, 5, 0}, {3, 0, 7, 0}, {0, 2, 0.5, 0}, {0, 4, 9, 0}
const Tensor kP = f32({1, 1, 2, 2}, {5, 7, 2, 9});
const Tensor kY = f32({1, 1, 2, 2}, {0.25f, 0.25f, 0.25f, 0.25f});  // Softsign is not judged

check::Campaign nodewise(const graph::Model& m, std::vector<io::NamedTensor> values, Feeds feeds = {{"X", kX}}) {
  check::Case k;
  k.name = "case";
  k.feeds = std::move(feeds);
  k.actual = check::actual_from_tensors(m, std::move(values));
  return check::judge_cases(m, {k}, {}, true);
}

const check::NodeJudgement& judgement(const check::Campaign& c, const std::string& name) {
  for (const auto& j : c.cases.front().verdict.judgements)
    if (j.name == name) return j;
  FAIL("no node " << name);
  throw 0;
}

Tensor with_value(Tensor t, std::int64_t offset, float v) {
  std::memcpy(t.bytes().data() + offset * 4, &v, 4);
  return t;
}

}  // namespace

TEST_CASE("[Graph.partial] nodes outside the spec are classified, with why and the clause", "[nodewise]") {
  auto b = mixed_builder();
  b.node("Gelu", {"Y"}, {"G"}, "vendor").set_domain("com.microsoft");
  b.output("G");
  const auto m = partial(b);
  CHECK_FALSE(m.complete());
  std::map<std::string, std::pair<std::string, std::string>> by_name;
  for (const auto& n : m.nodes()) by_name[n.name] = {n.not_judged, n.not_judged_clause};
  CHECK(by_name["abs"] == std::pair<std::string, std::string>{"operator 'Abs' is outside the spec", "Graph.opset.unsupported"});
  CHECK(by_name["softsign"].second == "Graph.opset.unsupported");
  CHECK(by_name["vendor"] == std::pair<std::string, std::string>{"domain 'com.microsoft' is outside the spec", "Graph.opset.domain"});
  CHECK(by_name["relu"].first.empty());
  CHECK(by_name["pool"].first.empty());
  // a supported operator with an attribute its version does not define: not judged, with that clause
  auto c = mixed_builder();
  attr_int(c.g().mutable_node(1)[0], "alpha", 1);
  const auto m2 = partial(c);
  for (const auto& n : m2.nodes())
    if (n.name == "relu") CHECK(n.not_judged_clause == "Graph.node.attributes");
}

TEST_CASE("[Graph.partial.run] a whole-model load, and run on a partial model, refuse naming every node outside the spec",
          "[nodewise]") {
  const auto b = mixed_builder();
  const std::string message = refusal_message([&] { b.load(); });
  CHECK(refusal_id([&] { b.load(); }) == "Graph.opset.unsupported");  // the first node outside, in file order: abs
  CHECK(message.find("node 'abs' (Abs)") != std::string::npos);
  CHECK(message.find("node 'softsign' (Softsign)") != std::string::npos);
  CHECK(message.find("Abs 1, Softsign 1") != std::string::npos);
  const auto m = partial(b);
  CHECK(refusal_id([&] { m.run({{"X", kX}}); }) == "Graph.opset.unsupported");
}

TEST_CASE("[Graph.partial.subgraph] the nodes of an If's branches are listed, never judged", "[nodewise]") {
  auto b = mixed_builder();
  b.input("cond", onnx::TensorProto::BOOL, Dims{std::vector<std::int64_t>{}});
  auto& node = b.node("If", {"cond"}, {"Z"}, "if");
  auto& then_branch = add_attr(node, "then_branch", onnx::AttributeProto::GRAPH);
  auto* g = then_branch.mutable_g();
  g->set_name("then");
  auto* inner = g->add_node();
  inner->set_op_type("Relu");
  inner->set_name("inner_relu");
  inner->add_input("Y");
  inner->add_output("Z1");
  set_tensor_type(*g->add_output(), "Z1", onnx::TensorProto::FLOAT, Dims{{1, 1, 2, 2}});
  auto& else_branch = add_attr(node, "else_branch", onnx::AttributeProto::GRAPH);
  *else_branch.mutable_g() = *g;
  b.output("Z", onnx::TensorProto::FLOAT, Dims{{1, 1, 2, 2}});
  const auto m = partial(b);
  REQUIRE(m.subgraph_nodes().size() == 2);
  CHECK(m.subgraph_nodes()[0].where == "in attribute 'then_branch' of node 'if' (If)");
  const auto c = nodewise(m, {{"C", kC}, {"R", kR}, {"P", kP}, {"Y", kY}},
                          {{"X", kX}, {"cond", make_tensor<bool>({}, {true})}});
  const auto& v = c.cases.front().verdict;
  CHECK(v.judgements.back().clause == "Graph.partial.subgraph");
  CHECK(v.judgements.back().label == "node 'inner_relu' (Relu) in attribute 'else_branch' of node 'if' (If)");
  CHECK(c.nodes.all.nodes == 7);  // abs, relu, pool, softsign, if + 2 inside
  CHECK(c.nodes.all.judged == 2);
}

TEST_CASE("[Graph.node.unique-names] two nodes named alike are refused by the node-wise commands", "[nodewise]") {
  auto b = mixed_builder();
  b.g().mutable_node(2)->set_name("relu");  // the MaxPool is named 'relu' too
  const auto m = partial(b);
  CHECK(refusal_id([&] { nodewise(m, {{"R", kR}}); }) == "Graph.node.unique-names");
  const TempDir dir;
  CHECK(refusal_id([&] { golden::write_nodes(m, (dir.path / "g").string(), {}, {}); }) == "Graph.node.unique-names");
}

TEST_CASE("[Graph.infer] the types of values no clause computes come from ONNX's shape inference", "[nodewise]") {
  const auto types = graph::infer_value_types(partial(mixed_builder()));
  REQUIRE(types.count("C"));
  CHECK(types.at("C").dtype == DType::Float);
  CHECK(*types.at("C").shape == std::vector<std::optional<std::int64_t>>{1, 1, 4, 4});  // Abs: X's shape
  CHECK(*types.at("P").shape == std::vector<std::optional<std::int64_t>>{1, 1, 2, 2});
  CHECK(*types.at("W").shape == std::vector<std::optional<std::int64_t>>{1, 1, 1, 1});  // as stored
}

TEST_CASE("[Graph.expose] every node output becomes a graph output, after the model's own, in evaluation order",
          "[nodewise]") {
  auto b = mixed_builder();
  b.node("Dropout", {"Y"}, {"D", "mask"}, "drop");  // Dropout-13's mask: ONNX's inference types it
  b.output("D");
  const auto m = partial(b);
  const auto e = graph::expose(m);
  CHECK(e.outputs == std::vector<std::string>{"Y", "D", "C", "R", "P", "mask"});
  CHECK(e.added == std::vector<std::string>{"C", "R", "P", "mask"});
  CHECK(e.not_exposed.empty());
  const auto again = graph::Model::from_bytes(e.bytes, "exposed", {false, true});
  CHECK(again.outputs().size() == 6);
  CHECK(graph::expose(again).added.empty());  // exposing an exposed model adds nothing
  CHECK(*again.outputs()[2].shape == std::vector<std::optional<std::int64_t>>{1, 1, 4, 4});
}

TEST_CASE("[Graph.expose] a value inference gives no type is left out and listed", "[nodewise]") {
  auto b = mixed_builder();
  b.node("NoSuchOp", {"Y"}, {"Q"}, "unknown");
  b.output("Q2");
  b.node("Relu", {"Q"}, {"Q2"}, "relu2");
  const auto e = graph::expose(partial(b));
  REQUIRE(e.not_exposed.size() == 1);
  CHECK(e.not_exposed[0].first == "Q");
}

TEST_CASE("[Graph.extract] a node as a model: real attributes, the input shapes it receives, fixed values kept",
          "[nodewise]") {
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::FLOAT, Dims{{1, 1, 4, 4}}).output("Y", onnx::TensorProto::FLOAT, Dims{{1, 1, 4, 4}});
  b.node("Conv", {"X", "W"}, {"C"}, "conv");
  b.initializer(tp_f32("W", {1, 1, 1, 1}, {1}));
  auto& k = b.node("Constant", {}, {"B"}, "bound");
  attr_tensor(k, "value", tp_f32("", {1, 1, 1, 1}, {0.5f}));
  b.node("Max", {"C", "B"}, {"Y"}, "max");
  const auto m = partial(b);
  std::size_t max_node = 0;
  while (m.nodes()[max_node].name != "max") ++max_node;
  const auto one = graph::Model::from_bytes(graph::extract_node(m, max_node), "extracted");
  REQUIRE(one.inputs().size() == 1);
  CHECK(one.inputs()[0].name == "C");
  CHECK(*one.inputs()[0].shape == std::vector<std::optional<std::int64_t>>{1, 1, 4, 4});
  REQUIRE(one.initializer("B") != nullptr);  // the Constant's value, as an initializer
  CHECK(values<float>(*one.initializer("B")) == std::vector<float>{0.5f});
  CHECK(one.nodes().size() == 1);
  CHECK(one.nodes()[0].version == 13);
}

TEST_CASE("[Check.nodewise] Relu and MaxPool judged on the IUT's own values, and Abs and Softsign not judged, with why",
          "[nodewise]") {
  const auto m = partial(mixed_builder());
  const auto c = nodewise(m, {{"C", kC}, {"R", kR}, {"P", kP}, {"Y", kY}});
  CHECK(c.conforms);
  CHECK(judgement(c, "relu").status == check::NodeJudgement::Status::Conforms);
  CHECK(judgement(c, "pool").status == check::NodeJudgement::Status::Conforms);
  CHECK(judgement(c, "abs").clause == "Graph.opset.unsupported");
  CHECK(judgement(c, "softsign").reason == "operator 'Softsign' is outside the spec");
  CHECK(c.nodes.all.judged == 2);
  CHECK(c.nodes.all.not_judged == 2);
  CHECK(c.nodes.by_operator.at("Relu").conforming == 1);
  CHECK(c.nodes.by_operator.at("Abs").not_judged == 1);
  const std::string text = check::to_text(c, {});
  CHECK(text.find("node 'abs' (Abs): not judged: operator 'Abs' is outside the spec [Graph.opset.unsupported]") !=
        std::string::npos);
  CHECK(text.find("verdict: CONFORMS: every one of the 2 judged node(s) conforms; 2 of 4 node(s) judged, 2 not judged "
                  "[Check.nodewise.verdict]") != std::string::npos);
}

TEST_CASE("[Check.nodewise] [Check.attribution] a planted fault is found at its node and element, not downstream",
          "[nodewise]") {
  const auto m = partial(mixed_builder());
  // The IUT's Relu flips the sign of R[0, 0, 1, 0] (5 -> -5); its MaxPool, computing correctly from that,
  // gives 1 for the first window {1, 0, -5, 0}.
  const Tensor bad_r = with_value(kR, 4, -5);
  const Tensor p_from_bad_r = with_value(kP, 0, 1);
  auto c = nodewise(m, {{"C", kC}, {"R", bad_r}, {"P", p_from_bad_r}, {"Y", kY}});
  CHECK_FALSE(c.conforms);
  const auto& relu = judgement(c, "relu");
  REQUIRE(relu.status == check::NodeJudgement::Status::Differs);
  REQUIRE(relu.outputs.front().findings.size() == 1);
  CHECK(relu.outputs.front().findings[0].mismatch.index == std::vector<std::int64_t>{0, 0, 1, 0});
  CHECK(relu.outputs.front().findings[0].clauses.front() == "Relu.float.formula");
  CHECK(judgement(c, "pool").status == check::NodeJudgement::Status::Conforms);  // not blamed
  // The IUT's MaxPool gives its window's second largest at P[0, 0, 1, 1] (window {0, 4, 9, 0}: 4, not 9).
  c = nodewise(m, {{"C", kC}, {"R", kR}, {"P", with_value(kP, 3, 4)}, {"Y", kY}});
  const auto& pool = judgement(c, "pool");
  REQUIRE(pool.status == check::NodeJudgement::Status::Differs);
  CHECK(pool.outputs.front().mismatches == 1);
  CHECK(pool.outputs.front().findings[0].mismatch.index == std::vector<std::int64_t>{0, 0, 1, 1});
  CHECK(pool.outputs.front().findings[0].clauses.front() == "MaxPool.float.formula");
  CHECK(judgement(c, "relu").status == check::NodeJudgement::Status::Conforms);
  CHECK(c.nodes.all.differing == 1);
}

TEST_CASE("[Check.nodewise.missing] a node whose input or output ACTUAL lacks is not judged, nothing is guessed",
          "[nodewise]") {
  const auto m = partial(mixed_builder());
  auto c = nodewise(m, {{"R", kR}, {"P", kP}});  // no C: the Relu cannot be judged
  CHECK(judgement(c, "relu").clause == "Check.nodewise.missing");
  CHECK(judgement(c, "relu").reason == "its input 'C' is not in ACTUAL (the output of node 'abs' (Abs))");
  CHECK(judgement(c, "pool").status == check::NodeJudgement::Status::Conforms);
  CHECK(c.conforms);
  c = nodewise(m, {{"C", kC}, {"R", kR}});  // no P: the MaxPool is not judged
  CHECK(judgement(c, "pool").reason == "its output 'P' is not in ACTUAL");
  c = nodewise(m, {{"Y", kY}});  // nothing judged: no pass
  CHECK(c.nodes.all.judged == 0);
  CHECK_FALSE(c.conforms);
  CHECK(check::exit_status(c.conforms) == 1);
  CHECK(check::to_text(c, {}).find("verdict: DOES NOT CONFORM: no node was judged") != std::string::npos);
}

// X [2] -> Max(X, K) -> Y, K from a Constant node holding [1, 2].
graph::Model constant_model() {
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::FLOAT, Dims{{2}}).output("Y", onnx::TensorProto::FLOAT, Dims{{2}});
  auto& k = b.node("Constant", {}, {"K"}, "konst");
  attr_tensor(k, "value", tp_f32("value", {2}, {1, 2}));
  b.node("Max", {"X", "K"}, {"Y"}, "max");
  return partial(b);
}

TEST_CASE("[Check.nodewise.constant] a Constant node is judged bit for bit against the model's value, its readers on ACTUAL's",
          "[nodewise]") {
  const auto m = constant_model();
  const Feeds x{{"X", f32({2}, {0, 3})}};
  // the IUT kept K as given: [1, 2]; Y = max([0, 3], [1, 2]) = [1, 3] [Max.float.formula]
  auto c = nodewise(m, {{"K", f32({2}, {1, 2})}, {"Y", f32({2}, {1, 3})}}, x);
  CHECK(c.conforms);
  CHECK(judgement(c, "konst").status == check::NodeJudgement::Status::Conforms);
  CHECK(c.nodes.all.judged == 2);
  CHECK(c.nodes.all.not_judged == 0);
  // the IUT stored K[0] as 1.5 and computed Y from it: Y = [1.5, 3]. The Constant alone does not conform.
  c = nodewise(m, {{"K", f32({2}, {1.5f, 2})}, {"Y", f32({2}, {1.5f, 3})}}, x);
  CHECK_FALSE(c.conforms);
  const auto& konst = judgement(c, "konst");
  REQUIRE(konst.status == check::NodeJudgement::Status::Differs);
  REQUIRE(konst.outputs.front().findings.size() == 1);
  CHECK(konst.outputs.front().findings[0].mismatch.index == std::vector<std::int64_t>{0});
  CHECK(konst.outputs.front().findings[0].clauses.front() == "Graph.constant");
  CHECK(judgement(c, "max").status == check::NodeJudgement::Status::Conforms);  // judged on the IUT's K
  // a K of another type is a finding of the Constant [Check.shape], not a refusal of the dump
  c = nodewise(m, {{"K", make_tensor<double>({2}, {1.0, 2.0})}, {"Y", f32({2}, {1, 3})}}, x);
  CHECK(judgement(c, "konst").outputs.front().id == "Check.shape");
  // ACTUAL without K: the Constant is not judged; Max reads the model's K
  c = nodewise(m, {{"Y", f32({2}, {1, 3})}}, x);
  CHECK(judgement(c, "konst").clause == "Check.nodewise.missing");
  CHECK(judgement(c, "konst").reason == "its output 'K' is not in ACTUAL");
  CHECK(judgement(c, "max").status == check::NodeJudgement::Status::Conforms);
  CHECK(c.conforms);
}

TEST_CASE("[Check.nodewise.dump] names the model does not have, and values of the wrong dtype or shape, are refused",
          "[nodewise]") {
  const auto m = partial(mixed_builder());
  CHECK(refusal_id([&] { nodewise(m, {{"C", kC}, {"R", kR}, {"nothing", kR}}); }) == "Check.nodewise.dump");
  // C is an Abs output (not judged): its dtype and shape must be what ONNX's inference gives
  CHECK(refusal_id([&] { nodewise(m, {{"C", make_tensor<double>({1, 1, 4, 4}, std::vector<double>(16, 1.0))}}); }) ==
        "Check.nodewise.dump");
  CHECK(refusal_id([&] { nodewise(m, {{"C", f32({1, 1, 2, 8}, std::vector<float>(16, 1))}}); }) == "Check.nodewise.dump");
  // R is a Relu output: a wrong shape is a finding of the Relu [Check.shape], not a refusal
  const auto c = nodewise(m, {{"C", kC}, {"R", f32({1, 1, 16}, std::vector<float>(16, 0))}});
  CHECK(judgement(c, "relu").outputs.front().id == "Check.shape");
  CHECK_FALSE(c.conforms);
  // a bad feed as for a run
  check::Case k;
  k.feeds = {{"X", f32({1, 1, 4}, {1, 2, 3, 4})}};
  CHECK(refusal_id([&] { check::judge_cases(m, {k}, {}, true); }) == "Graph.feed.shape");
}

TEST_CASE("[Check.nodewise.dump] output_K.pb of a test_data_set folder is the K-th exposed output", "[nodewise]") {
  const auto m = partial(mixed_builder());
  const TempDir dir;
  const fs::path set = dir.path / "test_data_set_0";
  fs::create_directories(set);
  // exposed outputs: Y, C, R, P
  const std::vector<Tensor> values = {kY, kC, kR, kP};
  for (std::size_t k = 0; k < values.size(); ++k)
    io::write_tensor_pb((set / fmt::format("output_{}.pb", k)).string(), values[k], "");
  const auto a = check::load_actual(m, set.string(), {true});
  CHECK(a.extra.empty());
  REQUIRE(a.tensors.size() == 4);
  CHECK(a.tensors[2].name == "R");
  io::write_tensor_pb((set / "output_4.pb").string(), kP, "");  // one more than the exposed outputs
  const auto more = check::load_actual(m, set.string(), {true});
  check::Case k;
  k.feeds = {{"X", kX}};
  k.actual = more;
  CHECK(refusal_id([&] { check::judge_cases(m, {k}, {}, true); }) == "Check.nodewise.dump");
}

TEST_CASE("[Check.nodewise.verdict] JSON and JUnit carry every node, its status, reason and clause", "[nodewise]") {
  const auto m = partial(mixed_builder());
  const auto c = nodewise(m, {{"C", kC}, {"R", kR}, {"P", with_value(kP, 3, 4)}, {"Y", kY}});
  const auto j = check::to_json(c, {});
  CHECK(j["mode"] == "nodewise");
  CHECK(j["summary"]["nodes"]["judged"] == 2);
  CHECK(j["summary"]["nodes"]["by_operator"]["MaxPool"]["differing"] == 1);
  const auto& nodes = j["cases"][0]["nodewise"]["nodes"];
  REQUIRE(nodes.size() == 4);
  CHECK(nodes[0]["node"] == "node 'abs' (Abs)");
  CHECK(nodes[0]["status"] == "not judged");
  CHECK(nodes[0]["clause"] == "Graph.opset.unsupported");
  CHECK(nodes[2]["status"] == "differs");
  CHECK(nodes[2]["outputs"][0]["findings"][0]["clauses"][0] == "MaxPool.float.formula");
  const auto junit = check::to_junit(c, "mixed");
  REQUIRE(junit.size() == 4);
  CHECK(junit[0].skipped);
  CHECK(junit[0].name == "mixed/case/node 'abs' (Abs)");
  CHECK(junit[2].failure.find("DOES NOT CONFORM") != std::string::npos);
  CHECK(junit[1].failure.empty());
}

TEST_CASE("[Check.golden-nodes] one golden folder per supported node, each a single-node model that conforms",
          "[nodewise]") {
  const auto m = partial(mixed_builder());
  const TempDir dir;
  golden::Options o;
  o.seed = 5;
  const auto w = golden::write_nodes(m, (dir.path / "nodes").string(), o, {});
  std::vector<std::string> folders;
  for (const auto& n : w.nodes)
    if (n.status == "written") folders.push_back(n.folder);
  CHECK(folders == std::vector<std::string>{"relu", "pool"});
  CHECK(w.index["nodes"][0]["status"] == "not judged");
  CHECK(w.index["nodes"][0]["clause"] == "Graph.opset.unsupported");
  CHECK(fs::is_regular_file(dir.path / "nodes" / "nodes.json"));
  for (const auto& f : folders) {  // every case of every folder: the reference's outputs conform
    const auto one = graph::Model::load((dir.path / "nodes" / f / "model.onnx").string());
    CHECK(one.nodes().size() == 1);
    const auto cases = check::load_cases(one, (dir.path / "nodes" / f).string(), (dir.path / "nodes" / f).string());
    CHECK_FALSE(cases.empty());
    CHECK(check::judge_cases(one, cases, {}).conforms);
  }
  // the MaxPool's model has its real attributes and the shape it receives
  const auto pool = graph::Model::load((dir.path / "nodes" / "pool" / "model.onnx").string());
  CHECK(*pool.inputs()[0].shape == std::vector<std::optional<std::int64_t>>{1, 1, 4, 4});
  CHECK(std::get<std::vector<std::int64_t>>(pool.nodes()[0].attributes.at("kernel_shape")) == std::vector<std::int64_t>{2, 2});
  // --node NAME: only that one; a name no node has is a usage error
  const auto only = golden::write_nodes(m, (dir.path / "only").string(), o, {"pool"});
  REQUIRE(only.nodes.size() == 1);
  CHECK(only.nodes[0].folder == "pool");
  CHECK(failure_kind([&] { golden::write_nodes(m, (dir.path / "x").string(), o, {"nothing"}); }) == Failure::Usage);
  CHECK_FALSE(fs::exists(dir.path / "x"));
}

}  // namespace nodewise_test
