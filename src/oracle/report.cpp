// Reports of run / check / conformance: the run manifest ([Check.verdict] reports carry it), JSON and
// JUnit XML.
#include "oracle/report.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/isa.hpp"
#include "oracle/sha256.hpp"

#ifndef SONNX_GIT_REV
#define SONNX_GIT_REV "unknown"
#endif
#ifndef SONNX_SPEC_VERSION
#define SONNX_SPEC_VERSION "unknown"
#endif
#ifndef SONNX_SPEC_HASH
#define SONNX_SPEC_HASH "unknown"
#endif
#ifndef SONNX_CXX_FLAGS
#define SONNX_CXX_FLAGS "unknown"
#endif
#ifndef SONNX_CXX_COMPILER
#define SONNX_CXX_COMPILER "unknown"
#endif
#ifndef SONNX_BUILD_TYPE
#define SONNX_BUILD_TYPE "unknown"
#endif

namespace sonnx::report {

namespace fs = std::filesystem;

namespace {

// Regular files below `dir`, as paths relative to it ('/'-separated), in bytewise order. A folder
// that cannot be listed to its end is an I/O failure ([Check.verdict]): never a partial list.
std::vector<std::string> files_below(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::error_code entry;  // an entry whose type cannot be read (a dangling link) is not a regular file
    if (it->is_regular_file(entry)) out.push_back(fs::relative(it->path(), dir, entry).generic_string());
  }
  if (ec) io_failure("Check.verdict", "cannot list every file below '{}': {}", dir.string(), ec.message());
  std::sort(out.begin(), out.end());  // std::string compares as unsigned bytes: C-locale order
  return out;
}

std::string platform() {
  struct utsname u {};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

nlohmann::json file_entry(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return {{"path", path}, {"sha256", sha256_file(path)}, {"bytes", ec ? 0 : size}};
}

// Length of the well-formed UTF-8 sequence starting at s[k] (RFC 3629: no overlongs, no
// surrogates, at most U+10FFFF), or 0 when it is not one.
std::size_t utf8_length(const std::string& s, std::size_t k) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(k);
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (k + n > s.size()) return 0;
  if (b(k + 1) < lo || b(k + 1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (b(k + i) < 0x80 || b(k + i) > 0xBF) return 0;
  return n;
}

// A report's folder is created when missing (reports/check.json works in a fresh folder).
void open_for_writing(std::ofstream& out, const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  out.open(path, std::ios::binary | std::ios::trunc);
  if (!out) io_failure("Check.verdict", "cannot write the report '{}'", path);
}

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  tools::Sha256 h;
  h.update(bytes);
  return h.finish_hex();
}

std::string sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || !fs::is_regular_file(path)) io_failure("Check.verdict", "cannot read '{}' to hash it", path);
  tools::Sha256 h;
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    h.update(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) io_failure("Check.verdict", "error while reading '{}' to hash it", path);
  return h.finish_hex();
}

std::string spec_hash(const std::string& source_dir) {
  const fs::path spec = fs::path(source_dir) / "spec";
  if (!fs::is_directory(spec)) io_failure("Check.verdict", "'{}' is not a directory", spec.string());
  std::string listing;
  for (const auto& rel : files_below(spec)) {
    if (fs::path(rel).extension() != ".md") continue;
    const std::string path = "spec/" + rel;  // the order of "spec/" + rel is the order of rel
    listing += sha256_file((fs::path(source_dir) / path).string()) + "  " + path + "\n";
  }
  return sha256_hex(listing);
}

nlohmann::ordered_json revisions() {
  return {{"sonnx_ref_version", SONNX_VERSION}, {"git_revision", SONNX_GIT_REV}, {"spec_revision", SONNX_SPEC_HASH}};
}

nlohmann::json manifest(const std::vector<std::string>& files, const std::vector<std::string>& argv) {
  nlohmann::json m;
  m["tool"] = "sonnx-ref";
  m["sonnx_ref_version"] = SONNX_VERSION;
  m["git_revision"] = SONNX_GIT_REV;
  m["spec_revision"] = SONNX_SPEC_HASH;  // spec_hash() of spec/ at build time
  m["spec_version"] = SONNX_SPEC_VERSION;  // spec/README.md's "Specification version" line
  m["compiler"] = SONNX_CXX_COMPILER;
  m["compiler_flags"] = SONNX_CXX_FLAGS;
  m["build_type"] = SONNX_BUILD_TYPE;
  nlohmann::json levels = nlohmann::json::array();
  for (Isa level : supported_isas()) levels.push_back(isa_name(level));
  m["isa_levels"] = levels;               // the levels this CPU can run ([Common.order.isa-independent])
  m["isa"] = isa_name(active_isa());     // the one the kernels ran at
  m["platform"] = platform();
  m["date_utc"] = utc_now();
  nlohmann::json hashed = nlohmann::json::array();
  for (const auto& f : files) {
    if (fs::is_directory(f)) {
      for (const auto& rel : files_below(f)) hashed.push_back(file_entry((fs::path(f) / rel).string()));
    } else {
      hashed.push_back(file_entry(f));
    }
  }
  m["files"] = hashed;
  m["argv"] = argv;
  return m;
}

