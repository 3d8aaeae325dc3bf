// The printed form of a run's outputs (see summary.hpp).
#include "graph/summary.hpp"

#include <cmath>
#include <cstring>

#include "core/order.hpp"

namespace sonnx::graph {

namespace {

// The bit pattern of a floating element, as an unsigned integer of its width.
template <class T> std::uint64_t float_bits(T x) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return x.bits;
  } else if constexpr (std::is_same_v<T, float>) {
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  } else {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  }
}

template <class T> std::string text_of(T x) {
  if constexpr (is_bool_v<T>) {
    return x ? "true" : "false";
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return fmt::format("{}", static_cast<std::int64_t>(x));
    else return fmt::format("{}", static_cast<std::uint64_t>(x));
  } else {
    if (is_nan(x)) return fmt::format("nan(0x{:0{}x})", float_bits(x), 2 * sizeof(T));
    // float, double: shortest round-trip decimal in their own type ("-0", "inf", "-inf" included);
    // float16, bfloat16: their exact value, decoded to double (exact) and printed round-trip
    if constexpr (std::is_floating_point_v<T>) return fmt::format("{}", x);
    else return fmt::format("{}", real_value(x));
  }
}

template <class T> nlohmann::ordered_json json_of(T x) {
  if constexpr (is_bool_v<T>) {
    return x;
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return static_cast<std::int64_t>(x);
    else return static_cast<std::uint64_t>(x);
  } else {
    // "nan(0x7fc00001)", as in the text form: the bits matter ([Common.order.nan-payload])
    if (is_nan(x)) return fmt::format("nan(0x{:0{}x})", float_bits(x), 2 * sizeof(T));
    const double v = real_value(x);
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
  }
}

bool elided(const Tensor& t, bool all) { return !all && t.size() > kElideAbove; }

// Calls f(k) for each index k shown, in order: all, or the first and last kElideShown.
template <class F> void for_shown(const Tensor& t, bool all, F&& f) {
  const std::int64_t n = t.size();
  for (std::int64_t k = 0; k < n; ++k) {
    if (elided(t, all) && k == kElideShown) k = n - kElideShown;
    f(k);
  }
}

}  // namespace

std::string element_text(const Tensor& t, std::int64_t k) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return text_of(t.values<T>()[static_cast<std::size_t>(k)]);
  });
}

std::string summary_line(const io::NamedTensor& out, bool all) {
  const Tensor& t = out.tensor;
  std::string values;
  for_shown(t, all, [&](std::int64_t k) {
    if (k) values += ", ";
    if (elided(t, all) && k == t.size() - kElideShown)
      values += fmt::format("... ({} elided), ", t.size() - 2 * kElideShown);
    values += element_text(t, k);
  });
  return fmt::format("{}: {} {} = [{}]", out.name, name(t.dtype()), to_string(t.shape()), values);
}

nlohmann::ordered_json summary_json(const std::vector<io::NamedTensor>& outputs, bool all) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& [n, t] : outputs) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    dispatch(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto v = t.values<T>();
      for_shown(t, all, [&](std::int64_t k) { values.push_back(json_of(v[static_cast<std::size_t>(k)])); });
    });
    list.push_back({{"name", n},
                    {"dtype", std::string(name(t.dtype()))},
                    {"shape", t.shape()},
                    {"size", t.size()},
                    {"values", std::move(values)},
                    {"elided", elided(t, all)}});
  }
  return {{"outputs", std::move(list)}};
}

}  // namespace sonnx::graph
