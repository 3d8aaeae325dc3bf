// Requirement-based tests of src/io and src/graph written for conditions and lines the other unit
// tests left uncovered (issue #12: structural coverage). Each test checks one clause of
// spec/common/io.md or spec/common/graph.md on inputs chosen so that each condition of the code's
// decision is shown to decide the outcome; every expected value is derived by hand from the spec.
// Inputs that no zip writer or numpy would produce (a stored member whose sizes disagree, npy
// headers with "-0" or 20-digit dimensions) are written here byte by byte.
#include <sys/mman.h>
#include <zip.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "graph/summary.hpp"
#include "graph_util.hpp"
#include "io/io.hpp"
#include "zip_util.hpp"

namespace io_graph_coverage_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using onnx::AttributeProto;
using onnx::TensorProto;
using graph::Model;
namespace fs = std::filesystem;

namespace {

std::uint32_t crc_of(const Bytes& b) {
  return static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(b.data()), static_cast<uInt>(b.size())));
}

// The model bytes of Y = Hardmax(X) (Hardmax-13), X and Y float.
std::string hardmax_bytes(std::int64_t opset = 13) {
  ModelBuilder b(opset);
  b.input("X").output("Y");
  b.node("Hardmax", {"X"}, {"Y"});
  return b.bytes();
}

// The bytes a plain read of `path` gives (to check that a file is shorter than its stat size).
std::size_t readable_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return 0;
  return static_cast<std::size_t>(std::distance(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
}

}  // namespace

// ------------------------------------------------------------------------------------- graph: model

TEST_CASE("[Common.gr.explicit-types] a tensor type with no elem_type, or elem_type UNDEFINED, declares no element type",
          "[graph]") {
  // Y = Hardmax(X); X declared as a tensor type whose elem_type is absent, UNDEFINED (0), or FLOAT.
  auto with_x = [](std::optional<int> elem) {
    ModelBuilder b(13);
    auto* x = b.g().add_input();
    x->set_name("X");
    auto* tt = x->mutable_type()->mutable_tensor_type();
    if (elem) tt->set_elem_type(*elem);
    b.output("Y");
    b.node("Hardmax", {"X"}, {"Y"});
    return b;
  };
  CHECK(refusal_id([&] { with_x(std::nullopt).load(); }) == "Common.gr.explicit-types");
  CHECK(refusal_id([&] { with_x(TensorProto::UNDEFINED).load(); }) == "Common.gr.explicit-types");
  const Model m = with_x(TensorProto::FLOAT).load();
  CHECK(m.inputs().at(0).dtype == DType::Float);
}

TEST_CASE("[Common.dtype.set] a graph input of an element type code that ONNX does not define is refused, naming the code",
          "[graph]") {
  ModelBuilder b(13);
  b.input("X", 999).output("Y");
  b.node("Hardmax", {"X"}, {"Y"});
  CHECK(refusal_id([&] { b.load(); }) == "Common.dtype.set");
  CHECK(refusal_message([&] { b.load(); }).find("999") != std::string::npos);
}

TEST_CASE("[Graph.initializer] [Graph.feed.shape] a symbolic declared dim accepts any initializer size, a fixed dim only its own",
          "[graph]") {
  // Y = Max(A, B), B a graph input [d] with the initializer [10, -10] (shape [2]).
  auto with_b = [](std::int64_t d) {
    ModelBuilder b(13);
    b.input("A", TensorProto::FLOAT, Dims{{2}}).input("B", TensorProto::FLOAT, Dims{{d}}).output("Y");
    b.initializer(tp_f32("B", {2}, {10, -10}));
    b.node("Max", {"A", "B"}, {"Y"});
    return b;
  };
  // d symbolic (dim_param "N"): accepted; Max([1, 2], [10, -10]) = [10, 2].
  const Model sym = with_b(-1).load();
  CHECK(values<float>(sym.run({{"A", f32({2}, {1, 2})}})[0].tensor) == std::vector<float>{10, 2});
  CHECK(refusal_id([&] { with_b(3).load(); }) == "Graph.initializer");  // fixed 3 != 2
  CHECK(with_b(2).load().overridable_inputs().size() == 1);             // fixed 2 == 2
}

