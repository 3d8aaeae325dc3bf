// Properties of spec/ops/cast.md, spec/ops/constantofshape.md and spec/ops/shape.md, each against a
// restatement from the bit patterns (spec_facts.hpp): the low bits of an integer, zero or not, the
// rank of the total order, the dimensions of a shape — never the implementation's conversion.
#include <fmt/format.h>

#include "gen/props.hpp"
#include "ops/cast.hpp"
#include "ops/constantofshape.hpp"
#include "ops/shape.hpp"

namespace sonnx::props::cast_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

const std::vector<DType> kFloats = {DType::Float16, DType::BFloat16, DType::Float, DType::Double};
const std::vector<DType> kIntegers = {DType::Int8,  DType::Int16,  DType::Int32,  DType::Int64,
                                      DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64};

// The formats whose every value is a value of the wider one ([Cast.prop.widen-narrow]).
struct Pair {
  DType narrow, wide;
};
const std::vector<Pair> kWidening = {{DType::Float16, DType::Float},  {DType::Float16, DType::Double},
                                     {DType::BFloat16, DType::Float}, {DType::BFloat16, DType::Double},
                                     {DType::Float, DType::Double}};

}  // namespace

TEST_CASE("[Cast.prop.widen-narrow] [Cast.float.float] [Cast.float.nan] widening then narrowing back gives X, a NaN "
          "quieted with its sign",
          "[cast][props]") {
  check("cast(cast(X, wide), narrow) = X bit for bit; NaN: a NaN of the same sign", [] {
    const Pair p = *gen::one_of(kWidening);
    const Tensor X = *gen::tensor(p.narrow, *gen::shape());
    const Tensor Y = ops::cast(13, ops::cast(13, X, p.wide), p.narrow);
    RC_ASSERT(Y.shape() == X.shape());
    const FloatLayout f = float_layout(p.narrow);
    for (std::int64_t k = 0; k < element_count(X.shape()); ++k) {
      const std::uint64_t x = bits_at(X, k), y = bits_at(Y, k);
      if (is_nan_bits(p.narrow, x))
        PROP_EXPECT(is_nan_bits(p.narrow, y) && (y & f.sign_mask()) == (x & f.sign_mask()) && (y & f.quiet_bit()),
                    "NaN {} came back as {}", describe(p.narrow, x), describe(p.narrow, y));
      else
        PROP_EXPECT(x == y, "{} came back as {}", describe(p.narrow, x), describe(p.narrow, y));
    }
  });
}

TEST_CASE("[Cast.prop.monotone] [Cast.float.float] narrowing is monotone in the total order, signed zeros kept",
          "[cast][props]") {
  check("rank(a) <= rank(b) implies rank(conv(a)) <= rank(conv(b)), non-NaN", [] {
    const DType from = *gen::one_of(std::vector<DType>{DType::Float, DType::Double});
    const DType to = *gen::one_of(std::vector<DType>{DType::Float16, DType::BFloat16});
    const Tensor X = *gen::tensor_without_nan(from, Shape{2});
    const Tensor Y = ops::cast(13, X, to);
    const std::uint64_t a = bits_at(X, 0), b = bits_at(X, 1), ya = bits_at(Y, 0), yb = bits_at(Y, 1);
    if (rank_of(from, a) <= rank_of(from, b))
      PROP_EXPECT(rank_of(to, ya) <= rank_of(to, yb), "{} <= {} but {} > {}", describe(from, a), describe(from, b),
                  describe(to, ya), describe(to, yb));
    // a zero keeps its sign ([Cast.float.float])
    for (int k = 0; k < 2; ++k)
      if ((bits_at(X, k) & ~float_layout(from).sign_mask()) == 0)
        PROP_EXPECT(bits_at(Y, k) == (bits_at(X, k) ? float_layout(to).sign_mask() : 0), "zero {} gave {}",
                    describe(from, bits_at(X, k)), describe(to, bits_at(Y, k)));
  });
}

