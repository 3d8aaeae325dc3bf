// Properties of spec/ops/hardmax.md. The lines along which Hardmax places its 1 — the slices along
// the axis (version 13) or the rows of the 2-D view [N, D] (versions 1 and 11) — are enumerated
// here from their definitions; the 1 is checked against the clauses stated as predicates (the
// first NaN; else an element no element beats, with every earlier element strictly below it).
#include <algorithm>

#include "gen/props.hpp"
#include "ops/hardmax.hpp"

namespace sonnx::props::hardmax_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

using Line = std::vector<std::int64_t>;  // offsets of one slice / row, in order of position

// [Hardmax.float.formula] The slices along axis k: the offsets that agree on every coordinate
// but k, in increasing i_k.
std::vector<Line> slices(const Shape& s, std::int64_t k) {
  if (element_count(s) == 0) return {};  // [Hardmax.empty] no element, no slice
  Shape starts = s;
  starts[k] = 1;
  std::vector<Line> lines(static_cast<std::size_t>(element_count(starts)));
  for (std::int64_t o = 0; o < element_count(s); ++o) {
    Index i = unravel(o, s);
    i[k] = 0;
    lines[static_cast<std::size_t>(ravel(i, starts))].push_back(o);
  }
  return lines;
}

// [Hardmax.coerce] The rows of the 2-D view [N, D], D = d_k * ... * d_{r-1}: row n holds the
// row-major offsets n*D .. n*D + D - 1.
std::vector<Line> rows(const Shape& s, std::int64_t k) {
  std::int64_t D = 1;
  for (std::size_t a = static_cast<std::size_t>(k); a < s.size(); ++a) D *= s[a];
  std::vector<Line> lines;
  if (D == 0) return lines;
  for (std::int64_t n = 0; n < element_count(s) / D; ++n) {
    Line line;
    for (std::int64_t d = 0; d < D; ++d) line.push_back(n * D + d);
    lines.push_back(line);
  }
  return lines;
}

std::int64_t normalised(std::int64_t axis, std::int64_t r) { return axis < 0 ? axis + r : axis; }

// The lines a case is evaluated along.
std::vector<Line> lines_of(const HardmaxCase& c) {
  const std::int64_t k = normalised(c.axis, c.input.rank());
  return c.version >= 13 ? slices(c.input.shape(), k) : rows(c.input.shape(), k);
}

// [Hardmax.prop.one-hot] [Hardmax.float.values] exactly one element of the line is 1 (its exact
// pattern), all others are +0; returns the position of the 1.
std::size_t one_hot_position(const Tensor& Y, const Line& line) {
  const DType t = Y.dtype();
  std::size_t ones = 0, at = 0;
  for (std::size_t p = 0; p < line.size(); ++p) {
    const std::uint64_t y = bits_at(Y, line[p]);
    if (y == one_bits(t)) {
      ++ones;
      at = p;
    } else {
      PROP_EXPECT(y == pos_zero_bits(t), "Y at offset {} = {}: neither 1 nor +0", line[p], describe(t, y));
    }
  }
  PROP_EXPECT(ones == 1, "{} ones in the line of offsets {}", ones, to_string(line));
  return at;
}

// [Hardmax.float.nan] [Hardmax.float.first-max] Where the 1 must be: the first NaN if the line has
// one; else at a position p whose element no element of the line is above, every element before
// p being strictly below it.
void expect_position(const Tensor& X, const Line& line, std::size_t p) {
  const DType t = X.dtype();
  std::vector<std::uint64_t> xs;
  for (std::int64_t o : line) xs.push_back(bits_at(X, o));
  const auto nan = std::find_if(xs.begin(), xs.end(), [&](std::uint64_t x) { return is_nan_bits(t, x); });
  if (nan != xs.end()) {
    PROP_EXPECT(p == static_cast<std::size_t>(nan - xs.begin()), "the 1 is at {}, the first NaN at {} (line {})", p,
                nan - xs.begin(), describe(t, xs[static_cast<std::size_t>(nan - xs.begin())]));
    return;
  }
  for (std::size_t q = 0; q < xs.size(); ++q) {
    PROP_EXPECT(rank_of(t, xs[q]) <= rank_of(t, xs[p]), "the 1 is at {} ({}) but {} at {} is greater", p,
                describe(t, xs[p]), describe(t, xs[q]), q);
    if (q < p)
      PROP_EXPECT(rank_of(t, xs[q]) < rank_of(t, xs[p]), "the 1 is at {} ({}) but {} at {} is an earlier maximum", p,
                  describe(t, xs[p]), describe(t, xs[q]), q);
  }
}

