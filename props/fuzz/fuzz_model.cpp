// Fuzz target `model`: bytes -> graph::Model::from_bytes ([Graph.model.parse] and every load-time
// clause) -> run on small feeds drawn for the declared inputs ([Graph.feed.*], the operators).
// Oracles besides the sanitizers: a run is deterministic (two runs give the same bits), and
// run_all agrees with run on the graph outputs.
#include <optional>

#include "fuzz_util.hpp"
#include "graph/model.hpp"

using namespace sonnx;

namespace {

constexpr std::int64_t kMaxFeedElements = 4096;  // feeds stay small: the point is the code paths
constexpr std::int64_t kSymbolicDim = 2;

// Values for an element of type t: integers small (axes inputs must land in [-r, r-1] often),
// bools 0/1, floats any bit pattern (NaN payloads, -0, subnormals, infinities all come up).
void fill(Tensor& t, fuzz::Rng& rng) {
  const auto elem = static_cast<std::size_t>(info(t.dtype()).size);
  auto bytes = t.bytes();
  const bool floating = t.dtype() == DType::Float || t.dtype() == DType::Double ||
                        t.dtype() == DType::Float16 || t.dtype() == DType::BFloat16;
  for (std::size_t at = 0; at + elem <= bytes.size(); at += elem) {
    std::uint64_t v = rng.next();
    if (t.dtype() == DType::Bool) v &= 1;
    else if (!floating) v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v % 7) - 3);  // -3..3
    for (std::size_t b = 0; b < elem; ++b) bytes[at + b] = static_cast<std::byte>((v >> (8 * b)) & 0xFF);
  }
}

// A feed for each declared input: declared dims, symbolic dims 2, unranked inputs of shape [2].
// nullopt when a feed would be too large (the model is then only loaded).
std::optional<std::vector<io::NamedTensor>> draw_feeds(const graph::Model& m, fuzz::Rng& rng) {
  std::vector<io::NamedTensor> feeds;
  for (const graph::ValueInfo& v : m.inputs()) {
    if (!v.dtype) return std::nullopt;
    Shape shape;
    if (!v.shape) shape = {kSymbolicDim};
    else
      for (const auto& d : *v.shape) shape.push_back(d ? *d : kSymbolicDim);
    std::int64_t count = 1;
    for (std::int64_t d : shape)
      if (d < 0 || __builtin_mul_overflow(count, d, &count) || count > kMaxFeedElements) return std::nullopt;
    Tensor t(*v.dtype, shape, v.name);
    fill(t, rng);
    feeds.push_back({v.name, std::move(t)});
  }
  return feeds;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::limit_memory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::limit_memory();
  std::optional<graph::Model> model;
  if (fuzz::refused([&] { model.emplace(graph::Model::from_bytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.onnx")); }))
    return 0;
  fuzz::Rng rng{fuzz::hash(data, size)};
  const auto feeds = draw_feeds(*model, rng);
  if (!feeds) return 0;
  std::vector<io::NamedTensor> first;
  if (fuzz::refused([&] { first = model->run(*feeds); })) return 0;
  // Determinism and run_all: the same feeds give the same bits, value by value.
  std::map<std::string, Tensor> all;
  if (fuzz::refused([&] { all = model->run_all(*feeds); })) fuzz::finding("run_all refused what run accepted");
  if (first.size() != model->outputs().size()) fuzz::finding("run returned a wrong number of outputs");
  for (const auto& out : first) {
    const auto it = all.find(out.name);
    if (it == all.end()) fuzz::finding("run_all lacks a graph output");
    if (!it->second.bitwise_equal(out.tensor)) fuzz::finding("two runs on the same feeds differ");
  }
  return 0;
}
