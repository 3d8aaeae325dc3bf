// sonnx-ref: the command-line front-end. Exit codes: 0 ok, 1 refused input or non-conformance,
// 2 usage. Every refusal is printed as "error: [ID] message" on stderr; no input may end in a signal.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "sonnx-ref: reference interpreter of the SONNX profile (Max, ReduceMax, Hardmax), "
      "a direct transcription of spec/"};
  app.set_version_flag("--version", std::string("sonnx-ref ") + SONNX_VERSION + " (" + SONNX_GIT_REV + ")");
  app.require_subcommand(1);
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
  add(sonnx::cli::add_conformance);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
    std::cerr << app.help();
    return 2;
  } catch (const sonnx::SpecError& e) {
    std::cerr << e.report() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: [Common.tensor.size-limit] out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: internal: " << e.what() << "\n";
    return 1;
  }
}
