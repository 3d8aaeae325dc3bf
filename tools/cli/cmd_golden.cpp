// sonnx-ref golden — placeholder until its issue lands.
#include "commands.hpp"
#include <iostream>

namespace sonnx::cli {
Action add_golden(CLI::App& app) {
  app.add_subcommand("golden", "(not yet available)");
  return [] { std::cerr << "error: 'golden' is not implemented yet\n"; return 2; };
}
}  // namespace sonnx::cli
