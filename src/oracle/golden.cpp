// [Check.golden] Deterministic golden cases; the generator is specified in golden.hpp.
#include "oracle/golden.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include "io/io.hpp"

namespace sonnx::golden {

namespace fs = std::filesystem;

namespace {

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t low_bits(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

// Bit layout of a float type: W bits, E exponent bits, M fraction bits.
template <class T> struct Layout;
template <> struct Layout<float16> { static constexpr int W = 16, E = 5, M = 10; };
template <> struct Layout<bfloat16> { static constexpr int W = 16, E = 8, M = 7; };
template <> struct Layout<float> { static constexpr int W = 32, E = 8, M = 23; };
template <> struct Layout<double> { static constexpr int W = 64, E = 11, M = 52; };

template <class T> T from_bits(std::uint64_t u) {
  if constexpr (std::is_same_v<T, float16>) return float16{static_cast<std::uint16_t>(u)};
  else if constexpr (std::is_same_v<T, bfloat16>) return bfloat16{static_cast<std::uint16_t>(u)};
  else if constexpr (std::is_same_v<T, float>) {
    const auto v = static_cast<std::uint32_t>(u);
    float f;
    std::memcpy(&f, &v, sizeof f);
    return f;
  } else {
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
}

// The pattern of k/2, k in [-8, 8], built from its fields (no floating-point arithmetic):
// |k|/2 = m * 2^e with m odd (or k = 0).
template <class T> std::uint64_t grid_bits(std::int64_t k) {
  using L = Layout<T>;
  if (k == 0) return 0;
  const std::uint64_t sign = k < 0 ? 1ull << (L::W - 1) : 0;
  std::uint64_t a = static_cast<std::uint64_t>(k < 0 ? -k : k);  // |k| in 1..8, value a / 2
  int top = 63 - __builtin_clzll(a);                             // a = 2^top * (1 + f)
  const std::int64_t exponent = top - 1;                         // value = 2^(top - 1) * (1 + f)
  const std::uint64_t bias = (1ull << (L::E - 1)) - 1;
  const std::uint64_t fraction = (a - (1ull << top)) << (L::M - top);  // a has at most 4 bits: M >= 7 suffices
  return sign | (static_cast<std::uint64_t>(exponent + static_cast<std::int64_t>(bias)) << L::M) | fraction;
}

template <class T> T draw_float(Stream& s, bool nan_allowed, bool first, T previous) {
  using L = Layout<T>;
  const std::uint64_t sign_bit = 1ull << (L::W - 1);
  const std::uint64_t exp_mask = low_bits(L::E) << L::M;
  const std::uint64_t frac_mask = low_bits(L::M);
  auto grid = [&] { return grid_bits<T>(static_cast<std::int64_t>(s.below(17)) - 8); };
  const std::uint64_t b = s.below(32);
  std::uint64_t u;
  if (b <= 11) {
    u = grid();
  } else if (b <= 17) {
    u = s.next() & low_bits(L::W);
    if ((u & exp_mask) == exp_mask) u &= ~(1ull << (L::W - 2));  // clear the exponent's top bit
  } else if (b == 18) {
    u = sign_bit;  // -0
  } else if (b == 19) {
    u = 0;  // +0
  } else if (b == 20) {
    u = exp_mask;  // +Inf
  } else if (b == 21) {
    u = sign_bit | exp_mask;  // -Inf
  } else if (b == 22 || b == 23) {
    if (!nan_allowed) {
      u = grid();
    } else {
      const std::uint64_t sign = s.below(2) ? sign_bit : 0;
      std::uint64_t payload = s.next() & low_bits(L::M - 1);
      if (b == 22) payload |= 1ull << (L::M - 1);  // quiet
      else if (payload == 0) payload = 1;         // signalling: the fraction must not be 0
      u = sign | exp_mask | payload;
    }
  } else if (b <= 25) {
    const std::uint64_t sign = s.below(2) ? sign_bit : 0;
    std::uint64_t fraction = s.next() & frac_mask;
    u = sign | (fraction == 0 ? 1 : fraction);
  } else if (b <= 27) {
    switch (s.below(6)) {
      case 0: u = exp_mask - 1; break;               // +max finite
      case 1: u = sign_bit | (exp_mask - 1); break;  // -max finite
      case 2: u = 1ull << L::M; break;               // +min normal
      case 3: u = sign_bit | (1ull << L::M); break;  // -min normal
      case 4: u = 1; break;                          // +min subnormal
      default: u = sign_bit | 1; break;              // -min subnormal
    }
  } else {
    if (first) return from_bits<T>(grid());
    return previous;  // tie
  }
  return from_bits<T>(u);
}

template <class T> T draw_int(Stream& s, bool first, T previous) {
  const std::uint64_t b = s.below(32);
  auto small = [&] {
    const auto v = static_cast<std::int64_t>(s.below(9));
    return static_cast<T>(std::is_signed_v<T> ? v - 4 : v);
  };
  if (b <= 13) return small();
  if (b <= 21) return static_cast<T>(s.next() & low_bits(8 * sizeof(T)));  // two's complement wrap
  if (b <= 27) {
    constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    switch (s.below(4)) {
      case 0: return lo;
      case 1: return hi;
      case 2: return static_cast<T>(lo + 1);
      default: return static_cast<T>(hi - 1);
    }
  }
  return first ? small() : previous;
}

// The dim_param name of each dimension of each graph input ("" for a fixed or unnamed dim).
std::map<std::string, std::vector<std::string>> dim_names(const graph::Model& model) {
  onnx::ModelProto proto;
  proto.ParseFromString(model.serialized());
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& in : proto.graph().input()) {
    auto& names = out[in.name()];
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
    for (const auto& d : in.type().tensor_type().shape().dim())
      names.push_back(d.has_dim_value() ? "" : d.dim_param());
  }
  return out;
}

// A previous golden folder may be written over: only model.onnx and test_data_set_N folders
// holding input_K.pb, output_K.pb, inputs.npz, outputs.npz.
bool is_golden_file(const fs::path& p) {
  const std::string n = p.filename().string();
  auto numbered = [&](const std::string& prefix) {
    if (n.size() <= prefix.size() + 3 || n.compare(0, prefix.size(), prefix) != 0 || n.substr(n.size() - 3) != ".pb")
      return false;
    const std::string digits = n.substr(prefix.size(), n.size() - prefix.size() - 3);
    return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return numbered("input_") || numbered("output_") || n == "inputs.npz" || n == "outputs.npz";
}

void clear_previous(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) refuse("Check.golden", "'{}' exists and is not a directory", dir.string());
  std::vector<fs::path> remove;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n == "model.onnx" && e.is_regular_file()) continue;
    if (n.rfind("test_data_set_", 0) == 0 && e.is_directory()) {
      for (const auto& f : fs::directory_iterator(e.path(), ec)) {
        if (!f.is_regular_file() || !is_golden_file(f.path()))
          refuse("Check.golden", "'{}' is not a golden folder ({} is not a file golden writes); choose an empty or new -o DIR",
                 dir.string(), f.path().string());
      }
      remove.push_back(e.path());
      continue;
    }
    refuse("Check.golden", "'{}' is not a golden folder ({} is not a file golden writes); choose an empty or new -o DIR",
           dir.string(), e.path().string());
  }
  for (const auto& p : remove) fs::remove_all(p, ec);
}

void write_pb_set(const fs::path& folder, const char* prefix, const std::vector<io::NamedTensor>& tensors) {
  std::vector<io::NamedTensor> distinct;  // outputs.npz: one member per name
  std::set<std::string> seen;
  for (std::size_t j = 0; j < tensors.size(); ++j) {
    io::write_tensor_pb((folder / fmt::format("{}_{}.pb", prefix, j)).string(), tensors[j].tensor, tensors[j].name);
    if (seen.insert(tensors[j].name).second) distinct.push_back(tensors[j]);
  }
  io::write_npz((folder / fmt::format("{}s.npz", prefix)).string(), distinct);
}

}  // namespace

