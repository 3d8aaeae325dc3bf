// [Check.nodewise] Judging a model node by node, inside the data flow of the implementation under
// test: every node the spec covers is evaluated on the values the IUT gave for its inputs, and its
// outputs are compared with the IUT's; every other node is listed with why it is not judged. The
// model may hold operators outside the spec ([Graph.partial]). Rendering is render.cpp's.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "graph/infer.hpp"
#include "oracle/check.hpp"

namespace sonnx::check {

// [Check.nodewise.dump] Refuses actual values that do not fit the model, before anything is judged:
// a name that is no value of the model (`actual.extra`), and a value whose element type or shape
// differs from the model's ([Graph.infer]) — except the outputs of the nodes the spec covers, which
// are judged ([Check.shape]).
void check_dump(const graph::Model& model, const Actual& actual, const std::map<std::string, graph::ValueType>& types);

// [Check.nodewise] One case, node by node: every node of `model` (evaluation order), then the nodes
// inside subgraphs. `types` is infer_value_types(model).
// `run.jobs` nodes are judged at a time ([Check.nodewise.jobs]); the verdict does not depend on it.
Verdict judge_nodewise(const graph::Model& model, const std::vector<io::NamedTensor>& feeds, const Actual& actual,
                       const compare::Options& options, const std::map<std::string, graph::ValueType>& types,
                       const NodeRun& run = {});

// [Check.nodewise] [Check.cases] Every case node by node; the verdict conforms when at least one node
// was judged and every judged node of every case conforms ([Check.nodewise.verdict]).
Campaign judge_cases_nodewise(const graph::Model& model, const std::vector<Case>& cases, const compare::Options& options,
                               const Progress& progress = {}, const NodeRun& run = {});

}  // namespace sonnx::check
