// spec/common/check.md — [Check.missing], [Check.shape], [Check.verdict]; element comparison in
// compare.cpp ([Check.bitwise], [Check.ulp]).
#include "oracle/check.hpp"

#include <algorithm>
#include <filesystem>

#include "io/io.hpp"

namespace sonnx::check {

namespace fs = std::filesystem;
using Status = OutputVerdict::Status;

Actual load_actual(const graph::Model& model, const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  const auto& outputs = model.outputs();
  Actual a;
  if (!fs::exists(status))
    refuse(fs::path(path).extension() == ".npz" ? "IO.npz.archive" : "IO.testdata.folder",
           "ACTUAL '{}' does not exist (ACTUAL is a .npz file or a test_data_set_N folder of output_K.pb files)", path);
  if (!fs::is_directory(status)) {
    // [IO.npz.archive] keys = graph output names; [IO.npy.bfloat16] needs the declared types
    a.tensors = io::read_npz(path, [&](const std::string& n) -> std::optional<DType> {
      for (const auto& o : outputs)
        if (o.name == n) return o.dtype;
      return std::nullopt;
    });
    for (const auto& t : a.tensors)
      if (std::none_of(outputs.begin(), outputs.end(), [&](const graph::ValueInfo& o) { return o.name == t.name; }))
        a.extra.push_back(t.name);  // [Check.missing] an actual output that names no graph output
    return a;
  }
  // [Check.missing] in a test_data_set folder, output_K.pb is the K-th graph output
  auto tensors = io::read_test_data_set(path, "output");
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    if (k >= outputs.size()) {
      a.extra.push_back(fmt::format("output_{}.pb{}", k, tensors[k].name.empty() ? "" : " ('" + tensors[k].name + "')"));
      continue;
    }
    if (!tensors[k].name.empty() && tensors[k].name != outputs[k].name)
      a.notes.push_back(fmt::format("output_{}.pb is named '{}' but is judged as graph output {} '{}' (by position)", k,
                                    tensors[k].name, k, outputs[k].name));
    a.tensors.push_back({outputs[k].name, std::move(tensors[k].tensor)});
  }
  return a;
}

Verdict judge(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
              const compare::Options& options) {
  Verdict v;
  v.notes = actual.notes;
  const std::string mode = options.ulp_mode ? "Check.ulp" : "Check.bitwise";
  for (const auto& o : model.outputs()) {
    const Tensor& e = expected.values().at(o.name);
    OutputVerdict ov;
    ov.name = o.name;
    ov.dtype = std::string(name(e.dtype()));
    ov.shape = e.shape();
    ov.elements = e.size();
    auto a = std::find_if(actual.tensors.begin(), actual.tensors.end(),
                          [&](const io::NamedTensor& t) { return t.name == o.name; });
    if (a == actual.tensors.end()) {  // [Check.missing]
      ov.status = Status::Missing;
      ov.id = "Check.missing";
      ov.detail = "absent from ACTUAL";
    } else {
      const compare::Result r = compare::compare(e, a->tensor, options);
      if (!r.structural.empty()) {  // [Check.shape] no element is compared
        ov.status = Status::Structure;
        ov.id = "Check.shape";
        ov.detail = r.structural;
      } else {
        ov.id = mode;
        ov.mismatches = r.mismatches;
        ov.status = r.conforms ? Status::Conforms : Status::Mismatch;
        for (const compare::Mismatch& m : r.first) {  // [Check.verdict] the clause that determines the expected value
          const explain::Step s = expected.step(o.name, m.index);
          ov.findings.push_back({m, s.clauses, s.reason});
        }
      }
    }
    v.conforms = v.conforms && ov.status == Status::Conforms;
    v.outputs.push_back(std::move(ov));
  }
  for (const auto& x : actual.extra) {  // [Check.missing] an extra actual output is a non-conformance
    OutputVerdict ov;
    ov.name = x;
    ov.status = Status::Extra;
    ov.id = "Check.missing";
    ov.detail = "names no graph output";
    v.conforms = false;
    v.outputs.push_back(std::move(ov));
  }
  return v;
}

std::string status_name(Status s) {
  switch (s) {
    case Status::Conforms: return "conforms";
    case Status::Mismatch: return "mismatch";
    case Status::Structure: return "shape";
    case Status::Missing: return "missing";
    case Status::Extra: return "extra";
  }
  return "?";
}

namespace {

std::string ids_text(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "[" : " [") + id + "]";
  return out;
}

