// Properties of spec/ops/averagepool.md and spec/ops/globalaveragepool.md. The geometry is restated here
// from [MaxPool.shape], [MaxPool.shape.ceil], [MaxPool.pads.auto] and [MaxPool.window] (exact integer
// arithmetic, axis by axis), the divisor from [AveragePool.divisor] (the members, or the kernel positions
// inside [−pb, D + pe)), and the ideal (1/d)·Σ exactly (props/gen/exact: d·Y − Σ x computed without
// rounding). Nothing here calls ops/window.* or reads the operator's divisor.
#include <cstring>

#include "core/accuracy.hpp"
#include "gen/computed_cases.hpp"
#include "gen/exact.hpp"
#include "gen/props.hpp"
#include "ops/averagepool.hpp"
#include "ops/globalaveragepool.hpp"

namespace sonnx::props::averagepool_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using namespace sonnx::props::acc;

// The test side's window of one axis: pads, output size, and for output o the kernel offsets inside X
// and inside the padded axis. `refused`: the clause that refuses the attributes on this axis.
struct Axis {
  std::int64_t D, k, s, dil, pb = 0, pe = 0, O = 0;
  std::string refused;
  std::vector<std::int64_t> inside(std::int64_t o) const {  // [MaxPool.window] positions in [0, D)
    std::vector<std::int64_t> q;
    for (std::int64_t j = 0; j < k; ++j)
      if (o * s - pb + j * dil >= 0 && o * s - pb + j * dil < D) q.push_back(j);
    return q;
  }
  std::int64_t padded(std::int64_t o) const {  // [AveragePool.divisor] positions in [−pb, D + pe)
    std::int64_t c = 0;
    for (std::int64_t j = 0; j < k; ++j) c += o * s - pb + j * dil >= -pb && o * s - pb + j * dil < D + pe;
    return c;
  }
};

Axis axis(std::int64_t D, std::int64_t k, std::int64_t s, std::int64_t dil, std::int64_t pb, std::int64_t pe,
          const std::string& auto_pad, bool ceil) {
  Axis a{D, k, s, dil, 0, 0, 0, ""};
  const std::int64_t e = (k - 1) * dil + 1;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {  // [MaxPool.pads.auto]
    a.O = (D + s - 1) / s;
    const std::int64_t P = std::max<std::int64_t>(0, (a.O - 1) * s + e - D);
    a.pb = auto_pad == "SAME_UPPER" ? P / 2 : P - P / 2, a.pe = P - a.pb;
    return a;
  }
  a.pb = pb, a.pe = pe;
  const std::int64_t span = D + pb + pe - e;
  if (span < 0) {
    a.refused = "AveragePool.err.window";
    return a;
  }
  a.O = span / s + 1;  // [MaxPool.shape]
  if (ceil && span % s != 0 && a.O * s < D + pb) ++a.O;  // [MaxPool.shape.ceil]
  if (pb >= e || pe >= e) a.refused = "AveragePool.err.pads-kernel";
  return a;
}

struct PoolCase {
  int version = 19;
  Tensor X;
  ops::AveragePoolParams p;
  std::vector<Axis> axes;
};

void showValue(const PoolCase& c, std::ostream& os) {
  os << "AveragePool-" << c.version << " X " << to_string(c.X.shape()) << " " << name(c.X.dtype()) << " kernel "
     << to_string(c.p.window.kernel_shape) << " strides " << to_string(c.p.window.strides) << " pads "
     << to_string(c.p.window.pads) << " dilations " << to_string(c.p.window.dilations) << " auto_pad "
     << c.p.window.auto_pad << " ceil_mode " << c.p.window.ceil_mode << " count_include_pad " << c.p.count_include_pad;
}

