#include "core/buffer.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace sonnx {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kKeptBytes = std::size_t{1} << 30;  // freed mappings kept, at most
constexpr std::size_t kKeptMappings = 8;

struct Mapping {
  void* start;
  std::size_t length;
};

// Freed mappings, for reuse (every buffer may be freed on any thread: conformance -j).
class Kept {
 public:
  // A kept mapping of at least `length` bytes and at most twice that, if there is one.
  bool take(std::size_t length, Mapping& out) {
    std::lock_guard lock(mutex_);
    for (std::size_t k = 0; k < kept_.size(); ++k)
      if (kept_[k].length >= length && kept_[k].length / 2 <= length) {
        out = kept_[k];
        bytes_ -= out.length;
        kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(k));
        return true;
      }
    // None fits: give the kept memory back before mapping more, so that keeping never adds to
    // the peak.
    for (const Mapping& m : kept_) munmap(m.start, m.length);
    kept_.clear();
    bytes_ = 0;
    return false;
  }
  void give(Mapping m) {
    std::lock_guard lock(mutex_);
    if (kept_.size() < kKeptMappings && bytes_ + m.length <= kKeptBytes) {
      kept_.push_back(m);
      bytes_ += m.length;
    } else {
      munmap(m.start, m.length);
    }
  }

 private:
  std::mutex mutex_;
  std::vector<Mapping> kept_;
  std::size_t bytes_ = 0;
};

Kept& kept() {
  static Kept* k = new Kept;  // never destroyed: buffers may be freed during static destruction
  return *k;
}

}  // namespace

Buffer::Buffer(std::size_t bytes, Fill fill) : size_(bytes) {
  if (bytes == 0) return;
  if (bytes >= kMappedBytes) {
    const bool huge = bytes >= kHugeBytes;
    const std::size_t length = huge ? bytes + kHugePage : bytes;  // slack to start on a huge page
    Mapping m{};
    const bool reused = kept().take(length, m);
    if (!reused) {
      void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      m = {p, length};
    }
    mapping_ = m.start;
    mapped_ = m.length;
    auto start = reinterpret_cast<std::uintptr_t>(m.start);
    if (huge) start = (start + kHugePage - 1) & ~(kHugePage - 1);
    data_ = reinterpret_cast<std::byte*>(start);
    if (huge && !reused) madvise(data_, bytes, MADV_HUGEPAGE);  // advice only: the result does not matter
    if (reused && fill == Fill::Zero) std::memset(data_, 0, bytes);  // a fresh mapping is zero already
    return;
  }
  data_ = static_cast<std::byte*>(fill == Fill::Zero ? std::calloc(bytes, 1) : std::malloc(bytes));
  if (data_ == nullptr) throw std::bad_alloc();
}

Buffer::Buffer(const Buffer& other) : Buffer(other.size_, Fill::Unspecified) {
  if (size_ != 0) std::memcpy(data_, other.data_, size_);
}

Buffer& Buffer::operator=(const Buffer& other) {
  if (this != &other) *this = Buffer(other);
  return *this;
}

Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      mapping_(std::exchange(other.mapping_, nullptr)), mapped_(std::exchange(other.mapped_, 0)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapped_ = std::exchange(other.mapped_, 0);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  if (mapping_ != nullptr) kept().give({mapping_, mapped_});
  else std::free(data_);
  data_ = nullptr;
  mapping_ = nullptr;
  size_ = mapped_ = 0;
}

}  // namespace sonnx
