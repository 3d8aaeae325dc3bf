// [Check.golden-coverage] for Clip and MaxPool on the types, bound layouts and paddings the other
// golden tests leave out: integer types, float16 and bfloat16, bounds fixed by the model, a bound
// absent, a pad only at the end, an unsigned type. Each golden set of a one-node model must build a
// witness for every situation the node can reach and say why the others are unreachable; which ones
// are reachable is read from spec/ops/clip.md and spec/ops/maxpool.md by hand (listed in each test).
// Written for the coverage record (tools/coverage): these are the paths of reach_clip, decide_clip
// and reach_maxpool that no other test took.
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "graph_util.hpp"
#include "oracle/golden.hpp"
#include "ops/definition.hpp"

namespace witnesses_types_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

constexpr int F = onnx::TensorProto::FLOAT;
constexpr int F16 = onnx::TensorProto::FLOAT16;
constexpr int BF16 = onnx::TensorProto::BFLOAT16;
constexpr int I8 = onnx::TensorProto::INT8;
constexpr int U8 = onnx::TensorProto::UINT8;
constexpr int I32 = onnx::TensorProto::INT32;
const Dims kScalar = Dims{std::vector<std::int64_t>{}};

// The status of (clause, situation) in a golden manifest's coverage list ("" if absent).
std::string status(const nlohmann::json& manifest, const std::string& clause, const std::string& situation) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation) return c["status"];
  return "";
}

// Why (clause, situation) is unreachable ("" if it is not listed so).
std::string why(const nlohmann::json& manifest, const std::string& clause, const std::string& situation) {
  for (const auto& c : manifest["coverage"])
    if (c["clause"] == clause && c["situation"] == situation && c["status"] == "unreachable") return c.value("why", "");
  return "";
}

// The (clause / situation) pairs of a manifest with status `s`.
std::set<std::string> with_status(const nlohmann::json& manifest, const std::string& s) {
  std::set<std::string> out;
  for (const auto& c : manifest["coverage"])
    if (c["status"] == s) out.insert(std::string(c["clause"]) + " / " + std::string(c["situation"]));
  return out;
}

// The golden set of `b` (seed 0): every reachable situation must be exercised, and the exercised
// ones are exactly `exercised` (clause / situation).
golden::Written all_built(const ModelBuilder& b, const std::string& name, const std::set<std::string>& exercised) {
  const fs::path d = fresh_path("sonnx-witnesses-types", name);
  const auto w = golden::write(b.load(), d.string(), {});
  fs::remove_all(d);
  CHECK(with_status(w.manifest, "not built") == std::set<std::string>{});
  CHECK(w.exercised == w.reachable);
  CHECK(with_status(w.manifest, "exercised") == exercised);
  return w;
}

onnx::TensorProto tp_i32(const std::string& name, std::int32_t v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(I32);
  t.add_int32_data(v);
  return t;
}

}  // namespace

