// sonnx_ref._core: the Python binding of the sonnx-ref library (pybind11). It converts between numpy
// and the library's tensors and calls the same library functions as the CLI (tools/cli/*.cpp); it
// decides nothing itself. The public API is python/sonnx_ref/__init__.py.
//
// Sections:
//   1. errors      SpecError -> sonnx_ref.Refused / sonnx_ref.IOFailure / ValueError
//   2. tensors     numpy array -> Tensor through io::read_npy (the .npy reader of the CLI's .npz
//                  files: same dtypes, same refusals); Tensor -> numpy array without a copy
//   3. model       graph::Model: load, run (GIL released while the operators run)
//   4. explain     explain::Explainer + explain::to_json (what `explain --json` prints)
//   5. CHECK AND GOLDEN: every binding of src/oracle/check.hpp, golden.hpp and the report writing,
//                  in one place (thin wrappers where the logic is still in tools/cli)
#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "ops/elementary.hpp"
#include "core/error.hpp"
#include "core/tensor.hpp"
#include "graph/expose.hpp"
#include "graph/infer.hpp"
#include "graph/model.hpp"
#include "io/io.hpp"
#include "ops/registry.hpp"
#include "oracle/check.hpp"
#include "oracle/compare.hpp"
#include "oracle/explain.hpp"
#include "oracle/golden.hpp"
#include "oracle/node_golden.hpp"
#include "oracle/report.hpp"

namespace py = pybind11;
using namespace sonnx;

static_assert(std::endian::native == std::endian::little, "outputs are handed to numpy as little-endian arrays");

namespace {

// ------------------------------------------------------------------------------------------------
// 1. errors
// ------------------------------------------------------------------------------------------------

// A refusal raises sonnx_ref.Refused (a ValueError), an I/O failure sonnx_ref.IOFailure (an
// OSError); both carry .clause = the spec ID and the CLI's "error: [ID] message" as their text. A
// usage error (no ID) raises ValueError("error: message").
void raise_python(const std::string& kind, const std::string& clause, const std::string& text) {
  py::object cls = py::module_::import("sonnx_ref._errors").attr(kind.c_str());
  py::object error = cls(text, clause);
  PyErr_SetObject(cls.ptr(), error.ptr());
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const SpecError& e) {
    switch (e.kind()) {
      case Failure::Usage: PyErr_SetString(PyExc_ValueError, e.report().c_str()); return;
      case Failure::Io: raise_python("IOFailure", e.id(), e.report()); return;
      default: raise_python("Refused", e.id(), e.report()); return;
    }
  } catch (const std::bad_alloc&) {  // as the CLI reports it (tools/cli/main.cpp)
    raise_python("Refused", "Common.tensor.size-limit", "error: [Common.tensor.size-limit] out of memory");
  }
}

// Runs `f` with the GIL released, then rethrows on the Python side.
template <class F>
auto without_gil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

// ------------------------------------------------------------------------------------------------
// 2. tensors
// ------------------------------------------------------------------------------------------------

// The numpy type string of each dtype, little-endian; bfloat16 as its 16-bit patterns ('<u2'), as
// the CLI writes it to .npz ([IO.npy.bfloat16]).
const char* numpy_descr(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::Int8: return "|i1";
    case DType::Uint8: return "|u1";
    case DType::Int16: return "<i2";
    case DType::Uint16: return "<u2";
    case DType::Int32: return "<i4";
    case DType::Uint32: return "<u4";
    case DType::Int64: return "<i8";
    case DType::Uint64: return "<u8";
    case DType::Float16: return "<f2";
    case DType::BFloat16: return "<u2";
    case DType::Float: return "<f4";
    case DType::Double: return "<f8";
  }
  throw std::logic_error("numpy_descr: unknown dtype");
}

// The tensor becomes the array's memory: no copy. The array owns it through a capsule.
py::array to_numpy(Tensor&& tensor) {
  auto* owner = new Tensor(std::move(tensor));
  py::capsule base(owner, [](void* p) { delete static_cast<Tensor*>(p); });
  const std::vector<py::ssize_t> shape(owner->shape().begin(), owner->shape().end());
  // A tensor without elements has no memory: numpy then allocates its own (empty) array.
  return py::array(py::dtype(numpy_descr(owner->dtype())), shape, owner->bytes().data(), base);
}

py::dict to_dict(std::vector<io::NamedTensor>&& tensors) {
  py::dict out;
  for (auto& t : tensors) out[py::str(t.name)] = to_numpy(std::move(t.tensor));
  return out;
}

