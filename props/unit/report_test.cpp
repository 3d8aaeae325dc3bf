// Checks of the report pieces of spec/common/check.md's [Check.verdict] reports: SHA-256 against
// the FIPS 180-2 example vectors, the spec hash against the sha256sum pipeline it is defined by,
// the manifest's fields, and XML escaping of JUnit reports.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "test_util.hpp"
#include "oracle/report.hpp"
#include "oracle/sha256.hpp"

namespace report_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;

namespace {

// stdout of a shell command (an independent restatement: coreutils' sha256sum).
std::string shell(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, p)) out += buffer;
  pclose(p);
  return out;
}

std::filesystem::path temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / fmt::format("sonnx-report-test-{}-{}", name, ::getpid());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("[Check.verdict] manifest hashes: SHA-256 of the FIPS 180-2 example messages", "[report]") {
  // FIPS 180-2, appendix B.1, B.2, B.3
  CHECK(report::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(report::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  tools::Sha256 million;
  const std::string chunk(1000, 'a');
  for (int k = 0; k < 1000; ++k) million.update(chunk);
  CHECK(million.finish_hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // the empty message
  CHECK(report::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("[Check.verdict] manifest hashes: padding boundaries agree with sha256sum", "[report]") {
  const auto dir = temp_dir("pad");
  for (std::size_t n : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 1000u}) {
    std::string text;
    for (std::size_t k = 0; k < n; ++k) text += static_cast<char>('a' + k % 26);
    const auto path = (dir / fmt::format("m{}", n)).string();
    std::ofstream(path, std::ios::binary) << text;
    const std::string expected = shell(fmt::format("sha256sum '{}'", path)).substr(0, 64);
    CHECK(report::sha256_hex(text) == expected);
    CHECK(report::sha256_file(path) == expected);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("[Check.verdict] spec revision: the hash of spec/ is the documented sha256sum pipeline", "[report]") {
  const auto dir = temp_dir("spec");
  std::filesystem::create_directories(dir / "spec" / "ops");
  std::ofstream(dir / "spec" / "README.md") << "# spec\n";
  std::ofstream(dir / "spec" / "ops" / "max.md") << "- **[Max.float.zero]** ...\n";
  std::ofstream(dir / "spec" / "Zeta.md") << "capital letters sort first in C order\n";
  std::ofstream(dir / "spec" / "notes.txt") << "not a .md file: not part of the revision\n";
  const std::string expected =
      shell(fmt::format("cd '{}' && find spec -type f -name '*.md' | LC_ALL=C sort | xargs -d '\\n' sha256sum | sha256sum",
                        dir.string()))
          .substr(0, 64);
  CHECK(report::spec_hash(dir.string()) == expected);
  std::filesystem::remove_all(dir);
}

TEST_CASE("[Check.verdict] spec revision: the built-in value is the hash of this source tree's spec/", "[report]") {
  // this file is <source>/props/unit/report_test.cpp
  const std::filesystem::path source = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  if (!std::filesystem::is_directory(source / "spec")) {
    WARN("source tree not found from __FILE__; skipped");
    return;
  }
  const auto m = report::manifest({}, {});
  CHECK(m["spec_revision"] == report::spec_hash(source.string()));
}

TEST_CASE("[Check.verdict] the manifest names version, revisions, files with SHA-256, compiler, platform, date",
          "[report]") {
  const auto dir = temp_dir("manifest");
  std::ofstream(dir / "model.onnx") << "abc";
  std::filesystem::create_directories(dir / "test_data_set_0");
  std::ofstream(dir / "test_data_set_0" / "input_0.pb") << "";
  const auto m = report::manifest({(dir / "model.onnx").string(), (dir / "test_data_set_0").string()}, {"sonnx-ref", "run"});
  for (const char* key : {"sonnx_ref_version", "git_revision", "spec_revision", "compiler", "compiler_flags",
                          "build_type", "platform", "date_utc"})
    CHECK(m.contains(key));
  CHECK(m["sonnx_ref_version"] == SONNX_VERSION);
  REQUIRE(m["files"].size() == 2);  // the folder stands for its files
  CHECK(m["files"][0]["sha256"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(m["files"][1]["sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(m["files"][1]["path"].get<std::string>().find("input_0.pb") != std::string::npos);
  const std::string date = m["date_utc"];
  CHECK(date.size() == 20);
  CHECK(date.back() == 'Z');
  CHECK(m["argv"] == nlohmann::json::array({"sonnx-ref", "run"}));
  std::filesystem::remove_all(dir);
}

TEST_CASE("[Check.verdict] JUnit reports escape XML metacharacters, controls and bad UTF-8", "[report]") {
  CHECK(report::xml_escape("a<b & \"c\" > 'd'") == "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;");
  CHECK(report::xml_escape("line1\nline2\ttab") == "line1&#10;line2&#9;tab");
  CHECK(report::xml_escape(std::string("nul\0bell\x07", 9)) == "nul\xEF\xBF\xBD" "bell\xEF\xBF\xBD");
  CHECK(report::xml_escape("\xC3\xA9t\xC3\xA9 \xE2\x88\x92" "0") == "\xC3\xA9t\xC3\xA9 \xE2\x88\x92" "0");  // été −0 kept
  CHECK(report::xml_escape("bad \xC3 byte") == "bad \xEF\xBF\xBD byte");
  CHECK(report::xml_escape("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate is not UTF-8
  const std::string x = report::junit_xml("suite <1>", {{"check.m", "Y", "expected 1 < 2 & \"x\"", false, 0.5},
                                                        {"check.m", "Z", "", false, 0}, {"check.m", "W", "", true, 0}});
  CHECK(x.find("<testsuite name=\"suite &lt;1&gt;\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\"") !=
        std::string::npos);
  CHECK(x.find("message=\"expected 1 &lt; 2 &amp; &quot;x&quot;\"") != std::string::npos);
  CHECK(x.find("<testcase classname=\"check.m\" name=\"Z\" time=\"0.000\"/>") != std::string::npos);
  CHECK(x.find("<skipped") != std::string::npos);
}

}  // namespace report_test
