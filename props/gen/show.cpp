#include "gen/show.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "gen/cases.hpp"
#include "gen/shapes.hpp"
#include "gen/spec_facts.hpp"

namespace sonnx {

void showValue(DType t, std::ostream& os) { os << name(t); }
void showValue(const Tensor& t, std::ostream& os) { os << props::describe(t); }

}  // namespace sonnx

namespace sonnx::props {

std::string describe(DType t, std::uint64_t bits) {
  const std::string hex = fmt::format("{:#0{}x}", bits, width_bits(t) / 4 + 2);
  switch (family(t)) {
    case Family::Float: {
      const FloatLayout f = float_layout(t);
      const bool neg = bits & f.sign_mask();
      const std::uint64_t e = (bits & f.exp_mask()) >> f.frac_bits, m = bits & f.frac_mask();
      std::string v;
      if (is_nan_bits(t, bits)) v = std::string(neg ? "-" : "") + (is_signalling_nan_bits(t, bits) ? "snan" : "nan");
      else if (e == (f.exp_mask() >> f.frac_bits)) v = neg ? "-inf" : "+inf";
      else {
        // display only: sign * 2^(e - bias) * (1 + m / 2^frac), subnormals 2^(1 - bias) * m / 2^frac
        const int exp = static_cast<int>(e == 0 ? 1 : e) - static_cast<int>(f.bias()) - f.frac_bits;
        const double mant = static_cast<double>(e == 0 ? m : (m | (std::uint64_t{1} << f.frac_bits)));
        const double x = std::ldexp(mant, exp);
        v = fmt::format("{}{:.9g}", neg ? "-" : (x == 0 ? "+" : ""), x);
      }
      return hex + " (" + v + ")";
    }
    case Family::Signed:
      return hex + " (" + fmt::format("{}", static_cast<long long>(rank_of(t, bits))) + ")";
    case Family::Unsigned: return hex + " (" + fmt::format("{}", bits) + ")";
    case Family::Bool: return bits == 0 ? "False" : bits == 1 ? "True" : hex + " (not a bool)";
  }
  return hex;
}

std::string describe(const Tensor& t) {
  std::string out = fmt::format("{} {} {{", name(t.dtype()), to_string(t.shape()));
  for (std::int64_t k = 0; k < t.size(); ++k) out += (k ? ", " : "") + describe(t.dtype(), bits_at(t, k));
  return out + "}";
}

void showValue(Values v, std::ostream& os) {
  switch (v) {
    case Values::Edge: os << "Edge"; return;
    case Values::NoNaN: os << "NoNaN"; return;
    case Values::Zeros: os << "Zeros (±0 and values below)"; return;
    case Values::NaNs: os << "NaNs"; return;
    case Values::ZerosAbove: os << "ZerosAbove (±0 and values above)"; return;
  }
}

void gen::showValue(const BroadcastTuple& b, std::ostream& os) {
  os << "target " << to_string(b.target) << ", inputs";
  for (const Shape& s : b.inputs) os << " " << to_string(s);
}

void showValue(const MaxCase& c, std::ostream& os) {
  os << c.op << "-" << c.version << " " << name(c.dtype) << ", broadcast shape " << to_string(c.output);
  for (std::size_t m = 0; m < c.inputs.size(); ++m) os << "\n    X" << m << " = " << describe(c.inputs[m]);
}

void showValue(const ReduceMaxCase& c, std::ostream& os) {
  os << c.op << "-" << c.version << " axes=";
  if (c.axes) os << to_string(*c.axes);
  else os << "(absent)";
  os << " keepdims=" << c.keepdims;
  if (c.version >= 18) os << " noop_with_empty_axes=" << c.noop_with_empty_axes;
  os << "\n    X = " << describe(c.data);
}

void showValue(const HardmaxCase& c, std::ostream& os) {
  os << "Hardmax-" << c.version << " axis=" << c.axis << "\n    X = " << describe(c.input);
}

void showValue(const ArgCase& c, std::ostream& os) {
  os << c.op << "-" << c.version << " axis=" << c.axis << " keepdims=" << c.keepdims;
  if (c.version >= 12) os << " select_last_index=" << c.select_last_index;
  os << "\n    X = " << describe(c.input);
}

void showValue(const ClipCase& c, std::ostream& os) {
  os << "Clip-" << c.version;
  const DType f32 = DType::Float;
  if (c.version < 11) {
    os << " min=" << (c.min_attribute ? describe(f32, *c.min_attribute) : std::string("(absent)"));
    os << " max=" << (c.max_attribute ? describe(f32, *c.max_attribute) : std::string("(absent)"));
  } else {
    os << " min=" << (c.min_input ? describe(*c.min_input) : std::string("(absent)"));
    os << " max=" << (c.max_input ? describe(*c.max_input) : std::string("(absent)"));
  }
  os << " (lo " << describe(c.X.dtype(), c.lo()) << ", hi " << describe(c.X.dtype(), c.hi()) << ")";
  os << "\n    X = " << describe(c.X);
}

void showValue(const PoolCase& c, std::ostream& os) {
  const auto& p = c.params;
  os << "MaxPool-" << c.version << " kernel_shape=" << to_string(p.kernel_shape);
  if (p.has_strides) os << " strides=" << to_string(p.strides);
  if (p.has_pads) os << " pads=" << to_string(p.pads);
  if (p.has_dilations) os << " dilations=" << to_string(p.dilations);
  if (p.auto_pad != "NOTSET") os << " auto_pad=" << p.auto_pad;
  if (c.version >= 10) os << " ceil_mode=" << p.ceil_mode;
  if (c.version >= 8) os << " storage_order=" << p.storage_order << (c.indices ? " with Indices" : " without Indices");
  os << "\n    X = " << describe(c.X);
}

}  // namespace sonnx::props
