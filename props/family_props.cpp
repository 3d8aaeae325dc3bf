// The properties that tie the family together (spec/README.md, binding decision 8: one order and
// its dual). Each relates two operators of the implementation — which is what the property states —
// and derives the side it compares against only through the other operator's public entry point and
// the test-side restatements of spec_facts.hpp (δ from the bits, the bounds of Clip, the one-hot
// layout, the reduced axes), never through a shared internal of src/.
#include <algorithm>

#include "gen/props.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/relu.hpp"

namespace sonnx::props::family_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// δ applied to every element ([Common.order.min], informative: sign flip, complement, negation).
Tensor dual(const Tensor& x) {
  Tensor y(x.dtype(), x.shape(), "dual");
  for (std::int64_t k = 0; k < element_count(x.shape()); ++k) set_bits_at(y, k, dual_bits(x.dtype(), bits_at(x, k)));
  return y;
}

std::vector<DType> intersect(const std::vector<DType>& a, const std::vector<DType>& b) {
  std::vector<DType> out;
  for (DType t : a)
    if (contains(b, t)) out.push_back(t);
  return out;
}

std::int64_t normalised(std::int64_t axis, std::int64_t r) { return axis < 0 ? axis + r : axis; }

// The row-major offset of X at output index j (keepdims = 1 shape of a reduction along k) with its
// coordinate k replaced by h.
std::int64_t offset_at(const Shape& x, std::int64_t k, std::int64_t j, std::int64_t h) {
  Shape kept = x;
  kept[k] = 1;
  Index i = unravel(j, kept);
  i[k] = h;
  return ravel(i, x);
}

}  // namespace

TEST_CASE("[Min.prop.dual] [Common.order.min] Min(X0..XL) is the dual of Max of the duals, bit for bit, NaN "
          "payloads included",
          "[min][max][family][props]") {
  check("Min-v(X0..XL) = δ(Max-v(δX0..δXL)): sign flip for floats, complement for integers", [] {
    const MaxCase c = *gen::min_case();
    std::vector<Tensor> duals;
    for (const Tensor& x : c.inputs) duals.push_back(dual(x));
    std::vector<const Tensor*> ptr;
    for (const Tensor& d : duals) ptr.push_back(&d);
    const Tensor Y = ops::min(c.version, c.pointers());
    const Tensor viaMax = dual(ops::max(c.version, ptr));
    PROP_EXPECT(same_bits(Y, viaMax), "Min {}\n  δ(Max(δX)) {}", describe(Y), describe(viaMax));
    RC_CLASSIFY(has_nan(Y), "NaN");
    RC_CLASSIFY(family(c.dtype) == Family::Unsigned, "unsigned");
    RC_CLASSIFY(family(c.dtype) == Family::Signed, "signed");
  });
}

TEST_CASE("[ReduceMin.prop.dual] [Common.order.min] ReduceMin(X) is the dual of ReduceMax of the dual, bit for bit, "
          "empty sets included",
          "[reducemin][reducemax][family][props]") {
  check("ReduceMin-v(X, axes, keepdims, noop) = δ(ReduceMax-v(δX, same)): sign flip, complement, negation", [] {
    const ReduceMaxCase c = *gen::reducemin_case();
    const Tensor Y = ops::reduce_min(c.version, c.data, c.params());
    const Tensor viaMax = dual(ops::reduce_max(c.version, dual(c.data), c.params()));
    PROP_EXPECT(same_bits(Y, viaMax), "ReduceMin {}\n  δ(ReduceMax(δX)) {}", describe(Y), describe(viaMax));
    RC_CLASSIFY(has_nan(Y), "NaN");
    RC_CLASSIFY(c.data.dtype() == DType::Bool, "bool");
    RC_CLASSIFY(element_count(c.data.shape()) == 0, "empty input");
  });
}

