// Properties of spec/ops/maxpool.md and spec/ops/globalmaxpool.md. The pads, the output sizes and
// the windows are restated here from Steps 2 and 3 of the MaxPool document (exact integer arithmetic
// on the attributes, the window as the product of its axes' in-range positions, in row-major order of
// the kernel offsets), the spatial sets of GlobalMaxPool from their definition; Y and Indices are
// checked against them as predicates (the first NaN of the window; else an element no member is
// above, no earlier member bitwise equal to it) on the bit-pattern ranking of spec_facts.hpp.
#include <algorithm>

#include "gen/props.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/maxpool.hpp"

namespace sonnx::props::maxpool_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// ---- Steps 2 and 3, restated ----------------------------------------------------------------------

struct Geometry {
  std::vector<std::int64_t> k, s, dil, e, pb, pe, out;  // per spatial axis
};

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

// [MaxPool.shape] [MaxPool.shape.ceil] [MaxPool.pads.auto] for an accepted node.
Geometry geometry(const Shape& x, const ops::PoolParams& p) {
  Geometry g;
  const std::size_t l = x.size() - 2;
  for (std::size_t d = 0; d < l; ++d) {
    const std::int64_t D = x[2 + d], k = p.kernel_shape[d];
    const std::int64_t s = p.has_strides ? p.strides[d] : 1, dil = p.has_dilations ? p.dilations[d] : 1;
    const std::int64_t e = (k - 1) * dil + 1;
    std::int64_t pb = 0, pe = 0, O;
    if (p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER") {
      O = ceil_div(D, s);
      const std::int64_t P = std::max<std::int64_t>(0, (O - 1) * s + e - D);
      pb = p.auto_pad == "SAME_UPPER" ? P / 2 : P - P / 2;
      pe = P - pb;
    } else {
      if (p.auto_pad == "NOTSET" && p.has_pads) pb = p.pads[d], pe = p.pads[l + d];
      const std::int64_t span = D + pb + pe - e;
      const std::int64_t f = floor_div(span, s);
      O = f + 1;
      if (p.auto_pad == "NOTSET" && p.ceil_mode == 1 && span % s != 0 && (f + 1) * s < D + pb) O = f + 2;
    }
    g.k.push_back(k), g.s.push_back(s), g.dil.push_back(dil), g.e.push_back(e);
    g.pb.push_back(pb), g.pe.push_back(pe), g.out.push_back(O);
  }
  return g;
}

Shape output_shape(const Shape& x, const Geometry& g) {
  Shape y = {x[0], x[1]};
  y.insert(y.end(), g.out.begin(), g.out.end());
  return y;
}

// [MaxPool.window] [MaxPool.window.padding] The members of W(n, c, o) as row-major offsets of X, in
// row-major order of the kernel offsets (q_l fastest); positions outside [0, D_d - 1] are no members.
std::vector<std::int64_t> window(const Shape& x, const Geometry& g, const Index& y_index) {
  const std::size_t l = x.size() - 2;
  std::vector<std::vector<std::int64_t>> along(l);  // the in-range positions along each axis, increasing q
  for (std::size_t d = 0; d < l; ++d)
    for (std::int64_t q = 0; q < g.k[d]; ++q) {
      const std::int64_t pos = y_index[2 + d] * g.s[d] - g.pb[d] + q * g.dil[d];
      if (pos >= 0 && pos < x[2 + d]) along[d].push_back(pos);
    }
  std::vector<std::int64_t> members;
  Index i(x.size());
  i[0] = y_index[0], i[1] = y_index[1];
  std::vector<std::size_t> at(l, 0);
  for (std::size_t d = 0; d < l; ++d)
    if (along[d].empty()) return members;
  while (true) {
    for (std::size_t d = 0; d < l; ++d) i[2 + d] = along[d][at[d]];
    members.push_back(ravel(i, x));
    std::size_t d = l;
    while (d > 0) {  // odometer, the last axis fastest
      --d;
      if (++at[d] < along[d].size()) break;
      at[d] = 0;
      if (d == 0) return members;
    }
  }
}