TEST_CASE("[Graph.node.arity] an empty input name stands only for an optional input: never before data, never in Max",
          "[graph]") {
  // ReduceMax-18: data required, axes optional.
  auto reducemax18 = [](const std::vector<std::string>& ins) {
    ModelBuilder b(18);
    b.input("X").input("axes", TensorProto::INT64, Dims{{1}}).output("Y");
    b.node("ReduceMax", ins, {"Y"});
    return b;
  };
  // An empty name in place of the required input 0 (followed by axes): refused.
  CHECK(refusal_id([&] { reducemax18({"", "axes"}).load(); }) == "Graph.node.arity");
  // A trailing empty name is dropped: ReduceMax-18 of [1, 3, 2] with no axes reduces every axis
  // (keepdims 1, noop_with_empty_axes 0): [3] of shape [1].
  const Model m = reducemax18({"X", ""}).load();
  const auto y = m.run({{"X", f32({3}, {1, 3, 2})}, {"axes", make_tensor<std::int64_t>({1}, {0})}});
  CHECK(y[0].tensor.shape() == Shape{1});
  CHECK(values<float>(y[0].tensor) == std::vector<float>{3});
  // Three inputs for a version that takes 1 or 2.
  CHECK(refusal_id([&] { reducemax18({"X", "axes", "X"}).load(); }) == "Graph.node.arity");

  // Max: every input is required, so an empty name between two inputs is refused.
  auto max13 = [](const std::vector<std::string>& ins) {
    ModelBuilder b(13);
    b.input("A").input("B").output("Y");
    b.node("Max", ins, {"Y"});
    return b;
  };
  CHECK(refusal_id([&] { max13({"A", "", "B"}).load(); }) == "Graph.node.arity");
  CHECK(max13({"A", "B"}).load().nodes().at(0).inputs.size() == 2);
}

TEST_CASE("[Graph.node.arity] a node whose output name is empty is refused", "[graph]") {
  ModelBuilder b(13);
  b.input("X").output("Y");
  b.node("Hardmax", {"X"}, {""});
  CHECK(refusal_id([&] { b.load(); }) == "Graph.node.arity");
}

TEST_CASE("[Graph.order.topological] an initializer given twice and a graph input declared twice are refused",
          "[graph]") {
  {
    ModelBuilder b(13);
    b.input("X").output("Y");
    b.initializer(tp_f32("W", {1}, {1})).initializer(tp_f32("W", {1}, {2}));
    b.node("Max", {"X", "W"}, {"Y"});
    CHECK(refusal_id([&] { b.load(); }) == "Graph.order.topological");
  }
  {
    ModelBuilder b(13);
    b.input("X").input("X").output("Y");
    b.node("Hardmax", {"X"}, {"Y"});
    CHECK(refusal_id([&] { b.load(); }) == "Graph.order.topological");
  }
  {
    // The same value as an initializer and a graph input is one value ([Graph.initializer]).
    ModelBuilder b(13);
    b.input("X").input("W", TensorProto::FLOAT, Dims{{1}}).output("Y");
    b.initializer(tp_f32("W", {1}, {1}));
    b.node("Max", {"X", "W"}, {"Y"});
    CHECK(b.load().overridable_inputs().at(0).name == "W");
  }
}

TEST_CASE("[Graph.output.declared] a value declared as a graph output twice is returned at both positions, in order",
          "[graph]") {
  // Outputs Y, Y, Z with Y = Hardmax(X) and Z = ReduceMax(X) (ReduceMax-13, keepdims 1).
  ModelBuilder b(13);
  b.input("X").output("Y").output("Y").output("Z");
  b.node("Hardmax", {"X"}, {"Y"});
  b.node("ReduceMax", {"X"}, {"Z"});
  const Model m = b.load();
  const auto out = m.run({{"X", f32({3}, {1, 3, 2})}});
  REQUIRE(out.size() == 3);
  CHECK(out[0].name == "Y");
  CHECK(out[1].name == "Y");
  CHECK(out[2].name == "Z");
  // Hardmax([1, 3, 2]) = [0, 1, 0]; ReduceMax over axis 0 with keepdims = [3] of shape [1].
  CHECK(values<float>(out[0].tensor) == std::vector<float>{0, 1, 0});
  CHECK(values<float>(out[1].tensor) == std::vector<float>{0, 1, 0});
  CHECK(out[2].tensor.shape() == Shape{1});
  CHECK(values<float>(out[2].tensor) == std::vector<float>{3});
}

