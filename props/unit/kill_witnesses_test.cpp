// [Check.golden-coverage] for the operators of the min order and the new max-order operators: a
// golden set of a one-node model builds a witness for every situation the node can reach, and each
// witness is decided by the situation it was built for. The situations a node can reach, and how
// many, are read from the operator documents by hand (listed in each test). Written to kill the
// mutants of props/mutation/catalogue.json that change which situation a set is decided by, the
// values a witness writes for the min order (its dual), or the definition `explain` and `check`
// apply (which golden asks for every witness, and which must agree with the evaluated output).
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/golden.hpp"

namespace kill_witnesses_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int I32 = onnx::TensorProto::INT32;

// The status of (clause, situation) in a golden manifest's coverage list ("" if absent).
std::string status(const nlohmann::json& manifest, const std::string& clause, const std::string& situation) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation) return c["status"];
  return "";
}

// The (clause, situation) pairs of a manifest with status `s`, for a readable failure.
std::set<std::string> with_status(const nlohmann::json& manifest, const std::string& s) {
  std::set<std::string> out;
  for (const auto& c : manifest["coverage"])
    if (c["status"] == s) out.insert(std::string(c["clause"]) + " / " + std::string(c["situation"]));
  return out;
}

// Writes the golden set of `b` (seed 0, one drawn case, then the constructed ones) and checks that
// every reachable situation was exercised (and that there are `reachable` of them, unless it is
// negative); returns what golden wrote.
golden::Written all_built(const ModelBuilder& b, const std::string& name, std::int64_t reachable) {
  const fs::path d = fresh_path("sonnx-kill-witnesses", name);
  const auto w = golden::write(b.load(), d.string(), {});
  fs::remove_all(d);
  CHECK(with_status(w.manifest, "not built") == std::set<std::string>{});
  CHECK(w.not_built == 0);
  CHECK(w.exercised == w.reachable);
  if (reachable >= 0) CHECK(w.reachable == reachable);
  return w;
}

}  // namespace

