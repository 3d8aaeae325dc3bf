// Hand-derived cases of golden --nodes ([Check.golden-nodes], spec/common/check.md) beyond the ones of
// props/unit/nodewise_test.cpp: the folder names (characters replaced, unnamed nodes, names already
// used), the folder DIR may replace, --inputs and --dim, a node that cannot be extracted, the nodes of
// subgraphs, and a folder that cannot be listed. Every expected name, status and clause is read from
// the clause.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/check.hpp"
#include "oracle/node_golden.hpp"

namespace golden_nodes_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;

graph::Model partial(const ModelBuilder& b) {
  graph::LoadOptions o;
  o.partial = true;
  return b.load(o);
}

// X -> Relu -> ... -> Y, one Relu-14 per name, in that order.
ModelBuilder relu_chain(const std::vector<std::string>& names) {
  ModelBuilder b(14);
  b.input("X", F, Dims{{2}}).output("Y", F, Dims{{2}});
  for (std::size_t k = 0; k < names.size(); ++k)
    b.node("Relu", {k == 0 ? "X" : fmt::format("V{}", k)}, {k + 1 == names.size() ? "Y" : fmt::format("V{}", k + 1)},
           names[k]);
  return b;
}

std::vector<std::string> folders(const golden::NodesWritten& w) {
  std::vector<std::string> out;
  for (const auto& n : w.nodes) out.push_back(n.folder);
  return out;
}

void touch(const fs::path& p) { std::ofstream(p) << "x"; }

}  // namespace

TEST_CASE("[Check.golden-nodes] a folder is the node's name with characters outside A-Z a-z 0-9 . _ - as '_', node_K "
          "when unnamed, _2 when already used",
          "[golden][nodewise]") {
  // Evaluation order = file order (a chain). "r.e_l-u/1" keeps letters, digits, '.', '_' and '-' and
  // turns '/' into '_'; node 3 has no name: node_3; "a b" gives "a_b", so the next "a_b" is "a_b_2";
  // "nodes.json" is the index's name in DIR: "nodes.json_2".
  const auto m = relu_chain({"r.e_l-u/1", "a b", "a_b", "", "nodes.json"}).load();
  const TempDir dir;
  const auto w = golden::write_nodes(m, (dir.path / "g").string(), {}, {});
  CHECK(folders(w) == std::vector<std::string>{"r.e_l-u_1", "a_b", "a_b_2", "node_3", "nodes.json_2"});
  for (const auto& f : folders(w)) CHECK(fs::is_regular_file(dir.path / "g" / f / "manifest.json"));
  CHECK(fs::is_regular_file(dir.path / "g" / "nodes.json"));
  CHECK(w.index["nodes"][3]["folder"] == "node_3");
}

TEST_CASE("[Check.golden-nodes] nodes named '.' and '..' get folders of their own inside DIR", "[golden][nodewise]") {
  // DIR/F must be a golden folder of its own for each node: F can be neither DIR itself nor its parent.
  const auto m = relu_chain({".", "..", "x"}).load();
  const TempDir dir;
  const auto w = golden::write_nodes(m, (dir.path / "g").string(), {}, {});
  const auto f = folders(w);
  REQUIRE(f.size() == 3);
  for (const auto& name : f) {
    CHECK(name != ".");
    CHECK(name != "..");
    CHECK(fs::is_regular_file(dir.path / "g" / name / "manifest.json"));
  }
  CHECK(f[0] != f[1]);
  CHECK_FALSE(fs::exists(dir.path / "manifest.json"));
  CHECK_FALSE(fs::exists(dir.path / "g" / "manifest.json"));
}