// [MaxPool.indices.storage-order] iota_1 of the X index at row-major offset `o`.
std::int64_t iota1(const Shape& x, std::int64_t o) {
  const Index i = unravel(o, x);
  const std::size_t l = x.size() - 2;
  std::int64_t plane = 1;
  for (std::size_t d = 0; d < l; ++d) plane *= x[2 + d];
  std::int64_t within = 0, stride = 1;
  for (std::size_t d = 0; d < l; ++d) {  // the first spatial axis fastest
    within += i[2 + d] * stride;
    stride *= x[2 + d];
  }
  return (i[0] * x[1] + i[1]) * plane + within;
}

// [MaxPool.float.nan] [MaxPool.float.formula] [MaxPool.int.formula] [MaxPool.indices] The member the
// fold keeps: the first NaN, else the first member no member is above.
std::size_t selected(DType t, const std::vector<std::uint64_t>& v) {
  for (std::size_t q = 0; q < v.size(); ++q)
    if (is_nan_bits(t, v[q])) return q;
  std::size_t best = 0;
  for (std::size_t q = 1; q < v.size(); ++q)
    if (rank_of(t, v[q]) > rank_of(t, v[best])) best = q;
  return best;
}

struct Run {
  PoolCase c;
  Geometry g;
  std::vector<Tensor> out;
};

Run run(const PoolCase& c) {
  Run r{c, geometry(c.X.shape(), c.params), ops::maxpool(c.version, c.X, c.params, c.indices)};
  RC_ASSERT(r.out.size() == (c.indices ? 2u : 1u));
  RC_ASSERT(r.out[0].shape() == output_shape(c.X.shape(), r.g));
  RC_ASSERT(r.out[0].dtype() == c.X.dtype());
  if (c.indices) {
    RC_ASSERT(r.out[1].shape() == r.out[0].shape());
    RC_ASSERT(r.out[1].dtype() == DType::Int64);
  }
  return r;
}

void classify(const Run& r) {
  const DType t = r.c.X.dtype();
  const Shape y = r.out[0].shape();
  bool padded = false, nan = false, nan_after = false, zero_tie = false, tie = false;
  for (std::int64_t o = 0; o < element_count(y); ++o) {
    const auto w = window(r.c.X.shape(), r.g, unravel(o, y));
    std::int64_t full = 1;
    for (std::int64_t k : r.g.k) full *= k;
    padded = padded || static_cast<std::int64_t>(w.size()) < full;
    bool nz = false, pz = false;
    for (std::size_t q = 0; q < w.size(); ++q) {
      const std::uint64_t x = bits_at(r.c.X, w[q]);
      nan = nan || is_nan_bits(t, x);
      nan_after = nan_after || (is_nan_bits(t, x) && q > 0 && !is_nan_bits(t, bits_at(r.c.X, w[0])));
      nz = nz || (family(t) == Family::Float && x == neg_zero_bits(t));
      pz = pz || (family(t) == Family::Float && x == pos_zero_bits(t));
      for (std::size_t p = 0; p < q; ++p) tie = tie || bits_at(r.c.X, w[p]) == x;
    }
    zero_tie = zero_tie || (nz && pz);
  }
  RC_CLASSIFY(padded, "a window partly in the padding");
  RC_CLASSIFY(nan, "NaN in a window");
  RC_CLASSIFY(nan_after, "a NaN after a number");
  RC_CLASSIFY(zero_tie, "-0 and +0 in a window");
  RC_CLASSIFY(tie, "equal members in a window");
  RC_CLASSIFY(element_count(y) == 0, "empty Y");
  RC_CLASSIFY(r.c.params.ceil_mode == 1, "ceil_mode 1");
  RC_CLASSIFY(r.c.params.auto_pad != "NOTSET", "auto_pad " + r.c.params.auto_pad);
  RC_CLASSIFY(r.c.params.has_dilations && std::any_of(r.g.dil.begin(), r.g.dil.end(), [](std::int64_t d) { return d > 1; }),
              "dilation > 1");
  RC_TAG(fmt::format("{} spatial axes", r.g.k.size()));
}

