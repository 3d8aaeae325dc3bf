// Properties of spec/ops/reducemin.md. The reduced set R(j) is enumerated here from its definition
// (the input indices that agree with j on the kept axes, in row-major order), independently of the
// implementation's index walker; the min order is the bit-pattern ranking of spec_facts.hpp read
// backwards. ReduceMin as the dual of ReduceMax is its own property (ReduceMin.prop.dual,
// family_props.cpp); nothing here calls ReduceMax.
#include <algorithm>

#include "gen/props.hpp"
#include "ops/min.hpp"
#include "ops/reducemin.hpp"

namespace sonnx::props::reducemin_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// [ReduceMin.shape] The shape of Y: reduced axes become 1 (keepdims = 1) or are removed.
Shape expected_shape(const Shape& in, const std::vector<bool>& reduced, std::int64_t keepdims) {
  Shape out;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k]) out.push_back(in[k]);
    else if (keepdims == 1) out.push_back(1);
  }
  return out;
}

// R(j) for every output offset j, elements in row-major order of the input ([ReduceMin.float.formula]):
// input index i belongs to R(j) for j = i with its reduced coordinates set to 0, read in the
// keepdims = 1 shape (whose row-major order is Y's for either keepdims).
std::vector<std::vector<std::uint64_t>> reduced_sets(const Tensor& X, const std::vector<bool>& reduced) {
  Shape kept = X.shape();
  for (std::size_t k = 0; k < kept.size(); ++k)
    if (reduced[k]) kept[k] = 1;
  bool kept_empty = false;
  for (std::size_t k = 0; k < kept.size(); ++k) kept_empty = kept_empty || (!reduced[k] && X.shape()[k] == 0);
  std::vector<std::vector<std::uint64_t>> R(kept_empty ? 0 : static_cast<std::size_t>(element_count(kept)));
  for (std::int64_t o = 0; o < element_count(X.shape()); ++o) {
    Index i = unravel(o, X.shape());
    for (std::size_t k = 0; k < i.size(); ++k)
      if (reduced[k]) i[k] = 0;
    R[static_cast<std::size_t>(ravel(i, kept))].push_back(bits_at(X, o));
  }
  return R;
}

struct Run {
  ReduceMaxCase c;
  std::vector<bool> reduced;
  Tensor Y;
  std::vector<std::vector<std::uint64_t>> R;
};

// Evaluates a case that is not the noop identity; checks the shape of Y on the way.
Run run(const ReduceMaxCase& c) {
  Run r{c, *c.reduced(), ops::reduce_min(c.version, c.data, c.params()), {}};
  RC_ASSERT(r.Y.dtype() == c.data.dtype());
  RC_ASSERT(r.Y.shape() == expected_shape(c.data.shape(), r.reduced, c.keepdims));
  r.R = reduced_sets(c.data, r.reduced);
  RC_ASSERT(static_cast<std::int64_t>(r.R.size()) == element_count(r.Y.shape()));
  return r;
}

rc::Gen<ReduceMaxCase> evaluated_case(gen::ReduceMaxOpts opts = {}) {
  opts.allow_noop = false;
  return gen::reducemin_case(opts);
}

void classify(const Run& r) {
  const DType t = r.c.data.dtype();
  bool nan = false, zero_tie = false, empty_set = false, several = false;
  for (const auto& set : r.R) {
    bool pz = false, nz = false;
    for (std::uint64_t x : set) {
      nan = nan || is_nan_bits(t, x);
      pz = pz || (family(t) == Family::Float && x == pos_zero_bits(t));
      nz = nz || (family(t) == Family::Float && x == neg_zero_bits(t));
    }
    zero_tie = zero_tie || (pz && nz);
    empty_set = empty_set || set.empty();
    several = several || set.size() > 1;
  }
  RC_CLASSIFY(nan, "NaN in a reduced set");
  RC_CLASSIFY(zero_tie, "-0 and +0 in one reduced set");
  RC_CLASSIFY(empty_set, "empty reduced set");
  RC_CLASSIFY(r.c.data.rank() == 0, "rank 0");
  RC_CLASSIFY(!r.c.axes, "axes absent");
  RC_CLASSIFY(several, "a reduced set of 2 or more");
}

bool any_nan(DType t, const std::vector<std::uint64_t>& set) {
  return std::any_of(set.begin(), set.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); });
}

}  // namespace

