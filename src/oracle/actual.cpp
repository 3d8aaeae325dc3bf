// spec/common/check.md — reading the actual values of an implementation under test and the cases
// of a campaign: [Check.missing] (which value each file is), [Check.cases] (the three forms of
// `check`), [Check.nodewise] (output_K.pb of the exposed model, [Graph.expose]).
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "graph/expose.hpp"
#include "io/io.hpp"
#include "oracle/check.hpp"

namespace sonnx::check {

namespace fs = std::filesystem;

namespace {

// Every value name of the graph: inputs, initializers read by nodes, node outputs.
std::set<std::string> value_names(const graph::Model& model) {
  std::set<std::string> names;
  for (const auto& in : model.inputs()) names.insert(in.name);
  for (const auto& in : model.overridable_inputs()) names.insert(in.name);
  for (const auto& n : model.nodes()) {
    names.insert(n.inputs.begin(), n.inputs.end());
    names.insert(n.outputs.begin(), n.outputs.end());
  }
  names.erase("");
  return names;
}

// The element type of a value, as far as the model tells without running it ([IO.npy.bfloat16]
// needs it to read bfloat16 bits): declared inputs and outputs, and node outputs — the type the
// operator states for the output (OpVersion::output_dtype), else their first input's.
std::optional<DType> dtype_of_value(const graph::Model& model, const std::string& name, int depth) {
  if (auto t = model.declared_input_type(name)) return t;
  for (const auto& o : model.outputs())
    if (o.name == name && o.dtype) return o.dtype;
  if (depth > 256) return std::nullopt;
  for (const auto& n : model.nodes()) {
    const auto k = std::find(n.outputs.begin(), n.outputs.end(), name);
    if (!n.op || k == n.outputs.end() || n.inputs.empty()) continue;
    if (n.op->output_dtype)
      if (auto t = n.op->output_dtype(static_cast<std::size_t>(k - n.outputs.begin()), n.attributes)) return t;
    return dtype_of_value(model, n.inputs[0], depth + 1);
  }
  return std::nullopt;
}

// Values by name: graph outputs and other values; names that match nothing are extra. With
// `inputs`, the graph inputs among them are the case's inputs (a bundle).
void add_values(const graph::Model& model, std::vector<io::NamedTensor> tensors, const std::set<std::string>& names,
                Actual& a, std::vector<io::NamedTensor>* inputs = nullptr) {
  for (auto& t : tensors) {
    const bool is_input = std::any_of(model.inputs().begin(), model.inputs().end(), [&](const graph::ValueInfo& v) { return v.name == t.name; }) ||
                          std::any_of(model.overridable_inputs().begin(), model.overridable_inputs().end(),
                                      [&](const graph::ValueInfo& v) { return v.name == t.name; });
    if (inputs && is_input) inputs->push_back(std::move(t));  // a bundle: the case's inputs
    else if (!names.count(t.name)) a.extra.push_back(t.name);  // [Check.missing] names no value of the graph
    else if (!is_input) a.tensors.push_back(std::move(t));
  }
}

// What reading needs to know of the model: its value names, the element type of each value (to read
// bfloat16 bits, [IO.npy.bfloat16]) and which value output_K.pb of a test_data_set folder is.
struct Reader {
  const graph::Model& model;
  std::set<std::string> names;
  std::vector<std::string> outputs;  // output_K.pb is outputs[K]
  std::map<std::string, graph::ValueType> types;  // [Graph.infer] node-wise only

  Reader(const graph::Model& m, const ReadOptions& read) : model(m), names(value_names(m)) {
    if (!read.nodewise) {
      for (const auto& o : m.outputs()) outputs.push_back(o.name);  // [Check.missing] the K-th graph output
      return;
    }
    outputs = graph::expose(m).outputs;  // [Check.nodewise] the K-th output of the exposed model
    types = graph::infer_value_types(m);
  }
  std::optional<DType> dtype(const std::string& n) const {
    return types.empty() ? value_dtype(model, n) : value_dtype(model, n, types);
  }
};

void add_npz(const Reader& r, const std::string& path, Actual& a, std::vector<io::NamedTensor>* inputs = nullptr) {
  add_values(r.model, io::read_npz(path, [&](const std::string& n) { return r.dtype(n); }), r.names, a, inputs);
}

// The *.npz files directly in a folder, sorted by name.
std::vector<fs::path> npz_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".npz" && it->is_regular_file(ec)) out.push_back(it->path());
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", dir.string(), ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<DType> value_dtype(const graph::Model& model, const std::string& name) {
  return dtype_of_value(model, name, 0);
}

std::optional<DType> value_dtype(const graph::Model& model, const std::string& name,
                                 const std::map<std::string, graph::ValueType>& types) {
  if (auto t = dtype_of_value(model, name, 0)) return t;
  auto it = types.find(name);  // [Graph.infer] a value no node of the spec computes
  return it == types.end() ? std::nullopt : it->second.dtype;
}

Actual actual_from_tensors(const graph::Model& model, std::vector<io::NamedTensor> tensors) {
  Actual a;
  add_values(model, std::move(tensors), value_names(model), a);
  return a;
}

