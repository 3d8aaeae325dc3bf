#pragma once
// Catch2 2.13's console headers (props/catch_main.cpp, issue 35): which test names its reporter cannot print.

#include <cstddef>
#include <string>
#include <string_view>

namespace sonnx::props {

// The console width of every test executable (CATCH_CONFIG_CONSOLE_WIDTH in props/catch_main.cpp).
inline constexpr std::size_t kConsoleWidth = 140;

// True when Catch2 2.13's console reporter may print the header of this name without end: a test case's name
// (indent 0) or a section's (indent 2) longer than the header's first line whose first ": " is at or past column
// width - 4 - indent (props/catch_main.cpp says why).
bool header_may_loop(std::string_view name, std::size_t indent, std::size_t width = kConsoleWidth);

// The lines of the header Catch2's own wrapper (TextFlow::Column, as printHeaderString sets it up) gives for
// this name at kConsoleWidth, counted up to `cap`: only defined for a name header_may_loop accepts.
std::size_t header_lines(const std::string& name, std::size_t indent, std::size_t cap);

}  // namespace sonnx::props