std::string comparison_text(const compare::Options& o) {
  return o.ulp_mode ? fmt::format("within {} ulp [Check.ulp]", o.ulp) : std::string("bitwise [Check.bitwise]");
}

std::string output_text(const OutputVerdict& o) {
  switch (o.status) {
    case Status::Conforms:
      return fmt::format("output '{}': conforms ({} {}, {} element{}, [{}])\n", o.name, o.dtype, to_string(o.shape),
                         o.elements, o.elements == 1 ? "" : "s", o.id);
    case Status::Structure:
      return fmt::format("output '{}': DOES NOT CONFORM, dtype or shape differs: {} [{}]\n", o.name, o.detail, o.id);
    case Status::Missing:
      return fmt::format("output '{}': DOES NOT CONFORM, {} [{}]\n", o.name, o.detail, o.id);
    case Status::Extra:
      return fmt::format("actual output '{}': DOES NOT CONFORM, {} [{}]\n", o.name, o.detail, o.id);
    case Status::Mismatch: break;
  }
  std::string out = fmt::format("output '{}': DOES NOT CONFORM, {} of {} element{} differ{} [{}]\n", o.name, o.mismatches,
                                o.elements, o.elements == 1 ? "" : "s", o.mismatches == 1 ? "s" : "", o.id);
  for (const auto& f : o.findings) {
    const auto& m = f.mismatch;
    out += fmt::format("  {}: expected {} ({}), actual {} ({})\n", explain::element_name(o.name, m.index), m.expected,
                       m.expected_bits, m.actual, m.actual_bits);
    out += fmt::format("      expected value by {}: {}\n", ids_text(f.clauses), f.reason);
  }
  if (o.mismatches > static_cast<std::int64_t>(o.findings.size()))
    out += fmt::format("  ... {} more (--max-listed)\n", o.mismatches - static_cast<std::int64_t>(o.findings.size()));
  return out;
}

}  // namespace

std::string to_text(const Verdict& v, const compare::Options& options) {
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  for (const auto& n : v.notes) out += "note: " + n + "\n";
  std::size_t bad = 0;
  for (const auto& o : v.outputs) {
    out += output_text(o);
    bad += o.status != Status::Conforms;
  }
  if (v.conforms)
    out += fmt::format("verdict: CONFORMS: every one of the {} output(s) conforms [Check.verdict]\n", v.outputs.size());
  else
    out += fmt::format("verdict: DOES NOT CONFORM: {} of {} output(s) do not conform [Check.verdict]\n", bad,
                       v.outputs.size());
  return out;
}

nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options) {
  nlohmann::ordered_json j;
  j["verdict"] = v.conforms ? "conforms" : "does not conform";
  j["conforms"] = v.conforms;
  j["verdict_id"] = "Check.verdict";
  j["comparison"] = {{"mode", options.ulp_mode ? "ulp" : "bitwise"},
                     {"ulp", options.ulp_mode ? options.ulp : 0},
                     {"id", options.ulp_mode ? "Check.ulp" : "Check.bitwise"}};
  j["notes"] = v.notes;
  j["outputs"] = nlohmann::ordered_json::array();
  for (const auto& o : v.outputs) {
    nlohmann::ordered_json oj;
    oj["name"] = o.name;
    oj["status"] = status_name(o.status);
    oj["conforms"] = o.status == Status::Conforms;
    oj["id"] = o.id;
    if (!o.detail.empty()) oj["detail"] = o.detail;
    if (o.status != Status::Extra) {
      oj["dtype"] = o.dtype;
      oj["shape"] = o.shape;
      oj["elements"] = o.elements;
    }
    oj["mismatches"] = o.mismatches;
    oj["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : o.findings) {
      const auto& m = f.mismatch;
      oj["findings"].push_back({{"index", m.index},
                                {"offset", m.offset},
                                {"expected", m.expected},
                                {"expected_bits", m.expected_bits},
                                {"actual", m.actual},
                                {"actual_bits", m.actual_bits},
                                {"ids", f.clauses},
                                {"reason", f.reason}});
    }
    j["outputs"].push_back(oj);
  }
  return j;
}

std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname) {
  std::vector<report::JunitCase> cases;
  for (const auto& o : v.outputs) {
    report::JunitCase c;
    c.classname = classname;
    c.name = o.name;
    if (o.status != Status::Conforms) c.failure = output_text(o);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace sonnx::check
