// Properties of spec/ops/argmax.md and spec/ops/argmin.md: the two operators are the same steps
// under the two orders, and every test case checks both, one `check` each. The slices along the
// axis are enumerated here from their definition (the input indices that agree with an output
// index on every other axis, in increasing position); the position is checked against the clauses
// stated as predicates on the slice (the first NaN; else an element no element beats, every earlier
// element being beaten by it; with select_last_index = 1 the same from the end), with the order as
// the bit-pattern ranking of spec_facts.hpp.
#include <algorithm>

#include "gen/props.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"

namespace sonnx::props::argmax_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

bool is_max(const std::string& op) { return op == "ArgMax"; }

Tensor run(const ArgCase& c) {
  return is_max(c.op) ? ops::argmax(c.version, c.input, c.params()) : ops::argmin(c.version, c.input, c.params());
}

std::int64_t normalised(std::int64_t axis, std::int64_t r) { return axis < 0 ? axis + r : axis; }

// [ArgMax.shape] [ArgMin.shape] X's shape with the axis set to 1 (keepdims = 1) or removed.
Shape expected_shape(const Shape& s, std::int64_t k, std::int64_t keepdims) {
  Shape out;
  for (std::size_t a = 0; a < s.size(); ++a)
    if (static_cast<std::int64_t>(a) != k) out.push_back(s[a]);
    else if (keepdims == 1) out.push_back(1);
  return out;
}

// The slices along axis k, one per index of the keepdims = 1 output in row-major order: slice j
// holds the elements X[i] with i = j but coordinate k = 0, 1, ..., d_k - 1.
std::vector<std::vector<std::uint64_t>> slices(const Tensor& X, std::int64_t k) {
  const Shape& s = X.shape();
  Shape starts = s;
  starts[k] = 1;
  if (element_count(s) == 0) return {};
  std::vector<std::vector<std::uint64_t>> V(static_cast<std::size_t>(element_count(starts)));
  for (std::int64_t o = 0; o < element_count(s); ++o) {  // increasing o: increasing coordinate k within a slice
    Index i = unravel(o, s);
    i[k] = 0;
    V[static_cast<std::size_t>(ravel(i, starts))].push_back(bits_at(X, o));
  }
  return V;
}

// a beats b in the operator's order: a ≻ b (ArgMax), a ≺ b (ArgMin); non-NaN a, b.
bool beats(const std::string& op, DType t, std::uint64_t a, std::uint64_t b) {
  return is_max(op) ? rank_of(t, a) > rank_of(t, b) : rank_of(t, a) < rank_of(t, b);
}

// [ArgMax.float.nan] [ArgMax.float.formula] [ArgMax.int.formula] [ArgMax.last-index] (and ArgMin's):
// where the position h must be in slice V.
void expect_position(const std::string& op, DType t, const std::vector<std::uint64_t>& V, std::int64_t h, bool last,
                     std::size_t j) {
  const auto n = static_cast<std::int64_t>(V.size());
  PROP_EXPECT(h >= 0 && h < n, "Y[{}] = {} is not a position of a slice of {}", j, h, n);
  std::vector<std::int64_t> nans;
  for (std::int64_t q = 0; q < n; ++q)
    if (is_nan_bits(t, V[q])) nans.push_back(q);
  if (!nans.empty()) {
    const std::int64_t expected = last ? nans.back() : nans.front();
    PROP_EXPECT(h == expected, "Y[{}] = {}, the {} NaN of the slice is at {}", j, h, last ? "last" : "first", expected);
    return;
  }
  for (std::int64_t q = 0; q < n; ++q) {
    PROP_EXPECT(!beats(op, t, V[q], V[h]), "Y[{}] = {} ({}) but {} at {} beats it", j, h, describe(t, V[h]),
                describe(t, V[q]), q);
    const bool other_side = last ? q > h : q < h;  // the elements the rule passes over must lose
    if (other_side)
      PROP_EXPECT(beats(op, t, V[h], V[q]), "Y[{}] = {} ({}) but {} at {} is an {} extreme", j, h, describe(t, V[h]),
                  describe(t, V[q]), q, last ? "later" : "earlier");
  }
}

