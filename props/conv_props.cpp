// Properties of spec/ops/conv.md. The output shape and the terms of each output element are restated
// in gen/accuracy_model.cpp from [Conv.shape], [Conv.window], [Conv.window.padding], [Conv.group] and
// [Conv.order], with the pads and output sizes of [MaxPool.shape] and [MaxPool.pads.auto] (exact integer
// arithmetic, the window as the product of each axis's in-range kernel offsets, in row-major order of
// the offsets): the terms decide_conv reports are compared with them, and the evaluations of
// [Acc.prop.accepted] are computed from them. The 1 × 1 Conv is compared with MatMul on slices of X and
// W taken on the test side.
#include <cstring>

#include "core/accuracy.hpp"
#include "gen/accuracy_model.hpp"
#include "gen/computed_cases.hpp"
#include "gen/props.hpp"
#include "ops/conv.hpp"
#include "ops/matmul.hpp"

namespace sonnx::props::conv_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

// The rows of `x` (row-major, `rows` × `cols`) starting at `offset`, as a (rows, cols) tensor.
Tensor slice(const Tensor& x, std::int64_t offset, std::int64_t rows, std::int64_t cols) {
  Tensor out(x.dtype(), {rows, cols});
  for (std::int64_t k = 0; k < rows * cols; ++k) set_bits_at(out, k, bits_at(x, offset + k));
  return out;
}

}  // namespace

TEST_CASE("[Conv.prop.matmul] [Conv.order] [MatMul.order] a 1 × 1 Conv without pads or bias with strides and dilations 1 and "
          "group 1 is MatMul of W (M × C) and X[n] (C × P) bit for bit with the same enclosures",
          "[conv][props]") {
  check("Y[n, m, o] and MatMul(W, X[n])[m, o]: equal bits, equal hi, lo, radius, bound, oracle and allowed set", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Range range = *gen::one_of<Range>({Range::Moderate, Range::Wide, Range::Cancel, Range::Special});
    const std::int64_t N = *gen::index<std::int64_t>(1, 3), C = *gen::index<std::int64_t>(0, 6),
                       M = *gen::index<std::int64_t>(1, 4);
    const std::size_t l = *gen::index<std::size_t>(1, 3);
    Shape x = {N, C}, w = {M, C};
    ops::ConvParams p;
    for (std::size_t d = 0; d < l; ++d) {
      x.push_back(*gen::index<std::int64_t>(1, 4));
      w.push_back(1);
    }
    // the attributes spelled out or left to their defaults ([Common.gr.defaults])
    if (*gen::index(0, 2)) p.window.has_strides = true, p.window.strides.assign(l, 1);
    if (*gen::index(0, 2)) p.window.has_dilations = true, p.window.dilations.assign(l, 1);
    if (*gen::index(0, 2)) p.window.has_pads = true, p.window.pads.assign(2 * l, 0);
    if (*gen::index(0, 2)) p.has_kernel_shape = true, p.window.kernel_shape.assign(l, 1);
    if (*gen::index(0, 4) == 0) p.window.auto_pad = "VALID", p.window.has_pads = false, p.window.pads.clear();
    const int version = t == DType::BFloat16 ? 22 : *gen::one_of(kConvVersions);
    const Tensor X = *tensor_of_range(t, x, range), W = *tensor_of_range(t, w, range);
    const Tensor Y = ops::conv(version, X, W, nullptr, p);
    std::int64_t P = 1;
    for (std::size_t d = 0; d < l; ++d) P *= x[2 + d];
    RC_ASSERT(Y.size() == N * M * P);
    const Tensor Wm = slice(W, 0, M, C);
    for (std::int64_t n = 0; n < N; ++n) {
      const Tensor Z = ops::matmul(13, Wm, slice(X, n * C * P, C, P));
      RC_ASSERT(Z.shape() == (Shape{M, P}));
      for (std::int64_t e = 0; e < M * P; ++e) {
        const std::int64_t k = n * M * P + e;
        PROP_EXPECT(bits_at(Y, k) == bits_at(Z, e), "Y[{}] = {} but MatMul gives {}", k, describe(t, bits_at(Y, k)),
                    describe(t, bits_at(Z, e)));
        const accuracy::Element a = Y.annex->at(k), b = Z.annex->at(e);
        PROP_EXPECT(same_element(a, b), "Y[{}]: Conv's enclosure {} but MatMul's {}", k, element_text(a), element_text(b));
      }
    }
    RC_TAG(name(t));
    RC_TAG(range_name(range));
    RC_CLASSIFY(C == 0, "C = 0: every element the empty sum");
  });
}

