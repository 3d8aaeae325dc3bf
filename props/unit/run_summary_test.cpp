// The printed form of `sonnx-ref run` (src/graph/summary.hpp): exact values, NaN bit patterns,
// elision, JSON. Expected strings are written by hand from the bit patterns.
#include "graph/summary.hpp"
#include "test_util.hpp"

namespace run_summary_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using graph::summary_json;
using graph::summary_line;

TEST_CASE("[Common.dtype.float] run prints float/double as shortest round-trip decimals, NaN with its bits",
          "[run]") {
  const Tensor t = f32({2, 3}, {1, 0.1f, -0.0f, kInf, -kInf, nan_with_bits(0xFFC00001)});
  CHECK(summary_line({"Y", t}) == "Y: float [2, 3] = [1, 0.1, -0, inf, -inf, nan(0xffc00001)]");
  const Tensor d = make_tensor<double>({3}, {0.1, 1e300, 5e-324});
  CHECK(summary_line({"D", d}) == "D: double [3] = [0.1, 1e+300, 5e-324]");
  const Tensor s = f32({}, {2.5f});
  CHECK(summary_line({"S", s}) == "S: float [] = [2.5]");
  CHECK(summary_line({"E", f32({0, 2}, {})}) == "E: float [0, 2] = []");
}

TEST_CASE("[Common.dtype.float16] [Common.dtype.bfloat16] run prints half types as their exact value", "[run]") {
  // float16 0x2E66 = 2^-4 * (1 + 614/1024) = 0.0999755859375; 0x0400 = 2^-14 = 6.103515625e-05; 0x7E00 NaN
  const Tensor h = make_tensor<float16>({4}, {float16{0x2E66}, float16{0x0400}, float16{0x8000}, float16{0x7E00}});
  CHECK(summary_line({"H", h}) == "H: float16 [4] = [0.0999755859375, 6.103515625e-05, -0, nan(0x7e00)]");
  // bfloat16 0x3DCD = 2^-4 * (1 + 77/128) = 0.10009765625; 0xFF80 = -inf
  const Tensor b = make_tensor<bfloat16>({2}, {bfloat16{0x3DCD}, bfloat16{0xFF80}});
  CHECK(summary_line({"B", b}) == "B: bfloat16 [2] = [0.10009765625, -inf]");
}

TEST_CASE("[Common.dtype.int] [Common.dtype.bool] run prints integers in decimal, bool as true/false", "[run]") {
  CHECK(summary_line({"I", make_tensor<std::int8_t>({2}, {-128, 65})}) == "I: int8 [2] = [-128, 65]");
  CHECK(summary_line({"U", make_tensor<std::uint64_t>({1}, {18446744073709551615ull})}) ==
        "U: uint64 [1] = [18446744073709551615]");
  CHECK(summary_line({"B", make_tensor<bool>({2}, {true, false})}) == "B: bool [2] = [true, false]");
}

TEST_CASE("[Common.tensor.shape] run elides the middle of tensors of more than 20 elements", "[run]") {
  std::vector<std::int64_t> v(21);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<std::int64_t>(k);
  const Tensor t = make_tensor<std::int64_t>({3, 7}, v);
  CHECK(summary_line({"T", t}) ==
        "T: int64 [3, 7] = [0, 1, 2, 3, 4, 5, 6, 7, ... (5 elided), 13, 14, 15, 16, 17, 18, 19, 20]");
  CHECK(summary_line({"T", t}, true).size() > summary_line({"T", t}).size());
  v.pop_back();  // 20 elements: all shown
  CHECK(summary_line({"T", make_tensor<std::int64_t>({20}, v)}).find("elided") == std::string::npos);

  const auto j = summary_json({{"T", t}});
  const auto& o = j.at("outputs").at(0);
  CHECK(o.at("elided") == true);
  CHECK(o.at("size") == 21);
  CHECK(o.at("values").size() == 16);
  CHECK(o.at("values").at(7) == 7);
  CHECK(o.at("values").at(8) == 13);
}

TEST_CASE("[Common.dtype.float] [Common.order.nan-payload] run --json: numbers, non-finite as strings with NaN bits, -0 as -0.0", "[run]") {
  const Tensor t = f32({5}, {0.5f, -0.0f, kInf, -kInf, nan_with_bits(0x7FC00000)});
  const auto j = summary_json({{"Y", t}});
  CHECK(j.dump() ==
        R"j({"outputs":[{"name":"Y","dtype":"float","shape":[5],"size":5,"values":[0.5,-0.0,"inf","-inf","nan(0x7fc00000)"],)j"
        R"("elided":false}]})");
}

}  // namespace run_summary_test