TEST_CASE("[ReduceMin.prop.lower-bound] ReduceMin lower-bound property: [ReduceMin.float.formula] [ReduceMin.int.formula] [ReduceMin.bool.formula] "
          "[Common.order.min] [Common.order.total] [Common.order.int] Y[j] is below or equal to every element of R(j)",
          "[reducemin][props]") {
  check("no NaN in R(j): rank(Y[j]) <= rank(x) for x in R(j)", [] {
    const Run r = run(*evaluated_case());
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (any_nan(t, r.R[j])) continue;
      PROP_EXPECT(!is_nan_bits(t, y), "Y[{}] = {} is a NaN, R(j) holds none", j, describe(t, y));
      for (std::uint64_t x : r.R[j])
        PROP_EXPECT(rank_of(t, y) <= rank_of(t, x), "Y[{}] = {} is above {} of R(j)", j, describe(t, y), describe(t, x));
    }
    classify(r);
    RC_TAG(std::string(name(t)));
  });
}

TEST_CASE("[ReduceMin.prop.attained] ReduceMin attained property: [ReduceMin.float.formula] [ReduceMin.int.formula] "
          "Y[j] is bitwise equal to an element of R(j), or the greatest element of T when R(j) is empty",
          "[reducemin][props]") {
  check("R(j) not empty: Y[j] in R(j); R(j) empty: Y[j] is the greatest element of T", [] {
    const Run r = run(*evaluated_case());
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (r.R[j].empty()) {
        PROP_EXPECT(y == greatest_bits(t), "Y[{}] = {} for an empty R(j), expected {}", j, describe(t, y),
                    describe(t, greatest_bits(t)));
        continue;
      }
      PROP_EXPECT(std::find(r.R[j].begin(), r.R[j].end(), y) != r.R[j].end(), "Y[{}] = {} is not in R(j)", j,
                  describe(t, y));
    }
    classify(r);
  });
}

TEST_CASE("[ReduceMin.float.nan] [Common.order.nan] [Common.order.nan-payload] "
          "a NaN in R(j) makes Y[j] the first NaN of R(j) in row-major order, bit for bit",
          "[reducemin][props]") {
  check("Y[j] is the row-major first NaN of R(j)", [] {
    const Run r = run(*evaluated_case({.values = Values::NaNs}));
    const DType t = r.c.data.dtype();
    bool two = false, after_number = false;
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const auto& set = r.R[j];
      const auto first = std::find_if(set.begin(), set.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); });
      if (first == set.end()) continue;
      two = two || std::count_if(set.begin(), set.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); }) >= 2;
      after_number = after_number || first != set.begin();
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      PROP_EXPECT(y == *first, "Y[{}] = {}, expected the first NaN {} (position {} of R(j))", j, describe(t, y),
                  describe(t, *first), first - set.begin());
    }
    classify(r);
    RC_CLASSIFY(two, "two NaNs in one reduced set");
    RC_CLASSIFY(after_number, "a NaN after a number");
  });
}

TEST_CASE("[ReduceMin.float.zero] [Common.order.min] -0 and +0 in R(j) with nothing less give -0",
          "[reducemin][props]") {
  check("no NaN, nothing below -0: Y[j] = -0 if -0 is in R(j), else +0 if +0 is", [] {
    const Run r = run(*evaluated_case({.values = Values::ZerosAbove}));
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      bool minus = false, below = false;
      for (std::uint64_t x : r.R[j]) {
        minus = minus || x == neg_zero_bits(t);
        below = below || is_nan_bits(t, x) || rank_of(t, x) < -1;  // -0 ranks -1
      }
      const bool plus = std::find(r.R[j].begin(), r.R[j].end(), pos_zero_bits(t)) != r.R[j].end();
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (minus && !below) PROP_EXPECT(y == neg_zero_bits(t), "Y[{}] = {}, expected -0", j, describe(t, y));
      if (plus && !minus && !below)
        PROP_EXPECT(y == pos_zero_bits(t), "Y[{}] = {}, expected +0 (no -0 in R(j))", j, describe(t, y));
    }
    classify(r);
  });
}