TEST_CASE("[Check.golden-nodes] [Check.golden] DIR may replace only an empty folder or a previous golden --nodes folder",
          "[golden][nodewise]") {
  const auto m = relu_chain({"relu"}).load();
  const TempDir dir;
  const fs::path g = dir.path / "g";
  // An empty folder, then the folder just written: both replaced.
  fs::create_directories(g);
  CHECK(golden::write_nodes(m, g.string(), {}, {}).nodes.at(0).status == "written");
  CHECK(golden::write_nodes(m, g.string(), {}, {}).nodes.at(0).status == "written");
  // A file, a folder without nodes.json, a stray file or a folder that is no golden folder beside
  // nodes.json: refused, and left as they were.
  touch(dir.path / "file");
  CHECK(refusal_id([&] { golden::write_nodes(m, (dir.path / "file").string(), {}, {}); }) == "Check.golden");
  fs::create_directories(dir.path / "other");
  touch(dir.path / "other" / "notes.txt");
  CHECK(refusal_id([&] { golden::write_nodes(m, (dir.path / "other").string(), {}, {}); }) == "Check.golden");
  CHECK(fs::is_regular_file(dir.path / "other" / "notes.txt"));
  touch(g / "stray.txt");
  CHECK(refusal_id([&] { golden::write_nodes(m, g.string(), {}, {}); }) == "Check.golden");
  fs::remove(g / "stray.txt");
  fs::create_directories(g / "not-golden");
  CHECK(refusal_id([&] { golden::write_nodes(m, g.string(), {}, {}); }) == "Check.golden");
  CHECK(fs::is_directory(g / "not-golden"));
  CHECK(fs::is_regular_file(g / "relu" / "manifest.json"));
}

TEST_CASE("[Check.golden-nodes] [Check.exit] a DIR that cannot be listed is an I/O failure", "[golden][nodewise]") {
  // DIR holds a previous golden --nodes folder; with no file descriptor left, listing it fails: an I/O
  // failure citing [Check.golden], nothing replaced. Not under AddressSanitizer (the sanitizer tree): its
  // runtime needs descriptors of its own while the test holds them all, and reports its own failure
  // (UBSan's vptr check of std::error_category, the symbolizer's socket pair: EMFILE).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  WARN("not run under AddressSanitizer: the sanitizer runtime needs the file descriptors this test exhausts");
  return;
#endif
#endif
  const auto m = relu_chain({"relu"}).load();
  const TempDir dir;
  const fs::path g = dir.path / "g";
  golden::write_nodes(m, g.string(), {}, {});
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &old) == 0);
  rlimit low = old;
  low.rlim_cur = 64;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &low) == 0);
  std::vector<int> fds;
  for (int fd; (fd = ::open("/dev/null", O_RDONLY)) >= 0;) fds.push_back(fd);
  const auto kind = failure_kind([&] { golden::write_nodes(m, g.string(), {}, {}); });
  for (int fd : fds) ::close(fd);
  REQUIRE(setrlimit(RLIMIT_NOFILE, &old) == 0);
  CHECK(kind == Failure::Io);
  CHECK(fs::is_regular_file(g / "relu" / "manifest.json"));
}

TEST_CASE("[Check.golden-nodes] --inputs is not taken with --nodes, a --dim no extracted input uses is a usage error, "
          "a used one sizes the node's input",
          "[golden][nodewise]") {
  // X [N, 3] -> Relu: the extracted Relu's input has the symbolic dimension N.
  ModelBuilder b(14);
  b.input("X", F, Dims{{-1, 3}}).output("Y", F, Dims{{-1, 3}});
  b.node("Relu", {"X"}, {"Y"}, "relu");
  const auto m = b.load();
  const TempDir dir;
  golden::Options o;
  o.inputs = "inputs.npz";
  CHECK(failure_kind([&] { golden::write_nodes(m, (dir.path / "a").string(), o, {}); }) == Failure::Usage);
  o.inputs.clear();
  o.dims = {{"M", 4}};
  CHECK(failure_kind([&] { golden::write_nodes(m, (dir.path / "b").string(), o, {}); }) == Failure::Usage);
  CHECK_FALSE(fs::exists(dir.path / "b"));
  o.dims = {{"N", 2}};
  const auto w = golden::write_nodes(m, (dir.path / "c").string(), o, {});
  REQUIRE(w.nodes.size() == 1);
  CHECK(w.nodes[0].status == "written");
  const auto one = graph::Model::load((dir.path / "c" / "relu" / "model.onnx").string());
  const auto cases = check::load_cases(one, (dir.path / "c" / "relu").string(), (dir.path / "c" / "relu").string());
  REQUIRE_FALSE(cases.empty());
  CHECK(cases[0].feeds.at(0).tensor.shape() == Shape{2, 3});
}

