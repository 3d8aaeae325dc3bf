// Provenance of one element of an evaluated model: which node produced it, which input element(s)
// determined it, and the spec clauses that decided its value. Used by `sonnx-ref explain` (the
// whole chain) and by `sonnx-ref check` (the clause that determines an expected element,
// [Check.verdict]).
//
// What a node's clause says about one of its elements — the set the clause ranges over (Max: the
// set {Ẋ0[i], ..., ẊL[i]}; ReduceMax: R(j) in row-major order; Hardmax: the slice along the axis,
// or the row of the [N, D] view), the element the selection rule kept and the clause that decided —
// is asked of the operator's definition in src/ops/ (ops::OpVersion::decide), which also checks the
// derived value against the evaluated one bit for bit. This file walks the graph and prints.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "graph/model.hpp"
#include "ops/definition.hpp"

namespace sonnx::explain {

// One element of a value of the graph.
struct Element {
  std::string tensor;               // value name
  std::vector<std::int64_t> index;  // tensor index
  std::string value;                // "+0", "-0", "nan", "1.5", "true", "-3"
  std::string bits;                 // "0x80000000"
};

// [Acc.terms] One term of a computed element: its factors (input elements, then attribute scalars by
// name) and its value.
struct TermText {
  std::vector<Element> factors;
  std::vector<std::pair<std::string, double>> scalars;
  std::string value;  // the exact product (a binary64 value; for double, rounded)
};

// [Acc.report] What the accuracy model says of a computed element: the counters, the bound and the
// enclosure, and the error of the reference's own value ([Acc.run]).
struct AccuracyText {
  std::int64_t n = 0, depth = 0;
  int precision = 0;  // p_T: u = 2^-p
  double magnitude = 0, theta = 0, bound = 0, ideal = 0, oracle = 0, radius = 0;
  std::string allowed;  // "finite", "nan", "+inf", ...
  double error = 0, fraction = 0, ulps = 0;  // of the reference's value
  double flush = 0;  // [Acc.hyp.ftz] F, what the radius grows by for an implementation declaring flush to zero
  std::string function;  // a function's element: its hypothesis (K, κ, α, as the operator's definition states it with its clause) instead of D, S, θ
};

// How one node (or the graph, for inputs, initializers and constants) determined one element.
struct Step {
  Element element;                   // the element explained
  std::string producer;              // "node 'max' (Max-13)", "graph input 'X'", "initializer 'W'", ...
  std::string parameters;            // "axes = [1] (from input 'axes'), keepdims = 0", "axis = -1 -> 1", ...
  std::string set_name;              // what `set` is: "{Ẋm[i]}", "R(j)", "slice", "row 1 of the [2, 12] view"
  std::vector<Element> set;          // the elements the clause ranged over, in its order (elided when large)
  std::vector<std::int64_t> set_positions;  // the position of each listed element in the whole set
  std::int64_t set_size = 0;         // number of elements of the whole set
  std::optional<std::int64_t> chosen;  // position, in the whole set, of the element the clause selected
  std::vector<std::string> clauses;  // spec IDs, the one that decided the value first
  std::string reason;                // one sentence: why the element has its value
  std::optional<Element> determining;  // the input element the value came from (the chain follows it)
  std::string stop;                  // why the chain stops at this step (empty: it continues)
  // [Acc.report] a computed element: its terms (the first kListed - 1 when there are more) and the
  // accuracy model's numbers
  std::vector<TermText> terms;
  std::vector<std::int64_t> term_positions;
  std::int64_t term_count = 0;
  std::optional<AccuracyText> accuracy;
};

struct Explanation {
  std::vector<Step> chain;  // chain[0] explains the requested element; chain[k+1] its determining element
};

// Sets of more than kListed elements list their first kListed - 1 and the chosen one.
using ops::kListed;

class Explainer {
 public:
  // `values`: every value of one evaluation by name (graph::Model::run_all).
  Explainer(const graph::Model& model, std::map<std::string, Tensor> values);
  ~Explainer();

  const std::map<std::string, Tensor>& values() const { return values_; }

  // How the element `index` of the value `name` was determined. Refuses an unknown name or an index
  // outside the value's shape ([Common.tensor.index]).
  Step step(const std::string& name, const std::vector<std::int64_t>& index) const;
  // The same, then the step of its determining element, and so on, until a graph input,
  // initializer or constant, an empty set, or a value that depends on a whole slice (Hardmax).
  Explanation chain(const std::string& name, const std::vector<std::int64_t>& index) const;

 private:
  struct NodeData;
  const graph::Model& model_;
  std::map<std::string, Tensor> values_;
  std::map<std::string, std::size_t> producer_;  // value name -> index into nodes_
  std::vector<NodeData> nodes_;
};

// "Y[1, 2]"
using ops::element_name;
// "Y[1, 2] = -0" ("= nan (0x7fc00001)" for NaNs)
std::string element_text(const Element& e);

// Human-readable and JSON forms of an explanation.
std::string to_text(const Explanation& e);
nlohmann::ordered_json to_json(const Step& s);
nlohmann::ordered_json to_json(const Explanation& e);

}  // namespace sonnx::explain
