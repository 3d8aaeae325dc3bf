// A program built against an installed sonnx-ref (find_package(sonnx_ref)): evaluates MODEL on the
// feeds INPUTS and writes its outputs to OUT.npz, as `sonnx-ref run MODEL INPUTS -o OUT.npz` does.
#include <iostream>

#include "graph/model.hpp"
#include "io/io.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: consumer MODEL INPUTS OUT.npz\n";
    return 2;
  }
  try {
    const auto model = sonnx::graph::Model::load(argv[1]);
    sonnx::io::write_npz(argv[3], model.run(sonnx::graph::load_feeds(model, argv[2])));
  } catch (const sonnx::SpecError& e) {
    std::cerr << e.report() << "\n";
    return 1;
  }
  return 0;
}
