// Properties of spec/ops/clip.md. The bounds lo and hi of a case are restated from step 1
// (ClipCase::lo / hi in gen/cases.cpp: the attribute conversion of [Clip.bounds.convert] by exact
// values and a search over the float16 patterns, the defaults of [Clip.bounds.default] from the bit
// layouts); Y[i] is restated from step 2 in its case form — the first NaN of X[i], lo, hi; else hi
// for crossed bounds; else lo below, hi above, X[i] between — on the bit-pattern ranking, never
// through the implementation's max_of / min_of. Clip as Min(Max(X, lo), hi) and as Relu then the
// upper bound are properties of their own ([Clip.prop.min-max], [Clip.prop.relu], family_props.cpp).
#include <cmath>
#include <cstring>

#include "gen/props.hpp"
#include "ops/clip.hpp"

namespace sonnx::props::clip_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// [Clip.float.nan] [Clip.bounds.crossed] [Clip.float.formula] [Clip.int.formula] [Clip.float.zero]
std::uint64_t expected(DType t, std::uint64_t x, std::uint64_t lo, std::uint64_t hi) {
  for (std::uint64_t v : {x, lo, hi})  // the first NaN of X[i], lo, hi
    if (is_nan_bits(t, v)) return v;
  if (rank_of(t, hi) < rank_of(t, lo)) return hi;  // crossed
  if (rank_of(t, x) < rank_of(t, lo)) return lo;
  if (rank_of(t, hi) < rank_of(t, x)) return hi;
  return x;
}

void classify(const ClipCase& c) {
  const DType t = c.X.dtype();
  const std::uint64_t lo = c.lo(), hi = c.hi();
  const bool nan_bound = is_nan_bits(t, lo) || is_nan_bits(t, hi);
  RC_CLASSIFY(nan_bound, "NaN bound");
  RC_CLASSIFY(has_nan(c.X), "NaN in X");
  RC_CLASSIFY(!nan_bound && rank_of(t, hi) < rank_of(t, lo), "crossed bounds");
  bool below = false, above = false, zero_tie = false;
  for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
    const std::uint64_t x = bits_at(c.X, k);
    if (nan_bound || is_nan_bits(t, x)) continue;
    below = below || rank_of(t, x) < rank_of(t, lo);
    above = above || rank_of(t, hi) < rank_of(t, x);
    if (family(t) == Family::Float) {
      const std::uint64_t sign = float_layout(t).sign_mask();
      zero_tie = zero_tie || ((x & ~sign) == 0 && (((lo & ~sign) == 0 && lo != x) || ((hi & ~sign) == 0 && hi != x)));
    }
  }
  RC_CLASSIFY(below, "an element below lo");
  RC_CLASSIFY(above, "an element above hi");
  RC_CLASSIFY(zero_tie, "a zero against a zero bound of the other sign");
  RC_CLASSIFY(c.version < 11 ? !c.min_attribute || !c.max_attribute : !c.min_input || !c.max_input, "a bound absent");
  RC_TAG(fmt::format("Clip-{}", c.version));
}

Tensor run(const ClipCase& c) { return ops::clip(c.version, c.X, c.bounds()); }

std::uint32_t f32_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

TEST_CASE("[Clip.float.formula] [Clip.int.formula] [Clip.float.nan] [Clip.float.zero] [Clip.bounds.crossed] "
          "[Common.order.max] [Common.order.min] Y[i] is the first NaN of X[i], lo, hi, else hi for crossed bounds, "
          "else lo below lo, hi above hi, X[i] between",
          "[clip][props]") {
  check("every version and type, bounds given, absent, NaN, crossed", [] {
    const ClipCase c = *gen::clip_case();
    const Tensor Y = run(c);
    RC_ASSERT(Y.shape() == c.X.shape());
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), e = expected(t, x, c.lo(), c.hi());
      PROP_EXPECT(bits_at(Y, k) == e, "Clip({}) = {}, expected {}", describe(t, x), describe(t, bits_at(Y, k)),
                  describe(t, e));
    }
    classify(c);
  });
}