TEST_CASE("[Check.golden-coverage] [Min.float.formula] [Min.float.nan] [Min.float.zero] [Common.order.min] Min-13 float of "
          "one element: every situation of the min order is built, the two ties of zeros included",
          "[kill][golden]") {
  // Y = Min-13(X [1], B [1]): the set {X[0], B[0]} of the only output element. The situations of
  // min.md's float clauses with two elements, no broadcasting: the formula, a subnormal least, an
  // infinity, a NaN, a NaN after a number, two NaNs with different bits, -0 before +0, +0 before -0.
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).input("B", F, Dims{{1}}).output("Y", F, Dims{{1}});
  b.node("Min", {"X", "B"}, {"Y"});
  const auto w = all_built(b, "min", 8);
  CHECK(status(w.manifest, "Min.float.formula", "a subnormal least") == "exercised");
  CHECK(status(w.manifest, "Min.float.zero", "-0 before +0") == "exercised");
  CHECK(status(w.manifest, "Min.float.zero", "+0 before -0") == "exercised");
  CHECK(status(w.manifest, "Common.order.nan-payload", "two NaNs with different bits") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [Min.int.formula] [Common.order.min] Min-13 int32: the formula and the type's extremes "
          "-2^31 and 2^31 - 1 are built",
          "[kill][golden]") {
  // The min order's witness of "the type's extremes" holds both -2^31 and 2^31 - 1 (its dual, the
  // complement of every bit, exchanges them).
  ModelBuilder b(13);
  b.input("X", I32, Dims{{1}}).input("B", I32, Dims{{1}}).output("Y", I32, Dims{{1}});
  b.node("Min", {"X", "B"}, {"Y"});
  const auto w = all_built(b, "min-int", 2);
  CHECK(status(w.manifest, "Min.int.formula", "the type's extremes") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [ReduceMin.float.formula] [ReduceMin.float.nan] [ReduceMin.float.zero] ReduceMin-13 "
          "float over sets of three: every situation of the min order is built",
          "[kill][golden]") {
  // R = ReduceMin-13(X [1, 3], axes [1], keepdims 0): one R(j) of three elements. Axes are given,
  // none negative, no reduced dimension is 0: only the eight situations of the fold are reachable.
  ModelBuilder b(13);
  b.input("X", F, Dims{{1, 3}}).output("R", F, Dims{{1}});
  auto& n = b.node("ReduceMin", {"X"}, {"R"});
  attr_ints(n, "axes", {1});
  attr_int(n, "keepdims", 0);
  const auto w = all_built(b, "reducemin", 8);
  CHECK(status(w.manifest, "ReduceMin.float.formula", "a subnormal least") == "exercised");
  CHECK(status(w.manifest, "ReduceMin.float.zero", "-0 before +0") == "exercised");
  CHECK(status(w.manifest, "ReduceMin.float.zero", "+0 before -0") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [ArgMin.float.formula] [ArgMin.float.zero] [ArgMin.last-index] ArgMin-13 float, first "
          "and last positions: every situation is built",
          "[kill][golden]") {
  // P = ArgMin-13(X [1, 3], axis 1): one slice of three elements. The eight situations of argmin.md:
  // the least, equal minima, a subnormal least, a NaN, a NaN after a number, two NaNs, and the two
  // ties of zeros; with select_last_index = 1 the ties and the two NaNs are [ArgMin.last-index]'s.
  for (const std::int64_t last : {0, 1}) {
    ModelBuilder b(13);
    b.input("X", F, Dims{{1, 3}}).output("P", onnx::TensorProto::INT64, Dims{{1, 1}});
    auto& n = b.node("ArgMin", {"X"}, {"P"});
    attr_int(n, "axis", 1);
    attr_int(n, "select_last_index", last);
    const auto w = all_built(b, last ? "argmin-last" : "argmin", 8);
    CHECK(status(w.manifest, "ArgMin.float.zero", "-0 before +0") == "exercised");
    CHECK(status(w.manifest, "ArgMin.float.zero", "+0 before -0") == "exercised");
    CHECK(status(w.manifest, last ? "ArgMin.last-index" : "ArgMin.float.formula", "equal minima") == "exercised");
  }
}

TEST_CASE("[Check.golden-coverage] [ArgMax.float.formula] [ArgMax.float.zero] [ArgMax.last-index] ArgMax-13 float, first "
          "and last positions: every situation is built",
          "[kill][golden]") {
  for (const std::int64_t last : {0, 1}) {
    ModelBuilder b(13);
    b.input("X", F, Dims{{1, 3}}).output("P", onnx::TensorProto::INT64, Dims{{1, 1}});
    auto& n = b.node("ArgMax", {"X"}, {"P"});
    attr_int(n, "axis", 1);
    attr_int(n, "select_last_index", last);
    const auto w = all_built(b, last ? "argmax-last" : "argmax", 8);
    CHECK(status(w.manifest, "ArgMax.float.zero", "-0 before +0") == "exercised");
    CHECK(status(w.manifest, last ? "ArgMax.last-index" : "ArgMax.float.formula", "equal maxima") == "exercised");
  }
}

TEST_CASE("[Check.golden-coverage] [Relu.float.zero] [Relu.float.nan] [Relu.float.formula] Relu-14 float: the inputs -0 "
          "and +0 are two situations, both built",
          "[kill][golden]") {
  // relu.md's float situations of the set {X[i]}: a positive value, a negative value, a positive
  // and a negative subnormal, +Inf, -Inf, -0, +0, a NaN, a signalling NaN with its sign set.
  ModelBuilder b(14);
  b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
  b.node("Relu", {"X"}, {"Y"});
  const auto w = all_built(b, "relu", 10);
  CHECK(status(w.manifest, "Relu.float.zero", "-0") == "exercised");
  CHECK(status(w.manifest, "Relu.float.zero", "+0") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [Clip.float.zero] [Clip.float.nan] [Clip.bounds.crossed] Clip-13 float with both bound "
          "inputs drawn: every situation is built, +0 against an upper bound -0 included",
          "[kill][golden]") {
  // clip.md's float situations of (X[i], lo, hi) with both bounds given (so no default bound): X
  // within, below, above; crossed bounds; a NaN in X, in lo, in hi; -0 against lo = +0; +0 against
  // hi = -0; a subnormal kept.
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).input("lo", F, Dims{std::vector<std::int64_t>{}}).input("hi", F, Dims{std::vector<std::int64_t>{}}).output("Y", F, Dims{{1}});
  b.node("Clip", {"X", "lo", "hi"}, {"Y"});
  const auto w = all_built(b, "clip", 10);
  CHECK(status(w.manifest, "Clip.float.zero", "+0 against an upper bound -0") == "exercised");
  CHECK(status(w.manifest, "Clip.float.zero", "-0 against a lower bound +0") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [GlobalMaxPool.float.formula] [GlobalMaxPool.float.zero] GlobalMaxPool-1 float over "
          "spatial sets of three: every situation is built",
          "[kill][golden]") {
  // Y = GlobalMaxPool-1(X [1, 1, 3]): one spatial set of three elements; its fold's eight situations.
  ModelBuilder b(1);
  b.input("X", F, Dims{{1, 1, 3}}).output("Y", F, Dims{{1, 1, 1}});
  b.node("GlobalMaxPool", {"X"}, {"Y"});
  const auto w = all_built(b, "globalmaxpool", 8);
  CHECK(status(w.manifest, "GlobalMaxPool.float.zero", "-0 before +0") == "exercised");
}

TEST_CASE("[Check.golden-coverage] [MaxPool.window] [MaxPool.window.padding] [MaxPool.indices] MaxPool-12 float with "
          "Indices and a begin pad: every situation of Y and of Indices is built",
          "[kill][golden]") {
  // (Y, I) = MaxPool-12(X [1, 1, 4]), kernel [2], pads [1, 0]: windows {0}, {0, 1}, {1, 2}, {2, 3}.
  // Every witness is planted into the members of one window and decided by `decide`, which must
  // agree with the evaluated Y and I.
  ModelBuilder b(12);
  b.input("X", F, Dims{{1, 1, 4}}).output("Y", F, Dims{{1, 1, 4}}).output("I", onnx::TensorProto::INT64, Dims{{1, 1, 4}});
  auto& n = b.node("MaxPool", {"X"}, {"Y", "I"});
  attr_ints(n, "kernel_shape", {2});
  attr_ints(n, "pads", {1, 0});
  const auto w = all_built(b, "maxpool", -1);
  CHECK(status(w.manifest, "MaxPool.window.padding", "a window partly in the padding") == "exercised");
  CHECK(status(w.manifest, "MaxPool.indices", "equal maxima: the first member's index") == "exercised");
  CHECK(status(w.manifest, "MaxPool.float.zero", "-0 before +0") == "exercised");
}

}  // namespace kill_witnesses_test
