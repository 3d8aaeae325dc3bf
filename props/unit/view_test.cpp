// Hand-derived examples of spec/ops/reshape.md, flatten.md, squeeze.md, unsqueeze.md, identity.md and
// dropout.md (each citing its clause), and of [Common.tensor.storage]: an output shares its input's
// storage, and no write through one tensor ever changes another.
#include <chrono>

#include "ops/registry.hpp"
#include "ops/view.hpp"
#include "test_util.hpp"

namespace view_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
using namespace sonnx::ops;

Tensor i64(std::vector<std::int64_t> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return make_tensor<std::int64_t>({n}, v);
}
Tensor iota(Shape s) {
  Tensor t(DType::Float, std::move(s));
  auto v = t.values<float>();
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  return t;
}

// ---- [Common.tensor.storage] ------------------------------------------------------------------------

TEST_CASE("[Common.tensor.storage] a copy shares the storage, a write through either one unshares it", "[view]") {
  Tensor a = f32({3}, {1.0f, 2.0f, 3.0f});
  Tensor b = a;
  CHECK(a.shares_storage(b));
  b.values<float>()[0] = 9.0f;  // copy on write: a keeps its bytes
  CHECK(!a.shares_storage(b));
  CHECK(values<float>(a) == std::vector<float>{1.0f, 2.0f, 3.0f});
  CHECK(values<float>(b) == std::vector<float>{9.0f, 2.0f, 3.0f});
  Tensor c = a;
  a.bytes()[0] = std::byte{0xFF};  // the original written: the copy keeps its bytes
  CHECK(values<float>(c) == std::vector<float>{1.0f, 2.0f, 3.0f});
}

TEST_CASE("[Common.tensor.storage] reshaped shares the storage, keeps the order and never writes through", "[view]") {
  const Tensor x = iota({2, 3});
  Tensor y = x.reshaped({3, 2});
  CHECK(y.shares_storage(x));
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values<float>(y) == std::vector<float>{0, 1, 2, 3, 4, 5});
  y.values<float>()[5] = -1.0f;
  CHECK(values<float>(x) == std::vector<float>{0, 1, 2, 3, 4, 5});
  CHECK(refusal_id([&] { (void)x.reshaped({4}); }) == "Common.tensor.shape");
  const Tensor empty(DType::Float, {0, 3});
  CHECK(!empty.reshaped({3, 0}).shares_storage(empty));  // no bytes: nothing is shared
}

TEST_CASE("[Common.tensor.storage] a chain of views through the registry shares one storage, the input is never "
          "written", "[view]") {
  const Tensor x = iota({2, 3, 4});
  const Tensor before = x.reshaped(x.shape());
  const Tensor shape = i64({4, -1});
  Tensor r = resolve("Reshape", 21).run({&x, &shape}, {}, 1)[0];
  Tensor f = resolve("Flatten", 21).run({&r}, {{"axis", std::int64_t{0}}}, 1)[0];
  const Tensor axes = i64({0});
  Tensor s = resolve("Squeeze", 21).run({&f, &axes}, {}, 1)[0];
  Tensor u = resolve("Unsqueeze", 21).run({&s, &axes}, {}, 1)[0];
  Tensor i = resolve("Identity", 21).run({&u}, {}, 1)[0];
  auto d = resolve("Dropout", 13).run({&i}, {}, 2);
  for (const Tensor* t : {&r, &f, &s, &u, &i, &d[0]}) CHECK(t->shares_storage(x));
  CHECK(d[0].shape() == Shape{1, 24});
  d[0].values<float>()[0] = 42.0f;  // a write at the end of the chain
  CHECK(x.bitwise_equal(before));
  CHECK(values<float>(i)[0] == 0.0f);
}

TEST_CASE("[Common.tensor.storage] Reshape of a large tensor copies nothing", "[view]") {
  const Tensor x(DType::Float, {64, 1024, 1024}, "x");  // 256 MiB
  const Tensor shape = i64({-1});
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < 1000; ++k) {
    Tensor y = resolve("Reshape", 14).run({&x, &shape}, {}, 1)[0];
    REQUIRE(y.shares_storage(x));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 0.5);  // a copy of 256 MiB takes about 0.05 s: 1000 of them would take a minute
}