TEST_CASE("[Clip.float.nan] [Common.order.nan-payload] a NaN of X wins over NaN bounds, a NaN lo over a NaN hi, bit "
          "for bit",
          "[clip][props]") {
  check("NaN-rich X and bounds: Y[i] is the first NaN of X[i], lo, hi", [] {
    const ClipCase c = *gen::clip_case({.values = Values::NaNs});
    const Tensor Y = run(c);
    const DType t = c.X.dtype();
    bool x_and_bound = false, both_bounds = false;
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), e = expected(t, x, c.lo(), c.hi());
      x_and_bound = x_and_bound || (is_nan_bits(t, x) && (is_nan_bits(t, c.lo()) || is_nan_bits(t, c.hi())));
      PROP_EXPECT(bits_at(Y, k) == e, "Clip({}) = {}, expected {}", describe(t, x), describe(t, bits_at(Y, k)),
                  describe(t, e));
    }
    both_bounds = is_nan_bits(t, c.lo()) && is_nan_bits(t, c.hi());
    RC_CLASSIFY(x_and_bound, "NaN in X and in a bound");
    RC_CLASSIFY(both_bounds, "both bounds NaN");
    classify(c);
  });
}

TEST_CASE("[Clip.float.zero] [Common.order.total] -0 is below +0 for both bounds: Clip(-0, lo = +0) = +0, Clip(+0, hi "
          "= -0) = -0",
          "[clip][props]") {
  check("X and bounds of ±0 and neighbours: the table of [Clip.float.zero]", [] {
    const ClipCase c = *gen::clip_case({.versions = {11, 12, 13}, .values = Values::Zeros});
    const Tensor Y = run(c);
    const DType t = c.X.dtype();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), e = expected(t, x, c.lo(), c.hi());
      PROP_EXPECT(bits_at(Y, k) == e, "Clip({}) = {}, expected {}", describe(t, x), describe(t, bits_at(Y, k)),
                  describe(t, e));
    }
    classify(c);
  });
  check("the rows of the table, scalar by scalar", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const std::uint64_t p = pos_zero_bits(t), n = neg_zero_bits(t);
    struct Row {
      std::uint64_t x, lo, hi, y;
    };
    const std::uint64_t one = one_bits(t), minus = one_bits(t) | float_layout(t).sign_mask();
    const std::vector<Row> rows = {{n, p, p, p},   {n, p, one, p}, {p, n, n, n},   {p, minus, n, n}, {n, n, p, n},
                                   {p, n, p, p},   {one, p, p, p}, {minus, n, n, n}, {one, p, n, n}, {minus, p, n, n},
                                   {n, p, n, n},   {p, p, n, n}};
    const Row r = *gen::one_of(rows);
    const Tensor X = filled(t, {}, r.x), LO = filled(t, {}, r.lo), HI = filled(t, {}, r.hi);
    ops::ClipBounds b;
    b.min_input = &LO, b.max_input = &HI;
    const std::uint64_t y = bits_at(ops::clip(13, X, b), 0);
    PROP_EXPECT(y == r.y, "Clip({}, {}, {}) = {}, expected {}", describe(t, r.x), describe(t, r.lo), describe(t, r.hi),
                describe(t, y), describe(t, r.y));
  });
}

