// [Check.golden] golden folders: byte-identical for the same seed, in ONNX's node-test layout, with
// inputs drawn towards the values the spec decides.
#include <chrono>
#include <cstring>
#include <thread>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/order.hpp"
#include "graph_util.hpp"
#include "oracle/golden.hpp"
#include "ops/definition.hpp"

namespace golden_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;

fs::path temp_dir(const std::string& name) { return fresh_path("sonnx-golden-test", name); }

// Every file below `dir` (relative path -> bytes).
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out[fs::relative(e.path(), dir).generic_string()] = s.str();
    }
  return out;
}

// M = Max(X [N,3], B [3]) (N symbolic); R = ReduceMax-13(M, axes [1], keepdims 0); H = Hardmax-13(M)
ModelBuilder three_ops(int elem = F) {
  ModelBuilder b(13);
  b.input("X", elem, Dims{{-1, 3}}).input("B", elem, Dims{{3}});
  b.output("R", elem, std::nullopt).output("H", elem, std::nullopt).output("M", elem, std::nullopt);
  b.node("Max", {"X", "B"}, {"M"}, "max");
  auto& r = b.node("ReduceMax", {"M"}, {"R"}, "reduce");
  attr_ints(r, "axes", {1});
  attr_int(r, "keepdims", 0);
  b.node("Hardmax", {"M"}, {"H"}, "hardmax");
  return b;
}

// Relative paths of the files that differ between two folders (or exist in only one).
std::vector<std::string> differing(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::vector<std::string> out;
  for (const auto& [path, bytes] : a)
    if (!b.count(path) || b.at(path) != bytes) out.push_back(path);
  for (const auto& [path, bytes] : b)
    if (!a.count(path)) out.push_back(path);
  return out;
}

}  // namespace

TEST_CASE("[Check.golden] the same seed gives byte-identical folders, another seed does not", "[golden]") {
  const auto m = three_ops().load();
  golden::Options o;
  o.seed = 42;
  o.cases = 3;
  o.construct = false;  // the drawn cases only (constructed ones: [Check.golden-coverage] tests)
  o.dims = {{"N", 4}};
  const auto a = temp_dir("a"), b = temp_dir("b"), c = temp_dir("c");
  golden::write(m, a.string(), o);
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));  // a clock in the files (zip: 2 s steps) would differ
  golden::write(m, b.string(), o);
  const auto ca = contents(a);
  CHECK(ca.size() == 2 + 3 * (2 + 3 + 2));  // model.onnx, manifest.json; per case 2 inputs, 3 outputs, 2 npz
  CHECK(differing(ca, contents(b)) == std::vector<std::string>{});
  CHECK(ca.count("model.onnx"));
  CHECK(ca.count("test_data_set_2/output_2.pb"));
  CHECK(ca.count("test_data_set_0/inputs.npz"));
  // writing again over a golden folder replaces it: still identical
  golden::write(m, a.string(), o);
  CHECK(differing(contents(a), ca) == std::vector<std::string>{});
  o.seed = 43;
  golden::write(m, c.string(), o);
  CHECK(contents(c).at("test_data_set_0/input_0.pb") != ca.at("test_data_set_0/input_0.pb"));
  for (const auto& d : {a, b, c}) fs::remove_all(d);
}

