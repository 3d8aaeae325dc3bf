// Generators of attributes: ReduceMax axes (subsets of the axes, each in positive or negative
// form, in any order), keepdims, noop_with_empty_axes, the Hardmax axis — valid ones, and invalid
// ones for the error properties.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <optional>
#include <vector>

#include <rapidcheck.h>

namespace sonnx::props::gen {

// A subset of the axes of a rank-r tensor, as one flag per axis.
rc::Gen<std::vector<bool>> axes_mask(std::int64_t r, bool non_empty = false);
// A listing of the axes in `mask`: each axis a written as a or (when allow_negative) a - r,
// in a random order ([ReduceMax.axes.normalise]).
rc::Gen<std::vector<std::int64_t>> axes_listing(std::vector<bool> mask, bool allow_negative);
// The flags keepdims / noop_with_empty_axes: 0 or 1.
rc::Gen<std::int64_t> flag();
// Values outside {0, 1} ([ReduceMax.err.flag]).
rc::Gen<std::int64_t> bad_flag();

// An axis valid for a rank-r tensor in `version` of an operator whose negative axes start at
// `negative_from` ([ReduceMax.v11], [Hardmax.v11]); r >= 1.
rc::Gen<std::int64_t> valid_axis(int version, std::int64_t r, int negative_from = 11);
// An axis invalid for a rank-r tensor (r >= 0): >= r, < -r, or (before `negative_from`) negative.
rc::Gen<std::int64_t> invalid_axis(int version, std::int64_t r, int negative_from = 11);

}  // namespace sonnx::props::gen