TEST_CASE("[Check.golden-coverage] [Clip.int.formula] [Clip.bounds.crossed] [Clip.bounds.inputs] [Clip.v12] Clip-12 int32 "
          "with both bounds drawn — within, below, above, crossed and the type's extremes are built, no float situation",
          "[golden][clip]") {
  // clip.md's integer situations: Y = X between the bounds, lo below, hi above, crossed bounds (lo > hi
  // gives hi), and X at the type's extremes -2^31 / 2^31 - 1; both bounds are given, so no value is a
  // default bound. NaN, signed zeros and subnormals are float situations: not listed for int32.
  ModelBuilder b(12);
  b.input("X", I32, Dims{{1}}).input("lo", I32, kScalar).input("hi", I32, kScalar).output("Y", I32, Dims{{1}});
  b.node("Clip", {"X", "lo", "hi"}, {"Y"});
  const auto w = all_built(b, "clip-int32",
                           {"Clip.int.formula / ", "Clip.int.formula / below the lower bound",
                            "Clip.int.formula / above the upper bound", "Clip.bounds.crossed / ",
                            "Clip.int.formula / the type's extremes"});
  CHECK(status(w.manifest, "Clip.bounds.default", "the value is a default bound") == "unreachable");
  CHECK(status(w.manifest, "Clip.float.nan", "X is a NaN") == "");
  CHECK(status(w.manifest, "Clip.float.formula", "a subnormal kept") == "");
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.default] [Clip.float.nan] [Clip.v13] Clip-13 float16 and bfloat16 without "
          "bounds — the defaults are the finite extremes, so +-Inf are clipped to them and crossed bounds cannot be built",
          "[golden][clip]") {
  // No bound input: lo = the least finite value, hi = the greatest ([Clip.bounds.default]). X = -Inf
  // is below lo and +Inf above hi, each giving a default bound; X = lo itself is within; a subnormal
  // is kept; a NaN X is kept. Crossed bounds, a NaN bound and the zero ties need a bound the model
  // does not let the witness write: unreachable.
  for (const int t : {F16, BF16}) {
    ModelBuilder b(13);
    b.input("X", t, Dims{{1}}).output("Y", t, Dims{{1}});
    b.node("Clip", {"X"}, {"Y"});
    const auto w = all_built(b, t == F16 ? "clip-f16" : "clip-bf16",
                             {"Clip.float.formula / ", "Clip.float.formula / below the lower bound",
                              "Clip.float.formula / above the upper bound", "Clip.float.nan / X is a NaN",
                              "Clip.bounds.default / the value is a default bound", "Clip.float.formula / a subnormal kept"});
    CHECK(status(w.manifest, "Clip.bounds.crossed", "") == "unreachable");
    CHECK(status(w.manifest, "Clip.float.nan", "the lower bound is a NaN") == "unreachable");
    CHECK(status(w.manifest, "Clip.float.zero", "-0 against a lower bound +0") == "unreachable");
  }
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.inputs] [Clip.bounds.default] Clip-13 float with the lower bound an "
          "initializer and no upper bound — only what X alone can make is built",
          "[golden][clip]") {
  // lo = 0.5 is fixed by the model (an initializer), hi is absent (the greatest finite float). X = 0.5
  // (= lo) is within, -Inf below lo, +Inf above hi (a default bound), a NaN X kept. The lower bound
  // cannot be a NaN, nor +0 against -0, nor above hi: those are unreachable, and no subnormal is kept
  // (every subnormal is below lo = 0.5).
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
  b.initializer(tp_f32("lo", {}, {0.5f}));
  b.node("Clip", {"X", "lo"}, {"Y"});
  const auto w = all_built(b, "clip-fixed-lo",
                           {"Clip.float.formula / ", "Clip.float.formula / below the lower bound",
                            "Clip.float.formula / above the upper bound", "Clip.float.nan / X is a NaN",
                            "Clip.bounds.default / the value is a default bound"});
  CHECK(why(w.manifest, "Clip.bounds.crossed", "").find("the bounds are fixed by the model or the given inputs") == 0);
  CHECK(status(w.manifest, "Clip.float.nan", "the lower bound is a NaN") == "unreachable");
  CHECK(status(w.manifest, "Clip.float.formula", "a subnormal kept") == "unreachable");
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.inputs] [Clip.bounds.crossed] Clip-13 float with the lower bound drawn "
          "and the upper bound fixed — the lower bound's witnesses are built, the upper bound's are not",
          "[golden][clip]") {
  // lo is a graph input (drawn), hi = 2 an initializer. With lo = 1 the witness X = 2 is within [1, 2];
  // lo = 3 above hi = 2 crosses the bounds; a NaN lo is the first NaN when X is a number; -0 against
  // lo = +0. hi cannot be a NaN or -0: unreachable. Both bounds are present: no default.
  ModelBuilder b(13);
  b.input("X", F, Dims{{1}}).input("lo", F, kScalar).output("Y", F, Dims{{1}});
  b.initializer(tp_f32("hi", {}, {2.0f}));
  b.node("Clip", {"X", "lo", "hi"}, {"Y"});
  const auto w = all_built(b, "clip-fixed-hi",
                           {"Clip.float.formula / ", "Clip.float.formula / below the lower bound",
                            "Clip.float.formula / above the upper bound", "Clip.bounds.crossed / ",
                            "Clip.float.nan / X is a NaN", "Clip.float.nan / the lower bound is a NaN",
                            "Clip.float.zero / -0 against a lower bound +0", "Clip.float.formula / a subnormal kept"});
  CHECK(status(w.manifest, "Clip.float.nan", "the upper bound is a NaN") == "unreachable");
  CHECK(status(w.manifest, "Clip.float.zero", "+0 against an upper bound -0") == "unreachable");
  CHECK(why(w.manifest, "Clip.bounds.default", "the value is a default bound") ==
        "both bounds are given: neither takes its default");
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.inputs] [Clip.int.formula] Clip-13 int32 with no lower bound (\"\") and "
          "a drawn upper bound — the set is {X[i], hi}, hi its second member",
          "[golden][clip]") {
  // Inputs X, "" and hi: the set of Y[i] is (X[i], hi) — the empty name takes no member. lo is the
  // default -2^31: X = -2^31 is within and at the type's extremes; X = 2^31 - 1 is above hi = 3;
  // below lo cannot be built (nothing is below -2^31), nor crossed bounds (lo cannot be written).
  ModelBuilder b(13);
  b.input("X", I32, Dims{{1}}).input("hi", I32, kScalar).output("Y", I32, Dims{{1}});
  b.node("Clip", {"X", "", "hi"}, {"Y"});
  const auto w = all_built(b, "clip-no-lo",
                           {"Clip.int.formula / ", "Clip.int.formula / above the upper bound",
                            "Clip.int.formula / the type's extremes"});
  CHECK(status(w.manifest, "Clip.int.formula", "below the lower bound") == "unreachable");
  CHECK(status(w.manifest, "Clip.bounds.crossed", "") == "unreachable");
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.attributes] [Clip.int.formula] [Clip.v12] Clip-12 int32 with a bound "
          "initializer of X's type — fixed bounds, no witness writes them",
          "[golden][clip]") {
  // lo = -5 and hi = 5 are initializers: X = -5 is within, X = -2^31 below lo (and the type's
  // extremes), X = 2^31 - 1 above hi. Crossed bounds cannot be built.
  ModelBuilder b(12);
  b.input("X", I32, Dims{{1}}).output("Y", I32, Dims{{1}});
  b.initializer(tp_i32("lo", -5)).initializer(tp_i32("hi", 5));
  b.node("Clip", {"X", "lo", "hi"}, {"Y"});
  const auto w = all_built(b, "clip-int-fixed",
                           {"Clip.int.formula / ", "Clip.int.formula / below the lower bound",
                            "Clip.int.formula / above the upper bound", "Clip.int.formula / the type's extremes"});
  CHECK(status(w.manifest, "Clip.bounds.crossed", "") == "unreachable");
}