TEST_CASE("[Conv.prop.bound] [Acc.prop.accepted] [Conv.float.formula] every evaluation order of the terms restated from "
          "[Conv.window] in T or wider with or without fma and Kahan's sum conform",
          "[conv][props]") {
  check("up to 4 elements of a random Conv: forward, reverse, pairwise, blocked, random trees, wider formats, Kahan", [] {
    const ConvCase c = *conv_case();
    const Computed r = run(c);
    int judged = 0;
    bool padded = false;
    for (int i = 0; i < 4 && r.Y.size() > 0; ++i) {
      const std::int64_t k = *gen::index<std::int64_t>(0, r.Y.size());
      const auto& terms = r.terms[static_cast<std::size_t>(k)];
      std::int64_t full = c.W.shape()[1];  // C_g times the kernel size: the products of a window inside X
      for (std::size_t d = 2; d < c.W.shape().size(); ++d) full *= c.W.shape()[d];
      padded = padded || static_cast<std::int64_t>(terms.size()) - (c.B ? 1 : 0) < full;
      judged += check_accepted(r.t, terms, r.Y.annex->at(k), restate(r.t, terms, 0), fmt::format("Conv Y[{}]", k));
    }
    RC_TAG(name(r.t));
    RC_TAG(range_name(c.range));
    RC_CLASSIFY(padded, "a window partly in the padding");
    RC_CLASSIFY(c.p.group > 1, "group > 1");
    RC_CLASSIFY(judged == 0, "empty Y");
  });
}

