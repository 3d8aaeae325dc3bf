// Hand-derived checks that an .npz member is read as a stream ([IO.npz.archive]): its npy header
// first, the declared size and the size limit checked before any data byte is inflated
// ([IO.npy.format] [Common.tensor.size-limit]), inflation stopped at the declared size.
// The archives are built here byte by byte (local header, deflate data from zlib, central
// directory), so that the deflate stream can hold what no zip writer would put there: gigabytes of
// zeros behind a 128-byte npy header (a "zip bomb"), or data that cannot be inflated at all.
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "io/io.hpp"
#include "test_util.hpp"
#include "zip_util.hpp"

namespace npz_stream_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;
using namespace sonnx::test;
namespace fs = std::filesystem;

namespace {

// An npy v1.0 image header (magic to '\n', 128 bytes) for `descr` and `shape`, as numpy writes it.
Bytes npy_header(const std::string& descr, const std::string& shape) {
  return npy_image("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", {}, 128);
}

// Raw deflate (zip method 8) of pieces, each ended by a full flush (byte-aligned, no reference to
// earlier data), so that a compressed piece can be repeated: `zeros_mib` MiB of zeros follow `head`
// as copies of one compressed MiB. The stream ends with an empty final block unless `tail` is given,
// whose bytes are appended as they are (to make a stream that cannot be inflated).
struct Deflated {
  Bytes data;
  std::uint32_t crc = 0;
  std::uint64_t size = 0;  // uncompressed
};
Deflated deflate_member(const Bytes& head, std::uint64_t zeros_mib, std::optional<Bytes> tail = std::nullopt) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  auto run = [&](const Bytes& in, int flush) {
    Bytes out(deflateBound(&z, in.size()) + 64);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, flush) != Z_STREAM_ERROR);
    REQUIRE(z.avail_in == 0);
    out.resize(out.size() - z.avail_out);
    return out;
  };
  Deflated d;
  d.data = run(head, Z_FULL_FLUSH);
  d.crc = static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(head.data()), static_cast<uInt>(head.size())));
  d.size = head.size();
  const Bytes mib(1 << 20);
  const Bytes chunk = run(mib, Z_FULL_FLUSH);
  const uLong crc_mib = crc32(0, reinterpret_cast<const Bytef*>(mib.data()), static_cast<uInt>(mib.size()));
  for (std::uint64_t k = 0; k < zeros_mib; ++k) {
    d.data.insert(d.data.end(), chunk.begin(), chunk.end());
    d.crc = static_cast<std::uint32_t>(crc32_combine(d.crc, crc_mib, 1 << 20));
    d.size += 1 << 20;
  }
  if (tail) d.data.insert(d.data.end(), tail->begin(), tail->end());
  else {
    const Bytes end = run({}, Z_FINISH);
    d.data.insert(d.data.end(), end.begin(), end.end());
  }
  deflateEnd(&z);
  return d;
}

// A one-member zip (no zip64: sizes below 4 GiB) whose directory declares `declared` uncompressed
// bytes (the real size of the deflate stream's content unless a lie is wanted).
Bytes zip_of(const std::string& name, const Deflated& d, std::uint64_t declared) {
  REQUIRE(declared < (1ull << 32));
  REQUIRE(d.data.size() < (1ull << 32));
  return one_member_zip(name, d.data, 8 /* deflate */, d.crc, declared);
}

void write_file(const std::string& path, const Bytes& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Deflate cannot produce more than 1032 bytes per input byte; a member within that ratio passes the
// reader's first plausibility check, so what refuses it must be the header check.
bool within_deflate_ratio(const Deflated& d, std::uint64_t declared) { return declared <= d.data.size() * 1032 + 1024; }

}  // namespace

TEST_CASE("[IO.npz.archive] [IO.npy.format] a 3 GiB zip bomb behind an npy header of shape (1,) is refused after "
          "its header, in well under a second and a few MB",
          "[io][npz][bomb]") {
  TempDir dir;
  // 'x.npy': a float tensor of shape (1,) (4 data bytes) followed by 3 GiB of zeros; the archive
  // declares the true size, so only the header tells that the data section is 3 GiB too long.
  const Bytes head = npy_header("<f4", "(1,)");
  const Deflated d = deflate_member(head, 3072);
  REQUIRE(d.size == 128 + (3ull << 30));
  REQUIRE(within_deflate_ratio(d, d.size));
  const Bytes z = zip_of("x.npy", d, d.size);
  CHECK(z.size() < 4u << 20);  // a few MB on disk
  write_file(dir / "bomb.npz", z);

  const long rss_before = peak_rss_kib();
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(refusal_id([&] { io::read_npz(dir / "bomb.npz"); }) == "IO.npy.format");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long grown_mib = (peak_rss_kib() - rss_before) / 1024;
  INFO("refused in " << seconds << " s, peak RSS grew by " << grown_mib << " MiB");
  CHECK(seconds < 1.0);     // inflating 3 GiB takes several seconds
  CHECK(grown_mib < 64);    // inflating it into memory takes 3 GiB
}

