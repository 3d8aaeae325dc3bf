// The printed form of a run's outputs (`sonnx-ref run`, text and JSON): name, dtype, shape and the
// values in row-major order, large tensors elided in the middle. Values are printed exactly.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "io/io.hpp"

namespace sonnx::graph {

// Tensors of more than kElideAbove elements show their first and last kElideShown elements.
inline constexpr std::int64_t kElideAbove = 20;
inline constexpr std::int64_t kElideShown = 8;

// Elements are printed by sonnx::element_text (core/format.hpp): "+0", "-0", "inf", NaN with its
// bits, e.g. nan(0x7fc00000), the shortest round-trip decimal otherwise.

// "NAME: DTYPE [SHAPE] = [v0, v1, ...]" ("..., ... (N elided), ..." in the middle when elided).
std::string summary_line(const io::NamedTensor& out, bool all = false);

// {"outputs": [{"name", "dtype", "shape", "size", "values", "elided"}]}: floats as the double of their
// exact value, non-finite ones as "nan(0x<bits>)", "inf", "-inf"; -0 as -0.0; when elided, "values" holds the
// first kElideShown values then the last kElideShown.
nlohmann::ordered_json summary_json(const std::vector<io::NamedTensor>& outputs, bool all = false);

}  // namespace sonnx::graph