// A numpy array (or anything numpy.asarray accepts) as a tensor. The array is read as the .npy
// image it would be in an .npz ([IO.npy.format] header, its own type string and byte order, C order)
// by the library's reader, so a feed given as an array and the same array given in an .npz file are
// accepted, converted and refused alike: the dtype table [IO.npy.dtype], uint16 or |V2 read as
// bfloat16 bits when `declared` is bfloat16 [IO.npy.bfloat16], bool bytes [Common.dtype.bool].
Tensor from_numpy(py::handle value, const std::string& what, std::optional<DType> declared) {
  py::module_ np = py::module_::import("numpy");
  py::object a = np.attr("asarray")(value);
  if (!a.attr("flags").attr("c_contiguous").cast<bool>()) a = a.attr("copy")("C");
  py::object dtype = a.attr("dtype");
  if (dtype.attr("hasobject").cast<bool>())
    throw py::type_error(what + ": an array of Python objects is not a tensor (dtype " + py::str(dtype).cast<std::string>() + ")");
  const std::string descr = dtype.attr("str").cast<std::string>();
  std::string shape = "(";
  for (auto d : a.attr("shape").cast<py::tuple>()) shape += std::to_string(d.cast<long long>()) + ", ";
  if (shape.size() > 1) shape.resize(shape.size() - (a.attr("ndim").cast<int>() == 1 ? 1 : 2));
  shape += ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // version 1.0: magic (6), version (2), header length (2); header padded to a multiple of 64, '\n' last
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xFFFF) throw py::value_error(what + ": too many dimensions");
  const py::buffer_info data = a.cast<py::array>().request();
  const auto data_bytes = static_cast<std::size_t>(data.size * data.itemsize);
  std::vector<std::byte> image(10 + header.size() + data_bytes);
  std::memcpy(image.data(), "\x93NUMPY\x01\x00", 8);
  image[8] = static_cast<std::byte>(header.size() & 0xFF);
  image[9] = static_cast<std::byte>(header.size() >> 8);
  std::memcpy(image.data() + 10, header.data(), header.size());
  if (data_bytes) std::memcpy(image.data() + 10 + header.size(), data.ptr, data_bytes);
  return io::read_npy(image, what, declared);
}

