// Internal helpers of src/io/: byte order of stored elements. Files store elements little-endian
// ([IO.tensorproto.fields] raw_data, the `<` descr of [IO.npy.dtype]) or big-endian (`>` descr);
// a Tensor holds them in the host's order.
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace sonnx::io::detail {

enum class ByteOrder { Little, Big };

inline constexpr ByteOrder kHostOrder =
    std::endian::native == std::endian::little ? ByteOrder::Little : ByteOrder::Big;
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

// Converts elements of `elem_size` bytes between `order` and host order, in place (the swap is
// its own inverse, so the same call serves reading and writing).
inline void to_host_order(std::span<std::byte> data, std::size_t elem_size, ByteOrder order) {
  if (order == kHostOrder || elem_size == 1) return;
  for (std::size_t k = 0; k + elem_size <= data.size(); k += elem_size)
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(k),
                 data.begin() + static_cast<std::ptrdiff_t>(k + elem_size));
}

// Copies `src` (elements stored in `order`) to `dst` (same size) in host order, or back.
inline void copy_elements(std::span<const std::byte> src, std::span<std::byte> dst,
                          std::size_t elem_size, ByteOrder order) {
  std::copy(src.begin(), src.end(), dst.begin());
  to_host_order(dst, elem_size, order);
}

// Unsigned little-endian integer of `n` bytes at `p`.
inline std::uint64_t load_le(const std::byte* p, int n) {
  std::uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | std::to_integer<std::uint64_t>(p[k]);
  return v;
}

}  // namespace sonnx::io::detail