// Checks Y (and I) at every output index against the restated window.
void check_values(const Run& r) {
  const DType t = r.c.X.dtype();
  const Shape& x = r.c.X.shape();
  const Shape y = r.out[0].shape();
  for (std::int64_t o = 0; o < element_count(y); ++o) {
    const Index yi = unravel(o, y);
    const auto w = window(x, r.g, yi);
    PROP_EXPECT(!w.empty(), "the window of Y{} has no member (the case generator built a refused node)", to_string(yi));
    std::vector<std::uint64_t> v;
    for (std::int64_t m : w) v.push_back(bits_at(r.c.X, m));
    const std::size_t q = selected(t, v);
    const std::uint64_t got = bits_at(r.out[0], o);
    PROP_EXPECT(got == v[q], "Y{} = {}, expected member {} of the window (X offset {}) = {}", to_string(yi),
                describe(t, got), q, w[q], describe(t, v[q]));
    if (r.c.indices) {
      const std::int64_t want = r.c.params.storage_order == 1 ? iota1(x, w[q]) : w[q];
      const auto I = static_cast<std::int64_t>(bits_at(r.out[1], o));
      PROP_EXPECT(I == want, "I{} = {}, expected {} (X offset {}, storage_order {})", to_string(yi), I, want, w[q],
                  r.c.params.storage_order);
    }
  }
}

}  // namespace

TEST_CASE("[MaxPool.shape] [MaxPool.shape.ceil] [MaxPool.pads.auto] [MaxPool.prop.shape] Y is (N, C, O_1..O_l) of X's "
          "type, I the same shape in int64, O_d from the pads, strides, dilations, ceil_mode and auto_pad",
          "[maxpool][props]") {
  check("shapes of Y and I from the restated Step 2", [] {
    const Run r = run(*gen::pool_case());
    classify(r);
  });
  check("[MaxPool.prop.shape]: pads below e_d, O_d >= 1 (NOTSET, VALID) or ceil(D_d / s_d) (SAME), windows start in X "
        "or its begin padding and end in the padded axis (up to s_d - 1 beyond under ceil_mode)",
        [] {
          const PoolCase c = *gen::pool_case();
          const Run r = run(c);
          const bool same = c.params.auto_pad == "SAME_UPPER" || c.params.auto_pad == "SAME_LOWER";
          for (std::size_t d = 0; d < r.g.k.size(); ++d) {
            const std::int64_t D = c.X.shape()[2 + d], O = r.out[0].shape()[2 + d];
            const bool pads_below_e = 0 <= r.g.pb[d] && r.g.pb[d] < r.g.e[d] && 0 <= r.g.pe[d] && r.g.pe[d] < r.g.e[d];
            RC_ASSERT(pads_below_e);
            if (same) RC_ASSERT(O == ceil_div(D, r.g.s[d]));
            else RC_ASSERT(O >= 1);
            for (std::int64_t o = 0; o < O; ++o) {
              const std::int64_t start = o * r.g.s[d] - r.g.pb[d];
              const bool starts_in_x_or_begin_padding = -r.g.pb[d] <= start && start <= D - 1;
              RC_ASSERT(starts_in_x_or_begin_padding);
              const std::int64_t slack = c.params.ceil_mode == 1 && c.params.auto_pad == "NOTSET" ? r.g.s[d] - 1 : 0;
              RC_ASSERT(start + r.g.e[d] - 1 <= D + r.g.pe[d] - 1 + slack);
            }
          }
        });
}

TEST_CASE("[MaxPool.window] [MaxPool.window.padding] [MaxPool.float.formula] [MaxPool.int.formula] [MaxPool.float.nan] "
          "[MaxPool.indices] [MaxPool.indices.storage-order] Y is the member of the window the fold keeps, I its "
          "flattened index",
          "[maxpool][props]") {
  check("Y = the first NaN of the window, else its first greatest member; I = its offset (or iota_1)", [] {
    const Run r = run(*gen::pool_case());
    check_values(r);
    classify(r);
  });
  check("NaN-rich windows: the first NaN in row-major order of the kernel offsets, bit for bit", [] {
    const Run r = run(*gen::pool_case({.values = Values::NaNs}));
    check_values(r);
    classify(r);
  });
}

TEST_CASE("[MaxPool.float.zero] [MaxPool.indices] a window of ±0 and smaller values gives +0 and the index of its first "
          "+0",
          "[maxpool][props]") {
  check("-0 and +0 compete: Y = +0, I at the first +0", [] {
    const Run r = run(*gen::pool_case({.values = Values::Zeros}));
    check_values(r);
    classify(r);
  });
}