TEST_CASE("[ReduceMin.float.empty] [ReduceMin.int.empty] [ReduceMin.bool.empty] "
          "[Common.tensor.empty] an empty R(j) gives +Inf, the maximum of the integer type, or True",
          "[reducemin][props]") {
  check("a reduced axis of size 0: every Y[j] is the greatest value of T", [] {
    const int version = *gen::one_of(kReduceMinVersions);
    const DType t = *gen::dtype_of(spec_reducemin_types(version));
    Shape s = *gen::shape({1, 4, 64, false});
    const auto mask = *gen::axes_mask(static_cast<std::int64_t>(s.size()), true);
    std::vector<std::size_t> reduced_axes;
    for (std::size_t k = 0; k < mask.size(); ++k)
      if (mask[k]) reduced_axes.push_back(k);
    s[reduced_axes[*gen::index<std::size_t>(0, reduced_axes.size())]] = 0;  // R(j) is empty for every j
    ReduceMaxCase c;
    c.op = "ReduceMin";
    c.version = version;
    c.data = Tensor(t, s, "X");
    c.mask = mask;
    const bool all = std::all_of(mask.begin(), mask.end(), [](bool b) { return b; });
    c.axes = all && *gen::weighted<bool>({{1, false}, {1, true}}) ? std::nullopt
                                                                  : std::optional(*gen::axes_listing(mask, version >= 11));
    c.keepdims = *gen::flag();
    const Tensor Y = ops::reduce_min(c.version, c.data, c.params());
    RC_ASSERT(Y.shape() == expected_shape(s, mask, c.keepdims));
    RC_ASSERT(element_count(Y.shape()) >= 1);
    for (std::int64_t j = 0; j < element_count(Y.shape()); ++j)
      PROP_EXPECT(bits_at(Y, j) == greatest_bits(t), "Y[{}] = {}, expected {}", j, describe(t, bits_at(Y, j)),
                  describe(t, greatest_bits(t)));
    RC_TAG(std::string(name(t)));
  });
}

TEST_CASE("[ReduceMin.prop.shape] [ReduceMin.shape] [ReduceMin.axes.default] "
          "keepdims = 1 turns reduced dimensions into 1, keepdims = 0 removes them, rank 0 stays rank 0",
          "[reducemin][props]") {
  check("shape of Y from the reduced axes and keepdims", [] {
    const ReduceMaxCase c = *gen::reducemin_case();
    const Tensor Y = ops::reduce_min(c.version, c.data, c.params());
    const auto reduced = c.reduced();
    const Shape expected = reduced ? expected_shape(c.data.shape(), *reduced, c.keepdims) : c.data.shape();
    PROP_EXPECT(Y.shape() == expected, "shape {}, expected {}", to_string(Y.shape()), to_string(expected));
    RC_ASSERT(Y.dtype() == c.data.dtype());
    RC_CLASSIFY(c.data.rank() == 0, "rank 0");
    RC_CLASSIFY(!reduced, "noop identity");
    RC_CLASSIFY(c.keepdims == 0, "keepdims = 0");
    RC_CLASSIFY(element_count(c.data.shape()) == 0, "empty input");
  });
}

TEST_CASE("[ReduceMin.axes.normalise] [ReduceMin.v11] a negative axis a names axis a + r", "[reducemin][props]") {
  check("axes listed with negative forms = the same axes listed non-negative", [] {
    const ReduceMaxCase c =
        *gen::reducemin_case({.versions = {11, 12, 13, 18, 20}, .shape = {1, 5, 64, true}, .allow_absent = false});
    ReduceMaxCase positive = c;
    positive.axes->clear();
    for (std::size_t k = 0; k < c.mask.size(); ++k)
      if (c.mask[k]) positive.axes->push_back(static_cast<std::int64_t>(k));
    const Tensor Y = ops::reduce_min(c.version, c.data, c.params());
    RC_ASSERT(same_bits(Y, ops::reduce_min(c.version, c.data, positive.params())));
    RC_CLASSIFY(std::any_of(c.axes->begin(), c.axes->end(), [](std::int64_t a) { return a < 0; }), "a negative axis");
  });
}

TEST_CASE("[ReduceMin.axes.default] absent axes (or, from version 18, an empty axes input) reduce every axis",
          "[reducemin][props]") {
  check("absent / empty axes = all axes listed", [] {
    ReduceMaxCase c = *evaluated_case({.shape = {1, 5, 64, true}, .allow_absent = false});
    ReduceMaxCase all = c;
    all.axes = std::vector<std::int64_t>{};
    for (std::int64_t k = 0; k < c.data.rank(); ++k) all.axes->push_back(k);
    const Tensor expected = ops::reduce_min(c.version, c.data, all.params());
    c.axes = std::nullopt;
    RC_ASSERT(same_bits(ops::reduce_min(c.version, c.data, c.params()), expected));
    if (c.version >= 18) {
      c.axes = std::vector<std::int64_t>{};
      RC_ASSERT(same_bits(ops::reduce_min(c.version, c.data, c.params()), expected));
    }
    RC_TAG(fmt::format("ReduceMin-{}", c.version));
  });
}

