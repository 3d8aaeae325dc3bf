#include "core/tensor.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/extent.hpp"

namespace sonnx {

std::string to_string(const Shape& s) {
  std::string out = "[";
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k) out += ", ";
    out += std::to_string(s[k]);
  }
  return out + "]";
}

std::uint64_t max_tensor_bytes() {
  if (const char* env = std::getenv("SONNX_REF_MAX_BYTES")) {
    // [Common.tensor.size-limit] Digits only: strtoull alone would also take a sign ("-5" as
    // 2^64 - 5) or leading blanks, and saturate a number too large for 64 bits.
    const bool digits = *env != '\0' && std::all_of(env, env + std::strlen(env), [](char c) { return c >= '0' && c <= '9'; });
    errno = 0;
    const unsigned long long v = digits ? std::strtoull(env, nullptr, 10) : 0;
    if (digits && errno == 0 && v > 0) return v;
  }
  return 16ull << 30;
}

std::int64_t checked_element_count(const Shape& shape, DType t, const std::string& what) {
  for (std::int64_t d : shape)
    if (d < 0) refuse("Common.tensor.shape", "{} has a negative dimension in shape {}", what, to_string(shape));
  const std::int64_t count = checked_product(shape, what + " of shape " + to_string(shape));  // 0 when empty
  const std::uint64_t limit = max_tensor_bytes();
  const auto size = static_cast<std::uint64_t>(info(t).size);
  if (static_cast<std::uint64_t>(count) > limit / size)
    refuse("Common.tensor.size-limit",
           "{} of shape {} ({} elements of {}) needs more than the {}-byte limit (SONNX_REF_MAX_BYTES)",
           what, to_string(shape), count, name(t), limit);
  return count;
}

Tensor::Tensor(DType t, Shape shape, const std::string& what, Fill fill)
    : dtype_(t), shape_(std::move(shape)) {
  count_ = checked_element_count(shape_, t, what);
  bytes_ = std::make_shared<Buffer>(static_cast<std::size_t>(count_) * info(t).size, fill);
}

void Tensor::own() {
  // [Common.tensor.storage] Another tensor shares the storage: copy it before anything is written.
  // use_count() is exact here: a tensor is not accessed from two threads at once while one writes it.
  if (bytes_ && bytes_.use_count() > 1) bytes_ = std::make_shared<Buffer>(static_cast<const Buffer&>(*bytes_));
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor out;
  out.dtype_ = dtype_;
  out.count_ = checked_element_count(shape, dtype_, "a reshaped tensor");
  if (out.count_ != count_)
    refuse("Common.tensor.shape", "internal: {} elements viewed with shape {}", count_, to_string(shape));
  out.shape_ = std::move(shape);
  out.bytes_ = bytes_;  // [Common.tensor.storage] shared, not copied
  return out;
}

bool Tensor::bitwise_equal(const Tensor& other) const {
  const std::size_t n = byte_size();
  return dtype_ == other.dtype_ && shape_ == other.shape_ && n == other.byte_size() &&
         (n == 0 || std::memcmp(data(), other.data(), n) == 0);
}

}  // namespace sonnx