rc::Gen<PoolCase> pool_case(std::vector<Range> ranges = {Range::Moderate, Range::Wide, Range::Cancel}) {
  return rc::gen::exec([ranges] {
    PoolCase c;
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    c.version = t == DType::BFloat16 ? 22 : *gen::one_of<int>({10, 11, 19, 22});
    const std::size_t l = *gen::index<std::size_t>(1, 3);
    Shape x = {*gen::index<std::int64_t>(1, 3), *gen::index<std::int64_t>(1, 3)};
    auto& w = c.p.window;
    const bool dilated = c.version >= 19 && *gen::index(0, 2);
    w.auto_pad = *gen::one_of<std::string>({"NOTSET", "NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"});
    w.ceil_mode = *gen::index(0, 2);
    c.p.count_include_pad = *gen::index(0, 2);
    std::vector<std::int64_t> pb(l), pe(l);
    for (std::size_t d = 0; d < l; ++d) {
      const std::int64_t k = *gen::index<std::int64_t>(1, 5), s = *gen::index<std::int64_t>(1, 4),
                         dil = dilated ? *gen::index<std::int64_t>(1, 4) : 1;
      const std::int64_t e = (k - 1) * dil + 1;
      x.push_back(*gen::index<std::int64_t>(1, 8));
      w.kernel_shape.push_back(k), w.strides.push_back(s), w.dilations.push_back(dil);
      pb[d] = *gen::index<std::int64_t>(0, e), pe[d] = *gen::index<std::int64_t>(0, e);  // below e: [R3]
    }
    c.p.has_kernel_shape = true;
    w.has_strides = *gen::index(0, 2) || std::any_of(w.strides.begin(), w.strides.end(), [](auto v) { return v != 1; });
    if (!w.has_strides) w.strides.clear();
    w.has_dilations = dilated;
    if (!dilated) w.dilations.clear();
    if (w.auto_pad == "NOTSET") {
      w.has_pads = true;
      w.pads = pb, w.pads.insert(w.pads.end(), pe.begin(), pe.end());
    }
    for (std::size_t d = 0; d < l; ++d)
      c.axes.push_back(axis(x[2 + d], w.kernel_shape[d], w.has_strides ? w.strides[d] : 1, dilated ? w.dilations[d] : 1,
                            w.has_pads ? pb[d] : 0, w.has_pads ? pe[d] : 0, w.auto_pad, w.ceil_mode == 1 && w.auto_pad == "NOTSET"));
    c.X = *tensor_of_range(t, x, *gen::one_of(ranges));
    return c;
  });
}

// The index of Y at row-major offset k.
std::vector<std::int64_t> index_of(std::int64_t k, const Shape& shape) {
  std::vector<std::int64_t> y(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) y[d] = k % shape[d], k /= shape[d];
  return y;
}