struct Stats {
  bool nan = false, two_nans = false, tie = false, zero_tie = false, long_slice = false;
};
Stats stats(DType t, const std::vector<std::vector<std::uint64_t>>& V) {
  Stats s;
  for (const auto& v : V) {
    int nans = 0;
    bool nz = false, pz = false;
    for (std::size_t p = 0; p < v.size(); ++p) {
      nans += is_nan_bits(t, v[p]);
      nz = nz || (family(t) == Family::Float && v[p] == neg_zero_bits(t));
      pz = pz || (family(t) == Family::Float && v[p] == pos_zero_bits(t));
      for (std::size_t q = 0; q < p; ++q) s.tie = s.tie || v[q] == v[p];
    }
    s.nan = s.nan || nans > 0;
    s.two_nans = s.two_nans || nans > 1;
    s.zero_tie = s.zero_tie || (nz && pz);
    s.long_slice = s.long_slice || v.size() >= 4;
  }
  return s;
}

// Checks the shape and every position of a case; returns the output.
Tensor check_positions(const ArgCase& c) {
  const Tensor Y = run(c);
  const std::int64_t k = normalised(c.axis, c.input.rank());
  RC_ASSERT(Y.dtype() == DType::Int64);
  RC_ASSERT(Y.shape() == expected_shape(c.input.shape(), k, c.keepdims));
  const auto V = slices(c.input, k);
  RC_ASSERT(static_cast<std::int64_t>(V.size()) == element_count(Y.shape()));
  for (std::size_t j = 0; j < V.size(); ++j)
    expect_position(c.op, c.input.dtype(), V[j], static_cast<std::int64_t>(bits_at(Y, static_cast<std::int64_t>(j))),
                    c.select_last_index == 1, j);
  const Stats s = stats(c.input.dtype(), V);
  RC_CLASSIFY(s.nan, "NaN in a slice");
  RC_CLASSIFY(s.two_nans, "two NaNs in a slice");
  RC_CLASSIFY(s.tie, "equal elements in a slice");
  RC_CLASSIFY(s.zero_tie, "-0 and +0 in a slice");
  RC_CLASSIFY(c.axis < 0, "negative axis");
  RC_CLASSIFY(c.select_last_index == 1, "select_last_index = 1");
  RC_CLASSIFY(element_count(c.input.shape()) == 0, "empty input");
  return Y;
}

const char* kOps[] = {"ArgMax", "ArgMin"};

}  // namespace

TEST_CASE("[ArgMax.prop.in-range] [ArgMax.prop.first] [ArgMin.prop.in-range] [ArgMin.prop.first] "
          "[ArgMax.float.formula] [ArgMax.int.formula] [ArgMin.float.formula] [ArgMin.int.formula] "
          "[Common.order.total] [Common.order.int] without NaN Y is the first position of the greatest (least) element",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}: no NaN, select_last_index 0: Y[j] is an extreme, every earlier element loses to it", op),
          [op] { check_positions(*gen::arg_case({.values = Values::NoNaN, .op = op, .allow_last = false})); });
}

TEST_CASE("[ArgMax.float.nan] [ArgMin.float.nan] [Common.order.nan] a slice holding a NaN gives the position of its "
          "first NaN",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}: Y[j] is the first NaN of the slice", op),
          [op] { check_positions(*gen::arg_case({.values = Values::NaNs, .op = op, .allow_last = false})); });
}

TEST_CASE("[ArgMax.float.zero] [ArgMin.float.zero] [Common.order.total] -0 is below +0: ArgMax of ±0 picks the first "
          "+0, ArgMin the first -0",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}: slices of ±0 and losing values: the position of the first winning zero", op), [op] {
      const bool max = is_max(op);
      const ArgCase c = *gen::arg_case({.values = max ? Values::Zeros : Values::ZerosAbove, .op = op});
      const Tensor Y = check_positions(c);
      const DType t = c.input.dtype();
      const std::uint64_t winner = max ? pos_zero_bits(t) : neg_zero_bits(t);
      const std::uint64_t loser = max ? neg_zero_bits(t) : pos_zero_bits(t);
      const auto V = slices(c.input, normalised(c.axis, c.input.rank()));
      bool loser_first = false;
      for (std::size_t j = 0; j < V.size(); ++j) {
        const auto& v = V[j];
        const bool beaten = std::any_of(v.begin(), v.end(), [&](std::uint64_t x) {
          return is_nan_bits(t, x) || (x != winner && beats(op, t, x, winner));
        });
        if (beaten || std::find(v.begin(), v.end(), winner) == v.end()) continue;
        const auto w = c.select_last_index ? std::find(v.rbegin(), v.rend(), winner).base() - 1
                                           : std::find(v.begin(), v.end(), winner);
        const auto l = std::find(v.begin(), v.end(), loser);
        loser_first = loser_first || (l != v.end() && l < std::find(v.begin(), v.end(), winner));
        PROP_EXPECT(static_cast<std::int64_t>(bits_at(Y, static_cast<std::int64_t>(j))) == w - v.begin(),
                    "Y[{}] = {}, the {} {} is at {}", j, bits_at(Y, static_cast<std::int64_t>(j)),
                    c.select_last_index ? "last" : "first", max ? "+0" : "-0", w - v.begin());
      }
      RC_CLASSIFY(loser_first, max ? "-0 before +0" : "+0 before -0");
    });
}

