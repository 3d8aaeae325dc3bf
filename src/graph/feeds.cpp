// The feeds of a run: reading them (load_feeds) and checking them against the graph's declared
// inputs ([Graph.feed.missing] [Graph.feed.extra] [Graph.feed.dtype] [Graph.feed.shape]).
#include <algorithm>
#include <filesystem>
#include <map>

#include "graph/detail.hpp"

namespace sonnx::graph {

std::string declared_shape_text(const std::optional<std::vector<std::optional<std::int64_t>>>& shape) {
  if (!shape) return "unranked";
  std::string out = "[";
  for (std::size_t k = 0; k < shape->size(); ++k) {
    if (k) out += ", ";
    out += (*shape)[k] ? std::to_string(*(*shape)[k]) : "?";
  }
  return out + "]";
}

namespace detail {

namespace {

std::string names_of(const std::vector<ValueInfo>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + v.name;
  return out.empty() ? "none" : out;
}

// [Graph.feed.shape] same rank, equal fixed dims; symbolic dims take any size.
bool shape_matches(const Shape& given, const std::vector<std::optional<std::int64_t>>& declared) {
  if (given.size() != declared.size()) return false;
  for (std::size_t k = 0; k < given.size(); ++k)
    if (declared[k] && *declared[k] != given[k]) return false;
  return true;
}

}  // namespace

void check_feeds(const std::vector<io::NamedTensor>& feeds, const std::vector<ValueInfo>& required,
                 const std::vector<ValueInfo>& overridable) {
  std::map<std::string, const ValueInfo*> declared;
  for (const auto& v : required) declared.emplace(v.name, &v);
  for (const auto& v : overridable) declared.emplace(v.name, &v);

  std::map<std::string, const Tensor*> given;
  for (const auto& f : feeds) {
    if (!declared.count(f.name))  // [Graph.feed.extra]
      refuse("Graph.feed.extra", "feed '{}' names no graph input (inputs: {}; initializers a feed may override: {})",
             f.name, names_of(required), names_of(overridable));
    if (!given.emplace(f.name, &f.tensor).second)
      refuse("Graph.feed.extra", "input '{}' is fed twice", f.name);
  }
  std::string missing;  // [Graph.feed.missing] every input that is not an initializer is fed
  for (const auto& v : required)
    if (!given.count(v.name)) missing += (missing.empty() ? "" : ", ") + v.name;
  if (!missing.empty()) refuse("Graph.feed.missing", "graph input(s) not fed: {}", missing);

  for (const auto& [feed_name, tensor] : given) {
    const ValueInfo& v = *declared.at(feed_name);
    // [Graph.feed.dtype] [Common.gr.no-conversion] the feed's dtype is the declared one, no conversion
    if (v.dtype && tensor->dtype() != *v.dtype)
      refuse("Graph.feed.dtype", "input '{}' is declared {} but the feed is {} (no implicit conversion)", feed_name,
             name(*v.dtype), name(tensor->dtype()));
    if (v.shape && !shape_matches(tensor->shape(), *v.shape))  // [Graph.feed.shape]
      refuse("Graph.feed.shape", "input '{}' has shape {} but the model declares {}", feed_name,
             to_string(tensor->shape()), declared_shape_text(v.shape));
  }
}

}  // namespace detail

std::vector<io::NamedTensor> load_feeds(const Model& model, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  const bool is_npz_name = fs::path(path).extension() == ".npz";
  if (!fs::exists(status))
    refuse(is_npz_name ? "IO.npz.archive" : "IO.testdata.folder",
           "inputs '{}' do not exist (INPUTS is a .npz file or a test_data_set_N folder of input_K.pb files)", path);
  if (!fs::is_directory(status)) {
    // [IO.npz.archive] keys = graph input names; [IO.npy.bfloat16] needs the declared types
    return io::read_npz(path, [&model](const std::string& n) { return model.declared_input_type(n); });
  }
  // [IO.testdata.folder] input_K.pb: named by TensorProto.name when it names a graph input, else by
  // position K among the graph inputs that are not initializers.
  auto feeds = io::read_test_data_set(path, "input");
  const auto& required = model.inputs();
  for (std::size_t k = 0; k < feeds.size(); ++k) {
    auto& f = feeds[k];
    if (!f.name.empty() && model.declared_input_type(f.name)) continue;
    if (k < required.size()) {
      f.name = required[k].name;
    } else if (f.name.empty()) {
      refuse("IO.testdata.folder", "{}/input_{}.pb has no name and the model has only {} input(s) to feed", path, k,
             required.size());
    }  // else: a named tensor that is no graph input, refused as [Graph.feed.extra] by Model::run
  }
  for (auto& f : feeds) {
    // [IO.testdata.bfloat16] a uint16 TensorProto feeding an input declared bfloat16: its 16-bit patterns
    if (f.tensor.dtype() == DType::Uint16 && model.declared_input_type(f.name) == DType::BFloat16) {
      Tensor b(DType::BFloat16, f.tensor.shape(), "bfloat16 feed", Fill::Unspecified);
      std::copy(f.tensor.bytes().begin(), f.tensor.bytes().end(), b.bytes().begin());
      f.tensor = std::move(b);
    }
  }
  return feeds;
}

}  // namespace sonnx::graph
