// Machine-readable reports of run / check / conformance: the run manifest, JSON and JUnit XML.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sonnx::report {

// SHA-256 of a file's bytes / of a byte string, as 64 lowercase hex digits (tools/sha256.hpp).
// sha256_file refuses a missing or unreadable file.
std::string sha256_file(const std::string& path);
std::string sha256_hex(const std::string& bytes);

// The spec revision: a SHA-256 over the files of the directory `spec_dir`, defined as
//   SHA-256 of the concatenation, over every regular file F below spec_dir in bytewise order of
//   its path relative to spec_dir ('/'-separated, no leading "./"), of the line
//   "<sha256 of F>  <relative path>\n"
// i.e. the same as the shell pipeline
//   cd spec && find . -type f -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum
// The build computes the same value in CMake (SONNX_SPEC_HASH); this function is the runtime
// restatement used by the unit test that checks both agree.
std::string spec_hash(const std::string& spec_dir);

// The manifest every report carries: sonnx-ref version and git revision, spec revision (hash of
// spec/), SHA-256 of each file in `files` (model and inputs; a directory such as a
// test_data_set_N folder stands for each regular file below it), compiler and flags, build type,
// platform, UTC date, and the command line.
nlohmann::json manifest(const std::vector<std::string>& files, const std::vector<std::string>& argv);

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

// Writes `j` (pretty-printed) to `path`; refuses unwritable paths.
void write_json(const std::string& path, const nlohmann::json& j);

}  // namespace sonnx::report
