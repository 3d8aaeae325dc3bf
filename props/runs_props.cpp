// Properties of the run kernels of src/core/runs.hpp that the operators' fast paths rest on, against
// restatements of spec/common/order.md written here: the left fold of max_of (min_of) column by column,
// and the first (last) element with given bits or the first (last) NaN found by a plain walk. The order
// is the bit-pattern ranking of spec_facts.hpp (rank_of), not src/core/order.hpp's comparisons. The
// kernels run at the active instruction-set level (at_active_level), as the operators run them.
// Lengths and column counts are drawn around the kernels' block sizes (kRunBlock, kLanes) and row
// counts around kRowGroup; values from a small pool (ties), with NaNs of several payloads and signs, +0 and -0
// planted at drawn positions, so that a block may hold a NaN, a zero tie, both or neither.
#include <bit>
#include <cstring>
#include <memory>

#include "core/isa.hpp"
#include "core/runs.hpp"
#include "ops/position.hpp"
#include "oracle/golden.hpp"
#include "gen/props.hpp"

namespace sonnx::props::runs_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

template <class T> T from_bits(std::uint64_t b) {
  if constexpr (std::is_same_v<T, bool>) return b != 0;
  else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return T{static_cast<std::uint16_t>(b)};
  else return std::bit_cast<T>(static_cast<bits_t<T>>(b));
}
template <class T> std::uint64_t to_bits(T x) {
  if constexpr (std::is_same_v<T, bool>) return x ? 1 : 0;
  else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return bits(x);
  else return std::bit_cast<bits_t<T>>(x);
}

// The elements of the patterns v, in an array of T (std::vector<bool> has no data()).
template <class T> std::unique_ptr<T[]> elements(const std::vector<std::uint64_t>& v) {
  auto out = std::make_unique<T[]>(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) out[k] = from_bits<T>(v[k]);
  return out;
}

// [Common.order.max] [Common.order.min] restated on bit patterns: a if a is a NaN; else b if b is a
// NaN; else b if a ≺ b (max order; b ≺ a in the min order); else a.
std::uint64_t spec_select(DType t, bool max, std::uint64_t a, std::uint64_t b) {
  if (is_nan_bits(t, a)) return a;
  if (is_nan_bits(t, b)) return b;
  const Rank ra = rank_of(t, a), rb = rank_of(t, b);
  return (max ? ra < rb : rb < ra) ? b : a;
}

// A length around the block sizes of runs.hpp, or a short one.
rc::Gen<std::int64_t> length_near_blocks(std::int64_t min) {
  std::vector<std::int64_t> near;
  for (std::int64_t base : {kLanes, 2 * kLanes, kRunBlock, 2 * kRunBlock})
    for (std::int64_t d : {-1, 0, 1, 3}) near.push_back(base + d);
  return rc::gen::oneOf(gen::index<std::int64_t>(min, 2 * kLanes + 2), gen::one_of(near));
}

// `count` patterns of t: a pool of non-NaN values (ties), then NaNs with payloads and zeros of both
// signs planted at drawn positions.
std::vector<std::uint64_t> run_values(DType t, std::int64_t count) {
  const auto pool = *gen::pool_of(gen::non_nan_element(t), 6);
  // The bulk of a long run from one drawn seed (RapidCheck then shrinks the plantings): the
  // splitmix64 stream golden's drawn inputs use.
  golden::Stream r(*rc::gen::arbitrary<std::uint64_t>(), 0, 0);
  std::vector<std::uint64_t> v(static_cast<std::size_t>(count));
  for (auto& x : v) x = pool[r.next() % pool.size()];
  std::vector<std::uint64_t> special = gen::nan_values(t);
  if (family(t) == Family::Float) special.push_back(pos_zero_bits(t)), special.push_back(neg_zero_bits(t));
  else special = gen::edge_values(t);
  if (count > 0 && !special.empty()) {
    const auto planted = *gen::index(0, 9);
    for (int k = 0; k < planted; ++k)
      v[static_cast<std::size_t>(*gen::index<std::int64_t>(0, count))] = *gen::one_of(special);
  }
  return v;
}

std::string hex(std::uint64_t b) { return fmt::format("0x{:X}", b); }

