// Properties of spec/ops/reducemax.md. The reduced set R(j) is enumerated here from its definition
// (the input indices that agree with j on the kept axes, in row-major order), independently of
// the implementation's index walker; the order is the bit-pattern ranking of spec_facts.hpp.
#include <algorithm>

#include "gen/props.hpp"
#include "ops/max.hpp"
#include "ops/reducemax.hpp"

namespace sonnx::props::reducemax_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// [ReduceMax.shape] The shape of Y: reduced axes become 1 (keepdims = 1) or are removed.
Shape expected_shape(const Shape& in, const std::vector<bool>& reduced, std::int64_t keepdims) {
  Shape out;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (!reduced[k]) out.push_back(in[k]);
    else if (keepdims == 1) out.push_back(1);
  }
  return out;
}

// R(j) for every output offset j, elements in row-major order of the input
// ([ReduceMax.float.formula]): the input index i belongs to R(j) for j = i with its reduced
// coordinates set to 0, read in the keepdims = 1 shape (whose row-major order is that of Y for
// either keepdims, since dropping size-1 axes keeps the order).
std::vector<std::vector<std::uint64_t>> reduced_sets(const Tensor& X, const std::vector<bool>& reduced) {
  Shape kept = X.shape();
  for (std::size_t k = 0; k < kept.size(); ++k)
    if (reduced[k]) kept[k] = 1;
  std::vector<std::vector<std::uint64_t>> R;
  bool kept_empty = false;
  for (std::size_t k = 0; k < kept.size(); ++k) kept_empty = kept_empty || (!reduced[k] && X.shape()[k] == 0);
  R.resize(kept_empty ? 0 : static_cast<std::size_t>(element_count(kept)));
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
  std::vector<bool> reduced;  // the reduced axes (not the noop identity)
  Tensor Y;
  std::vector<std::vector<std::uint64_t>> R;
};

// Evaluates a case that is not the noop identity; checks the shape of Y on the way.
Run run(const ReduceMaxCase& c) {
  Run r{c, *c.reduced(), ops::reduce_max(c.version, c.data, c.params()), {}};
  RC_ASSERT(r.Y.dtype() == c.data.dtype());
  RC_ASSERT(r.Y.shape() == expected_shape(c.data.shape(), r.reduced, c.keepdims));
  r.R = reduced_sets(c.data, r.reduced);
  RC_ASSERT(static_cast<std::int64_t>(r.R.size()) == element_count(r.Y.shape()));
  return r;
}

rc::Gen<ReduceMaxCase> evaluated_case(gen::ReduceMaxOpts opts = {}) {
  opts.allow_noop = false;
  return gen::reducemax_case(opts);
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

}  // namespace

TEST_CASE("[ReduceMax.prop.upper-bound] [ReduceMax.float.formula] [ReduceMax.int.formula] [ReduceMax.bool.formula] "
          "[Common.order.total] [Common.order.int] Y[j] is above or equal to every element of R(j)",
          "[reducemax][props]") {
  check("no NaN in R(j): rank(Y[j]) >= rank(x) for x in R(j)", [] {
    const Run r = run(*evaluated_case());
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (std::any_of(r.R[j].begin(), r.R[j].end(), [&](std::uint64_t x) { return is_nan_bits(t, x); })) continue;
      PROP_EXPECT(!is_nan_bits(t, y), "Y[{}] = {} is a NaN, R(j) holds none", j, describe(t, y));
      for (std::uint64_t x : r.R[j])
        PROP_EXPECT(rank_of(t, y) >= rank_of(t, x), "Y[{}] = {} is below {} of R(j)", j, describe(t, y),
                    describe(t, x));
    }
    classify(r);
    RC_TAG(std::string(name(t)));
  });
}

