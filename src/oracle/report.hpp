// Machine-readable reports of run / check / conformance: the run manifest, JSON and JUnit XML.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sonnx::report {

// SHA-256 of a file's bytes / of a byte string, as 64 lowercase hex digits (oracle/sha256.hpp).
// sha256_file refuses a missing or unreadable file.
std::string sha256_file(const std::string& path);
std::string sha256_hex(const std::string& bytes);

// The spec revision, as the build computes it (CMakeLists.txt, SONNX_SPEC_HASH): the SHA-256 of
// the concatenation, over every file F matching spec/**/*.md below `source_dir`, in bytewise order
// of its path relative to `source_dir` ('/'-separated, e.g. "spec/ops/max.md"), of the line
//   "<sha256 of F>  <relative path>\n"
// i.e. the same as, in the source directory,
//   find spec -type f -name '*.md' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum
// This runtime restatement lets a test check that the built-in value is the documented one.
std::string spec_hash(const std::string& source_dir);

// The manifest every report carries: sonnx-ref version and git revision, spec revision (hash of
// spec/), SHA-256 of each file in `files` (model and inputs; a directory such as a
// test_data_set_N folder stands for each regular file below it), compiler and flags, build type,
// platform, UTC date, and the command line.
nlohmann::json manifest(const std::vector<std::string>& files, const std::vector<std::string>& argv);

// The revisions a result depends on and nothing else (no date, no compiler): sonnx-ref version,
// git revision and spec revision — what a golden folder records, byte for byte the same on every
// build of one source tree ([Check.golden]).
nlohmann::ordered_json revisions();

// What `sonnx-ref --version` prints: the tool version and git revision, the specification's version
// and SHA-256 (spec_hash), the compiler, build type and flags, and the instruction-set levels the
// kernels are compiled for, those this CPU runs and the active one.
std::string version_text();

// The command line of this process (from /proc/self/cmdline; empty where there is none), for the
// manifest's argv.
std::vector<std::string> command_line();

// JUnit XML for CI systems.
struct JunitCase {
  std::string classname;  // e.g. "conformance.test_max_example"
  std::string name;       // e.g. "test_data_set_0"
  std::string failure;    // empty = passed
  bool skipped = false;
  double seconds = 0;
};
// One <testsuite> holding `cases`; when `manifest` is an object its scalar fields (and the file
// hashes) become <property> elements. Every text is XML-escaped (xml_escape).
void write_junit(const std::string& path, const std::string& suite, const std::vector<JunitCase>& cases,
                 const nlohmann::json& manifest = nullptr);
// The JUnit document as a string (what write_junit writes).
std::string junit_xml(const std::string& suite, const std::vector<JunitCase>& cases,
                      const nlohmann::json& manifest = nullptr);

// Text made safe for XML 1.0 attribute values and character data: & < > " ' become entities;
// control characters other than tab, newline and carriage return (not allowed in XML 1.0, not even
// as references), and bytes that are not well-formed UTF-8, become U+FFFD.
std::string xml_escape(const std::string& text);

// Writes `j` (pretty-printed) to `path`; refuses unwritable paths. Strings that are not UTF-8 are
// written with U+FFFD in place of the bad bytes. The ordered form keeps the keys in insertion order.
void write_json(const std::string& path, const nlohmann::json& j);
void write_json(const std::string& path, const nlohmann::ordered_json& j);

}  // namespace sonnx::report
