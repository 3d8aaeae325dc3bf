// Everything a property file includes: the runner, the generators, the printing, and small
// comparison helpers on bit patterns.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <string>

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "core/error.hpp"
#include "core/tensor.hpp"
#include "gen/attrs.hpp"
#include "gen/cases.hpp"
#include "gen/check.hpp"
#include "gen/shapes.hpp"
#include "gen/show.hpp"
#include "gen/spec_facts.hpp"
#include "gen/values.hpp"

// Fails the current case with a formatted message (the shrunk case is printed with it).
#define PROP_EXPECT(cond, ...)                                  \
  do {                                                          \
    if (!(cond)) RC_FAIL(fmt::format(__VA_ARGS__));             \
  } while (false)

namespace sonnx::props {

// The spec ID of the SpecError that f() throws, or "(accepted)" when it returns normally.
template <class F>
std::string refusal_id(F&& f) {
  try {
    f();
  } catch (const SpecError& e) {
    return e.id();
  }
  return "(accepted)";
}

// Same dtype, same shape, same bit pattern at every offset.
bool same_bits(const Tensor& a, const Tensor& b);
// Same dtype and shape; at every offset both are NaN, or the bit patterns are equal.
bool same_up_to_nan_payload(const Tensor& a, const Tensor& b);
// True if some element of `t` is a NaN / is ±0 / ...
bool has_nan(const Tensor& t);

}  // namespace sonnx::props
