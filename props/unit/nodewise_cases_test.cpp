// Hand-derived cases of the node-wise check over several cases ([Check.nodewise], [Check.nodewise.missing],
// [Check.nodewise.verdict], [Check.nodewise.dump], [Check.cases], [Check.nan-payload.any], spec/common/check.md)
// on a partial model whose judged nodes have an optional input left empty, two outputs, and a bound the
// implementation under test computes:
//
//   X [1,1,4] -> Foo -> C -> Relu -> R -> MaxPool kernel [2], strides [2] -> (P, I)
//                                     R -> Clip-13 (R, "", H) -> Y          X -> Bar -> H
//
// Foo and Bar are outside the spec (not judged); Relu-14, MaxPool-12 and Clip-13 are judged on the
// values the IUT gave them. The IUT's values below are written by hand: C = [1, -2, 3, 4]; R = Relu(C)
// = [1, +0, 3, 4] by [Relu.float.formula]; the windows {1, 0} and {3, 4} give P = [1, 4] and I = [0, 3]
// (flat positions in X, [MaxPool.indices]); H = 2.5 and no lower bound give Y = min(R, 2.5) =
// [1, 0, 2.5, 2.5] by [Clip.float.formula] with lo the least finite float ([Clip.bounds.default]).
#include <cstring>

#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/check.hpp"

namespace nodewise_cases_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int I64 = onnx::TensorProto::INT64;
using JStatus = check::NodeJudgement::Status;

graph::Model model() {
  ModelBuilder b(14);
  b.input("X", F, Dims{{1, 1, 4}});
  b.output("P", F, Dims{{1, 1, 2}}).output("I", I64, Dims{{1, 1, 2}}).output("Y", F, Dims{{1, 1, 4}});
  b.node("Foo", {"X"}, {"C"}, "foo");
  b.node("Relu", {"C"}, {"R"}, "relu");
  auto& pool = b.node("MaxPool", {"R"}, {"P", "I"}, "pool");
  attr_ints(pool, "kernel_shape", {2});
  attr_ints(pool, "strides", {2});
  b.node("Bar", {"X"}, {"H"}, "bar");
  b.node("Clip", {"R", "", "H"}, {"Y"}, "clip");
  graph::LoadOptions o;
  o.partial = true;
  return b.load(o);
}

const Tensor kX = f32({1, 1, 4}, {0, 0, 0, 0});  // read by Foo and Bar only (not judged)
const Tensor kC = f32({1, 1, 4}, {1, -2, 3, 4});
const Tensor kR = f32({1, 1, 4}, {1, 0, 3, 4});
const Tensor kP = f32({1, 1, 2}, {1, 4});
const Tensor kI = make_tensor<std::int64_t>({1, 1, 2}, {0, 3});
const Tensor kH = f32({}, {2.5f});
const Tensor kY = f32({1, 1, 4}, {1, 0, 2.5f, 2.5f});

check::Case one_case(const graph::Model& m, const std::string& name, std::vector<io::NamedTensor> values) {
  check::Case k;
  k.name = name;
  k.feeds = {{"X", kX}};
  k.actual = check::actual_from_tensors(m, std::move(values));
  return k;
}

const check::NodeJudgement& judgement(const check::CaseVerdict& c, const std::string& name) {
  for (const auto& j : c.verdict.judgements)
    if (j.name == name) return j;
  FAIL("no node " << name);
  throw 0;
}

bool has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  UNSCOPED_INFO("not in the text: " << part << "\n" << text);
  return false;
}

}  // namespace

