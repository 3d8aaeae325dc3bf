// Properties of spec/ops/min.md (and of the common clauses Min rests on: the min order of
// [Common.order.min], NaN, the broadcast map). Every expected value is stated from the spec with
// the test-side restatements of props/gen/spec_facts.hpp: the order as a ranking of bit patterns
// read backwards (the least element has the lowest rank), NaN by its bit fields, Ẋm[i] by the index
// map f(a, B, C) — never by calling the implementation's order or index code, and never by Max
// (Min as the dual of Max is its own property, in family_props.cpp).
#include <fmt/format.h>

#include "gen/props.hpp"
#include "ops/min.hpp"

namespace sonnx::props::min_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// The broadcast forms Ẋ0[i] .. ẊL[i] of the inputs at output index i ([Common.broadcast.map]).
std::vector<std::uint64_t> operands(const MaxCase& c, const Index& i) {
  std::vector<std::uint64_t> xs;
  for (const Tensor& x : c.inputs) xs.push_back(broadcast_read(x, i, c.output));
  return xs;
}

int first_nan(DType t, const std::vector<std::uint64_t>& xs) {
  for (std::size_t m = 0; m < xs.size(); ++m)
    if (is_nan_bits(t, xs[m])) return static_cast<int>(m);
  return -1;
}

// Tags that show which interesting cases a run met.
struct Seen {
  bool nan = false, signalling = false, zero_tie = false, pos_zero_first = false;
  void at(DType t, const std::vector<std::uint64_t>& xs) {
    int first_pos = -1, first_neg = -1;
    for (std::size_t m = 0; m < xs.size(); ++m) {
      nan = nan || is_nan_bits(t, xs[m]);
      signalling = signalling || is_signalling_nan_bits(t, xs[m]);
      if (family(t) != Family::Float) continue;
      if (xs[m] == pos_zero_bits(t) && first_pos < 0) first_pos = static_cast<int>(m);
      if (xs[m] == neg_zero_bits(t) && first_neg < 0) first_neg = static_cast<int>(m);
    }
    zero_tie = zero_tie || (first_pos >= 0 && first_neg >= 0);
    pos_zero_first = pos_zero_first || (first_pos >= 0 && first_neg >= 0 && first_pos < first_neg);
  }
};

void classify(const MaxCase& c, const Seen& s) {
  RC_CLASSIFY(element_count(c.output) == 0, "empty output");
  RC_CLASSIFY(c.output.empty(), "rank-0 output");
  RC_CLASSIFY(s.nan, "NaN present");
  RC_CLASSIFY(s.signalling, "signalling NaN");
  RC_CLASSIFY(s.zero_tie, "-0/+0 at one index");
  RC_CLASSIFY(s.pos_zero_first, "+0 before -0");
  bool shapes_differ = false;
  for (const Tensor& x : c.inputs) shapes_differ = shapes_differ || x.shape() != c.output;
  RC_CLASSIFY(shapes_differ, "broadcasting");
  RC_CLASSIFY(c.inputs.size() == 1, "one input");
}

}  // namespace

TEST_CASE("[Min.prop.lower-bound] Min lower-bound property: [Min.float.formula] [Min.int.formula] [Common.order.min] [Common.order.total] "
          "[Common.order.int] Y[i] is below or equal to every broadcast input at i",
          "[min][props]") {
  check("no NaN at i: rank(Y[i]) <= rank(Xm[i]) for all m", [] {
    const MaxCase c = *gen::min_case();
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      if (first_nan(c.dtype, xs) >= 0) continue;  // the NaN case is [Min.float.nan]
      const std::uint64_t y = bits_at(Y, o);
      PROP_EXPECT(!is_nan_bits(c.dtype, y), "Y[{}] = {} is a NaN but no input is", o, describe(c.dtype, y));
      for (std::size_t m = 0; m < xs.size(); ++m)
        PROP_EXPECT(rank_of(c.dtype, y) <= rank_of(c.dtype, xs[m]), "Y at {} = {} is above X{} = {}", to_string(i),
                    describe(c.dtype, y), m, describe(c.dtype, xs[m]));
    }
    classify(c, seen);
  });
}

TEST_CASE("[Min.prop.attained] Min attained property: [Common.broadcast.map] [Common.tensor.index] "
          "Y[i] is bitwise equal to some broadcast input Xm[f(i)]",
          "[min][props]") {
  check("Y[i] is one of Xdot_0[i] .. Xdot_L[i]", [] {
    const MaxCase c = *gen::min_case();
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      const std::uint64_t y = bits_at(Y, o);
      bool found = false;
      for (std::uint64_t x : xs) found = found || x == y;
      PROP_EXPECT(found, "Y at {} = {} equals no input there", to_string(i), describe(c.dtype, y));
    }
    classify(c, seen);
  });
}

