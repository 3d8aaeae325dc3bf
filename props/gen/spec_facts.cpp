#include "gen/spec_facts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sonnx::props {

using D = DType;

std::vector<DType> spec_max_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [Max.v1] [Max.v6] [Max.v8]
  if (v >= 12)                                               // [Max.v12]
    t.insert(t.end(), {D::Int8, D::Int16, D::Int32, D::Int64, D::Uint8, D::Uint16, D::Uint32, D::Uint64});
  if (v >= 13) t.push_back(D::BFloat16);  // [Max.v13]
  return t;
}

std::vector<DType> spec_reducemax_types(int v) {
  // [ReduceMax.v1] [ReduceMax.v11]
  std::vector<DType> t = {D::Float16, D::Float, D::Double, D::Int32, D::Int64, D::Uint32, D::Uint64};
  if (v >= 12) t.insert(t.end(), {D::Int8, D::Uint8});  // [ReduceMax.v12]
  if (v >= 13) t.push_back(D::BFloat16);               // [ReduceMax.v13] (and [ReduceMax.v18])
  if (v >= 20) t.push_back(D::Bool);                   // [ReduceMax.v20]
  return t;
}

std::vector<DType> spec_hardmax_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [Hardmax.v1] [Hardmax.v11]
  if (v >= 13) t.push_back(D::BFloat16);                     // [Hardmax.v13]
  return t;
}

std::vector<DType> spec_min_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [Min.v1] [Min.v6] [Min.v8]
  if (v >= 12)                                               // [Min.v12]
    t.insert(t.end(), {D::Uint8, D::Uint16, D::Uint32, D::Uint64, D::Int8, D::Int16, D::Int32, D::Int64});
  if (v >= 13) t.push_back(D::BFloat16);  // [Min.v13]
  return t;
}

std::vector<DType> spec_reducemin_types(int v) {
  // [ReduceMin.v1] [ReduceMin.v11]
  std::vector<DType> t = {D::Uint32, D::Uint64, D::Int32, D::Int64, D::Float16, D::Float, D::Double};
  if (v >= 12) t.insert(t.end(), {D::Uint8, D::Int8});  // [ReduceMin.v12]
  if (v >= 13) t.push_back(D::BFloat16);               // [ReduceMin.v13] (and [ReduceMin.v18])
  if (v >= 20) t.push_back(D::Bool);                   // [ReduceMin.v20]
  return t;
}

std::vector<DType> spec_arg_types(int v) {
  // [ArgMax.v1] [ArgMax.v11] [ArgMax.v12]: all numeric types but bfloat16
  std::vector<DType> t = {D::Uint8, D::Uint16, D::Uint32, D::Uint64, D::Int8,  D::Int16,
                          D::Int32, D::Int64,  D::Float16, D::Float, D::Double};
  if (v >= 13) t.push_back(D::BFloat16);  // [ArgMax.v13]
  return t;
}

std::vector<DType> spec_relu_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};                // [Relu.v1] [Relu.v6]
  if (v >= 13) t.push_back(D::BFloat16);                                   // [Relu.v13]
  if (v >= 14) t.insert(t.end(), {D::Int32, D::Int8, D::Int16, D::Int64});  // [Relu.v14] signed only
  return t;
}

std::vector<DType> spec_clip_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [Clip.v1] [Clip.v6] [Clip.v11]
  if (v >= 12)                                               // [Clip.v12]
    t.insert(t.end(), {D::Uint8, D::Uint16, D::Uint32, D::Uint64, D::Int8, D::Int16, D::Int32, D::Int64});
  if (v >= 13) t.push_back(D::BFloat16);  // [Clip.v13]
  return t;
}

std::vector<DType> spec_maxpool_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [MaxPool.v1] .. [MaxPool.v11]
  if (v >= 12) t.insert(t.end(), {D::Int8, D::Uint8});       // [MaxPool.v12]
  if (v >= 22) t.push_back(D::BFloat16);                     // [MaxPool.v22]
  return t;
}

std::vector<DType> spec_globalmaxpool_types(int v) {
  std::vector<DType> t = {D::Float16, D::Float, D::Double};  // [GlobalMaxPool.v1]
  if (v >= 22) t.push_back(D::BFloat16);                     // [GlobalMaxPool.v22]
  return t;
}

bool contains(const std::vector<DType>& types, DType t) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

std::vector<DType> complement(const std::vector<DType>& allowed) {
  // [Common.dtype.set] the 13 element types
  static const DType all[] = {D::Float,  D::Uint8,   D::Int8,   D::Uint16, D::Int16,  D::Int32, D::Int64,
                              D::Bool,   D::Float16, D::Double, D::Uint32, D::Uint64, D::BFloat16};
  std::vector<DType> out;
  for (DType t : all)
    if (!contains(allowed, t)) out.push_back(t);
  return out;
}