// [Common.order.max] [Common.order.min] fold_rows: rows folded into y (any number, at any step) give,
// in every column, the left fold of max_of (min_of) from y over that column, bit for bit.
template <class T, Extreme E> void check_fold_rows(const char* type_name) {
  const DType t = dtype_of<T>();
  const bool max = E == Extreme::Max;
  check(fmt::format("{} {}: fold_rows = the left fold of {} per column", type_name, max ? "max" : "min",
                    max ? "max_of" : "min_of"),
        [&] {
          const std::int64_t n = *length_near_blocks(0);
          const auto rows = *gen::index<std::int64_t>(0, 3 * kRowGroup + 2);
          const auto gap = *gen::one_of<std::int64_t>({0, 0, 1, 5});  // step = n + gap: rows apart in X
          const std::int64_t step = n + gap;
          // y's start (its own row), then the rows; the gaps hold values no fold may read.
          const std::vector<std::uint64_t> v = run_values(t, n + rows * step);
          const auto all = elements<T>(v);
          const auto y = elements<T>({v.begin(), v.begin() + n});
          at_active_level([&] { fold_rows<E>(y.get(), all.get() + n, rows, n, step); });  // as the operators call it
          bool nan = false, zero_tie = false;
          for (std::int64_t c = 0; c < n; ++c) {
            std::uint64_t expected = v[static_cast<std::size_t>(c)];
            for (std::int64_t r = 0; r < rows; ++r) {
              const std::uint64_t b = v[static_cast<std::size_t>(n + r * step + c)];
              const bool zeros = family(t) == Family::Float && (b == pos_zero_bits(t) || b == neg_zero_bits(t)) &&
                                 (expected == pos_zero_bits(t) || expected == neg_zero_bits(t));
              zero_tie = zero_tie || (zeros && b != expected);
              expected = spec_select(t, max, expected, b);
            }
            nan = nan || is_nan_bits(t, expected);
            PROP_EXPECT(to_bits(y[static_cast<std::size_t>(c)]) == expected, "column {} of {} ({} rows, step {}): {} != {}",
                        c, n, rows, step, hex(to_bits(y[static_cast<std::size_t>(c)])), hex(expected));
          }
          RC_CLASSIFY(n >= kRunBlock, "a column count past kRunBlock");
          RC_CLASSIFY(rows > kRowGroup && rows % kRowGroup != 0, "groups of rows and a remainder");
          RC_CLASSIFY(nan, "a NaN column");
          RC_CLASSIFY(zero_tie, "+0 against -0");
        });
}

// first_equal / last_equal / first_nan / last_nan against a plain walk of the run.
template <class T> void check_searches(const char* type_name) {
  const DType t = dtype_of<T>();
  check(fmt::format("{}: first_equal, last_equal, first_nan, last_nan = the first (last) match of a plain walk", type_name),
        [&] {
          const std::int64_t n = *length_near_blocks(0);
          const std::vector<std::uint64_t> v = run_values(t, n);
          const auto held = elements<T>(v);
          const T* const x = held.get();
          // The value searched for: one of the run (a planted one when there is one), or any element.
          const std::uint64_t want =
              n > 0 && *rc::gen::arbitrary<bool>() ? v[static_cast<std::size_t>(*gen::index<std::int64_t>(0, n))]
                                                   : *gen::element(t);
          std::int64_t first = n, last = -1, first_n = n, last_n = -1;
          for (std::int64_t k = 0; k < n; ++k) {
            const std::uint64_t b = v[static_cast<std::size_t>(k)];
            if (b == want && first == n) first = k;
            if (b == want) last = k;
            if (is_nan_bits(t, b) && first_n == n) first_n = k;
            if (is_nan_bits(t, b)) last_n = k;
          }
          const T w = from_bits<T>(want);
          std::int64_t got[4];
          at_active_level([&] {  // as the operators call them
            got[0] = first_equal(x, n, w), got[1] = last_equal(x, n, w), got[2] = first_nan(x, n), got[3] = last_nan(x, n);
          });
          PROP_EXPECT(got[0] == first, "first_equal {} in {}: {} != {}", hex(want), n, got[0], first);
          PROP_EXPECT(got[1] == last, "last_equal {} in {}: {} != {}", hex(want), n, got[1], last);
          PROP_EXPECT(got[2] == first_n, "first_nan in {}: {} != {}", n, got[2], first_n);
          PROP_EXPECT(got[3] == last_n, "last_nan in {}: {} != {}", n, got[3], last_n);
          RC_CLASSIFY(first >= kLanes, "first match past the first block");
          RC_CLASSIFY(last >= 0 && last < n - kLanes, "last match before the last block");
          RC_CLASSIFY(last_n >= 0, "a NaN");
        });
}