TEST_CASE("[Min.float.nan] [Common.order.min] [Common.order.nan] [Common.order.nan-payload] "
          "a NaN among the Xm[i] makes Y[i] the first of them (lowest m), bit for bit",
          "[min][props]") {
  check("Y[i] is the first NaN in m order, payload and signalling bit kept", [] {
    const MaxCase c = *gen::min_case({.values = Values::NaNs});
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    bool two_nans = false, nan_after_number = false;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      const int m = first_nan(c.dtype, xs);
      if (m < 0) continue;
      int nans = 0;
      for (std::uint64_t x : xs) nans += is_nan_bits(c.dtype, x);
      two_nans = two_nans || nans >= 2;
      nan_after_number = nan_after_number || m > 0;
      const std::uint64_t y = bits_at(Y, o);
      PROP_EXPECT(y == xs[m], "Y at {} = {}, expected the first NaN X{} = {}", to_string(i), describe(c.dtype, y), m,
                  describe(c.dtype, xs[m]));
    }
    classify(c, seen);
    RC_CLASSIFY(two_nans, "two NaNs at one index");
    RC_CLASSIFY(nan_after_number, "a NaN after a number");
  });
}

TEST_CASE("[Min.float.zero] [Common.order.min] [Common.order.total] -0 is below +0: Y[i] is -0 when ±0 is the least "
          "value at i",
          "[min][props]") {
  check("-0 and +0 at i, nothing less, no NaN: Y[i] is -0; only +0: +0", [] {
    const MaxCase c = *gen::min_case({.min_inputs = 2, .values = Values::ZerosAbove});
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      bool plus = false, minus = false, below = false;
      for (std::uint64_t x : xs) {
        plus = plus || x == pos_zero_bits(c.dtype);
        minus = minus || x == neg_zero_bits(c.dtype);
        below = below || is_nan_bits(c.dtype, x) || rank_of(c.dtype, x) < -1;  // -0 ranks -1
      }
      if (minus && !below)
        PROP_EXPECT(bits_at(Y, o) == neg_zero_bits(c.dtype), "Y at {} = {}, expected -0", to_string(i),
                    describe(c.dtype, bits_at(Y, o)));
      if (plus && !minus && !below)
        PROP_EXPECT(bits_at(Y, o) == pos_zero_bits(c.dtype), "Y at {} = {}, expected +0 (no -0 there)", to_string(i),
                    describe(c.dtype, bits_at(Y, o)));
    }
    classify(c, seen);
  });
}

TEST_CASE("[Min.shape] [Common.broadcast.rank] [Common.broadcast.dims] [Min.v8] [Min.v1] [Min.v6] "
          "Y has the broadcast shape of the inputs (common shape before version 8) and their type",
          "[min][props]") {
  check("shape of Y = the target the shapes were built from", [] {
    const MaxCase c = *gen::min_case();
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(Y.dtype() == c.dtype);
    RC_ASSERT(Y.shape() == c.output);
    RC_CLASSIFY(element_count(c.output) == 0, "empty output");
    RC_CLASSIFY(c.output.empty(), "rank-0 output");
    RC_TAG(c.inputs.size() == 1 ? "1 input" : c.inputs.size() <= 3 ? "2-3 inputs" : "4-6 inputs");
  });
}

TEST_CASE("[Common.broadcast.map] [Common.order.min] Min of X and a tensor of the greatest value is the broadcast "
          "form of X",
          "[min][props]") {
  check("Min(X, G) and Min(G, X) are both Xdot, G filled with +Inf / the type maximum", [] {
    const int version = *gen::one_of<int>({13, 8, 12});
    const DType t = *gen::dtype_of(spec_min_types(version));
    const gen::BroadcastTuple b = *gen::broadcastable(1, 2);
    const Tensor X = *gen::tensor(t, b.inputs[0]);
    const Tensor G = filled(t, b.target, greatest_bits(t));  // the identity of min_of
    for (bool x_first : {true, false}) {
      const Tensor Y = x_first ? ops::min(version, {&X, &G}) : ops::min(version, {&G, &X});
      RC_ASSERT(Y.shape() == b.target);
      for (std::int64_t o = 0; o < element_count(b.target); ++o) {
        const Index i = unravel(o, b.target);
        const std::uint64_t expected = broadcast_read(X, i, b.target);
        PROP_EXPECT(bits_at(Y, o) == expected, "Y at {} = {}, expected Xdot = X{} = {}", to_string(i),
                    describe(t, bits_at(Y, o)), to_string(broadcast_source(i, X.shape(), b.target)),
                    describe(t, expected));
      }
    }
    RC_CLASSIFY(X.shape() != b.target, "X is broadcast");
    RC_CLASSIFY(element_count(b.target) == 0, "empty");
  });
}