TEST_CASE("[ArgMax.prop.hardmax] [Hardmax.float.formula] Hardmax-13(X, axis) is the one-hot of ArgMax-13(X, axis, "
          "keepdims = 1, select_last_index = 0)",
          "[argmax][hardmax][family][props]") {
  check("Y_hardmax[i] = 1 iff i_k = ArgMax[i with i_k = 0], else +0", [] {
    const DType t = *gen::dtype_of(spec_hardmax_types(13));
    const auto values = *gen::one_of<Values>({Values::Edge, Values::NaNs, Values::Zeros});
    Shape s = *gen::shape({1, 5, 64, true});
    const auto r = static_cast<std::int64_t>(s.size());
    const std::int64_t axis = *gen::valid_axis(13, r);
    const std::int64_t k = normalised(axis, r);
    if (s[k] == 0) s[k] = 1;  // ArgMax needs an element along the axis
    const Tensor X = *gen::tensor_with(t, s, values);
    ops::ArgParams p;
    p.axis = axis;
    p.keepdims = 1;
    p.select_last_index = 0;
    const Tensor A = ops::argmax(13, X, p);
    const Tensor H = ops::hardmax(13, X, axis);
    RC_ASSERT(H.shape() == s);
    for (std::int64_t o = 0; o < element_count(s); ++o) {
      Index i = unravel(o, s);
      const std::int64_t at = i[k];
      i[k] = 0;
      Shape kept = s;
      kept[k] = 1;
      const auto h = static_cast<std::int64_t>(bits_at(A, ravel(i, kept)));
      const std::uint64_t expected = at == h ? one_bits(t) : pos_zero_bits(t);
      PROP_EXPECT(bits_at(H, o) == expected, "Hardmax at offset {} = {}, ArgMax of its slice is {}", o,
                  describe(t, bits_at(H, o)), h);
    }
    RC_CLASSIFY(has_nan(X), "NaN");
    RC_CLASSIFY(axis < 0, "negative axis");
    RC_CLASSIFY(element_count(s) == 0, "empty");
  });
}

TEST_CASE("[ArgMax.prop.reducemax] [ArgMin.prop.reducemin] ReduceMax-13 (ReduceMin-13) over the axis with keepdims = 1 "
          "is X at the position ArgMax-13 (ArgMin-13) gives, bit for bit",
          "[argmax][argmin][reducemax][reducemin][family][props]") {
  for (const bool max : {true, false})
    check(max ? "ReduceMax-13(X, [k], 1)[j] = X[j with i_k = ArgMax-13(X, k, 1, 0)[j]]"
              : "ReduceMin-13(X, [k], 1)[j] = X[j with i_k = ArgMin-13(X, k, 1, 0)[j]]",
          [max] {
            const auto types = intersect(max ? spec_reducemax_types(13) : spec_reducemin_types(13), spec_arg_types(13));
            const DType t = *gen::dtype_of(types);
            const auto values = *gen::one_of<Values>({Values::Edge, Values::NaNs, max ? Values::Zeros : Values::ZerosAbove});
            Shape s = *gen::shape({1, 5, 64, true});
            const auto r = static_cast<std::int64_t>(s.size());
            const std::int64_t axis = *gen::valid_axis(13, r);
            const std::int64_t k = normalised(axis, r);
            if (s[k] == 0) s[k] = 1;
            const Tensor X = *gen::tensor_with(t, s, family(t) == Family::Float ? values : Values::Edge);
            ops::ArgParams p;
            p.axis = axis;
            const Tensor A = max ? ops::argmax(13, X, p) : ops::argmin(13, X, p);
            const ops::ReduceParams rp{std::vector<std::int64_t>{axis}, 1, 0};
            const Tensor R = max ? ops::reduce_max(13, X, rp) : ops::reduce_min(13, X, rp);
            RC_ASSERT(R.shape() == A.shape());
            for (std::int64_t j = 0; j < element_count(A.shape()); ++j) {
              const auto h = static_cast<std::int64_t>(bits_at(A, j));
              const std::uint64_t at = bits_at(X, offset_at(s, k, j, h));
              PROP_EXPECT(bits_at(R, j) == at, "j = {}: reduction {} but X at position {} is {}", j,
                          describe(t, bits_at(R, j)), h, describe(t, at));
            }
            RC_CLASSIFY(has_nan(X), "NaN");
            RC_TAG(std::string(family(t) == Family::Float ? "float" : "int"));
          });
}

// ID pending spec/ops/argmin.md (a dual property of ArgMin, if the document states one)
TEST_CASE("ArgMin dual property: [Common.order.min] ArgMin(X) is ArgMax of the dual of X, select_last_index 0 and 1",
          "[argmin][argmax][family][props]") {
  check("ArgMin-v(X, p) = ArgMax-v(δX, p)", [] {
    const ArgCase c = *gen::arg_case({.op = "ArgMin"});
    const Tensor Y = ops::argmin(c.version, c.input, c.params());
    RC_ASSERT(same_bits(Y, ops::argmax(c.version, dual(c.input), c.params())));
    RC_CLASSIFY(has_nan(c.input), "NaN");
    RC_CLASSIFY(c.select_last_index == 1, "select_last_index = 1");
  });
}

