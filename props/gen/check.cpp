#include "gen/check.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

namespace sonnx::props {

rc::detail::TestParams suite_params() {
  rc::detail::TestParams p = rc::detail::configuration().testParams;
  const char* cases = std::getenv("SONNX_PROPS_CASES");
  const char* rc_params = std::getenv("RC_PARAMS");
  if (cases && *cases) {
    const int n = std::atoi(cases);
    if (n > 0) p.maxSuccess = n;
  } else if (!(rc_params && std::strstr(rc_params, "max_success"))) {
    p.maxSuccess = 1000;
  }
  return p;
}

std::string property_id(const std::string& description) {
  return Catch::getResultCapture().getCurrentTestName() + " / " + description;
}

namespace {
// The test name as a Catch2 command-line filter: '[', ']' and ',' escaped.
std::string escaped_test_name() {
  std::string out;
  for (char c : Catch::getResultCapture().getCurrentTestName()) {
    if (c == '[' || c == ']' || c == ',') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

void report(const std::string& id, const rc::detail::TestParams& params, const rc::detail::TestResult& result) {
  using namespace rc::detail;
  std::ostringstream msg;
  printResultMessage(result, msg);
  if (result.template is<SuccessResult>()) {
    const auto& success = result.template get<SuccessResult>();
    if (!success.distribution.empty()) std::cout << "- " << id << "\n" << msg.str() << "\n";
    SUCCEED(id << ": " << success.numSuccess << " cases");
    return;
  }
  std::ostringstream replay_msg;
  replay_msg << "\nproperty: " << id << "\nseed=" << params.seed << " max_success=" << params.maxSuccess
      << " max_size=" << params.maxSize;
  if (result.template is<FailureResult>()) {
    Configuration replay;
    replay.reproduce[id] = result.template get<FailureResult>().reproduce;
    replay_msg << "\nreplay this counterexample with:\n  RC_PARAMS=\"" << configToMinimalString(replay)
        << "\" <build>/props/sonnx-props \"" << escaped_test_name() << "\"";
  }
  replay_msg << "\nrerun the whole property with the same random stream: RC_PARAMS=\"seed=" << params.seed << "\"\n";
  std::cerr << replay_msg.str();  // unwrapped, for copy and paste
  FAIL(msg.str() << "\n" << replay_msg.str());
}

}  // namespace sonnx::props
