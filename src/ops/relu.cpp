// spec/ops/relu.md — read this file side by side with its sections.
//
// The definition, once: Y[i] = max_of(X[i], +0) ([Relu.float.formula], [Relu.int.formula]) — the
// binary maximum of the max order ([Common.order.max]) with X first, so a NaN of X is kept bit for
// bit ([Relu.float.nan]) and -0 gives +0 ([Relu.float.zero]). `evaluate` applies it element by
// element over X's contiguous storage; `decide` applies it to one index.
#include "ops/relu.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "core/index.hpp"
#include "core/isa.hpp"
#include "core/order.hpp"

namespace sonnx::ops {

std::vector<DType> relu_types(int version) {
  // [Relu.v1] [Relu.v6] T in {float16, float, double}
  std::vector<DType> t = {DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Relu.v13]
  if (version >= 14) t.insert(t.end(), {DType::Int8, DType::Int16, DType::Int32, DType::Int64});  // [Relu.v14]
  return t;
}

namespace {

void check_type(int version, const Tensor& X) {
  const auto allowed = relu_types(version);
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())  // [Relu.err.dtype]
    refuse("Relu.err.dtype", "Relu-{} does not accept {} (T in {{{}}})", version, name(X.dtype()), join_names(allowed));
}

// [Relu.float.formula] [Relu.int.formula] [Relu.shape] For every index i of Y (X's shape):
//   Y[i] = max_of(X[i], +0)
// X and Y are walked as their contiguous storage (the same shape, row-major): one loop the compiler
// vectorises, branch-free (max_of, core/order.hpp).
template <class T> void evaluate(const Tensor& X, Tensor& Y) {
  const T* const x = X.values<T>().data();
  T* const y = Y.values<T>().data();
  const T z = zero<T>();
  for (std::int64_t t = 0, n = X.size(); t < n; ++t) y[t] = max_of(x[t], z);
}

// Every type, for the level chosen at run time (core/isa.hpp).
void evaluate_level(const Tensor& X, Tensor& Y) {
  dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_bool_v<T>) at_active_level([&] { evaluate<T>(X, Y); });  // bool is refused by check_type
  });
}

}  // namespace

Tensor relu(int version, const Tensor& X) {
  check_type(version, X);
  Tensor Y(X.dtype(), X.shape(), "Relu output Y", Fill::Unspecified);  // every Y[i] is written
  evaluate_level(X, Y);
  return Y;
}

// ---- one element ----------------------------------------------------------------------------------

namespace {

// The bits of T's values the witnesses write into the one-element set {X[i]}.
struct Values {
  std::uint64_t minus_one, nan_signalling_negative, positive_subnormal, negative_subnormal, plus_inf, minus_inf,
      plus_zero, minus_zero, lowest, highest;
};
Values values_of(DType t) {
  return dispatch(t, [](auto tag) {
    using T = typename decltype(tag)::type;
    Values v{};
    if constexpr (is_float_v<T>) {
      const std::uint64_t sign = bits_of(negative_zero<T>());
      const std::uint64_t inf = bits_of(highest<T>());
      v.minus_one = bits_of(one<T>()) | sign;
      v.nan_signalling_negative = sign | inf | 2;  // exponent all ones, quiet bit clear, payload 2
      v.positive_subnormal = 1, v.negative_subnormal = sign | 1;
      v.plus_inf = inf, v.minus_inf = sign | inf, v.plus_zero = 0, v.minus_zero = sign;
    } else if constexpr (!is_bool_v<T>) {
      v.minus_one = static_cast<std::uint64_t>(static_cast<bits_t<T>>(T(-1)));
      v.lowest = bits_of(lowest<T>()), v.highest = bits_of(highest<T>());
    }
    return v;
  });
}

// [Check.coverage] The situations of Relu's clauses, and the value each witness writes into X[i].
struct Case {
  Situation situation;
  Pattern pattern;
  std::uint64_t Values::*given = nullptr;  // Pattern::Given: the value
};
std::vector<Case> all_cases(bool is_float) {
  if (!is_float)
    return {{{"Relu.int.formula", ""}, Pattern::Plain},
            {{"Relu.int.formula", "a negative value"}, Pattern::Given, &Values::minus_one},
            {{"Relu.int.formula", "the type's minimum"}, Pattern::Given, &Values::lowest},
            {{"Relu.int.formula", "the type's maximum"}, Pattern::Given, &Values::highest}};
  return {{{"Relu.float.formula", ""}, Pattern::Plain},
          {{"Relu.float.formula", "a negative value"}, Pattern::Given, &Values::minus_one},
          {{"Relu.float.formula", "a positive subnormal"}, Pattern::Given, &Values::positive_subnormal},
          {{"Relu.float.formula", "a negative subnormal"}, Pattern::Given, &Values::negative_subnormal},
          {{"Relu.float.formula", "+Inf"}, Pattern::Given, &Values::plus_inf},
          {{"Relu.float.formula", "-Inf"}, Pattern::Given, &Values::minus_inf},
          {{"Relu.float.zero", "-0"}, Pattern::Given, &Values::minus_zero},
          {{"Relu.float.zero", "+0"}, Pattern::Given, &Values::plus_zero},
          {{"Relu.float.nan", ""}, Pattern::NanFirst},
          {{"Relu.float.nan", "a signalling NaN with its sign set"}, Pattern::Given, &Values::nan_signalling_negative}};
}

}  // namespace

