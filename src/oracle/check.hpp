// spec/common/check.md: the verdict on another implementation's outputs (`sonnx-ref check`).
// The element comparison is compare.hpp's ([Check.bitwise], [Check.ulp], [Check.shape]). One concern
// per file:
//   actual.cpp    reading the actual values and the cases ([Check.missing], [Check.cases])
//   check.cpp     whole-model judging: graph outputs against the reference's run, each node on the
//                 values the implementation under test gave it ([Check.attribution]), campaigns
//   nodewise.cpp  node-wise judging of any model, nodes outside the spec included ([Check.nodewise])
//   render.cpp    the verdict as text, JSON and JUnit ([Check.verdict], [Check.coverage])
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "graph/infer.hpp"
#include "graph/model.hpp"
#include "oracle/compare.hpp"
#include "oracle/coverage.hpp"
#include "oracle/explain.hpp"
#include "oracle/report.hpp"
#include "oracle/shard.hpp"

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
// How the actual values are read. Node-wise ([Check.nodewise]): output_K.pb of a test_data_set folder
// is the K-th graph output of the exposed model ([Graph.expose]), and the element type of a value the
// spec does not compute is ONNX's inference's ([Graph.infer]).
struct ReadOptions {
  ReadOptions(bool nodewise_ = false) : nodewise(nodewise_) {}  // `{nodewise}` as before the fields below
  bool nodewise = false;
  // [Check.shard] the folder form (GOLDEN_DIR IUT_DIR) reads only the cases of this piece
  shard::Shard shard;
  // called after each case of the folder form is read: (cases read, cases to read)
  std::function<void(std::size_t, std::size_t)> progress;
};
Actual load_actual(const graph::Model& model, const std::string& path, const ReadOptions& read = {});
// The same from tensors already in memory (keyed by value name): graph outputs and other values of
// the graph are kept, names that match no value are extra ([Check.missing]).
Actual actual_from_tensors(const graph::Model& model, std::vector<io::NamedTensor> tensors);
// The element type of a value, as far as the model tells without running it: declared inputs and
// outputs, and the outputs of Max, ReduceMax and Hardmax, whose type is their first input's. Needed
// to read a bfloat16 value given as uint16 bits ([IO.npy.bfloat16]).
std::optional<DType> value_dtype(const graph::Model& model, const std::string& name);
// The same, falling back on `types` ([Graph.infer]) for values no node of the spec computes.
std::optional<DType> value_dtype(const graph::Model& model, const std::string& name,
                                 const std::map<std::string, graph::ValueType>& types);

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
  // [Check.nan-payload.any] elements both NaN with different bits: their number (in both modes;
  // under [Check.nan-payload.strict] they are among the mismatches) and, when they conform, the first
  // max_listed of them, as notes
  std::int64_t nan_payload_only = 0;
  std::vector<Finding> nan_payload_notes;
  bool nan_payload_strict = false;  // the mode it was compared in
  // [Acc.verdict] a computed output, every element judged by its radius; [Acc.report] the element with
  // the largest fraction of its radius, conforming or not
  bool accuracy = false;
  std::optional<Finding> worst;
  std::string producer;  // [Acc.report] a computed graph output: the node that computes it ("node 'conv1' (Conv-11)")
};

// [Check.attribution] One node judged on the values the implementation under test gave it.
struct NodeVerdict {
  std::string label;   // "node 'max' (Max-13)"
  std::string output;  // the node's output (value name)
  enum class Status { Conforms, Differs, NotObserved, Refused } status = Status::NotObserved;
  std::string detail;  // why NotObserved / Refused, or the structure mismatch
  OutputVerdict verdict;  // the comparison of its output with the one computed from its actual inputs
};

// [Check.nodewise] One node of a node-wise check: judged on the values the implementation under test
// gave it, or not judged and why.
struct NodeJudgement {
  std::string label;             // "node 'n2' (MaxPool-8)", "node 'n0' (Conv)"
  std::string name, op_type;
  int version = 0;               // 0: no version of the spec
  enum class Status { Conforms, Differs, NotJudged } status = Status::NotJudged;
  std::string reason;            // NotJudged: why; Differs by a refusal: the refusal
  std::string clause;            // the clause of `reason`
  std::vector<OutputVerdict> outputs;   // judged: each output ACTUAL holds, compared
  std::vector<std::string> not_given;   // judged: the outputs the node names that ACTUAL does not hold
  coverage::NodeCoverage coverage;      // [Check.coverage] judged: the situations its expected values rest on
};

// [Check.nodewise.verdict] The counts of a node-wise verdict: nodes (subgraph nodes included), and per
// operator type.
struct NodeCounts {
  std::int64_t nodes = 0, judged = 0, conforming = 0, differing = 0, not_judged = 0;
};
struct NodewiseSummary {
  NodeCounts all;
  std::map<std::string, NodeCounts> by_operator;
};
NodewiseSummary summarize(const std::vector<NodeJudgement>& nodes);

struct Verdict {
  bool conforms = true;  // [Check.verdict]
  std::vector<OutputVerdict> outputs;  // the graph outputs (whole-model); empty node-wise
  std::vector<NodeVerdict> nodes;  // [Check.attribution] empty when no value but graph outputs was given
  std::vector<coverage::NodeCoverage> coverage;  // [Check.coverage] what decided the expected outputs
  std::vector<std::string> notes;
  // [Check.nodewise] judged node by node (`why` says why: --nodes, or nodes outside the spec)
  bool nodewise = false;
  std::string nodewise_why;
  std::vector<NodeJudgement> judgements;  // every node, in evaluation order, then the subgraph nodes
};

// Compares every graph output (values from `expected`) with `actual`.
Verdict judge(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
              const compare::Options& options);