// ---- Reshape ------------------------------------------------------------------------------------

TEST_CASE("[Reshape.shape] [Reshape.zero-copies] [Reshape.inferred] the examples of spec/ops/reshape.md", "[view]") {
  CHECK(reshape_output_shape({2, 3, 4}, {4, -1}, false) == Shape{4, 6});
  CHECK(reshape_output_shape({2, 3, 4}, {0, 0, -1}, false) == Shape{2, 3, 4});
  CHECK(reshape_output_shape({2, 3, 4}, {2, 0, 4}, false) == Shape{2, 3, 4});
  CHECK(reshape_output_shape({2, 3, 4}, {2, 12}, false) == Shape{2, 12});
}

TEST_CASE("[Reshape.zero-allowed] allowzero = 1 makes 0 a dimension of size 0", "[view]") {
  CHECK(reshape_output_shape({0, 3}, {3, 0}, true) == Shape{3, 0});
  CHECK(refusal_id([] { (void)reshape_output_shape({0, 3}, {3, 0}, false); }) == "Reshape.err.count");
}

TEST_CASE("[Reshape.err.two-inferred] [Reshape.err.infer] [Reshape.err.count] [Reshape.err.negative] "
          "[Reshape.err.zero-copy] [Reshape.err.zero-and-inferred] refusals", "[view]") {
  CHECK(refusal_id([] { (void)reshape_output_shape({2, 3, 4}, {3, -1, -1}, false); }) == "Reshape.err.two-inferred");
  CHECK(refusal_id([] { (void)reshape_output_shape({2, 3, 4}, {5, -1}, false); }) == "Reshape.err.infer");
  CHECK(refusal_id([] { (void)reshape_output_shape({2, 3, 4}, {7, 3}, false); }) == "Reshape.err.count");
  CHECK(refusal_id([] { (void)reshape_output_shape({2, 3, 4}, {-2, 12}, false); }) == "Reshape.err.negative");
  CHECK(refusal_id([] { (void)reshape_output_shape({24}, {1, 0}, false); }) == "Reshape.err.zero-copy");
  CHECK(refusal_id([] { (void)reshape_output_shape({0, 3}, {0, -1}, true); }) == "Reshape.err.zero-and-inferred");
  CHECK(refusal_id([] { (void)reshape_output_shape({0, 3}, {0, -1}, false); }) == "Reshape.err.infer");
}

TEST_CASE("[Reshape.v1] [Reshape.v5] [Reshape.err.dtype] [Reshape.err.shape-input] versions and types", "[view]") {
  const Tensor x = make_tensor<std::int32_t>({2, 2}, {1, 2, 3, 4});
  CHECK(refusal_id([&] { (void)resolve("Reshape", 1).run({&x}, {{"shape", std::vector<std::int64_t>{4}}}, 1); }) ==
        "Reshape.err.dtype");
  const Tensor f = iota({2, 2});
  CHECK(resolve("Reshape", 1).run({&f}, {{"shape", std::vector<std::int64_t>{4}}}, 1)[0].shape() == Shape{4});
  const Tensor bad = make_tensor<std::int32_t>({1}, {4});
  CHECK(refusal_id([&] { (void)resolve("Reshape", 5).run({&x, &bad}, {}, 1); }) == "Reshape.err.shape-input");
  const Tensor s = i64({4});
  CHECK(values<std::int32_t>(resolve("Reshape", 5).run({&x, &s}, {}, 1)[0]) == std::vector<std::int32_t>{1, 2, 3, 4});
}

// ---- Flatten ------------------------------------------------------------------------------------

