// [Check.golden] golden folders: byte-identical for the same seed, in ONNX's node-test layout, with
// inputs drawn towards the values the spec decides.
#include <chrono>
#include <cstring>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/order.hpp"
#include "graph_util.hpp"
#include "oracle/golden.hpp"

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