// Compares one value with its expected value: [Check.missing] when `actual` is null, [Check.shape],
// then element by element; `decide(index)` gives the clauses and the reason of an expected element
// ([Check.verdict]). The first max_listed mismatches are listed; the first 65536 are counted by the
// clause that decides their expected value (by_clause).
// `flush(index)` gives F of a computed element ([Acc.hyp.ftz]), asked only under --flush-subnormals
// and only of the elements that do not conform within R.
using DecideElement = std::function<std::pair<std::vector<std::string>, std::string>(const std::vector<std::int64_t>&)>;
using FlushElement = std::function<double(const std::vector<std::int64_t>&)>;
OutputVerdict compare_value(const std::string& name, const Tensor& expected, const Tensor* actual,
                            const compare::Options& options, const DecideElement& decide, const FlushElement& flush = {});
// The FlushElement of a node's output, from the operator's definition (the node and values outlive it).
FlushElement flush_of(const graph::NodeInfo& node, const ops::NodeValues& v);

std::string status_name(OutputVerdict::Status s);  // "conforms", "differs", "shape", "missing", "extra"
std::string status_name(NodeVerdict::Status s);    // "conforms", "differs", "not observed", "refused"
std::string status_name(NodeJudgement::Status s);  // "conforms", "differs", "not judged"
std::string to_text(const Verdict& v, const compare::Options& options);
nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options);
std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname);

// ---- [Check.cases] campaigns ---------------------------------------------------------------------

// One case: its name, inputs, actual values and the files they came from (for the manifest), and
// its position in the unsharded order of the campaign's cases ([Check.shard]).
struct Case {
  std::string name;
  std::size_t position = 0;
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
// [Check.shard] For a golden folder only the cases of read.shard are read; `total`, when given, is set
// to the number of cases of the unsharded run (1 for the other forms, which are one case).
std::vector<Case> load_cases(const graph::Model& model, const std::string& a, const std::string& b,
                             const ReadOptions& read = {}, std::size_t* total = nullptr);
// Whether `a` is a golden folder (holds a test_data_set_K folder): `check MODEL A B`'s folder form.
bool is_golden_folder(const std::string& a);

struct CaseVerdict {
  std::string name;
  Verdict verdict;
};

struct Campaign {
  bool conforms = true;
  bool nodewise = false;  // [Check.nodewise] every case judged node by node
  NodewiseSummary nodes;  // [Check.nodewise.verdict] node-wise: over every case
  std::vector<CaseVerdict> cases;
  std::int64_t outputs = 0, elements = 0, mismatches = 0, failing_cases = 0;
  std::map<std::string, std::int64_t> by_clause;  // mismatching elements by deciding clause
  // [Check.coverage] across cases: per node label, each situation exercised, with its first case
  std::map<std::string, std::map<ops::Situation, std::string>> exercised;
  // [Check.nan-payload.any] payload-only differences over the cases (graph outputs; node-wise: the
  // judged nodes' outputs), and the number of cases holding one
  std::int64_t nan_payload_only = 0, nan_payload_cases = 0;
  // [Check.shard.report] set when the run is one piece of a sharded campaign
  std::optional<shard::Piece> shard;
};

// [Check.nodewise] Whether `check` judges the model node by node: --nodes (`nodes`), nodes outside the
// spec, or a computed value ([Acc.verdict]) read by another node — the nodes after it can only be judged
// on the implementation's own value of it. The reason, or "" for a whole-model check.
std::string nodewise_reason(const graph::Model& model, bool nodes);

// Node-wise when `nodewise` (--nodes) or when the model has nodes outside the spec ([Check.nodewise]).
// `progress`, when given, is called after each case: (cases judged, cases).
using Progress = std::function<void(std::size_t, std::size_t)>;
// How a node-wise check runs ([Check.nodewise.jobs]): `jobs` nodes judged at a time, each node whole on
// one thread, the verdict the same for every `jobs`; `node_progress`, when given, is called after each
// node is judged, from one thread at a time: (nodes judged, nodes, the label of the node just judged).
struct NodeRun {
  std::size_t jobs = 1;
  std::function<void(std::size_t, std::size_t, const std::string&)> node_progress;
};
Campaign judge_cases(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options,
                     bool nodewise = false, const Progress& progress = {}, const NodeRun& run = {});

// [Check.exit] The exit status of a verdict: 0 conforms, 1 does not conform.
inline int exit_status(bool conforms) { return conforms ? 0 : 1; }

// [Check.not-implemented] Whether a refusal of a model means that it uses an operator, or an
// operator version, sonnx-ref does not implement ([Graph.opset.unsupported]), or a feature an
// operator's document declares outside the profile (a clause "<Op>.err.unsupported-<feature>"): the
// case is then outside sonnx-ref, neither a failure nor a pass.
inline bool not_implemented(const std::string& refusal_id) {
  if (refusal_id == "Graph.opset.unsupported") return true;
  const auto last = refusal_id.rfind('.');
  return last != std::string::npos && last >= 4 && refusal_id.compare(last - 4, 4, ".err") == 0 &&
         refusal_id.compare(last + 1, 11, "unsupported") == 0;
}
std::string to_text(const Campaign& c, const compare::Options& options);
nlohmann::ordered_json to_json(const Campaign& c, const compare::Options& options);
// JUnit tests named "<model>/<case>/<output>" (and "<model>/<case>/node <label>"), unique in the run.
std::vector<report::JunitCase> to_junit(const Campaign& c, const std::string& model_name);

// The `check --report` document: {"command": "check", "manifest", then to_json(c)}.
nlohmann::ordered_json report_document(const Campaign& c, const compare::Options& options, const nlohmann::json& manifest);

}  // namespace sonnx::check