TEST_CASE("[Conv.prop.terms] [Conv.shape] [Conv.window] [Conv.window.padding] [Conv.group] [Conv.order] the terms decide_conv "
          "reports are exactly the window's products restated from the geometry of MaxPool then the bias",
          "[conv][props]") {
  // A window that starts in the end padding, with a dilation (Conv's pads may reach the kernel, unlike
  // MaxPool's): X = [1] (1, 1, 1), W = [1] (1, 1, 1), dilations [2], pads [0, 1]: e = 1, O = ⌊(1 + 0 + 1 -
  // 1)/1⌋ + 1 = 2. At o = 1 the one kernel offset falls on position 1, beyond X: no term
  // ([Conv.window.padding]), so Y[0, 0, 1] is the empty sum, +0 ([Acc.run]), of radius 0 (n = 0).
  {
    Tensor X(DType::Float, {1, 1, 1}), W(DType::Float, {1, 1, 1});
    set_bits_at(X, 0, 0x3F800000), set_bits_at(W, 0, 0x3F800000);
    ops::ConvParams p;
    p.window.has_dilations = true, p.window.dilations = {2};
    p.window.has_pads = true, p.window.pads = {0, 1};
    const ConvGeometry g = conv_geometry(X.shape(), W.shape(), p);
    REQUIRE(conv_shape(X.shape(), W.shape(), g) == (Shape{1, 1, 2}));
    REQUIRE(conv_terms(X.shape(), W.shape(), false, p, g, {0, 0, 1}).empty());
    const Tensor Y = ops::conv(22, X, W, nullptr, p);
    REQUIRE(Y.shape() == (Shape{1, 1, 2}));
    CHECK(bits_at(Y, 0) == 0x3F800000);  // 1·1
    CHECK(bits_at(Y, 1) == 0x00000000);  // +0: the empty sum
    CHECK(Y.annex->at(1).radius == 0.0);
  }
  check("Y's shape is (N, M, O_1..O_l), and at every index the terms are X[n, g(m)·C_g + c', x(o, q)]·W[m, c', q] in the "
        "order c', q, then B[m]",
        [] {
          const ConvCase c = *conv_case({.ranges = {Range::Moderate, Range::Special}});
          const Tensor Y = ops::conv(c.version, c.X, c.W, c.B ? &*c.B : nullptr, c.p);
          const ConvGeometry g = conv_geometry(c.X.shape(), c.W.shape(), c.p);
          const Shape shape = conv_shape(c.X.shape(), c.W.shape(), g);
          RC_ASSERT(Y.shape() == shape);
          ops::NodeValues v;
          v.inputs = {&c.X, &c.W};
          v.input_names = {"X", "W"};
          if (c.B) v.inputs.push_back(&*c.B), v.input_names.push_back("B");
          v.output = &Y;
          v.output_name = "Y";
          bool padded = false, empty_window = false;
          std::int64_t full = c.W.shape()[1];
          for (std::size_t d = 2; d < c.W.shape().size(); ++d) full *= c.W.shape()[d];
          const std::int64_t checked = std::min<std::int64_t>(Y.size(), 24);
          for (std::int64_t i = 0; i < checked; ++i) {
            const std::int64_t k = Y.size() <= 24 ? i : *gen::index<std::int64_t>(0, Y.size());
            const Index index = unravel(k, shape);
            const auto want = conv_terms(c.X.shape(), c.W.shape(), c.B.has_value(), c.p, g, index);
            const ops::Decision d = ops::decide_conv(c.version, v, c.p, index);
            RC_ASSERT(d.computed.has_value());
            PROP_EXPECT(d.computed->terms == static_cast<std::int64_t>(want.size()), "Y{}: {} terms reported, {} restated",
                        to_string(index), d.computed->terms, want.size());
            for (std::size_t t = 0; t < want.size(); ++t) {
              const ops::Term got = d.computed->term(static_cast<std::int64_t>(t));
              PROP_EXPECT(got.scalars.empty(), "Y{}: term {} has scalar factors", to_string(index), t);
              PROP_EXPECT(got.factors.size() == want[t].members.size(), "Y{}: term {} has {} factors, {} restated", to_string(index), t,
                          got.factors.size(), want[t].members.size());
              for (std::size_t f = 0; f < got.factors.size(); ++f)
                PROP_EXPECT(static_cast<int>(got.factors[f].input) == want[t].members[f].first &&
                                got.factors[f].offset == want[t].members[f].second,
                            "Y{}: factor {} of term {} is input {} offset {}, restated input {} offset {}", to_string(index), f, t,
                            got.factors[f].input, got.factors[f].offset, want[t].members[f].first, want[t].members[f].second);
            }
            const std::int64_t products = static_cast<std::int64_t>(want.size()) - (c.B ? 1 : 0);
            padded = padded || products < full;
            empty_window = empty_window || (products == 0 && full > 0);
          }
          RC_TAG(name(c.X.dtype()));
          RC_CLASSIFY(padded, "a window partly in the padding");
          RC_CLASSIFY(empty_window, "a window wholly in the padding");
          RC_CLASSIFY(c.p.group > 1, "group > 1");
          RC_CLASSIFY(c.p.window.auto_pad != "NOTSET", "auto_pad " + c.p.window.auto_pad);
          RC_CLASSIFY(c.p.window.has_dilations && std::any_of(c.p.window.dilations.begin(), c.p.window.dilations.end(),
                                                              [](std::int64_t x) { return x > 1; }),
                      "dilation > 1");
          RC_CLASSIFY(c.X.rank() == 4, "2 spatial axes");
        });
}

}  // namespace sonnx::props::conv_props