TEST_CASE("[ReduceMax.prop.attained] [ReduceMax.float.formula] [ReduceMax.int.formula] "
          "Y[j] is bitwise equal to an element of R(j), or the least element of T when R(j) is empty",
          "[reducemax][props]") {
  check("R(j) not empty: Y[j] in R(j); R(j) empty: Y[j] is the least element of T", [] {
    const Run r = run(*evaluated_case());
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (r.R[j].empty()) {
        PROP_EXPECT(y == empty_reduction_bits(t), "Y[{}] = {} for an empty R(j), expected {}", j, describe(t, y),
                    describe(t, empty_reduction_bits(t)));
        continue;
      }
      PROP_EXPECT(std::find(r.R[j].begin(), r.R[j].end(), y) != r.R[j].end(), "Y[{}] = {} is not in R(j)", j,
                  describe(t, y));
    }
    classify(r);
  });
}

TEST_CASE("[ReduceMax.float.nan] [Common.order.nan] [Common.order.nan-payload] "
          "a NaN in R(j) makes Y[j] the first NaN of R(j) in row-major order, bit for bit",
          "[reducemax][props]") {
  check("Y[j] is the row-major first NaN of R(j)", [] {
    const Run r = run(*evaluated_case({.values = Values::NaNs}));
    const DType t = r.c.data.dtype();
    bool two = false;
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const auto& set = r.R[j];
      const auto first = std::find_if(set.begin(), set.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); });
      if (first == set.end()) continue;
      two = two || std::count_if(set.begin(), set.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); }) >= 2;
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      PROP_EXPECT(y == *first, "Y[{}] = {}, expected the first NaN {} (position {} of R(j))", j, describe(t, y),
                  describe(t, *first), first - set.begin());
    }
    classify(r);
    RC_CLASSIFY(two, "two NaNs in one reduced set");
  });
}

TEST_CASE("[ReduceMax.float.zero] [Common.order.total] -0 and +0 in R(j) with nothing greater give +0",
          "[reducemax][props]") {
  check("no NaN, nothing above +0: Y[j] = +0 if +0 is in R(j), else -0 if -0 is", [] {
    const Run r = run(*evaluated_case({.values = Values::Zeros}));
    const DType t = r.c.data.dtype();
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      bool plus = false, above = false;
      for (std::uint64_t x : r.R[j]) {
        plus = plus || x == pos_zero_bits(t);
        above = above || is_nan_bits(t, x) || rank_of(t, x) > 0;
      }
      const bool minus = std::find(r.R[j].begin(), r.R[j].end(), neg_zero_bits(t)) != r.R[j].end();
      const std::uint64_t y = bits_at(r.Y, static_cast<std::int64_t>(j));
      if (plus && !above) PROP_EXPECT(y == pos_zero_bits(t), "Y[{}] = {}, expected +0", j, describe(t, y));
      if (minus && !plus && !above)
        PROP_EXPECT(y == neg_zero_bits(t), "Y[{}] = {}, expected -0 (no +0 in R(j))", j, describe(t, y));
    }
    classify(r);
  });
}

