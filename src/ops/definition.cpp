#include "ops/definition.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/format.hpp"
#include "core/index.hpp"

namespace sonnx::ops {

std::vector<std::int64_t> listed_positions(std::int64_t n, std::optional<std::int64_t> chosen) {
  std::vector<std::int64_t> out;
  const auto limit = static_cast<std::int64_t>(kListed);
  const std::int64_t head = n <= limit ? n : limit - 1;
  for (std::int64_t k = 0; k < head; ++k) out.push_back(k);
  if (chosen && *chosen >= head) out.push_back(*chosen);
  return out;
}

std::string element_name(const std::string& tensor, const std::vector<std::int64_t>& index) {
  return tensor + to_string(index);
}

std::string member_name(const NodeValues& v, const Member& m) {
  return element_name(v.input_names[m.input], index_of(v.inputs[m.input]->shape(), m.offset));
}

std::string member_value(const NodeValues& v, const Member& m) { return element_text(*v.inputs[m.input], m.offset); }

std::string set_values(const NodeValues& v, const IndexSet& set, std::optional<std::int64_t> chosen) {
  std::string out = "{";
  const auto listed = listed_positions(set.size, chosen);
  for (std::size_t k = 0; k < listed.size(); ++k) out += (k ? ", " : "") + member_value(v, set.member(listed[k]));
  if (static_cast<std::int64_t>(listed.size()) < set.size) out += fmt::format(", ... ({} in all)", set.size);
  return out + "}";
}

std::string output_name(const NodeValues& v, const std::vector<std::int64_t>& index) {
  return element_name(v.output_name, index);
}

void disagree(const NodeValues& v, const std::vector<std::int64_t>& index) {
  const std::int64_t offset = offset_of(index, row_major_strides(v.output->shape()));
  throw std::logic_error(fmt::format("the value the definition derives for {} differs from the evaluated {}",
                                     output_name(v, index), element_text(*v.output, offset)));
}

bool same_bits(const Tensor& a, std::int64_t offset_a, const Tensor& b, std::int64_t offset_b) {
  const auto size = static_cast<std::size_t>(info(a.dtype()).size);
  return a.dtype() == b.dtype() &&
         std::memcmp(a.bytes().data() + offset_a * size, b.bytes().data() + offset_b * size, size) == 0;
}

}  // namespace sonnx::ops