TEST_CASE("[MaxPool.prop.upper-bound] [MaxPool.prop.attained] Y bounds its window from above and is bitwise one of its "
          "members (never a padding value)",
          "[maxpool][props]") {
  check("no NaN in the window: every member <= Y; Y is a member", [] {
    const Run r = run(*gen::pool_case());
    const DType t = r.c.X.dtype();
    const Shape y = r.out[0].shape();
    for (std::int64_t o = 0; o < element_count(y); ++o) {
      const auto w = window(r.c.X.shape(), r.g, unravel(o, y));
      const std::uint64_t got = bits_at(r.out[0], o);
      bool member = false, nan = false;
      for (std::int64_t m : w) {
        const std::uint64_t x = bits_at(r.c.X, m);
        member = member || x == got;
        nan = nan || is_nan_bits(t, x);
      }
      PROP_EXPECT(member, "Y[{}] = {} is no member of its window", o, describe(t, got));
      if (nan) {
        PROP_EXPECT(is_nan_bits(t, got), "Y[{}] = {}: the window holds a NaN", o, describe(t, got));
        continue;
      }
      for (std::int64_t m : w)
        PROP_EXPECT(rank_of(t, bits_at(r.c.X, m)) <= rank_of(t, got), "Y[{}] = {} is below member {}", o,
                    describe(t, got), describe(t, bits_at(r.c.X, m)));
    }
    classify(r);
  });
}

TEST_CASE("[MaxPool.prop.indices] I designates a member of the window bitwise equal to Y, with no earlier member so",
          "[maxpool][props]") {
  check("X at I (row-major, or by iota_1) is in W, equals Y, and no earlier member equals Y", [] {
    PoolCase c = *gen::pool_case({.versions = {8, 10, 11, 12, 22}});
    c.indices = true;
    const Run r = run(c);
    const Shape& x = c.X.shape();
    const Shape y = r.out[0].shape();
    for (std::int64_t o = 0; o < element_count(y); ++o) {
      const auto w = window(x, r.g, unravel(o, y));
      const auto I = static_cast<std::int64_t>(bits_at(r.out[1], o));
      const bool in_range = 0 <= I && I < element_count(x);
      RC_ASSERT(in_range);
      std::int64_t designated = -1;  // the row-major offset I designates
      for (std::int64_t m = 0; m < element_count(x) && designated < 0; ++m)
        if ((c.params.storage_order == 1 ? iota1(x, m) : m) == I) designated = m;
      const auto at = std::find(w.begin(), w.end(), designated);
      PROP_EXPECT(at != w.end(), "I[{}] = {} designates offset {}, no member of the window", o, I, designated);
      PROP_EXPECT(bits_at(c.X, designated) == bits_at(r.out[0], o), "X at I[{}] differs from Y", o);
      for (auto it = w.begin(); it != at; ++it)
        PROP_EXPECT(bits_at(c.X, *it) != bits_at(r.out[0], o), "an earlier member of window {} equals Y", o);
    }
    classify(r);
  });
}

TEST_CASE("[MaxPool.indices] [MaxPool.indices.storage-order] Y depends neither on I being requested nor on "
          "storage_order",
          "[maxpool][props]") {
  check("Y with and without I, storage_order 0 and 1: the same bits", [] {
    PoolCase c = *gen::pool_case({.versions = {8, 10, 11, 12, 22}});
    const Tensor Y = ops::maxpool(c.version, c.X, c.params, false)[0];
    for (std::int64_t so : {0, 1}) {
      c.params.storage_order = so;
      RC_ASSERT(same_bits(ops::maxpool(c.version, c.X, c.params, true)[0], Y));
    }
  });
}

TEST_CASE("[MaxPool.v1] [MaxPool.v8] [MaxPool.v10] [MaxPool.v11] [MaxPool.v12] [MaxPool.v22] every version that accepts "
          "the type and the attributes gives the same Y",
          "[maxpool][props]") {
  check("attributes of version 1 (no dilations, ceil_mode): MaxPool-v(X) does not depend on v", [] {
    const PoolCase c = *gen::pool_case({.versions = {1}});
    const Tensor Y1 = ops::maxpool(1, c.X, c.params, false)[0];
    int versions = 0;
    for (int v : kMaxPoolVersions) {
      ++versions;
      RC_ASSERT(same_bits(ops::maxpool(v, c.X, c.params, false)[0], Y1));
    }
    RC_TAG(fmt::format("{} versions", versions));
  });
  check("int8 and uint8 from version 12, bfloat16 from version 22: versions 12 and 22 agree on int8 / uint8", [] {
    PoolCase c = *gen::pool_case({.versions = {12}});
    RC_PRE(family(c.X.dtype()) != Family::Float);
    RC_ASSERT(same_bits(ops::maxpool(22, c.X, c.params, c.indices)[0], ops::maxpool(12, c.X, c.params, c.indices)[0]));
  });
}

