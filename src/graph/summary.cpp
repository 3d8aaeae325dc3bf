// The printed form of a run's outputs (see summary.hpp).
#include "graph/summary.hpp"

#include <cmath>
#include <cstring>

#include "core/format.hpp"
#include "core/order.hpp"

namespace sonnx::graph {

namespace {

template <class T> nlohmann::ordered_json json_of(T x) {
  if constexpr (is_bool_v<T>) {
    return x;
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return static_cast<std::int64_t>(x);
    else return static_cast<std::uint64_t>(x);
  } else {
    // "nan(0x7fc00001)", as in the text form: the bits matter ([Common.order.nan-payload])
    if (is_nan(x)) return fmt::format("nan(0x{:0{}x})", bit_pattern(x), 2 * sizeof(T));
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