TEST_CASE("[Check.golden-coverage] [MaxPool.window.padding] [MaxPool.int.formula] [MaxPool.v12] MaxPool-12 int8 with a "
          "pad at the end only — a window partly in the padding, every member negative, is built",
          "[golden][maxpool]") {
  // Y = MaxPool-12(X [1, 1, 4] int8), kernel [2], pads [0, 1]: windows {0, 1}, {1, 2}, {2, 3}, {3}.
  // Only the end is padded, the last window holding one position of X and one of the padding; int8
  // has negatives, so "every member negative" is reachable ([MaxPool.window.padding]: the padding is
  // never a value, the maximum is the negative member). No ceil_mode window.
  ModelBuilder b(12);
  b.input("X", I8, Dims{{1, 1, 4}}).output("Y", I8, Dims{{1, 1, 4}});
  auto& n = b.node("MaxPool", {"X"}, {"Y"});
  attr_ints(n, "kernel_shape", {2});
  attr_ints(n, "pads", {0, 1});
  const auto w = all_built(b, "maxpool-int8",
                           {"MaxPool.int.formula / ", "MaxPool.int.formula / the type's extremes",
                            "MaxPool.window.padding / a window partly in the padding",
                            "MaxPool.window.padding / a window partly in the padding, every member negative"});
  CHECK(status(w.manifest, "MaxPool.shape.ceil", "the extra window of ceil_mode") == "unreachable");
}