TEST_CASE("[ReduceMax.float.empty] [ReduceMax.int.empty] [ReduceMax.bool.empty] [ReduceMax.prop.attained] "
          "[Common.tensor.empty] "
          "an empty R(j) gives -Inf, the minimum of the integer type, or False",
          "[reducemax][props]") {
  check("a reduced axis of size 0: every Y[j] is the least value of T", [] {
    const int version = *gen::one_of(kReduceMaxVersions);
    const DType t = *gen::dtype_of(spec_reducemax_types(version));
    Shape s = *gen::shape({1, 4, 64, false});
    const auto mask = *gen::axes_mask(static_cast<std::int64_t>(s.size()), true);
    std::vector<std::size_t> reduced_axes;
    for (std::size_t k = 0; k < mask.size(); ++k)
      if (mask[k]) reduced_axes.push_back(k);
    s[reduced_axes[*gen::index<std::size_t>(0, reduced_axes.size())]] = 0;  // R(j) is empty for every j
    ReduceMaxCase c;
    c.version = version;
    c.data = Tensor(t, s, "X");
    c.mask = mask;
    const bool all = std::all_of(mask.begin(), mask.end(), [](bool b) { return b; });
    c.axes = all && *gen::weighted<bool>({{1, false}, {1, true}}) ? std::nullopt
                                                                  : std::optional(*gen::axes_listing(mask, version >= 11));
    c.keepdims = *gen::flag();
    const Tensor Y = ops::reduce_max(c.version, c.data, c.params());
    RC_ASSERT(Y.shape() == expected_shape(s, mask, c.keepdims));
    RC_ASSERT(element_count(Y.shape()) >= 1);
    for (std::int64_t j = 0; j < element_count(Y.shape()); ++j)
      PROP_EXPECT(bits_at(Y, j) == empty_reduction_bits(t), "Y[{}] = {}, expected {}", j, describe(t, bits_at(Y, j)),
                  describe(t, empty_reduction_bits(t)));
    RC_TAG(std::string(name(t)));
  });
}

TEST_CASE("[ReduceMax.shape] [ReduceMax.prop.shape] [ReduceMax.axes.default] "
          "keepdims = 1 turns reduced dimensions into 1, keepdims = 0 removes them, rank 0 stays rank 0",
          "[reducemax][props]") {
  check("shape of Y from the reduced axes and keepdims", [] {
    const ReduceMaxCase c = *gen::reducemax_case();
    const Tensor Y = ops::reduce_max(c.version, c.data, c.params());
    const auto reduced = c.reduced();
    const Shape expected = reduced ? expected_shape(c.data.shape(), *reduced, c.keepdims) : c.data.shape();
    PROP_EXPECT(Y.shape() == expected, "shape {}, expected {}", to_string(Y.shape()), to_string(expected));
    if (c.data.rank() == 0) RC_ASSERT(Y.rank() == 0);
    RC_CLASSIFY(c.data.rank() == 0, "rank 0");
    RC_CLASSIFY(!reduced, "noop identity");
    RC_CLASSIFY(c.keepdims == 0, "keepdims = 0");
    RC_CLASSIFY(element_count(c.data.shape()) == 0, "empty input");
  });
}

TEST_CASE("[ReduceMax.axes.normalise] [ReduceMax.v11] a negative axis a names axis a + r", "[reducemax][props]") {
  check("axes listed with negative forms = the same axes listed non-negative", [] {
    const ReduceMaxCase c =
        *gen::reducemax_case({.versions = {11, 12, 13, 18, 20}, .shape = {1, 5, 64, true}, .allow_absent = false});
    ReduceMaxCase positive = c;
    positive.axes->clear();
    for (std::size_t k = 0; k < c.mask.size(); ++k)
      if (c.mask[k]) positive.axes->push_back(static_cast<std::int64_t>(k));
    const Tensor Y = ops::reduce_max(c.version, c.data, c.params());
    RC_ASSERT(same_bits(Y, ops::reduce_max(c.version, c.data, positive.params())));
    const bool negative = std::any_of(c.axes->begin(), c.axes->end(), [](std::int64_t a) { return a < 0; });
    RC_CLASSIFY(negative, "a negative axis");
  });
}

TEST_CASE("[ReduceMax.axes.default] absent axes (or, from version 18, an empty axes input) reduce every axis",
          "[reducemax][props]") {
  check("absent / empty axes = all axes listed", [] {
    ReduceMaxCase c = *evaluated_case({.shape = {1, 5, 64, true}, .allow_absent = false});
    ReduceMaxCase all = c;
    all.axes = std::vector<std::int64_t>{};
    for (std::int64_t k = 0; k < c.data.rank(); ++k) all.axes->push_back(k);
    const Tensor expected = ops::reduce_max(c.version, c.data, all.params());
    c.axes = std::nullopt;
    RC_ASSERT(same_bits(ops::reduce_max(c.version, c.data, c.params()), expected));
    if (c.version >= 18) {
      c.axes = std::vector<std::int64_t>{};
      RC_ASSERT(same_bits(ops::reduce_max(c.version, c.data, c.params()), expected));
    }
    RC_TAG(fmt::format("ReduceMax-{}", c.version));
  });
}

