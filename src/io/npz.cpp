// spec/common/io.md [IO.npz.archive]: an .npz is a zip archive whose members NAME.npy hold one
// .npy image each (stored or deflate-compressed); the key of a member is NAME.
// Reading trusts nothing in the archive: member sizes are checked against the size limit and
// against what deflate can produce before anything is allocated; each member is read as a stream,
// its npy header first, so that a declared size that disagrees with the header is refused before
// any data are inflated; the data are inflated straight into the tensor, and the bytes actually
// decompressed must be exactly the declared size (libzip checks the CRC when the member ends).
// Writing stores members uncompressed (ZIP_CM_STORE), as numpy.savez does.
#include <zip.h>

#include <array>
#include <bit>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "io/io.hpp"
#include "io/npy_stream.hpp"

namespace sonnx::io {

namespace {

// Deflate produces at most 258 bytes per 2 bits of input (ratio 1032:1); a declared size above
// that bound is a lie, refused before allocating it.
constexpr std::uint64_t kDeflateMaxRatio = 1032;
constexpr std::uint64_t kDeflateSlack = 1024;

struct ZipDiscard {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileClose {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};
using ZipPtr = std::unique_ptr<zip_t, ZipDiscard>;
using ZipFilePtr = std::unique_ptr<zip_file_t, ZipFileClose>;

std::string error_text(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

// [IO.npz.archive] The member at `index` as a stream: its npy header first, checked against the
// member's declared size and the size limit before any data are inflated; then the data, inflated
// straight into the tensor and never past the declared size.
Tensor read_member(zip_t* za, zip_uint64_t index, const zip_stat_t& st, const std::string& member,
                   std::optional<DType> declared) {
  const std::uint64_t limit = max_tensor_bytes();
  if (st.size > limit + kFileAllowance)  // [Common.tensor.size-limit] before extracting
    refuse("Common.tensor.size-limit", "{}: member of {} bytes exceeds the {}-byte limit (SONNX_REF_MAX_BYTES)",
           member, st.size, limit);
  if (st.comp_method == ZIP_CM_STORE && st.comp_size != st.size)
    refuse("IO.npz.archive", "{}: stored member declares {} bytes but holds {}", member, st.size, st.comp_size);
  if (st.comp_method == ZIP_CM_DEFLATE && st.size > st.comp_size * kDeflateMaxRatio + kDeflateSlack)
    refuse("IO.npz.archive", "{}: declared size {} cannot come from {} deflated bytes", member, st.size,
           st.comp_size);

  ZipFilePtr f(zip_fopen_index(za, index, 0));
  if (!f) refuse("IO.npz.archive", "{}: cannot open member: {}", member, zip_strerror(za));
  std::uint64_t got = 0;  // bytes of the member read so far
  // Exactly dst.size() more bytes of the member, which the declared size allows.
  auto read = [&](std::span<std::byte> dst) {
    std::size_t done = 0;
    while (done < dst.size()) {
      const zip_int64_t n = zip_fread(f.get(), dst.data() + done, dst.size() - done);
      if (n < 0) refuse("IO.npz.archive", "{}: corrupt member: {}", member, zip_file_strerror(f.get()));
      if (n == 0)
        refuse("IO.npz.archive", "{}: member ends after {} of its declared {} bytes", member, got + done, st.size);
      done += static_cast<std::size_t>(n);
    }
    got += done;
  };

  // The npy header: its fixed prefix, then the header itself (at most detail::kNpyMaxHeader bytes).
  std::vector<std::byte> head(static_cast<std::size_t>(std::min<std::uint64_t>(st.size, detail::kNpyPrefixMax)));
  read(head);
  const std::uint64_t header_end = detail::npy_header_end(head, st.size, member);
  const std::size_t prefix = head.size();
  head.resize(static_cast<std::size_t>(header_end));
  read(std::span(head).subspan(prefix));
  // [IO.npy.format] [Common.tensor.size-limit] the declared size is the header's, checked here,
  // before a single data byte is inflated.
  const detail::NpyLayout layout = detail::parse_npy_header(head, st.size, declared, member);
  Tensor t = detail::read_npy_data(layout, read, member);

  std::byte extra;  // reading past the declared size must meet the end (and the CRC check)
  const zip_int64_t n = zip_fread(f.get(), &extra, 1);
  if (n < 0) refuse("IO.npz.archive", "{}: corrupt member: {}", member, zip_file_strerror(f.get()));
  if (n > 0) refuse("IO.npz.archive", "{}: member is longer than its declared {} bytes", member, st.size);
  return t;
}

std::vector<NamedTensor> read_archive(zip_t* za, const std::string& what, const DeclaredType& declared) {
  const zip_int64_t n = zip_get_num_entries(za, 0);
  if (n < 0) refuse("IO.npz.archive", "{}: cannot list the archive", what);
  std::vector<NamedTensor> out;
  std::set<std::string> keys;
  for (zip_int64_t i = 0; i < n; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, index, 0, &st) != 0)
      refuse("IO.npz.archive", "{}: member {}: {}", what, i, zip_strerror(za));
    constexpr zip_uint64_t kNeeded = ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
    if ((st.valid & kNeeded) != kNeeded || st.name == nullptr)
      refuse("IO.npz.archive", "{}: member {} has no name or size", what, i);
    const std::string name = st.name;
    const std::string member = what + ":" + name;
    // [IO.npz.archive] members are NAME.npy; the key is NAME.
    if (!name.ends_with(".npy"))
      refuse("IO.npz.archive", "{}: member '{}' is not an .npy file", what, name);
    const std::string key = name.substr(0, name.size() - 4);
    if (!keys.insert(key).second) refuse("IO.npz.archive", "{}: key '{}' appears twice", what, key);
    if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
      refuse("IO.npz.archive", "{}: compression method {} (only stored and deflate are read)", member,
             st.comp_method);
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
      refuse("IO.npz.archive", "{}: encrypted member", member);
    std::optional<DType> type;
    if (declared) type = declared(key);
    out.push_back({key, read_member(za, index, st, member, type)});
  }
  return out;
}

}  // namespace

std::vector<NamedTensor> read_npz(const std::string& path, const DeclaredType& declared) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    io_failure("IO.npz.archive", "{}: no such file", path);
  if (!std::filesystem::is_regular_file(status)) io_failure("IO.npz.archive", "{}: not a regular file", path);
  if (std::filesystem::file_size(path, ec) == 0 || ec)
    refuse("IO.npz.archive", "{}: empty file, not a zip archive", path);
  int err = 0;
  ZipPtr za(zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &err));
  if (!za) refuse("IO.npz.archive", "{}: not a readable zip archive: {}", path, error_text(err));
  return read_archive(za.get(), path, declared);
}