namespace sonnx::ops {

std::string pattern_name(Pattern p, Extreme e) {
  const bool max = e == Extreme::Max;
  switch (p) {
    case Pattern::None: return "none";
    case Pattern::Plain: return max ? "one maximum, first" : "one minimum, first";
    case Pattern::NanFirst: return "a NaN first";
    case Pattern::NanAfterNumber: return "a NaN after a number";
    case Pattern::TwoNans: return "two NaNs with different bits";
    case Pattern::NegativeZeroFirst: return max ? "-0 then +0" : "+0 then -0";  // the dual writes +0 first
    case Pattern::PositiveZeroFirst: return max ? "+0 then -0" : "-0 then +0";
    case Pattern::EqualMaxima: return max ? "two equal maxima" : "two equal minima";
    case Pattern::Subnormal: return max ? "a subnormal above +0" : "a subnormal below -0";
    case Pattern::SubnormalFirst: return max ? "a subnormal above +0, first" : "a subnormal below -0, first";
    case Pattern::Infinity: return max ? "+Inf above the greatest finite value" : "-Inf below the least finite value";
    case Pattern::Extremes: return "the type's least and greatest values";
    case Pattern::Given: return "the values its clause names";
  }
  return "?";
}

std::optional<std::vector<std::uint64_t>> pattern_bits(Pattern p, std::int64_t n, DType dtype, Extreme e) {
  const bool single = p == Pattern::Plain || p == Pattern::NanFirst;
  if (p == Pattern::None || n < (single ? 1 : 2)) return std::nullopt;
  const DTypeInfo& t = info(dtype);
  const int w = 8 * t.size;
  const std::uint64_t sign = std::uint64_t{1} << (w - 1);
  const std::uint64_t all = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  std::vector<std::uint64_t> first;  // the leading positions; `rest` fills the others
  std::uint64_t rest = 0;
  if (t.is_float) {
    // Fields of the binary format: E exponent bits, M fraction bits ([Common.dtype.float16],
    // [Common.dtype.bfloat16], [Common.dtype.float]).
    const int m = dtype == DType::Float16 ? 10 : dtype == DType::BFloat16 ? 7 : dtype == DType::Float ? 23 : 52;
    const int ex = w - 1 - m;
    const std::uint64_t exponent = ((std::uint64_t{1} << ex) - 1) << m, bias = (std::uint64_t{1} << (ex - 1)) - 1;
    const std::uint64_t one = bias << m, minus_one = sign | one;
    const std::uint64_t five = ((bias + 2) << m) | (std::uint64_t{1} << (m - 2));  // 1.25 * 2^2
    const std::uint64_t nan_a = exponent | (std::uint64_t{1} << (m - 1)) | 1;     // quiet, +, payload 1
    const std::uint64_t nan_b = sign | exponent | 2;                              // signalling, -, payload 2
    switch (p) {
      case Pattern::Plain: first = {five}, rest = one; break;
      case Pattern::NanFirst: first = {nan_a}, rest = one; break;
      case Pattern::NanAfterNumber: first = {one, nan_a}, rest = one; break;
      case Pattern::TwoNans: first = {nan_b, nan_a}, rest = one; break;
      case Pattern::NegativeZeroFirst: first = {sign, 0}, rest = minus_one; break;
      case Pattern::PositiveZeroFirst: first = {0, sign}, rest = minus_one; break;
      case Pattern::EqualMaxima: first = n == 2 ? std::vector<std::uint64_t>{five, five} : std::vector<std::uint64_t>{one, five, five}, rest = one; break;
      case Pattern::Subnormal: first = {0, 1}, rest = minus_one; break;
      case Pattern::SubnormalFirst: first = {1, 0}, rest = minus_one; break;
      case Pattern::Infinity: first = {exponent - 1, exponent}, rest = sign | exponent; break;
      default: return std::nullopt;
    }
  } else if (p == Pattern::Plain) {  // integers and bool: 1, 0, 0, ...
    first = {1}, rest = 0;
  } else if (p == Pattern::EqualMaxima) {  // integers and bool: 0, 1, 1, 0, ... ([1, 1] for two)
    first = n == 2 ? std::vector<std::uint64_t>{1, 1} : std::vector<std::uint64_t>{0, 1, 1}, rest = 0;
  } else if (p == Pattern::Extremes && (t.is_signed_int || t.is_unsigned_int)) {
    first = t.is_signed_int ? std::vector<std::uint64_t>{sign, sign - 1} : std::vector<std::uint64_t>{0, all};
    rest = 0;
  } else {
    return std::nullopt;
  }
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(n), rest);
  std::copy_n(first.begin(), std::min(first.size(), bits.size()), bits.begin());
  if (e == Extreme::Min)  // [Common.order.min] the dual δ of each value: the sign bit, every bit, or bool's bit
    for (auto& b : bits) b ^= t.is_float ? sign : dtype == DType::Bool ? 1 : all;
  return bits;
}

std::optional<std::vector<std::uint64_t>> witness_bits(const Reach& r, std::int64_t n, DType dtype) {
  if (r.pattern != Pattern::Given) return pattern_bits(r.pattern, n, dtype, r.order);
  if (n != static_cast<std::int64_t>(r.given.size())) return std::nullopt;
  return r.given;
}

namespace {

// Whether every position of the witness can be written: its source is Free ([Check.golden-coverage]);
// positions the witness does not write (Reach::write) need not be.
void check_sources(Reach& r, const std::vector<Source>& sources, const std::vector<std::string>& names) {
  for (std::size_t p = 0; p < (sources.size() == 1 ? 1 : sources.size()); ++p) {
    if (sources[p] == Source::Free || (p < r.write.size() && !r.write[p])) continue;
    r.reachable = false;
    r.why = sources[p] == Source::OneHot
                ? fmt::format("the values of '{}' come from a Hardmax output (+0 and 1 only)", names[p])
            : sources[p] == Source::Limited
                ? fmt::format("the values of '{}' come from an output that cannot take every value of its type", names[p])
            : sources[p] == Source::Computed
                ? fmt::format("the values of '{}' are computed by a sum of products, through which no witness is written", names[p])
                : fmt::format("the values of '{}' are fixed by the model or the given inputs", names[p]);
    return;
  }
}

}  // namespace

