// Byte-level builders of the archives and arrays the io tests feed to the readers: little-endian
// fields, and a one-member zip written field by field (local header, member bytes, central
// directory, end record; no zip64), so that a test can write what no zip writer would.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sonnx::test {

using Bytes = std::vector<std::byte>;

// `v` as `n` little-endian bytes.
inline void put(Bytes& out, std::uint64_t v, int n) {
  for (int k = 0; k < n; ++k) out.push_back(static_cast<std::byte>((v >> (8 * k)) & 0xFF));
}
inline void append(Bytes& out, const std::string& s) {
  for (char c : s) out.push_back(static_cast<std::byte>(c));
}

// One member of a zip archive: `stored` is the member's bytes as they sit in the archive,
// compressed with `method` (0 stored, 8 deflate); `crc` and `size` (uncompressed) are what the
// headers declare, whether true or not.
struct ZipMember {
  std::string name;
  Bytes stored;
  int method = 0;
  std::uint32_t crc = 0;
  std::uint64_t size = 0;
};

// A zip archive of `members` in order (no zip64: every size below 4 GiB); the local header and the
// central directory of each member agree.
inline Bytes zip_archive(const std::vector<ZipMember>& members) {
  Bytes z;
  auto common = [&](const ZipMember& m) {
    put(z, 20, 2);    // version needed
    put(z, 0, 2);     // flags
    put(z, static_cast<std::uint64_t>(m.method), 2);
    put(z, 0, 2);     // time
    put(z, 0x21, 2);  // date 1980-01-01
    put(z, m.crc, 4);
    put(z, m.stored.size(), 4);
    put(z, m.size, 4);
    put(z, m.name.size(), 2);
    put(z, 0, 2);  // extra length
  };
  std::vector<std::size_t> offsets;
  for (const auto& m : members) {
    offsets.push_back(z.size());
    put(z, 0x04034b50, 4);
    common(m);
    append(z, m.name);
    z.insert(z.end(), m.stored.begin(), m.stored.end());
  }
  const std::size_t central = z.size();
  for (std::size_t k = 0; k < members.size(); ++k) {
    put(z, 0x02014b50, 4);
    put(z, 20, 2);  // version made by
    common(members[k]);
    put(z, 0, 2);  // comment length
    put(z, 0, 2);  // disk
    put(z, 0, 2);  // internal attributes
    put(z, 0, 4);  // external attributes
    put(z, offsets[k], 4);  // local header offset
    append(z, members[k].name);
  }
  const std::size_t central_size = z.size() - central;
  put(z, 0x06054b50, 4);
  put(z, 0, 2);
  put(z, 0, 2);
  put(z, members.size(), 2);
  put(z, members.size(), 2);
  put(z, central_size, 4);
  put(z, central, 4);
  put(z, 0, 2);
  return z;
}

inline Bytes one_member_zip(const std::string& name, const Bytes& stored, int method, std::uint32_t crc, std::uint64_t size) {
  return zip_archive({{name, stored, method, crc, size}});
}

// An npy image of format version `version` (1: a 2-byte header length, 2: a 4-byte one): magic,
// version, header length, the header dictionary `dict` padded with spaces to a multiple of `align`
// bytes (counted from the magic) and ended by '\n', then `data`.
inline Bytes npy_image(const std::string& dict, const Bytes& data = {}, std::size_t align = 64, int version = 1) {
  const std::size_t prefix = version == 1 ? 10 : 12;
  std::string h = dict;
  while ((prefix + h.size() + 1) % align != 0) h += ' ';
  h += '\n';
  Bytes out;
  append(out, "\x93NUMPY");
  put(out, static_cast<std::uint64_t>(version), 1);
  put(out, 0, 1);
  put(out, h.size(), version == 1 ? 2 : 4);
  append(out, h);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

}  // namespace sonnx::test
