// spec/common/io.md: the .npy format ([IO.npy.format] [IO.npy.dtype] [IO.npy.order]
// [IO.npy.bfloat16]). Layout of an image:
//   "\x93NUMPY" major minor | header length (u16 LE for v1.0, u32 LE for v2.0/v3.0) |
//   header: a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)} padded
//   with spaces and ended by '\n' | the elements, exactly product(shape) * itemsize bytes.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include "io/bytes.hpp"
#include "io/io.hpp"
#include "io/npy_stream.hpp"

namespace sonnx::io {

namespace {

using detail::ByteOrder;

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;        // without the version bytes
constexpr std::size_t kAlign = 64;          // header alignment of numpy's writer
constexpr std::size_t kGrowthDigits = 21;   // numpy's spare space after the dict

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

// [IO.npy.format] The header dict, a Python literal: keys 'descr', 'fortran_order' and 'shape',
// each exactly once, in any order; optional trailing commas; any whitespace between tokens.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& what) : text_(text), what_(what) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_ws();
    expect('{');
    skip_ws();
    while (peek() != '}') {
      const std::string key = parse_string("a dict key");
      skip_ws();
      expect(':');
      skip_ws();
      if (key == "descr") {
        once(seen_descr, key);
        if (peek() == '[')
          refuse("IO.npy.dtype", "{}: structured descr (a list of fields) is not a tensor dtype", what_);
        h.descr = parse_string("the descr value");
      } else if (key == "fortran_order") {
        once(seen_order, key);
        h.fortran_order = parse_bool();
      } else if (key == "shape") {
        once(seen_shape, key);
        h.shape = parse_shape();
      } else {
        fail("unexpected key '{}' in the header dict (expected descr, fortran_order, shape)", key);
      }
      skip_ws();
      if (peek() == ',') {  // a trailing comma is allowed before '}'
        ++pos_;
        skip_ws();
      } else if (peek() != '}') {
        fail("expected ',' or '}}' at header offset {}", pos_);
      }
    }
    ++pos_;
    skip_ws();
    if (pos_ != text_.size()) fail("unexpected text after the header dict at offset {}", pos_);
    if (!seen_descr || !seen_order || !seen_shape)
      fail("the header dict lacks {}", !seen_descr ? "'descr'" : !seen_order ? "'fortran_order'" : "'shape'");
    return h;
  }

 private:
  template <class... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> f, Args&&... args) {
    refuse("IO.npy.format", "{}: npy header: {}", what_, fmt::format(f, std::forward<Args>(args)...));
  }
  char peek() const {
    if (pos_ >= text_.size())
      refuse("IO.npy.format", "{}: npy header: the header dict ends early", what_);
    return text_[pos_];
  }
  void skip_ws() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\f' || text_[pos_] == '\v'))
      ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail("expected '{}' at header offset {}", c, pos_);
    ++pos_;
  }
  void once(bool& seen, const std::string& key) {
    if (seen) fail("key '{}' appears twice", key);
    seen = true;
  }
  bool starts_with(std::string_view word) const { return text_.substr(pos_).starts_with(word); }

  // 'text' or "text", optionally u-prefixed; escapes are not needed by any valid value.
  std::string parse_string(const char* role) {
    if (peek() == 'u' || peek() == 'U') ++pos_;
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a string for {} at header offset {}", role, pos_);
    ++pos_;
    std::string out;
    while (peek() != quote) {
      if (peek() == '\\' || peek() == '\n') fail("unsupported character in a string at header offset {}", pos_);
      out += text_[pos_++];
    }
    ++pos_;
    return out;
  }

  bool parse_bool() {
    if (starts_with("True")) {
      pos_ += 4;
      return true;
    }
    if (starts_with("False")) {
      pos_ += 5;
      return false;
    }
    fail("fortran_order must be True or False (at header offset {})", pos_);
  }

  // A tuple of non-negative ints: (), (d,), (d0, d1), (d0, d1,). A parenthesised single int
  // without a comma is an int, not a tuple, and is refused as numpy refuses it.
  Shape parse_shape() {
    if (peek() != '(') fail("shape must be a tuple (at header offset {})", pos_);
    ++pos_;
    Shape dims;
    bool comma_after_last = false;
    skip_ws();
    while (peek() != ')') {
      dims.push_back(parse_dim());
      skip_ws();
      comma_after_last = false;
      if (peek() == ',') {
        ++pos_;
        comma_after_last = true;
        skip_ws();
      } else if (peek() != ')') {
        fail("expected ',' or ')' in shape at header offset {}", pos_);
      }
    }
    ++pos_;
    if (dims.size() == 1 && !comma_after_last) fail("shape ({}) is an int, not a tuple", dims[0]);
    return dims;
  }

  std::int64_t parse_dim() {
    const bool negative = peek() == '-';
    if (negative) {
      ++pos_;
      skip_ws();
    }
    if (peek() < '0' || peek() > '9') fail("expected a dimension at header offset {}", pos_);
    std::int64_t v = 0;
    bool too_big = false;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const int digit = text_[pos_++] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10) too_big = true;
      else v = v * 10 + digit;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2 long
    if (negative && (v != 0 || too_big))  // [Common.tensor.shape] dims are >= 0
      fail("negative dimension in shape");
    if (too_big)
      refuse("Common.tensor.size-limit", "{}: npy header: a dimension of shape exceeds int64", what_);
    return v;
  }

  std::string_view text_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