std::vector<NamedTensor> read_npz_image(std::span<const std::byte> bytes, const std::string& what,
                                        const DeclaredType& declared) {
  if (bytes.empty()) refuse("IO.npz.archive", "{}: empty image, not a zip archive", what);
  zip_error_t e;
  zip_error_init(&e);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &e);
  if (!src) {
    const std::string msg = zip_error_strerror(&e);
    zip_error_fini(&e);
    refuse("IO.npz.archive", "{}: {}", what, msg);
  }
  ZipPtr za(zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &e));
  if (!za) {
    zip_source_free(src);
    const std::string msg = zip_error_strerror(&e);
    zip_error_fini(&e);
    refuse("IO.npz.archive", "{}: not a readable zip archive: {}", what, msg);
  }
  zip_error_fini(&e);
  return read_archive(za.get(), what, declared);
}

void write_npz(const std::string& path, const std::vector<NamedTensor>& tensors) {
  std::set<std::string> keys;
  for (const auto& nt : tensors)
    if (!keys.insert(nt.name).second)
      refuse("IO.npz.archive", "{}: two tensors named '{}'", path, nt.name);

  if (tensors.empty()) {
    // libzip writes no file for an empty archive; an empty zip is its end-of-central-directory
    // record alone ("PK\5\6" and 18 zero bytes), which numpy.load reads as an empty NpzFile.
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    const char eocd[22] = {'P', 'K', 5, 6};
    f.write(eocd, sizeof eocd);
    if (!f) io_failure("IO.npz.archive", "{}: cannot write", path);
    return;
  }

  int err = 0;
  ZipPtr za(zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err));
  if (!za) io_failure("IO.npz.archive", "{}: cannot create: {}", path, error_text(err));
  // Each member streams from two fragments, the npy header and the tensor's own bytes (a little-endian
  // host holds the elements as npy stores them): the data are never copied into an image, and libzip
  // reads them from the tensor as it writes the archive.
  static_assert(std::endian::native == std::endian::little, "npz writing streams the tensor's bytes as they are");
  std::vector<std::vector<std::byte>> headers;  // must live until zip_close, as the tensors do
  std::vector<std::array<zip_buffer_fragment_t, 2>> fragments;
  headers.reserve(tensors.size());
  fragments.reserve(tensors.size());
  for (const auto& nt : tensors) {
    headers.push_back(npy_header(nt.tensor));
    const auto data = nt.tensor.bytes();
    fragments.push_back({zip_buffer_fragment_t{reinterpret_cast<zip_uint8_t*>(headers.back().data()), headers.back().size()},
                         zip_buffer_fragment_t{reinterpret_cast<zip_uint8_t*>(const_cast<std::byte*>(data.data())), data.size()}});
    zip_source_t* src = zip_source_buffer_fragment(za.get(), fragments.back().data(), data.empty() ? 1 : 2, 0);
    if (!src) refuse("IO.npz.archive", "{}: {}", path, zip_strerror(za.get()));
    const std::string member = nt.name + ".npy";
    const zip_int64_t idx = zip_file_add(za.get(), member.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
      zip_source_free(src);
      refuse("IO.npz.archive", "{}: cannot add member '{}': {}", path, member, zip_strerror(za.get()));
    }
    if (zip_set_file_compression(za.get(), static_cast<zip_uint64_t>(idx), ZIP_CM_STORE, 0) != 0)
      refuse("IO.npz.archive", "{}: {}", path, zip_strerror(za.get()));
    // [Check.golden] a fixed DOS timestamp (1980-01-01 00:00, as date 0x0021, time 0), not the
    // clock or the time zone: the same tensors give the same bytes on every run and machine.
    if (zip_file_set_dostime(za.get(), static_cast<zip_uint64_t>(idx), 0, 0x0021, 0) != 0)
      refuse("IO.npz.archive", "{}: {}", path, zip_strerror(za.get()));
  }
  if (zip_close(za.get()) != 0)
    io_failure("IO.npz.archive", "{}: cannot write: {}", path, zip_strerror(za.get()));
  za.release();  // closed: zip_close freed it
}

}  // namespace sonnx::io
