// The version tables of the new operators at the node level: which version an opset resolves to
// ([Graph.opset.resolve]), the attributes and the number of inputs and outputs each version has
// ([Graph.node.attributes], [Graph.node.arity]), and the inputs a node's bounds come from. Expected
// values are worked out by hand from the Versions sections of spec/ops/*.md. Written to kill the
// mutants of props/mutation/catalogue.json in the operator registry (src/ops/registry.cpp).
#include "graph_util.hpp"

namespace kill_versions_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int BF16 = onnx::TensorProto::BFLOAT16;

Tensor bf16(Shape s, std::vector<std::uint16_t> bits) {
  std::vector<bfloat16> v;
  for (auto b : bits) v.push_back(bfloat16{b});
  return make_tensor<bfloat16>(std::move(s), v);
}

}  // namespace

TEST_CASE("[Relu.v1] [Relu.v6] [Graph.node.attributes] consumed_inputs is an attribute of Relu-1 only", "[kill][versions]") {
  for (const int opset : {1, 6, 13, 14}) {
    ModelBuilder b(opset);
    b.input("X", F, Dims{{2}}).output("Y", F, Dims{{2}});
    attr_ints(b.node("Relu", {"X"}, {"Y"}), "consumed_inputs", {0});
    if (opset == 1) {
      CHECK(values<float>(b.load().run({{"X", f32({2}, {-1, 2})}})[0].tensor) == std::vector<float>{0, 2});
    } else {
      CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
    }
  }
}

TEST_CASE("[Relu.v13] [Graph.opset.resolve] opset 13 resolves Relu to Relu-13, which accepts bfloat16", "[kill][versions]") {
  // bfloat16 X = {-1 0xBF80, 2 0x4000, -0 0x8000}: Y = {+0, 2, +0}.
  ModelBuilder b(13);
  b.input("X", BF16, Dims{{3}}).output("Y", BF16, Dims{{3}});
  b.node("Relu", {"X"}, {"Y"});
  const auto y = b.load().run({{"X", bf16({3}, {0xBF80, 0x4000, 0x8000})}})[0].tensor;
  CHECK(bits16(y) == std::vector<std::uint16_t>{0x0000, 0x4000, 0x0000});
}

TEST_CASE("[GlobalMaxPool.v22] [Graph.opset.resolve] opset 22 resolves GlobalMaxPool to version 22, which accepts bfloat16",
          "[kill][versions]") {
  // X [1, 1, 3] = {1 0x3F80, 3 0x4040, -2 0xC000}: Y [1, 1, 1] = {3}.
  ModelBuilder b(22);
  b.input("X", BF16, Dims{{1, 1, 3}}).output("Y", BF16, Dims{{1, 1, 1}});
  b.node("GlobalMaxPool", {"X"}, {"Y"});
  const auto y = b.load().run({{"X", bf16({1, 1, 3}, {0x3F80, 0x4040, 0xC000})}})[0].tensor;
  CHECK(y.shape() == Shape{1, 1, 1});
  CHECK(bits16(y) == std::vector<std::uint16_t>{0x4040});
}

TEST_CASE("[Clip.bounds.inputs] a Clip-13 node takes its lower bound from input 1 and its upper bound from input 2",
          "[kill][versions]") {
  // lo = 0, hi = 3: X = {-5, 2, 9} gives {0, 2, 3}; with only input 1 (lo = 0), hi is the greatest
  // finite float: {0, 2, 9}; with input 1 empty-named and hi = 3: {-5, 2, 3}.
  const Tensor x = f32({3}, {-5, 2, 9}), lo = f32({}, {0}), hi = f32({}, {3});
  {
    ModelBuilder b(13);
    b.input("X", F, Dims{{3}}).input("lo", F, Dims{std::vector<std::int64_t>{}}).input("hi", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{3}});
    b.node("Clip", {"X", "lo", "hi"}, {"Y"});
    CHECK(values<float>(b.load().run({{"X", x}, {"lo", lo}, {"hi", hi}})[0].tensor) == std::vector<float>{0, 2, 3});
  }
  {
    ModelBuilder b(13);
    b.input("X", F, Dims{{3}}).input("lo", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{3}});
    b.node("Clip", {"X", "lo"}, {"Y"});
    CHECK(values<float>(b.load().run({{"X", x}, {"lo", lo}})[0].tensor) == std::vector<float>{0, 2, 9});
  }
  {
    ModelBuilder b(13);
    b.input("X", F, Dims{{3}}).input("hi", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{3}});
    b.node("Clip", {"X", "", "hi"}, {"Y"});
    CHECK(values<float>(b.load().run({{"X", x}, {"hi", hi}})[0].tensor) == std::vector<float>{-5, 2, 3});
  }
}

TEST_CASE("[Clip.v1] [Clip.v6] [Clip.v11] [Graph.node.arity] [Graph.node.attributes] Clip-1 and Clip-6 have one input and "
          "the attributes min, max, and Clip-11 has three inputs and no attribute",
          "[kill][versions]") {
  for (const int opset : {1, 6}) {
    ModelBuilder b(opset);
    b.input("X", F, Dims{{1}}).input("lo", F, Dims{std::vector<std::int64_t>{}}).input("hi", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{1}});
    b.node("Clip", {"X", "lo", "hi"}, {"Y"});
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.arity");
  }
  for (const int opset : {11, 12, 13}) {
    ModelBuilder b(opset);
    b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
    attr_float(b.node("Clip", {"X"}, {"Y"}), "min", 0.0f);
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
  }
  ModelBuilder b(6);  // the attributes of Clip-6: min = -1, max = 1 on X = {-3} gives {-1}
  b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
  auto& n = b.node("Clip", {"X"}, {"Y"});
  attr_float(n, "min", -1.0f);
  attr_float(n, "max", 1.0f);
  CHECK(values<float>(b.load().run({{"X", f32({1}, {-3})}})[0].tensor) == std::vector<float>{-1});
}

TEST_CASE("[MaxPool.v1] [MaxPool.v8] [MaxPool.v10] [Graph.node.arity] [Graph.node.attributes] MaxPool-1 has one output, and "
          "ceil_mode and dilations are attributes from version 10",
          "[kill][versions]") {
  {
    ModelBuilder b(1);
    b.input("X", F, Dims{{1, 1, 2}}).output("Y", F, Dims{{1, 1, 1}}).output("I", onnx::TensorProto::INT64, Dims{{1, 1, 1}});
    attr_ints(b.node("MaxPool", {"X"}, {"Y", "I"}), "kernel_shape", {2});
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.arity");
  }
  for (const int opset : {8, 9, 10}) {
    for (const std::string attribute : {"ceil_mode", "dilations"}) {
      ModelBuilder b(opset);
      b.input("X", F, Dims{{1, 1, 2}}).output("Y", F, Dims{{1, 1, 1}});
      auto& n = b.node("MaxPool", {"X"}, {"Y"});
      attr_ints(n, "kernel_shape", {2});
      if (attribute == "ceil_mode") attr_int(n, attribute, 0);
      else attr_ints(n, attribute, {1});
      if (opset < 10) {
        CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
      } else {
        CHECK(values<float>(b.load().run({{"X", f32({1, 1, 2}, {4, 7})}})[0].tensor) == std::vector<float>{7});
      }
    }
  }
}

}  // namespace kill_versions_test
