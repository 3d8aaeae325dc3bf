// The subcommands of sonnx-ref. Each lives in its own cmd_<name>.cpp and registers itself on the
// CLI11 app; main.cpp only calls the registrations and maps errors to exit codes.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace sonnx::cli {

// A registered subcommand returns the function to run when it was selected; that function
// returns the process exit code (0 ok, 1 refused input / non-conformance).
using Action = std::function<int()>;

Action add_run(CLI::App& app);
Action add_conformance(CLI::App& app);
Action add_check(CLI::App& app);
Action add_golden(CLI::App& app);
Action add_explain(CLI::App& app);
Action add_expose(CLI::App& app);
Action add_report(CLI::App& app);

}  // namespace sonnx::cli
