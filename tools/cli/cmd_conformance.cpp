// sonnx-ref conformance — placeholder until its issue lands.
#include "commands.hpp"
#include <iostream>

namespace sonnx::cli {
Action add_conformance(CLI::App& app) {
  app.add_subcommand("conformance", "(not yet available)");
  return [] { std::cerr << "error: 'conformance' is not implemented yet\n"; return 2; };
}
}  // namespace sonnx::cli