TEST_CASE("[ArgMax.last-index] [ArgMin.last-index] [ArgMax.v12] [ArgMin.v12] select_last_index = 1 gives the last "
          "NaN, else the last position of the extreme",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}: select_last_index = 1: the last NaN, else an extreme every later element loses to", op),
          [op] {
            ArgCase c = *gen::arg_case({.versions = {12, 13}, .op = op});
            c.select_last_index = 1;
            check_positions(c);
          });
}

TEST_CASE("[ArgMax.prop.shape] [ArgMin.prop.shape] [ArgMax.shape] [ArgMin.shape] [ArgMax.empty] [ArgMin.empty] [Common.tensor.empty] Y is int64, X's shape "
          "with the axis 1 (keepdims 1) or removed (keepdims 0), and an input with no element gives the empty output",
          "[argmax][argmin][props]") {
  for (const char* op : kOps) {
    check(fmt::format("{}: shape and dtype of Y", op), [op] {
      const ArgCase c = *gen::arg_case({.op = op});
      const Tensor Y = run(c);
      RC_ASSERT(Y.dtype() == DType::Int64);
      RC_ASSERT(Y.shape() == expected_shape(c.input.shape(), normalised(c.axis, c.input.rank()), c.keepdims));
      RC_CLASSIFY(c.keepdims == 0, "keepdims = 0");
      RC_CLASSIFY(c.input.rank() == 1 && c.keepdims == 0, "rank-0 output");
    });
    check(fmt::format("{}: a zero-sized dimension off the axis: Y is empty", op), [op] {
      ArgCase c = *gen::arg_case({.shape = {2, 5, 64, true}, .op = op});
      Shape s = c.input.shape();
      const std::int64_t k = normalised(c.axis, c.input.rank());
      std::size_t z = *gen::index<std::size_t>(0, s.size() - 1);
      if (static_cast<std::int64_t>(z) >= k) ++z;  // any axis but k
      s[z] = 0;
      c.input = Tensor(c.input.dtype(), s, "X");
      const Tensor Y = run(c);
      RC_ASSERT(Y.shape() == expected_shape(s, k, c.keepdims));
      RC_ASSERT(element_count(Y.shape()) == 0);
      RC_TAG(fmt::format("{}-{}", op, c.version));
    });
  }
}

TEST_CASE("[ArgMax.axis.normalise] [ArgMin.axis.normalise] [ArgMax.v11] [ArgMin.v11] a negative axis a names axis "
          "a + r",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}: Y for axis a - r equals Y for axis a", op), [op] {
      ArgCase c = *gen::arg_case({.versions = {11, 12, 13}, .op = op});
      const std::int64_t r = c.input.rank();
      const std::int64_t k = normalised(c.axis, r);
      c.axis = k - r;
      const Tensor negative = run(c);
      c.axis = k;
      RC_ASSERT(same_bits(negative, run(c)));
    });
}

TEST_CASE("[ArgMax.v1] [ArgMax.v11] [ArgMax.v12] [ArgMax.v13] [ArgMin.v1] [ArgMin.v11] [ArgMin.v12] [ArgMin.v13] "
          "every version that accepts the type gives the same positions (non-negative axis, first index)",
          "[argmax][argmin][props]") {
  for (const char* op : kOps)
    check(fmt::format("{}-v(X, axis, keepdims) does not depend on v", op), [op] {
      ArgCase c = *gen::arg_case({.versions = {13}, .op = op, .allow_last = false});
      c.axis = normalised(c.axis, c.input.rank());
      const Tensor Y13 = run(c);
      int versions = 0;
      for (int v : kArgVersions) {
        if (!contains(spec_arg_types(v), c.input.dtype())) continue;
        ++versions;
        c.version = v;
        RC_ASSERT(same_bits(run(c), Y13));
      }
      RC_TAG(fmt::format("{} versions accept {}", versions, name(c.input.dtype())));
    });
}

}  // namespace sonnx::props::argmax_props
