// The one copy of the data-movement operators: see ops/movement.hpp.
#include "ops/movement.hpp"

#include <algorithm>
#include <cstring>

#include "core/format.hpp"
#include "core/index.hpp"

namespace sonnx::ops {

namespace {

// The unsigned integer of `width` bytes: elements are moved as bit patterns, never as numbers.
template <int W> struct word;
template <> struct word<1> { using type = std::uint8_t; };
template <> struct word<2> { using type = std::uint16_t; };
template <> struct word<4> { using type = std::uint32_t; };
template <> struct word<8> { using type = std::uint64_t; };

template <class F> void by_width(int width, F&& f) {
  switch (width) {
    case 1: f(word<1>{}); break;
    case 2: f(word<2>{}); break;
    case 4: f(word<4>{}); break;
    default: f(word<8>{}); break;
  }
}

// Tiles of the blocked copy: at most kTile elements along Y's innermost axis, and along the other axis
// as many as keep a tile within kTileBytes (a 32 x 32 tile of 8-byte elements is 8 KiB; a short
// innermost axis of 16 floats gets 256 rows: each input row read is then 1 KiB, whole cache lines).
constexpr std::int64_t kTile = 32;
constexpr std::int64_t kTileBytes = 16384;

// y[t * ys] = x[t * xs] for t in [0, n): one strided run, element by element.
template <class U> void copy_run(const U* x, std::int64_t xs, U* y, std::int64_t n) {
  for (std::int64_t t = 0; t < n; ++t) y[t] = x[t * xs];
}

// The blocked copy of two axes: Y's innermost axis (size nb, input stride sb) and axis a of Y (size na,
// output stride ya, input stride 1), for one position of the other axes: x and y at that position.
template <class U> void copy_tiles(const U* x, U* y, std::int64_t na, std::int64_t ya, std::int64_t nb, std::int64_t sb) {
  const std::int64_t tb = std::min(nb, kTile);
  const std::int64_t ta = std::max<std::int64_t>(kTile, kTileBytes / (tb * static_cast<std::int64_t>(sizeof(U))));
  for (std::int64_t a0 = 0; a0 < na; a0 += ta) {
    const std::int64_t a1 = std::min(na, a0 + ta);
    for (std::int64_t b0 = 0; b0 < nb; b0 += tb) {
      const std::int64_t b1 = std::min(nb, b0 + tb);
      for (std::int64_t a = a0; a < a1; ++a) {
        U* const row = y + a * ya;
        const U* const col = x + a;
        for (std::int64_t b = b0; b < b1; ++b) row[b] = col[b * sb];
      }
    }
  }
}

}  // namespace

void copy_elements(const std::byte* x, std::byte* y, std::int64_t count, int width) {
  if (count > 0) std::memcpy(y, x, static_cast<std::size_t>(count) * static_cast<std::size_t>(width));
}

void copy_walk(const Tensor& X, Tensor& Y, const Walk& w) {
  if (Y.size() == 0) return;
  const int width = info(X.dtype()).size;
  const std::byte* const x = X.bytes().data();
  std::byte* const y = Y.bytes().data();
  const Strides ys = row_major_strides(w.shape);
  const std::int64_t r = static_cast<std::int64_t>(w.shape.size());
  // A transpose of the last axes: Y's innermost axis (of more than one element) reads X with a stride
  // other than 1 while another axis a reads it with stride 1.
  std::int64_t a = -1;
  if (r >= 2 && w.shape[r - 1] > 1 && w.stride[r - 1] != 1)
    for (std::int64_t t = r - 2; t >= 0; --t)
      if (w.stride[t] == 1 && w.shape[t] > 1) {
        a = t;
        break;
      }
  if (a >= 0 && w.shape[a] * w.shape[r - 1] >= 4 * kTile) {
    Shape outer = w.shape;
    outer[a] = 1, outer[r - 1] = 1;  // the walker drops them: one run per position of the other axes
    by_width(width, [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* const xu = reinterpret_cast<const U*>(x) + w.base;
      U* const yu = reinterpret_cast<U*>(y);
      for (RunWalker run(outer, {w.stride, ys}); !run.done(); run.next())
        for (std::int64_t t = 0; t < run.length(); ++t)
          copy_tiles(xu + run.offset(0) + t * run.stride(0), yu + run.offset(1) + t * run.stride(1), w.shape[a], ys[a],
                     w.shape[r - 1], w.stride[r - 1]);
    });
    return;
  }
  // Runs of the merged axes: memcpy when both sides are contiguous along the run, else a strided loop.
  by_width(width, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* const xu = reinterpret_cast<const U*>(x) + w.base;
    U* const yu = reinterpret_cast<U*>(y);
    for (RunWalker run(w.shape, {w.stride, ys}); !run.done(); run.next()) {
      const U* const from = xu + run.offset(0);
      U* const to = yu + run.offset(1);
      if (run.stride(0) == 1 || run.length() == 1)
        std::memcpy(to, from, static_cast<std::size_t>(run.length()) * sizeof(U));
      else
        copy_run(from, run.stride(0), to, run.length());
    }
  });
}

Decision moved_decision(const NodeValues& v, const std::vector<std::int64_t>& j, Member m, std::string set_name,
                        std::vector<std::string> clauses, std::string parameters) {
  const Tensor& Y = *v.output;
  const std::int64_t y_offset = offset_of(j, row_major_strides(Y.shape()));
  Decision d;
  d.parameters = std::move(parameters);
  d.set.name = std::move(set_name);
  d.set.size = 1;
  d.set.member = [m](std::int64_t) { return m; };
  d.chosen = 0;
  d.copies_chosen = true;
  d.selection = true;
  const std::string y = output_name(v, j), x = member_name(v, m);
  d.reason = fmt::format("{} = {} because it is {}, moved bit for bit", y, element_text(Y, y_offset), x);
  d.situations = {{clauses.front(), ""}};
  d.clauses = std::move(clauses);
  if (!same_bits(*v.inputs[m.input], m.offset, Y, y_offset)) disagree(v, j);
  return d;
}

Reach moved_reach(const std::string& clause, DType dtype, Source source, const std::string& input_name) {
  return reach_by_pattern({clause, ""}, Pattern::Plain, 1, dtype, {source}, {input_name});
}

std::vector<std::int64_t> int_values(const Tensor& t) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(t.size()));
  if (t.dtype() == DType::Int64) {
    const auto v = t.values<std::int64_t>();
    std::copy(v.begin(), v.end(), out.begin());
  } else {
    const auto v = t.values<std::int32_t>();
    std::copy(v.begin(), v.end(), out.begin());
  }
  return out;
}

std::string join_ints(const std::vector<std::int64_t>& v) {
  std::string out;
  for (std::size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + std::to_string(v[k]);
  return out;
}

bool accepts(const std::vector<DType>& allowed, DType t) {
  return std::find(allowed.begin(), allowed.end(), t) != allowed.end();
}

}  // namespace sonnx::ops