TEST_CASE("[Check.golden-nodes] [Check.golden] an input dimension neither fixed nor named cannot be drawn — a usage error, "
          "nothing written",
          "[golden][nodewise]") {
  ModelBuilder b(14);
  b.input("X", F, Dims{{2}}).output("Y", F, Dims{{2}});
  b.g().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim();  // X [2, ?]
  b.g().mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim();
  b.node("Relu", {"X"}, {"Y"}, "relu");
  const TempDir dir;
  CHECK(failure_kind([&] { golden::write_nodes(b.load(), (dir.path / "g").string(), {}, {}); }) == Failure::Usage);
  CHECK_FALSE(fs::exists(dir.path / "g"));
}

TEST_CASE("[Check.golden-nodes] [Graph.extract] an untyped output nothing reads is left out: Dropout-7's mask, as in the light CNNs",
          "[golden][nodewise]") {
  // X -> Dropout-7 -> (Y, M) -> Relu(Y) -> R: ONNX's inference gives the mask M no type, and no node reads it
  ModelBuilder b(9);
  b.input("X", F, Dims{{2}}).output("R", F, Dims{{2}});
  b.node("Dropout", {"X"}, {"Y", "M"}, "drop");
  b.node("Relu", {"Y"}, {"R"}, "relu");
  const TempDir dir;
  const auto w = golden::write_nodes(partial(b), (dir.path / "g").string(), {}, {});
  REQUIRE(w.nodes.size() == 2);
  CHECK(w.nodes[0].status == "written");
  CHECK(w.nodes[1].status == "written");
  onnx::ModelProto one;
  std::ifstream f(dir.path / "g" / w.nodes[0].folder / "model.onnx", std::ios::binary);
  REQUIRE(one.ParseFromIstream(&f));
  REQUIRE(one.graph().node_size() == 1);
  CHECK(one.graph().node(0).output_size() == 1);  // M left out of the node
  CHECK(one.graph().node(0).output(0) == "Y");
  CHECK(one.graph().output_size() == 1);
}

TEST_CASE("[Check.golden-nodes] [Graph.extract] a node that cannot be extracted is listed not written, with the refusal, "
          "the nodes of subgraphs are listed last, not judged",
          "[golden][nodewise]") {
  // X -> Foo -> Q -> Relu -> R: Foo is outside the spec and nothing types Q, so the Relu cannot be
  // extracted ([Graph.extract]); an If holds two Relu nodes, one unnamed, in its branches.
  ModelBuilder b(14);
  b.input("X", F, Dims{{2}}).input("cond", onnx::TensorProto::BOOL, Dims{std::vector<std::int64_t>{}});
  b.output("R", F, Dims{{2}}).output("Z", F, Dims{{2}});
  b.node("Foo", {"X"}, {"Q"}, "foo");
  b.node("Relu", {"Q"}, {"R"}, "relu");
  auto& node = b.node("If", {"cond"}, {"Z"}, "if");
  auto* g = add_attr(node, "then_branch", onnx::AttributeProto::GRAPH).mutable_g();
  g->set_name("then");
  auto* inner = g->add_node();
  inner->set_op_type("Relu");
  inner->set_name("inner");
  inner->add_input("X");
  inner->add_output("Z1");
  set_tensor_type(*g->add_output(), "Z1", F, Dims{{2}});
  auto* e = add_attr(node, "else_branch", onnx::AttributeProto::GRAPH).mutable_g();
  *e = *g;
  e->mutable_node(0)->clear_name();
  const TempDir dir;
  const auto w = golden::write_nodes(partial(b), (dir.path / "g").string(), {}, {});
  REQUIRE(w.nodes.size() == 5);
  CHECK(w.nodes[0].status == "not judged");
  CHECK(w.nodes[1].status == "not written");
  CHECK(w.nodes[1].clause == "Graph.extract");
  CHECK(w.nodes[1].folder.empty());
  CHECK(w.nodes[1].reason.find("input 'Q'") != std::string::npos);
  CHECK(w.nodes[2].clause == "Graph.opset.unsupported");  // If is outside the spec
  CHECK(w.nodes[3].label == "node 'inner' (Relu) in attribute 'then_branch' of node 'if' (If)");
  CHECK(w.nodes[3].clause == "Graph.partial.subgraph");
  CHECK(w.nodes[4].label == "an unnamed Relu node in attribute 'else_branch' of node 'if' (If)");
  CHECK(w.nodes[4].status == "not judged");
  CHECK(w.index["nodes"][1]["status"] == "not written");
  CHECK(w.index["nodes"][1]["clause"] == "Graph.extract");
  CHECK(w.index["summary"]["written"] == 0);
}

}  // namespace golden_nodes_test
