// Properties of spec/ops/relu.md. Y[i] is stated from [Relu.float.formula] read through
// [Common.order.max] on the bit-pattern ranking of spec_facts.hpp: X[i] if it is a NaN or ranks at
// or above +0 (rank 0), else +0 — never through the implementation's max_of. Relu as Max with a zero
// is its own property ([Relu.prop.max], family_props.cpp).
#include <fmt/format.h>

#include "gen/props.hpp"
#include "ops/relu.hpp"

namespace sonnx::props::relu_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

struct ReluCase {
  int version = 14;
  Tensor X;
};

rc::Gen<ReluCase> relu_case(std::vector<int> versions = kReluVersions, Values values = Values::Edge) {
  return rc::gen::exec([versions, values] {
    ReluCase c;
    c.version = *gen::one_of(versions);
    const DType t = *gen::dtype_of(gen::usable(spec_relu_types(c.version), values));
    c.X = *gen::tensor_with(t, *gen::shape(), values);
    return c;
  });
}

// [Relu.float.formula] [Relu.float.nan] [Relu.int.formula] max_of(X[i], +0): X[i] when it is a NaN or
// +0 ⪯ X[i], the all-zero pattern otherwise.
std::uint64_t expected(DType t, std::uint64_t x) {
  if (is_nan_bits(t, x)) return x;
  return rank_of(t, x) >= rank_of(t, pos_zero_bits(t)) ? x : pos_zero_bits(t);
}

void classify(const Tensor& X) {
  const DType t = X.dtype();
  bool nan = false, negative_nan = false, neg_zero = false, negative = false, subnormal = false, inf = false;
  for (std::int64_t k = 0; k < element_count(X.shape()); ++k) {
    const std::uint64_t x = bits_at(X, k);
    nan = nan || is_nan_bits(t, x);
    if (family(t) == Family::Float) {
      const FloatLayout f = float_layout(t);
      negative_nan = negative_nan || (is_nan_bits(t, x) && (x & f.sign_mask()));
      neg_zero = neg_zero || x == neg_zero_bits(t);
      subnormal = subnormal || ((x & f.exp_mask()) == 0 && (x & f.frac_mask()) != 0);
      inf = inf || x == pos_inf_bits(t) || x == neg_inf_bits(t);
    }
    negative = negative || (!is_nan_bits(t, x) && rank_of(t, x) < (family(t) == Family::Float ? -1 : 0));
  }
  RC_CLASSIFY(nan, "NaN");
  RC_CLASSIFY(negative_nan, "NaN with its sign set");
  RC_CLASSIFY(neg_zero, "-0");
  RC_CLASSIFY(negative, "a value below -0");
  RC_CLASSIFY(subnormal, "subnormal");
  RC_CLASSIFY(inf, "an infinity");
  RC_CLASSIFY(element_count(X.shape()) == 0, "empty");
  RC_CLASSIFY(X.rank() == 0, "rank 0");
  RC_TAG(std::string(family(t) == Family::Float ? "float" : "int"));
}

}  // namespace

TEST_CASE("[Relu.float.formula] [Relu.int.formula] [Relu.float.nan] [Common.order.max] [Common.order.total] "
          "[Common.order.int] Y[i] is X[i] when X[i] is a NaN or not below +0, else +0",
          "[relu][props]") {
  check("Y[i] = X[i] if NaN or rank(X[i]) >= rank(+0); the all-zero pattern otherwise", [] {
    const ReluCase c = *relu_case();
    const Tensor Y = ops::relu(c.version, c.X);
    RC_ASSERT(Y.shape() == c.X.shape());
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), y = bits_at(Y, k);
      PROP_EXPECT(y == expected(t, x), "Relu({}) = {}, expected {}", describe(t, x), describe(t, y),
                  describe(t, expected(t, x)));
    }
    classify(c.X);
  });
  check("any bit pattern of the type, scalar: the same rule", [] {
    const int v = *gen::one_of(kReluVersions);
    const DType t = *gen::dtype_of(spec_relu_types(v));
    const std::uint64_t x = *gen::any_bits(t);
    const Tensor Y = ops::relu(v, filled(t, {}, x));
    RC_ASSERT(Y.shape() == Shape{});
    PROP_EXPECT(bits_at(Y, 0) == expected(t, x), "Relu({}) = {}, expected {}", describe(t, x), describe(t, bits_at(Y, 0)),
                describe(t, expected(t, x)));
  });
}