Stream::Stream(std::uint64_t seed, std::uint64_t case_index, std::uint64_t input_index)
    : state_(mix(mix(mix(seed) + case_index) + input_index)) {}

std::uint64_t Stream::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  return mix(state_);
}

Tensor draw(DType dtype, const Shape& shape, Stream& s) {
  Tensor t(dtype, shape, "golden input");
  const bool nan_allowed = s.next() % 2 == 0;  // the tensor's profile
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto v = t.values<T>();
    for (std::size_t k = 0; k < v.size(); ++k) {
      const T previous = k ? v[k - 1] : T{};
      if constexpr (is_bool_v<T>) v[k] = s.below(2) == 1;
      else if constexpr (is_int_v<T>) v[k] = draw_int<T>(s, k == 0, previous);
      else v[k] = draw_float<T>(s, nan_allowed, k == 0, previous);
    }
  });
  return t;
}

std::vector<Shape> input_shapes(const graph::Model& model, const std::map<std::string, std::int64_t>& dims,
                                const std::vector<std::string>& given) {
  const auto names = dim_names(model);
  std::set<std::string> used;
  std::vector<Shape> shapes;
  for (const auto& in : model.inputs()) {
    Shape shape;
    const bool is_given = std::find(given.begin(), given.end(), in.name) != given.end();
    if (!is_given) {
      if (!in.shape)
        refuse("Check.golden", "input '{}' declares no shape: give its value with --inputs", in.name);
      const auto& dim_param = names.at(in.name);
      for (std::size_t k = 0; k < in.shape->size(); ++k) {
        if ((*in.shape)[k]) {
          shape.push_back(*(*in.shape)[k]);
          continue;
        }
        const std::string& dn = dim_param[k];
        if (dn.empty())
          refuse("Check.golden", "input '{}' dimension {} has neither a size nor a name: give its value with --inputs",
                 in.name, k);
        auto it = dims.find(dn);
        if (it == dims.end())  // [Graph.feed.shape] symbolic dims are sized by the caller
          refuse("Check.golden", "input '{}' dimension {} is symbolic ('{}'): give its size with --dim {}=SIZE", in.name,
                 k, dn, dn);
        shape.push_back(it->second);
        used.insert(dn);
      }
    }
    shapes.push_back(shape);
  }
  for (const auto& [dn, size] : dims) {
    if (size < 0) refuse("Check.golden", "--dim {}={}: a size must be >= 0", dn, size);
    bool known = false;
    for (const auto& [input, list] : names) known = known || std::find(list.begin(), list.end(), dn) != list.end();
    if (!known) refuse("Check.golden", "--dim {}: no input of the model has a symbolic dimension named '{}'", dn, dn);
  }
  return shapes;
}

