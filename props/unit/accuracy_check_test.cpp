// Hand-derived cases of spec/common/accuracy.md as check states them: what the reports give for a
// computed output ([Acc.report]) and the declared flush to zero ([Acc.hyp.ftz]). The models are one
// Gemm node; every expected number below is worked out by hand in the comments.
#include <cmath>
#include <string>

#include "graph_util.hpp"
#include "oracle/check.hpp"

namespace accuracy_check_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;

namespace {

// Y = Gemm(A, B), A [1, 2] and B [2, 1] float (Gemm-13, no C, alpha = beta = 1).
graph::Model gemm_model() {
  ModelBuilder b(13);
  b.input("A", onnx::TensorProto::FLOAT, Dims{{1, 2}})
      .input("B", onnx::TensorProto::FLOAT, Dims{{2, 1}})
      .output("Y", onnx::TensorProto::FLOAT, Dims{{1, 1}});
  b.node("Gemm", {"A", "B"}, {"Y"}, "gemm");
  return b.load();
}

check::Verdict judge(const graph::Model& m, const Feeds& feeds, float y, compare::Options o = {}) {
  explain::Explainer ex(m, m.run_all(feeds));
  check::Actual a;
  a.tensors = {{"Y", f32({1, 1}, {y})}};
  return check::judge(m, ex, a, o);
}

}  // namespace

// A = [1, 2], B = [3, 4]: the ideal is 1·3 + 2·4 = 11 exactly. n = 2 products, S = 11, u = 2^-24:
// B̂ = γ-type bound of order 2·2^-24·11 ≈ 1.3e-6, far below one ULP of 11 (2^-20 ≈ 9.5e-7 is the ULP
// at 11: 11 lies in [8, 16), ULP 2^(3-23) = 2^-20). An IUT answering 12 is 1 away: a fraction of R
// near 1/1.3e-6, and 2^20 ULPs.
TEST_CASE("[Acc.report] [Acc.verdict] check states the ideal, R, the error, its fraction of R and ULPs, and the worst element",
          "[accuracy][check]") {
  const auto m = gemm_model();
  const Feeds feeds = {{"A", f32({1, 2}, {1, 2})}, {"B", f32({2, 1}, {3, 4})}};
  compare::Options o;
  const check::Verdict bad = judge(m, feeds, 12.0f, o);
  CHECK_FALSE(bad.conforms);
  const auto json = check::to_json(bad, o);
  const std::string dump = json.dump();
  INFO(dump);
  // The finding: the ideal 11, the error 1, the ULPs 2^20, R small and positive, the fraction 1 / R.
  const auto& out = json["outputs"][0];
  REQUIRE(out.contains("accuracy"));
  const auto& worst = out["accuracy"]["worst"]["accuracy"];
  CHECK(worst["ideal"].get<double>() == 11.0);
  CHECK(worst["error"].get<double>() == 1.0);
  CHECK(worst["ulps"].get<double>() == std::ldexp(1.0, 20));
  const double R = worst["radius"].get<double>();
  CHECK(R > 0);
  CHECK(R < std::ldexp(1.0, -18));  // far below the error: 4·2^-24·11 < 2^-18
  CHECK(worst["fraction"].get<double>() == Approx(1.0 / R).epsilon(1e-12));
  CHECK(worst["flush_margin"].get<double>() == 0.0);  // nothing declared
  // The text report names the element, the ideal and the verdict's clause.
  const std::string text = check::to_text(bad, o);
  INFO(text);
  CHECK(text.find("[Acc.verdict]") != std::string::npos);
  CHECK(text.find("computed by node 'gemm' (Gemm-13) [Acc.report]") != std::string::npos);  // the node that computed Y
  CHECK(out["accuracy"]["node"] == "node 'gemm' (Gemm-13)");
  CHECK(text.find("largest error") != std::string::npos);
  CHECK(text.find("11") != std::string::npos);
  // The exact answer conforms, with a fraction of 0 as its worst element.
  const check::Verdict good = judge(m, feeds, 11.0f, o);
  CHECK(good.conforms);
  const auto gj = check::to_json(good, o);
  CHECK(gj["outputs"][0]["accuracy"]["worst"]["accuracy"]["fraction"].get<double>() == 0.0);
  CHECK(check::to_text(good, o).find("computed values: within the radius R of their ideal [Acc.verdict]") != std::string::npos);
}

// A = [2^-70, 1], B = [2^-70, 2^-130]: the ideal is 2^-140 + 2^-130, a subnormal of float (below
// 2^-126) representable exactly (a multiple of 2^-149). An implementation that flushes subnormal
// results to zero answers +0: an error of 2^-130·(1 + 2^-10), while R under gradual underflow is of the
// order of n·2^-150 (U) plus θ·S with S ≈ 2^-130 — below 2^-135. Declared, the flush widens R by F,
// of the order of L·2^-126 with L = Σ over the terms of the products of every factor but one
// (2^-70 + 2^-70 + 1 + 2^-130 > 1): F > 2^-126 > the error. So the verdict is "differs" without the
// declaration and "conforms" with it, and the report states F.
TEST_CASE("[Acc.hyp.ftz] [Acc.report] a flush-to-zero result differs unless declared, then conforms within R + F",
          "[accuracy][check]") {
  const auto m = gemm_model();
  const float t70 = std::ldexp(1.0f, -70), t130 = std::ldexp(1.0f, -130);
  REQUIRE(t130 > 0);  // a float subnormal, representable
  const Feeds feeds = {{"A", f32({1, 2}, {t70, 1})}, {"B", f32({2, 1}, {t70, t130})}};
  compare::Options plain;
  const check::Verdict without = judge(m, feeds, 0.0f, plain);
  CHECK_FALSE(without.conforms);
  const auto wj = check::to_json(without, plain)["outputs"][0]["accuracy"]["worst"]["accuracy"];
  CHECK(wj["error"].get<double>() == std::ldexp(1.0, -130) + std::ldexp(1.0, -140));
  CHECK(wj["radius"].get<double>() < std::ldexp(1.0, -135));
  CHECK(wj["flush_margin"].get<double>() == 0.0);

  compare::Options declared;
  declared.flush_subnormals = true;
  const check::Verdict with = judge(m, feeds, 0.0f, declared);
  CHECK(with.conforms);
  const auto dj = check::to_json(with, declared)["outputs"][0]["accuracy"]["worst"]["accuracy"];
  CHECK(dj["flush_margin"].get<double>() > std::ldexp(1.0, -126));
  CHECK(dj["radius"].get<double>() >= dj["flush_margin"].get<double>());
  const std::string text = check::to_text(with, declared);
  INFO(text);
  CHECK(text.find("[Acc.hyp.ftz]") != std::string::npos);

  // The declaration widens R only: a value far outside R + F still differs (2^-120 is 2^6 times F's order).
  const check::Verdict far = judge(m, feeds, std::ldexp(1.0f, -100), declared);
  CHECK_FALSE(far.conforms);
}

}  // namespace accuracy_check_test
