// spec/common/check.md: the verdict on another implementation's outputs (`sonnx-ref check`).
// The element comparison is compare.hpp's ([Check.bitwise], [Check.ulp], [Check.shape]); this file
// pairs actual outputs with graph outputs ([Check.missing]), names the clause that determines each
// mismatching expected element (explain.hpp) and gives the verdict ([Check.verdict]).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graph/model.hpp"
#include "oracle/compare.hpp"
#include "oracle/explain.hpp"
#include "oracle/report.hpp"

namespace sonnx::check {

// The actual outputs of ACTUAL: a .npz keyed by output name, or a test_data_set folder whose
// output_K.pb is the K-th graph output ([Check.missing]); a folder's tensors are renamed to the
// graph output names (a different TensorProto.name is noted in `notes`).
struct Actual {
  std::vector<io::NamedTensor> tensors;
  std::vector<std::string> extra;  // names (or files) that match no graph output
  std::vector<std::string> notes;
};
Actual load_actual(const graph::Model& model, const std::string& path);

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
};

struct Verdict {
  bool conforms = true;  // [Check.verdict]
  std::vector<OutputVerdict> outputs;
  std::vector<std::string> notes;
};

// Compares every graph output (values from `expected`) with `actual`.
Verdict judge(const graph::Model& model, const explain::Explainer& expected, const Actual& actual,
              const compare::Options& options);

std::string status_name(OutputVerdict::Status s);  // "conforms", "mismatch", "shape", "missing", "extra"
std::string to_text(const Verdict& v, const compare::Options& options);
nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options);
std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname);

}  // namespace sonnx::check