struct Descr {
  DType dtype;
  ByteOrder order;
};

// [IO.npy.dtype] descr = byte order ('<' little, '>' big, '=' native, '|' not applicable) followed
// by kind and item size. '|' is accepted for one-byte items and for V2; a missing order means '='.
Descr parse_descr(const std::string& descr, std::optional<DType> declared, const std::string& what) {
  std::string_view d = descr;
  char order_char = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '=' || d[0] == '|')) {
    order_char = d[0];
    d.remove_prefix(1);
  }
  struct Row {
    std::string_view code;
    DType dtype;
  };
  static constexpr Row kTable[] = {
      {"b1", DType::Bool},   {"i1", DType::Int8},    {"i2", DType::Int16},   {"i4", DType::Int32},
      {"i8", DType::Int64},  {"u1", DType::Uint8},   {"u2", DType::Uint16},  {"u4", DType::Uint32},
      {"u8", DType::Uint64}, {"f2", DType::Float16}, {"f4", DType::Float},   {"f8", DType::Double},
      {"V2", DType::BFloat16}};
  const Row* row = nullptr;
  for (const Row& r : kTable)
    if (r.code == d) row = &r;
  if (!row)
    refuse("IO.npy.dtype", "{}: npy descr '{}' is not one of the supported dtypes (|b1 |i1 |u1 <i2 <u2 "
           "<i4 <u4 <i8 <u8 <f2 <f4 <f8, either byte order; |V2 for bfloat16)", what, descr);
  DType dtype = row->dtype;
  const bool bfloat16_declared = declared == DType::BFloat16;
  if (dtype == DType::BFloat16 && !bfloat16_declared)
    refuse("IO.npy.bfloat16", "{}: npy descr '{}' (raw 16-bit void) is read only for a bfloat16 input",
           what, descr);
  if (dtype == DType::Uint16 && bfloat16_declared) dtype = DType::BFloat16;  // [IO.npy.bfloat16]
  const int size = info(dtype).size;
  ByteOrder order = detail::kHostOrder;
  if (order_char == '<') order = ByteOrder::Little;
  if (order_char == '>') order = ByteOrder::Big;
  if (order_char == '|') {
    if (row->code == "V2") order = ByteOrder::Little;  // raw bits, as `<u2`
    else if (size != 1)
      refuse("IO.npy.dtype", "{}: npy descr '{}': byte order '|' is not meaningful for a {}-byte type",
             what, descr, size);
  }
  return {dtype, order};
}

