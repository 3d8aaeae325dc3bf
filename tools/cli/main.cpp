// sonnx-ref: the command-line front-end. Exit codes, one meaning each (spec/README.md, "Error
// reporting"; spec/common/check.md, [Check.exit]):
//   0 success (for check and conformance: conforms)     1 does not conform (check, conformance)
//   2 usage error ("error: ...")                         3 input refused by a spec clause ("error: [ID] ...")
//   4 I/O failure: a file or folder could not be found, read, created or written ("error: [ID] ...")
//   5 internal error of sonnx-ref ("error: internal: ..."; a defect to report, never a verdict)
// Every error is one line on stderr; no input may end in a signal.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "core/error.hpp"
#include "oracle/report.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "sonnx-ref: reference interpreter of the SONNX profile (Max, ReduceMax, Hardmax), "
      "a direct transcription of spec/"};
  std::string version;
  try {  // names the active instruction-set level: SONNX_ISA naming none this CPU runs is a usage error (2)
    version = sonnx::report::version_text();
  } catch (const sonnx::SpecError& e) {
    std::cerr << e.report() << "\n";
    return sonnx::exit_status(e.kind());
  }
  app.set_version_flag("--version", version);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success (check, conformance: conforms); 1 does not conform; 2 usage error;\n"
      "3 input refused by a spec clause (\"error: [ID] ...\"); 4 I/O failure (a file or folder could not be\n"
      "found, read, created or written); 5 internal error (a defect of sonnx-ref). Every subcommand has --help.");
  std::vector<std::pair<CLI::App*, sonnx::cli::Action>> actions;
  auto add = [&](sonnx::cli::Action (*reg)(CLI::App&)) {
    const auto before = app.get_subcommands({}).size();
    auto action = reg(app);
    auto subs = app.get_subcommands({});
    if (subs.size() > before) actions.emplace_back(subs.back(), std::move(action));
  };
  add(sonnx::cli::add_run);
  add(sonnx::cli::add_check);
  add(sonnx::cli::add_golden);
  add(sonnx::cli::add_explain);
  add(sonnx::cli::add_expose);
  add(sonnx::cli::add_conformance);
  add(sonnx::cli::add_report);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);  // --help: the help on stdout, exit 0
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // The parser's own errors in the one error format, with where to look.
    std::string where = "sonnx-ref";
    for (auto* sub : app.get_subcommands()) where += " " + sub->get_name();
    std::cerr << "error: " << e.what() << " (" << where << " --help)\n";
    return 2;
  }
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
    std::cerr << app.help();
    return 2;
  } catch (const sonnx::SpecError& e) {
    std::cerr << e.report() << "\n";
    return sonnx::exit_status(e.kind());
  } catch (const std::bad_alloc&) {
    std::cerr << "error: [Common.tensor.size-limit] out of memory\n";
    return 3;
  } catch (const std::exception& e) {  // a defect of sonnx-ref, never a verdict on the input
    std::cerr << "error: internal: " << e.what() << "\n";
    return 5;
  }
}