TEST_CASE("[Graph.opset.resolve] a Model move-assigned from another answers for the other model", "[graph]") {
  Model m = Model::from_bytes(hardmax_bytes(13), "first");
  CHECK(m.nodes().at(0).version == 13);
  m = Model::from_bytes(hardmax_bytes(11), "second");  // opset 11 -> Hardmax-11
  CHECK(m.opset() == 11);
  CHECK(m.nodes().at(0).version == 11);
  CHECK(m.serialized() == hardmax_bytes(11));
}

TEST_CASE("[Graph.model.parse] [Common.tensor.size-limit] model bytes above the size limit are refused before parsing",
          "[graph]") {
  const std::string bytes = hardmax_bytes();
  {
    ByteLimit limit(std::to_string(bytes.size() - 1));  // one byte short
    CHECK(refusal_id([&] { Model::from_bytes(bytes, "m"); }) == "Graph.model.parse");
    // Not even parsed: garbage of the same size gets the same refusal.
    CHECK(refusal_id([&] { Model::from_bytes(std::string(bytes.size(), '\xFF'), "m"); }) == "Graph.model.parse");
  }
  ByteLimit limit(std::to_string(bytes.size()));  // exactly the size
  CHECK(Model::from_bytes(bytes, "m").nodes().size() == 1);
}

TEST_CASE("[Graph.model.parse] a model file that exists but cannot be read is refused as an I/O failure", "[graph]") {
  // A regular file that cannot be opened for reading: /proc/sys files of mode 0200 (not even root
  // may read them).
  bool opened_none = false;
  for (const char* p : {"/proc/sys/vm/drop_caches", "/proc/sys/vm/compact_memory"}) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec) || std::ifstream(p, std::ios::binary)) continue;
    CAPTURE(p);
    CHECK(refusal_id([&] { Model::load(p); }) == "Graph.model.parse");
    CHECK(failure_kind([&] { Model::load(p); }) == Failure::Io);
    opened_none = true;
    break;
  }
  if (!opened_none) WARN("no unreadable regular file found: the open failure is not exercised");
  // A regular file that opens but holds fewer bytes than its size says: sysfs attributes have a
  // size of 4096 and a few bytes of content.
  bool short_one = false;
  for (const char* p : {"/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/profiling",
                        "/sys/kernel/uevent_seqnum", "/sys/power/state"}) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) continue;
    const auto size = fs::file_size(p, ec);
    if (ec || size == 0 || size > graph::max_model_bytes() || readable_bytes(p) >= size) continue;
    CAPTURE(p);
    CHECK(refusal_id([&] { Model::load(p); }) == "Graph.model.parse");
    CHECK(failure_kind([&] { Model::load(p); }) == Failure::Io);
    short_one = true;
    break;
  }
  if (!short_one) WARN("no file shorter than its size found: the short read is not exercised");
  // The same bytes as a file of their own load.
  TempDir dir;
  {
    std::ofstream(dir / "m.onnx", std::ios::binary) << hardmax_bytes();
  }
  CHECK(Model::load(dir / "m.onnx").nodes().size() == 1);
}

// ---------------------------------------------------------------------------------- graph: attributes

TEST_CASE("[Graph.node.attributes] a STRING attribute, which no version of Hardmax or ReduceMax defines, is refused",
          "[graph]") {
  // Typed STRING, under a name the version defines (axis is an int) and under an unknown name.
  {
    ModelBuilder b(13);
    b.input("X").output("Y");
    attr_string(b.node("Hardmax", {"X"}, {"Y"}), "axis", "0");
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
  }
  {
    ModelBuilder b(13);
    b.input("X").output("Y");
    attr_string(b.node("ReduceMax", {"X"}, {"Y"}), "mode", "max");
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
  }
  // Type UNDEFINED (an old model) with only `s` set: a string attribute all the same.
  {
    ModelBuilder b(13);
    b.input("X").output("Y");
    add_attr(b.node("Hardmax", {"X"}, {"Y"}), "axis", AttributeProto::UNDEFINED).set_s("0");
    CHECK(refusal_id([&] { b.load(); }) == "Graph.node.attributes");
  }
  // Type UNDEFINED with only `i` set is the int attribute axis: Hardmax([1, 3, 2]) on axis 0 = [0, 1, 0].
  {
    ModelBuilder b(13);
    b.input("X").output("Y");
    add_attr(b.node("Hardmax", {"X"}, {"Y"}), "axis", AttributeProto::UNDEFINED).set_i(0);
    CHECK(values<float>(b.load().run({{"X", f32({3}, {1, 3, 2})}})[0].tensor) == std::vector<float>{0, 1, 0});
  }
}

