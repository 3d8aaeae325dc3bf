// Whole-file reading and writing for the formats of spec/common/io.md, and the test_data_set
// folders of [IO.testdata.folder].
#include <filesystem>
#include <fstream>
#include <map>

#include "io/io.hpp"

namespace sonnx::io {

namespace fs = std::filesystem;

std::vector<std::byte> read_file(const std::string& path, const std::string& clause) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) io_failure(clause, "{}: no such file", path);
  if (fs::is_directory(status)) io_failure(clause, "{}: is a directory, not a file", path);
  if (!fs::is_regular_file(status)) io_failure(clause, "{}: not a regular file", path);
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) io_failure(clause, "{}: cannot read its size", path);
  const std::uint64_t limit = max_tensor_bytes() + kFileAllowance;
  if (size > limit)  // [Common.tensor.size-limit] before allocating
    refuse("Common.tensor.size-limit", "{}: file of {} bytes exceeds the {}-byte limit (SONNX_REF_MAX_BYTES)",
           path, size, max_tensor_bytes());
  std::ifstream f(path, std::ios::binary);
  if (!f) io_failure(clause, "{}: cannot open for reading", path);
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(f.gcount()) != size) io_failure(clause, "{}: read error", path);
  return bytes;
}

void write_file(const std::string& path, std::span<const std::byte> bytes, const std::string& clause) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (f) f.close();
  if (!f) io_failure(clause, "{}: cannot write", path);
}

namespace {

// K of a file name "prefix_K.pb", K written in decimal without leading zeros; nullopt when the
// name is not of the form prefix_<digits>.pb at all.
std::optional<int> file_number(const std::string& file, const std::string& prefix, const std::string& dir) {
  const std::string head = prefix + "_", tail = ".pb";
  if (!file.starts_with(head) || !file.ends_with(tail) || file.size() <= head.size() + tail.size())
    return std::nullopt;
  const std::string digits = file.substr(head.size(), file.size() - head.size() - tail.size());
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0'))
    refuse("IO.testdata.folder", "{}: file name '{}' is not {}_K.pb with K = 0, 1, ...", dir, file, prefix);
  return std::stoi(digits);
}

}  // namespace

std::vector<NamedTensor> read_test_data_set(const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) io_failure("IO.testdata.folder", "{}: not a directory", dir);
  std::map<int, std::string> files;  // K -> path
  fs::directory_iterator it(dir, ec);
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", dir, ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", dir, ec.message());
    const std::string file = it->path().filename().string();
    if (const auto k = file_number(file, prefix, dir)) files[*k] = it->path().string();
  }
  if (ec) io_failure("IO.testdata.folder", "{}: cannot list: {}", dir, ec.message());
  // [IO.testdata.folder] prefix_0.pb, prefix_1.pb, ... without gaps, read in K order.
  std::vector<NamedTensor> out;
  int expected = 0;
  for (const auto& [k, path] : files) {
    if (k != expected) refuse("IO.testdata.folder", "{}: {}_{}.pb is missing (found {}_{}.pb)", dir, prefix, expected, prefix, k);
    out.push_back(read_tensor_pb(path));
    ++expected;
  }
  return out;
}

}  // namespace sonnx::io
