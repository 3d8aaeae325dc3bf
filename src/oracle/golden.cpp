// [Check.golden] Deterministic golden cases; the generator is specified in golden.hpp.
#include "oracle/golden.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include <unistd.h>

#include "core/format.hpp"
#include "core/index.hpp"
#include "io/io.hpp"
#include "oracle/coverage.hpp"
#include "oracle/report.hpp"

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

// A previous golden folder may be replaced: only model.onnx, manifest.json and test_data_set_N
// folders holding input_K.pb, output_K.pb, inputs.npz, outputs.npz.
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

// [Check.golden] DIR may be absent, empty, or a previous golden folder; anything else is refused
// before anything is written.
void check_replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) refuse("Check.golden", "'{}' exists and is not a directory", dir.string());
  auto not_golden = [&](const fs::path& p) {
    refuse("Check.golden", "'{}' is not a golden folder ({} is not a file golden writes); choose an empty or new -o DIR",
           dir.string(), p.string());
  };
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if ((n == "model.onnx" || n == "manifest.json") && e.is_regular_file()) continue;
    if (n.rfind("test_data_set_", 0) != 0 || !e.is_directory()) not_golden(e.path());
    for (const auto& f : fs::directory_iterator(e.path(), ec))
      if (!f.is_regular_file() || !is_golden_file(f.path())) not_golden(f.path());
  }
  if (ec) io_failure("Check.golden", "cannot list '{}': {}", dir.string(), ec.message());
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
        usage_error("input '{}' declares no shape: give its value with --inputs", in.name);
      const auto& dim_param = names.at(in.name);
      for (std::size_t k = 0; k < in.shape->size(); ++k) {
        if ((*in.shape)[k]) {
          shape.push_back(*(*in.shape)[k]);
          continue;
        }
        const std::string& dn = dim_param[k];
        if (dn.empty())
          usage_error("input '{}' dimension {} has neither a size nor a name: give its value with --inputs",
                 in.name, k);
        auto it = dims.find(dn);
        if (it == dims.end())  // [Graph.feed.shape] symbolic dims are sized by the caller
          usage_error("input '{}' dimension {} is symbolic ('{}'): give its size with --dim {}=SIZE", in.name,
                 k, dn, dn);
        shape.push_back(it->second);
        used.insert(dn);
      }
    }
    shapes.push_back(shape);
  }
  for (const auto& [dn, size] : dims) {
    if (size < 0) usage_error("--dim {}={}: a size must be >= 0", dn, size);
    bool known = false;
    for (const auto& [input, list] : names) known = known || std::find(list.begin(), list.end(), dn) != list.end();
    if (!known) usage_error("--dim {}: no input of the model has a symbolic dimension named '{}'", dn, dn);
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

namespace {

// ---- [Check.golden-coverage] building witnesses --------------------------------------------------

// One case's inputs and everything the model computed from them.
struct Case {
  std::vector<io::NamedTensor> feeds;
  std::map<std::string, Tensor> values;
};

// Writes `bits` (the low bytes) into element `offset` of `t`.
void write_bits(Tensor& t, std::int64_t offset, std::uint64_t bits) {
  const auto size = static_cast<std::size_t>(info(t.dtype()).size);
  std::memcpy(t.bytes().data() + static_cast<std::size_t>(offset) * size, &bits, size);  // little-endian host
}

class Builder {
 public:
  Builder(const graph::Model& model, const std::set<std::string>& drawn) : model_(model), drawn_(drawn) {
    for (std::size_t k = 0; k < model.nodes().size(); ++k)
      for (const auto& o : model.nodes()[k].outputs) producer_[o] = k;
  }

  // Makes element `offset` of the value `name` equal `bits`, by writing drawn graph inputs: a drawn
  // input is written; the output of a node that selects its value from a set (Decision::selection:
  // a fold of max_of or min_of) gets `bits` in every member of the element's set (the fold of equal
  // members is that value, NaN or not; the case is checked afterwards, so a value the node cannot
  // select is found out then); any other value (an initializer, a Constant, a given input, an output
  // computed from the whole set, such as Hardmax's) can only keep the value it has.
  // `c.values` are the values before writing: only the structure of the sets is read from them.
  bool realize(Case& c, const std::string& name, std::int64_t offset, std::uint64_t bits, int depth = 0) {
    if (drawn_.count(name)) {
      for (auto& f : c.feeds)
        if (f.name == name) write_bits(f.tensor, offset, bits);
      return true;
    }
    const Tensor& current = c.values.at(name);
    auto p = producer_.find(name);
    if (p == producer_.end() || depth > 64) return element_bits(current, offset) == bits;
    const auto& node = model_.nodes()[p->second];
    if (!node.op) return element_bits(current, offset) == bits;
    const ops::NodeValues v = coverage::node_values(node, c.values);
    const ops::Decision d = node.op->decide(v, node.attributes, index_of(current.shape(), offset));
    if (!d.selection) return element_bits(current, offset) == bits;
    if (d.set.size == 0) return false;  // an empty set: the value is the empty set's, whatever the inputs
    for (std::int64_t k = 0; k < d.set.size; ++k) {
      const ops::Member m = d.set.member(k);
      if (!realize(c, v.input_names[m.input], m.offset, bits, depth + 1)) return false;
    }
    return true;
  }

  // Writes the witness of `reach` into the set of element `index` of node `node`'s output.
  bool plant(Case& c, std::size_t node, const std::vector<std::int64_t>& index, const ops::Reach& reach) {
    const auto& n = model_.nodes()[node];
    const ops::NodeValues v = coverage::node_values(n, c.values);
    const ops::Decision d = n.op->decide(v, n.attributes, index);
    if (d.set.size == 0) return false;
    const auto bits = ops::witness_bits(reach, d.set.size, v.inputs[d.set.member(0).input]->dtype());
    if (!bits) return false;
    for (std::int64_t k = 0; k < d.set.size; ++k) {
      if (static_cast<std::size_t>(k) < reach.write.size() && !reach.write[static_cast<std::size_t>(k)]) continue;  // kept
      const ops::Member m = d.set.member(k);
      if (!realize(c, v.input_names[m.input], m.offset, (*bits)[static_cast<std::size_t>(k)])) return false;
    }
    return true;
  }

  // The first output element of node `node` whose set has `size` members (a witness of given values fits
  // only a set of its size: a window whole, not clipped by the padding), among the first `limit`.
  std::optional<std::int64_t> offset_with_set_size(const Case& c, std::size_t node, std::int64_t size, std::int64_t limit) const {
    const auto& n = model_.nodes()[node];
    const ops::NodeValues v = coverage::node_values(n, c.values);
    for (std::int64_t offset = 0; offset < std::min(v.output->size(), limit); ++offset)
      if (n.op->decide(v, n.attributes, index_of(v.output->shape(), offset)).set.size == size) return offset;
    return std::nullopt;
  }

  // Whether node `node` decides element `index` of its output by situation `s`.
  bool decides(const Case& c, std::size_t node, const std::vector<std::int64_t>& index, const ops::Situation& s) const {
    const auto& n = model_.nodes()[node];
    const auto situations = n.op->decide(coverage::node_values(n, c.values), n.attributes, index).situations;
    return std::find(situations.begin(), situations.end(), s) != situations.end();
  }

 private:
  const graph::Model& model_;
  std::set<std::string> drawn_;
  std::map<std::string, std::size_t> producer_;
};

// Output elements to try a witness at: spread over the output, at most 8.
std::vector<std::int64_t> candidate_offsets(std::int64_t size) {
  std::vector<std::int64_t> out;
  for (std::int64_t o : {std::int64_t{0}, size - 1, size / 2, std::int64_t{1}, size - 2, size / 3, 2 * size / 3, size / 4})
    if (o >= 0 && o < size && std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
  return out;
}

struct Target {
  std::size_t node;
  ops::Reach reach;
  std::string status = "unreachable";  // exercised, not built, unreachable
  std::string why;
  std::string first_case;
  coverage::Witness witness;
};

// Removes `path` on destruction unless released: the temporary folder of an unfinished golden.
struct TemporaryFolder {
  fs::path path;
  bool keep = false;
  ~TemporaryFolder() {
    std::error_code ec;
    if (!keep) fs::remove_all(path, ec);
  }
};

}  // namespace

Written write(const graph::Model& model, const std::string& dir, const Options& o) {
  if (o.cases < 1) usage_error("--cases must be at least 1, got {}", o.cases);
  std::vector<io::NamedTensor> given;
  if (!o.inputs.empty()) given = graph::load_feeds(model, o.inputs);
  std::vector<std::string> given_names;
  for (const auto& g : given) given_names.push_back(g.name);
  // An input that selects (the axes of ReduceMax-18/20) drawn at random would be refused, so it must be given.
  for (const auto& n : model.nodes())
    for (const auto& p : n.op ? n.op->parameter_inputs : std::vector<ops::OpVersion::Parameter>{})
      for (const auto& in : model.inputs())
        if (p.input < n.inputs.size() && in.name == n.inputs[p.input] &&
            std::find(given_names.begin(), given_names.end(), in.name) == given_names.end())
          usage_error(
                 "input '{}' is the {} of {}: golden does not draw it; give it with --inputs FILE.npz (the other "
                 "inputs are drawn)",
                 in.name, p.name,
                 n.name.empty() ? fmt::format("a {} node", n.op_type) : fmt::format("{} node '{}'", n.op_type, n.name));
  const auto shapes = input_shapes(model, o.dims, given_names);
  check_replaceable(dir);

  // The drawn cases ([Check.golden]), and what they exercised ([Check.coverage]).
  std::set<std::string> drawn;
  for (const auto& in : model.inputs())
    if (std::find(given_names.begin(), given_names.end(), in.name) == given_names.end()) drawn.insert(in.name);
  std::vector<Case> cases;
  std::vector<std::vector<coverage::NodeCoverage>> exercised;
  auto add_case = [&](Case c) {
    exercised.push_back(coverage::account(model, c.values));
    cases.push_back(std::move(c));
  };
  auto progress = [&](const char* phase, std::size_t done, std::size_t total) {
    if (o.progress) o.progress(phase, done, total);
  };
  for (std::int64_t k = 0; k < o.cases; ++k) {
    Case c{case_inputs(model, shapes, given, o.seed, static_cast<std::uint64_t>(k)), {}};
    c.values = model.run_all(c.feeds);
    add_case(std::move(c));
    progress("cases drawn", static_cast<std::size_t>(k + 1), static_cast<std::size_t>(o.cases));
  }

  // [Check.golden-coverage] What each node can reach, and the witnesses still missing.
  const auto reach = coverage::reach(model, cases.front().values, coverage::sources(model, drawn));
  std::vector<Target> targets;
  for (std::size_t n = 0; n < reach.size(); ++n)
    for (const auto& r : reach[n]) targets.push_back({n, r, r.reachable ? "not built" : "unreachable", r.why, "", {}});
  auto record = [&](std::size_t case_index) {
    for (const auto& nc : exercised[case_index])
      for (auto& t : targets)
        if (t.node == nc.node && t.status != "exercised")
          if (auto w = nc.exercised.find(t.reach.situation); w != nc.exercised.end()) {
            t.status = "exercised", t.why.clear(), t.witness = w->second;
            t.first_case = fmt::format("test_data_set_{}", case_index);
          }
  };
  for (std::size_t k = 0; k < cases.size(); ++k) record(k);

  // Constructed cases: a drawn case of the next index, into which the missing witnesses are written
  // one by one, each kept only if the reference then decides its element by its situation (and the
  // witnesses written before it still hold).
  Builder builder(model, drawn);
  std::map<std::size_t, std::vector<std::string>> made;  // case -> the witnesses written into it
  while (o.construct) {
    std::vector<Target*> missing;
    for (auto& t : targets)
      if (t.status == "not built" && t.reach.pattern != ops::Pattern::None) missing.push_back(&t);
    if (missing.empty()) break;
    const auto k = static_cast<std::uint64_t>(cases.size());
    Case c{case_inputs(model, shapes, given, o.seed, k), {}};
    c.values = model.run_all(c.feeds);
    struct Planted {
      std::size_t node;
      std::vector<std::int64_t> index;
      ops::Situation situation;
    };
    std::vector<Planted> planted;
    for (Target* t : missing) {
      const Tensor& y = c.values.at(model.nodes()[t->node].outputs.at(0));
      std::vector<std::int64_t> offsets = candidate_offsets(y.size());
      if (t->reach.pattern == ops::Pattern::Given)  // and the first element whose set the witness fits
        if (auto fit = builder.offset_with_set_size(c, t->node, static_cast<std::int64_t>(t->reach.given.size()), 4096))
          if (std::find(offsets.begin(), offsets.end(), *fit) == offsets.end()) offsets.push_back(*fit);
      for (std::int64_t offset : offsets) {
        const auto index = index_of(y.shape(), offset);
        Case trial = c;
        if (!builder.plant(trial, t->node, index, t->reach)) continue;
        trial.values = model.run_all(trial.feeds);
        bool holds = builder.decides(trial, t->node, index, t->reach.situation);
        for (const auto& p : planted) holds = holds && builder.decides(trial, p.node, p.index, p.situation);
        if (!holds) continue;
        c = std::move(trial);
        planted.push_back({t->node, index, t->reach.situation});
        made[cases.size()].push_back(fmt::format("{}: {} at {}", coverage::node_label(model, t->node),
                                                 t->reach.situation.text(), to_string(index)));
        break;
      }
    }
    if (planted.empty()) {
      for (Target* t : missing)
        if (t->why.empty())  // a reach that said why it may not be built keeps its reason
          t->why = "no output element could be given its witness (" + ops::pattern_name(t->reach.pattern, t->reach.order) +
                   "): the values it needs do not reach the node's set";
      break;
    }
    add_case(std::move(c));
    record(cases.size() - 1);
    progress("cases constructed", cases.size() - static_cast<std::size_t>(o.cases), 0);
  }
  // [Check.shard] the cases of the piece: position k (the case's number) is in piece k mod N + 1
  const std::vector<std::size_t> piece = shard::positions(o.shard.value_or(shard::Shard{}), cases.size());

  // The manifest ([Check.golden]).
  Written w;
  nlohmann::ordered_json& m = w.manifest;
  m["tool"] = report::revisions();
  m["seed"] = o.seed;
  nlohmann::ordered_json options;
  options["cases"] = o.cases;
  options["construct"] = o.construct;
  options["dims"] = o.dims;
  options["inputs"] = o.inputs;
  options["assume_opset_reviewed"] = o.assume_opset_reviewed;
  m["options"] = options;
  m["cases"] = nlohmann::ordered_json::array();
  for (const std::size_t k : piece) {  // [Check.shard.report] the piece's cases (all, unsharded)
    nlohmann::ordered_json c;
    c["name"] = fmt::format("test_data_set_{}", k);
    c["made"] = static_cast<std::int64_t>(k) < o.cases ? "drawn" : "constructed";
    if (made.count(k)) c["witnesses_written"] = made[k];
    c["exercised"] = coverage::to_json(exercised[k]);
    m["cases"].push_back(c);
  }
  m["coverage"] = nlohmann::ordered_json::array();
  for (const auto& t : targets) {
    nlohmann::ordered_json j;
    j["node"] = coverage::node_label(model, t.node);
    j["clause"] = t.reach.situation.clause;
    j["situation"] = t.reach.situation.detail;
    j["status"] = t.status;
    if (t.status == "exercised") {
      j["case"] = t.first_case;
      j["witness"] = coverage::to_json(t.witness);
    } else {
      j["why"] = t.why;
    }
    m["coverage"].push_back(j);
    w.reachable += t.reach.reachable || t.status == "exercised";  // a situation a case exercised is reachable
    w.exercised += t.status == "exercised";
    w.not_built += t.status == "not built";
    w.unreachable += t.status == "unreachable";
  }
  if (o.shard) {  // [Check.shard.report] what a merge needs; the coverage list above stays whole
    shard::Piece p{*o.shard, cases.size(), {}, piece};
    for (const std::size_t k : piece) p.cases.push_back(fmt::format("test_data_set_{}", k));
    m["shard"] = shard::to_json(p);
  }
  w.drawn = o.cases;
  w.constructed = static_cast<std::int64_t>(cases.size()) - o.cases;
  w.total = static_cast<std::int64_t>(cases.size());

  // [Check.golden] Written under a temporary name beside DIR, renamed at the end.
  const fs::path target = fs::path(dir).lexically_normal();
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) io_failure("Check.golden", "cannot create '{}': {}", parent.string(), ec.message());
  TemporaryFolder tmp{parent / fmt::format(".{}.golden-{}", target.filename().string(), getpid())};
  fs::remove_all(tmp.path, ec);
  fs::create_directories(tmp.path, ec);
  if (ec) io_failure("Check.golden", "cannot create '{}': {}", tmp.path.string(), ec.message());
  const std::string& bytes = model.serialized();
  io::write_file((tmp.path / "model.onnx").string(),
                 std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()), "Check.golden");
  for (const std::size_t k : piece) {  // [Check.shard] only the piece's folders, each as the unsharded run writes it
    const fs::path folder = tmp.path / fmt::format("test_data_set_{}", k);
    fs::create_directories(folder, ec);
    if (ec) io_failure("Check.golden", "cannot create '{}': {}", folder.string(), ec.message());
    write_pb_set(folder, "input", cases[k].feeds);
    std::vector<io::NamedTensor> outputs;
    for (const auto& out : model.outputs()) outputs.push_back({out.name, cases[k].values.at(out.name)});
    write_pb_set(folder, "output", outputs);
    w.folders.push_back((target / folder.filename()).string());
    progress("cases written", w.folders.size(), piece.size());
  }
  const std::string text = m.dump(2) + "\n";
  io::write_file((tmp.path / "manifest.json").string(),
                 std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()), "Check.golden");
  fs::remove_all(target, ec);
  if (ec) io_failure("Check.golden", "cannot replace '{}': {}", target.string(), ec.message());
  fs::rename(tmp.path, target, ec);
  if (ec) io_failure("Check.golden", "cannot rename '{}' to '{}': {}", tmp.path.string(), target.string(), ec.message());
  tmp.keep = true;
  return w;
}

}  // namespace sonnx::golden