// position_in_run (ArgMax's, ArgMin's and Hardmax's position in a contiguous run: one scan, then a
// search) against the rule restated on bit patterns: the first (last) NaN if the run holds one, else
// the first (last) element with the bits of the fold's extreme.
template <class T, Extreme E> void check_positions(const char* type_name) {
  const DType t = dtype_of<T>();
  const bool max = E == Extreme::Max;
  check(fmt::format("{} {}: position_in_run = the first (last) NaN, else the first (last) extreme",
                    type_name, max ? "max" : "min"),
        [&] {
          const std::int64_t n = *length_near_blocks(1);
          const bool last = *rc::gen::arbitrary<bool>();
          std::vector<std::uint64_t> v = run_values(t, n);
          if (*rc::gen::arbitrary<bool>()) {  // half of the runs without a NaN: the search for the extreme
            const std::uint64_t instead = *gen::non_nan_element(t);
            for (auto& b : v) b = is_nan_bits(t, b) ? instead : b;
          }
          const auto held = elements<T>(v);
          std::uint64_t extreme = v[0];
          for (std::int64_t k = 1; k < n; ++k) extreme = spec_select(t, max, extreme, v[static_cast<std::size_t>(k)]);
          const bool nan = is_nan_bits(t, extreme);
          std::int64_t expected = -1;
          for (std::int64_t k = 0; k < n; ++k) {
            const std::uint64_t b = v[static_cast<std::size_t>(k)];
            if ((nan ? is_nan_bits(t, b) : b == extreme) && (last || expected < 0)) expected = k;
          }
          std::int64_t got = -2;
          at_active_level([&] { got = ops::position_in_run<E>(held.get(), n, last); });  // as the operators call it
          PROP_EXPECT(got == expected, "position_in_run ({}) in {}: {} != {}", last ? "last" : "first", n, got, expected);
          const bool zero = family(t) == Family::Float && (extreme == pos_zero_bits(t) || extreme == neg_zero_bits(t));
          RC_CLASSIFY(nan, "a NaN");
          RC_CLASSIFY(zero, "a zero extreme");
          RC_CLASSIFY(expected >= n - n % kLanes && n >= kLanes, "after the last whole block");
        });
}

}  // namespace

TEST_CASE("[Common.order.max] [Common.order.min] [Common.order.nan-payload] [Common.order.total] the position of the "
          "first (last) extreme in a run, NaN and zero sign included, as the plain walk finds it",
          "[core][props]") {
  check_positions<float, Extreme::Max>("float");
  check_positions<float, Extreme::Min>("float");
  check_positions<double, Extreme::Max>("double");
  check_positions<double, Extreme::Min>("double");
  check_positions<float16, Extreme::Max>("float16");
  check_positions<bfloat16, Extreme::Min>("bfloat16");
  check_positions<std::int8_t, Extreme::Max>("int8");
  check_positions<std::uint16_t, Extreme::Min>("uint16");
}

TEST_CASE("[Common.order.max] [Common.order.min] [Common.order.nan-payload] [Common.order.total] fold_rows: "
          "rows folded into y give each column's left fold of max_of (min_of), first NaN and zero sign included",
          "[core][props]") {
  check_fold_rows<float, Extreme::Max>("float");
  check_fold_rows<float, Extreme::Min>("float");
  check_fold_rows<double, Extreme::Max>("double");
  check_fold_rows<double, Extreme::Min>("double");
  check_fold_rows<float16, Extreme::Max>("float16");
  check_fold_rows<bfloat16, Extreme::Min>("bfloat16");
  check_fold_rows<std::int8_t, Extreme::Max>("int8");
  check_fold_rows<std::uint16_t, Extreme::Min>("uint16");
  check_fold_rows<bool, Extreme::Max>("bool");
}

TEST_CASE("[Common.order.nan-payload] [Common.order.total] the first and last element with given bits, the first and "
          "last NaN: the position a plain walk finds, across search blocks",
          "[core][props]") {
  check_searches<float>("float");
  check_searches<double>("double");
  check_searches<float16>("float16");
  check_searches<std::int8_t>("int8");
  check_searches<std::uint32_t>("uint32");
}

}  // namespace sonnx::props::runs_props
