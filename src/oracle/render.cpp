// spec/common/check.md — the verdict as text, JSON and JUnit: [Check.verdict] (each finding with its
// index, values, bits and deciding clause), [Check.attribution], [Check.coverage], [Check.cases],
// [Check.nodewise.verdict]. Judging is check.cpp's and nodewise.cpp's; this file only renders.
#include <algorithm>
#include <cmath>

#include <fmt/ranges.h>

#include "oracle/check.hpp"

namespace sonnx::check {

using Status = OutputVerdict::Status;
using NodeStatus = NodeVerdict::Status;

std::string status_name(Status s) {
  switch (s) {
    case Status::Conforms: return "conforms";
    case Status::Mismatch: return "differs";
    case Status::Structure: return "shape";
    case Status::Missing: return "missing";
    case Status::Extra: return "extra";
  }
  return "?";
}

std::string status_name(NodeStatus s) {
  switch (s) {
    case NodeStatus::Conforms: return "conforms";
    case NodeStatus::Differs: return "differs";
    case NodeStatus::NotObserved: return "not observed";
    case NodeStatus::Refused: return "refused";
  }
  return "?";
}

namespace {

std::string ids_text(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "[" : " [") + id + "]";
  return out;
}

// [Acc.verdict] The line that says how computed outputs were judged, when some were.
bool has_accuracy(const Verdict& v) {
  for (const auto& o : v.outputs)
    if (o.accuracy) return true;
  for (const auto& n : v.nodes)
    if (n.verdict.accuracy) return true;
  for (const auto& j : v.judgements)
    for (const auto& o : j.outputs)
      if (o.accuracy) return true;
  return false;
}
std::string computed_line(const compare::Options& o) {
  return fmt::format("computed values: within the radius R of their ideal [Acc.verdict]{}\n",
                     o.flush_subnormals ? ", or R + F: flush to zero declared (--flush-subnormals) [Acc.hyp.ftz]" : "");
}

std::string comparison_text(const compare::Options& o) {
  std::string out = o.ulp_mode ? fmt::format("within {} ulp [Check.ulp]", o.ulp) : std::string("bitwise [Check.bitwise]");
  if (o.nan_payload_strict) out += ", NaNs bit for bit (--nan-payload strict) [Check.nan-payload.strict]";
  return out;
}

// [Acc.report] An element of a computed output: the implementation's value, the ideal and its radius,
// the error as a fraction of the radius and in ULPs of T.
std::string accuracy_line(const std::string& name, const Finding& f, const std::string& indent, const char* what) {
  const auto& m = f.mismatch;
  const auto& a = *m.accuracy;
  const bool finite_error = std::isfinite(a.error);
  return fmt::format("{}{}: {} {} ({}); ideal {:.9g}, radius R = {:.3g}{}{}: {}\n", indent, explain::element_name(name, m.index),
                     what, m.actual, m.actual_bits, a.ideal, a.radius,
                     a.flush > 0 ? fmt::format(" (with F = {:.3g} [Acc.hyp.ftz])", a.flush) : std::string(),
                     a.allowed == 1 ? std::string() : fmt::format(" (allowed: {})", a.allowed_text()),
                     finite_error ? fmt::format("error {:.3g} = {:.3g} of R, {:.3g} ulp", a.error, a.fraction, a.ulps)
                                  : std::string("a value the clauses do not allow"));
}

std::string finding_lines(const std::string& name, const Finding& f, const std::string& indent) {
  const auto& m = f.mismatch;
  if (m.accuracy)  // [Acc.report]
    return accuracy_line(name, f, indent, "actual") +
           fmt::format("{}    the reference writes {} ({}); by {}: {}\n", indent, m.expected, m.expected_bits, ids_text(f.clauses),
                       f.reason);
  return fmt::format("{}{}: expected {} ({}), actual {} ({})\n", indent, explain::element_name(name, m.index), m.expected,
                     m.expected_bits, m.actual, m.actual_bits) +
         fmt::format("{}    expected value by {}: {}\n", indent, ids_text(f.clauses), f.reason);
}

// [Check.nan-payload.any] The payload-only differences of a conforming comparison, as a note (none:
// ""); under [Check.nan-payload.strict] they are mismatches, listed with the findings.
std::string payload_note_text(const OutputVerdict& o, const std::string& indent) {
  if (o.nan_payload_only == 0 || o.nan_payload_strict) return "";
  std::string out = fmt::format("{}note: {} element{} of '{}' differ{} only in NaN payload: accepted by --nan-payload any, "
                                "not a finding [Check.nan-payload.any]\n",
                                indent, o.nan_payload_only, o.nan_payload_only == 1 ? "" : "s", o.name,
                                o.nan_payload_only == 1 ? "s" : "");
  for (const auto& f : o.nan_payload_notes) out += finding_lines(o.name, f, indent + "  ");
  if (o.nan_payload_only > static_cast<std::int64_t>(o.nan_payload_notes.size()))
    out += fmt::format("{}  ... {} more (--max-listed)\n", indent,
                       o.nan_payload_only - static_cast<std::int64_t>(o.nan_payload_notes.size()));
  return out;
}

// Under [Check.nan-payload.strict]: how many of the mismatches are payload-only (none: "").
std::string strict_count_text(const OutputVerdict& o) {
  if (o.nan_payload_only == 0 || !o.nan_payload_strict) return "";
  return fmt::format(" ({} of them only in NaN payload [Check.nan-payload.strict])", o.nan_payload_only);
}

// The payload-only differences of one case: its graph outputs, or node-wise its judged nodes' outputs.
std::int64_t payload_only_of(const Verdict& v) {
  std::int64_t n = 0;
  for (const auto& o : v.outputs) n += o.nan_payload_only;
  for (const auto& j : v.judgements)
    for (const auto& o : j.outputs) n += o.nan_payload_only;
  return n;
}

// The line before the verdict that counts the payload-only differences (none: "").
std::string payload_summary_text(std::int64_t n, const std::string& where, const compare::Options& options) {
  if (n == 0) return "";
  if (options.nan_payload_strict)
    return fmt::format("note: {} of the differing element(s){} differ only in NaN payload (--nan-payload strict) "
                       "[Check.nan-payload.strict]\n", n, where);
  return fmt::format("note: {} element(s){} differ only in NaN payload: accepted by --nan-payload any, not findings; "
                     "--nan-payload strict judges NaNs bit for bit [Check.nan-payload.any]\n", n, where);
}

// [Acc.report] the element of a computed output with the largest fraction of its radius ("" otherwise),
// its value named as a finding's is ("actual"): "largest error: Y[0, 1]: actual 1.5 (0x3fc00000); ideal ..."
std::string worst_text(const OutputVerdict& o, const std::string& indent) {
  if (!o.accuracy || !o.worst) return "";
  return accuracy_line(o.name, *o.worst, indent + "largest error: ", "actual");
}

std::string findings_text(const OutputVerdict& o, const std::string& indent) {
  std::string out;
  for (const auto& f : o.findings) out += finding_lines(o.name, f, indent);
  if (o.mismatches > static_cast<std::int64_t>(o.findings.size()))
    out += fmt::format("{}... {} more (--max-listed)\n", indent, o.mismatches - static_cast<std::int64_t>(o.findings.size()));
  return out;
}

std::string output_text(const OutputVerdict& o, const std::string& indent = "") {
  std::string out;
  switch (o.status) {
    case Status::Conforms:
      return fmt::format("{}output '{}': conforms ({} {}, {} element{}, [{}])\n", indent, o.name, o.dtype, to_string(o.shape),
                         o.elements, o.elements == 1 ? "" : "s", o.id) +
             worst_text(o, indent + "  ") + payload_note_text(o, indent + "  ");
    case Status::Structure:
      out = fmt::format("{}output '{}': DOES NOT CONFORM, dtype or shape differs: {} [{}]\n", indent, o.name, o.detail, o.id);
      break;
    case Status::Missing:
      return fmt::format("{}output '{}': DOES NOT CONFORM, {} [{}]\n", indent, o.name, o.detail, o.id);
    case Status::Extra:
      return fmt::format("{}actual value '{}': DOES NOT CONFORM, {} [{}]\n", indent, o.name, o.detail, o.id);
    case Status::Mismatch:
      out = fmt::format("{}output '{}': DOES NOT CONFORM, {} of {} element{} {}{} [{}]\n", indent, o.name,
                        o.mismatches, o.elements, o.elements == 1 ? "" : "s",
                        o.accuracy ? "outside their bound" : o.mismatches == 1 ? "differs" : "differ", strict_count_text(o), o.id);
      if (!o.producer.empty()) out += fmt::format("{}  computed by {} [Acc.report]\n", indent, o.producer);
      out += worst_text(o, indent + "  ");
      out += payload_note_text(o, indent + "  ");
      break;
  }
  if (!o.propagated_from.empty())
    out += fmt::format("{}  propagated: the node producing '{}' conforms on the values it was given; the difference comes "
                       "from {} [Check.attribution]\n",
                       indent, o.name, o.propagated_from);
  return out + findings_text(o, indent + "  ");
}

std::string nodes_text(const std::vector<NodeVerdict>& nodes, const std::string& indent) {
  if (nodes.empty()) return "";
  std::string out = indent + "nodes, each on the values the implementation under test gave it [Check.attribution]:\n";
  for (const auto& n : nodes) {
    switch (n.status) {
      case NodeStatus::Conforms: out += fmt::format("{}  {}: conforms\n", indent, n.label); break;
      case NodeStatus::NotObserved: out += fmt::format("{}  {}: not observed ({})\n", indent, n.label, n.detail); break;
      case NodeStatus::Refused: out += fmt::format("{}  {}: DOES NOT CONFORM, {}\n", indent, n.label, n.detail); break;
      case NodeStatus::Differs:
        if (n.verdict.status == Status::Structure)
          out += fmt::format("{}  {}: DOES NOT CONFORM, dtype or shape of '{}' differs: {} [{}]\n", indent, n.label,
                             n.output, n.verdict.detail, n.verdict.id);
        else
          out += fmt::format("{}  {}: DOES NOT CONFORM, {} of {} element{} of '{}' differ{} [{}]\n", indent, n.label,
                             n.verdict.mismatches, n.verdict.elements, n.verdict.elements == 1 ? "" : "s", n.output,
                             n.verdict.mismatches == 1 ? "s" : "", n.verdict.id);
        out += findings_text(n.verdict, indent + "    ");
        break;
    }
  }
  return out;
}

std::string coverage_text(const std::vector<coverage::NodeCoverage>& c, const std::string& indent) {
  std::string out = indent + "clauses the expected values rest on [Check.coverage]:\n";
  for (const auto& n : c) {
    std::string list;
    for (const auto& [s, w] : n.exercised) list += (list.empty() ? "" : ", ") + s.text();
    out += fmt::format("{}  {}: {}{}\n", indent, n.label, list.empty() ? "(no element)" : list,
                       n.skipped ? fmt::format(" (first {} of {} elements examined)", n.elements, n.elements + n.skipped) : "");
  }
  return out;
}

// A JSON number, or null for a value JSON has no number for (an infinite error).
nlohmann::ordered_json number_json(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr); }

