// Running a RapidCheck property inside a Catch2 TEST_CASE, with the case count of the suite.
//
// props::check(description, testable) is rc::prop (rapidcheck/catch.h) with three differences:
//  - it runs SONNX_PROPS_CASES cases (default 1000), unless RC_PARAMS sets max_success and
//    SONNX_PROPS_CASES is unset;
//  - the property's RapidCheck id is "<test case name> / <description>", so that the
//    RC_PARAMS="reproduce=..." string printed on failure replays exactly that property;
//  - the failure message states the seed, the case count and the reproduce string.
#pragma once
#include <string>
#include <utility>

#include <catch2/catch.hpp>
#include <rapidcheck.h>

namespace sonnx::props {

rc::detail::TestParams suite_params();
std::string property_id(const std::string& description);
// Turns a RapidCheck result into a Catch2 success or failure (with the replay instructions).
void report(const std::string& id, const rc::detail::TestParams& params, const rc::detail::TestResult& result);

template <class Testable>
void check(const std::string& description, Testable&& testable) {
  rc::detail::TestMetadata metadata;
  metadata.id = property_id(description);
  metadata.description = description;
  const auto params = suite_params();
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  report(metadata.id, params, result);
}

}  // namespace sonnx::props
