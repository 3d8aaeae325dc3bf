// [Check.chain] The enclosure of a chain of computed nodes, for a case that gives its graph's inputs and
// outputs only (conformance's node tests): every value of the graph as an interval per element, an input or a
// constant its own value, a node evaluated at the corners of its inputs' intervals. spec/common/check.md.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "core/tensor.hpp"
#include "graph/model.hpp"

namespace sonnx::chain {

// Whether some computed value (a tensor with an annex, [Acc.verdict]) of `values` is read by another node: the
// graph's outputs then depend on values an implementation may compute differently.
bool needed(const graph::Model& model, const std::map<std::string, Tensor>& values);

// The graph outputs whose value depends on a computed value read by another node, each as the reference's
// tensor with an annex holding its interval (centre, radius; only finite values allowed), judged by
// compare::compare like a computed output. `why` (returned nullopt) names what the chain cannot enclose: an
// operator without a corner rule, an interval that is not finite, a divisor interval holding 0.
std::optional<std::map<std::string, Tensor>> enclose(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                                     std::string* why);

}  // namespace sonnx::chain