struct LineStats {
  bool nan = false, tie = false, zero_tie = false, long_line = false;
};
LineStats stats(const Tensor& X, const std::vector<Line>& lines) {
  const DType t = X.dtype();
  LineStats s;
  for (const Line& line : lines) {
    std::vector<std::uint64_t> xs;
    for (std::int64_t o : line) xs.push_back(bits_at(X, o));
    bool nz = false, pz = false;
    for (std::size_t p = 0; p < xs.size(); ++p) {
      s.nan = s.nan || is_nan_bits(t, xs[p]);
      nz = nz || xs[p] == neg_zero_bits(t);
      pz = pz || xs[p] == pos_zero_bits(t);
      for (std::size_t q = 0; q < p; ++q) s.tie = s.tie || xs[q] == xs[p];
    }
    s.zero_tie = s.zero_tie || (nz && pz);
    s.long_line = s.long_line || line.size() >= 4;
  }
  return s;
}

void classify(const HardmaxCase& c, const std::vector<Line>& lines) {
  const LineStats s = stats(c.input, lines);
  RC_CLASSIFY(s.nan, "NaN in a line");
  RC_CLASSIFY(s.tie, "equal elements in a line");
  RC_CLASSIFY(s.zero_tie, "-0 and +0 in a line");
  RC_CLASSIFY(element_count(c.input.shape()) == 0, "empty");
  RC_CLASSIFY(c.axis < 0, "negative axis");
}

// Checks one-hot and position on every line of a case.
void check_lines(const HardmaxCase& c, const Tensor& Y) {
  const auto lines = lines_of(c);
  for (const Line& line : lines) expect_position(c.input, line, one_hot_position(Y, line));
  classify(c, lines);
}

}  // namespace

TEST_CASE("[Hardmax.prop.one-hot] [Hardmax.float.formula] [Hardmax.float.values] [Hardmax.v13] "
          "every slice along the axis holds exactly one 1 (bit pattern of 1 in T) and +0 elsewhere",
          "[hardmax][props]") {
  check("one 1 per slice, all other elements +0", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {13}});
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    RC_ASSERT(Y.shape() == c.input.shape());
    for (const Line& line : lines_of(c)) one_hot_position(Y, line);
    classify(c, lines_of(c));
  });
}

TEST_CASE("[Hardmax.prop.first-max] [Hardmax.float.first-max] [Common.order.total] "
          "without NaN the 1 is at the first element equal to the slice maximum",
          "[hardmax][props]") {
  check("no NaN: the 1 is at a maximum, and every earlier element is strictly smaller", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {13}, .values = Values::NoNaN});
    check_lines(c, ops::hardmax(c.version, c.input, c.axis));
  });
}

TEST_CASE("[Hardmax.float.nan] [Common.order.nan] a slice holding a NaN gets its 1 at its first NaN",
          "[hardmax][props]") {
  check("the 1 is at the first NaN of the slice", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {13}, .values = Values::NaNs});
    check_lines(c, ops::hardmax(c.version, c.input, c.axis));
  });
}

TEST_CASE("[Hardmax.float.zero] [Common.order.total] with ±0 as the greatest values the 1 goes to the first +0",
          "[hardmax][props]") {
  check("slices of -0, +0 and smaller values: the 1 is at the first +0", [] {
    const HardmaxCase c = *gen::hardmax_case({.values = Values::Zeros});
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    const DType t = c.input.dtype();
    bool neg_before_pos = false;
    for (const Line& line : lines_of(c)) {
      const std::size_t p = one_hot_position(Y, line);
      std::vector<std::uint64_t> xs;
      for (std::int64_t o : line) xs.push_back(bits_at(c.input, o));
      const auto above = std::any_of(xs.begin(), xs.end(),
                                     [&](std::uint64_t x) { return is_nan_bits(t, x) || rank_of(t, x) > 0; });
      const auto pos = std::find(xs.begin(), xs.end(), pos_zero_bits(t));
      if (above || pos == xs.end()) continue;
      const auto neg = std::find(xs.begin(), xs.end(), neg_zero_bits(t));
      neg_before_pos = neg_before_pos || neg < pos;
      PROP_EXPECT(p == static_cast<std::size_t>(pos - xs.begin()), "the 1 is at {}, the first +0 at {}", p,
                  pos - xs.begin());
    }
    RC_CLASSIFY(neg_before_pos, "-0 before +0");
  });
}

TEST_CASE("[Hardmax.coerce] [Hardmax.v1] [Hardmax.v11] [Hardmax.float.formula] [Hardmax.float.first-max] "
          "[Hardmax.float.nan] versions 1 and 11: one 1 per row of the 2-D view [N, D], at its first NaN or maximum",
          "[hardmax][props]") {
  check("rows n*D .. n*D+D-1: one-hot at the first NaN, else the first maximum", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {1, 11}});
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    RC_ASSERT(Y.shape() == c.input.shape());
    check_lines(c, Y);
    const std::int64_t k = normalised(c.axis, c.input.rank());
    RC_CLASSIFY(k + 1 < c.input.rank(), "D spans several axes");
    RC_CLASSIFY(k == 0, "N = 1");
  });
}

