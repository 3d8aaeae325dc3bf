// Internal to src/io/: the .npy format read in steps, so that an image need not be in memory whole
// before it is checked. read_npy (an image in memory) and the .npz reader (a member read as a
// stream, [IO.npz.archive]) share these steps:
//   1. npy_header_end: from the first min(image size, kNpyPrefixMax) bytes, the length of magic,
//      version, header length and header, i.e. where the data section starts ([IO.npy.format]);
//   2. parse_npy_header: from exactly that many bytes, the dtype, order and shape, checked against
//      the image size and the size limit ([IO.npy.dtype] [Common.tensor.size-limit]);
//   3. read_npy_data: the tensor, its data section delivered by a callback straight into place.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "core/tensor.hpp"
#include "io/bytes.hpp"

namespace sonnx::io::detail {

// Magic (6), version (2) and a header length of 2 (version 1) or 4 (versions 2, 3) bytes.
inline constexpr std::size_t kNpyPrefixMax = 12;
// [IO.npy.format] The longest header read: 1 MiB (numpy writes a few hundred bytes and, by default,
// refuses to load headers above 10 000 bytes).
inline constexpr std::uint64_t kNpyMaxHeader = 1u << 20;

struct NpyLayout {
  DType dtype = DType::Float;
  ByteOrder order = ByteOrder::Little;
  bool fortran_order = false;
  Shape shape;
  std::uint64_t data_offset = 0;  // magic, version, header length and header
  std::uint64_t data_bytes = 0;   // |X| * b
};

// Step 1. `first` holds the first min(image_size, kNpyPrefixMax) bytes of an image of `image_size`
// bytes. Refuses a wrong magic or version, a header length past the image or above kNpyMaxHeader.
std::uint64_t npy_header_end(std::span<const std::byte> first, std::uint64_t image_size, const std::string& what);

// Step 2. `head` holds the first npy_header_end(...) bytes. Refuses a malformed header, an
// unsupported descr, a shape above the size limit, and an image size other than data_offset + |X|*b,
// all before any data section byte is needed.
NpyLayout parse_npy_header(std::span<const std::byte> head, std::uint64_t image_size,
                           std::optional<DType> declared, const std::string& what);

// Step 3. The tensor of `layout`; `fill` must write exactly the next dst.size() bytes of the data
// section into dst (it is called with consecutive pieces, together layout.data_bytes bytes) or refuse.
using NpyFill = std::function<void(std::span<std::byte> dst)>;
Tensor read_npy_data(const NpyLayout& layout, const NpyFill& fill, const std::string& what);

}  // namespace sonnx::io::detail
