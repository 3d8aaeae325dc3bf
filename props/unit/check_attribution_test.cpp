// Hand-derived cases of check on a whole model with intermediate values ([Check.attribution],
// [Check.verdict], [Check.nan-payload.any], [IO.npy.bfloat16]'s type lookup, spec/common/check.md) for a
// node with two outputs: MaxPool-12's Y and Indices.
//
//   X [1,1,4] -> Relu -> R -> MaxPool kernel [2], strides [2] -> (P, I)
//
// With X = [1, -2, 3, 4]: R = [1, +0, 3, 4] ([Relu.float.formula]); windows {1, 0} and {3, 4}: P = [1, 4],
// I = [0, 3] ([MaxPool.float.formula], [MaxPool.indices]: flat positions in X, int64).
#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/check.hpp"

namespace check_attribution_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int I64 = onnx::TensorProto::INT64;
using NodeStatus = check::NodeVerdict::Status;

const Tensor kX = f32({1, 1, 4}, {1, -2, 3, 4});
const Tensor kR = f32({1, 1, 4}, {1, 0, 3, 4});
const Tensor kP = f32({1, 1, 2}, {1, 4});
const Tensor kI = make_tensor<std::int64_t>({1, 1, 2}, {0, 3});

ModelBuilder pool_builder() {
  ModelBuilder b(14);
  b.input("X", F, Dims{{1, 1, 4}}).output("P", F, Dims{{1, 1, 2}}).output("I", I64, Dims{{1, 1, 2}});
  b.node("Relu", {"X"}, {"R"}, "relu");
  auto& pool = b.node("MaxPool", {"R"}, {"P", "I"}, "pool");
  attr_ints(pool, "kernel_shape", {2});
  attr_ints(pool, "strides", {2});
  return b;
}

check::Verdict judged(const graph::Model& m, std::vector<io::NamedTensor> values, const compare::Options& o = {}) {
  check::Case k;
  k.name = "case";
  k.feeds = {{"X", kX}};
  k.actual = check::actual_from_tensors(m, std::move(values));
  return check::judge_cases(m, {k}, o).cases.at(0).verdict;
}

std::vector<NodeStatus> statuses(const check::Verdict& v, const std::string& label_part) {
  std::vector<NodeStatus> out;
  for (const auto& n : v.nodes)
    if (n.label.find(label_part) != std::string::npos) out.push_back(n.status);
  return out;
}

}  // namespace

TEST_CASE("[Check.attribution] both outputs of a MaxPool judged on the IUT's intermediate R — each conforms, or each is "
          "refused when the spec refuses R",
          "[check]") {
  const auto m = pool_builder().load();
  const auto ok = judged(m, {{"R", kR}, {"P", kP}, {"I", kI}});
  CHECK(ok.conforms);
  CHECK(statuses(ok, "'pool'") == std::vector<NodeStatus>{NodeStatus::Conforms, NodeStatus::Conforms});
  // The IUT's R has rank 1: MaxPool-12 refuses an input of rank below 3 ([MaxPool.err.rank]), so neither
  // of its outputs can be judged on it; each says so.
  const auto bad = judged(m, {{"R", f32({4}, {1, 0, 3, 4})}, {"P", kP}, {"I", kI}});
  const auto s = statuses(bad, "'pool'");
  CHECK(s == std::vector<NodeStatus>{NodeStatus::Refused, NodeStatus::Refused});
  for (const auto& n : bad.nodes)
    if (n.label.find("'pool'") != std::string::npos) CHECK(n.detail.find("[MaxPool.err.rank]") != std::string::npos);
}

TEST_CASE("[Check.nan-payload.any] [Check.verdict] payload-only differences beyond --max-listed are counted, the first "
          "listed",
          "[check]") {
  // Y = Relu-14(X) on three NaNs (payloads 1, 2, 3): [Relu.float.nan] keeps each bit for bit. The IUT
  // gives NaNs with payloads 4, 5, 6: three payload-only differences, a conforming output. With
  // --max-listed 1 the first is listed and the other two counted.
  ModelBuilder b(14);
  b.input("X", F, Dims{{3}}).output("Y", F, Dims{{3}});
  b.node("Relu", {"X"}, {"Y"}, "relu");
  const auto m = b.load();
  check::Case k;
  k.name = "case";
  k.feeds = {{"X", f32({3}, {nan_with_bits(0x7FC00001u), nan_with_bits(0x7FC00002u), nan_with_bits(0x7FC00003u)})}};
  k.actual = check::actual_from_tensors(
      m, {{"Y", f32({3}, {nan_with_bits(0x7FC00004u), nan_with_bits(0x7FC00005u), nan_with_bits(0x7FC00006u)})}});
  compare::Options o;
  o.max_listed = 1;
  const auto c = check::judge_cases(m, {k}, o);
  CHECK(c.conforms);
  const auto& out = c.cases.at(0).verdict.outputs.at(0);
  CHECK(out.nan_payload_only == 3);
  CHECK(out.nan_payload_notes.size() == 1);
  const std::string text = check::to_text(c, o);
  CHECK(text.find("note: 3 elements of 'Y' differ only in NaN payload") != std::string::npos);
  CHECK(text.find("  ... 2 more (--max-listed)\n") != std::string::npos);
}

TEST_CASE("[IO.npy.bfloat16] [MaxPool.indices] [MaxPool.shape] the type of an intermediate value — MaxPool's Indices are "
          "int64, its Y has X's type",
          "[check]") {
  // X -> MaxPool -> (P, I) -> Relu(P) -> RP, Relu(I) -> RI: P and I are intermediate values, typed by
  // the operator (I int64, [MaxPool.indices]) or, for Y, by X's type ([MaxPool.shape]).
  ModelBuilder b(14);
  b.input("X", onnx::TensorProto::FLOAT16, Dims{{1, 1, 4}});
  b.output("RP", onnx::TensorProto::FLOAT16, Dims{{1, 1, 2}}).output("RI", I64, Dims{{1, 1, 2}});
  auto& pool = b.node("MaxPool", {"X"}, {"P", "I"}, "pool");
  attr_ints(pool, "kernel_shape", {2});
  attr_ints(pool, "strides", {2});
  b.node("Relu", {"P"}, {"RP"}, "relu_p");
  b.node("Relu", {"I"}, {"RI"}, "relu_i");
  const auto m = b.load();
  CHECK(check::value_dtype(m, "I") == DType::Int64);
  CHECK(check::value_dtype(m, "P") == DType::Float16);
  CHECK(check::value_dtype(m, "RI") == DType::Int64);
}

}  // namespace check_attribution_test