TEST_CASE("[Check.nodewise] [Check.nodewise.missing] a Clip with no lower bound input is judged on the IUT's values, an "
          "empty input name is no missing value",
          "[nodewise]") {
  const auto m = model();
  const auto c = check::judge_cases(m, {one_case(m, "ok", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", kI}, {"H", kH}, {"Y", kY}})},
                                    {}, true);
  CHECK(c.conforms);
  CHECK(judgement(c.cases[0], "clip").status == JStatus::Conforms);
  CHECK(judgement(c.cases[0], "pool").status == JStatus::Conforms);
  CHECK(c.nodes.all.judged == 3);
  CHECK(c.nodes.all.not_judged == 2);
}

TEST_CASE("[Check.nodewise] [Clip.err.bound-rank] a node the spec refuses on the values the IUT gave it does not conform, "
          "citing the refusal",
          "[nodewise]") {
  // The IUT's Bar gives H of shape [1]: a bound of Clip is rank 0, so Clip-13 refuses its inputs
  // ([Clip.err.bound-rank]); the node does not conform, whatever Y holds.
  const auto m = model();
  const auto c = check::judge_cases(
      m, {one_case(m, "bad-bound", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", kI}, {"H", f32({1}, {2.5f})}, {"Y", kY}})}, {}, true);
  CHECK_FALSE(c.conforms);
  const auto& clip = judgement(c.cases[0], "clip");
  CHECK(clip.status == JStatus::Differs);
  CHECK(clip.clause == "Clip.err.bound-rank");
  CHECK(clip.outputs.empty());
  CHECK(has(clip.reason, "the spec refuses the node on the values it was given"));
  CHECK(has(check::to_text(c, {}), "node 'clip' (Clip-13): DOES NOT CONFORM, the spec refuses the node on the values it was given"));
  CHECK(judgement(c.cases[0], "relu").status == JStatus::Conforms);
  // In JSON: the node differs, with the refusal, and no clause coverage (there is no expected value).
  const auto report = check::to_json(c, {});  // held: a range-for over a part of a temporary reads freed memory
  for (const auto& n : report["cases"][0]["nodewise"]["nodes"])
    if (n["name"] == "clip") {
      CHECK(n["status"] == "differs");
      CHECK(n["clause"] == "Clip.err.bound-rank");
      CHECK_FALSE(n.contains("coverage"));
    } else if (n["name"] == "relu") {
      CHECK(n.contains("coverage"));
    }
}

TEST_CASE("[Check.nodewise.verdict] [Check.cases] [Check.nan-payload.any] five cases node by node — a line per case, the "
          "nodes that differ with their outputs, payload notes, a case with no node judged, the counts over the cases",
          "[nodewise]") {
  const auto m = model();
  const float nan1 = nan_with_bits(0x7FC00001u), nan2 = nan_with_bits(0x7FC00002u);
  // payload: C[0] is a NaN with payload 1; the IUT's Relu gives a NaN with payload 2 — a payload-only
  // difference ([Relu.float.nan] keeps the NaN bit for bit; any NaN conforms under --nan-payload any).
  // MaxPool and Clip, judged on that R, keep its NaN (payload 2): P[0] = NaN, I[0] = 0, Y[0] = NaN.
  const Tensor c_nan = f32({1, 1, 4}, {nan1, -2, 3, 4});
  const Tensor r_nan = f32({1, 1, 4}, {nan2, 0, 3, 4});
  const std::vector<check::Case> cases = {
      one_case(m, "ok", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", kI}, {"H", kH}, {"Y", kY}}),
      // mixed: I[0] = 1 (the window {1, 0} has its maximum at 0); H of shape [1] (refused)
      one_case(m, "mixed", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", make_tensor<std::int64_t>({1, 1, 2}, {1, 3})},
                            {"H", f32({1}, {2.5f})}, {"Y", kY}}),
      one_case(m, "payload", {{"C", c_nan}, {"R", r_nan}, {"P", f32({1, 1, 2}, {nan2, 4})}, {"I", kI}, {"H", kH},
                              {"Y", f32({1, 1, 4}, {nan2, 0, 2.5f, 2.5f})}}),
      // shape: I of shape [1, 1, 3], P not given
      one_case(m, "shape", {{"C", kC}, {"R", kR}, {"I", make_tensor<std::int64_t>({1, 1, 3}, {0, 3, 3})}, {"H", kH}, {"Y", kY}}),
      // nothing: only C — the Relu's output, and every judged node's input R, are missing
      one_case(m, "nothing", {{"C", kC}}),
  };
  const auto c = check::judge_cases(m, cases, {}, true);
  CHECK_FALSE(c.conforms);
  CHECK(c.failing_cases == 3);
  CHECK(c.cases[0].verdict.conforms);
  CHECK(c.cases[2].verdict.conforms);
  const auto& pool = judgement(c.cases[1], "pool");
  REQUIRE(pool.outputs.size() == 2);
  CHECK(pool.outputs[0].status == check::OutputVerdict::Status::Conforms);
  CHECK(pool.outputs[1].mismatches == 1);
  const auto& shaped = judgement(c.cases[3], "pool");
  CHECK(shaped.status == JStatus::Differs);
  CHECK(shaped.not_given == std::vector<std::string>{"P"});
  CHECK(shaped.outputs.at(0).id == "Check.shape");
  CHECK(c.cases[4].verdict.judgements.size() == 5);
  CHECK(c.nodes.all.nodes == 25);
  const std::string text = check::to_text(c, {});
  CHECK(has(text, "node-wise [Check.nodewise]: each node the spec covers is judged on the values the implementation under "
                  "test gave it (the model has 2 node(s) outside the spec)"));
  CHECK(has(text, "case ok: conforms (3 of 5 node(s) judged)\n"));
  CHECK(has(text, "case payload: conforms (3 of 5 node(s) judged); 1 element(s) differ only in NaN payload "
                  "[Check.nan-payload.any]\n"));
  CHECK(has(text, "note: 1 element of 'R' differs only in NaN payload"));
  CHECK(has(text, "case mixed: DOES NOT CONFORM\n"));
  CHECK(has(text, "  node 'pool' (MaxPool-12): output 'P' conforms"));
  CHECK(has(text, "  node 'pool' (MaxPool-12): DOES NOT CONFORM, 1 of 2 elements of 'I' differs"));
  CHECK(has(text, "  node 'clip' (Clip-13): DOES NOT CONFORM, the spec refuses the node on the values it was given"));
  CHECK(has(text, "  node 'pool' (MaxPool-12): DOES NOT CONFORM, dtype or shape of 'I' differs"));
  CHECK(has(text, "not in ACTUAL, not judged: 'P' [Check.nodewise.missing]"));
  CHECK(has(text, "case nothing: DOES NOT CONFORM\n  no node was judged [Check.nodewise.verdict]\n"));
  CHECK(has(text, "nodes [Check.nodewise.verdict], over the 5 case(s): "));
  CHECK(has(text, "per operator [Check.nodewise.verdict]:\n"));
  CHECK(has(text, "verdict: DOES NOT CONFORM"));
}

TEST_CASE("[Check.nodewise] [Check.shard.report] [Check.shard.exit] a piece of a sharded node-wise check holding one case "
          "reports as a campaign — the piece, the case line, the counts, a piece holding none has no verdict",
          "[nodewise]") {
  const auto m = model();
  auto c = check::judge_cases(m, {one_case(m, "ok", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", kI}, {"H", kH}, {"Y", kY}})},
                              {}, true);
  c.shard = shard::Piece{{2, 3}, 4, {"ok"}, {1}};
  const std::string text = check::to_text(c, {});
  CHECK(has(text, "shard 2/3: 1 of 4 case(s)"));
  CHECK(has(text, "case ok: conforms (3 of 5 node(s) judged)\n"));
  CHECK(has(text, "nodes [Check.nodewise.verdict], over the 1 case(s): "));
  // [Check.shard.exit] a piece holding no case: no verdict of its own, nothing judged node by node.
  auto none = check::judge_cases(m, {}, {}, true);
  none.shard = shard::Piece{{2, 2}, 1, {}, {}};
  const std::string empty = check::to_text(none, {});
  CHECK(has(empty, "verdict: none: shard 2/2 holds no case of the 1"));
  CHECK(empty.find("node-wise [Check.nodewise]") == std::string::npos);
}

TEST_CASE("[Check.nodewise] a model with nodes outside the spec is judged node by node without --nodes", "[nodewise]") {
  const auto m = model();
  const auto c = check::judge_cases(m, {one_case(m, "ok", {{"C", kC}, {"R", kR}, {"P", kP}, {"I", kI}, {"H", kH}, {"Y", kY}})},
                                    {}, false);
  CHECK(c.nodewise);
  CHECK(c.conforms);
  CHECK(c.cases[0].verdict.nodewise_why == "the model has 2 node(s) outside the spec");
}

TEST_CASE("[Check.nodewise.dump] a value of a node not judged is checked against what inference gives — no element type "
          "fits any, an unsupported one none, an unknown dimension any size",
          "[nodewise]") {
  // value_info declares C (Foo's output): element type, shape [1, 1, N] (N named, any size). H (Bar's
  // output) is declared with no element type: any tensor fits. A third value Z = Baz(X) is declared
  // complex64, a type outside [Common.dtype.set]: no tensor fits it.
  ModelBuilder b(14);
  b.input("X", F, Dims{{1, 1, 4}}).output("R", F, Dims{{1, 1, -1}}).output("Z2", F, Dims{{1}});
  b.node("Foo", {"X"}, {"C"}, "foo");
  b.node("Relu", {"C"}, {"R"}, "relu");
  b.node("Bar", {"X"}, {"H"}, "bar");
  b.node("Baz", {"X"}, {"Z"}, "baz");
  b.node("Qux", {"Z", "H"}, {"Z2"}, "qux");
  set_tensor_type(*b.g().add_value_info(), "C", F, Dims{{1, 1, -1}});
  auto* h = b.g().add_value_info();
  h->set_name("H");
  h->mutable_type()->mutable_tensor_type();
  set_tensor_type(*b.g().add_value_info(), "Z", onnx::TensorProto::COMPLEX64, std::nullopt);
  graph::LoadOptions o;
  o.partial = true;
  const auto m = b.load(o);
  const Tensor c = f32({1, 1, 3}, {1, -1, 2});
  auto judged = [&](std::vector<io::NamedTensor> values) {
    check::Case k;
    k.feeds = {{"X", kX}};
    k.actual = check::actual_from_tensors(m, std::move(values));
    return check::judge_cases(m, {k}, {}, true);
  };
  const auto ok = judged({{"C", c}, {"R", f32({1, 1, 3}, {1, 0, 2})}, {"H", make_tensor<std::int64_t>({2}, {7, 8})}});
  CHECK(ok.conforms);
  CHECK(refusal_id([&] { judged({{"C", c}, {"Z", f32({1}, {0})}}); }) == "Check.nodewise.dump");
  CHECK(refusal_id([&] { judged({{"C", f32({2, 1, 3}, {1, 2, 3, 4, 5, 6})}}); }) == "Check.nodewise.dump");
}

}  // namespace nodewise_cases_test