TEST_CASE("[Common.gr.sparse] [Graph.node.attributes] a SPARSE_TENSOR attribute of a node is refused as a sparse tensor",
          "[graph]") {
  auto sparse_axes = [](AttributeProto::AttributeType type) {
    ModelBuilder b(13);
    b.input("X").output("Y");
    auto& a = add_attr(b.node("ReduceMax", {"X"}, {"Y"}), "axes", type);
    auto* s = a.mutable_sparse_tensor();
    s->add_dims(1);
    *s->mutable_values() = tp_i64("", {1}, {0});
    *s->mutable_indices() = tp_i64("", {1}, {0});
    return b;
  };
  CHECK(refusal_id([&] { sparse_axes(AttributeProto::SPARSE_TENSOR).load(); }) == "Common.gr.sparse");
  CHECK(refusal_id([&] { sparse_axes(AttributeProto::UNDEFINED).load(); }) == "Common.gr.sparse");
}

// ------------------------------------------------------------------------------------- graph: summary

TEST_CASE("[Common.dtype.bool] [Common.dtype.int] run --json prints bools as true and false, unsigned integers in full",
          "[graph][run]") {
  const auto j = graph::summary_json({{"B", make_tensor<bool>({2}, {true, false})},
                                      {"U", make_tensor<std::uint64_t>({2}, {0, 18446744073709551615ull})},
                                      {"V", make_tensor<std::uint8_t>({1}, {255})}});
  CHECK(j.dump() ==
        R"({"outputs":[{"name":"B","dtype":"bool","shape":[2],"size":2,"values":[true,false],"elided":false},)"
        R"({"name":"U","dtype":"uint64","shape":[2],"size":2,"values":[0,18446744073709551615],"elided":false},)"
        R"({"name":"V","dtype":"uint8","shape":[1],"size":1,"values":[255],"elided":false}]})");
}

// --------------------------------------------------------------------------------------- io: folders

TEST_CASE("[IO.testdata.folder] input_.pb, input_0.txt and input_ copy.pb are not input_K.pb files and are ignored",
          "[io][testdata]") {
  TempDir dir;
  io::write_tensor_pb(dir / "input_0.pb", f32({1}, {4}), "a");
  std::ofstream(dir / "input_.pb") << "no K";
  std::ofstream(dir / "input_0.txt") << "not .pb";
  std::ofstream(dir / "input_ copy.pb") << "K is not digits";
  const auto in = io::read_test_data_set(dir.path.string(), "input");
  REQUIRE(in.size() == 1);
  CHECK(in[0].name == "a");
  CHECK(values<float>(in[0].tensor) == std::vector<float>{4});
}

TEST_CASE("[IO.testdata.folder] a K of more than 9 digits is refused", "[io][testdata]") {
  for (const char* file : {"input_1000000000.pb", "input_99999999999999999999.pb"}) {
    CAPTURE(file);
    TempDir dir;
    io::write_tensor_pb(dir / "input_0.pb", f32({1}, {0}), "a");
    io::write_tensor_pb(dir / file, f32({1}, {1}), "b");
    CHECK(refusal_id([&] { io::read_test_data_set(dir.path.string(), "input"); }) == "IO.testdata.folder");
  }
  // Nine digits is still a number: 123456789 leaves a gap after input_0.pb, refused as a gap.
  TempDir dir;
  io::write_tensor_pb(dir / "input_0.pb", f32({1}, {0}), "a");
  io::write_tensor_pb(dir / "input_123456789.pb", f32({1}, {1}), "b");
  CHECK(refusal_id([&] { io::read_test_data_set(dir.path.string(), "input"); }) == "IO.testdata.folder");
  CHECK(refusal_message([&] { io::read_test_data_set(dir.path.string(), "input"); }).find("input_1.pb is missing") !=
        std::string::npos);
}

// ------------------------------------------------------------------------------------------- io: npy

TEST_CASE("[IO.npy.format] [Common.tensor.shape] a dimension written -0 is 0, a negative one is refused", "[io][npy]") {
  // shape (-0, 3): the integer 0, so 0 elements and no data bytes.
  const Tensor t = io::read_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (-0, 3), }"), "z.npy");
  CHECK(t.shape() == Shape{0, 3});
  CHECK(t.size() == 0);
  CHECK(refusal_id([&] { io::read_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }"), "n.npy"); }) ==
        "IO.npy.format");
  // Negative and beyond int64: still a negative dimension.
  CHECK(refusal_id([&] {
          io::read_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (-99999999999999999999,), }"), "h.npy");
        }) == "IO.npy.format");
  // Positive beyond int64: no tensor can have it.
  CHECK(refusal_id([&] {
          io::read_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"), "h.npy");
        }) == "Common.tensor.size-limit");
}