TEST_CASE("[Relu.prop.max] Relu-v(X) is Max-13(X, rank-0 +0) bit for bit, NaN payloads included, every version and "
          "type",
          "[relu][max][family][props]") {
  check("Relu-v(X) = Max-13(X, Z), Z the all-zero rank-0 tensor of T", [] {
    const int v = *gen::one_of(kReluVersions);
    const DType t = *gen::dtype_of(spec_relu_types(v));
    const auto values = family(t) == Family::Float ? *gen::one_of<Values>({Values::Edge, Values::NaNs, Values::Zeros})
                                                   : Values::Edge;
    const Tensor X = *gen::tensor_with(t, *gen::shape(), values);
    const Tensor Z = filled(t, {}, pos_zero_bits(t));
    const Tensor Y = ops::relu(v, X);
    const Tensor M = ops::max(13, {&X, &Z});
    PROP_EXPECT(same_bits(Y, M), "Relu {}\n  Max(X, +0) {}", describe(Y), describe(M));
    RC_CLASSIFY(has_nan(X), "NaN");
    RC_TAG(fmt::format("Relu-{}", v));
  });
}

TEST_CASE("[Clip.prop.min-max] Clip-v(X) is Min-13(Max-13(X, LO), HI) bit for bit, LO and HI the rank-0 bounds of "
          "step 1",
          "[clip][min][max][family][props]") {
  check("Clip(X, lo, hi) = Min(Max(X, LO), HI), every version, NaN payloads included", [] {
    const ClipCase c = *gen::clip_case({.values = *gen::one_of<Values>({Values::Edge, Values::NaNs, Values::Zeros})});
    const DType t = c.X.dtype();
    const Tensor LO = filled(t, {}, c.lo()), HI = filled(t, {}, c.hi());
    const Tensor Y = ops::clip(c.version, c.X, c.bounds());
    const Tensor up = ops::max(13, {&c.X, &LO});
    const Tensor M = ops::min(13, {&up, &HI});
    PROP_EXPECT(same_bits(Y, M), "Clip {}\n  Min(Max(X, LO), HI) {}", describe(Y), describe(M));
    RC_CLASSIFY(is_nan_bits(t, c.lo()) || is_nan_bits(t, c.hi()), "NaN bound");
    RC_CLASSIFY(!is_nan_bits(t, c.lo()) && !is_nan_bits(t, c.hi()) && rank_of(t, c.hi()) < rank_of(t, c.lo()),
                "crossed bounds");
    RC_TAG(fmt::format("Clip-{}", c.version));
  });
}

TEST_CASE("[Clip.prop.relu] [Relu.float.formula] Clip with lo = +0 and a non-NaN hi is min_of(Relu(X), hi)",
          "[clip][relu][family][props]") {
  check("lo = +0, hi not NaN: Y[i] = Relu(X)[i] if it is a NaN or not above hi, else hi", [] {
    const int v = *gen::one_of<int>({11, 12, 13});
    const int relu_v = v >= 13 ? 14 : 6;
    const DType t = *gen::dtype_of(intersect(spec_clip_types(v), spec_relu_types(relu_v)));
    const Tensor X = *gen::tensor(t, *gen::shape());
    const Tensor LO = filled(t, {}, pos_zero_bits(t));
    const bool hi_absent = *gen::weighted<bool>({{3, false}, {1, true}});
    const Tensor HI = filled(t, {}, hi_absent ? greatest_finite_bits(t) : *gen::non_nan_element(t));
    ops::ClipBounds b;
    b.min_input = &LO;
    b.max_input = hi_absent ? nullptr : &HI;
    const Tensor Y = ops::clip(v, X, b);
    const Tensor R = ops::relu(relu_v, X);
    const std::uint64_t hi = bits_at(HI, 0);
    for (std::int64_t k = 0; k < element_count(X.shape()); ++k) {
      const std::uint64_t rx = bits_at(R, k);
      const std::uint64_t expected = is_nan_bits(t, rx) || rank_of(t, rx) <= rank_of(t, hi) ? rx : hi;  // min_of(r, hi)
      PROP_EXPECT(bits_at(Y, k) == expected, "X = {}: Clip {}, Relu {}, hi {}", describe(t, bits_at(X, k)),
                  describe(t, bits_at(Y, k)), describe(t, rx), describe(t, hi));
    }
    RC_CLASSIFY(hi_absent, "max absent");
    RC_CLASSIFY(!hi_absent && rank_of(t, hi) < 0, "hi below +0 (crossed)");
  });
}