Reach reach_by_pattern(Situation s, Pattern pattern, std::int64_t n, DType dtype, const std::vector<Source>& sources,
                       const std::vector<std::string>& names, Extreme e) {
  Reach r{std::move(s), pattern, true, "", e};
  if (!pattern_bits(pattern, n, dtype, e)) {
    r.reachable = false;
    r.why = n == 0 ? std::string("its sets are empty")
                   : fmt::format("its set has {} element{}; the situation needs two", n, n == 1 ? "" : "s");
    return r;
  }
  check_sources(r, sources, names);
  return r;
}

Reach reach_by_given(Situation s, std::vector<std::uint64_t> bits, std::int64_t n, const std::vector<Source>& sources,
                     const std::vector<std::string>& names, std::vector<bool> write) {
  Reach r{std::move(s), Pattern::Given, true, "", Extreme::Max, std::move(bits), std::move(write)};
  if (n != static_cast<std::int64_t>(r.given.size())) {
    r.reachable = false;
    r.why = n == 0 ? std::string("its sets are empty")
                   : fmt::format("its set has {} element{}; the situation needs {}", n, n == 1 ? "" : "s", r.given.size());
    return r;
  }
  check_sources(r, sources, names);
  return r;
}

Reach reach_by_shape(Situation s, bool holds, const std::string& why_not) {
  return Reach{std::move(s), Pattern::None, holds, holds ? "" : why_not};
}

std::vector<Witnessed> fold_situations(const FoldClauses& c, bool is_float) {
  if (!is_float)
    return {{{c.formula, ""}, Pattern::Plain}, {{c.formula, "the type's extremes"}, Pattern::Extremes}};
  // The min order writes the duals of the patterns' values (pattern_bits): -0 first is the dual of
  // +0 first.
  const bool max = c.order == Extreme::Max;
  return {
      {{c.formula, ""}, Pattern::Plain},
      {{c.formula, max ? "a subnormal greatest" : "a subnormal least"}, Pattern::Subnormal},
      {{c.formula, "an infinity in the set"}, Pattern::Infinity},
      {{c.nan, ""}, Pattern::NanFirst},
      {{c.nan, "a NaN after a number"}, Pattern::NanAfterNumber},
      {{"Common.order.nan-payload", "two NaNs with different bits"}, Pattern::TwoNans},
      {{c.zero, "-0 before +0"}, max ? Pattern::NegativeZeroFirst : Pattern::PositiveZeroFirst},
      {{c.zero, "+0 before -0"}, max ? Pattern::PositiveZeroFirst : Pattern::NegativeZeroFirst},
  };
}

std::vector<Situation> fold_decided_by(const FoldClauses& c, bool is_float, const Selection& sel) {
  const std::vector<Witnessed> all = fold_situations(c, is_float);
  std::vector<Situation> out;
  if (!is_float) {
    out.push_back(all[0].situation);
    if (sel.extreme) out.push_back(all[1].situation);
  } else if (sel.nan) {  // the first NaN of the set
    out.push_back(all[3].situation);
    if (sel.position > 0) out.push_back(all[4].situation);
    if (sel.nan_bits_differ) out.push_back(all[5].situation);
  } else if (sel.zero_tie) {  // +0 over -0 (max order), -0 over +0 (min order)
    out.push_back(all[sel.negative_zero_first ? 6 : 7].situation);
  } else {  // the greatest (least) element
    out.push_back(all[0].situation);
    if (sel.subnormal) out.push_back(all[1].situation);
    if (sel.infinite) out.push_back(all[2].situation);
  }
  return out;
}

}  // namespace sonnx::ops