nlohmann::ordered_json accuracy_json(const compare::AccuracyNote& a) {
  return {{"ideal", number_json(a.ideal)},   {"oracle_error", number_json(a.oracle)}, {"bound", number_json(a.bound)},
          {"radius", number_json(a.radius)}, {"error", number_json(a.error)},         {"fraction", number_json(a.fraction)},
          {"ulps", number_json(a.ulps)},     {"allowed", a.allowed_text()}, {"flush_margin", number_json(a.flush)}};
}

nlohmann::ordered_json output_json(const OutputVerdict& o) {
  nlohmann::ordered_json oj;
  oj["name"] = o.name;
  oj["status"] = status_name(o.status);
  oj["conforms"] = o.status == Status::Conforms;
  oj["clause"] = o.id;
  if (!o.detail.empty()) oj["detail"] = o.detail;
  if (o.status != Status::Extra) {
    oj["dtype"] = o.dtype;
    oj["shape"] = o.shape;
    oj["elements"] = o.elements;
  }
  oj["mismatches"] = o.mismatches;
  oj["by_clause"] = o.by_clause;
  if (!o.propagated_from.empty()) oj["propagated_from"] = o.propagated_from;
  auto finding_json = [](const Finding& f) {
    const auto& m = f.mismatch;
    nlohmann::ordered_json j{{"index", m.index},
                             {"offset", m.offset},
                             {"expected", m.expected},
                             {"expected_bits", m.expected_bits},
                             {"actual", m.actual},
                             {"actual_bits", m.actual_bits},
                             {"clauses", f.clauses},
                             {"reason", f.reason}};
    if (m.accuracy) j["accuracy"] = accuracy_json(*m.accuracy);  // [Acc.report]
    return j;
  };
  if (o.accuracy) {  // [Acc.report] every element judged by its radius; the largest fraction of it
    oj["accuracy"] = {{"judged", o.elements}, {"outside", o.mismatches}};
    if (!o.producer.empty()) oj["accuracy"]["node"] = o.producer;
    if (o.worst) oj["accuracy"]["worst"] = finding_json(*o.worst);
  }
  oj["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : o.findings) oj["findings"].push_back(finding_json(f));
  // [Check.nan-payload.any] payload-only differences: their number (under [Check.nan-payload.strict],
  // among the mismatches) and, when they conform, the first of them as notes
  oj["nan_payload_only"] = o.nan_payload_only;
  oj["nan_payload_notes"] = nlohmann::ordered_json::array();
  for (const auto& f : o.nan_payload_notes) oj["nan_payload_notes"].push_back(finding_json(f));
  return oj;
}

nlohmann::ordered_json comparison_json(const compare::Options& options) {
  return {{"mode", options.ulp_mode ? "ulp" : "bitwise"},
          {"ulp", options.ulp_mode ? options.ulp : 0},
          {"clause", options.ulp_mode ? "Check.ulp" : "Check.bitwise"},
          {"nan_payload", compare::nan_payload_name(options)},  // [Check.nan-payload.strict] / [Check.nan-payload.any]
          {"nan_payload_clause", compare::nan_payload_clause(options)}};
}

using JStatus = NodeJudgement::Status;

std::string counts_text(const NodeCounts& c) {
  std::string out;
  if (c.judged > 0) {
    out = fmt::format("{} judged: {} conform", c.judged, c.conforming);
    if (c.differing > 0) out += fmt::format(", {} do{} not conform", c.differing, c.differing == 1 ? "es" : "");
  }
  if (c.not_judged > 0) out += fmt::format("{}{} not judged", out.empty() ? "" : "; ", c.not_judged);
  return out;
}

// [Check.nodewise.verdict] One line per node (the findings of a node that does not conform under it).
std::string judgement_text(const NodeJudgement& j, const std::string& indent) {
  switch (j.status) {
    case JStatus::NotJudged:
      return fmt::format("{}{}: not judged: {} [{}]\n", indent, j.label, j.reason, j.clause);
    case JStatus::Conforms: {
      std::string outs;
      for (const auto& o : j.outputs)
        outs += fmt::format("{}'{}' {} {}, {} element{}", outs.empty() ? "" : "; ", o.name, o.dtype, to_string(o.shape),
                            o.elements, o.elements == 1 ? "" : "s");
      std::string notes;
      for (const auto& o : j.outputs) notes += worst_text(o, indent + "    ") + payload_note_text(o, indent + "    ");
      return fmt::format("{}{}: conforms ({}) [{}]\n", indent, j.label, outs, j.outputs.front().id) + notes;
    }
    case JStatus::Differs: break;
  }
  if (j.outputs.empty())  // refused on the values it was given
    return fmt::format("{}{}: DOES NOT CONFORM, {}\n", indent, j.label, j.reason);
  std::string out;
  for (const auto& o : j.outputs) {
    if (o.status == Status::Conforms) {
      out += fmt::format("{}{}: output '{}' conforms [{}]\n", indent, j.label, o.name, o.id);
      out += payload_note_text(o, indent + "    ");
      continue;
    }
    if (o.status == Status::Structure) {
      out += fmt::format("{}{}: DOES NOT CONFORM, dtype or shape of '{}' differs: {} [{}]\n", indent, j.label, o.name,
                         o.detail, o.id);
      continue;
    }
    out += fmt::format("{}{}: DOES NOT CONFORM, {} of {} element{} of '{}' {}{} [{}]\n", indent, j.label,
                       o.mismatches, o.elements, o.elements == 1 ? "" : "s", o.name,
                       o.accuracy ? "outside their bound" : o.mismatches == 1 ? "differs" : "differ", strict_count_text(o), o.id);
    out += worst_text(o, indent + "    ");
    out += payload_note_text(o, indent + "    ");
    std::string by;
    for (const auto& [clause, n] : o.by_clause) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", clause, n);
    out += fmt::format("{}    by the clause deciding the expected value: {}\n", indent, by);
    out += findings_text(o, indent + "    ");
  }
  if (!j.not_given.empty())
    out += fmt::format("{}    not in ACTUAL, not judged: '{}' [Check.nodewise.missing]\n", indent, fmt::join(j.not_given, "', '"));
  return out;
}

std::string by_operator_text(const NodewiseSummary& s, const std::string& indent) {
  std::string out = indent + "per operator [Check.nodewise.verdict]:\n";
  for (const auto& [op, c] : s.by_operator) out += fmt::format("{}  {}: {}\n", indent, op, counts_text(c));
  return out;
}

std::string nodewise_verdict_text(bool conforms, const NodeCounts& c, const std::string& scope) {
  if (c.judged == 0)
    return fmt::format("verdict: DOES NOT CONFORM: no node was judged{} ({} not judged): that shows nothing about "
                       "conformance [Check.nodewise.verdict]\n", scope, c.not_judged);
  const std::string counts = fmt::format("{} of {} node(s) judged, {} not judged", c.judged, c.nodes, c.not_judged);
  if (conforms)
    return fmt::format("verdict: CONFORMS: every one of the {} judged node(s){} conforms; {} [Check.nodewise.verdict]\n",
                       c.judged, scope, counts);
  return fmt::format("verdict: DOES NOT CONFORM: {} of the {} judged node(s){} do{} not conform; {} [Check.nodewise.verdict]\n",
                     c.differing, c.judged, scope, c.differing == 1 ? "es" : "", counts);
}

std::string nodewise_text(const Verdict& v, const compare::Options& options) {
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  if (has_accuracy(v)) out += computed_line(options);
  out += fmt::format("node-wise [Check.nodewise]: each node the spec covers is judged on the values the implementation "
                     "under test gave it ({})\n", v.nodewise_why);
  for (const auto& n : v.notes) out += "note: " + n + "\n";
  for (const auto& j : v.judgements) out += judgement_text(j, "");
  const NodewiseSummary s = summarize(v.judgements);
  out += by_operator_text(s, "");
  std::vector<coverage::NodeCoverage> c;
  for (const auto& j : v.judgements)
    if (j.status != JStatus::NotJudged && !j.outputs.empty()) c.push_back(j.coverage);
  out += coverage_text(c, "");
  out += payload_summary_text(payload_only_of(v), "", options);
  return out + nodewise_verdict_text(v.conforms, s.all, "");
}

nlohmann::ordered_json counts_json(const NodeCounts& c) {
  return {{"nodes", c.nodes}, {"judged", c.judged}, {"conforming", c.conforming}, {"differing", c.differing},
          {"not_judged", c.not_judged}};
}

nlohmann::ordered_json summary_json(const NodewiseSummary& s) {
  nlohmann::ordered_json j = counts_json(s.all);
  j["by_operator"] = nlohmann::ordered_json::object();
  for (const auto& [op, c] : s.by_operator) j["by_operator"][op] = counts_json(c);
  return j;
}

// [Check.nodewise.verdict] every node: its status, operator, and the verdict of each output or why not judged
nlohmann::ordered_json judgement_json(const NodeJudgement& n) {
  nlohmann::ordered_json j = {{"node", n.label}, {"name", n.name}, {"op_type", n.op_type}};
  j["version"] = n.version > 0 ? nlohmann::ordered_json(n.version) : nlohmann::ordered_json(nullptr);
  j["status"] = status_name(n.status);
  j["conforms"] = n.status == JStatus::Conforms;
  if (!n.reason.empty()) j["reason"] = n.reason;
  if (!n.clause.empty()) j["clause"] = n.clause;
  j["outputs"] = nlohmann::ordered_json::array();
  for (const auto& o : n.outputs) j["outputs"].push_back(output_json(o));
  if (!n.not_given.empty()) j["not_given"] = n.not_given;
  if (n.status != JStatus::NotJudged && !n.outputs.empty()) j["coverage"] = coverage::to_json(std::vector{n.coverage});
  return j;
}

}  // namespace