TEST_CASE("[IO.npz.archive] [IO.npy.format] a declared size that disagrees with the npy header is refused before "
          "any data byte is inflated",
          "[io][npz][bomb]") {
  // After the header, 1 MiB of zeros and then a deflate block that cannot be inflated (of the
  // reserved type 3): reading the data section through would be refused with [IO.npz.archive]. The
  // declared size (header + 2 MiB) is not the header's (header + 4 bytes), so the member is refused
  // with [IO.npy.format] first, before the data are inflated.
  const Bytes head = npy_header("<f4", "(1,)");
  Bytes junk(4096);
  junk[0] = std::byte{0x07};  // BFINAL = 1, BTYPE = 11 (reserved): an inflate error
  const Deflated d = deflate_member(head, 1, junk);
  const std::uint64_t declared = head.size() + (2 << 20);
  REQUIRE(within_deflate_ratio(d, declared));
  CHECK(refusal_id([&] { io::read_npz_image(zip_of("x.npy", d, declared), "lie.npz"); }) == "IO.npy.format");
  // The control: the junk read as data (declared as the header says, float (1,), but the junk
  // right after the header) is refused by the inflater, with [IO.npz.archive].
  const Deflated junk_only = deflate_member(head, 0, junk);
  CHECK(refusal_id([&] { io::read_npz_image(zip_of("x.npy", junk_only, head.size() + 4), "junk.npz"); }) ==
        "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] [Common.tensor.size-limit] a tensor above the limit is refused after its header, before "
          "its data are inflated",
          "[io][npz][bomb]") {
  // float (300000,) = 1.2 MB of data against a 1 MB limit; the member (1.2 MB) is within the limit
  // plus the 1 MiB file allowance, so it is the header that is refused, before the data (1 MiB of
  // zeros, then a block that cannot be inflated: reading them through is refused with [IO.npz.archive]).
  ByteLimit limit("1000000");
  const Bytes head = npy_header("<f4", "(300000,)");
  Bytes junk(4096);
  junk[0] = std::byte{0x07};
  const Deflated d = deflate_member(head, 1, junk);
  const std::uint64_t declared = head.size() + 1200000;
  REQUIRE(within_deflate_ratio(d, declared));
  CHECK(refusal_id([&] { io::read_npz_image(zip_of("x.npy", d, declared), "big.npz"); }) ==
        "Common.tensor.size-limit");
}

TEST_CASE("[IO.npz.archive] a member whose content inflates past its declared size is refused, inflating no more "
          "than the declared size",
          "[io][npz][bomb]") {
  // The directory and the header agree on 128 + 4 bytes; the deflate stream holds 3 GiB more.
  const Bytes head = npy_header("<f4", "(1,)");
  const Deflated d = deflate_member(head, 3072);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(refusal_id([&] { io::read_npz_image(zip_of("x.npy", d, head.size() + 4), "long.npz"); }) == "IO.npz.archive");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
  // And one whose content ends before its declared size: header + 4 declared, header + 0 present.
  const Deflated shorter = deflate_member(head, 0);
  CHECK(refusal_id([&] { io::read_npz_image(zip_of("x.npy", shorter, head.size() + 4), "short.npz"); }) ==
        "IO.npz.archive");
}

TEST_CASE("[IO.npz.archive] a member built here byte by byte is read as numpy would", "[io][npz]") {
  // The control for the cases above: the same construction with a consistent member reads back.
  // '<u1' of shape (3, 1048576): the 3 MiB of zeros are the data; every element is 0.
  const Bytes head = npy_header("|u1", "(3, 1048576)");
  const Deflated d = deflate_member(head, 3);
  const auto got = io::read_npz_image(zip_of("zeros.npy", d, d.size), "zeros.npz");
  REQUIRE(got.size() == 1);
  CHECK(got[0].name == "zeros");
  CHECK(got[0].tensor.dtype() == DType::Uint8);
  CHECK(got[0].tensor.shape() == Shape{3, 1 << 20});
  bool all_zero = true;
  for (std::byte b : got[0].tensor.bytes()) all_zero = all_zero && b == std::byte{0};
  CHECK(all_zero);
}

TEST_CASE("[IO.npy.format] a header longer than 1 MiB is refused before it is read", "[io][npy]") {
  // Version 2.0 (4-byte header length): a valid dict padded with 2 MiB of spaces, then '\n', then
  // the 4 data bytes of float (1,). Everything but the length is well formed.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
  Bytes one;
  put(one, 0x3f800000, 4);  // 1.0f
  const Bytes img = npy_image(dict + std::string(2u << 20, ' '), one, 64, 2);
  CHECK(refusal_id([&] { io::read_npy(img, "long-header.npy"); }) == "IO.npy.format");
  // The same dict with numpy's ordinary padding is read: the length alone is refused.
  const Bytes ok = npy_image(dict, one, 128, 2);
  CHECK(values<float>(io::read_npy(ok, "v2.npy")) == std::vector<float>{1.0f});
}

// Issue #12 (mutant npz-02): two members of one name are two arrays under one key.
static Bytes zip_twice(const std::string& name, const Deflated& d) {
  const ZipMember m{name, d.data, 8, d.crc, d.size};
  return zip_archive({m, m});
}

TEST_CASE("[IO.npz.archive] an archive holding two members named x.npy (the key x twice) is refused", "[io][npz]") {
  const Bytes head = npy_header("|u1", "(2,)");
  Bytes member = head;
  put(member, 0x0201, 2);  // the two elements 1, 2
  const Deflated d = deflate_member(member, 0);
  REQUIRE(io::read_npz_image(zip_of("x.npy", d, d.size), "one.npz").size() == 1);  // the control: one member reads
  CHECK(refusal_id([&] { io::read_npz_image(zip_twice("x.npy", d), "twice.npz"); }) == "IO.npz.archive");
}

}  // namespace npz_stream_test