TEST_CASE("[Flatten.shape] [Flatten.err.axis] [Flatten.v11] the examples of spec/ops/flatten.md", "[view]") {
  const Shape in = {2, 3, 4, 5};
  CHECK(flatten_output_shape(11, in, 0) == Shape{1, 120});
  CHECK(flatten_output_shape(11, in, 2) == Shape{6, 20});
  CHECK(flatten_output_shape(11, in, -1) == Shape{24, 5});
  CHECK(flatten_output_shape(11, in, 4) == Shape{120, 1});
  CHECK(refusal_id([&] { (void)flatten_output_shape(11, in, 5); }) == "Flatten.err.axis");
  CHECK(refusal_id([&] { (void)flatten_output_shape(9, in, -1); }) == "Flatten.err.axis");
  CHECK(flatten_output_shape(1, {}, 0) == Shape{1, 1});
}

// ---- Squeeze, Unsqueeze -------------------------------------------------------------------------

TEST_CASE("[Squeeze.shape] [Squeeze.all] [Squeeze.err.not-one] [Squeeze.err.axis] [Squeeze.err.repeated] the "
          "examples of spec/ops/squeeze.md", "[view]") {
  const Shape in = {1, 3, 1, 5};
  CHECK(squeeze_output_shape(13, in, std::nullopt) == Shape{3, 5});
  CHECK(squeeze_output_shape(13, in, std::vector<std::int64_t>{-2}) == Shape{1, 3, 5});
  CHECK(squeeze_output_shape(13, in, std::vector<std::int64_t>{}) == in);
  CHECK(refusal_id([&] { (void)squeeze_output_shape(13, in, std::vector<std::int64_t>{1}); }) == "Squeeze.err.not-one");
  CHECK(refusal_id([&] { (void)squeeze_output_shape(13, in, std::vector<std::int64_t>{4}); }) == "Squeeze.err.axis");
  CHECK(refusal_id([&] { (void)squeeze_output_shape(1, in, std::vector<std::int64_t>{-2}); }) == "Squeeze.err.axis");
  CHECK(refusal_id([&] { (void)squeeze_output_shape(13, in, std::vector<std::int64_t>{0, -4}); }) ==
        "Squeeze.err.repeated");
}

TEST_CASE("[Unsqueeze.shape] [Unsqueeze.err.axis] [Unsqueeze.err.repeated] the examples of spec/ops/unsqueeze.md",
          "[view]") {
  const Shape in = {3, 4};
  CHECK(unsqueeze_output_shape(13, in, {0}) == Shape{1, 3, 4});
  CHECK(unsqueeze_output_shape(13, in, {2, 0}) == Shape{1, 3, 1, 4});
  CHECK(unsqueeze_output_shape(13, in, {-1}) == Shape{3, 4, 1});
  CHECK(refusal_id([&] { (void)unsqueeze_output_shape(13, in, {4}); }) == "Unsqueeze.err.axis");
  CHECK(refusal_id([&] { (void)unsqueeze_output_shape(1, in, {-1}); }) == "Unsqueeze.err.axis");
  CHECK(refusal_id([&] { (void)unsqueeze_output_shape(13, in, {1, -3}); }) == "Unsqueeze.err.repeated");
  CHECK(unsqueeze_output_shape(13, {}, {0}) == Shape{1});
}

// ---- Identity, Dropout --------------------------------------------------------------------------

TEST_CASE("[Identity.formula] [Identity.err.dtype] bits kept, bfloat16 from version 13", "[view]") {
  const Tensor x = f32({2}, {nan_with_bits(0xFFC00001), -0.0f});
  CHECK(bits(identity(1, x)) == std::vector<std::uint32_t>{0xFFC00001u, 0x80000000u});
  const Tensor b = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { (void)identity(1, b); }) == "Identity.err.dtype");
  CHECK(bits16(identity(13, b)) == std::vector<std::uint16_t>{0x3F80});
}

