// SHA-256 (FIPS 180-4, identical to FIPS 180-2 for this function) for the run manifest: the
// hashes of the model, of each input file and of spec/. Written here so that the manifest does
// not depend on a crypto library being installed.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sonnx::tools {

class Sha256 {
 public:
  Sha256();
  void update(std::span<const std::byte> bytes);
  void update(std::string_view bytes);
  // The 32-byte digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> finish();
  // finish() as 64 lowercase hex digits.
  std::string finish_hex();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace sonnx::tools