TEST_CASE("[MaxPool.prop.global] MaxPool with a kernel over the whole spatial shape, strides and dilations 1, no pads, "
          "is GlobalMaxPool, bit for bit",
          "[maxpool][globalmaxpool][family][props]") {
  check("MaxPool-v(X, kernel = [D1..Dl]) = GlobalMaxPool(X), either ceil_mode, NOTSET or VALID", [] {
    const int v = *gen::one_of(kMaxPoolVersions);
    const int gv = v >= 22 ? 22 : 1;
    const DType t = *gen::dtype_of(intersect(spec_maxpool_types(v), spec_globalmaxpool_types(gv)));
    const int l = *gen::index(1, 4);
    Shape s = {*gen::weighted<std::int64_t>({{4, 1}, {2, 2}, {1, 0}}), *gen::weighted<std::int64_t>({{4, 1}, {2, 2}, {1, 0}})};
    for (int d = 0; d < l; ++d) s.push_back(*gen::index<std::int64_t>(1, l == 3 ? 4 : 6));
    const Tensor X = *gen::tensor_with(t, s, *gen::one_of<Values>({Values::Edge, Values::NaNs}));
    ops::PoolParams p;
    p.kernel_shape.assign(s.begin() + 2, s.end());
    p.has_kernel_shape = true;
    p.auto_pad = *gen::one_of<std::string>({"NOTSET", "VALID"});
    if (v >= 10) {
      p.ceil_mode = *gen::flag();
      if (*gen::flag()) p.dilations.assign(static_cast<std::size_t>(l), 1), p.has_dilations = true;
    }
    if (*gen::flag()) p.strides.assign(static_cast<std::size_t>(l), 1), p.has_strides = true;
    const bool indices = v >= 8 && *gen::flag();
    const auto out = ops::maxpool(v, X, p, indices);
    const Tensor G = ops::globalmaxpool(gv, X);
    PROP_EXPECT(same_bits(out[0], G), "MaxPool {}\n  GlobalMaxPool {}", describe(out[0]), describe(G));
    RC_CLASSIFY(has_nan(X), "NaN");
    RC_CLASSIFY(element_count(s) == 0, "N or C is 0");
  });
}

TEST_CASE("[GlobalMaxPool.prop.reducemax] GlobalMaxPool(X) is ReduceMax over the axes [2, r-1] with keepdims 1, bit "
          "for bit, empty spatial sets included",
          "[globalmaxpool][reducemax][family][props]") {
  check("GlobalMaxPool-v(X) = ReduceMax-13(X, [2..r-1], 1) = ReduceMax-18(X, axes input, 1)", [] {
    const int v = *gen::one_of(kGlobalMaxPoolVersions);
    const DType t = *gen::dtype_of(spec_globalmaxpool_types(v));
    Shape s = *gen::shape({3, 5, 64, true});
    const Tensor X = *gen::tensor_with(t, s, *gen::one_of<Values>({Values::Edge, Values::NaNs, Values::Zeros}));
    std::vector<std::int64_t> spatial;
    for (std::int64_t a = 2; a < X.rank(); ++a) spatial.push_back(a);
    const Tensor G = ops::globalmaxpool(v, X);
    const Tensor R13 = ops::reduce_max(13, X, {spatial, 1, 0});
    const Tensor R18 = ops::reduce_max(18, X, {spatial, 1, 0});
    PROP_EXPECT(same_bits(G, R13), "GlobalMaxPool {}\n  ReduceMax-13 {}", describe(G), describe(R13));
    RC_ASSERT(same_bits(G, R18));
    bool spatial_zero = false;
    for (std::size_t a = 2; a < s.size(); ++a) spatial_zero = spatial_zero || s[a] == 0;
    RC_CLASSIFY(spatial_zero && s[0] * s[1] > 0, "empty spatial sets");
    RC_CLASSIFY(has_nan(X), "NaN");
  });
}

}  // namespace sonnx::props::family_props