TEST_CASE("[Check.golden-coverage] [MaxPool.window.padding] [MaxPool.int.formula] MaxPool-12 uint8 padded — no window can "
          "hold only negative members, said so",
          "[golden][maxpool]") {
  // uint8 has no negative value: "every member negative" is unreachable for that reason, while a
  // window partly in the padding is built as for int8.
  ModelBuilder b(12);
  b.input("X", U8, Dims{{1, 1, 4}}).output("Y", U8, Dims{{1, 1, 4}});
  auto& n = b.node("MaxPool", {"X"}, {"Y"});
  attr_ints(n, "kernel_shape", {2});
  attr_ints(n, "pads", {0, 1});
  const auto w = all_built(b, "maxpool-uint8",
                           {"MaxPool.int.formula / ", "MaxPool.int.formula / the type's extremes",
                            "MaxPool.window.padding / a window partly in the padding"});
  CHECK(why(w.manifest, "MaxPool.window.padding", "a window partly in the padding, every member negative") ==
        "the type has no negative value");
}

TEST_CASE("[Check.golden-coverage] [MaxPool.indices] [MaxPool.int.formula] MaxPool-12 int8 with Indices, windows of 2 and "
          "of 3 — equal maxima give the first member's index",
          "[golden][maxpool]") {
  // (Y, I) = MaxPool-12(X [1, 1, 3] int8), kernel k, no pads: equal maxima in a window of k members,
  // [MaxPool.indices] the first one's index. Reachable: the formula, the type's extremes, and the ties
  // of Indices; no padding, no ceil_mode window.
  for (const std::int64_t k : {2, 3}) {
    ModelBuilder b(12);
    const std::int64_t out = 3 - k + 1;
    b.input("X", I8, Dims{{1, 1, 3}}).output("Y", I8, Dims{{1, 1, out}}).output("I", onnx::TensorProto::INT64, Dims{{1, 1, out}});
    attr_ints(b.node("MaxPool", {"X"}, {"Y", "I"}), "kernel_shape", {k});
    all_built(b, k == 2 ? "maxpool-int8-ties-2" : "maxpool-int8-ties-3",
              {"MaxPool.int.formula / ", "MaxPool.int.formula / the type's extremes",
               "MaxPool.indices / equal maxima: the first member's index"});
  }
}

TEST_CASE("[Check.golden-coverage] [ReduceMax.v18] [Common.gr.defaults] ReduceMax-18 without its axes input — nothing to "
          "give, every situation of the fold over all axes is built",
          "[golden][reducemax]") {
  // Y = ReduceMax-18(X [1, 3]) with no axes input: the default reduces every axis (keepdims 1), one
  // set of three elements; golden draws X alone (the axes input it could not draw is absent).
  ModelBuilder b(18);
  b.input("X", F, Dims{{1, 3}}).output("Y", F, Dims{{1, 1}});
  b.node("ReduceMax", {"X"}, {"Y"});
  const fs::path d = fresh_path("sonnx-witnesses-types", "reducemax18");
  const auto w = golden::write(b.load(), d.string(), {});
  fs::remove_all(d);
  CHECK(w.not_built == 0);
  CHECK(w.exercised == w.reachable);
  CHECK(w.reachable > 0);
}