TEST_CASE("[Clip.bounds.crossed] hi below lo (neither NaN): every non-NaN X[i] gives hi, a NaN X[i] itself",
          "[clip][props]") {
  check("crossed bounds: Y[i] = hi unless X[i] is a NaN", [] {
    const int v = *gen::one_of<int>({11, 12, 13});
    const DType t = *gen::dtype_of(spec_clip_types(v));
    const Tensor X = *gen::tensor(t, *gen::shape());
    const std::uint64_t a = *gen::non_nan_element(t), b = *gen::non_nan_element(t);
    RC_PRE(a != b);
    const bool a_lower = rank_of(t, a) < rank_of(t, b);
    const Tensor LO = filled(t, {}, a_lower ? b : a), HI = filled(t, {}, a_lower ? a : b);  // hi < lo
    ops::ClipBounds bounds;
    bounds.min_input = &LO, bounds.max_input = &HI;
    const Tensor Y = ops::clip(v, X, bounds);
    for (std::int64_t k = 0; k < element_count(X.shape()); ++k) {
      const std::uint64_t x = bits_at(X, k);
      const std::uint64_t e = is_nan_bits(t, x) ? x : bits_at(HI, 0);
      PROP_EXPECT(bits_at(Y, k) == e, "Clip({}) = {}, expected {}", describe(t, x), describe(t, bits_at(Y, k)),
                  describe(t, e));
    }
    RC_CLASSIFY(family(t) == Family::Float && bits_at(LO, 0) == 0 && bits_at(HI, 0) == neg_zero_bits(t),
                "lo = +0, hi = -0");
  });
}

TEST_CASE("[Clip.bounds.default] [Clip.bounds.inputs] [Clip.bounds.attributes] [Clip.v1] [Clip.v6] [Clip.v11] an "
          "absent bound is the least / greatest finite value of T (versions 11+), the binary32 lowest / max converted "
          "to T (versions 1 and 6)",
          "[clip][props]") {
  check("Clip with a bound absent = Clip with that bound given as its default", [] {
    const ClipCase c = *gen::clip_case();
    const DType t = c.X.dtype();
    ClipCase given = c;
    if (c.version >= 11) {
      if (!given.min_input) given.min_input = filled(t, {}, least_finite_bits(t));
      if (!given.max_input) given.max_input = filled(t, {}, greatest_finite_bits(t));
    } else {
      if (!given.min_attribute) given.min_attribute = 0xFF7FFFFFu;
      if (!given.max_attribute) given.max_attribute = 0x7F7FFFFFu;
    }
    RC_ASSERT(same_bits(run(c), run(given)));
    classify(c);
  });
  check("the defaults themselves: X = [-Inf, +Inf] with no bound", [] {
    const int v = *gen::one_of(kClipVersions);
    const DType t = *gen::dtype_of(gen::usable(spec_clip_types(v), Values::Zeros));  // float types
    Tensor X = filled(t, {2}, neg_inf_bits(t));
    set_bits_at(X, 1, pos_inf_bits(t));
    const Tensor Y = ops::clip(v, X, {});
    std::uint64_t lo, hi;
    if (v >= 11) {
      lo = least_finite_bits(t), hi = greatest_finite_bits(t);  // item 1: numeric_limits<T>::lowest(), max()
    } else if (t == DType::Float16) {
      lo = neg_inf_bits(t), hi = pos_inf_bits(t);  // item 2: +-3.4e38 rounds to +-Inf
    } else if (t == DType::Double) {
      lo = 0xC7EFFFFFE0000000ull, hi = 0x47EFFFFFE0000000ull;  // item 2's table
    } else {
      lo = 0xFF7FFFFFull, hi = 0x7F7FFFFFull;
    }
    PROP_EXPECT(bits_at(Y, 0) == lo, "Clip-{}({}) = {}, expected {}", v, describe(t, neg_inf_bits(t)),
                describe(t, bits_at(Y, 0)), describe(t, lo));
    PROP_EXPECT(bits_at(Y, 1) == hi, "Clip-{}({}) = {}, expected {}", v, describe(t, pos_inf_bits(t)),
                describe(t, bits_at(Y, 1)), describe(t, hi));
    RC_TAG(fmt::format("Clip-{} {}", v, name(t)));
  });
}

