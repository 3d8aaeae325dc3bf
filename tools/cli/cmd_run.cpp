// sonnx-ref run MODEL INPUTS [-o OUT.npz] [--json] [--all]: evaluates a model on its inputs and prints
// every graph output (name, dtype, shape, values). The library does the work (src/graph, src/io);
// this file only formats.
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "core/order.hpp"
#include "core/tensor.hpp"
#include "graph/model.hpp"
#include "io/io.hpp"

namespace sonnx::cli {

namespace {

// Tensors of more than kElideAbove elements show their first and last kShown elements.
constexpr std::int64_t kElideAbove = 20;
constexpr std::int64_t kShown = 8;

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

// One element as text: integers in decimal; bool as true/false; floats as the shortest decimal that
// reads back to the same value (float16/bfloat16 decoded exactly), -0, inf, -inf, and NaN with its
// bit pattern, e.g. nan(0x7fc00000).
template <class T> std::string element_text(T x) {
  if constexpr (is_bool_v<T>) {
    return x ? "true" : "false";
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return fmt::format("{}", static_cast<std::int64_t>(x));
    else return fmt::format("{}", static_cast<std::uint64_t>(x));
  } else {
    if (is_nan(x)) return fmt::format("nan(0x{:0{}x})", float_bits(x), 2 * sizeof(T));
    return fmt::format("{}", real_value(x));  // exact: every element is a double
  }
}

// Same for JSON: numbers, booleans; non-finite floats as "nan", "inf", "-inf"; -0 stays -0.0.
template <class T> nlohmann::ordered_json element_json(T x) {
  if constexpr (is_bool_v<T>) {
    return x;
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return static_cast<std::int64_t>(x);
    else return static_cast<std::uint64_t>(x);
  } else {
    if (is_nan(x)) return "nan";
    const double v = real_value(x);
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
  }
}

// Whether only the first and last kShown elements are shown.
bool elided(const Tensor& t, bool all) { return !all && t.size() > kElideAbove; }

std::string values_text(const Tensor& t, bool all) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto v = t.values<T>();
    const auto n = static_cast<std::int64_t>(v.size());
    std::string out = "[";
    auto put = [&](std::int64_t k) { out += (out.size() > 1 ? ", " : "") + element_text(v[k]); };
    if (!elided(t, all)) {
      for (std::int64_t k = 0; k < n; ++k) put(k);
    } else {
      for (std::int64_t k = 0; k < kShown; ++k) put(k);
      out += fmt::format(", ... ({} elided)", n - 2 * kShown);
      for (std::int64_t k = n - kShown; k < n; ++k) put(k);
    }
    return out + "]";
  });
}

nlohmann::ordered_json values_json(const Tensor& t, bool all) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto v = t.values<T>();
    const auto n = static_cast<std::int64_t>(v.size());
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (std::int64_t k = 0; k < n; ++k)
      if (!elided(t, all) || k < kShown || k >= n - kShown) out.push_back(element_json(v[k]));
    return out;
  });
}

struct RunOptions {
  std::string model, inputs, out;
  bool json = false, all = false;
};

int run(const RunOptions& o) {
  const auto model = graph::Model::load(o.model);
  const auto feeds = graph::load_feeds(model, o.inputs);
  const auto outputs = model.run(feeds);
  if (!o.out.empty()) io::write_npz(o.out, outputs);
  if (o.json) {
    nlohmann::ordered_json doc = {{"outputs", nlohmann::ordered_json::array()}};
    for (const auto& [n, t] : outputs)
      doc["outputs"].push_back({{"name", n},
                                {"dtype", std::string(name(t.dtype()))},
                                {"shape", t.shape()},
                                {"size", t.size()},
                                {"values", values_json(t, o.all)},
                                {"elided", elided(t, o.all)}});
    std::cout << doc.dump(2) << "\n";
  } else {
    for (const auto& [n, t] : outputs)
      std::cout << n << ": " << name(t.dtype()) << " " << to_string(t.shape()) << " = " << values_text(t, o.all)
                << "\n";
  }
  return 0;
}

}  // namespace

Action add_run(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* sub = app.add_subcommand("run", "Evaluate a model on its inputs and print every output");
  sub->add_option("MODEL", o->model, "ONNX model file (.onnx)")->required();
  sub->add_option("INPUTS", o->inputs, "a .npz file or a test_data_set_N folder (see below)")->required();
  sub->add_option("-o,--output", o->out, "also write the outputs to OUT.npz, keyed by output name")
      ->type_name("OUT.npz");
  sub->add_flag("--json", o->json, "print the outputs as JSON instead of text");
  sub->add_flag("--all", o->all, "print every value (no elision of large tensors)");
  sub->footer(
      "INPUTS is one of:\n"
      "  FILE.npz           a numpy .npz archive (numpy.savez / savez_compressed) whose keys are the\n"
      "                     graph input names. bfloat16 has no numpy dtype: give a bfloat16 input as a\n"
      "                     uint16 array ('<u2') holding the raw bfloat16 bits (upper 16 bits of float32).\n"
      "  test_data_set_N/   a folder of input_0.pb, input_1.pb, ... ONNX TensorProto files (the layout of\n"
      "                     onnx's node tests); each is named by its TensorProto.name, or else fed to the\n"
      "                     graph inputs (those without initializer) in order.\n"
      "Feeds must match the declared inputs exactly: every input fed, no extra feed, same dtype (no\n"
      "conversion), same rank and fixed dims. A graph input that has an initializer may be fed to override it.\n"
      "\n"
      "Output: one line per graph output, 'NAME: DTYPE [SHAPE] = [VALUES]', values in row-major order;\n"
      "tensors of more than 20 elements show the first and last 8 (--all shows every value). Floats are\n"
      "printed as the shortest decimal that reads back to the same value (float16 and bfloat16 decoded\n"
      "exactly), with -0, inf, -inf, and NaN with its bit pattern, e.g. nan(0x7fc00000).\n"
      "--json prints {\"outputs\": [{\"name\", \"dtype\", \"shape\", \"size\", \"values\", \"elided\"}]}, non-finite\n"
      "floats as the strings \"nan\", \"inf\", \"-inf\"; when elided, \"values\" holds the first 8 then the last 8.\n"
      "-o writes an .npz readable by numpy.load (bfloat16 outputs as '<u2' bits).\n"
      "\n"
      "Exit codes: 0 ok; 1 refused input (\"error: [ID] ...\" on stderr, ID = the spec clause); 2 usage.\n"
      "Example: sonnx-ref run examples/max_reduce_hardmax.onnx examples/inputs.npz -o out.npz");
  return [o] { return run(*o); };
}

}  // namespace sonnx::cli