TEST_CASE("[ReduceMin.axes.noop] [ReduceMin.v18] noop_with_empty_axes = 1 without axes returns X unchanged",
          "[reducemin][props]") {
  check("noop = 1: absent or empty axes give Y = X; listed axes reduce as with noop = 0", [] {
    ReduceMaxCase c = *gen::reducemin_case({.versions = {18, 20}});
    c.noop_with_empty_axes = 1;
    const Tensor Y = ops::reduce_min(c.version, c.data, c.params());
    if (!c.axes || c.axes->empty()) {
      RC_ASSERT(same_bits(Y, c.data));
    } else {
      ReduceMaxCase reducing = c;
      reducing.noop_with_empty_axes = 0;
      RC_ASSERT(same_bits(Y, ops::reduce_min(c.version, c.data, reducing.params())));
    }
    RC_CLASSIFY(!c.axes, "axes absent");
    RC_CLASSIFY(c.axes && c.axes->empty(), "axes empty");
    RC_CLASSIFY(c.axes && !c.axes->empty(), "axes listed");
  });
}

TEST_CASE("[ReduceMin.prop.compose] ReduceMin compose property: reducing over A then over B equals reducing over A and B at once",
          "[reducemin][props]") {
  check("ReduceMin_B(ReduceMin_A(X)) = ReduceMin_{A u B}(X) with keepdims = 1, up to NaN payload", [] {
    const int version = *gen::one_of<int>({13, 18, 20, 11});
    const DType t = *gen::dtype_of(spec_reducemin_types(version));
    const Shape s = *gen::shape({2, 5, 64, true});
    const Tensor X = *gen::tensor(t, s);
    std::vector<int> part(s.size());
    for (int& p : part) p = *gen::one_of<int>({0, 1, 2});
    part[0] = 1;
    part[1] = 2;
    const auto perm = *gen::permutation(s.size());
    std::vector<std::int64_t> A, B, AB;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const int p = part[perm[k]];
      if (p == 1) A.push_back(static_cast<std::int64_t>(k));
      if (p == 2) B.push_back(static_cast<std::int64_t>(k));
      if (p != 0) AB.push_back(static_cast<std::int64_t>(k));
    }
    const Tensor YA = ops::reduce_min(version, X, {A, 1, 0});
    const Tensor YAB = ops::reduce_min(version, YA, {B, 1, 0});
    const Tensor Y = ops::reduce_min(version, X, {AB, 1, 0});
    PROP_EXPECT(same_up_to_nan_payload(YAB, Y), "A={} B={}:\n  stepwise {}\n  at once  {}", to_string(A),
                to_string(B), describe(YAB), describe(Y));
    RC_CLASSIFY(has_nan(Y), "NaN");
    RC_CLASSIFY(element_count(s) == 0, "empty input");
  });
}

TEST_CASE("[ReduceMin.prop.keepdims-reshape] ReduceMin keepdims-reshape property: keepdims = 0 is the keepdims = 1 result without the reduced axes",
          "[reducemin][props]") {
  check("same elements, shape without the size-1 reduced axes", [] {
    ReduceMaxCase c = *evaluated_case();
    c.keepdims = 1;
    const Tensor kept = ops::reduce_min(c.version, c.data, c.params());
    c.keepdims = 0;
    const Tensor dropped = ops::reduce_min(c.version, c.data, c.params());
    const auto reduced = *c.reduced();
    Shape reshaped;
    for (std::size_t k = 0; k < reduced.size(); ++k)
      if (!reduced[k]) reshaped.push_back(kept.shape()[k]);
    RC_ASSERT(dropped.shape() == reshaped);
    RC_ASSERT(element_count(dropped.shape()) == element_count(kept.shape()));
    for (std::int64_t k = 0; k < element_count(kept.shape()); ++k) RC_ASSERT(bits_at(dropped, k) == bits_at(kept, k));
  });
}