TEST_CASE("[Dropout.mode] [Dropout.mask] [Dropout.err.training] [Dropout.mask.legacy] [Dropout.div.ort-legacy-mask] inference only", "[view]") {
  const Tensor x = f32({2}, {nan_with_bits(0x7FC00005), -0.0f});
  DropoutParams p;
  CHECK(refusal_id([&] { (void)dropout(6, x, p, false); }) == "Dropout.err.training");
  p.is_test = 1;
  CHECK(bits(dropout(6, x, p, false)[0]) == std::vector<std::uint32_t>{0x7FC00005u, 0x80000000u});
  const auto legacy = dropout(7, x, {}, true);  // [Dropout.mask.legacy] a mask of X's type, every element 1
  CHECK(bits(legacy[1]) == std::vector<std::uint32_t>{0x3F800000u, 0x3F800000u});
  const auto out = dropout(10, x, {}, true);
  CHECK(values<bool>(out[1]) == std::vector<bool>{true, true});
  const Tensor yes = make_tensor<bool>({}, {true}), no = make_tensor<bool>({}, {false});
  const Tensor ratio = f32({}, {0.75f});
  CHECK(refusal_id([&] { (void)dropout(12, x, {0, &ratio, &yes}, false); }) == "Dropout.err.training");
  CHECK(bits(dropout(12, x, {0, &ratio, &no}, false)[0]) == std::vector<std::uint32_t>{0x7FC00005u, 0x80000000u});
  const Tensor int_ratio = make_tensor<std::int32_t>({}, {0});
  CHECK(refusal_id([&] { (void)dropout(12, x, {0, &int_ratio, nullptr}, false); }) == "Dropout.err.dtype");
}

// ---- every version ------------------------------------------------------------------------------

TEST_CASE("[Reshape.v1] [Reshape.v5] [Reshape.v13] [Reshape.v14] [Reshape.v19] [Reshape.v21] [Reshape.v23] [Reshape.v24] "
          "[Reshape.v25] [Reshape.err.allowzero] every version resolves and reshapes", "[view]") {
  const Tensor x = iota({2, 3});
  const Tensor s = i64({3, -1});
  for (int v : {5, 13, 14, 19, 21, 23, 24, 25}) {
    const OpVersion& op = resolve("Reshape", v);
    CHECK(op.since_version == v);
    CHECK(op.run({&x, &s}, {}, 1)[0].shape() == Shape{3, 2});
  }
  CHECK(refusal_id([&] { (void)resolve("Reshape", 14).run({&x, &s}, {{"allowzero", std::int64_t{2}}}, 1); }) ==
        "Reshape.err.allowzero");
}

TEST_CASE("[Flatten.v1] [Flatten.v9] [Flatten.v13] [Flatten.v21] [Flatten.v23] [Flatten.v24] [Flatten.v25] "
          "[Flatten.err.dtype] every version", "[view]") {
  const Tensor x = iota({2, 3, 4});
  for (int v : {1, 9, 11, 13, 21, 23, 24, 25}) CHECK(resolve("Flatten", v).run({&x}, {}, 1)[0].shape() == Shape{2, 12});
  const Tensor i = make_tensor<std::int8_t>({2}, {1, 2});
  CHECK(refusal_id([&] { (void)flatten(1, i, 1); }) == "Flatten.err.dtype");
  const Tensor b = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { (void)flatten(11, b, 1); }) == "Flatten.err.dtype");
  CHECK(flatten(13, b, 1).shape() == Shape{1, 1});
}

TEST_CASE("[Squeeze.v1] [Squeeze.v11] [Squeeze.v13] [Squeeze.v21] [Squeeze.v23] [Squeeze.v24] [Squeeze.v25] "
          "[Squeeze.err.dtype] [Squeeze.err.axes-input] every version", "[view]") {
  const Tensor x = iota({1, 3, 1});
  for (int v : {1, 11}) CHECK(resolve("Squeeze", v).run({&x}, {{"axes", std::vector<std::int64_t>{0}}}, 1)[0].shape() == Shape{3, 1});
  const Tensor a = i64({2});
  for (int v : {13, 21, 23, 24, 25}) CHECK(resolve("Squeeze", v).run({&x, &a}, {}, 1)[0].shape() == Shape{1, 3});
  const Tensor bad = make_tensor<std::int32_t>({1}, {0});
  CHECK(refusal_id([&] { (void)resolve("Squeeze", 13).run({&x, &bad}, {}, 1); }) == "Squeeze.err.axes-input");
  const Tensor b = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { (void)squeeze(11, b, std::nullopt); }) == "Squeeze.err.dtype");
}