// The members (offsets in X, row-major order of the kernel offsets) and the divisor at output index y.
std::pair<std::vector<std::int64_t>, std::int64_t> window_of(const PoolCase& c, const std::vector<std::int64_t>& y) {
  const std::size_t l = c.axes.size();
  std::vector<std::vector<std::int64_t>> along(l);
  std::int64_t padded = 1;
  for (std::size_t d = 0; d < l; ++d) along[d] = c.axes[d].inside(y[2 + d]), padded *= c.axes[d].padded(y[2 + d]);
  std::vector<std::int64_t> offsets;
  std::vector<std::size_t> j(l, 0);
  bool empty = std::any_of(along.begin(), along.end(), [](const auto& v) { return v.empty(); });
  while (!empty) {
    std::int64_t off = y[0] * c.X.shape()[1] + y[1];
    for (std::size_t d = 0; d < l; ++d) {
      const Axis& a = c.axes[d];
      off = off * a.D + (y[2 + d] * a.s - a.pb + along[d][j[d]] * a.dil);
    }
    offsets.push_back(off);
    std::size_t d = l;
    while (d-- > 0) {
      if (++j[d] < along[d].size()) break;
      j[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  const std::int64_t n = static_cast<std::int64_t>(offsets.size());
  return {offsets, c.p.count_include_pad == 1 ? padded : n};
}

// |d·r − Σx| <= d·(R + e_o), exactly: r within R + e_o of the ideal (1/d)·Σx ([Acc.verdict]).
bool within(const std::vector<double>& x, std::int64_t d, double r, const accuracy::Element& e) {
  exact::Exact E;
  for (double v : x) E.add(v);
  const double f[2] = {r, static_cast<double>(d)};
  E.add_product(f, 2, true);
  return E.abs_le(static_cast<long double>(d) * (static_cast<long double>(e.radius) + e.oracle) * (1 + 0x1p-50L));
}

}  // namespace

TEST_CASE("[AveragePool.window] [AveragePool.divisor] [AveragePool.prop.divisor] [AveragePool.float.formula] [AveragePool.order] [AveragePool.err.empty] "
          "[AveragePool.err.window] [AveragePool.err.pads-kernel] the shape, the members, the divisor and the value restated "
          "from MaxPool's geometry, every element within its radius of the exact (1/d)·Σ",
          "[averagepool][props]") {
  check("Y's shape, each element's members and d as decide reports them, and d·Y − Σx within d·(R + e_o), exactly", [] {
    const PoolCase c = *pool_case();
    std::string refused;
    for (const Axis& a : c.axes)
      if (refused.empty()) refused = a.refused;
    const std::string got = refusal_id([&] { ops::averagepool(c.version, c.X, c.p); });
    bool empty_window = false;
    if (refused.empty()) {  // [AveragePool.err.empty] a window with no member when d counts the members
      for (const Axis& a : c.axes)
        for (std::int64_t o = 0; o < a.O; ++o) empty_window = empty_window || a.inside(o).empty();
      if (empty_window && c.p.count_include_pad == 0) refused = "AveragePool.err.empty";
    }
    RC_CLASSIFY(!refused.empty(), "refused: " + refused);
    if (!refused.empty()) {
      PROP_EXPECT(got == refused, "the restatement refuses by {} but the operator gives '{}'", refused, got);
      return;
    }
    PROP_EXPECT(got == "(accepted)", "the restatement accepts, the operator refuses: '{}'", got);
    if (got != "(accepted)") return;
    const Tensor Y = ops::averagepool(c.version, c.X, c.p);
    Shape shape = {c.X.shape()[0], c.X.shape()[1]};
    for (const Axis& a : c.axes) shape.push_back(a.O);
    RC_ASSERT(Y.shape() == shape);
    ops::NodeValues v;
    v.inputs = {&c.X};
    v.input_names = {"X"};
    v.output = &Y;
    v.output_name = "Y";
    const DType t = c.X.dtype();
    bool padded = false, counted = false, flipped_caught = false;
    const std::int64_t checked = std::min<std::int64_t>(Y.size(), 40);
    for (std::int64_t i = 0; i < checked; ++i) {
      const std::int64_t k = checked == Y.size() ? i : *gen::index<std::int64_t>(0, Y.size());
      const std::vector<std::int64_t> y = index_of(k, Y.shape());
      const auto [offsets, d] = window_of(c, y);
      const ops::Decision dec = ops::decide_averagepool(c.version, v, c.p, y);
      RC_ASSERT(dec.computed.has_value());
      PROP_EXPECT(dec.computed->terms == static_cast<std::int64_t>(offsets.size()), "Y{}: {} terms, the restatement {}",
                  to_string(y), dec.computed->terms, offsets.size());
      for (std::size_t j = 0; j < offsets.size() && j < static_cast<std::size_t>(dec.computed->terms); ++j)
        PROP_EXPECT(dec.computed->term(static_cast<std::int64_t>(j)).factors.at(0).offset == offsets[j],
                    "Y{}: term {} reads X[{}], the restatement X[{}]", to_string(y), j,
                    dec.computed->term(static_cast<std::int64_t>(j)).factors.at(0).offset, offsets[j]);
      PROP_EXPECT(dec.computed->sums.divisor == static_cast<double>(d), "Y{}: d = {}, the restatement {}", to_string(y),
                  dec.computed->sums.divisor, d);
      std::vector<double> x;
      bool finite = true;
      for (std::int64_t off : offsets) x.push_back(value_at(c.X, off)), finite = finite && std::isfinite(x.back());
      const accuracy::Element e = Y.annex->at(k);
      const double r = value_at(Y, k);
      padded = padded || static_cast<std::int64_t>(offsets.size()) < [&] {
        std::int64_t full = 1;
        for (const Axis& a : c.axes) full *= a.k;
        return full;
      }();
      counted = counted || (c.p.count_include_pad == 1 && d != static_cast<std::int64_t>(offsets.size()));
      if (!finite || !(e.allowed & accuracy::kFinite) || !std::isfinite(r)) continue;
      PROP_EXPECT(within(x, d, r, e), "Y{} = {}: not within R + e_o = {} of (1/{})·Σ", to_string(y), r, e.radius + e.oracle, d);
      // the faulty implementation: the other divisor, rounded to T; caught wherever it lies farther than R + 2e_o
      const std::int64_t other = c.p.count_include_pad == 1 ? static_cast<std::int64_t>(offsets.size()) : [&] {
        std::int64_t p = 1;
        for (std::size_t a = 0; a < c.axes.size(); ++a) p *= c.axes[a].padded(y[2 + a]);
        return p;
      }();
      if (other != d && other > 0) {
        long double s = 0;
        for (double xv : x) s += xv;
        const double wrong = exact::decode(t, exact::encode(t, static_cast<double>(s / other)));
        accuracy::Element wider = e;
        wider.radius = (e.radius + 2 * e.oracle) * (1 + 0x1p-40) + 0x1p-1070;
        if (!within(x, d, wrong, wider)) {
          PROP_EXPECT(!accuracy::judge(t, e, wrong).conforms, "Y{}: the flipped count_include_pad's {} conforms", to_string(y), wrong);
          flipped_caught = true;
        }
      }
    }
    RC_TAG(name(t));
    RC_CLASSIFY(padded, "a window partly in the padding");
    RC_CLASSIFY(counted, "count_include_pad 1 counting padded positions");
    RC_CLASSIFY(flipped_caught, "the flipped count_include_pad caught");
    RC_CLASSIFY(c.p.window.ceil_mode == 1, "ceil_mode 1");
    RC_CLASSIFY(c.p.window.has_dilations, "dilations");
  });
}

TEST_CASE("[AveragePool.prop.bound] [Acc.divisor] [Acc.prop.divisor] float and double: the sum in any order, in T or in binary64, "
          "divided by d or multiplied by fl(1/d), conforms",
          "[averagepool][props]") {
  check("forward and reverse sums in T and in double, each divided or multiplied by the reciprocal, judged by the annex", [] {
    PoolCase c = *pool_case({Range::Moderate, Range::Cancel});
    if (c.X.dtype() != DType::Float && c.X.dtype() != DType::Double) return;  // T's own arithmetic on the machine
    if (refusal_id([&] { ops::averagepool(c.version, c.X, c.p); }) != "(accepted)") return;
    const Tensor Y = ops::averagepool(c.version, c.X, c.p);
    const bool is_float = c.X.dtype() == DType::Float;
    for (std::int64_t k = 0; k < std::min<std::int64_t>(Y.size(), 12); ++k) {
      const auto [offsets, d] = window_of(c, index_of(k, Y.shape()));
      std::vector<double> x;
      for (std::int64_t off : offsets) x.push_back(value_at(c.X, off));
      const accuracy::Element e = Y.annex->at(k);
      if (!(e.allowed & accuracy::kFinite) || (e.allowed & (accuracy::kPosInf | accuracy::kNegInf))) continue;
      std::vector<double> results;
      for (int reverse = 0; reverse < 2; ++reverse) {
        float sf = 0;
        double sd = 0;
        for (std::size_t j = 0; j < x.size(); ++j) {
          const double xv = x[reverse ? x.size() - 1 - j : j];
          sf = sf + static_cast<float>(xv), sd = sd + xv;
        }
        if (is_float) {
          results.push_back(sf / static_cast<float>(d)), results.push_back(sf * (1.0f / static_cast<float>(d)));
          results.push_back(static_cast<float>(sd / static_cast<double>(d)));
        } else {
          results.push_back(sd / static_cast<double>(d)), results.push_back(sd * (1.0 / static_cast<double>(d)));
        }
      }
      for (double r : results)
        PROP_EXPECT(accuracy::judge(c.X.dtype(), e, r).conforms, "Y[{}] = {} (an evaluation in H) does not conform: R = {}", k, r,
                    e.radius);
    }
    RC_TAG(name(c.X.dtype()));
  });
}

TEST_CASE("[AveragePool.prop.global] [AveragePool.prop.cip] [GlobalAveragePool.float.formula] GlobalAveragePool is AveragePool "
          "over the whole spatial shape, count_include_pad changes nothing where no window is padded",
          "[averagepool][props]") {
  check("bits and enclosures equal", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const std::size_t l = *gen::index<std::size_t>(1, 4);
    Shape x = {*gen::index<std::int64_t>(0, 3), *gen::index<std::int64_t>(1, 3)};
    for (std::size_t d = 0; d < l; ++d) x.push_back(*gen::index<std::int64_t>(1, 6));
    const Tensor X = *tensor_of_range(t, x, *gen::one_of<Range>({Range::Moderate, Range::Wide, Range::Cancel, Range::Special}));
    ops::AveragePoolParams p;
    p.window.kernel_shape.assign(x.begin() + 2, x.end()), p.has_kernel_shape = true;
    const Tensor A = ops::averagepool(22, X, p);
    p.count_include_pad = 1;
    const Tensor B = ops::averagepool(22, X, p);
    const Tensor G = ops::globalaveragepool(22, X);
    RC_ASSERT(G.shape() == A.shape());
    for (std::int64_t k = 0; k < G.size(); ++k) {
      PROP_EXPECT(bits_at(G, k) == bits_at(A, k) && bits_at(B, k) == bits_at(A, k), "Y[{}]: {}, {}, {}", k,
                  describe(t, bits_at(G, k)), describe(t, bits_at(A, k)), describe(t, bits_at(B, k)));
      PROP_EXPECT(same_element(G.annex->at(k), A.annex->at(k)) && same_element(B.annex->at(k), A.annex->at(k)),
                  "Y[{}]: enclosures {} / {} / {}", k, element_text(G.annex->at(k)), element_text(A.annex->at(k)),
                  element_text(B.annex->at(k)));
    }
    RC_TAG(name(t));
  });
}

}  // namespace sonnx::props::averagepool_props