TEST_CASE("[Clip.bounds.convert] [Clip.bounds.attributes] [Common.dtype.float16] a float attribute of Clip-1 / Clip-6 "
          "becomes T's value: itself for float, the same value for double, rounded to nearest even for float16",
          "[clip][props]") {
  check("Clip-v(X = [-Inf], min = a, max = +Inf) = [convert(a)], and the same for max with X = [+Inf]", [] {
    const int v = *gen::one_of<int>({1, 6});
    const DType t = *gen::dtype_of(spec_clip_types(v));
    // binary32 patterns: edge-biased, uniform, and near float16 ties (low 13 bits around 0x1000).
    const int kind = *gen::index(0, 3);
    std::uint32_t a;
    if (kind == 0) a = static_cast<std::uint32_t>(*gen::element(DType::Float));
    else if (kind == 1) a = static_cast<std::uint32_t>(*gen::any_bits(DType::Float));
    else
      a = (static_cast<std::uint32_t>(*gen::any_bits(DType::Float)) & ~0x1FFFu) |
          *gen::one_of<std::uint32_t>({0x1000u, 0x0FFFu, 0x1001u, 0u, 1u, 0x1FFFu});
    const bool lower = *gen::flag();
    const Tensor X = filled(t, {1}, lower ? neg_inf_bits(t) : pos_inf_bits(t));
    ops::ClipBounds b;
    float f;
    std::memcpy(&f, &a, sizeof f);
    const float inf = lower ? HUGE_VALF : -HUGE_VALF;  // the other bound out of the way
    b.min_attribute = lower ? f : inf;
    b.max_attribute = lower ? inf : f;
    const std::uint64_t y = bits_at(ops::clip(v, X, b), 0);
    const std::uint64_t e = spec_convert_float_attribute(a, t);
    PROP_EXPECT(y == e, "{} = {} as {}: {}, expected {}", lower ? "min" : "max", describe(DType::Float, a), name(t),
                describe(t, y), describe(t, e));
    RC_CLASSIFY(is_nan_bits(DType::Float, a), "NaN attribute");
    RC_CLASSIFY(t == DType::Float16 && !is_nan_bits(DType::Float, a) && (a & 0x7FFFFFFFu) >= f32_bits(65520.0f),
                "float16 overflow to Inf");
    RC_CLASSIFY(t == DType::Float16 && (a & 0x7FFFFFFFu) < f32_bits(std::ldexp(1.0f, -14)), "float16 subnormal range");
    RC_TAG(std::string(name(t)));
  });
  check("the worked examples of the clause (float16, double)", [] {
    struct Row {
      float a;
      DType t;
      std::uint64_t bits;
    };
    const std::vector<Row> rows = {{65519.0f, DType::Float16, 0x7BFF}, {65520.0f, DType::Float16, 0x7C00},
                                   {-65520.0f, DType::Float16, 0xFC00}, {0.1f, DType::Float16, 0x2E66},
                                   {1e-8f, DType::Float16, 0x0000},     {-1e-8f, DType::Float16, 0x8000},
                                   {3e-8f, DType::Float16, 0x0001},     {std::ldexp(1.0f, -25), DType::Float16, 0x0000},
                                   {1e-7f, DType::Float16, 0x0002},     {0.1f, DType::Double, 0x3FB99999A0000000ull},
                                   {3.4028234663852886e38f, DType::Float16, 0x7C00},
                                   {3.4028234663852886e38f, DType::Double, 0x47EFFFFFE0000000ull}};
    const Row r = *gen::one_of(rows);
    RC_ASSERT(spec_convert_float_attribute(f32_bits(r.a), r.t) == r.bits);  // the restatement against the clause's table
    const Tensor X = filled(r.t, {1}, neg_inf_bits(r.t));
    ops::ClipBounds b;
    b.min_attribute = r.a;
    b.max_attribute = HUGE_VALF;
    const std::uint64_t y = bits_at(ops::clip(6, X, b), 0);
    PROP_EXPECT(y == r.bits, "min = {} as {}: {}, expected {}", r.a, name(r.t), describe(r.t, y), describe(r.t, r.bits));
  });
}

TEST_CASE("[Clip.shape] [Common.tensor.empty] Y has X's shape and type, rank 0 and empty included", "[clip][props]") {
  check("shape and dtype of Y are those of X", [] {
    const ClipCase c = *gen::clip_case();
    const Tensor Y = run(c);
    RC_ASSERT(Y.shape() == c.X.shape());
    RC_ASSERT(Y.dtype() == c.X.dtype());
    RC_CLASSIFY(element_count(c.X.shape()) == 0, "empty");
    RC_CLASSIFY(c.X.rank() == 0, "rank 0");
  });
}