std::string version_text() {
  std::string levels;
  for (Isa level : supported_isas()) levels += (levels.empty() ? "" : ", ") + isa_name(level);
  std::string compiled;
  for (Isa level : compiled_isas()) compiled += (compiled.empty() ? "" : ", ") + isa_name(level);
  return std::string("sonnx-ref ") + SONNX_VERSION + " (git " + SONNX_GIT_REV + ")\n" +
         "specification " + SONNX_SPEC_VERSION + " (sha256 " + SONNX_SPEC_HASH + ")\n" +
         "compiler " + SONNX_CXX_COMPILER + ", " + SONNX_BUILD_TYPE + ", flags: " + SONNX_CXX_FLAGS + "\n" +
         "instruction sets: " + compiled + " compiled; this CPU runs " + levels + "; active " +
         isa_name(active_isa()) + " (SONNX_ISA selects one)";
}

std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> out;
  std::string arg;
  while (std::getline(in, arg, '\0')) out.push_back(arg);
  return out;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[k]);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;   // kept as references: attribute values normalise raw ones
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\xEF\xBF\xBD";  // U+FFFD: XML 1.0 has no way to carry it
        } else if (const std::size_t n = utf8_length(text, k); n == 0) {
          out += "\xEF\xBF\xBD";
        } else {
          out.append(text, k, n);
          k += n;
          continue;
        }
    }
    ++k;
  }
  return out;
}

std::string junit_xml(const std::string& suite, const std::vector<JunitCase>& cases, const nlohmann::json& manifest) {
  std::size_t failures = 0, skipped = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += !c.skipped && !c.failure.empty();
    skipped += c.skipped;
    total += c.seconds;
  }
  const auto e = xml_escape;
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<testsuites>\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\"",
                   e(suite), cases.size(), failures, skipped, total);
  if (manifest.is_object() && manifest.contains("date_utc")) x += fmt::format(" timestamp=\"{}\"", e(manifest["date_utc"].get<std::string>()));
  x += ">\n";
  if (manifest.is_object()) {
    x += "  <properties>\n";
    for (const auto& [key, value] : manifest.items()) {
      if (value.is_string()) {
        x += fmt::format("    <property name=\"{}\" value=\"{}\"/>\n", e(key), e(value.get<std::string>()));
      } else if (key == "files" && value.is_array()) {
        for (const auto& f : value)
          if (f.is_object() && f.contains("path") && f.contains("sha256"))
            x += fmt::format("    <property name=\"sha256:{}\" value=\"{}\"/>\n", e(f["path"].get<std::string>()),
                             e(f["sha256"].get<std::string>()));
      } else if (!value.is_null()) {
        x += fmt::format("    <property name=\"{}\" value=\"{}\"/>\n", e(key), e(value.dump()));
      }
    }
    x += "  </properties>\n";
  }
  for (const auto& c : cases) {
    x += fmt::format("  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", e(c.classname), e(c.name), c.seconds);
    if (c.skipped) {
      x += fmt::format("><skipped message=\"{}\"/></testcase>\n", e(c.failure));
    } else if (!c.failure.empty()) {
      const std::string first_line = c.failure.substr(0, c.failure.find('\n'));
      x += fmt::format("><failure message=\"{}\" type=\"non-conformance\">{}</failure></testcase>\n", e(first_line),
                       e(c.failure));
    } else {
      x += "/>\n";
    }
  }
  x += "</testsuite>\n</testsuites>\n";
  return x;
}

void write_junit(const std::string& path, const std::string& suite, const std::vector<JunitCase>& cases,
                 const nlohmann::json& manifest) {
  std::ofstream out;
  open_for_writing(out, path);
  out << junit_xml(suite, cases, manifest);
  if (!out) io_failure("Check.verdict", "cannot write the report '{}'", path);
}

namespace {
template <class Json> void write_json_text(const std::string& path, const Json& j) {
  std::ofstream out;
  open_for_writing(out, path);
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  if (!out) io_failure("Check.verdict", "cannot write the report '{}'", path);
}
}  // namespace

void write_json(const std::string& path, const nlohmann::json& j) { write_json_text(path, j); }
void write_json(const std::string& path, const nlohmann::ordered_json& j) { write_json_text(path, j); }

}  // namespace sonnx::report
