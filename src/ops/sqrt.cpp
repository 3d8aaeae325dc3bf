// spec/ops/sqrt.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = fl_T(√X[i]) ([Sqrt.float.formula], [Elem.sqrt]): IEEE 754's square root,
// correctly rounded, judged bit for bit. For float and double the square root of T (one correctly
// rounded operation); for float16 and bfloat16 the binary64 square root rounded to T, which is the
// correctly rounded one (Figueroa: 53 >= 2p + 2). A NaN result is the canonical quiet NaN of T
// ([Sqrt.edge]).
#include "ops/sqrt.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/accuracy.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"
#include "ops/computed.hpp"
#include "ops/unary.hpp"

namespace sonnx::ops {

std::vector<DType> sqrt_types(int version) {
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};  // [Sqrt.v1] [Sqrt.v6]
  if (version >= 13) t.push_back(DType::BFloat16);                       // [Sqrt.v13]
  return t;
}

namespace {

void check_type(int version, const Tensor& X) {
  const auto allowed = sqrt_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Sqrt.err.dtype]
    refuse("Sqrt.err.dtype", "Sqrt-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

// [Sqrt.float.formula] [Sqrt.edge] fl_T(√x): IEEE's square root of T; −0 gives −0, +Inf +Inf, x < 0 and
// NaN the canonical quiet NaN of T (a select, not a branch: the loop vectorises)
inline float sqrt_of(float x) {
  const float r = std::sqrt(x);
  return r == r ? r : std::bit_cast<float>(0x7FC00000u);
}
inline double sqrt_of(double x) {
  const double r = std::sqrt(x);
  return r == r ? r : std::bit_cast<double>(0x7FF8000000000000ull);
}
template <class T> T sqrt_of(T x) {  // float16, bfloat16: the binary64 root rounded once to T
  const double r = std::sqrt(real_value(x));
  return T{static_cast<std::uint16_t>(unary_bits(std::is_same_v<T, float16> ? DType::Float16 : DType::BFloat16, r))};
}

}  // namespace

Tensor sqrt_op(int version, const Tensor& X) {
  check_type(version, X);
  Tensor Y(X.dtype(), X.shape(), "Sqrt output Y", Fill::Unspecified);  // [Sqrt.shape]
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* const x = X.values<T>().data();
      T* const y = Y.values<T>().data();
      at_active_level([&] {
        for (std::int64_t t = 0, n = X.size(); t < n; ++t) y[t] = sqrt_of(x[t]);
      });
    }
  });
  return Y;
}

Decision decide_sqrt(int version, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  check_type(version, X);
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  Decision d;
  d.set.name = "X at the same index";
  d.set.size = 1;
  d.set.member = [offset](std::int64_t) { return Member{0, offset}; };
  const double x = member_real(v, Member{0, offset});
  std::uint64_t bits = 0;
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) bits = bits_of(sqrt_of(X.values<T>()[static_cast<std::size_t>(offset)]));
  });
  if (element_bits(Y, offset) != bits) disagree(v, i);
  const std::string y = output_name(v, i), xs = member_name(v, d.set.member(0)), value = element_text(X, offset);
  if (x != x || x < 0) {
    d.clauses = {"Sqrt.edge", "Elem.sqrt"};
    d.reason = fmt::format("{} is a NaN because {} = {} is {}: the square root is invalid there", y, xs, value,
                           x != x ? "a NaN" : "negative");
    d.situations = {{"Sqrt.edge", x != x ? "NaN" : "x < 0: a NaN"}};
  } else if (x == 0 || std::isinf(x)) {
    d.clauses = {"Sqrt.edge", "Elem.sqrt"};
    d.reason = fmt::format("{} = {} because {} = {}: √ keeps ±0 and +Inf", y, element_text(Y, offset), xs, value);
    d.situations = {{"Sqrt.edge", x == 0 ? "±0" : "+Inf"}};
  } else {
    d.clauses = {"Sqrt.float.formula", "Elem.sqrt"};
    d.reason = fmt::format("{} = {}: √{} = √{} rounded once to {}, to nearest (IEEE 754 §5.4.1)", y, element_text(Y, offset), xs,
                           value, name(X.dtype()));
    d.situations = {{"Sqrt.float.formula", ""}};
    if (x < accuracy::format_of(X.dtype()).lambda) d.situations.push_back({"Sqrt.float.formula", "a subnormal x"});
  }
  d.clauses.push_back("Sqrt.shape");
  d.stop = "a computed value: the chain stops here";
  return d;
}

std::vector<Reach> reach_sqrt(int, const NodeValues& v, const std::vector<Source>& sources) {
  const DType t = v.inputs[0]->dtype();
  const double sub = accuracy::format_of(t).eta_bar;
  return unary_reaches(t,
                       {{{"Sqrt.float.formula", ""}, 2.0},
                        {{"Sqrt.float.formula", "a subnormal x"}, sub},
                        {{"Sqrt.edge", "NaN"}, std::numeric_limits<double>::quiet_NaN()},
                        {{"Sqrt.edge", "x < 0: a NaN"}, -1.0},
                        {{"Sqrt.edge", "±0"}, -0.0},
                        {{"Sqrt.edge", "+Inf"}, std::numeric_limits<double>::infinity()}},
                       sources[0], v.input_names[0]);
}

}  // namespace sonnx::ops