namespace {

Actual load_actual(const Reader& r, const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  Actual a;
  if (!fs::exists(status))
    io_failure(fs::path(path).extension() == ".npz" ? "IO.npz.archive" : "IO.testdata.folder",
               "ACTUAL '{}' does not exist (ACTUAL is a .npz file or a test_data_set_N folder of output_K.pb files)", path);
  if (!fs::is_directory(status)) {
    add_npz(r, path, a);  // [IO.npz.archive] keys = value names
    return a;
  }
  // [Check.missing] in a test_data_set folder, output_K.pb is the K-th graph output ([Check.nodewise]:
  // of the exposed model)
  auto tensors = io::read_test_data_set(path, "output");
  const auto& outputs = r.outputs;
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    if (k >= outputs.size()) {
      a.extra.push_back(fmt::format("output_{}.pb{}", k, tensors[k].name.empty() ? "" : " ('" + tensors[k].name + "')"));
      continue;
    }
    if (!tensors[k].name.empty() && tensors[k].name != outputs[k])
      a.notes.push_back(fmt::format("output_{}.pb is named '{}' but is judged as graph output {} '{}' (by position)", k,
                                    tensors[k].name, k, outputs[k]));
    a.tensors.push_back({outputs[k], std::move(tensors[k].tensor)});
  }
  for (const auto& f : npz_files(path)) {  // [Check.attribution] values by name, intermediate ones included
    Actual more;
    add_npz(r, f.string(), more);
    for (auto& t : more.tensors)
      if (std::none_of(a.tensors.begin(), a.tensors.end(), [&](const io::NamedTensor& x) { return x.name == t.name; }))
        a.tensors.push_back(std::move(t));
    a.extra.insert(a.extra.end(), more.extra.begin(), more.extra.end());
  }
  return a;
}

}  // namespace

Actual load_actual(const graph::Model& model, const std::string& path, const ReadOptions& read) {
  return load_actual(Reader(model, read), path);
}

// ---- [Check.cases] --------------------------------------------------------------------------------

namespace {

bool golden_folder(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return false;
  static const std::regex pattern("test_data_set_[0-9]{1,9}");
  for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && std::regex_match(it->path().filename().string(), pattern)) return true;
  return false;
}

std::vector<std::string> files_below(const fs::path& p) {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return {p.string()};
  for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry;  // an entry whose type cannot be read (a dangling link) is not a regular file
    if (it->is_regular_file(entry)) out.push_back(it->path().string());
  }
  // [Check.verdict] the manifest lists every file read: a folder not listed to its end is an I/O failure
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list every file below it: {}", p.string(), ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool is_golden_folder(const std::string& a) { return golden_folder(a); }

std::vector<Case> load_cases(const graph::Model& model, const std::string& a, const std::string& b,
                             const ReadOptions& read, std::size_t* total) {
  const Reader reader(model, read);
  if (total) *total = 1;
  std::vector<Case> cases;
  std::error_code ec;
  if (b.empty()) {  // a bundle: inputs and actual values by name in one .npz (tract's convention)
    if (!fs::exists(a, ec)) io_failure("IO.npz.archive", "BUNDLE '{}' does not exist", a);
    if (fs::is_directory(a, ec))
      usage_error("check MODEL BUNDLE.npz takes one .npz holding inputs and actual values; '{}' is a folder "
                  "(give ACTUAL as well)", a);
    Case c;
    c.name = fs::path(a).filename().string();
    add_npz(reader, a, c.actual, &c.feeds);
    c.files = {a};
    cases.push_back(std::move(c));
    return cases;
  }
  if (!golden_folder(a)) {  // one case: INPUTS and ACTUAL
    Case c;
    c.name = fs::path(a).filename().string();
    c.feeds = graph::load_feeds(model, a);
    c.actual = load_actual(reader, b);
    c.files = files_below(a);
    for (auto& f : files_below(b)) c.files.push_back(f);
    cases.push_back(std::move(c));
    return cases;
  }
  // A golden folder: every test_data_set_K, in increasing K.
  static const std::regex pattern("test_data_set_([0-9]{1,9})");
  std::vector<std::pair<long, fs::path>> sets;
  for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string n = it->path().filename().string();
    if (it->is_directory(ec) && std::regex_match(n, m, pattern)) sets.emplace_back(std::stol(m[1]), it->path());
  }
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", a, ec.message());
  std::sort(sets.begin(), sets.end());
  if (!fs::is_directory(b, ec)) io_failure("IO.testdata.folder", "IUT_DIR '{}' is not a folder", b);
  if (total) *total = sets.size();
  const std::vector<std::size_t> piece = shard::positions(read.shard, sets.size());  // [Check.shard] increasing K
  for (const std::size_t p : piece) {
    const fs::path& dir = sets[p].second;
    Case c;
    c.name = dir.filename().string();
    c.position = p;
    c.feeds = graph::load_feeds(model, dir.string());
    for (const auto& f : files_below(dir))
      if (fs::path(f).filename().string().rfind("input", 0) == 0) c.files.push_back(f);
    const fs::path folder = fs::path(b) / c.name, npz = fs::path(b) / (c.name + ".npz");
    if (fs::is_directory(folder, ec)) c.actual = load_actual(reader, folder.string()), c.files.push_back(folder.string());
    else if (fs::is_regular_file(npz, ec)) c.actual = load_actual(reader, npz.string()), c.files.push_back(npz.string());
    else c.actual.notes.push_back(fmt::format("no actual values for {} (neither {} nor {})", c.name, folder.string(), npz.string()));
    cases.push_back(std::move(c));
    if (read.progress) read.progress(cases.size(), piece.size());
  }
  return cases;
}

}  // namespace sonnx::check