TEST_CASE("[Check.golden] golden files hold the model bytes, named inputs and the reference outputs", "[golden]") {
  const auto m = three_ops().load();
  golden::Options o;
  o.dims = {{"N", 2}};
  const auto d = temp_dir("layout");
  golden::write(m, d.string(), o);
  std::ifstream in(d / "model.onnx", std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  CHECK(s.str() == m.serialized());
  const auto x = io::read_tensor_pb((d / "test_data_set_0" / "input_0.pb").string());
  CHECK(x.name == "X");
  CHECK(x.tensor.shape() == Shape{2, 3});
  const auto feeds = io::read_test_data_set((d / "test_data_set_0").string(), "input");
  const auto outs = io::read_test_data_set((d / "test_data_set_0").string(), "output");
  REQUIRE(outs.size() == 3);
  CHECK(outs[0].name == "R");
  const auto again = m.run(feeds);
  for (std::size_t k = 0; k < 3; ++k) CHECK(again[k].tensor.bitwise_equal(outs[k].tensor));
  // the .npz twins hold the same tensors
  const auto npz = io::read_npz((d / "test_data_set_0" / "outputs.npz").string());
  REQUIRE(npz.size() == 3);
  CHECK(npz[1].name == "H");
  CHECK(npz[1].tensor.bitwise_equal(outs[1].tensor));
  fs::remove_all(d);
}

TEST_CASE("[Check.golden] a symbolic dimension without --dim is a usage error, naming the input and the dim", "[golden]") {
  const auto m = three_ops().load();
  const auto d = temp_dir("nodim");
  const auto msg = refusal_message([&] { golden::write(m, d.string(), {}); });
  CHECK(msg.find("'X'") != std::string::npos);
  CHECK(msg.find("--dim N=SIZE") != std::string::npos);
  CHECK(failure_kind([&] { golden::write(m, d.string(), {}); }) == Failure::Usage);
  golden::Options o;
  o.dims = {{"N", 1}, {"K", 2}};  // K names no dimension
  CHECK(failure_kind([&] { golden::write(m, d.string(), o); }) == Failure::Usage);
  CHECK_FALSE(fs::exists(d));  // nothing written
  fs::remove_all(d);
}

TEST_CASE("[Check.golden] --inputs gives some inputs, the others are drawn", "[golden]") {
  const auto m = three_ops().load();
  const auto d = temp_dir("given");
  fs::create_directories(d);
  io::write_npz((d / "b.npz").string(), {{"B", f32({3}, {1, 2, 3})}});
  golden::Options o;
  o.dims = {{"N", 2}};
  o.inputs = (d / "b.npz").string();
  o.cases = 2;
  golden::write(m, (d / "out").string(), o);
  for (int c = 0; c < 2; ++c) {
    const auto b = io::read_tensor_pb((d / "out" / ("test_data_set_" + std::to_string(c)) / "input_1.pb").string());
    CHECK(b.name == "B");
    CHECK(values<float>(b.tensor) == std::vector<float>{1, 2, 3});
  }
  fs::remove_all(d);
}

TEST_CASE("[Check.golden] a folder that golden did not write is not written over", "[golden]") {
  const auto m = three_ops().load();
  const auto d = temp_dir("foreign");
  fs::create_directories(d);
  std::ofstream(d / "notes.txt") << "mine";
  golden::Options o;
  o.dims = {{"N", 2}};
  CHECK(refusal_id([&] { golden::write(m, d.string(), o); }) == "Check.golden");
  CHECK(fs::exists(d / "notes.txt"));
  fs::remove_all(d);
}

TEMPLATE_TEST_CASE("[Check.golden] drawn values reach NaNs (quiet and signalling), +-0, +-Inf, subnormals, ties",
                   "[golden]", float, double, float16, bfloat16) {
  using T = TestType;
  std::int64_t qnan = 0, snan = 0, pzero = 0, nzero = 0, pinf = 0, ninf = 0, sub = 0, ties = 0;
  for (std::uint64_t input = 0; input < 8; ++input) {
    golden::Stream s(7, 0, input);
    const Tensor t = golden::draw(dtype_of<T>(), {500}, s);
    const auto v = t.values<T>();
    for (std::size_t k = 0; k < v.size(); ++k) {
      std::uint64_t u = 0;
      std::memcpy(&u, &v[k], sizeof(T));
      const int w = 8 * sizeof(T);
      const int mbits = std::is_same_v<T, float> ? 23 : std::is_same_v<T, double> ? 52 : std::is_same_v<T, float16> ? 10 : 7;
      const std::uint64_t quiet = std::uint64_t{1} << (mbits - 1);
      const std::uint64_t exp_mask = ((std::uint64_t{1} << (w - 1 - mbits)) - 1) << mbits;
      if (is_nan(v[k])) ((u & quiet) ? qnan : snan)++;
      else if (u == 0) ++pzero;
      else if (u == std::uint64_t{1} << (w - 1)) ++nzero;
      else if (u == exp_mask) ++pinf;
      else if (u == (exp_mask | std::uint64_t{1} << (w - 1))) ++ninf;
      else if ((u & exp_mask) == 0) ++sub;
      if (k > 0 && std::memcmp(&v[k], &v[k - 1], sizeof(T)) == 0) ++ties;
    }
  }
  CHECK(qnan > 0);
  CHECK(snan > 0);
  CHECK(pzero > 0);
  CHECK(nzero > 0);
  CHECK(pinf > 0);
  CHECK(ninf > 0);
  CHECK(sub > 0);
  CHECK(ties > 0);
}

TEST_CASE("[Check.golden] the grid values k/2 are exact: 1.5 and -4 in every float type", "[golden]") {
  // Over many draws the grid category must produce 1.5 (k = 3) and -4 (k = -8), with the patterns
  // worked out by hand: float 0x3FC00000 / 0xC0800000, float16 0x3E00 / 0xC400, bfloat16 0x3FC0 / 0xC080.
  golden::Stream s(1, 0, 0);
  const Tensor f = golden::draw(DType::Float, {4000}, s);
  const auto fv = f.values<float>();
  CHECK(std::find(fv.begin(), fv.end(), 1.5f) != fv.end());
  CHECK(std::find(fv.begin(), fv.end(), -4.0f) != fv.end());
  golden::Stream s16(1, 0, 0);
  const Tensor h = golden::draw(DType::Float16, {4000}, s16);
  bool h15 = false, hm4 = false;
  for (auto x : h.values<float16>()) h15 = h15 || sonnx::bits(x) == 0x3E00, hm4 = hm4 || sonnx::bits(x) == 0xC400;
  CHECK(h15);
  CHECK(hm4);
  golden::Stream sb(1, 0, 0);
  const Tensor bf = golden::draw(DType::BFloat16, {4000}, sb);
  bool b15 = false, bm4 = false;
  for (auto x : bf.values<bfloat16>()) b15 = b15 || sonnx::bits(x) == 0x3FC0, bm4 = bm4 || sonnx::bits(x) == 0xC080;
  CHECK(b15);
  CHECK(bm4);
}

TEST_CASE("[Check.golden] the stream is splitmix64 as documented in golden.hpp", "[golden]") {
  // Independent restatement of the documented algorithm (golden.hpp), written out again here.
  auto mix = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  // splitmix64 from state 0: its published first output is 0xE220A8397B1DCDAF
  CHECK(mix(0x9E3779B97F4A7C15ull) == 0xE220A8397B1DCDAFull);
  std::uint64_t state = mix(mix(mix(5) + 2) + 1);
  golden::Stream s(5, 2, 1);
  for (int k = 0; k < 4; ++k) {
    state += 0x9E3779B97F4A7C15ull;
    CHECK(s.next() == mix(state));
  }
}

// The witness patterns of ops/definition.hpp, bit by bit, worked out by hand from the binary formats
// ([Common.dtype.float]: 1 = 0x3F800000, 5 = 0x40A00000; [Common.dtype.float16]: 1 = 0x3C00, 5 = 0x4500)
// and the integer types' ranges ([Common.dtype.set]).
TEST_CASE("[Check.golden-coverage] witness patterns: the values each writes into a set", "[golden]") {
  using ops::Pattern;
  using ops::pattern_bits;
  using B = std::vector<std::uint64_t>;
  CHECK(pattern_bits(Pattern::Plain, 3, DType::Float) == B{0x40A00000, 0x3F800000, 0x3F800000});
  CHECK(pattern_bits(Pattern::NanFirst, 1, DType::Float) == B{0x7FC00001});  // quiet, +, payload 1
  CHECK(pattern_bits(Pattern::TwoNans, 3, DType::Float) == B{0xFF800002, 0x7FC00001, 0x3F800000});
  CHECK(pattern_bits(Pattern::EqualMaxima, 2, DType::Float16) == B{0x4500, 0x4500});
  CHECK(pattern_bits(Pattern::EqualMaxima, 4, DType::Float16) == B{0x3C00, 0x4500, 0x4500, 0x3C00});
  CHECK(pattern_bits(Pattern::Infinity, 3, DType::BFloat16) == B{0x7F7F, 0x7F80, 0xFF80});
  CHECK(pattern_bits(Pattern::Subnormal, 2, DType::Double) == B{0, 1});
  // Integers and bool: 1, 0, ... for the formula; the extremes of signed and unsigned types.
  CHECK(pattern_bits(Pattern::Plain, 3, DType::Int32) == B{1, 0, 0});
  CHECK(pattern_bits(Pattern::Plain, 2, DType::Bool) == B{1, 0});
  CHECK(pattern_bits(Pattern::Extremes, 3, DType::Int8) == B{0x80, 0x7F, 0});
  CHECK(pattern_bits(Pattern::Extremes, 2, DType::Int64) == B{std::uint64_t{1} << 63, (std::uint64_t{1} << 63) - 1});
  CHECK(pattern_bits(Pattern::Extremes, 2, DType::Uint16) == B{0, 0xFFFF});
  CHECK(pattern_bits(Pattern::Extremes, 2, DType::Uint64) == B{0, ~std::uint64_t{0}});
  // No pattern: none asked, too few elements, a float pattern for an integer type, and back.
  CHECK_FALSE(pattern_bits(Pattern::None, 3, DType::Float));
  CHECK_FALSE(pattern_bits(Pattern::Plain, 0, DType::Float));
  CHECK_FALSE(pattern_bits(Pattern::NanAfterNumber, 1, DType::Float));
  CHECK_FALSE(pattern_bits(Pattern::NanFirst, 2, DType::Int32));
  CHECK_FALSE(pattern_bits(Pattern::Extremes, 2, DType::Bool));
  CHECK_FALSE(pattern_bits(Pattern::Extremes, 2, DType::Float));
}

TEST_CASE("[Check.golden-coverage] witness patterns have distinct names, for the situations golden could not build", "[golden]") {
  using ops::Pattern;
  std::set<std::string> names;
  for (const Pattern p : {Pattern::None, Pattern::Plain, Pattern::NanFirst, Pattern::NanAfterNumber, Pattern::TwoNans,
                          Pattern::NegativeZeroFirst, Pattern::PositiveZeroFirst, Pattern::EqualMaxima, Pattern::Subnormal,
                          Pattern::Infinity, Pattern::Extremes})
    names.insert(ops::pattern_name(p));
  CHECK(names.size() == 11);
  CHECK(ops::pattern_name(Pattern::EqualMaxima) == "two equal maxima");
  CHECK(ops::pattern_name(Pattern::NegativeZeroFirst) == "-0 then +0");
}

TEST_CASE("[Check.golden] inputs golden cannot draw are usage errors naming them: no shape, an anonymous dim, a ReduceMax axes input",
          "[golden]") {
  const auto d = temp_dir("undrawable");
  {  // X declares no shape
    ModelBuilder b(13);
    b.input("X", F, std::nullopt).output("Y", F, std::nullopt);
    b.node("Max", {"X"}, {"Y"});
    const auto m = b.load();
    CHECK(failure_kind([&] { golden::write(m, d.string(), {}); }) == Failure::Usage);
    CHECK(refusal_message([&] { golden::write(m, d.string(), {}); }).find("input 'X' declares no shape") != std::string::npos);
  }
  {  // X's dimension 1 has neither dim_value nor dim_param
    ModelBuilder b(13);
    b.input("X", F, Dims{{2, 3}}).output("Y", F, std::nullopt);
    b.g().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->clear_dim_value();
    b.node("Max", {"X"}, {"Y"});
    const auto m = b.load();
    CHECK(refusal_message([&] { golden::write(m, d.string(), {}); }).find("input 'X' dimension 1 has neither a size nor a name") !=
          std::string::npos);
  }
  {  // ReduceMax-18's axes is a graph input: drawn at random it would be refused, so it must be given
    ModelBuilder b(18);
    b.input("X", F, Dims{{2, 3}}).input("A", onnx::TensorProto::INT64, Dims{{1}}).output("R", F, std::nullopt);
    b.node("ReduceMax", {"X", "A"}, {"R"}, "reduce");
    const auto m = b.load();
    const auto msg = refusal_message([&] { golden::write(m, d.string(), {}); });
    CHECK(msg.find("input 'A' is the axes of ReduceMax node 'reduce'") != std::string::npos);
    CHECK(failure_kind([&] { golden::write(m, d.string(), {}); }) == Failure::Usage);
    // Given, it is used as given and X is drawn: R = ReduceMax over axis 1.
    fs::create_directories(d);
    io::write_npz((d / "a.npz").string(), {{"A", make_tensor<std::int64_t>({1}, {1})}});
    golden::Options o;
    o.inputs = (d / "a.npz").string();
    golden::write(m, (d / "out").string(), o);
    const auto r = io::read_tensor_pb((d / "out" / "test_data_set_0" / "output_0.pb").string());
    CHECK(r.tensor.shape() == Shape{2, 1});
  }
  {  // ReduceMax-18 with an empty axes name has no axes input: nothing to give
    ModelBuilder b(18);
    b.input("X", F, Dims{{2, 3}}).output("R", F, std::nullopt);
    b.node("ReduceMax", {"X", ""}, {"R"});
    golden::write(b.load(), (d / "noaxes").string(), {});
    const auto r = io::read_tensor_pb((d / "noaxes" / "test_data_set_0" / "output_0.pb").string());
    CHECK(r.tensor.shape() == Shape{1, 1});  // [ReduceMax.axes.default] every axis, keepdims 1
  }
  fs::remove_all(d);
}

TEST_CASE("[Check.golden] --dim sizes a symbolic dimension shared by several inputs", "[golden]") {
  ModelBuilder b(13);
  b.input("A", F, Dims{{-1}}).input("B", F, Dims{{-1}}).output("Y", F, std::nullopt);
  b.node("Max", {"A", "B"}, {"Y"});
  const auto m = b.load();
  golden::Options o;
  o.dims = {{"N", 4}};
  const auto shapes = golden::input_shapes(m, o.dims, {});
  CHECK(shapes == std::vector<Shape>{{4}, {4}});
  CHECK(failure_kind([&] { golden::input_shapes(m, {{"N", -1}}, {}); }) == Failure::Usage);  // a size is >= 0
}

TEST_CASE("[Check.golden] a previous golden folder is replaced, anything else in DIR is refused, entry by entry", "[golden]") {
  ModelBuilder b(13);
  b.input("X", F, Dims{{2}}).output("Y", F, Dims{{2}});
  b.node("Max", {"X"}, {"Y"});
  const auto m = b.load();
  // What golden writes: model.onnx, manifest.json, test_data_set_N/{input_K.pb, output_K.pb, inputs.npz, outputs.npz}.
  const auto make = [](const fs::path& d, const std::vector<std::string>& files, const std::vector<std::string>& folders) {
    fs::remove_all(d);
    fs::create_directories(d / "test_data_set_0");
    for (const auto& f : files) std::ofstream(d / f) << "x";
    for (const auto& f : folders) fs::create_directories(d / f);
  };
  const auto d = temp_dir("replace");
  make(d, {"model.onnx", "manifest.json", "test_data_set_0/input_0.pb", "test_data_set_0/output_12.pb",
           "test_data_set_0/inputs.npz", "test_data_set_0/outputs.npz"}, {});
  golden::write(m, d.string(), {});  // replaced
  CHECK(fs::exists(d / "test_data_set_0" / "input_0.pb"));
  CHECK_FALSE(fs::exists(d / "test_data_set_0" / "output_12.pb"));
  for (const auto& [files, folders] : std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>{
           {{"test_data_set_0/input_.pb"}, {}},           // no number
           {{"test_data_set_0/input_0a.pb"}, {}},         // not digits
           {{"test_data_set_0/input_+1.pb"}, {}},         // not digits either ('+' is below '0')
           {{"test_data_set_0/input_0.pbx"}, {}},         // not .pb
           {{"test_data_set_0/model_0.pb"}, {}},          // not input_ or output_
           {{"test_data_set_0/inputs.npy"}, {}},          // not inputs.npz
           {{"test_data_set_1"}, {}},                     // a file where a case folder goes
           {{}, {"model.onnx"}},                          // a folder where model.onnx goes
           {{}, {"test_data_set_0/input_0.pb"}},          // a folder where an input goes
           {{}, {"results"}}}) {                          // a folder golden does not write
    CAPTURE(files, folders);
    make(d, files, folders);
    CHECK(refusal_id([&] { golden::write(m, d.string(), {}); }) == "Check.golden");
  }
  fs::remove_all(d);
}

TEST_CASE("[Check.golden-coverage] a one-element output gets every witness, one case each", "[golden]") {
  // Y = Max-13(X [1], B [1]): the only output element takes each float situation in turn.
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).input("B", F, Dims{{1}}).output("Y", F, Dims{{1}});
  b.node("Max", {"X", "B"}, {"Y"});
  const auto d = temp_dir("one");
  const auto w = golden::write(b.load(), d.string(), {});
  CHECK(w.not_built == 0);
  CHECK(w.exercised == w.reachable);
  // The float situations of [Max.float.formula], [Max.float.nan], [Max.float.zero] and
  // [Common.order.nan-payload] (no broadcasting: [1] and [1]): 8, all at Y[0].
  CHECK(w.reachable == 8);
  CHECK(w.constructed >= 1);
  fs::remove_all(d);
}