// [IO.npy.order] Element (i0..i_{r-1}) of a Fortran-order array sits at sum_k i_k * f_k with
// f_0 = 1, f_k = f_{k-1} * d_{k-1}; walking the row-major indices of the shape (an odometer whose
// last axis turns fastest) and reading each at its Fortran offset gives the C-order elements.
void fortran_to_c(std::span<const std::byte> src, Tensor& t) {
  if (t.size() == 0) return;  // [Common.tensor.empty] (and the strides below could overflow)
  const Shape& shape = t.shape();
  const auto elem = static_cast<std::size_t>(info(t.dtype()).size);
  std::vector<std::int64_t> fstrides(shape.size()), index(shape.size(), 0);
  std::int64_t stride = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    fstrides[k] = stride;
    stride *= shape[k];  // at most the checked element count, as no dim is 0
  }
  auto dst = t.bytes();
  std::int64_t in = 0;  // Fortran offset of the current row-major index
  for (std::size_t out = 0; out < dst.size(); out += elem) {
    std::memcpy(dst.data() + out, src.data() + static_cast<std::size_t>(in) * elem, elem);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) {
        in += fstrides[k];
        break;
      }
      in -= fstrides[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
}

// [Common.dtype.bool] bool elements are the bytes 0 and 1.
void check_bool_bytes(std::span<const std::byte> data, const std::string& what) {
  for (std::size_t k = 0; k < data.size(); ++k) {
    const auto b = std::to_integer<unsigned>(data[k]);
    if (b > 1) refuse("Common.dtype.bool", "{}: bool element {} is the byte {} (only 0 and 1 are bools)", what, k, b);
  }
}

}  // namespace