// ---- GlobalMaxPool ------------------------------------------------------------------------------

namespace {

struct GlobalCase {
  int version = 22;
  Tensor X;
};

rc::Gen<GlobalCase> global_case(Values values = Values::Edge) {
  return rc::gen::exec([values] {
    GlobalCase c;
    c.version = *gen::one_of(kGlobalMaxPoolVersions);
    const DType t = *gen::dtype_of(gen::usable(spec_globalmaxpool_types(c.version), values));
    c.X = *gen::tensor_with(t, *gen::shape({3, 5, 64, true}), values);
    return c;
  });
}

// [GlobalMaxPool.float.formula] S(n, c) in row-major order: the offsets (n C + c) P .. + P - 1, P the
// product of the spatial sizes.
std::vector<std::uint64_t> spatial_set(const Tensor& X, std::int64_t n, std::int64_t c) {
  std::int64_t P = 1;
  for (std::size_t a = 2; a < X.shape().size(); ++a) P *= X.shape()[a];
  std::vector<std::uint64_t> v;
  for (std::int64_t q = 0; q < P; ++q) v.push_back(bits_at(X, (n * X.shape()[1] + c) * P + q));
  return v;
}

Shape global_shape(const Shape& x) {
  Shape y = {x[0], x[1]};
  y.resize(x.size(), 1);
  return y;
}

}  // namespace

TEST_CASE("[GlobalMaxPool.shape] [GlobalMaxPool.float.formula] [GlobalMaxPool.float.nan] [GlobalMaxPool.float.zero] "
          "[GlobalMaxPool.empty] Y[n, c] is the first NaN of S(n, c), else its greatest element, -Inf when it is empty",
          "[globalmaxpool][props]") {
  for (const Values values : {Values::Edge, Values::NaNs, Values::Zeros})
    check(values == Values::Edge ? "edge values" : values == Values::NaNs ? "NaN-rich" : "±0 ties", [values] {
      const GlobalCase c = *global_case(values);
      const Tensor Y = ops::globalmaxpool(c.version, c.X);
      const DType t = c.X.dtype();
      RC_ASSERT(Y.shape() == global_shape(c.X.shape()));
      RC_ASSERT(Y.dtype() == t);
      bool empty_set = false, zero_tie = false;
      for (std::int64_t n = 0; n < c.X.shape()[0]; ++n)
        for (std::int64_t ch = 0; ch < c.X.shape()[1]; ++ch) {
          const auto v = spatial_set(c.X, n, ch);
          const std::uint64_t got = bits_at(Y, n * c.X.shape()[1] + ch);
          if (v.empty()) {
            empty_set = true;
            PROP_EXPECT(got == neg_inf_bits(t), "Y[{}, {}] = {} for an empty spatial set, expected -Inf", n, ch,
                        describe(t, got));
            continue;
          }
          zero_tie = zero_tie || (std::count(v.begin(), v.end(), pos_zero_bits(t)) &&
                                  std::count(v.begin(), v.end(), neg_zero_bits(t)));
          const std::uint64_t want = v[selected(t, v)];
          PROP_EXPECT(got == want, "Y[{}, {}] = {}, expected {}", n, ch, describe(t, got), describe(t, want));
        }
      RC_CLASSIFY(has_nan(c.X), "NaN");
      RC_CLASSIFY(empty_set, "empty spatial set");
      RC_CLASSIFY(zero_tie, "-0 and +0 in a spatial set");
      RC_CLASSIFY(element_count(Y.shape()) == 0, "N or C is 0");
    });
}

TEST_CASE("[GlobalMaxPool.v1] [GlobalMaxPool.v22] both versions give the same Y on the types they share",
          "[globalmaxpool][props]") {
  check("GlobalMaxPool-1(X) = GlobalMaxPool-22(X) for float16, float, double", [] {
    const DType t = *gen::dtype_of(spec_globalmaxpool_types(1));
    const Tensor X = *gen::tensor(t, *gen::shape({3, 5, 64, true}));
    RC_ASSERT(same_bits(ops::globalmaxpool(1, X), ops::globalmaxpool(22, X)));
  });
}

}  // namespace sonnx::props::maxpool_props
