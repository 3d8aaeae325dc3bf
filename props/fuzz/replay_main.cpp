// Replays fuzz inputs without libFuzzer (gcc builds): each file named on the command line (or each
// file in a named folder) is passed once to LLVMFuzzerTestOneInput. Arguments starting with '-'
// (libFuzzer options) are ignored. Exit 0 when every input ran; a finding aborts, as under libFuzzer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

int run_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::printf("replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
  std::fflush(stdout);
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int failed = 0, ran = 0;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg.starts_with("-")) continue;
    const std::filesystem::path p(arg);
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) failed += run_file(f), ++ran;
    } else {
      failed += run_file(p), ++ran;
    }
  }
  std::printf("replay: %d inputs, %d unreadable\n", ran, failed);
  return failed ? 1 : 0;
}
