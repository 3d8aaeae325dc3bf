// spec/ops/hardmax.md — Hardmax, opsets 1, 11, 13.
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

std::vector<DType> hardmax_types(int version);
// [Common.gr.defaults] the default axis: 1 for versions 1 and 11, -1 for version 13.
std::int64_t hardmax_default_axis(int version);

// Y = Hardmax(X) for the resolved `version`.
Tensor hardmax(int version, const Tensor& input, std::int64_t axis);

// The definition at one index i of Y (`v` holds X, the evaluated Y and their names): the slice
// through i (version 13) or the row of the [N, D] view holding i (versions 1, 11), the position h
// of its 1 and the clause that decided it. `axis_given`: the attribute was in the node.
Decision decide_hardmax(int version, const NodeValues& v, std::int64_t axis, bool axis_given,
                        const std::vector<std::int64_t>& i);

// [Check.golden-coverage] The situations of Hardmax's clauses that the node holding `v` can reach
// when the values of X come from sources[0], and the witness that builds each.
std::vector<Reach> reach_hardmax(int version, const NodeValues& v, std::int64_t axis, const std::vector<Source>& sources);

}  // namespace sonnx::ops
