// Properties of spec/ops/max.md (and of the common clauses Max rests on: the order, NaN, the
// broadcast map). Every expected value is stated from the spec with the test-side restatements
// of props/gen/spec_facts.hpp: the order as a ranking of bit patterns, NaN by its bit fields,
// Ẋm[i] by the index map f(a, B, C) — never by calling the implementation's order or index code.
#include <fmt/format.h>

#include "gen/props.hpp"
#include "ops/max.hpp"

namespace sonnx::props::max_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// The broadcast forms Ẋ0[i] .. ẊL[i] of the inputs at output index i ([Common.broadcast.map]).
std::vector<std::uint64_t> operands(const MaxCase& c, const Index& i) {
  std::vector<std::uint64_t> xs;
  for (const Tensor& x : c.inputs) xs.push_back(broadcast_read(x, i, c.output));
  return xs;
}

// Tags that show which interesting cases a run met.
struct Seen {
  bool nan = false, signalling = false, zero_tie = false, neg_zero_first = false;
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
    neg_zero_first = neg_zero_first || (first_pos >= 0 && first_neg >= 0 && first_neg < first_pos);
  }
};

void classify(const MaxCase& c, const Seen& s) {
  RC_CLASSIFY(element_count(c.output) == 0, "empty output");
  RC_CLASSIFY(c.output.empty(), "rank-0 output");
  RC_CLASSIFY(s.nan, "NaN present");
  RC_CLASSIFY(s.signalling, "signalling NaN");
  RC_CLASSIFY(s.zero_tie, "-0/+0 at one index");
  RC_CLASSIFY(s.neg_zero_first, "-0 before +0");
  bool shapes_differ = false;
  for (const Tensor& x : c.inputs) shapes_differ = shapes_differ || x.shape() != c.output;
  RC_CLASSIFY(shapes_differ, "broadcasting");
  RC_CLASSIFY(c.inputs.size() == 1, "one input");
}

int first_nan(DType t, const std::vector<std::uint64_t>& xs) {
  for (std::size_t m = 0; m < xs.size(); ++m)
    if (is_nan_bits(t, xs[m])) return static_cast<int>(m);
  return -1;
}

}  // namespace

TEST_CASE("[Max.prop.upper-bound] [Max.float.formula] [Max.int.formula] [Common.order.total] [Common.order.int] "
          "Y[i] is above or equal to every broadcast input at i",
          "[max][props]") {
  check("no NaN at i: rank(Y[i]) >= rank(Xm[i]) for all m", [] {
    const MaxCase c = *gen::max_case();
    const Tensor Y = ops::max(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      if (first_nan(c.dtype, xs) >= 0) continue;  // the NaN case is [Max.float.nan]
      const std::uint64_t y = bits_at(Y, o);
      PROP_EXPECT(!is_nan_bits(c.dtype, y), "Y[{}] = {} is a NaN but no input is", o, describe(c.dtype, y));
      for (std::size_t m = 0; m < xs.size(); ++m)
        PROP_EXPECT(rank_of(c.dtype, y) >= rank_of(c.dtype, xs[m]), "Y at {} = {} is below X{} = {}", to_string(i),
                    describe(c.dtype, y), m, describe(c.dtype, xs[m]));
    }
    classify(c, seen);
  });
}