TEST_CASE("[Check.golden-coverage] every witness pattern has its own name, SubnormalFirst and Given included", "[golden]") {
  using ops::Pattern;
  std::set<std::string> names;
  for (const Pattern p : {Pattern::None, Pattern::Plain, Pattern::NanFirst, Pattern::NanAfterNumber, Pattern::TwoNans,
                          Pattern::NegativeZeroFirst, Pattern::PositiveZeroFirst, Pattern::EqualMaxima, Pattern::Subnormal,
                          Pattern::SubnormalFirst, Pattern::Infinity, Pattern::Extremes, Pattern::Given})
    for (const Extreme e : {Extreme::Max, Extreme::Min}) names.insert(ops::pattern_name(p, e) + (e == Extreme::Max ? "" : " (min)"));
  CHECK(names.size() == 26);
  CHECK(ops::pattern_name(Pattern::SubnormalFirst) != ops::pattern_name(Pattern::Subnormal));
}

TEST_CASE("[Check.golden-coverage] a witness of given values fits only a set of as many elements — else unreachable, "
          "with why",
          "[golden]") {
  // Two values for a set of three elements, or of none: the situation cannot be built.
  const ops::Situation s{"Clip.float.formula", ""};
  const auto three = ops::reach_by_given(s, {1, 2}, 3, {ops::Source::Free}, {"X"});
  CHECK_FALSE(three.reachable);
  CHECK(three.why == "its set has 3 elements; the situation needs 2");
  const auto none = ops::reach_by_given(s, {1, 2}, 0, {ops::Source::Free}, {"X"});
  CHECK_FALSE(none.reachable);
  CHECK(none.why == "its sets are empty");
  const auto one = ops::reach_by_given(s, {1, 2}, 1, {ops::Source::Free}, {"X"});
  CHECK(one.why == "its set has 1 element; the situation needs 2");
  CHECK(ops::reach_by_given(s, {1, 2}, 2, {ops::Source::Free, ops::Source::Free}, {"X", "B"}).reachable);
}

TEST_CASE("[Check.golden-coverage] [Clip.int.formula] [Clip.bounds.default] Clip-13 int32 with a drawn lower bound and no "
          "upper bound — within, below and the extremes are built, nothing can be above 2^31 - 1",
          "[golden][clip]") {
  // hi is the default 2^31 - 1 ([Clip.bounds.default]): X = 2^31 - 1 is hi itself (within, not above),
  // so "above" and "a default bound" cannot be built; lo = 1 (drawn) gives X = 1 within, -2^31 below
  // (and the type's extremes); lo cannot exceed hi.
  ModelBuilder b(13);
  b.input("X", I32, Dims{{1}}).input("lo", I32, kScalar).output("Y", I32, Dims{{1}});
  b.node("Clip", {"X", "lo"}, {"Y"});
  const auto w = all_built(b, "clip-int-lo-only",
                           {"Clip.int.formula / ", "Clip.int.formula / below the lower bound",
                            "Clip.int.formula / the type's extremes"});
  CHECK(status(w.manifest, "Clip.int.formula", "above the upper bound") == "unreachable");
  CHECK(status(w.manifest, "Clip.bounds.default", "the value is a default bound") == "unreachable");
}

TEST_CASE("[Check.golden-coverage] [Clip.bounds.attributes] [Clip.bounds.default] [Clip.v6] Clip-6 float with only the min "
          "attribute — no bound is an input, so only what X alone can make is built",
          "[golden][clip]") {
  // min = 0.5 (attribute), max the default FLT_MAX: as Clip-13 with a fixed lower bound and no upper one.
  ModelBuilder b(6);
  b.input("X", F, Dims{{1}}).output("Y", F, Dims{{1}});
  attr_float(b.node("Clip", {"X"}, {"Y"}), "min", 0.5f);
  all_built(b, "clip6-min",
            {"Clip.float.formula / ", "Clip.float.formula / below the lower bound", "Clip.float.formula / above the upper bound",
             "Clip.float.nan / X is a NaN", "Clip.bounds.default / the value is a default bound"});
}

}  // namespace witnesses_types_test
