// Hand-derived examples of load_feeds and Model::load (spec/common/graph.md, spec/common/io.md):
// feeds from a .npz or a test_data_set_N folder, named as the graph declares them; model files.
// Files are written with the io writers into a fresh temporary folder.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "graph_util.hpp"

namespace graph_feeds_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using onnx::TensorProto;
using graph::Model;
namespace fs = std::filesystem;

namespace {

// Y = Max(A, B) (Max-13) with A [2] and B [2] float; B has an initializer [10, -10].
Model max_model() {
  ModelBuilder b(13);
  b.input("A", TensorProto::FLOAT, Dims{{2}}).input("B", TensorProto::FLOAT, Dims{{2}}).output("Y");
  b.initializer(tp_f32("B", {2}, {10, -10}));
  b.node("Max", {"A", "B"}, {"Y"});
  return b.load();
}

// Y = Max(P, Q) (Max-13) with two inputs and no initializer.
Model two_inputs(int elem = TensorProto::FLOAT) {
  ModelBuilder b(13);
  b.input("P", elem).input("Q", elem).output("Y", elem);
  b.node("Max", {"P", "Q"}, {"Y"});
  return b.load();
}

}  // namespace

TEST_CASE("[IO.npz.archive] [Graph.initializer] npz feeds keyed by input name, overriding B", "[graph]") {
  TempDir dir;
  io::write_npz(dir / "in.npz", {{"B", f32({2}, {0, 0})}, {"A", f32({2}, {1, -2})}});
  const Model model = max_model();
  const auto feeds = graph::load_feeds(model, dir / "in.npz");
  REQUIRE(feeds.size() == 2);
  // Max([1, -2], [0, 0]) = [1, 0]
  CHECK(values<float>(model.run(feeds)[0].tensor) == std::vector<float>{1, 0});
}

TEST_CASE("[IO.npy.bfloat16] a <u2 npz member fed to a bfloat16 input is read as bfloat16 bits", "[graph]") {
  TempDir dir;
  // bfloat16 bits: 0x3F80 = 1, 0xC040 = -3, 0x4040 = 3, 0xFF80 = -Inf
  io::write_npz(dir / "in.npz", {{"P", make_tensor<bfloat16>({2}, {bfloat16{0x3F80}, bfloat16{0xC040}})},
                                 {"Q", make_tensor<bfloat16>({2}, {bfloat16{0x4040}, bfloat16{0xFF80}})}});
  const Model model = two_inputs(TensorProto::BFLOAT16);
  const auto feeds = graph::load_feeds(model, dir / "in.npz");
  REQUIRE(feeds.size() == 2);
  CHECK(feeds[0].tensor.dtype() == DType::BFloat16);
  // Max([1, -3], [3, -Inf]) = [3, -3]
  const auto out = model.run(feeds);
  const auto y = out[0].tensor.values<bfloat16>();
  CHECK(sonnx::bits(y[0]) == 0x4040);
  CHECK(sonnx::bits(y[1]) == 0xC040);
}

TEST_CASE("[IO.testdata.folder] input_K.pb named by TensorProto.name, else by input position", "[graph]") {
  TempDir dir;
  const Model model = two_inputs();
  // Named in reverse: input_0.pb is Q, input_1.pb is P.
  io::write_tensor_pb(dir / "input_0.pb", f32({1}, {5}), "Q");
  io::write_tensor_pb(dir / "input_1.pb", f32({1}, {7}), "P");
  auto feeds = graph::load_feeds(model, dir.path.string());
  REQUIRE(feeds.size() == 2);
  CHECK(feeds[0].name == "Q");
  CHECK(feeds[1].name == "P");
  // Unnamed (or named after no input): by position, input_0.pb is P and input_1.pb is Q.
  io::write_tensor_pb(dir / "input_0.pb", f32({1}, {5}), "");
  io::write_tensor_pb(dir / "input_1.pb", f32({1}, {7}), "not_an_input");
  feeds = graph::load_feeds(model, dir.path.string());
  CHECK(feeds[0].name == "P");
  CHECK(feeds[1].name == "Q");
  CHECK(values<float>(model.run(feeds)[0].tensor) == std::vector<float>{7});
  // A third, unnamed file has no input left to feed.
  io::write_tensor_pb(dir / "input_2.pb", f32({1}, {9}), "");
  CHECK(refusal_id([&] { graph::load_feeds(model, dir.path.string()); }) == "IO.testdata.folder");
}

TEST_CASE("[IO.testdata.folder] [IO.npz.archive] inputs that do not exist are refused", "[graph]") {
  const Model model = two_inputs();
  CHECK(refusal_id([&] { graph::load_feeds(model, "/nonexistent/test_data_set_0"); }) == "IO.testdata.folder");
  CHECK(refusal_id([&] { graph::load_feeds(model, "/nonexistent/inputs.npz"); }) == "IO.npz.archive");
  TempDir dir;
  {
    std::ofstream(dir / "junk.npz") << "not a zip archive";
  }
  CHECK(refusal_id([&] { graph::load_feeds(model, dir / "junk.npz"); }) == "IO.npz.archive");
}

TEST_CASE("[Graph.model.parse] Model::load reads a file, files above the size limit are refused unread",
          "[graph]") {
  TempDir dir;
  ModelBuilder b(13);
  b.input("X").output("Y");
  b.node("Hardmax", {"X"}, {"Y"});
  {
    std::ofstream out(dir / "m.onnx", std::ios::binary);
    out << b.bytes();
  }
  const Model model = Model::load(dir / "m.onnx");
  CHECK(model.serialized() == b.bytes());
  CHECK(model.nodes().at(0).version == 13);
  // [Common.tensor.size-limit] the limit follows SONNX_REF_MAX_BYTES
  const char* old = std::getenv("SONNX_REF_MAX_BYTES");
  const std::string saved = old ? old : "";
  ::setenv("SONNX_REF_MAX_BYTES", "16", 1);
  const auto id = refusal_id([&] { Model::load(dir / "m.onnx"); });
  if (old) ::setenv("SONNX_REF_MAX_BYTES", saved.c_str(), 1);
  else ::unsetenv("SONNX_REF_MAX_BYTES");
  CHECK(id == "Graph.model.parse");
  CHECK(graph::max_model_bytes() <= 0x7FFFFFFFu);  // protobuf's message limit
}

}  // namespace graph_feeds_test