TEST_CASE("[Relu.float.nan] [Common.order.nan-payload] a NaN of X is kept bit for bit, its sign and signalling bit "
          "included",
          "[relu][props]") {
  check("X[i] NaN: Y[i] has the same bits", [] {
    const ReluCase c = *relu_case(kReluVersions, Values::NaNs);
    const Tensor Y = ops::relu(c.version, c.X);
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k)
      if (is_nan_bits(t, bits_at(c.X, k)))
        PROP_EXPECT(bits_at(Y, k) == bits_at(c.X, k), "Relu({}) = {}", describe(t, bits_at(c.X, k)),
                    describe(t, bits_at(Y, k)));
    classify(c.X);
  });
}

TEST_CASE("[Relu.float.zero] [Common.order.total] Relu(-0) and Relu(+0) are +0: no element of Y is -0",
          "[relu][props]") {
  check("X of ±0 and values below: Y[i] is the all-zero pattern wherever X[i] is not a NaN and not above +0", [] {
    const ReluCase c = *relu_case({1, 6, 13, 14}, Values::Zeros);
    const Tensor Y = ops::relu(c.version, c.X);
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), y = bits_at(Y, k);
      PROP_EXPECT(y != neg_zero_bits(t), "Relu({}) = -0", describe(t, x));
      if (x == neg_zero_bits(t) || x == pos_zero_bits(t))
        PROP_EXPECT(y == pos_zero_bits(t), "Relu({}) = {}, expected +0", describe(t, x), describe(t, y));
    }
    classify(c.X);
  });
}

TEST_CASE("[Relu.shape] [Common.tensor.empty] Y has the shape and type of X, rank 0 and empty included",
          "[relu][props]") {
  check("shape and dtype of Y are those of X", [] {
    const ReluCase c = *relu_case();
    const Tensor Y = ops::relu(c.version, c.X);
    RC_ASSERT(Y.shape() == c.X.shape());
    RC_ASSERT(Y.dtype() == c.X.dtype());
    RC_CLASSIFY(element_count(c.X.shape()) == 0, "empty");
    RC_CLASSIFY(c.X.rank() == 0, "rank 0");
  });
}

TEST_CASE("[Relu.prop.non-negative] Y[i] is a NaN iff X[i] is one, and is never below +0", "[relu][props]") {
  check("NaN in Y exactly where in X; rank(Y[i]) >= rank(+0) elsewhere", [] {
    const ReluCase c = *relu_case();
    const Tensor Y = ops::relu(c.version, c.X);
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), y = bits_at(Y, k);
      PROP_EXPECT(is_nan_bits(t, y) == is_nan_bits(t, x), "Relu({}) = {}: NaN on one side only", describe(t, x),
                  describe(t, y));
      if (!is_nan_bits(t, y)) PROP_EXPECT(rank_of(t, y) >= 0, "Relu({}) = {} is below +0", describe(t, x), describe(t, y));
    }
    classify(c.X);
  });
}

TEST_CASE("[Relu.prop.idempotent] Relu(Relu(X)) = Relu(X), bit for bit", "[relu][props]") {
  check("applying Relu twice changes nothing", [] {
    const ReluCase c = *relu_case();
    const Tensor Y = ops::relu(c.version, c.X);
    RC_ASSERT(same_bits(ops::relu(c.version, Y), Y));
    classify(c.X);
  });
}

TEST_CASE("[Relu.prop.attained-or-zero] Y[i] is X[i] or +0, and X[i] exactly when X[i] is a NaN or +0 is not above it",
          "[relu][props]") {
  check("Y[i] in {X[i], +0}; X[i] iff NaN or +0 <= X[i]", [] {
    const ReluCase c = *relu_case();
    const Tensor Y = ops::relu(c.version, c.X);
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), y = bits_at(Y, k);
      PROP_EXPECT(y == x || y == pos_zero_bits(t), "Relu({}) = {}: neither X[i] nor +0", describe(t, x), describe(t, y));
      const bool keeps = is_nan_bits(t, x) || rank_of(t, x) >= 0;
      if (keeps) PROP_EXPECT(y == x, "Relu({}) = {}, expected X[i]", describe(t, x), describe(t, y));
      else PROP_EXPECT(y == pos_zero_bits(t), "Relu({}) = {}, expected +0", describe(t, x), describe(t, y));
    }
    classify(c.X);
  });
}

TEST_CASE("[Relu.v1] [Relu.v6] [Relu.v13] [Relu.v14] every version that accepts the type gives the same Y",
          "[relu][props]") {
  check("Relu-v(X) does not depend on v", [] {
    const ReluCase c = *relu_case({14});
    const Tensor Y14 = ops::relu(14, c.X);
    int versions = 0;
    for (int v : kReluVersions) {
      if (!contains(spec_relu_types(v), c.X.dtype())) continue;
      ++versions;
      RC_ASSERT(same_bits(ops::relu(v, c.X), Y14));
    }
    RC_TAG(fmt::format("{} versions accept {}", versions, name(c.X.dtype())));
  });
}

}  // namespace sonnx::props::relu_props