TEST_CASE("[Unsqueeze.v1] [Unsqueeze.v11] [Unsqueeze.v13] [Unsqueeze.v21] [Unsqueeze.v23] [Unsqueeze.v24] "
          "[Unsqueeze.v25] [Unsqueeze.err.dtype] [Unsqueeze.err.axes-input] every version", "[view]") {
  const Tensor x = iota({3});
  for (int v : {1, 11}) CHECK(resolve("Unsqueeze", v).run({&x}, {{"axes", std::vector<std::int64_t>{0}}}, 1)[0].shape() == Shape{1, 3});
  CHECK(refusal_id([&] { (void)resolve("Unsqueeze", 11).run({&x}, {}, 1); }) == "Unsqueeze.err.axes-input");
  const Tensor a = i64({1});
  for (int v : {13, 21, 23, 24, 25}) CHECK(resolve("Unsqueeze", v).run({&x, &a}, {}, 1)[0].shape() == Shape{3, 1});
  const Tensor bad = make_tensor<std::int64_t>({1, 1}, {0});
  CHECK(refusal_id([&] { (void)resolve("Unsqueeze", 13).run({&x, &bad}, {}, 1); }) == "Unsqueeze.err.axes-input");
  const Tensor b = make_tensor<bfloat16>({1}, {bfloat16{0x3F80}});
  CHECK(refusal_id([&] { (void)unsqueeze(11, b, {0}); }) == "Unsqueeze.err.dtype");
}

TEST_CASE("[Identity.v1] [Identity.v13] [Identity.v14] [Identity.v16] [Identity.v19] [Identity.v21] [Identity.v23] "
          "[Identity.v24] [Identity.v25] every version", "[view]") {
  const Tensor x = make_tensor<bool>({2}, {true, false});
  for (int v : {1, 13, 14, 16, 19, 21, 23, 24, 25}) CHECK(resolve("Identity", v).run({&x}, {}, 1)[0].bitwise_equal(x));
}

TEST_CASE("[Dropout.v1] [Dropout.v6] [Dropout.v7] [Dropout.v10] [Dropout.v12] [Dropout.v13] [Dropout.v22] "
          "[Dropout.ratio] [Dropout.err.dtype] [Dropout.err.scalar] every version", "[view]") {
  const Tensor x = f32({2}, {1.5f, -0.0f});
  CHECK(resolve("Dropout", 1).run({&x}, {{"is_test", std::int64_t{1}}, {"consumed_inputs", std::vector<std::int64_t>{0}}}, 1)[0].bitwise_equal(x));
  CHECK(resolve("Dropout", 6).run({&x}, {{"is_test", std::int64_t{1}}, {"ratio", 0.2f}}, 1)[0].bitwise_equal(x));
  for (int v : {7, 10, 12, 13, 22}) CHECK(resolve("Dropout", v).run({&x}, {}, 1)[0].bitwise_equal(x));
  const Tensor i = make_tensor<std::int32_t>({1}, {1});
  CHECK(refusal_id([&] { (void)dropout(13, i, {}, false); }) == "Dropout.err.dtype");
  const Tensor two = f32({2}, {0.5f, 0.5f});
  CHECK(refusal_id([&] { (void)dropout(12, x, {0, &two, nullptr}, false); }) == "Dropout.err.scalar");
  const Tensor flag = make_tensor<std::int32_t>({}, {0});
  CHECK(refusal_id([&] { (void)dropout(12, x, {0, nullptr, &flag}, false); }) == "Dropout.err.scalar");
}

}  // namespace view_test