TEST_CASE("[Clip.prop.bounded] Y lies between lo and hi, is X[i] where X[i] does, hi for crossed bounds, and always one "
          "of X[i], lo, hi",
          "[clip][props]") {
  check("no NaN among X[i], lo, hi: lo <= Y[i] <= hi (lo <= hi), Y[i] = hi (hi < lo); Y[i] in {X[i], lo, hi}", [] {
    const ClipCase c = *gen::clip_case();
    const Tensor Y = run(c);
    const DType t = c.X.dtype();
    const std::uint64_t lo = c.lo(), hi = c.hi();
    for (std::int64_t k = 0; k < element_count(c.X.shape()); ++k) {
      const std::uint64_t x = bits_at(c.X, k), y = bits_at(Y, k);
      PROP_EXPECT(y == x || y == lo || y == hi, "Clip({}) = {}: none of X[i], lo, hi", describe(t, x), describe(t, y));
      if (is_nan_bits(t, x) || is_nan_bits(t, lo) || is_nan_bits(t, hi)) continue;
      if (rank_of(t, lo) <= rank_of(t, hi)) {
        PROP_EXPECT(rank_of(t, lo) <= rank_of(t, y) && rank_of(t, y) <= rank_of(t, hi), "Clip({}) = {} outside [lo, hi]",
                    describe(t, x), describe(t, y));
        if (rank_of(t, lo) <= rank_of(t, x) && rank_of(t, x) <= rank_of(t, hi))
          PROP_EXPECT(y == x, "Clip({}) = {}: X[i] is within the bounds", describe(t, x), describe(t, y));
      } else {
        PROP_EXPECT(y == hi, "Clip({}) = {}, crossed bounds give hi = {}", describe(t, x), describe(t, y), describe(t, hi));
      }
    }
    classify(c);
  });
}

TEST_CASE("[Clip.prop.idempotent] Clip(Clip(X, lo, hi), lo, hi) = Clip(X, lo, hi), bit for bit, NaN and crossed bounds "
          "included",
          "[clip][props]") {
  check("applying Clip twice with the same bounds changes nothing", [] {
    const ClipCase c = *gen::clip_case({.values = *gen::one_of<Values>({Values::Edge, Values::NaNs})});
    const Tensor Y = run(c);
    ClipCase again = c;
    again.X = Y;
    RC_ASSERT(same_bits(run(again), Y));
    classify(c);
  });
}

TEST_CASE("[Clip.v11] [Clip.v12] [Clip.v13] [Clip.v1] [Clip.v6] the versions differ only in types and in where the "
          "bounds come from",
          "[clip][props]") {
  check("versions 11, 12, 13 give the same Y for the same bound inputs", [] {
    const ClipCase c = *gen::clip_case({.versions = {13}});
    const Tensor Y13 = run(c);
    int versions = 0;
    for (int v : {11, 12}) {
      if (!contains(spec_clip_types(v), c.X.dtype())) continue;
      ++versions;
      ClipCase other = c;
      other.version = v;
      RC_ASSERT(same_bits(run(other), Y13));
    }
    RC_TAG(fmt::format("{} other versions accept {}", versions, name(c.X.dtype())));
  });
  check("versions 1 and 6 agree, and equal version 11 given the converted bounds as inputs", [] {
    const ClipCase c = *gen::clip_case({.versions = {6}});
    const Tensor Y6 = run(c);
    ClipCase one = c;
    one.version = 1;
    RC_ASSERT(same_bits(run(one), Y6));
    ClipCase eleven = c;
    eleven.version = 11;
    eleven.min_attribute.reset(), eleven.max_attribute.reset();
    eleven.min_input = filled(c.X.dtype(), {}, c.lo());
    eleven.max_input = filled(c.X.dtype(), {}, c.hi());
    RC_ASSERT(same_bits(run(eleven), Y6));
  });
}

}  // namespace sonnx::props::clip_props