// ------------------------------------------------------------------------------------------- io: npz

TEST_CASE("[IO.npz.archive] a stored member whose compressed size is not its size is refused", "[io][npz]") {
  // x.npy: a float tensor [2] of zeros; a stored member holds its bytes as they are.
  const Bytes image = npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", Bytes(8));
  const std::uint32_t crc = crc_of(image);
  // Sizes that agree: read, [0, 0].
  const auto good = io::read_npz_image(one_member_zip("x.npy", image, ZIP_CM_STORE, crc, image.size()), "good.npz");
  REQUIRE(good.size() == 1);
  CHECK(good[0].name == "x");
  CHECK(values<float>(good[0].tensor) == std::vector<float>{0, 0});
  // Eight bytes more stored than the declared size.
  Bytes longer = image;
  longer.resize(image.size() + 8);
  CHECK(refusal_id([&] { io::read_npz_image(one_member_zip("x.npy", longer, ZIP_CM_STORE, crc, image.size()), "l.npz"); }) ==
        "IO.npz.archive");
  // Four bytes fewer stored than the declared size.
  const Bytes shorter(image.begin(), image.end() - 4);
  CHECK(refusal_id([&] { io::read_npz_image(one_member_zip("x.npy", shorter, ZIP_CM_STORE, crc, image.size()), "s.npz"); }) ==
        "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] a tensor name that is not UTF-8 cannot name a member and is refused", "[io][npz]") {
  TempDir dir;
  CHECK(refusal_id([&] { io::write_npz(dir / "bad.npz", {{"ok", f32({1}, {1})}, {"\xFF\xFE", f32({1}, {2})}}); }) ==
        "IO.npz.archive");
  // A UTF-8 name that is not ASCII is a member name like any other.
  io::write_npz(dir / "good.npz", {{"\xC3\xA9t\xC3\xA9", f32({1}, {2})}});
  const auto back = io::read_npz(dir / "good.npz");
  REQUIRE(back.size() == 1);
  CHECK(back[0].name == "\xC3\xA9t\xC3\xA9");
  CHECK(values<float>(back[0].tensor) == std::vector<float>{2});
}

// ------------------------------------------------------------------------------------ io: TensorProto

TEST_CASE("[IO.tensorproto.fields] a TensorProto image above protobuf's 2 GiB limit is refused without being read",
          "[io][proto]") {
  // 2^31 bytes of address space, never touched (no page is read: the size alone refuses it).
  const std::size_t n = std::size_t{1} << 31;
  void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    WARN("cannot reserve 2 GiB of address space: not exercised");
    return;
  }
  const std::span<const std::byte> image(static_cast<const std::byte*>(p), n);
  CHECK(refusal_id([&] { io::parse_tensor_pb(image, "huge.pb"); }) == "IO.tensorproto.fields");
  ::munmap(p, n);
  // The same check passes a small image: a float [1] tensor holding 1.5 (raw_data 0x3FC00000 LE).
  TensorProto t;
  t.set_name("s");
  t.set_data_type(TensorProto::FLOAT);
  t.add_dims(1);
  t.set_raw_data(std::string("\x00\x00\xC0\x3F", 4));
  const std::string s = t.SerializeAsString();
  const auto nt = io::parse_tensor_pb(std::span(reinterpret_cast<const std::byte*>(s.data()), s.size()), "s.pb");
  CHECK(nt.name == "s");
  CHECK(values<float>(nt.tensor) == std::vector<float>{1.5f});
}

TEST_CASE("[IO.tensorproto.fields] a tensor of 2 GiB cannot be written as a TensorProto and is refused, no file written",
          "[io][proto]") {
  // raw_data of 2^31 bytes makes a message above protobuf's 2^31 - 1 byte limit.
  ByteLimit limit("4294967296");
  const Tensor big(DType::Uint8, {std::int64_t{1} << 31});
  TempDir dir;
  CHECK(refusal_id([&] { io::write_tensor_pb(dir / "big.pb", big, "big"); }) == "IO.tensorproto.fields");
  CHECK(!fs::exists(dir / "big.pb"));
}

}  // namespace io_graph_coverage_test
