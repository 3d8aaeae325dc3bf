// Hand-derived expectations for inputs that fuzzing found (props/fuzz/regressions/), checked in every
// build; the sanitizer tree (label sanitize) also runs these under ASan+UBSan, where an overflow
// that a release build wraps silently fails the test.
//
// Issue #12: a zero dimension between two dimensions of 2^40. The tensor has no element
// ([Common.tensor.empty]); its element count 2^40 * 0 * 2^40 = 0 is representable, so it passes
// [Common.tensor.size-limit], but the product of its other dimensions (2^80) is not: strides and
// sizes formed as running products overflow int64 (libFuzzer, model loader: row_major_strides).
#include "graph_util.hpp"

namespace fuzz_regressions_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

constexpr std::int64_t kBig = std::int64_t{1} << 40;

onnx::TensorProto empty_x(std::vector<std::int64_t> dims) { return tp_f32("X", std::move(dims), {}); }

}  // namespace

TEST_CASE("[Common.tensor.empty] [Common.tensor.size-limit] regression: an initializer of shape [3, 2^40, 0, 2^40] "
          "is an empty tensor",
          "[graph][regression]") {
  ModelBuilder b(13);
  b.initializer(empty_x({3, kBig, 0, kBig})).output("X");
  const auto out = b.load().run({});
  REQUIRE(out.size() == 1);
  CHECK(out[0].tensor.shape() == Shape{3, kBig, 0, kBig});
  CHECK(out[0].tensor.size() == 0);
}

TEST_CASE("[Common.tensor.empty] [Common.broadcast.dims] [Max.float.formula] regression: Max of [2^40, 0, 2^40] and [1] is "
          "the empty [2^40, 0, 2^40]",
          "[graph][regression]") {
  ModelBuilder b(13);
  b.initializer(empty_x({kBig, 0, kBig})).input("B", onnx::TensorProto::FLOAT, std::vector<std::int64_t>{1}).output("Y");
  b.node("Max", {"X", "B"}, {"Y"});
  // [Common.broadcast.dims] the shapes (2^40, 0, 2^40) and (1) broadcast to (2^40, 0, 2^40): no element.
  const auto out = b.load().run({{"B", f32({1}, {1.0f})}});
  CHECK(output(out, "Y").shape() == Shape{kBig, 0, kBig});
  CHECK(output(out, "Y").size() == 0);
}

TEST_CASE("[Common.tensor.empty] [ReduceMax.float.empty] [Common.tensor.size-limit] regression: ReduceMax of "
          "[2^40, 0, 2^40]",
          "[graph][regression]") {
  auto reduce = [](std::vector<std::int64_t> axes, std::int64_t keepdims) {
    ModelBuilder b(13);
    b.initializer(empty_x({kBig, 0, kBig})).output("Y");
    auto& n = b.node("ReduceMax", {"X"}, {"Y"});
    attr_ints(n, "axes", std::move(axes));
    attr_int(n, "keepdims", keepdims);
    return b;
  };
  // Over axis 0, keepdims 1: shape (1, 0, 2^40), no element (no reduced set to evaluate).
  const auto kept = reduce({0}, 1).load().run({});
  CHECK(output(kept, "Y").shape() == Shape{1, 0, kBig});
  CHECK(output(kept, "Y").size() == 0);
  // Over axis 2, keepdims 0: shape (2^40, 0), no element.
  const auto dropped = reduce({2}, 0).load().run({});
  CHECK(output(dropped, "Y").shape() == Shape{kBig, 0});
  // Over the zero axis 1, keepdims 0: shape (2^40, 2^40), each element an empty reduction (-Inf);
  // 2^80 elements cannot be represented in int64: refused before anything is allocated.
  CHECK(refusal_id([&] { reduce({1}, 0).load().run({}); }) == "Common.tensor.size-limit");
}

TEST_CASE("[Common.tensor.empty] [Hardmax.empty] [Hardmax.coerce] regression: Hardmax of [2^40, 0, 2^40] is the "
          "empty [2^40, 0, 2^40]",
          "[graph][regression]") {
  for (const auto& [opset, axis] : std::vector<std::pair<std::int64_t, std::int64_t>>{{13, 0}, {13, 2}, {11, 1}, {11, 2}}) {
    INFO("Hardmax opset " << opset << " axis " << axis);
    ModelBuilder b(opset);
    b.initializer(empty_x({kBig, 0, kBig})).output("Y");
    attr_int(b.node("Hardmax", {"X"}, {"Y"}), "axis", axis);
    const auto out = b.load().run({});
    CHECK(output(out, "Y").shape() == Shape{kBig, 0, kBig});
    CHECK(output(out, "Y").size() == 0);
  }
}

}  // namespace fuzz_regressions_test