TEST_CASE("[Hardmax.coerce] [Hardmax.v11] [Hardmax.v13] Hardmax-11 along axis k is Hardmax-13 along axis 1 of the "
          "[N, D] reshape",
          "[hardmax][props]") {
  check("Hardmax-v(X, k) = reshape(Hardmax-13(reshape(X, [N, D]), 1), shape of X), v = 1, 11", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {1, 11}});
    const Shape& s = c.input.shape();
    const std::int64_t k = normalised(c.axis, c.input.rank());
    std::int64_t N = 1, D = 1;
    for (std::int64_t a = 0; a < c.input.rank(); ++a) (a < k ? N : D) *= s[a];
    Tensor X2(c.input.dtype(), {N, D}, "X as [N, D]");
    for (std::int64_t o = 0; o < element_count(s); ++o) set_bits_at(X2, o, bits_at(c.input, o));
    const Tensor Y2 = ops::hardmax(13, X2, 1);
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    RC_ASSERT(Y.shape() == s);
    for (std::int64_t o = 0; o < element_count(s); ++o)
      PROP_EXPECT(bits_at(Y, o) == bits_at(Y2, o), "offset {}: {} but the [N, D] = [{}, {}] view gives {}", o,
                  describe(Y.dtype(), bits_at(Y, o)), N, D, describe(Y.dtype(), bits_at(Y2, o)));
    RC_CLASSIFY(k + 1 < c.input.rank(), "D spans several axes");
  });
}

TEST_CASE("[Hardmax.shape] [Hardmax.prop.shape] [Hardmax.empty] [Common.tensor.empty] "
          "the output has the input's shape and type, an input without elements gives the empty output",
          "[hardmax][props]") {
  check("shape and dtype of Y are those of X", [] {
    const HardmaxCase c = *gen::hardmax_case();
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    RC_ASSERT(Y.shape() == c.input.shape());
    RC_ASSERT(Y.dtype() == c.input.dtype());
    RC_ASSERT(element_count(Y.shape()) == element_count(c.input.shape()));
    RC_CLASSIFY(element_count(c.input.shape()) == 0, "empty");
  });
  check("a zero-sized dimension: Y is empty, of the input shape", [] {
    HardmaxCase c = *gen::hardmax_case({.shape = {1, 5, 64, true}});
    Shape s = c.input.shape();
    s[*gen::index<std::size_t>(0, s.size())] = 0;
    c.input = Tensor(c.input.dtype(), s, "X");
    const Tensor Y = ops::hardmax(c.version, c.input, c.axis);
    RC_ASSERT(Y.shape() == s);
    RC_ASSERT(element_count(Y.shape()) == 0);
    RC_TAG(fmt::format("Hardmax-{}", c.version));
  });
}

TEST_CASE("[Hardmax.axis.normalise] [Hardmax.v11] [Hardmax.v13] a negative axis a names axis a + r",
          "[hardmax][props]") {
  check("Hardmax(X, a) = Hardmax(X, a + r) for a < 0", [] {
    HardmaxCase c = *gen::hardmax_case({.versions = {11, 13}});
    const std::int64_t r = c.input.rank();
    const std::int64_t k = normalised(c.axis, r);
    RC_ASSERT(same_bits(ops::hardmax(c.version, c.input, k - r), ops::hardmax(c.version, c.input, k)));
  });
}

TEST_CASE("[Hardmax.prop.v13-v11-rank2] on a rank-2 input with axis 1, Hardmax-13 equals Hardmax-11 and Hardmax-1",
          "[hardmax][props]") {
  check("rank 2, axis 1 (or -1): versions 1, 11, 13 agree", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {11}, .shape = {2, 2, 64, true}});
    const Tensor Y13 = ops::hardmax(13, c.input, 1);
    RC_ASSERT(same_bits(ops::hardmax(11, c.input, 1), Y13));
    RC_ASSERT(same_bits(ops::hardmax(11, c.input, -1), Y13));
    RC_ASSERT(same_bits(ops::hardmax(1, c.input, 1), Y13));
    RC_ASSERT(same_bits(ops::hardmax(13, c.input, -1), Y13));
    RC_CLASSIFY(has_nan(c.input), "NaN");
  });
  check("any rank r >= 1 with the axis normalised to r - 1: versions 11 and 13 agree", [] {
    const HardmaxCase c = *gen::hardmax_case({.versions = {11}});
    const std::int64_t last = c.input.rank() - 1;
    const Tensor Y13 = ops::hardmax(13, c.input, last);
    RC_ASSERT(same_bits(ops::hardmax(11, c.input, last), Y13));
    RC_ASSERT(same_bits(ops::hardmax(11, c.input, -1), Y13));
    RC_CLASSIFY(c.input.rank() > 2, "rank > 2");
  });
}

}  // namespace sonnx::props::hardmax_props
