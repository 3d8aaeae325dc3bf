// sonnx-ref check — placeholder until its issue lands.
#include "commands.hpp"
#include <iostream>

namespace sonnx::cli {
Action add_check(CLI::App& app) {
  app.add_subcommand("check", "(not yet available)");
  return [] { std::cerr << "error: 'check' is not implemented yet\n"; return 2; };
}
}  // namespace sonnx::cli