Family family(DType t) {
  switch (t) {
    case D::Float16: case D::BFloat16: case D::Float: case D::Double: return Family::Float;
    case D::Int8: case D::Int16: case D::Int32: case D::Int64: return Family::Signed;
    case D::Uint8: case D::Uint16: case D::Uint32: case D::Uint64: return Family::Unsigned;
    case D::Bool: return Family::Bool;
  }
  return Family::Bool;
}

int width_bits(DType t) {
  switch (t) {
    case D::Bool: case D::Int8: case D::Uint8: return 8;
    case D::Int16: case D::Uint16: case D::Float16: case D::BFloat16: return 16;
    case D::Int32: case D::Uint32: case D::Float: return 32;
    case D::Int64: case D::Uint64: case D::Double: return 64;
  }
  return 8;
}

FloatLayout float_layout(DType t) {
  switch (t) {
    case D::Float16: return {5, 10};   // [Common.dtype.float16]
    case D::BFloat16: return {8, 7};   // [Common.dtype.bfloat16]
    case D::Float: return {8, 23};     // [Common.dtype.float] binary32
    default: return {11, 52};          // binary64
  }
}

std::uint64_t bits_at(const Tensor& t, std::int64_t k) {
  const int bytes = width_bits(t.dtype()) / 8;
  std::uint64_t v = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(t.bytes().data()) + k * bytes;
  for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);  // little-endian
  return v;
}

void set_bits_at(Tensor& t, std::int64_t k, std::uint64_t bits) {
  const int bytes = width_bits(t.dtype()) / 8;
  auto* p = reinterpret_cast<unsigned char*>(t.bytes().data()) + k * bytes;
  for (int b = 0; b < bytes; ++b) p[b] = static_cast<unsigned char>(bits >> (8 * b));
}

Tensor filled(DType t, const Shape& shape, std::uint64_t bits) {
  Tensor x(t, shape, "test tensor");
  for (std::int64_t k = 0; k < x.size(); ++k) set_bits_at(x, k, bits);
  return x;
}

bool is_nan_bits(DType t, std::uint64_t bits) {
  if (family(t) != Family::Float) return false;
  const FloatLayout f = float_layout(t);
  return (bits & f.exp_mask()) == f.exp_mask() && (bits & f.frac_mask()) != 0;
}

bool is_signalling_nan_bits(DType t, std::uint64_t bits) {
  return is_nan_bits(t, bits) && (bits & float_layout(t).quiet_bit()) == 0;
}

Rank rank_of(DType t, std::uint64_t bits) {
  const int w = width_bits(t);
  switch (family(t)) {
    case Family::Float: {
      const FloatLayout f = float_layout(t);
      const auto magnitude = static_cast<Rank>(bits & ~f.sign_mask());
      return (bits & f.sign_mask()) ? -magnitude - 1 : magnitude;
    }
    case Family::Signed: {
      const std::uint64_t sign = std::uint64_t{1} << (w - 1);
      const auto u = static_cast<Rank>(bits);
      return (bits & sign) ? u - (static_cast<Rank>(1) << w) : u;  // two's complement
    }
    case Family::Unsigned: return static_cast<Rank>(bits);
    case Family::Bool: return bits ? 1 : 0;
  }
  return 0;
}

std::uint64_t pos_zero_bits(DType) { return 0; }
std::uint64_t neg_zero_bits(DType t) { return float_layout(t).sign_mask(); }
std::uint64_t pos_inf_bits(DType t) { return float_layout(t).exp_mask(); }
std::uint64_t neg_inf_bits(DType t) { return float_layout(t).exp_mask() | float_layout(t).sign_mask(); }

std::uint64_t one_bits(DType t) {
  switch (family(t)) {
    case Family::Float: return float_layout(t).bias() << float_layout(t).frac_bits;  // exponent = bias
    default: return 1;
  }
}

std::uint64_t empty_reduction_bits(DType t) {
  switch (family(t)) {
    case Family::Float: return neg_inf_bits(t);                         // -Inf
    case Family::Signed: return std::uint64_t{1} << (width_bits(t) - 1);  // 100...0 = -2^(w-1)
    case Family::Unsigned: return 0;
    case Family::Bool: return 0;  // False
  }
  return 0;
}

namespace {
std::uint64_t width_mask(DType t) {
  const int w = width_bits(t);
  return w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}
}  // namespace

std::uint64_t int_bits(DType t, std::int64_t v) { return static_cast<std::uint64_t>(v) & width_mask(t); }

std::uint64_t greatest_bits(DType t) {
  switch (family(t)) {
    case Family::Float: return pos_inf_bits(t);                                   // +Inf
    case Family::Signed: return (std::uint64_t{1} << (width_bits(t) - 1)) - 1;     // 011...1 = 2^(w-1) - 1
    case Family::Unsigned: return width_mask(t);                                   // 111...1 = 2^w - 1
    case Family::Bool: return 1;                                                   // True
  }
  return 0;
}