namespace detail {

std::uint64_t npy_header_end(std::span<const std::byte> first, std::uint64_t image_size, const std::string& what) {
  // [IO.npy.format] magic, version, header length.
  if (image_size < kMagicLen + 2 || first.size() < kMagicLen + 2 || std::memcmp(first.data(), kMagic, kMagicLen) != 0)
    refuse("IO.npy.format", "{}: not an npy image (no \\x93NUMPY magic)", what);
  const int major = std::to_integer<int>(first[6]), minor = std::to_integer<int>(first[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    refuse("IO.npy.format", "{}: npy version {}.{} (supported: 1.0, 2.0, 3.0)", what, major, minor);
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t start = kMagicLen + 2 + len_bytes;
  if (image_size < start || first.size() < start)
    refuse("IO.npy.format", "{}: npy image truncated in its header length", what);
  const std::uint64_t header_len = load_le(first.data() + kMagicLen + 2, static_cast<int>(len_bytes));
  if (header_len > image_size - start)
    refuse("IO.npy.format", "{}: npy header of {} bytes runs past the end of the {}-byte image", what,
           header_len, image_size);
  if (header_len > kNpyMaxHeader)  // [IO.npy.format] before the header is read
    refuse("IO.npy.format", "{}: npy header of {} bytes is longer than the {} bytes read", what, header_len,
           kNpyMaxHeader);
  return start + header_len;
}

NpyLayout parse_npy_header(std::span<const std::byte> head, std::uint64_t image_size,
                           std::optional<DType> declared, const std::string& what) {
  const std::uint64_t header_end = npy_header_end(head.first(std::min(head.size(), kNpyPrefixMax)), image_size, what);
  if (head.size() != header_end)
    refuse("IO.npy.format", "{}: internal: {} header bytes given for a {}-byte header", what, head.size(), header_end);
  const std::size_t start = std::to_integer<int>(head[6]) == 1 ? kMagicLen + 4 : kMagicLen + 6;
  const std::string_view text(reinterpret_cast<const char*>(head.data() + start), header_end - start);
  const NpyHeader h = HeaderParser(text, what).parse();

  const Descr d = parse_descr(h.descr, declared, what);
  // [Common.tensor.size-limit] before anything is allocated.
  const std::int64_t count = checked_element_count(h.shape, d.dtype, what);
  const std::uint64_t expected = static_cast<std::uint64_t>(count) * info(d.dtype).size;
  const std::uint64_t present = image_size - header_end;
  if (present != expected)  // [IO.npy.format] the header must agree with the data size
    refuse("IO.npy.format", "{}: npy header says shape {} of {} ({} bytes) but {} data bytes follow", what,
           to_string(h.shape), h.descr, expected, present);
  return {d.dtype, d.order, h.fortran_order, h.shape, header_end, expected};
}

Tensor read_npy_data(const NpyLayout& l, const NpyFill& fill, const std::string& what) {
  Tensor t(l.dtype, l.shape, what);
  const auto elem = static_cast<std::size_t>(info(l.dtype).size);
  if (!l.fortran_order) {
    fill(t.bytes());  // straight into the tensor: no second copy of the data
  } else {  // [IO.npy.order]
    std::vector<std::byte> data(t.bytes().size());
    fill(data);
    fortran_to_c(data, t);
  }
  if (l.dtype == DType::Bool) check_bool_bytes(t.bytes(), what);
  detail::to_host_order(t.bytes(), elem, l.order);
  return t;
}

}  // namespace detail

Tensor read_npy(std::span<const std::byte> bytes, const std::string& what, std::optional<DType> declared) {
  const std::uint64_t header_end =
      detail::npy_header_end(bytes.first(std::min(bytes.size(), detail::kNpyPrefixMax)), bytes.size(), what);
  const detail::NpyLayout l = detail::parse_npy_header(bytes.first(header_end), bytes.size(), declared, what);
  std::size_t at = header_end;
  return detail::read_npy_data(l, [&](std::span<std::byte> dst) {
    if (dst.empty()) return;
    std::memcpy(dst.data(), bytes.data() + at, dst.size());
    at += dst.size();
  }, what);
}

namespace {

// [IO.npy.dtype] The descr written for each dtype: little-endian; bfloat16 as `<u2` bits
// ([IO.npy.bfloat16]).
std::string descr_of(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::Int8: return "|i1";
    case DType::Uint8: return "|u1";
    case DType::Int16: return "<i2";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::Uint16: return "<u2";
    case DType::Uint32: return "<u4";
    case DType::Uint64: return "<u8";
    case DType::Float16: return "<f2";
    case DType::BFloat16: return "<u2";
    case DType::Float: return "<f4";
    case DType::Double: return "<f8";
  }
  refuse("Common.dtype.set", "unsupported element type code {}", static_cast<int>(t));
}

// Python repr of a shape tuple: (), (3,), (2, 3).
std::string shape_repr(const Shape& s) {
  std::string out = "(";
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k) out += ", ";
    out += std::to_string(s[k]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

}  // namespace

std::vector<std::byte> npy_header(const Tensor& t) {
  // The dict as numpy 1.24 writes it (keys sorted, trailing ", "), then numpy's spare space for
  // the first axis, then padding so that the data starts at a multiple of 64 bytes; the header
  // ends with '\n'. Version 1.0 when the header length fits in 16 bits, else 2.0.
  std::string header = "{'descr': '" + descr_of(t.dtype()) + "', 'fortran_order': False, 'shape': " +
                       shape_repr(t.shape()) + ", }";
  if (!t.shape().empty()) {
    const std::size_t digits = std::to_string(t.shape()[0]).size();
    if (digits < kGrowthDigits) header.append(kGrowthDigits - digits, ' ');
  }
  const std::size_t hlen = header.size() + 1;  // with the final '\n'
  std::size_t len_bytes = 2;
  std::size_t pad = kAlign - (kMagicLen + 2 + len_bytes + hlen) % kAlign;
  if (hlen + pad > 0xFFFF) {
    len_bytes = 4;
    pad = kAlign - (kMagicLen + 2 + len_bytes + hlen) % kAlign;
  }
  if (hlen + pad > 0xFFFFFFFFull)
    refuse("IO.npy.format", "npy header of {} bytes is too long for any npy version", hlen + pad);
  header.append(pad, ' ');
  header += '\n';

  std::vector<std::byte> out;
  out.reserve(kMagicLen + 2 + len_bytes + header.size());
  for (std::size_t k = 0; k < kMagicLen; ++k) out.push_back(static_cast<std::byte>(kMagic[k]));
  out.push_back(std::byte{static_cast<unsigned char>(len_bytes == 2 ? 1 : 2)});
  out.push_back(std::byte{0});
  for (std::size_t k = 0; k < len_bytes; ++k)
    out.push_back(static_cast<std::byte>((header.size() >> (8 * k)) & 0xFF));
  for (char c : header) out.push_back(static_cast<std::byte>(c));
  return out;
}

std::vector<std::byte> write_npy(const Tensor& t) {
  std::vector<std::byte> out = npy_header(t);
  const std::size_t data_at = out.size();
  out.resize(data_at + t.byte_size());
  detail::copy_elements(t.bytes(), std::span(out).subspan(data_at), info(t.dtype()).size, ByteOrder::Little);
  return out;
}

}  // namespace sonnx::io
