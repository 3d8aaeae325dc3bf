// SHA-256 through OpenSSL's EVP digest interface (libcrypto). A failure of libcrypto (out of memory,
// a provider without SHA-256) is not an input error: it ends in std::runtime_error ("internal").
#include "oracle/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace sonnx::tools {

namespace {

EVP_MD_CTX* context(void* p) { return static_cast<EVP_MD_CTX*>(p); }

[[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("OpenSSL SHA-256: ") + what + " failed"); }

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr) fail("EVP_MD_CTX_new");
  if (EVP_DigestInit_ex(context(ctx_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(context(ctx_));
    fail("EVP_DigestInit_ex");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(context(ctx_)); }

void Sha256::update(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  if (EVP_DigestUpdate(context(ctx_), bytes.data(), bytes.size()) != 1) fail("EVP_DigestUpdate");
}

void Sha256::update(std::string_view bytes) {
  update(std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
}

std::array<std::uint8_t, 32> Sha256::finish() {
  std::array<std::uint8_t, 32> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context(ctx_), digest.data(), &length) != 1 || length != digest.size())
    fail("EVP_DigestFinal_ex");
  return digest;
}

std::string Sha256::finish_hex() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t byte : finish()) {
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

}  // namespace sonnx::tools
