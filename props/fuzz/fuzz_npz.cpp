// Fuzz target `npz`: bytes -> io::read_npy ([IO.npy.format] [IO.npy.dtype] [IO.npy.order]
// [IO.npy.bfloat16]) and io::read_npz_image ([IO.npz.archive]). Oracle besides the sanitizers: what is
// read is written back (write_npy, write_npz) and read again to the same bits.
#include <unistd.h>

#include <filesystem>

#include "fuzz_util.hpp"
#include "io/io.hpp"

using namespace sonnx;

namespace {

std::string scratch_npz() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("sonnx-fuzz-npz-" + std::to_string(getpid()) + ".npz")).string();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::limit_memory();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::limit_memory();
  const auto bytes = fuzz::as_bytes(data, size);
  // The last byte decides whether a bfloat16 is expected ([IO.npy.bfloat16]).
  const bool bf16 = size > 0 && (data[size - 1] & 1);
  const std::optional<DType> declared = bf16 ? std::optional(DType::BFloat16) : std::nullopt;

  Tensor t;
  if (!fuzz::refused([&] { t = io::read_npy(bytes, "fuzz.npy", declared); })) {
    const auto image = io::write_npy(t);
    Tensor back;
    const auto again = t.dtype() == DType::BFloat16 ? std::optional(DType::BFloat16) : std::nullopt;
    if (fuzz::refused([&] { back = io::read_npy(image, "rewritten.npy", again); }))
      fuzz::finding("write_npy wrote an image read_npy refuses");
    if (!back.bitwise_equal(t)) fuzz::finding("npy round trip changed the tensor");
  }

  std::vector<io::NamedTensor> members;
  const io::DeclaredType types = [&](const std::string&) { return declared; };
  if (!fuzz::refused([&] { members = io::read_npz_image(bytes, "fuzz.npz", types); })) {
    const std::string path = scratch_npz();
    if (fuzz::refused([&] { io::write_npz(path, members); })) return 0;  // e.g. a key libzip cannot name
    std::vector<io::NamedTensor> back;
    const io::DeclaredType back_types = [&](const std::string& key) -> std::optional<DType> {
      for (const auto& m : members)
        if (m.name == key && m.tensor.dtype() == DType::BFloat16) return DType::BFloat16;
      return std::nullopt;
    };
    if (fuzz::refused([&] { back = io::read_npz(path, back_types); }))
      fuzz::finding("write_npz wrote an archive read_npz refuses");
    std::filesystem::remove(path);
    if (back.size() != members.size()) fuzz::finding("npz round trip changed the number of members");
    for (std::size_t k = 0; k < back.size(); ++k)
      if (back[k].name != members[k].name || !back[k].tensor.bitwise_equal(members[k].tensor))
        fuzz::finding("npz round trip changed a member");
  }
  return 0;
}
