// spec/common/check.md: the verdict on another implementation's outputs (`sonnx-ref check`).
// The element comparison is compare.hpp's ([Check.bitwise], [Check.ulp], [Check.shape]); this file
// pairs actual outputs with graph outputs ([Check.missing]), names the clause that determines each
// mismatching expected element (explain.hpp), judges each node on the values the implementation
// under test gave it ([Check.attribution]), accounts for the clauses exercised ([Check.coverage]),
// and gives the verdict of one case ([Check.verdict]) and of many ([Check.cases]).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "graph/model.hpp"
#include "oracle/compare.hpp"
#include "oracle/coverage.hpp"
#include "oracle/explain.hpp"
#include "oracle/report.hpp"

namespace sonnx::check {

// The actual values of one case: graph outputs, and possibly other values of the graph by name
// ([Check.attribution]). From a .npz keyed by value name, or a test_data_set folder whose
// output_K.pb is the K-th graph output ([Check.missing]) and whose *.npz files hold values by name;
// a folder's output_K.pb tensors are renamed to the graph output names (a different
// TensorProto.name is noted in `notes`).
struct Actual {
  std::vector<io::NamedTensor> tensors;
  std::vector<std::string> extra;  // names (or files) that match no value of the graph
  std::vector<std::string> notes;
};
Actual load_actual(const graph::Model& model, const std::string& path);
// The same from tensors already in memory (keyed by value name): graph outputs and other values of
// the graph are kept, names that match no value are extra ([Check.missing]).
Actual actual_from_tensors(const graph::Model& model, std::vector<io::NamedTensor> tensors);
// The element type of a value, as far as the model tells without running it: declared inputs and
// outputs, and the outputs of Max, ReduceMax and Hardmax, whose type is their first input's. Needed
// to read a bfloat16 value given as uint16 bits ([IO.npy.bfloat16]).
std::optional<DType> value_dtype(const graph::Model& model, const std::string& name);

struct Finding {
  compare::Mismatch mismatch;
  std::vector<std::string> clauses;  // the clauses that determine the expected value
  std::string reason;
};

struct OutputVerdict {
  std::string name;
  enum class Status { Conforms, Mismatch, Structure, Missing, Extra } status = Status::Conforms;
  std::string id;      // the clause of the judgement: Check.bitwise / Check.ulp / Check.shape / Check.missing
  std::string detail;  // [Check.shape] "expected float [2, 3], got float [3, 2]"; [Check.missing] text
  std::string dtype;   // expected dtype and shape (empty for Extra)
  Shape shape;
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;
  std::vector<Finding> findings;  // the first max_listed mismatches
  std::map<std::string, std::int64_t> by_clause;  // mismatching elements by the clause deciding the expected value
  // [Check.attribution] when the node producing this output conforms on the inputs it was given:
  // the first node upstream that does not (its label), or "(unknown)"; empty otherwise.
  std::string propagated_from;
};

// [Check.attribution] One node judged on the values the implementation under test gave it.
struct NodeVerdict {
  std::string label;   // "node 'max' (Max-13)"
  std::string output;  // the node's output (value name)
  enum class Status { Conforms, Differs, NotObserved, Refused } status = Status::NotObserved;
  std::string detail;  // why NotObserved / Refused, or the structure mismatch
  OutputVerdict verdict;  // the comparison of its output with the one computed from its actual inputs
};

struct Verdict {
  bool conforms = true;  // [Check.verdict]
  std::vector<OutputVerdict> outputs;
  std::vector<NodeVerdict> nodes;  // [Check.attribution] empty when no value but graph outputs was given
  std::vector<coverage::NodeCoverage> coverage;  // [Check.coverage] what decided the expected outputs
  std::vector<std::string> notes;
};

// Compares every graph output (values from `expected`) with `actual`.
Verdict judge(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
              const compare::Options& options);

std::string status_name(OutputVerdict::Status s);  // "conforms", "differs", "shape", "missing", "extra"
std::string status_name(NodeVerdict::Status s);    // "conforms", "differs", "not observed", "refused"
std::string to_text(const Verdict& v, const compare::Options& options);
nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options);
std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname);

// ---- [Check.cases] campaigns ---------------------------------------------------------------------

// One case: its name, inputs, actual values and the files they came from (for the manifest).
struct Case {
  std::string name;
  std::vector<io::NamedTensor> feeds;
  Actual actual;
  std::vector<std::string> files;
};

// The cases of `check MODEL A [B]`:
//   A a .npz or test_data_set folder, B a .npz or folder           one case (inputs, actual outputs)
//   A a golden folder holding test_data_set_K folders, B a folder  one case per test_data_set_K; its
//       actual values: B/test_data_set_K/ (output_J.pb, *.npz) or B/test_data_set_K.npz
//   A a bundle .npz, no B                                          one case: inputs and actual values
//       by name in one file (tract's convention)
std::vector<Case> load_cases(const graph::Model& model, const std::string& a, const std::string& b);

struct CaseVerdict {
  std::string name;
  Verdict verdict;
};

struct Campaign {
  bool conforms = true;
  std::vector<CaseVerdict> cases;
  std::int64_t outputs = 0, elements = 0, mismatches = 0, failing_cases = 0;
  std::map<std::string, std::int64_t> by_clause;  // mismatching elements by deciding clause
  // [Check.coverage] across cases: per node label, each situation exercised, with its first case
  std::map<std::string, std::map<ops::Situation, std::string>> exercised;
};

Campaign judge_cases(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options);

// [Check.exit] The exit status of a verdict: 0 conforms, 1 does not conform.
inline int exit_status(bool conforms) { return conforms ? 0 : 1; }

// [Check.not-implemented] Whether a refusal of a model means that it uses an operator, or an
// operator version, sonnx-ref does not implement ([Graph.opset.unsupported]): the case is then
// outside sonnx-ref, neither a failure nor a pass.
inline bool not_implemented(const std::string& refusal_id) { return refusal_id == "Graph.opset.unsupported"; }
std::string to_text(const Campaign& c, const compare::Options& options);
nlohmann::ordered_json to_json(const Campaign& c, const compare::Options& options);
// JUnit tests named "<model>/<case>/<output>" (and "<model>/<case>/node <label>"), unique in the run.
std::vector<report::JunitCase> to_junit(const Campaign& c, const std::string& model_name);

// The `check --report` document: {"command": "check", "manifest", then to_json(c)}.
nlohmann::ordered_json report_document(const Campaign& c, const compare::Options& options, const nlohmann::json& manifest);

}  // namespace sonnx::check
