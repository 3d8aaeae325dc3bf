// sonnx-ref explain — placeholder until its issue lands.
#include "commands.hpp"
#include <iostream>

namespace sonnx::cli {
Action add_explain(CLI::App& app) {
  app.add_subcommand("explain", "(not yet available)");
  return [] { std::cerr << "error: 'explain' is not implemented yet\n"; return 2; };
}
}  // namespace sonnx::cli
