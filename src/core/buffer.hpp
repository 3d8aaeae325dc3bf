// The storage of a tensor's elements.
//
// Large buffers are anonymous memory mappings advised to use transparent huge pages (as numpy does
// for its arrays): the kernel hands them out zero-filled and faults them in lazily, a fault costs
// once per 2 MiB instead of once per 4 KiB, and an operator's first write to its output is the only
// pass over that memory. A freed mapping is kept for the next buffer of about its size (as the C
// library's allocator keeps freed heap memory), so a graph that frees and allocates tensors of one
// size, or a benchmark repeating an operator, does not fault its memory in again. Small buffers
// come from the C library's allocator.
//
// A buffer is zero-filled unless it is made with Fill::Unspecified, which an operator may ask for
// only when it writes every byte before anything reads one (the elements' values never depend on
// what the memory held before).
#pragma once
#include <cstddef>
#include <span>

namespace sonnx {

enum class Fill { Zero, Unspecified };

class Buffer {
 public:
  static constexpr std::size_t kMappedBytes = std::size_t{1} << 18;  // from 256 KiB: a mapping
  static constexpr std::size_t kHugeBytes = std::size_t{4} << 20;    // from 4 MiB: huge pages advised

  Buffer() = default;
  explicit Buffer(std::size_t bytes, Fill fill = Fill::Zero);
  Buffer(const Buffer& other);
  Buffer& operator=(const Buffer& other);
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  ~Buffer();

  std::size_t size() const { return size_; }
  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  std::span<std::byte> span() { return {data_, size_}; }
  std::span<const std::byte> span() const { return {data_, size_}; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;  // nullptr when size_ == 0
  std::size_t size_ = 0;
  void* mapping_ = nullptr;  // the mapping's start, when the buffer is mapped
  std::size_t mapped_ = 0;   // the mapping's length
};

}  // namespace sonnx