TEST_CASE("[Check.golden-coverage] a witness is traced back through at most 65 upstream nodes, and what cannot be built is listed with why",
          "[golden]") {
  // Two chains of single-input Max-13 nodes, A of 65 and B of 66: VA(k+1) = Max(VAk), VA0 = XA [2],
  // and likewise B; then FA = Max-13(VA65, ZA), FB = Max-13(VB66, ZB). A witness of FA's "-0 before +0"
  // writes -0 into XA through the 65 nodes of chain A, and +0 into ZA; FB's would need 66, one past
  // the limit of Builder::realize (depth 64 counted from 0), so it cannot be built, and says why.
  ModelBuilder b(13);
  b.input("XA", F, Dims{{2}}).input("ZA", F, Dims{{2}}).input("XB", F, Dims{{2}}).input("ZB", F, Dims{{2}});
  b.output("FA", F, Dims{{2}}).output("FB", F, Dims{{2}});
  for (const auto& [chain, length] : {std::pair<std::string, int>{"A", 65}, {"B", 66}}) {
    for (int k = 0; k < length; ++k)
      b.node("Max", {"V" + chain + std::to_string(k)}, {"V" + chain + std::to_string(k + 1)});
    b.g().mutable_node(b.g().node_size() - length)->set_input(0, "X" + chain);
    b.node("Max", {"V" + chain + std::to_string(length), "Z" + chain}, {"F" + chain}, "f" + chain);
  }
  const auto d = temp_dir("deep");
  const auto w = golden::write(b.load(), d.string(), {});  // seed 0: the drawn case holds no signed-zero tie
  std::ifstream in(d / "manifest.json");
  const auto manifest = nlohmann::json::parse(in);
  std::map<std::string, std::string> status, why;
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == "Max.float.zero" && c["situation"] == "-0 before +0") {
      status[c["node"]] = c["status"];
      why[c["node"]] = c.value("why", "");
    }
  CHECK(status["node 'fA' (Max-13)"] == "exercised");
  CHECK(status["node 'fB' (Max-13)"] == "not built");
  CHECK(why["node 'fB' (Max-13)"] ==
        "no output element could be given its witness (-0 then +0): the values it needs do not reach the node's set");
  CHECK(w.not_built > 0);
  fs::remove_all(d);
}

TEST_CASE("[Graph.initializer] [Check.golden] an initializer declared as a graph input is drawn, or kept as given with --inputs",
          "[golden]") {
  // Y = Max-13(X [3], V), V an initializer [4, 5, 6] that is also a graph input.
  ModelBuilder b(13);
  b.input("X", F, Dims{{3}}).input("V", F, Dims{{3}}).output("Y", F, Dims{{3}});
  b.initializer(tp_f32("V", {3}, {4, 5, 6}));
  b.node("Max", {"X", "V"}, {"Y"});
  const auto m = b.load();
  const auto d = temp_dir("override");
  fs::create_directories(d);
  io::write_npz((d / "v.npz").string(), {{"V", f32({3}, {-1, -2, -3})}});
  golden::Options o;
  o.inputs = (d / "v.npz").string();
  o.construct = false;
  golden::write(m, (d / "out").string(), o);
  const auto given = io::read_tensor_pb((d / "out" / "test_data_set_0" / "input_1.pb").string());
  CHECK(given.name == "V");
  CHECK(values<float>(given.tensor) == std::vector<float>{-1, -2, -3});
  fs::remove_all(d);
}

}  // namespace golden_test