TEST_CASE("[ReduceMin.prop.slices] ReduceMin slices property: [ReduceMin.float.nan] [ReduceMin.bool.formula] ReduceMin along axis k is Min of "
          "the slices along k",
          "[reducemin][props]") {
  check("ReduceMin(X, axes=[k], keepdims=0) = Min-13(X[.., 0, ..], .., X[.., d-1, ..]) bit for bit", [] {
    const int version = *gen::one_of<int>({18, 13, 20});
    const DType t = *gen::dtype_of(spec_reducemin_types(version));  // bool (v20): logical and
    Shape s = *gen::shape({1, 4, 64, true});
    const auto r = static_cast<std::int64_t>(s.size());
    const std::int64_t k = *gen::index<std::int64_t>(0, r);
    if (s[k] == 0) s[k] = 1;  // Min needs at least one slice
    const Tensor X = *gen::tensor(t, s);
    Shape slice_shape = s;
    slice_shape.erase(slice_shape.begin() + k);
    std::vector<Tensor> slices;
    for (std::int64_t at = 0; at < s[k]; ++at) {
      Tensor S(t, slice_shape, "slice");
      for (std::int64_t o = 0; o < element_count(slice_shape); ++o) {
        Index i = unravel(o, slice_shape);
        i.insert(i.begin() + k, at);
        set_bits_at(S, o, bits_at(X, ravel(i, s)));
      }
      slices.push_back(std::move(S));
    }
    std::vector<const Tensor*> ptr;
    for (const Tensor& S : slices) ptr.push_back(&S);
    Tensor viaMin;
    if (t != DType::Bool) {
      viaMin = ops::min(13, ptr);
    } else {  // Min accepts no bool: the element-wise logical and of the slices (False < True)
      viaMin = filled(t, slice_shape, 1);
      for (const Tensor& S : slices)
        for (std::int64_t o = 0; o < element_count(slice_shape); ++o)
          if (bits_at(S, o) == 0) set_bits_at(viaMin, o, 0);
    }
    const Tensor Y = ops::reduce_min(version, X, {std::vector<std::int64_t>{k}, 0, 0});
    PROP_EXPECT(same_bits(Y, viaMin), "axis {}:\n  ReduceMin {}\n  Min       {}", k, describe(Y), describe(viaMin));
    RC_CLASSIFY(has_nan(X), "NaN");
    RC_CLASSIFY(s[k] == 1, "one slice");
    RC_CLASSIFY(t == DType::Bool, "bool");
  });
}

TEST_CASE("[ReduceMin.v1] [ReduceMin.v11] [ReduceMin.v12] [ReduceMin.v13] [ReduceMin.v18] [ReduceMin.v20] "
          "every version that accepts the type gives the same Y for the same non-negative axes",
          "[reducemin][props]") {
  check("ReduceMin-v(X, axes, keepdims) does not depend on v", [] {
    ReduceMaxCase c = *evaluated_case({.versions = {20}});
    if (c.axes) {
      c.axes->clear();
      for (std::size_t k = 0; k < c.mask.size(); ++k)
        if (c.mask[k]) c.axes->push_back(static_cast<std::int64_t>(k));
    }
    const Tensor Y20 = ops::reduce_min(20, c.data, c.params());
    int versions = 0;
    for (int v : kReduceMinVersions) {
      if (!contains(spec_reducemin_types(v), c.data.dtype())) continue;
      ++versions;
      RC_ASSERT(same_bits(ops::reduce_min(v, c.data, c.params()), Y20));
    }
    RC_TAG(fmt::format("{} versions accept {}", versions, name(c.data.dtype())));
  });
}

TEST_CASE("[ReduceMin.bool.formula] [ReduceMin.bool.empty] [ReduceMin.v20] [Common.dtype.bool] [Common.order.int] "
          "bool: Y[j] is False iff R(j) holds a False",
          "[reducemin][props]") {
  check("all-True over R(j), True when R(j) is empty", [] {
    const Run r = run(*evaluated_case({.versions = {20}, .only = {DType::Bool}}));
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const bool all = std::all_of(r.R[j].begin(), r.R[j].end(), [](std::uint64_t x) { return x == 1; });
      PROP_EXPECT(bits_at(r.Y, static_cast<std::int64_t>(j)) == (all ? 1u : 0u), "Y[{}] = {}, expected {}", j,
                  bits_at(r.Y, static_cast<std::int64_t>(j)), all);
    }
    classify(r);
  });
}

}  // namespace sonnx::props::reducemin_props
