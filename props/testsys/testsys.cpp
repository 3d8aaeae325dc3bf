// sonnx-testsys: the test cases of the test of the test system (props/testsys/check, issue 35), never part of
// sonnx-unit or sonnx-props. The [guard] cases pass: they check the console-header rule of props/catch_main.cpp.
// The hidden [failing] cases fail on purpose; props/testsys/check runs them through a nested ctest, each with the
// command and TIMEOUT the discovered unit tests have, and checks that every one ends in ctest's list of failed
// tests, in seconds and with bounded output. Clause IDs are written here in braces, {Max.id}, where a test name has
// them in brackets: tools/trace counts a bracketed ID in props/ as a test of that clause, and none of these is one.
#include <catch2/catch.hpp>

#include <iostream>
#include <string>

#include "catch_guard.hpp"

namespace testsys {

using sonnx::props::header_lines;
using sonnx::props::header_may_loop;
using sonnx::props::kConsoleWidth;

constexpr const char* kRefusedName =
    "a deliberately failing test case, built only for the test of the test system, with a name long enough to wrap at "
    "140 columns and its only colon late: refused";
constexpr const char* kWrappedName =
    "a deliberately failing test case with a long name (built only for the test of the test system: props/testsys), "
    "wrapped by Catch2 over two lines of its console header, which fails cleanly as every other test does";

// A name of `size` characters, words of the IDs' kind, with its first ": " at `colon`.
std::string name_of(std::size_t size, std::size_t colon) {
  const std::string words = "{MaxPool.float.zero} {Common.order.total} Example 5 ties, signed zeros and NaN ";
  std::string s;
  while (s.size() < size) s += words;
  s.resize(size);
  s[colon] = ':';
  s[colon + 1] = ' ';
  if (s.back() == ' ') s.back() = '.';
  return s;
}

TEST_CASE("console header rule: the names of the two mutants of issue 35 loop at Catch2's default width, not at 140", "[guard]") {
  const std::string maxpool = "{MaxPool.float.zero} {MaxPool.float.nan} {MaxPool.indices} {MaxPool.float.formula} Example 5: "
                              "ties, signed zeros, NaN";
  const std::string argmax = "{ArgMax.err.empty-axis} {ArgMin.err.empty-axis} an axis of size 0 leaves no position to "
                             "select: refused";
  CHECK(header_may_loop(maxpool, 0, 80));
  CHECK(header_may_loop(argmax, 0, 80));
  CHECK_FALSE(header_may_loop(maxpool, 0));
  CHECK_FALSE(header_may_loop(argmax, 0));
  CHECK(header_may_loop(kRefusedName, 0));
  CHECK_FALSE(header_may_loop(kWrappedName, 0));
}

TEST_CASE("console header rule: its bounds (a \": \" at column W - 4 - indent, a name of W - indent characters)", "[guard]") {
  for (const std::size_t w : {std::size_t{80}, kConsoleWidth}) {
    for (const std::size_t indent : {0, 2}) {
      CAPTURE(w, indent);
      CHECK(header_may_loop(name_of(w - indent, w - 4 - indent), indent, w));
      CHECK_FALSE(header_may_loop(name_of(w - indent, w - 5 - indent), indent, w));  // a wrapped line keeps 2 columns
      CHECK_FALSE(header_may_loop(name_of(w - indent - 1, w - 4 - indent), indent, w));  // fits on the first line
      CHECK_FALSE(header_may_loop(std::string(3 * w, 'x'), indent, w));  // no ": ": no hanging indent
    }
  }
}

TEST_CASE("console header rule: every name it accepts, Catch2's own wrapper prints in a bounded number of lines", "[guard]") {
  // Lengths from one line to three, every position of the ": " (the rule's edge included): the header of an
  // accepted name has at most one line per character (each line takes at least one).
  std::size_t accepted = 0;
  for (std::size_t size = kConsoleWidth - 4; size <= 3 * kConsoleWidth; size += 7) {
    for (std::size_t colon = 0; colon + 2 <= size; ++colon) {
      const std::string name = name_of(size, colon);
      for (const std::size_t indent : {0, 2}) {
        if (header_may_loop(name, indent)) continue;
        ++accepted;
        const std::size_t lines = header_lines(name, indent, name.size() + 1);
        if (lines > name.size()) FAIL("no end: " << name << " (indent " << indent << ")");
      }
    }
  }
  CHECK(accepted > 10000);
}

TEST_CASE("a deliberately failing test case, built only for the test of the test system, with a name long enough to wrap at "
          "140 columns and its only colon late: refused",
          "[.][failing]") {
  CHECK(1 == 2);
}

TEST_CASE("a deliberately failing test case with a long name (built only for the test of the test system: props/testsys), "
          "wrapped by Catch2 over two lines of its console header, which fails cleanly as every other test does",
          "[.][failing]") {
  CHECK(std::string(kRefusedName) == kWrappedName);
}

TEST_CASE("a deliberately failing test case that prints without end (as Catch2 2.13's console header did, issue 35)",
          "[.][failing]") {
  for (;;) std::cout << "{MaxPool.float.zero} {MaxPool.float.nan} {MaxPool.indices} {MaxPool.float.formula} Example 5\n";
}

}  // namespace testsys