std::vector<Reach> reach_relu(int, const NodeValues& v, const std::vector<Source>& sources) {
  const DType t = v.inputs[0]->dtype();
  const Values values = values_of(t);
  std::vector<Reach> out;
  for (const Case& c : all_cases(info(t).is_float))  // the set {X[i]} has one element
    out.push_back(c.pattern == Pattern::Given
                      ? reach_by_given(c.situation, {values.*c.given}, 1, {sources[0]}, {v.input_names[0]})
                      : reach_by_pattern(c.situation, c.pattern, 1, t, {sources[0]}, {v.input_names[0]}));
  return out;
}

Decision decide_relu(int, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  Decision d;
  d.set.name = "X at the same index, against the constant +0: max_of(X[i], +0)";
  d.set.size = 1;
  d.set.member = [offset](std::int64_t) { return Member{0, offset}; };
  d.selection = true;
  const std::string y = output_name(v, i), x = member_name(v, d.set.member(0)), value = element_text(X, offset);
  const DType t = X.dtype();
  const bool is_float = info(t).is_float;
  struct Facts {
    bool nan, odd_nan, negative_zero, positive_zero, kept, subnormal, infinite;
  };
  const Facts f = dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Facts r{};
    if constexpr (!is_bool_v<T>) {
      const T a = X.values<T>()[offset];
      r.nan = is_nan(a);
      r.kept = bits_of(max_of(a, zero<T>())) == bits_of(a);  // the fold kept X[i]
      if constexpr (is_float_v<T>) {
        const auto fraction = magnitude_mask<T> & ~infinity_bits<T>();
        const auto quiet = fraction ^ (fraction >> 1);  // the fraction's top bit
        r.odd_nan = r.nan && (negative_sign(a) || (bits_of(a) & quiet) == 0);  // negative, or signalling
        r.negative_zero = bits_of(a) == bits_of(negative_zero<T>());
        r.positive_zero = bits_of(a) == bits_of(zero<T>());
        r.subnormal = is_subnormal(a), r.infinite = is_infinite(a);
      }
    }
    return r;
  });
  d.chosen = f.kept ? std::optional<std::int64_t>(0) : std::nullopt;
  d.copies_chosen = f.kept;
  const auto all = all_cases(is_float);
  if (f.nan) {
    d.clauses = {"Relu.float.nan", "Common.order.nan-payload"};
    d.reason = fmt::format("{} is NaN because {} = {} is a NaN: max_of keeps it, bit for bit", y, x, value);
    d.situations = {all[8].situation};
    if (f.odd_nan) d.situations.push_back(all[9].situation);
  } else if (f.negative_zero || f.positive_zero) {
    d.clauses = {"Relu.float.zero"};
    d.reason = fmt::format("{} = +0 because {} = {}: max_of({}, +0) = +0 (+0 is above -0)", y, x, value, value);
    d.situations = {all[f.negative_zero ? 6 : 7].situation};
  } else {
    d.clauses = {is_float ? "Relu.float.formula" : "Relu.int.formula"};
    d.reason = f.kept ? fmt::format("{} = {} because {} = {} is above +0: max_of keeps it", y, value, x, value)
                      : fmt::format("{} = {} because {} = {} is below {}: max_of gives the constant", y,
                                    element_text(Y, offset), x, value, is_float ? "+0" : "0");
    d.situations = {all[f.kept ? 0 : 1].situation};
    if (is_float && f.subnormal) d.situations.push_back(all[f.kept ? 2 : 3].situation);
    if (is_float && f.infinite) d.situations.push_back(all[f.kept ? 4 : 5].situation);
    if (!is_float) {
      const Values values = values_of(t);
      const std::uint64_t b = element_bits(X, offset);
      if (b == values.lowest) d.situations.push_back(all[2].situation);
      if (b == values.highest) d.situations.push_back(all[3].situation);
    }
  }
  d.clauses.push_back("Relu.shape");
  const bool agrees = dispatch(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_bool_v<T>) return false;
    else return bits_of(Y.values<T>()[offset]) == bits_of(max_of(X.values<T>()[offset], zero<T>()));
  });
  if (!agrees) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
