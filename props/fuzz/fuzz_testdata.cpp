// Fuzz target `testdata`: bytes -> a test_data_set folder -> graph::load_feeds and
// io::read_test_data_set ([IO.testdata.folder] [IO.tensorproto.fields] [Graph.feed.*]), then a run.
//
// The input is a tiny archive of files, read record by record until it ends:
//   byte 0            which model the folder feeds: even = Max-13(A: float [N], B: float [1]) -> Y,
//                     odd = ReduceMax-18(X: float [2, 3], axes: int64 [?]) -> Y
//   then per record   1 byte  name selector (kNames[b % size]; a name ending in '/' makes a folder)
//                     2 bytes content length L, little-endian (cut to what is left)
//                     L bytes content
// The files are written to a fresh folder test_data_set_0 in a per-process scratch folder.
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "fuzz_util.hpp"
#include "graph/model.hpp"

using namespace sonnx;
namespace fs = std::filesystem;

namespace {

constexpr const char* kNames[] = {
    "input_0.pb", "input_1.pb", "input_2.pb", "output_0.pb", "output_1.pb", "input_01.pb", "input_x.pb",
    "input_3.pb", "input_10.pb", "output_2.pb", "README.md",   "input_0.pb/", "input_1.pb/", "input_.pb",
};

void add_tensor_input(onnx::GraphProto& g, const char* name, int elem, std::vector<std::int64_t> dims) {
  auto* v = g.add_input();
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (auto d : dims) {
    auto* dim = shape->add_dim();
    if (d < 0) dim->set_dim_param("N");
    else dim->set_dim_value(d);
  }
}

// GCC 12 at -O3 warns -Wrestrict inside libstdc++'s std::string::assign(const char*), inlined from
// protobuf's add_output("Y") / add_input("X") below: a false positive, GCC bug 105329 ("Bogus restrict
// warning when assigning 1-char string literal to std::string"). Silenced here only, for this function.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
std::string make_model(bool reduce) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(reduce ? 18 : 13);
  auto& g = *m.mutable_graph();
  g.set_name("fuzz");
  auto* n = g.add_node();
  n->add_output("Y");
  if (reduce) {
    n->set_op_type("ReduceMax");
    n->add_input("X");
    n->add_input("axes");
    add_tensor_input(g, "X", onnx::TensorProto::FLOAT, {2, 3});
    add_tensor_input(g, "axes", onnx::TensorProto::INT64, {-1});
  } else {
    n->set_op_type("Max");
    n->add_input("A");
    n->add_input("B");
    add_tensor_input(g, "A", onnx::TensorProto::FLOAT, {-1});
    add_tensor_input(g, "B", onnx::TensorProto::FLOAT, {1});
  }
  auto* y = g.add_output();
  y->set_name("Y");
  y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return m.SerializeAsString();
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

const graph::Model& model(bool reduce) {
  static const graph::Model max_model = graph::Model::from_bytes(make_model(false), "fuzz Max-13");
  static const graph::Model reduce_model = graph::Model::from_bytes(make_model(true), "fuzz ReduceMax-18");
  return reduce ? reduce_model : max_model;
}

const fs::path& scratch() {
  static const fs::path dir = fs::temp_directory_path() / ("sonnx-fuzz-testdata-" + std::to_string(getpid()));
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::limit_memory();
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(scratch(), ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::limit_memory();
  if (size == 0) return 0;
  const bool reduce = data[0] & 1;
  const fs::path dir = scratch() / "test_data_set_0";
  std::error_code ec;  // the harness's own file system errors are not findings: skip the record
  fs::remove_all(scratch(), ec);
  fs::create_directories(dir, ec);
  std::size_t at = 1;
  while (at + 3 <= size) {
    const std::string name = kNames[data[at] % std::size(kNames)];
    std::size_t len = data[at + 1] | (static_cast<std::size_t>(data[at + 2]) << 8);
    at += 3;
    len = std::min(len, size - at);
    if (name.ends_with("/")) {
      fs::create_directories(dir / name.substr(0, name.size() - 1), ec);  // fails over a file of that name
    } else if (!fs::is_directory(dir / name, ec)) {
      std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(data + at), static_cast<std::streamsize>(len));
    }
    at += len;
  }
  const graph::Model& m = model(reduce);
  std::vector<io::NamedTensor> feeds;
  if (!fuzz::refused([&] { feeds = graph::load_feeds(m, dir.string()); }))
    fuzz::refused([&] { m.run(feeds); });
  fuzz::refused([&] { io::read_test_data_set(dir.string(), "output"); });
  return 0;
}