TEST_CASE("[ReduceMax.axes.noop] [ReduceMax.v18] noop_with_empty_axes = 1 without axes returns X unchanged",
          "[reducemax][props]") {
  check("noop = 1: absent or empty axes give Y = X; listed axes reduce as with noop = 0", [] {
    ReduceMaxCase c = *gen::reducemax_case({.versions = {18, 20}});
    c.noop_with_empty_axes = 1;
    const Tensor Y = ops::reduce_max(c.version, c.data, c.params());
    if (!c.axes || c.axes->empty()) {
      RC_ASSERT(same_bits(Y, c.data));
    } else {
      ReduceMaxCase reducing = c;
      reducing.noop_with_empty_axes = 0;
      RC_ASSERT(same_bits(Y, ops::reduce_max(c.version, c.data, reducing.params())));
    }
    RC_CLASSIFY(!c.axes, "axes absent");
    RC_CLASSIFY(c.axes && c.axes->empty(), "axes empty");
    RC_CLASSIFY(c.axes && !c.axes->empty(), "axes listed");
  });
}

TEST_CASE("[ReduceMax.prop.compose] reducing over A then over B equals reducing over A and B at once",
          "[reducemax][props]") {
  check("ReduceMax_B(ReduceMax_A(X)) = ReduceMax_{A u B}(X) with keepdims = 1, up to NaN payload", [] {
    const int version = *gen::one_of<int>({13, 18, 20, 11});
    const DType t = *gen::dtype_of(spec_reducemax_types(version));
    const Shape s = *gen::shape({2, 5, 64, true});
    const Tensor X = *gen::tensor(t, s);
    // A and B: disjoint, non-empty; each axis is in A, in B or kept.
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
    const Tensor YA = ops::reduce_max(version, X, {A, 1, 0});
    const Tensor YAB = ops::reduce_max(version, YA, {B, 1, 0});
    const Tensor Y = ops::reduce_max(version, X, {AB, 1, 0});
    PROP_EXPECT(same_up_to_nan_payload(YAB, Y), "A={} B={}:\n  stepwise {}\n  at once  {}", to_string(A),
                to_string(B), describe(YAB), describe(Y));
    RC_CLASSIFY(has_nan(Y), "NaN");
    RC_CLASSIFY(element_count(s) == 0, "empty input");
  });
}

TEST_CASE("[ReduceMax.prop.keepdims-reshape] keepdims = 0 is the keepdims = 1 result without the reduced axes",
          "[reducemax][props]") {
  check("same elements, shape without the size-1 reduced axes", [] {
    ReduceMaxCase c = *evaluated_case();
    c.keepdims = 1;
    const Tensor kept = ops::reduce_max(c.version, c.data, c.params());
    c.keepdims = 0;
    const Tensor dropped = ops::reduce_max(c.version, c.data, c.params());
    const auto reduced = *c.reduced();
    Shape reshaped;
    for (std::size_t k = 0; k < reduced.size(); ++k)
      if (!reduced[k]) reshaped.push_back(kept.shape()[k]);
    RC_ASSERT(dropped.shape() == reshaped);
    RC_ASSERT(dropped.dtype() == kept.dtype());
    RC_ASSERT(element_count(dropped.shape()) == element_count(kept.shape()));
    for (std::int64_t k = 0; k < element_count(kept.shape()); ++k) RC_ASSERT(bits_at(dropped, k) == bits_at(kept, k));
  });
}

