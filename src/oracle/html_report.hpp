// spec/common/check.md, "Reports": the reports `sonnx-ref report` reads ([Check.report.input]) and the
// one self-contained HTML page it writes from them ([Check.report.html]). The page is rendered from a
// Mustache template (src/oracle/html_report.mustache, embedded at build time) by kainjow/mustache, which
// HTML-escapes every value: this file builds the data (the view), never HTML text.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sonnx::graph {
class Model;
}

namespace sonnx::html_report {

// What a JSON report is ([Check.report.input]).
enum class Kind {
  Check,        // check --report (mode "model" or "nodewise"); also a merged one
  Conformance,  // conformance --report
  Golden,       // golden's DIR/manifest.json
  GoldenNodes,  // golden --nodes' DIR/nodes.json
};

struct Input {
  std::string path;
  nlohmann::ordered_json json;
  Kind kind = Kind::Check;
};

// [Check.report.input] Reads one report: a file that cannot be read is an I/O failure, one that is not
// JSON or not one of the kinds above is refused with [Check.report.input].
Input read_input(const std::string& path);
// The kind of a parsed report; refuses ([Check.report.input]) anything else, naming `path`.
Kind kind_of(const nlohmann::ordered_json& j, const std::string& path);
std::string kind_name(Kind k);
// The verdict a report carries: check's "conforms"; conformance's [Check.exit] rule (no case failed and
// at least one passed); nullopt for golden sets, which carry none.
std::optional<bool> verdict_of(const Input& in);

// The model a check report was made on, to draw its graph: `model_path` when given, else the first file
// of the report's manifest when it exists (as written, or relative to the report's folder) and its
// SHA-256 is the one the manifest records. Empty when there is none; `why` then says why.
std::string model_for(const Input& in, const std::string& model_path, std::string& why);

// [Check.report.html] The view: every value the template shows, as JSON (strings, booleans, lists and
// objects), for the reports in `inputs` (in that order). `models[i]` is the model of inputs[i] or
// nullptr; `graph_notes[i]` says why there is no graph when there is none.
nlohmann::ordered_json view(const std::vector<Input>& inputs, const std::vector<const graph::Model*>& models,
                            const std::vector<std::string>& graph_notes);

// [Check.report.html] The page: the template rendered with `view` (every value HTML-escaped by the
// template library). Throws std::runtime_error when the template does not parse (a defect).
std::string render(const nlohmann::ordered_json& view);

// The template, as embedded at build time.
const std::string& template_text();

}  // namespace sonnx::html_report
