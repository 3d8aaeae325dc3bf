// The storage of a tensor's elements (src/core/buffer.hpp): whatever path a buffer's memory takes
// (the C library's allocator below 256 KiB, a fresh mapping, a kept mapping reused, huge-page slack
// from 4 MiB), a buffer made with Fill::Zero holds zero bytes, its bytes are its own, and copies
// and moves keep them. The byte layout of the elements it stores is [Common.tensor.index].
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/buffer.hpp"
#include "test_util.hpp"

namespace buffer_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using sonnx::Buffer;
using sonnx::Fill;

namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

bool all_bytes(const Buffer& b, std::byte value) {
  return std::all_of(b.span().begin(), b.span().end(), [&](std::byte x) { return x == value; });
}

void fill_with(Buffer& b, std::byte value) { std::fill(b.span().begin(), b.span().end(), value); }

// Gives back every kept mapping: a 3 GiB buffer (never touched) fits no kept mapping (they total at
// most 1 GiB), so taking one returns them all; freeing it keeps nothing (it is over the 1 GiB budget).
void forget_kept() { Buffer(std::size_t{3} << 30, Fill::Unspecified); }

}  // namespace

TEST_CASE("[Common.tensor.index] storage: an empty buffer has no bytes and no memory", "[core]") {
  const Buffer none(0);
  CHECK(none.size() == 0);
  CHECK(none.data() == nullptr);
  const Buffer copy(none);
  CHECK(copy.size() == 0);
  CHECK(copy.data() == nullptr);
}

TEST_CASE("[Common.tensor.index] storage: small buffers are zero-filled and copied byte for byte", "[core]") {
  Buffer a(100);
  REQUIRE(a.size() == 100);
  CHECK(all_bytes(a, std::byte{0}));
  fill_with(a, std::byte{0x5a});
  Buffer b(a);
  CHECK(b.data() != a.data());
  CHECK(all_bytes(b, std::byte{0x5a}));
  Buffer c(7, Fill::Unspecified);  // written before it is read: its first bytes do not matter
  fill_with(c, std::byte{1});
  c = b;
  CHECK(c.size() == 100);
  CHECK(all_bytes(c, std::byte{0x5a}));
  Buffer& same = c;
  c = same;  // self-assignment keeps the bytes
  CHECK(all_bytes(c, std::byte{0x5a}));
  c = std::move(same);  // self-move keeps them too
  CHECK(c.size() == 100);
  CHECK(all_bytes(c, std::byte{0x5a}));
}

TEST_CASE("[Common.tensor.index] storage: a reused mapping is zero-filled again when asked", "[core]") {
  forget_kept();
  const std::byte* first = nullptr;
  {
    Buffer a(Buffer::kMappedBytes);
    CHECK(all_bytes(a, std::byte{0}));
    fill_with(a, std::byte{0xff});
    first = a.data();
  }
  Buffer b(Buffer::kMappedBytes);  // the freed mapping comes back, with 0xff in it until cleared
  CHECK(b.data() == first);
  CHECK(all_bytes(b, std::byte{0}));
  fill_with(b, std::byte{0x11});
  const std::byte* second = b.data();
  b = Buffer();  // freed: kept again
  Buffer c(Buffer::kMappedBytes, Fill::Unspecified);  // reused and not cleared: the operator writes every byte
  CHECK(c.data() == second);
  CHECK(all_bytes(c, std::byte{0x11}));
  forget_kept();
}

// A buffer made with Fill::Unspecified shows where its memory came from: a fresh mapping is zero,
// a reused one holds what its last owner wrote.
TEST_CASE("[Common.tensor.index] storage: a kept mapping is reused only for a size between half and all of it", "[core]") {
  forget_kept();
  {
    Buffer a(3 * MiB);
    fill_with(a, std::byte{0xff});
  }
  {
    Buffer small(Buffer::kMappedBytes, Fill::Unspecified);  // 256 KiB < 3 MiB / 2: fresh, and the 3 MiB is given back
    CHECK(all_bytes(small, std::byte{0}));
    fill_with(small, std::byte{0x33});
  }
  Buffer larger(2 * MiB, Fill::Unspecified);  // larger than the kept 256 KiB: fresh
  CHECK(all_bytes(larger, std::byte{0}));
  Buffer half(3 * MiB / 2, Fill::Unspecified);  // nothing kept now (the 256 KiB was given back): fresh
  CHECK(all_bytes(half, std::byte{0}));
  forget_kept();
}

TEST_CASE("[Common.tensor.index] storage: from 4 MiB the elements start on a 2 MiB boundary", "[core]") {
  forget_kept();
  Buffer a(Buffer::kHugeBytes + 3);
  CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % (2 * MiB) == 0);
  CHECK(all_bytes(a, std::byte{0}));
  fill_with(a, std::byte{0x22});
  Buffer b(std::move(a));  // the mapping moves with its bytes
  CHECK(a.size() == 0);
  CHECK(a.data() == nullptr);
  CHECK(b.size() == Buffer::kHugeBytes + 3);
  CHECK(all_bytes(b, std::byte{0x22}));
  Buffer c(b);  // a copy is a buffer of its own
  CHECK(c.data() != b.data());
  CHECK(all_bytes(c, std::byte{0x22}));
  b = std::move(c);
  CHECK(all_bytes(b, std::byte{0x22}));
  b = Buffer();
  Buffer d(Buffer::kHugeBytes + 3);  // a kept huge mapping, cleared
  CHECK(reinterpret_cast<std::uintptr_t>(d.data()) % (2 * MiB) == 0);
  CHECK(all_bytes(d, std::byte{0}));
  forget_kept();
}

TEST_CASE("[Common.tensor.index] storage: at most 8 mappings and 1 GiB are kept, the rest is given back", "[core]") {
  forget_kept();
  {
    std::vector<Buffer> ten;
    for (int k = 0; k < 10; ++k) ten.emplace_back(Buffer::kMappedBytes);
    for (int k = 0; k < 10; ++k) ten[k].data()[0] = std::byte(k + 1);
    for (Buffer& b : ten) b = Buffer();  // freed in order: the first 8 are kept, the last 2 given back
  }
  std::vector<Buffer> again;
  for (int k = 0; k < 10; ++k) {
    again.emplace_back(Buffer::kMappedBytes, Fill::Unspecified);
    // The first kept mapping that fits is taken: 1, 2, ..., 8, then fresh (zero) memory.
    CHECK(again.back().data()[0] == std::byte(k < 8 ? k + 1 : 0));
  }
  again.clear();
  forget_kept();
  const std::byte* kept_one = nullptr;
  {
    Buffer a(700 * MiB, Fill::Unspecified), b(700 * MiB, Fill::Unspecified);  // never touched
    kept_one = a.data();
    b.data()[0] = std::byte{0x44};
    a = Buffer();  // kept: 700 MiB
  }                // b would make 1400 MiB: given back
  Buffer c(700 * MiB, Fill::Unspecified);  // a's mapping
  CHECK(c.data() == kept_one);
  Buffer d(700 * MiB, Fill::Unspecified);  // nothing kept: fresh
  CHECK(d.data()[0] == std::byte{0});
  forget_kept();
}

}  // namespace buffer_test