std::string status_name(NodeJudgement::Status s) {
  switch (s) {
    case JStatus::Conforms: return "conforms";
    case JStatus::Differs: return "differs";
    case JStatus::NotJudged: return "not judged";
  }
  return "?";
}

std::string to_text(const Verdict& v, const compare::Options& options) {
  if (v.nodewise) return nodewise_text(v, options);  // [Check.nodewise.verdict]
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  if (has_accuracy(v)) out += computed_line(options);
  for (const auto& n : v.notes) out += "note: " + n + "\n";
  std::size_t bad = 0;
  for (const auto& o : v.outputs) {
    out += output_text(o);
    bad += o.status != Status::Conforms;
  }
  out += nodes_text(v.nodes, "");
  out += payload_summary_text(payload_only_of(v), "", options);
  if (v.conforms)
    out += fmt::format("verdict: CONFORMS: every one of the {} output(s) conforms [Check.verdict]\n", v.outputs.size());
  else
    out += fmt::format("verdict: DOES NOT CONFORM: {} of {} output(s) do not conform [Check.verdict]\n", bad,
                       v.outputs.size());
  return out;
}

nlohmann::ordered_json to_json(const Verdict& v, const compare::Options& options) {
  nlohmann::ordered_json j;
  j["verdict"] = v.conforms ? "conforms" : "does not conform";
  j["conforms"] = v.conforms;
  j["clause"] = "Check.verdict";
  j["comparison"] = comparison_json(options);
  j["mode"] = v.nodewise ? "nodewise" : "model";
  j["notes"] = v.notes;
  if (v.nodewise) {  // [Check.nodewise.verdict]
    j["clause"] = "Check.nodewise.verdict";
    j["nodewise"] = {{"why", v.nodewise_why}, {"summary", summary_json(summarize(v.judgements))},
                     {"nodes", nlohmann::ordered_json::array()}};
    for (const auto& n : v.judgements) j["nodewise"]["nodes"].push_back(judgement_json(n));
  }
  j["outputs"] = nlohmann::ordered_json::array();
  for (const auto& o : v.outputs) j["outputs"].push_back(output_json(o));
  j["nan_payload_only"] = payload_only_of(v);  // [Check.nan-payload.any]
  j["nodes"] = nlohmann::ordered_json::array();
  for (const auto& n : v.nodes) {
    nlohmann::ordered_json nj = {{"node", n.label}, {"output", n.output}, {"status", status_name(n.status)}};
    if (!n.detail.empty()) nj["detail"] = n.detail;
    if (n.status == NodeStatus::Differs) nj["verdict"] = output_json(n.verdict);
    j["nodes"].push_back(nj);
  }
  j["coverage"] = coverage::to_json(v.coverage);
  return j;
}

