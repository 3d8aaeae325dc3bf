// SHA-256 for the run manifest: the hashes of the model, of each input file and of spec/. The
// digest is OpenSSL's (libcrypto's EVP interface, SHA-256 as FIPS 180-4 defines it); nothing here
// computes it. Report manifests are certification evidence, so the hash comes from a maintained,
// validated library rather than from code of this project.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sonnx::tools {

// An incremental SHA-256: update() any number of times, then finish() once. Not copyable.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const std::byte> bytes);
  void update(std::string_view bytes);
  // The 32-byte digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> finish();
  // finish() as 64 lowercase hex digits.
  std::string finish_hex();

 private:
  void* ctx_;  // EVP_MD_CTX*
};

}  // namespace sonnx::tools