TEST_CASE("[ReduceMax.prop.slices] [ReduceMax.float.nan] [ReduceMax.bool.formula] ReduceMax along axis k is Max of "
          "the slices along k",
          "[reducemax][props]") {
  check("ReduceMax(X, axes=[k], keepdims=0) = Max-13(X[.., 0, ..], .., X[.., d-1, ..]) bit for bit", [] {
    const int version = *gen::one_of<int>({18, 13, 20});
    const DType t = *gen::dtype_of(spec_reducemax_types(version));  // bool (v20): logical or
    const Shape s = *gen::shape({1, 4, 64, true});
    const auto r = static_cast<std::int64_t>(s.size());
    const std::int64_t k = *gen::index<std::int64_t>(0, r);
    RC_PRE(s[k] >= 1);  // Max needs at least one slice
    const Tensor X = *gen::tensor(t, s);
    // Slice s: X with coordinate k fixed to s, shape = X's shape without axis k.
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
    Tensor viaMax;
    if (t != DType::Bool) {
      viaMax = ops::max(13, ptr);
    } else {  // Max accepts no bool: the element-wise logical or of the slices
      viaMax = Tensor(t, slice_shape, "or of the slices");
      for (const Tensor& S : slices)
        for (std::int64_t o = 0; o < element_count(slice_shape); ++o)
          if (bits_at(S, o) == 1) set_bits_at(viaMax, o, 1);
    }
    const Tensor Y = ops::reduce_max(version, X, {std::vector<std::int64_t>{k}, 0, 0});
    PROP_EXPECT(same_bits(Y, viaMax), "axis {}:\n  ReduceMax {}\n  Max       {}", k, describe(Y), describe(viaMax));
    RC_CLASSIFY(has_nan(X), "NaN");
    RC_CLASSIFY(s[k] == 1, "one slice");
    RC_CLASSIFY(t == DType::Bool, "bool");
  });
}

TEST_CASE("[ReduceMax.v1] [ReduceMax.v11] [ReduceMax.v12] [ReduceMax.v13] [ReduceMax.v18] [ReduceMax.v20] "
          "every version that accepts the type gives the same Y for the same non-negative axes",
          "[reducemax][props]") {
  check("ReduceMax-v(X, axes, keepdims) does not depend on v", [] {
    ReduceMaxCase c = *evaluated_case({.versions = {20}});
    if (c.axes) {  // non-negative forms, which every version accepts
      c.axes->clear();
      for (std::size_t k = 0; k < c.mask.size(); ++k)
        if (c.mask[k]) c.axes->push_back(static_cast<std::int64_t>(k));
    }
    const Tensor Y20 = ops::reduce_max(20, c.data, c.params());
    int versions = 0;
    for (int v : kReduceMaxVersions) {
      if (!contains(spec_reducemax_types(v), c.data.dtype())) continue;
      ++versions;
      RC_ASSERT(same_bits(ops::reduce_max(v, c.data, c.params()), Y20));
    }
    RC_TAG(fmt::format("{} versions accept {}", versions, name(c.data.dtype())));
  });
}

TEST_CASE("[ReduceMax.bool.formula] [ReduceMax.v20] [Common.dtype.bool] [Common.order.int] "
          "bool: Y[j] is True iff R(j) holds a True",
          "[reducemax][props]") {
  check("any-True over R(j), False when R(j) is empty", [] {
    const Run r = run(*evaluated_case({.versions = {20}, .only = {DType::Bool}}));
    for (std::size_t j = 0; j < r.R.size(); ++j) {
      const bool any = std::any_of(r.R[j].begin(), r.R[j].end(), [](std::uint64_t x) { return x == 1; });
      PROP_EXPECT(bits_at(r.Y, static_cast<std::int64_t>(j)) == (any ? 1u : 0u), "Y[{}] = {}, expected {}", j,
                  bits_at(r.Y, static_cast<std::int64_t>(j)), any);
    }
    classify(r);
  });
}

}  // namespace sonnx::props::reducemax_props