std::vector<report::JunitCase> to_junit(const Verdict& v, const std::string& classname) {
  std::vector<report::JunitCase> cases;
  for (const auto& n : v.judgements) {  // [Check.nodewise.verdict] one test per node; not judged: skipped, with why
    report::JunitCase c;
    c.classname = classname;
    c.name = n.label;
    c.skipped = n.status == JStatus::NotJudged;
    if (n.status != JStatus::Conforms) c.failure = judgement_text(n, "");
    cases.push_back(std::move(c));
  }
  for (const auto& o : v.outputs) {
    report::JunitCase c;
    c.classname = classname;
    c.name = o.name;
    if (o.status != Status::Conforms) c.failure = output_text(o);
    cases.push_back(std::move(c));
  }
  for (const auto& n : v.nodes) {
    report::JunitCase c;
    c.classname = classname;
    c.name = "node " + n.label;
    c.skipped = n.status == NodeStatus::NotObserved;
    if (n.status == NodeStatus::Differs) c.failure = output_text(n.verdict);
    if (n.status == NodeStatus::Refused || c.skipped) c.failure = n.detail;
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string to_text(const Campaign& c, const compare::Options& options) {
  if (c.cases.size() == 1 && c.nodewise && !c.shard) return to_text(c.cases.front().verdict, options);
  if (c.cases.size() == 1 && !c.shard) {
    std::string out = to_text(c.cases.front().verdict, options);
    const auto verdict_line = out.rfind("verdict: ");
    return out.insert(verdict_line, coverage_text(c.cases.front().verdict.coverage, ""));
  }
  std::string out = fmt::format("comparison: {}\n", comparison_text(options));
  if (std::any_of(c.cases.begin(), c.cases.end(), [](const auto& k) { return has_accuracy(k.verdict); }))
    out += computed_line(options);
  if (c.shard) out += shard::text(*c.shard) + "\n";  // [Check.shard.report]
  if (c.nodewise && !c.cases.empty())
    out += fmt::format("node-wise [Check.nodewise]: each node the spec covers is judged on the values the implementation "
                       "under test gave it ({})\n", c.cases.front().verdict.nodewise_why);
  for (const auto& k : c.cases) {
    const Verdict& v = k.verdict;
    const std::int64_t payload_only = payload_only_of(v);  // [Check.nan-payload.any]
    if (v.conforms) {
      const std::string payload =
          payload_only == 0 ? ""
                            : fmt::format("; {} element(s) differ only in NaN payload [Check.nan-payload.any]", payload_only);
      if (v.nodewise)
        out += fmt::format("case {}: conforms ({} of {} node(s) judged){}\n", k.name, summarize(v.judgements).all.judged,
                           v.judgements.size(), payload);
      else
        out += fmt::format("case {}: conforms ({} output(s)){}\n", k.name, v.outputs.size(), payload);
      for (const auto& o : v.outputs) out += payload_note_text(o, "  ");
      for (const auto& j : v.judgements)
        for (const auto& o : j.outputs) out += payload_note_text(o, "  ");
      continue;
    }
    out += fmt::format("case {}: DOES NOT CONFORM\n", k.name);
    for (const auto& n : v.notes) out += "  note: " + n + "\n";
    for (const auto& o : v.outputs)
      out += o.status != Status::Conforms ? output_text(o, "  ") : payload_note_text(o, "  ");
    out += nodes_text(v.nodes, "  ");
    for (const auto& j : v.judgements)
      if (j.status == JStatus::Differs) out += judgement_text(j, "  ");
    if (v.nodewise && summarize(v.judgements).all.judged == 0) out += "  no node was judged [Check.nodewise.verdict]\n";
  }
  std::string by;
  for (const auto& [clause, n] : c.by_clause) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", clause, n);
  out += fmt::format("summary [Check.cases]: {} case(s), {} do not conform; {} output(s), {} element(s) judged, {} differ{}\n",
                     c.cases.size(), c.failing_cases, c.outputs, c.elements, c.mismatches,
                     by.empty() ? "" : "; by the clause deciding the expected value: " + by);
  if (c.nodewise) {
    out += fmt::format("nodes [Check.nodewise.verdict], over the {} case(s): {}\n", c.cases.size(), counts_text(c.nodes.all));
    out += by_operator_text(c.nodes, "");
  }
  out += "clauses the expected values rest on [Check.coverage]:\n";
  for (const auto& [label, situations] : c.exercised) {
    std::string list;
    for (const auto& [s, first] : situations) list += (list.empty() ? "" : ", ") + s.text();
    out += fmt::format("  {}: {}\n", label, list);
  }
  out += payload_summary_text(c.nan_payload_only, fmt::format(" in {} case(s)", c.nan_payload_cases), options);
  if (c.shard && c.cases.empty())  // [Check.shard.exit]
    out += fmt::format("verdict: none: shard {}/{} holds no case of the {}; the campaign's verdict is its merged "
                       "report's [Check.shard.exit]\n", c.shard->shard.index, c.shard->shard.count, c.shard->total);
  else if (c.nodewise)
    out += nodewise_verdict_text(c.conforms, c.nodes.all, fmt::format(" over the {} case(s)", c.cases.size()));
  else if (c.conforms)
    out += fmt::format("verdict: CONFORMS: every output of the {} case(s) conforms [Check.verdict]\n", c.cases.size());
  else
    out += fmt::format("verdict: DOES NOT CONFORM: {} of {} case(s) do not conform [Check.verdict]\n", c.failing_cases,
                       c.cases.size());
  return out;
}

nlohmann::ordered_json to_json(const Campaign& c, const compare::Options& options) {
  nlohmann::ordered_json j;
  j["verdict"] = c.conforms ? "conforms" : "does not conform";
  if (c.shard && c.cases.empty()) j["verdict"] = "no case in this shard";  // [Check.shard.exit]
  j["conforms"] = c.conforms;
  j["clause"] = "Check.verdict";
  j["comparison"] = comparison_json(options);
  j["mode"] = c.nodewise ? "nodewise" : "model";
  if (c.nodewise) j["clause"] = "Check.nodewise.verdict";
  j["summary"] = {{"cases", c.cases.size()},     {"failing_cases", c.failing_cases}, {"outputs", c.outputs},
                  {"elements", c.elements},      {"mismatches", c.mismatches},       {"by_clause", c.by_clause}};
  if (c.nodewise) j["summary"]["nodes"] = summary_json(c.nodes);
  j["summary"]["nan_payload_only"] = c.nan_payload_only;  // [Check.nan-payload.any]
  j["summary"]["nan_payload_cases"] = c.nan_payload_cases;
  if (c.shard) j["shard"] = shard::to_json(*c.shard);  // [Check.shard.report]
  j["cases"] = nlohmann::ordered_json::array();
  for (const auto& k : c.cases) {
    nlohmann::ordered_json cj = {{"name", k.name}};
    const nlohmann::ordered_json verdict = to_json(k.verdict, options);  // alive while its items are read
    for (const auto& [key, value] : verdict.items())
      if (key != "comparison" && key != "clause" && key != "mode") cj[key] = value;
    j["cases"].push_back(cj);
  }
  return j;
}

nlohmann::ordered_json report_document(const Campaign& c, const compare::Options& options, const nlohmann::json& manifest) {
  nlohmann::ordered_json j;
  j["command"] = "check";
  j["manifest"] = manifest;
  const nlohmann::ordered_json body = to_json(c, options);  // alive while its items are read
  for (const auto& [key, value] : body.items()) j[key] = value;
  return j;
}

std::vector<report::JunitCase> to_junit(const Campaign& c, const std::string& model_name) {
  std::vector<report::JunitCase> out;
  for (const auto& k : c.cases)
    for (auto& t : to_junit(k.verdict, model_name)) {
      t.name = model_name + "/" + k.name + "/" + t.name;
      out.push_back(std::move(t));
    }
  return out;
}

}  // namespace sonnx::check
