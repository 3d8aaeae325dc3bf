// [Check.chain] The enclosure of a chain of computed nodes (spec/common/check.md), on the Debian node tests that
// write Softmax and LogSoftmax out as ReduceMax, Sub, Exp, ReduceSum, Div (Log, Sub): numpy's expected outputs
// (computed by onnx's test generator, not by sonnx-ref) lie inside the enclosure, the enclosure is a few ulps
// wide, and values 64 ulps away do not conform; a chain through an operator without a corner rule is not judged.
#include <cmath>
#include <filesystem>
#include <vector>

#include "graph_util.hpp"
#include "io/io.hpp"
#include "oracle/chain.hpp"
#include "oracle/compare.hpp"

namespace chain_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

const fs::path kNode = "/usr/share/libonnx-testdata/data/node";

// The float x moved by k values of float.
float step(float x, int k) {
  for (int q = 0; q < std::abs(k); ++q) x = std::nextafter(x, k > 0 ? INFINITY : -INFINITY);
  return x;
}

}  // namespace

TEST_CASE("[Check.chain] numpy's outputs of the 14 written-out Softmax and LogSoftmax node tests lie in the enclosure, "
          "whose radius is at most 16 ulps, and a value 64 ulps away does not",
          "[chain]") {
  if (!fs::exists(kNode)) return;  // libonnx-testdata absent: tools/install-deps installs it
  int cases = 0;
  for (const char* op : {"softmax", "logsoftmax"})
    for (const char* which : {"axis_0", "axis_1", "axis_2", "default_axis", "large_number", "negative_axis"}) {
      const fs::path d = kNode / fmt::format("test_{}_{}_expanded", op, which);
      REQUIRE(fs::exists(d));
      INFO(d.string());
      const auto m = graph::Model::load((d / "model.onnx").string());
      const auto values = m.run_all(graph::load_feeds(m, (d / "test_data_set_0").string()));
      REQUIRE(chain::needed(m, values));
      std::string why;
      const auto enclosed = chain::enclose(m, values, &why);
      REQUIRE(enclosed.has_value());
      const Tensor& y = enclosed->at(m.outputs()[0].name);
      REQUIRE(y.annex != nullptr);
      const auto expected = io::read_test_data_set((d / "test_data_set_0").string(), "output");
      CHECK(compare::compare(y, expected[0].tensor, {}).conforms);
      Tensor far = expected[0].tensor;
      for (std::int64_t k = 0; k < y.size(); ++k) {
        const float e = far.values<float>()[static_cast<std::size_t>(k)];
        const double ulp = std::nextafter(std::fabs(e), INFINITY) - std::fabs(e);
        CHECK(y.annex->at(k).radius <= 16 * ulp);  // a few ulps on either side: not loose
        far.values<float>()[static_cast<std::size_t>(k)] = step(e, k % 2 ? 64 : -64);
      }
      CHECK(compare::compare(y, far, {}).mismatches == y.size());
      ++cases;
    }
  CHECK(cases == 12);
}

TEST_CASE("[Check.chain] a chain through an operator without a corner rule is not judged, naming the node, and a chain of exact "
          "nodes needs no enclosure",
          "[chain]") {
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::FLOAT, Dims{{2, 3}}).output("Y", onnx::TensorProto::FLOAT, Dims{{2, 3}});
  b.node("Exp", {"X"}, {"E"}, "exp");
  b.node("Softmax", {"E"}, {"Y"}, "head");
  const auto m = b.load();
  Tensor x(DType::Float, {2, 3});
  for (std::int64_t k = 0; k < 6; ++k) x.values<float>()[static_cast<std::size_t>(k)] = 0.25f * static_cast<float>(k);
  const auto values = m.run_all({{"X", x}});
  REQUIRE(chain::needed(m, values));
  std::string why;
  CHECK_FALSE(chain::enclose(m, values, &why).has_value());
  CHECK(why.find("node 'head' (Softmax-13)") != std::string::npos);
  CHECK(why.find("no corner rule") != std::string::npos);

  ModelBuilder c(13);
  c.input("X", onnx::TensorProto::FLOAT, Dims{{2, 3}}).output("Y", onnx::TensorProto::FLOAT, Dims{{2, 3}});
  c.node("Relu", {"X"}, {"R"}, "relu");
  c.node("Sub", {"R", "X"}, {"Y"}, "sub");
  const auto m2 = c.load();
  CHECK_FALSE(chain::needed(m2, m2.run_all({{"X", x}})));
}

TEST_CASE("[Check.chain] a divisor interval holding 0 is not judged", "[chain]") {
  ModelBuilder b(13);
  b.input("X", onnx::TensorProto::FLOAT, Dims{{3}}).input("A", onnx::TensorProto::FLOAT, Dims{{3}});
  b.output("Y", onnx::TensorProto::FLOAT, Dims{{3}});
  b.node("Log", {"X"}, {"L"}, "log");  // log 1 = 0: the interval [−α, α] holds 0
  b.node("Div", {"A", "L"}, {"Y"}, "div");
  const auto m = b.load();
  Tensor x(DType::Float, {3}), a(DType::Float, {3});
  for (std::size_t k = 0; k < 3; ++k) x.values<float>()[k] = 1.0f + static_cast<float>(k), a.values<float>()[k] = 1.0f;
  const auto values = m.run_all({{"X", x}, {"A", a}});
  std::string why;
  CHECK_FALSE(chain::enclose(m, values, &why).has_value());
  CHECK(why.find("a divisor interval holds 0") != std::string::npos);
}

}  // namespace chain_test