TEST_CASE("[Min.prop.permutation] Min permutation property: permuting the inputs changes Y only in NaN payloads", "[min][props]") {
  check("Min(X_p(0), .., X_p(L)) = Min(X0, .., XL) up to NaN payload", [] {
    const MaxCase c = *gen::min_case({.min_inputs = 2});
    const auto p = *gen::permutation(c.inputs.size());
    std::vector<const Tensor*> permuted;
    for (std::size_t k : p) permuted.push_back(&c.inputs[k]);
    const Tensor Y = ops::min(c.version, c.pointers());
    const Tensor Z = ops::min(c.version, permuted);
    RC_ASSERT(same_up_to_nan_payload(Y, Z));
    RC_CLASSIFY(has_nan(Y), "NaN in Y");
  });
}

TEST_CASE("[Min.prop.unary] Min unary property: Min of one input is that input, bit for bit", "[min][props]") {
  check("Min(X) = X", [] {
    const MaxCase c = *gen::min_case({.max_inputs = 1});
    const Tensor Y = ops::min(c.version, c.pointers());
    RC_ASSERT(same_bits(Y, c.inputs[0]));
    RC_CLASSIFY(has_nan(c.inputs[0]), "NaN present");
    RC_CLASSIFY(c.output.empty(), "rank 0");
  });
}

TEST_CASE("[Min.prop.idempotent] Min idempotent property: Min(X, X) = X and Min(X, X, X) = X, bit for bit", "[min][props]") {
  check("repeating an input does not change it", [] {
    const MaxCase c = *gen::min_case({.max_inputs = 1});
    const Tensor& X = c.inputs[0];
    RC_ASSERT(same_bits(ops::min(c.version, {&X, &X}), X));
    RC_ASSERT(same_bits(ops::min(c.version, {&X, &X, &X}), X));
    RC_CLASSIFY(has_nan(X), "NaN present");
  });
}

TEST_CASE("[Min.v1] [Min.v6] [Min.v8] [Min.v12] [Min.v13] on identical shapes every version that accepts the type "
          "gives the same Y",
          "[min][props]") {
  check("Min-v(X0..XL) is the same for every v whose T contains the dtype", [] {
    const DType t = *gen::dtype_of(spec_min_types(13));
    const gen::BroadcastTuple same = *gen::same_shapes(1, 4);
    const auto p = *gen::pool(t);
    std::vector<Tensor> xs;
    for (const Shape& s : same.inputs) xs.push_back(*gen::tensor_from_pool(t, s, p));
    std::vector<const Tensor*> ptr;
    for (const Tensor& x : xs) ptr.push_back(&x);
    const Tensor Y13 = ops::min(13, ptr);
    int versions = 0;
    for (int v : kMinVersions) {
      if (!contains(spec_min_types(v), t)) continue;
      ++versions;
      RC_ASSERT(same_bits(ops::min(v, ptr), Y13));
    }
    RC_TAG(fmt::format("{} versions accept {}", versions, name(t)));
  });
}

TEST_CASE("[Common.order.min] [Min.float.formula] [Min.int.formula] [Common.order.total] [Common.order.int] "
          "[Common.order.nan] Min of two scalars follows min_of on the bit-pattern ranking",
          "[min][props]") {
  check("Min(a, b) = a if a is NaN; b if b is NaN; b if b < a; a otherwise", [] {
    const DType t = *gen::dtype_of(spec_min_types(13));
    const bool any_bits = *gen::weighted<bool>({{3, false}, {1, true}});
    const auto value = any_bits ? gen::any_bits(t) : gen::element(t);
    const std::uint64_t a = *value, b = *value;
    Tensor A = filled(t, {}, a), B = filled(t, {}, b);
    const std::uint64_t y = bits_at(ops::min(13, {&A, &B}), 0);
    std::uint64_t expected;
    if (is_nan_bits(t, a)) expected = a;
    else if (is_nan_bits(t, b)) expected = b;
    else if (rank_of(t, b) < rank_of(t, a)) expected = b;
    else expected = a;
    PROP_EXPECT(y == expected, "Min({}, {}) = {}, expected {}", describe(t, a), describe(t, b), describe(t, y),
                describe(t, expected));
    RC_CLASSIFY(is_nan_bits(t, a) || is_nan_bits(t, b), "NaN operand");
    RC_CLASSIFY(a == b, "equal operands");
    RC_CLASSIFY(family(t) == Family::Float && ((a == 0 && b == neg_zero_bits(t)) || (b == 0 && a == neg_zero_bits(t))),
                "+0 against -0");
    RC_TAG(std::string(family(t) == Family::Float ? "float" : "int"));
  });
}

}  // namespace sonnx::props::min_props