std::vector<io::NamedTensor> case_inputs(const graph::Model& model, const std::vector<Shape>& shapes,
                                         const std::vector<io::NamedTensor>& given, std::uint64_t seed,
                                         std::uint64_t case_index) {
  std::vector<io::NamedTensor> feeds;
  const auto& inputs = model.inputs();
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    auto g = std::find_if(given.begin(), given.end(), [&](const io::NamedTensor& t) { return t.name == inputs[j].name; });
    if (g != given.end()) {
      feeds.push_back(*g);
      continue;
    }
    Stream s(seed, case_index, j);
    feeds.push_back({inputs[j].name, draw(*inputs[j].dtype, shapes[j], s)});
  }
  for (const auto& g : given)  // an override of an initializer is kept as given
    if (std::none_of(inputs.begin(), inputs.end(), [&](const graph::ValueInfo& v) { return v.name == g.name; }))
      feeds.push_back(g);
  return feeds;
}

std::vector<std::string> write(const graph::Model& model, const std::string& dir, const Options& o) {
  if (o.cases < 1) refuse("Check.golden", "--cases must be at least 1, got {}", o.cases);
  std::vector<io::NamedTensor> given;
  if (!o.inputs.empty()) given = graph::load_feeds(model, o.inputs);
  std::vector<std::string> given_names;
  for (const auto& g : given) given_names.push_back(g.name);
  // The axes input of ReduceMax-18/20 selects axes; drawn at random it would be refused, so it must be given.
  for (const auto& n : model.nodes())
    if (n.op_type == "ReduceMax" && n.inputs.size() > 1 && !n.inputs[1].empty())
      for (const auto& in : model.inputs())
        if (in.name == n.inputs[1] && std::find(given_names.begin(), given_names.end(), in.name) == given_names.end())
          refuse("Check.golden",
                 "input '{}' is the axes of {}: golden does not draw axes; give it with --inputs FILE.npz (the other "
                 "inputs are drawn)",
                 in.name, n.name.empty() ? std::string("a ReduceMax node") : fmt::format("ReduceMax node '{}'", n.name));
  const auto shapes = input_shapes(model, o.dims, given_names);

  clear_previous(dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) refuse("Check.golden", "cannot create '{}': {}", dir, ec.message());
  const std::string& bytes = model.serialized();
  io::write_file((fs::path(dir) / "model.onnx").string(),
                 std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()), "Check.golden");
  std::vector<std::string> folders;
  for (std::int64_t c = 0; c < o.cases; ++c) {
    const auto feeds = case_inputs(model, shapes, given, o.seed, static_cast<std::uint64_t>(c));
    const auto outputs = model.run(feeds);
    const fs::path folder = fs::path(dir) / fmt::format("test_data_set_{}", c);
    fs::create_directories(folder, ec);
    if (ec) refuse("Check.golden", "cannot create '{}': {}", folder.string(), ec.message());
    write_pb_set(folder, "input", feeds);
    write_pb_set(folder, "output", outputs);
    folders.push_back(folder.string());
  }
  return folders;
}

}  // namespace sonnx::golden