// Feeds: a mapping {input name: array}, a path (.npz or test_data_set folder, read as the CLI reads
// INPUTS: graph::load_feeds), or None (no feeds).
std::vector<io::NamedTensor> feeds_from(const graph::Model& model, py::handle feeds) {
  if (feeds.is_none()) return {};
  if (py::isinstance<py::str>(feeds)) return graph::load_feeds(model, feeds.cast<std::string>());
  if (!py::hasattr(feeds, "items"))
    throw py::type_error("feeds must be a mapping {input name: numpy array} or the path of a .npz or test_data_set folder");
  std::vector<io::NamedTensor> out;
  for (auto item : feeds.attr("items")()) {
    auto kv = item.cast<py::tuple>();
    if (!py::isinstance<py::str>(kv[0])) throw py::type_error("feed names must be str");
    const auto name = kv[0].cast<std::string>();
    out.push_back({name, from_numpy(kv[1], "feed '" + name + "'", model.declared_input_type(name))});
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// 3. model
// ------------------------------------------------------------------------------------------------

struct PyModel {
  graph::Model model;
  std::string origin;  // "model 'path'", "model bytes", "onnx.ModelProto"
  bool assume_opset_reviewed = false;  // [Graph.opset.reviewed] as loaded
};

// A model from a path (str or os.PathLike), bytes-like ONNX ModelProto bytes, or an object with
// SerializeToString() (onnx.ModelProto). `partial`: nodes outside the spec are classified, not
// refused ([Graph.partial]); run() then refuses the model ([Graph.partial.run]).
PyModel load_model(py::handle source, bool assume_opset_reviewed, bool partial) {
  graph::LoadOptions options;
  options.assume_opset_reviewed = assume_opset_reviewed;
  options.partial = partial;
  if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
    const auto path = py::module_::import("os").attr("fspath")(source).cast<std::string>();
    return {without_gil([&] { return graph::Model::load(path, options); }), "model '" + path + "'", assume_opset_reviewed};
  }
  std::string bytes, origin;
  if (py::isinstance<py::bytes>(source) || py::isinstance<py::bytearray>(source) || py::isinstance<py::memoryview>(source)) {
    bytes = py::module_::import("builtins").attr("bytes")(source).cast<std::string>();
    origin = "model bytes";
  } else if (py::hasattr(source, "SerializeToString")) {
    bytes = source.attr("SerializeToString")().cast<std::string>();
    origin = "onnx.ModelProto";
  } else {
    throw py::type_error("model must be a path, bytes or an onnx.ModelProto, not " +
                         py::str(py::type::of(source).attr("__name__")).cast<std::string>());
  }
  return {without_gil([&] { return graph::Model::from_bytes(bytes, origin, options); }), origin, assume_opset_reviewed};
}

py::object declared_shape(const graph::ValueInfo& v) {
  if (!v.shape) return py::none();
  py::list dims;
  for (const auto& d : *v.shape) dims.append(d ? py::object(py::int_(*d)) : py::none());
  return py::tuple(dims);
}

py::list value_infos(const std::vector<graph::ValueInfo>& values) {
  py::list out;
  for (const auto& v : values) {
    py::dict d;
    d["name"] = v.name;
    d["dtype"] = v.dtype ? py::object(py::str(std::string(name(*v.dtype)))) : py::none();
    d["shape"] = declared_shape(v);
    out.append(d);
  }
  return out;
}

py::dict run(const PyModel& m, py::handle feeds) {
  auto f = feeds_from(m.model, feeds);
  return to_dict(without_gil([&] { return m.model.run(f); }));
}

// ------------------------------------------------------------------------------------------------
// 4. explain (as tools/cli/cmd_explain.cpp)
// ------------------------------------------------------------------------------------------------

// The JSON text `sonnx-ref explain --json` prints. An unknown value name or an index outside the
// value is a usage error of the library (ValueError), as in the CLI.
std::string explain_binding(const PyModel& m, py::handle feeds, const std::string& output, const std::vector<std::int64_t>& index) {
  auto f = feeds_from(m.model, feeds);
  return without_gil([&] {
    const explain::Explainer ex(m.model, m.model.run_all(f));
    return explain::to_json(ex.chain(output, index)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  });
}

// ================================================================================================
// 5. CHECK AND GOLDEN
//
// Every binding of src/oracle/check.hpp and golden.hpp, and the report writing of `check`, is in this
// section and nowhere else. Bound to the library API as it is: check::load_actual, check::judge,
// check::to_text / to_json / to_junit, golden::write, report::manifest / write_json / write_junit.
// Wrappers marked "CLI logic" restate what tools/cli/cmd_check.cpp and cmd_golden.cpp do and belong
// in the library.
// ================================================================================================

// The actual values as in-memory arrays keyed by value name (graph outputs, and intermediate values
// for [Check.attribution]); an array given where a bfloat16 value is declared is read as bfloat16 bits
// [IO.npy.bfloat16]; the library sorts out the names ([Check.missing]).
check::Actual actual_from_mapping(const graph::Model& model, py::handle actual, bool nodewise) {
  std::vector<io::NamedTensor> tensors;
  // [Graph.infer] node-wise, the element type of a value no node of the spec computes is ONNX's inference's
  const auto types = nodewise ? graph::infer_value_types(model) : std::map<std::string, graph::ValueType>{};
  for (auto item : actual.attr("items")()) {
    auto kv = item.cast<py::tuple>();
    if (!py::isinstance<py::str>(kv[0])) throw py::type_error("actual value names must be str");
    const auto name = kv[0].cast<std::string>();
    tensors.push_back({name, from_numpy(kv[1], "actual value '" + name + "'", check::value_dtype(model, name, types))});
  }
  return check::actual_from_tensors(model, std::move(tensors));
}

struct CheckResult {
  std::string text;  // check::to_text: what `sonnx-ref check` prints
  std::string json;  // check::to_json: the body of `check --report`
};

// The verdict of `check` on the cases: the library's campaign ([Check.cases]), its text and its
// JSON, and the reports `check --report` / `--junit` write (the manifest over `manifest_files`, the
// arguments given as paths, and this process's command line). `ulp` 0 is the bitwise comparison
// ([Check.ulp]: "--ulp 0 is the bitwise comparison of [Check.bitwise]").
CheckResult judge_and_report(const graph::Model& model, const std::vector<check::Case>& cases, std::uint64_t ulp,
                             std::size_t max_listed, const std::string& report_path, const std::string& junit_path,
                             const std::vector<std::string>& manifest_files, const std::string& junit_stem,
                             bool nodewise, bool nan_payload_strict, bool flush_subnormals) {
  compare::Options c = compare::options_for(ulp, max_listed);
  c.nan_payload_strict = nan_payload_strict;  // [Check.nan-payload.strict] / [Check.nan-payload.any]
  c.flush_subnormals = flush_subnormals;      // [Acc.hyp.ftz]
  const auto campaign = check::judge_cases(model, cases, c, nodewise);
  if (!report_path.empty() || !junit_path.empty()) {
    const auto manifest = report::manifest(manifest_files, report::command_line());
    if (!report_path.empty()) report::write_json(report_path, check::report_document(campaign, c, manifest));
    if (!junit_path.empty())
      report::write_junit(junit_path, "sonnx-ref check " + junit_stem, check::to_junit(campaign, junit_stem), manifest);
  }
  return CheckResult{check::to_text(campaign, c),
                     check::to_json(campaign, c).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

// One case: `feeds` (a mapping or a path) and `actual` ({value name: array}, or a .npz /
// test_data_set folder path); or, with `feeds` a golden folder and `actual` an IUT folder, every
// test_data_set_K of the campaign (check::load_cases).
CheckResult check_binding(const PyModel& m, py::handle feeds, py::handle actual, std::uint64_t ulp, std::size_t max_listed,
                          const std::string& report_path, const std::string& junit_path,
                          const std::vector<std::string>& manifest_files, const std::string& junit_stem, bool nodes,
                          bool nan_payload_strict, bool flush_subnormals) {
  const bool nodewise = !check::nodewise_reason(m.model, nodes).empty();  // [Check.nodewise]
  if (py::isinstance<py::str>(feeds) && py::isinstance<py::str>(actual)) {
    const auto a = feeds.cast<std::string>(), b = actual.cast<std::string>();
    return without_gil([&] {
      return judge_and_report(m.model, check::load_cases(m.model, a, b, {nodewise}), ulp, max_listed, report_path,
                              junit_path, manifest_files, junit_stem, nodewise, nan_payload_strict, flush_subnormals);
    });
  }
  check::Case k;
  k.name = "case";
  k.feeds = feeds_from(m.model, feeds);
  std::string actual_path;
  if (py::isinstance<py::str>(actual)) actual_path = actual.cast<std::string>();
  else if (py::hasattr(actual, "items")) k.actual = actual_from_mapping(m.model, actual, nodewise);
  else throw py::type_error("actual must be a mapping {value name: numpy array} or the path of a .npz or test_data_set folder");
  return without_gil([&] {
    if (!actual_path.empty()) k.actual = check::load_actual(m.model, actual_path, {nodewise});
    return judge_and_report(m.model, {k}, ulp, max_listed, report_path, junit_path, manifest_files, junit_stem, nodewise,
                            nan_payload_strict, flush_subnormals);
  });
}

// golden::write with its options; `dims` {name: size} is what --dim NAME=SIZE parses to (the CLI's
// parsing is tools/cli/cmd_golden.cpp); `inputs` a .npz or test_data_set folder path, as --inputs;
// `construct` false is --no-construct. Returns the folders written.
std::vector<std::string> golden_binding(const PyModel& m, const std::string& dir, std::uint64_t seed, std::int64_t cases,
                                        const std::map<std::string, std::int64_t>& dims, const std::string& inputs,
                                        bool construct) {
  golden::Options o;
  o.seed = seed;
  o.cases = cases;
  o.construct = construct;
  o.assume_opset_reviewed = m.assume_opset_reviewed;
  o.dims = dims;
  o.inputs = inputs;
  return without_gil([&] { return golden::write(m.model, dir, o).folders; });
}

// [Check.golden-nodes] golden --nodes / --node NAME: the folders written, one per node.
std::vector<std::string> golden_nodes_binding(const PyModel& m, const std::string& dir, std::uint64_t seed,
                                              std::int64_t cases, const std::map<std::string, std::int64_t>& dims,
                                              bool construct, const std::vector<std::string>& only) {
  golden::Options o;
  o.seed = seed;
  o.cases = cases;
  o.construct = construct;
  o.assume_opset_reviewed = m.assume_opset_reviewed;
  o.dims = dims;
  return without_gil([&] {
    std::vector<std::string> folders;
    for (const auto& n : golden::write_nodes(m.model, dir, o, only).nodes)
      if (n.status == "written") folders.push_back((std::filesystem::path(dir) / n.folder).string());
    return folders;
  });
}

// [Graph.expose] the exposed model's bytes, its outputs, the values added, and those left out with why.
py::tuple expose_binding(const PyModel& m) {
  const graph::Exposed e = without_gil([&] { return graph::expose(m.model); });
  py::list not_exposed;
  for (const auto& [name, why] : e.not_exposed) not_exposed.append(py::make_tuple(name, why));
  return py::make_tuple(py::bytes(e.bytes), e.outputs, e.added, not_exposed);
}

// ======================================== end of CHECK AND GOLDEN ===============================

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "sonnx-ref's library (src/): models, runs, check, explain, golden. Use the sonnx_ref package.";
  py::register_exception_translator(translate);
  m.attr("__version__") = SONNX_VERSION;
  m.attr("git_revision") = sonnx::report::revisions()["git_revision"].get<std::string>();

  py::class_<PyModel>(m, "Model", "An ONNX model loaded and checked by sonnx-ref ([Graph.model.parse]).")
      .def(py::init(&load_model), py::arg("model"), py::kw_only(), py::arg("assume_opset_reviewed") = false,
           py::arg("partial") = false,
           "model: a path, bytes, or an onnx.ModelProto. A refused model raises sonnx_ref.Refused. partial=True "
           "accepts operators outside the spec, for the node-wise check, expose and golden(nodes=True) "
           "([Graph.partial]); run() then raises Refused ([Graph.partial.run]).")
      .def("run", &run, py::arg("feeds") = py::none(),
           "Evaluates the model: {output name: numpy array}, in graph output order ([Graph.feed.*]).")
      .def_property_readonly("inputs", [](const PyModel& p) { return value_infos(p.model.inputs()); },
                             "graph inputs to feed: [{'name', 'dtype', 'shape'}] (None: undeclared or symbolic)")
      .def_property_readonly("overridable_inputs", [](const PyModel& p) { return value_infos(p.model.overridable_inputs()); })
      .def_property_readonly("outputs", [](const PyModel& p) { return value_infos(p.model.outputs()); })
      .def_property_readonly("opset", [](const PyModel& p) { return p.model.opset(); })
      .def_property_readonly("nodes",
                             [](const PyModel& p) {
                               py::list out;
                               for (const auto& n : p.model.nodes()) {
                                 py::dict d(py::arg("name") = n.name, py::arg("op_type") = n.op_type,
                                            py::arg("version") = n.version);
                                 if (!n.judged()) d["not_judged"] = n.not_judged, d["clause"] = n.not_judged_clause;
                                 out.append(d);
                               }
                               return out;
                             })
      .def_property_readonly("complete", [](const PyModel& p) { return p.model.complete(); },
                             "every node is one the spec covers, or a Constant ([Graph.partial])")
      .def("to_bytes", [](const PyModel& p) { return py::bytes(p.model.serialized()); })
      .def("__repr__", [](const PyModel& p) {
        return "<sonnx_ref.Model " + p.origin + ", opset " + std::to_string(p.model.opset()) + ", " +
               std::to_string(p.model.nodes().size()) + " node(s)>";
      });

  m.def("supported_operators", [] {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& v : ops::all_versions()) out.emplace_back(v.op_type, v.since_version);
    return out;
  }, "[(op_type, since_version)] of every operator version sonnx-ref implements");
  m.def("manifest", [](const std::vector<std::string>& files) { return report::manifest(files, report::command_line()).dump(); },
        py::arg("files") = std::vector<std::string>{}, "the run manifest of reports, as JSON text");
  m.def("explain", &explain_binding, py::arg("model"), py::arg("feeds"), py::arg("output"), py::arg("index"));

  // CHECK AND GOLDEN (section 5)
  py::class_<CheckResult>(m, "CheckResult")
      .def_readonly("text", &CheckResult::text)
      .def_readonly("json", &CheckResult::json);
  m.def("check", &check_binding, py::arg("model"), py::arg("feeds"), py::arg("actual"), py::arg("ulp"),
        py::arg("max_listed"), py::arg("report"), py::arg("junit"), py::arg("manifest_files"), py::arg("junit_stem"),
        py::arg("nodes"), py::arg("nan_payload_strict") = false, py::arg("flush_subnormals") = false);
  m.def("golden", &golden_binding, py::arg("model"), py::arg("directory"), py::arg("seed"), py::arg("cases"),
        py::arg("dims"), py::arg("inputs"), py::arg("construct"));
  m.def("golden_nodes", &golden_nodes_binding, py::arg("model"), py::arg("directory"), py::arg("seed"), py::arg("cases"),
        py::arg("dims"), py::arg("construct"), py::arg("only"));
  m.def("expose", &expose_binding, py::arg("model"));
  // [Elem.ulps] the K of the implementation's exp, log, tanh, pow: "exp=2,tanh=6"; "" restores the defaults
  m.def("set_elementary_ulps", [](const std::string& spec) {
    elementary::reset_ulps();
    if (!spec.empty()) elementary::parse_ulps(spec);
  }, py::arg("spec"));
}