std::uint64_t greatest_finite_bits(DType t) {
  if (family(t) != Family::Float) return greatest_bits(t);
  const FloatLayout f = float_layout(t);
  return (f.exp_mask() - (std::uint64_t{1} << f.frac_bits)) | f.frac_mask();  // exponent all ones minus 1, fraction all ones
}

std::uint64_t least_finite_bits(DType t) {
  if (family(t) != Family::Float) return empty_reduction_bits(t);  // the type minimum (0 unsigned)
  return greatest_finite_bits(t) | float_layout(t).sign_mask();
}

std::uint64_t dual_bits(DType t, std::uint64_t bits) {
  switch (family(t)) {
    case Family::Float: return bits ^ float_layout(t).sign_mask();
    case Family::Signed: case Family::Unsigned: return ~bits & width_mask(t);
    case Family::Bool: return bits ^ 1;
  }
  return bits;
}

namespace {

// The exact value of a non-NaN pattern of a float layout, from its fields ([Common.dtype.float16],
// [Common.dtype.float]): (-1)^s 2^(e - bias) (1 + f / 2^p), subnormals (-1)^s 2^(1 - bias) f / 2^p.
double exact_value(const FloatLayout& L, std::uint64_t bits) {
  const bool neg = bits & L.sign_mask();
  const std::uint64_t e = (bits & L.exp_mask()) >> L.frac_bits, f = bits & L.frac_mask();
  const int bias = static_cast<int>(L.bias());
  double v;
  if (e == (L.exp_mask() >> L.frac_bits)) v = HUGE_VAL;
  else if (e == 0) v = std::ldexp(static_cast<double>(f), 1 - bias - L.frac_bits);
  else v = std::ldexp(static_cast<double>(f | (std::uint64_t{1} << L.frac_bits)), static_cast<int>(e) - bias - L.frac_bits);
  return neg ? -v : v;
}

}  // namespace

std::uint64_t spec_convert_float_attribute(std::uint32_t a, DType t) {
  const FloatLayout F32{8, 23};
  const bool nan = (a & F32.exp_mask()) == F32.exp_mask() && (a & F32.frac_mask()) != 0;
  const bool neg = a & F32.sign_mask();
  const std::uint64_t f = a & F32.frac_mask();
  switch (t) {
    case D::Float: return a;
    case D::Double: {
      const FloatLayout F64 = float_layout(D::Double);
      if (nan)  // quiet, same sign, the 23 fraction bits with the quiet bit set, then 29 zeros
        return (neg ? F64.sign_mask() : 0) | F64.exp_mask() | ((f | F32.quiet_bit()) << 29);
      const double v = exact_value(F32, a);
      std::uint64_t u;
      std::memcpy(&u, &v, sizeof u);  // a double holds every binary32 value exactly
      return u;
    }
    case D::Float16: {
      const FloatLayout H = float_layout(D::Float16);
      const std::uint64_t sign = neg ? H.sign_mask() : 0;
      if (nan) return sign | H.exp_mask() | H.quiet_bit() | (f >> 13);  // the 10 leading fraction bits, quiet
      const double m = std::fabs(exact_value(F32, a));
      if (m >= 65520.0) return sign | H.exp_mask();  // 1. from the midpoint above 65504 on: ±Inf
      // 2. The float16 magnitudes 0x0000 .. 0x7BFF increase with the pattern: the last one not above
      // m, and the next one; the nearer of the two, the even pattern on a tie (compared through the
      // exact midpoint: 2m against v(p) + v(p + 1), exact in double).
      std::uint64_t lo = 0, hi = 0x7BFF;
      while (lo < hi) {  // the greatest p with v(p) <= m
        const std::uint64_t mid = (lo + hi + 1) / 2;
        if (exact_value(H, mid) <= m) lo = mid;
        else hi = mid - 1;
      }
      std::uint64_t p = lo;
      if (p < 0x7BFF) {
        const double two_m = 2 * m, sum = exact_value(H, p) + exact_value(H, p + 1);
        if (two_m > sum || (two_m == sum && (p & 1) == 1)) p = p + 1;
      }
      return sign | p;
    }
    default: return 0;
  }
}

std::int64_t element_count(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

Index unravel(std::int64_t offset, const Shape& s) {
  Index i(s.size(), 0);
  for (std::size_t k = s.size(); k-- > 0;) {
    i[k] = offset % s[k];
    offset /= s[k];
  }
  return i;
}

std::int64_t ravel(const Index& i, const Shape& s) {
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < s.size(); ++k) offset = offset * s[k] + i[k];
  return offset;
}

Index broadcast_source(const Index& i, const Shape& in, const Shape& out) {
  const std::size_t o = out.size() - in.size();
  Index src(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) src[k] = broadcast_f(i[k + o], in[k], out[k + o]);
  return src;
}

std::uint64_t broadcast_read(const Tensor& x, const Index& i, const Shape& out) {
  return bits_at(x, ravel(broadcast_source(i, x.shape(), out), x.shape()));
}

}  // namespace sonnx::props