TEST_CASE("[Max.prop.attained] [Common.broadcast.map] [Common.tensor.index] "
          "Y[i] is bitwise equal to some broadcast input Xm[f(i)]",
          "[max][props]") {
  check("Y[i] is one of Xdot_0[i] .. Xdot_L[i]", [] {
    const MaxCase c = *gen::max_case();
    const Tensor Y = ops::max(c.version, c.pointers());
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

TEST_CASE("[Max.float.nan] [Common.order.nan] [Common.order.nan-payload] "
          "a NaN among the Xm[i] makes Y[i] the first of them (lowest m), bit for bit",
          "[max][props]") {
  check("Y[i] is the first NaN in m order, payload and signalling bit kept", [] {
    const MaxCase c = *gen::max_case({.values = Values::NaNs});
    const Tensor Y = ops::max(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    bool two_nans = false;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      const int m = first_nan(c.dtype, xs);
      if (m < 0) continue;
      int nans = 0;
      for (std::uint64_t x : xs) nans += is_nan_bits(c.dtype, x);
      two_nans = two_nans || nans >= 2;
      const std::uint64_t y = bits_at(Y, o);
      PROP_EXPECT(y == xs[m], "Y at {} = {}, expected the first NaN X{} = {}", to_string(i), describe(c.dtype, y), m,
                  describe(c.dtype, xs[m]));
    }
    classify(c, seen);
    RC_CLASSIFY(two_nans, "two NaNs at one index");
  });
}

TEST_CASE("[Max.float.zero] [Common.order.total] +0 is above -0: Y[i] is +0 when ±0 is the greatest value at i",
          "[max][props]") {
  check("-0 and +0 at i, nothing greater, no NaN: Y[i] is +0", [] {
    const MaxCase c = *gen::max_case({.min_inputs = 2, .values = Values::Zeros});
    const Tensor Y = ops::max(c.version, c.pointers());
    RC_ASSERT(Y.shape() == c.output);
    Seen seen;
    for (std::int64_t o = 0; o < element_count(c.output); ++o) {
      const Index i = unravel(o, c.output);
      const auto xs = operands(c, i);
      seen.at(c.dtype, xs);
      bool plus = false, minus = false, above = false;
      for (std::uint64_t x : xs) {
        plus = plus || x == pos_zero_bits(c.dtype);
        minus = minus || x == neg_zero_bits(c.dtype);
        above = above || is_nan_bits(c.dtype, x) || rank_of(c.dtype, x) > 0;
      }
      if (plus && !above)
        PROP_EXPECT(bits_at(Y, o) == pos_zero_bits(c.dtype), "Y at {} = {}, expected +0", to_string(i),
                    describe(c.dtype, bits_at(Y, o)));
      if (minus && !plus && !above)
        PROP_EXPECT(bits_at(Y, o) == neg_zero_bits(c.dtype), "Y at {} = {}, expected -0 (no +0 there)",
                    to_string(i), describe(c.dtype, bits_at(Y, o)));
    }
    classify(c, seen);
  });
}

TEST_CASE("[Max.shape] [Common.broadcast.rank] [Common.broadcast.dims] [Max.v8] [Max.v1] [Max.v6] "
          "Y has the broadcast shape of the inputs (common shape before version 8)",
          "[max][props]") {
  check("shape of Y = the target the shapes were built from", [] {
    const MaxCase c = *gen::max_case();
    const Tensor Y = ops::max(c.version, c.pointers());
    RC_ASSERT(Y.dtype() == c.dtype);
    RC_ASSERT(Y.shape() == c.output);
    bool zero_vs_one = false;
    for (std::size_t k = 0; k < c.output.size(); ++k) {
      if (c.output[k] != 0) continue;
      for (const Tensor& x : c.inputs) {
        const std::size_t o = c.output.size() - x.shape().size();
        zero_vs_one = zero_vs_one || (k >= o && x.shape()[k - o] == 1);
      }
    }
    RC_CLASSIFY(zero_vs_one, "0 broadcast against 1");
    RC_CLASSIFY(c.output.empty(), "rank-0 output");
    RC_TAG(c.inputs.size() == 1 ? "1 input" : c.inputs.size() <= 3 ? "2-3 inputs" : "4-6 inputs");
  });
}

TEST_CASE("[Common.broadcast.map] [Common.tensor.index] Max of X and a tensor of the least value is the broadcast "
          "form of X",
          "[max][props]") {
  check("Max(X, L) and Max(L, X) are both Xdot, L filled with -Inf / the type minimum", [] {
    const int version = *gen::one_of<int>({13, 8, 12});
    const DType t = *gen::dtype_of(spec_max_types(version));
    const gen::BroadcastTuple b = *gen::broadcastable(1, 2);
    const Tensor X = *gen::tensor(t, b.inputs[0]);
    const Tensor L = filled(t, b.target, empty_reduction_bits(t));  // -Inf, or the minimum of T
    for (bool x_first : {true, false}) {
      const Tensor Y = x_first ? ops::max(version, {&X, &L}) : ops::max(version, {&L, &X});
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
    RC_CLASSIFY(X.shape().size() < b.target.size(), "X padded on the left");
    RC_CLASSIFY(element_count(b.target) == 0, "empty");
  });
}

TEST_CASE("[Max.prop.permutation] permuting the inputs changes Y only in NaN payloads", "[max][props]") {
  check("Max(X_p(0), .., X_p(L)) = Max(X0, .., XL) up to NaN payload", [] {
    const MaxCase c = *gen::max_case({.min_inputs = 2});
    const auto p = *gen::permutation(c.inputs.size());
    std::vector<const Tensor*> permuted;
    for (std::size_t k : p) permuted.push_back(&c.inputs[k]);
    const Tensor Y = ops::max(c.version, c.pointers());
    const Tensor Z = ops::max(c.version, permuted);
    RC_ASSERT(same_up_to_nan_payload(Y, Z));
    bool identity = true;
    for (std::size_t k = 0; k < p.size(); ++k) identity = identity && p[k] == k;
    RC_CLASSIFY(identity, "identity permutation");
    RC_CLASSIFY(has_nan(Y), "NaN in Y");
  });
}

TEST_CASE("[Max.prop.unary] Max of one input is that input, bit for bit", "[max][props]") {
  check("Max(X) = X", [] {
    const MaxCase c = *gen::max_case({.max_inputs = 1});
    const Tensor Y = ops::max(c.version, c.pointers());
    RC_ASSERT(same_bits(Y, c.inputs[0]));
    RC_CLASSIFY(has_nan(c.inputs[0]), "NaN present");
    RC_CLASSIFY(c.output.empty(), "rank 0");
  });
}

TEST_CASE("[Max.prop.idempotent] Max(X, X) = X and Max(X, X, X) = X, bit for bit", "[max][props]") {
  check("repeating an input does not change it", [] {
    const MaxCase c = *gen::max_case({.max_inputs = 1});
    const Tensor& X = c.inputs[0];
    RC_ASSERT(same_bits(ops::max(c.version, {&X, &X}), X));
    RC_ASSERT(same_bits(ops::max(c.version, {&X, &X, &X}), X));
    RC_CLASSIFY(has_nan(X), "NaN present");
  });
}

TEST_CASE("[Max.v1] [Max.v6] [Max.v8] [Max.v12] [Max.v13] on identical shapes every version that accepts the type "
          "gives the same Y",
          "[max][props]") {
  check("Max-v(X0..XL) is the same for every v whose T contains the dtype", [] {
    const DType t = *gen::dtype_of(spec_max_types(13));
    const gen::BroadcastTuple same = *gen::same_shapes(1, 4);
    const auto p = *gen::pool(t);
    std::vector<Tensor> xs;
    for (const Shape& s : same.inputs) xs.push_back(*gen::tensor_from_pool(t, s, p));
    std::vector<const Tensor*> ptr;
    for (const Tensor& x : xs) ptr.push_back(&x);
    const Tensor Y13 = ops::max(13, ptr);
    int versions = 0;
    for (int v : kMaxVersions) {
      if (!contains(spec_max_types(v), t)) continue;
      ++versions;
      RC_ASSERT(same_bits(ops::max(v, ptr), Y13));
    }
    RC_TAG(fmt::format("{} versions accept {}", versions, name(t)));
  });
}

TEST_CASE("[Common.order.max] [Common.order.total] [Common.order.int] [Common.order.nan] [Common.dtype.float16] "
          "[Common.dtype.bfloat16] [Common.dtype.float] [Common.dtype.int] "
          "Max of two scalars follows max_of on the bit-pattern ranking",
          "[max][props]") {
  check("Max(a, b) = a if a is NaN; b if b is NaN; b if a < b; a otherwise", [] {
    const DType t = *gen::dtype_of(spec_max_types(13));
    const bool any_bits = *gen::weighted<bool>({{3, false}, {1, true}});
    const auto value = any_bits ? gen::any_bits(t) : gen::element(t);
    const std::uint64_t a = *value, b = *value;
    Tensor A = filled(t, {}, a), B = filled(t, {}, b);
    const std::uint64_t y = bits_at(ops::max(13, {&A, &B}), 0);
    std::uint64_t expected;
    if (is_nan_bits(t, a)) expected = a;
    else if (is_nan_bits(t, b)) expected = b;
    else if (rank_of(t, a) < rank_of(t, b)) expected = b;
    else expected = a;
    PROP_EXPECT(y == expected, "Max({}, {}) = {}, expected {}", describe(t, a), describe(t, b), describe(t, y),
                describe(t, expected));
    const bool subnormal = family(t) == Family::Float &&
                           (((a & float_layout(t).exp_mask()) == 0 && (a & float_layout(t).frac_mask()) != 0) ||
                            ((b & float_layout(t).exp_mask()) == 0 && (b & float_layout(t).frac_mask()) != 0));
    RC_CLASSIFY(subnormal, "subnormal operand");
    RC_CLASSIFY(is_nan_bits(t, a) || is_nan_bits(t, b), "NaN operand");
    RC_CLASSIFY(a == b, "equal operands");
    RC_TAG(std::string(family(t) == Family::Float ? "float" : "int"));
  });
}

}  // namespace sonnx::props::max_props