TEST_CASE("[Cast.int.int] integer to a narrower or equal integer keeps the low bits", "[cast][props]") {
  check("bits(Y[i]) = bits(X[i]) mod 2^n", [] {
    const DType from = *gen::one_of(kIntegers);
    std::vector<DType> narrower;
    for (DType t : kIntegers)
      if (width_bits(t) <= width_bits(from)) narrower.push_back(t);
    const DType to = *gen::one_of(narrower);
    const Tensor X = *gen::tensor(from, *gen::shape());
    const Tensor Y = ops::cast(6, X, to);
    const std::uint64_t mask = width_bits(to) == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width_bits(to)) - 1;
    for (std::int64_t k = 0; k < element_count(X.shape()); ++k)
      PROP_EXPECT(bits_at(Y, k) == (bits_at(X, k) & mask), "{} -> {}", describe(from, bits_at(X, k)),
                  describe(to, bits_at(Y, k)));
  });
}

TEST_CASE("[Cast.to-bool] [Cast.from-bool] zero or not, bool to any type gives 0 or 1", "[cast][props]") {
  check("Y[i] = (X[i] is not a zero); cast(cast(B, T), bool) = B", [] {
    std::vector<DType> all = kIntegers;
    all.insert(all.end(), kFloats.begin(), kFloats.end());
    const DType from = *gen::one_of(all);
    const Tensor X = *gen::tensor(from, *gen::shape());
    const Tensor Y = ops::cast(13, X, DType::Bool);
    const std::uint64_t magnitude = family(from) == Family::Float ? ~float_layout(from).sign_mask() : ~std::uint64_t{0};
    for (std::int64_t k = 0; k < element_count(X.shape()); ++k)
      PROP_EXPECT(bits_at(Y, k) == ((bits_at(X, k) & magnitude) != 0 ? 1u : 0u), "{} -> {}", describe(from, bits_at(X, k)),
                  bits_at(Y, k));
    const Tensor B = *gen::tensor(DType::Bool, *gen::shape());
    const Tensor T = ops::cast(13, B, from);
    for (std::int64_t k = 0; k < element_count(B.shape()); ++k)
      PROP_EXPECT(bits_at(T, k) == (bits_at(B, k) ? one_bits(from) : 0), "bool {} -> {}", bits_at(B, k),
                  describe(from, bits_at(T, k)));
  });
}

TEST_CASE("[ConstantOfShape.formula] [ConstantOfShape.shape] every element of Y is value, Y's shape is the input",
          "[constantofshape][props]") {
  check("shape(Y) = S and bits(Y[i]) = bits(value)", [] {
    const Shape s = *gen::shape();
    const DType t = *gen::one_of(std::vector<DType>{DType::Float, DType::Float16, DType::BFloat16, DType::Int8,
                                                        DType::Uint64, DType::Bool, DType::Double});
    const Tensor value = *gen::tensor(t, Shape{1});
    const Tensor S = make_tensor<std::int64_t>({static_cast<std::int64_t>(s.size())}, s);
    const Tensor Y = ops::constantofshape(21, S, &value);
    RC_ASSERT(Y.shape() == s);
    for (std::int64_t k = 0; k < element_count(s); ++k) PROP_EXPECT(bits_at(Y, k) == bits_at(value, 0), "Y[{}]", k);
  });
}

TEST_CASE("[Shape.formula] [Shape.range] Y lists the dimensions from f to l, with negative and clamped bounds",
          "[shape][props]") {
  check("Y = dims[clamp(s), max(clamp(s), clamp(e))) as Python's slice of the shape", [] {
    const Shape s = *gen::shape();
    const auto r = static_cast<std::int64_t>(s.size());
    const std::int64_t start = *rc::gen::inRange<std::int64_t>(-r - 3, r + 4);
    const std::int64_t end = *rc::gen::inRange<std::int64_t>(-r - 3, r + 4);
    const Tensor Y = ops::shape(15, Tensor(DType::Uint8, s), ops::ShapeParams{start, end});
    // the restatement: a python-like slice, computed by stepping through the positions one by one
    std::vector<std::int64_t> want;
    for (std::int64_t j = 0; j < r; ++j)
      if ((start < 0 ? j - r >= start : j >= start) && (end < 0 ? j - r < end : j < end)) want.push_back(s[j]);
    RC_ASSERT(Y.shape() == Shape{static_cast<std::int64_t>(want.size())});
    for (std::size_t k = 0; k < want.size(); ++k) PROP_EXPECT(Y.values<std::int64_t>()[k] == want[k], "Y[{}]", k);
  });
}

}  // namespace sonnx::props::cast_props
