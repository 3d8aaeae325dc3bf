// Catch2's implementation and main for sonnx-unit, sonnx-props, sonnx-exhaustive and sonnx-testsys, with a guard
// against the console reporter's endless header (issue 35: a failing test fails cleanly).
//
// Catch2 2.13 prints the name of a failing test case as a header wrapped at CATCH_CONFIG_CONSOLE_WIDTH - 1
// columns, the lines after the first indented to just past the name's first ": " (ConsoleReporter::
// printHeaderString; sections at indent 2). TextFlow::Column then has width - indent columns per line, and
// when that is 1 or less it cannot advance: at 1 it emits an empty piece for ever; at 0 or less its size_t
// width wraps round, the position walks back to the name's start and the whole header is printed again and
// again (or substr throws std::out_of_range). Catch2 asserts width > indent, but NDEBUG compiles the check out
// (the sanitizer tree keeps it: there a width of 0 or less aborts, 1 still loops). So a header may loop iff the
// name does not fit on the first line (size >= W - indent) and its first ": " is at or past column W - 4 - indent:
// header_may_loop. Checked against Catch2's own Column (every length up to 3W, every position of the ": ", 6
// fillers each, W = 40, 80, 120, indents 0 and 2: 1.2 M names): every name that looped (26 k) or threw (42 k) is
// one the rule refuses; it refuses 490 k more, which ended by chance (where the first line breaks decides), and
// accepts none that does not end. A mutant that failed MaxPool's unit test "...
// Example 5: ties, signed zeros, NaN" (117 characters, ": " at column 92) made ctest capture 15.5 GB in 11 minutes.
//
// The width: at Catch2's default 80, 16 of the 609 test names of sonnx-unit and sonnx-props looped when their
// test failed, and the rule refuses 29; the latest first ": " of a name that wraps is at column 132, so at 140
// none is refused and every name stays as the spec's examples and IDs word it. Failure messages (RapidCheck's
// counterexamples) wrap at 139 columns too. No width makes every name safe: the guard below refuses the rest.
#define CATCH_CONFIG_CONSOLE_WIDTH 140
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "catch_guard.hpp"

static_assert(CATCH_CONFIG_CONSOLE_WIDTH == sonnx::props::kConsoleWidth);

namespace sonnx::props {

bool header_may_loop(std::string_view name, std::size_t indent, std::size_t width) {
  const std::size_t colon = name.find(": ");
  return colon != std::string_view::npos && colon + 4 + indent >= width && name.size() + indent >= width;
}

std::size_t header_lines(const std::string& name, std::size_t indent, std::size_t cap) {
  const std::size_t colon = name.find(": ");
  const std::size_t hanging = colon == std::string::npos ? 0 : colon + 2;
  const auto column = Catch::clara::TextFlow::Column(name).indent(indent + hanging).initialIndent(indent);
  std::size_t lines = 0;
  for (auto it = column.begin(); it != column.end() && lines < cap; ++it) ++lines;
  return lines;
}

namespace {

void print_refusal(const std::vector<const Catch::TestCase*>& refused) {
  std::cerr << "sonnx: " << refused.size() << " test name(s) refused: Catch2 2.13's console reporter may print their "
            << "header without end (a \": \" at or past column " << kConsoleWidth - 4 << " of a name of "
            << kConsoleWidth << " characters or more; props/catch_main.cpp, issue 35). Reword the sentence after its "
            << "IDs (a comma, parentheses or \" - \" instead of that \": \"), or move the \": \" earlier:\n";
  for (const Catch::TestCase* t : refused)
    std::cerr << "  " << t->lineInfo << ": \": \" at column " << t->name.find(": ") << ": " << t->name << "\n";
}

// Sections exist only while a test runs: a section whose header would loop stops the run before the
// reporter prints it (the test case's own name is checked before the run, in main).
struct SectionNameGuard : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  std::size_t depth = 0;
  void testCaseStarting(Catch::TestCaseInfo const& info) override {
    depth = 0;
    TestEventListenerBase::testCaseStarting(info);
  }
  void sectionStarting(Catch::SectionInfo const& info) override {
    if (++depth > 1 && header_may_loop(info.name, 2)) {
      std::cout.flush();
      std::cerr << "sonnx: section name refused: Catch2 2.13's console reporter may print its header without end "
                << "(a \": \" at or past column " << kConsoleWidth - 6 << "; props/catch_main.cpp, issue 35): "
                << info.lineInfo << ": " << info.name << std::endl;
      std::_Exit(2);
    }
    TestEventListenerBase::sectionStarting(info);
  }
  void sectionEnded(Catch::SectionStats const& stats) override {
    --depth;
    TestEventListenerBase::sectionEnded(stats);
  }
};
CATCH_REGISTER_LISTENER(SectionNameGuard)

}  // namespace
}  // namespace sonnx::props

// --check-header-names: check every test name of the executable and run nothing (exit 0, or 2 naming the
// refused ones); the build runs it after linking (props/CMakeLists.txt), so such a name fails the build.
// Otherwise the test cases the command line selects are checked before any of them runs: a refused one
// stops the run (exit 2) with the same message, in a few milliseconds, whatever the reporter.
int main(int argc, char* argv[]) {
  Catch::Session session;
  bool check_all = false;
  session.cli(session.cli() |
              Catch::clara::Opt(check_all)["--check-header-names"](
                  "refuse (exit 2) any test name Catch2's console header cannot print, run nothing (issue 35)"));
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  const Catch::Config& config = session.config();
  const std::vector<Catch::TestCase>& all = Catch::getAllTestCasesSorted(config);
  const std::vector<Catch::TestCase> selected = check_all ? all : Catch::filterTests(all, config.testSpec(), config);
  std::vector<const Catch::TestCase*> refused;
  for (const Catch::TestCase& t : selected)
    if (sonnx::props::header_may_loop(t.name, 0)) refused.push_back(&t);
  if (!refused.empty()) {
    sonnx::props::print_refusal(refused);
    return 2;
  }
  if (check_all) return 0;
  return session.run();
}
