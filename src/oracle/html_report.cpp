// spec/common/check.md, "Reports": [Check.report.input] the reports `report` reads, [Check.report.html]
// the page it writes. This file builds the view (plain data) from the JSON reports and renders the
// embedded Mustache template with kainjow/mustache, whose variable tags HTML-escape every value: no
// HTML is assembled here by hand. The page restates the reports; it never judges anything again.
#include "oracle/html_report.hpp"

#include "oracle/compare.hpp"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "graph/model.hpp"
#include "oracle/coverage.hpp"
#include "oracle/report.hpp"

namespace sonnx::html_report {

extern const char* const kTemplate;  // the generated html_report_template.cpp (cmake/embed.cmake)

namespace {

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;
namespace mu = kainjow::mustache;

// ---------------------------------------------------------------------------------------------
// Reading JSON that may come from any version or a hand: absent or mistyped fields read as empty.

const J& at(const J& j, const char* key) {
  static const J null;
  if (!j.is_object()) return null;
  const auto it = j.find(key);
  return it == j.end() ? null : *it;
}

const J& list(const J& j, const char* key) {
  static const J empty = J::array();
  const J& v = at(j, key);
  return v.is_array() ? v : empty;
}

std::string text(const J& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump(-1, ' ', false, J::error_handler_t::replace);
}

std::string str(const J& j, const char* key) { return text(at(j, key)); }

std::int64_t num(const J& j, const char* key) {
  const J& v = at(j, key);
  return v.is_number_integer() || v.is_number_unsigned() ? v.get<std::int64_t>() : 0;
}

bool flag(const J& j, const char* key) {
  const J& v = at(j, key);
  return v.is_boolean() && v.get<bool>();
}

// "[1, 2]" for an index ("[]" for rank 0).
std::string index_text(const J& index) {
  if (!index.is_array()) return text(index);
  std::string out = "[";
  for (std::size_t k = 0; k < index.size(); ++k) out += (k ? ", " : "") + text(index[k]);
  return out + "]";
}

std::string joined(const J& v, const char* sep) {
  if (!v.is_array()) return text(v);
  std::string out;
  for (const auto& e : v) out += (out.empty() ? "" : sep) + text(e);
  return out;
}

// The operator of a node label: "node 'max' (Max-13)" -> "Max", "node 'c' (Conv)" -> "Conv".
std::string operator_of(const std::string& label) {
  const auto open = label.rfind('('), close = label.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return label;
  std::string op = label.substr(open + 1, close - open - 1);
  const auto dash = op.rfind('-');
  if (dash != std::string::npos && dash + 1 < op.size() &&
      std::all_of(op.begin() + static_cast<std::ptrdiff_t>(dash) + 1, op.end(), [](char c) { return c >= '0' && c <= '9'; }))
    op.resize(dash);
  return op;
}

J card(const std::string& label, const J& value, const std::string& cls = "") {
  return {{"label", label}, {"value", text(value)}, {"cls", cls}};
}

// ---------------------------------------------------------------------------------------------
// The clause x case matrix ([Check.coverage]).

struct MatrixRow {
  std::string group;  // the table it belongs to
  std::string label, cls, title;
  std::set<std::pair<std::string, std::string>> exercised;  // (clause, situation)
  std::map<std::string, std::int64_t> failed;                // deciding clause -> differing elements
};

J matrix_json(const std::vector<MatrixRow>& rows, const std::string& row_heading) {
  std::map<std::string, std::set<std::pair<std::string, std::string>>> columns;  // per group
  std::vector<std::string> order;                                                 // groups as first met
  for (const auto& r : rows) {
    if (!columns.count(r.group)) order.push_back(r.group);
    auto& cols = columns[r.group];
    cols.insert(r.exercised.begin(), r.exercised.end());
    for (const auto& [clause, n] : r.failed) {
      const bool shown = std::any_of(r.exercised.begin(), r.exercised.end(), [&](const auto& e) { return e.first == clause; });
      if (!shown) cols.insert({clause, ""});
    }
  }
  // A failing clause shown on no exercised column of its case is shown on the clause's first column.
  J groups = J::array();
  for (const auto& g : order) {
    const auto& cols = columns[g];
    if (cols.empty()) continue;
    J cj = J::array();
    for (const auto& [clause, situation] : cols)
      cj.push_back({{"clause", clause},
                    {"situation", situation},
                    {"has_situation", !situation.empty()},
                    {"title", situation.empty() ? "[" + clause + "]" : "[" + clause + "] " + situation}});
    J rj = J::array();
    for (const auto& r : rows) {
      if (r.group != g) continue;
      J cells = J::array();
      std::set<std::string> marked;
      for (const auto& col : cols) {
        const auto& [clause, situation] = col;
        const bool ex = r.exercised.count(col) > 0;
        const auto f = r.failed.find(clause);
        const bool clause_ex = std::any_of(r.exercised.begin(), r.exercised.end(), [&](const auto& e) { return e.first == clause; });
        std::string cls, mark, title;
        if (f != r.failed.end() && (ex || (!clause_ex && !marked.count(clause)))) {
          marked.insert(clause);
          cls = "f";
          mark = "✗";
          title = fmt::format("{}: {} element(s) whose expected value [{}] decides differ{}", r.label, f->second, clause,
                              ex ? "" : " (the clause's situations of these elements are not listed)");
        } else if (ex) {
          cls = r.cls == "fail" ? "w" : "p";
          mark = "●";
          title = fmt::format("{}: exercised [{}]{}{}", r.label, clause, situation.empty() ? "" : " " + situation,
                              r.cls == "fail" ? "; the row does not conform elsewhere" : "");
        }
        cells.push_back({{"cls", cls}, {"text", mark}, {"title", title}});
      }
      rj.push_back({{"label", r.label}, {"cls", r.cls}, {"title", r.title}, {"cells", cells}});
    }
    groups.push_back({{"title", g},
                      {"row_heading", row_heading},
                      {"columns", cj},
                      {"rows", rj},
                      {"row_count", std::to_string(rj.size())},
                      {"column_count", std::to_string(cj.size())}});
  }
  return groups;
}

// The row of `key` in `rows`, added at the end when new: the tables keep the order in which the
// report first names their node (the evaluation order).
MatrixRow& row_for(std::vector<std::pair<std::string, MatrixRow>>& rows, const std::string& key) {
  for (auto& [k, row] : rows)
    if (k == key) return row;
  rows.emplace_back(key, MatrixRow{});
  return rows.back().second;
}

void add_coverage(MatrixRow& row, const J& coverage) {
  for (const auto& c : coverage) row.exercised.insert({str(c, "clause"), str(c, "situation")});
}

void add_failed(MatrixRow& row, const J& by_clause) {
  if (!by_clause.is_object()) return;
  for (const auto& [clause, n] : by_clause.items())
    if (n.is_number()) row.failed[clause] += n.get<std::int64_t>();
}

// ---------------------------------------------------------------------------------------------
// The accuracy model's numbers ([Acc.verdict], [Acc.report]): what check's JSON states of an element
// of a computed output (render.cpp, accuracy_json: the object "accuracy" of a finding and of
// accuracy.worst). They are shown as the report gives them, never computed again and never rounded:
// each number is the JSON's own (nlohmann's shortest text of the double check wrote, which is the
// text check wrote). A null is a value JSON has no number for (render.cpp, number_json: an infinite
// ideal or error): "not finite".

std::string number_text(const J& v) {
  if (v.is_null()) return "not finite";
  return text(v);
}

// The title of a number's cell: where it is in the report, and what a null there means.
std::string number_title(const J& v, const std::string& key) {
  return "accuracy." + key + " in the report" + (v.is_null() ? ": null, not a finite number" : "");
}

// The terms of R shown under it: R = B̂ + e_o ([Acc.verdict]), plus F of [Acc.hyp.ftz] (JSON
// "flush_margin") when R was widened by it. Any other number the report adds to the accuracy object,
// beyond those the page knows, is shown after them by its JSON name, when it is present and not 0:
// the page never leaves out a number that R may hold.
struct RadiusTerm {
  const char* key;
  const char* label;
  bool always;  // shown even when 0
};
const std::vector<RadiusTerm>& radius_terms() {
  static const std::vector<RadiusTerm> terms{{"bound", "B̂", true}, {"oracle_error", "e_o", true}, {"flush_margin", "F", false}};
  return terms;
}

bool known_accuracy_key(const std::string& k) {
  static const std::set<std::string> known{"ideal", "radius", "error", "fraction", "ulps", "allowed"};
  return known.count(k) > 0 ||
         std::any_of(radius_terms().begin(), radius_terms().end(), [&](const RadiusTerm& t) { return k == t.key; });
}

bool nonzero_number(const J& v) { return v.is_number() && v.get<double>() != 0; }

// An element's fraction of R, to order elements by it: a null (an infinite error) is above every number.
double fraction_of(const J& accuracy) {
  const J& f = at(accuracy, "fraction");
  if (f.is_number()) return f.get<double>();
  return f.is_null() && accuracy.is_object() && accuracy.contains("fraction") ? INFINITY : -1;
}

// The view of one element judged by the accuracy model: a finding of check's JSON (index, expected,
// actual, their bits, clauses, reason) with its "accuracy" object.
J accuracy_element(const J& f) {
  const J& a = at(f, "accuracy");
  J e = {{"index", index_text(at(f, "index"))},
         {"actual", str(f, "actual")},
         {"actual_bits", str(f, "actual_bits")},
         {"expected", str(f, "expected")},
         {"expected_bits", str(f, "expected_bits")},
         {"has_expected", !str(f, "expected").empty()}};
  for (const char* key : {"ideal", "radius", "error", "fraction", "ulps"}) {
    e[key] = number_text(at(a, key));
    e[std::string(key) + "_title"] = number_title(at(a, key), key);
  }
  J terms = J::array();
  for (const auto& t : radius_terms()) {
    const J& v = at(a, t.key);
    if (a.is_object() && a.contains(t.key) && (t.always || nonzero_number(v) || v.is_null()))
      terms.push_back({{"label", t.label}, {"value", number_text(v)}, {"title", number_title(v, t.key)}});
  }
  if (a.is_object())
    for (const auto& [key, v] : a.items())
      if (!known_accuracy_key(key) && nonzero_number(v))
        terms.push_back({{"label", key}, {"value", number_text(v)}, {"title", number_title(v, key)}});
  for (std::size_t k = 0; k < terms.size(); ++k) terms[k]["plus"] = k > 0;
  e["radius_terms"] = terms;
  e["has_radius_terms"] = !terms.empty();
  e["allowed"] = str(a, "allowed");
  e["has_allowed"] = !str(a, "allowed").empty() && str(a, "allowed") != "finite";  // the text report's "(allowed: ...)"
  const double fr = fraction_of(a);
  e["fraction_cls"] = fr > 1 ? "fail" : fr >= 0 ? "pass" : "";  // conforms iff at most 1 ([Acc.verdict])
  return e;
}

// ---------------------------------------------------------------------------------------------
// Findings ([Check.verdict]): every one the report lists. An element of a computed output, judged by
// the accuracy model, is listed with the model's numbers ([Acc.report]) in a table of its own; one
// count numbers the findings of both tables.

struct Findings {
  J rows = J::array();
  J accuracy_rows = J::array();  // [Acc.report] the findings with an "accuracy" object
  std::int64_t unlisted = 0;  // differing elements the report counts but does not list
  std::size_t count() const { return rows.size() + accuracy_rows.size(); }
  void add(const std::string& kase, const std::string& where, const J& f) {
    if (at(f, "accuracy").is_object()) {  // [Acc.report]
      J e = accuracy_element(f);
      e["n"] = std::to_string(count() + 1);
      e["case"] = kase;
      e["where"] = where;
      e["clauses"] = at(f, "clauses").is_array() ? at(f, "clauses") : J::array();
      e["reason"] = str(f, "reason");
      accuracy_rows.push_back(std::move(e));
      return;
    }
    rows.push_back({{"n", std::to_string(count() + 1)},
                    {"case", kase},
                    {"where", where},
                    {"index", index_text(at(f, "index"))},
                    {"expected", str(f, "expected")},
                    {"expected_bits", str(f, "expected_bits")},
                    {"actual", str(f, "actual")},
                    {"actual_bits", str(f, "actual_bits")},
                    {"clauses", at(f, "clauses").is_array() ? at(f, "clauses") : J::array()},
                    {"reason", str(f, "reason")}});
  }
  // A finding without elements: a shape or dtype difference, a missing output, a refusal.
  void add_whole(const std::string& kase, const std::string& where, const std::string& clause, const std::string& why) {
    rows.push_back({{"n", std::to_string(count() + 1)},
                    {"case", kase},
                    {"where", where},
                    {"index", "(whole)"},
                    {"expected", ""},
                    {"expected_bits", ""},
                    {"actual", ""},
                    {"actual_bits", ""},
                    {"clauses", clause.empty() ? J::array() : J::array({clause})},
                    {"reason", why}});
  }
  // The page's part: both tables, and whether there is any finding.
  void put(J& r) const {
    r["has_findings"] = count() > 0;
    r["findings"] = rows;
    r["has_plain_findings"] = !rows.empty();
    r["accuracy_findings"] = accuracy_rows;
    r["has_accuracy_findings"] = !accuracy_rows.empty();
  }
  // One output verdict of check's JSON (output_json in render.cpp).
  void add_output(const std::string& kase, const std::string& where, const J& o) {
    const std::string status = str(o, "status");
    if (status == "conforms") return;
    const J& fs = list(o, "findings");
    std::string w = where;
    if (!str(o, "propagated_from").empty()) w += " (propagated from " + str(o, "propagated_from") + ")";
    if (fs.empty()) {
      add_whole(kase, w, str(o, "clause"), str(o, "detail").empty() ? status : str(o, "detail"));
      return;
    }
    for (const auto& f : fs) add(kase, w, f);
    unlisted += std::max<std::int64_t>(0, num(o, "mismatches") - static_cast<std::int64_t>(fs.size()));
  }
};

// ---------------------------------------------------------------------------------------------
// The computed outputs ([Acc.verdict], [Acc.report]): each output the report says the accuracy model
// judged, with the counts it gives (elements judged, outside R) and its element with the largest
// fraction of R (accuracy.worst), conforming or not; node by node, each node's largest fraction over
// the cases ([Check.nodewise.verdict]).

struct NodeAccuracy {
  std::string node, op;
  std::int64_t outputs = 0, judged = 0, outside = 0;
  J worst;  // the accuracy_element view of the node's element with the largest fraction of R
  double fraction = -1;
  std::string where;  // its case and output
};

struct AccuracyOutputs {
  J rows = J::array();
  std::vector<NodeAccuracy> nodes;  // node-wise reports, in the order the report first names them
  double largest = -1;               // the largest fraction of R over the report's outputs
  J largest_view;                    // its element
  std::string largest_where;
  // One output verdict of check's JSON (render.cpp, output_json) or of conformance's (cmd_conformance.cpp);
  // `node` and `op` name the node a node-wise report judged, else empty.
  void add(const std::string& kase, const std::string& where, const J& o, const std::string& node = "",
           const std::string& op = "") {
    const J& acc = at(o, "accuracy");
    const bool judged_here = acc.is_object() || str(o, "clause") == compare::kAccuracyClause;
    if (!judged_here) return;
    const std::string status = str(o, "status");
    J row;
    const J& worst = at(acc, "worst");
    if (worst.is_object()) row = accuracy_element(worst);
    row["n"] = std::to_string(rows.size() + 1);
    row["case"] = kase;
    row["where"] = where;
    row["status"] = status == "conforms" ? "conforms" : status == "differs" ? "DOES NOT CONFORM" : status;
    row["status_cls"] = status == "conforms" ? "pass" : "fail";
    // check's accuracy object counts them; a conformance output carries only its elements and mismatches
    const std::int64_t judged = acc.is_object() ? num(acc, "judged") : num(o, "elements");
    const std::int64_t outside = acc.is_object() ? num(acc, "outside") : num(o, "mismatches");
    row["judged"] = std::to_string(judged);
    row["outside"] = std::to_string(outside);
    row["outside_cls"] = outside > 0 ? "fail" : "";
    row["has_worst"] = worst.is_object();
    row["no_worst_text"] = acc.is_object() ? "the report names no element"
                                           : "this report carries no accuracy numbers" +
                                                 (str(o, "message").empty() ? std::string() : ": " + str(o, "message"));
    const double fr = fraction_of(at(worst, "accuracy"));
    if (worst.is_object() && fr > largest) largest = fr, largest_view = row, largest_where = kase + " · " + where;
    if (!node.empty()) {
      auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodeAccuracy& n) { return n.node == node; });
      if (it == nodes.end()) it = nodes.insert(nodes.end(), NodeAccuracy{node, op, 0, 0, 0, nullptr, -1, ""});
      ++it->outputs;
      it->judged += judged;
      it->outside += outside;
      if (worst.is_object() && fr > it->fraction) it->fraction = fr, it->worst = row, it->where = kase + " · " + where;
    }
    rows.push_back(std::move(row));
  }
  J node_rows() const {
    J out = J::array();
    for (const auto& n : nodes) {
      J r = n.worst.is_object() ? n.worst : J::object();
      r["node"] = n.node;
      r["op"] = n.op;
      r["outputs"] = std::to_string(n.outputs);
      r["judged"] = std::to_string(n.judged);
      r["outside"] = std::to_string(n.outside);
      r["outside_cls"] = n.outside > 0 ? "fail" : "";
      r["status"] = n.outside > 0 ? "DOES NOT CONFORM" : "conforms";
      r["status_cls"] = n.outside > 0 ? "fail" : "pass";
      r["has_worst"] = n.worst.is_object();
      r["at"] = n.where;
      out.push_back(std::move(r));
    }
    return out;
  }
  // [Check.report.plot] Per operator, the nodes' largest fractions of R on one logarithmic axis: a row
  // per operator, a dot per node at its fraction (the JSON's number, placed, never recomputed), the
  // line of R (fraction 1) across the rows. Inline SVG drawn from data: no script.
  J plot() const {
    constexpr double kLeft = 190, kWidth = 640, kRow = 30, kTop = 26, kLo = -6, kHi = 2;  // decades 1e-6 .. 1e2
    const auto x_of = [&](double fr) {  // 0 and below 1e-6 at the left edge, above 1e2 and not finite at the right
      const double d = fr <= 0 ? kLo : std::isfinite(fr) ? std::clamp(std::log10(fr), kLo, kHi) : kHi;
      return kLeft + (d - kLo) / (kHi - kLo) * kWidth;
    };
    std::vector<std::string> ops;
    for (const auto& n : nodes)
      if (n.worst.is_object() && std::find(ops.begin(), ops.end(), n.op) == ops.end()) ops.push_back(n.op);
    std::sort(ops.begin(), ops.end());
    J rows = J::array(), dots = J::array(), ticks = J::array();
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const double y = kTop + kRow * (static_cast<double>(k) + 0.5);
      std::int64_t count = 0, above = 0;
      double largest = -1;
      for (const auto& n : nodes) {
        if (n.op != ops[k] || !n.worst.is_object()) continue;
        const double jitter = static_cast<double>(count % 5) * 3.0 - 6.0;  // spread the dots of one row
        dots.push_back({{"cx", fmt::format("{:.1f}", x_of(n.fraction))},
                        {"cy", fmt::format("{:.1f}", y + jitter)},
                        {"cls", n.fraction > 1 ? "fail" : "pass"},
                        {"op", n.op},
                        {"fraction", text(at(n.worst, "fraction"))},
                        {"title", fmt::format("{} ({}): largest error {} of R at {}", n.node, n.op,
                                              text(at(n.worst, "fraction")), n.where)}});
        ++count;
        above += n.fraction > 1;
        largest = std::max(largest, n.fraction);
      }
      rows.push_back({{"y", fmt::format("{:.1f}", y + 4)},
                      {"band_y", fmt::format("{:.1f}", kTop + kRow * static_cast<double>(k))},
                      {"label", fmt::format("{} ({} node{}{})", ops[k], count, count == 1 ? "" : "s",
                                            above ? fmt::format(", {} beyond R", above) : "")}});
    }
    for (int d = static_cast<int>(kLo); d <= static_cast<int>(kHi); ++d)
      ticks.push_back({{"x", fmt::format("{:.1f}", x_of(std::pow(10.0, d)))},
                       {"label", d == 0 ? std::string("1 = R") : fmt::format("1e{}", d)}});
    const double height = kTop + kRow * static_cast<double>(ops.size()) + 24;
    return {{"has", !ops.empty()},
            {"width", fmt::format("{:.0f}", kLeft + kWidth + 30)},
            {"height", fmt::format("{:.0f}", height)},
            {"band_w", fmt::format("{:.0f}", kWidth)},
            {"left", fmt::format("{:.0f}", kLeft)},
            {"axis_y", fmt::format("{:.0f}", height - 10)},
            {"top", fmt::format("{:.0f}", kTop - 6)},
            {"bottom", fmt::format("{:.0f}", height - 22)},
            {"bound_x", fmt::format("{:.1f}", x_of(1))},
            {"rows", rows},
            {"dots", dots},
            {"ticks", ticks}};
  }
  // The page's part: the section's rows, and two summary cards.
  void put(J& r) const {
    r["has_accuracy"] = !rows.empty();
    r["accuracy_outputs"] = rows;
    r["accuracy_count"] = std::to_string(rows.size());
    const J nr = node_rows();
    r["has_accuracy_nodes"] = !nr.empty();
    r["accuracy_nodes"] = nr;
    r["accuracy_plot"] = plot();  // [Check.report.plot]
    if (rows.empty()) return;
    r["counts"].push_back(card("computed outputs [Acc.verdict]", std::to_string(rows.size())));
    if (largest_view.is_object())
      r["counts"].push_back({{"label", "largest fraction of R (" + largest_where + ")"},
                             {"value", text(at(largest_view, "fraction"))},
                             {"cls", text(at(largest_view, "fraction_cls"))}});
  }
};

// ---------------------------------------------------------------------------------------------
// The model's graph, each node coloured by its verdict ([Check.nodewise.verdict]).

struct GraphStatus {
  std::string cls = "none";  // pass, fail, warn (not observed), none (not judged)
  std::string text = "not judged";
  std::string accuracy;  // [Acc.report] a computed node: its largest fraction of R over the cases, as the report gives it ("" otherwise)
};

J graph_json(const graph::Model& model, const std::vector<GraphStatus>& status) {
  const auto& nodes = model.nodes();
  const std::size_t n = nodes.size();
  // Vertices: graph inputs (fed), the nodes, graph outputs.
  struct V {
    std::string line1, line2, line3, title, cls;
    bool value = false;
    std::vector<std::size_t> preds;
    int layer = 0;
    double pos = 0;
  };
  std::vector<V> v;
  std::map<std::string, std::size_t> producer;
  for (const auto& in : model.inputs()) {
    producer[in.name] = v.size();
    v.push_back({in.name, "input", "", "graph input '" + in.name + "' " + graph::declared_shape_text(in.shape), "value", true, {}, 0, 0});
  }
  const std::size_t first_node = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& node = nodes[i];
    V x;
    x.line1 = node.op_type + (node.version > 0 ? "-" + std::to_string(node.version) : "");
    x.line2 = node.name.empty() ? "#" + std::to_string(i) : node.name;
    x.cls = i < status.size() ? status[i].cls : "none";
    x.title = coverage::node_label(model, i) + ": " + (i < status.size() ? status[i].text : "not judged");
    if (i < status.size() && !status[i].accuracy.empty()) {  // [Acc.report]
      x.line3 = "max " + status[i].accuracy + " of R";
      x.title += "; its largest error over the cases, as a fraction of R: " + status[i].accuracy + " [Acc.report]";
    }
    for (const auto& in : node.inputs) {
      const auto it = producer.find(in);
      if (!in.empty() && it != producer.end() &&
          std::find(x.preds.begin(), x.preds.end(), it->second) == x.preds.end())
        x.preds.push_back(it->second);
    }
    for (const auto& out : node.outputs)
      if (!out.empty()) producer[out] = v.size();
    v.push_back(std::move(x));
  }
  for (const auto& out : model.outputs()) {
    V x{out.name, "output", "", "graph output '" + out.name + "'", "value", true, {}, 0, 0};
    if (const auto it = producer.find(out.name); it != producer.end()) x.preds.push_back(it->second);
    v.push_back(std::move(x));
  }
  // Layers: longest path from the sources; a vertex without predecessors (a constant) sits just
  // above its first consumer, so that constants do not crowd the first layer.
  std::vector<std::vector<std::size_t>> succs(v.size());
  for (std::size_t k = 0; k < v.size(); ++k)
    for (auto p : v[k].preds) succs[p].push_back(k);
  for (std::size_t k = 0; k < v.size(); ++k)
    for (auto p : v[k].preds) v[k].layer = std::max(v[k].layer, v[p].layer + 1);
  for (std::size_t k = v.size(); k-- > first_node;) {
    if (!v[k].preds.empty() || succs[k].empty()) continue;
    int lowest = 1 << 30;
    for (auto s : succs[k]) lowest = std::min(lowest, v[s].layer);
    v[k].layer = std::max(0, lowest - 1);
  }
  int layers = 0;
  for (const auto& x : v) layers = std::max(layers, x.layer + 1);
  // Order within a layer: by the mean position of the predecessors (one downward sweep), then by
  // evaluation order.
  std::vector<std::vector<std::size_t>> by_layer(static_cast<std::size_t>(layers));
  for (std::size_t k = 0; k < v.size(); ++k) by_layer[static_cast<std::size_t>(v[k].layer)].push_back(k);
  std::size_t widest = 1;
  for (auto& row : by_layer) {
    std::vector<std::pair<double, std::size_t>> keyed;
    for (auto k : row) {
      double sum = 0;
      for (auto p : v[k].preds) sum += v[p].pos;
      keyed.push_back({v[k].preds.empty() ? static_cast<double>(k) * 1e-6 : sum / static_cast<double>(v[k].preds.size()), k});
    }
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    row.clear();
    for (std::size_t i = 0; i < keyed.size(); ++i) {
      row.push_back(keyed[i].second);
      v[keyed[i].second].pos = static_cast<double>(i) - static_cast<double>(keyed.size() - 1) / 2;
    }
    widest = std::max(widest, row.size());
  }
  // A third line in every box when a node states its largest fraction of R ([Acc.report]), the
  // report's number in full ("max 1.0773626536378537e+25 of R": boxes wide enough for 32 characters).
  const bool third = std::any_of(v.begin(), v.end(), [](const V& x) { return !x.line3.empty(); });
  constexpr int kGapX = 18, kGapY = 30, kMargin = 12;
  const int kW = third ? 210 : 132, kH = third ? 46 : 34;
  const int width = static_cast<int>(widest) * (kW + kGapX) - kGapX + 2 * kMargin;
  const int height = layers * (kH + kGapY) - kGapY + 2 * kMargin;
  auto cx = [&](std::size_t k) { return width / 2.0 + v[k].pos * (kW + kGapX); };
  auto top = [&](std::size_t k) { return kMargin + v[k].layer * (kH + kGapY); };
  J edges = J::array();
  for (std::size_t k = 0; k < v.size(); ++k)
    for (auto p : v[k].preds) {
      const double x0 = cx(p), y0 = top(p) + kH, x1 = cx(k), y1 = top(k);
      const double mid = (y1 - y0) / 2;
      edges.push_back({{"d", fmt::format("M{:.1f} {:.1f} C{:.1f} {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}", x0, y0, x0, y0 + mid,
                                         x1, y1 - mid, x1, y1)}});
    }
  J verts = J::array();
  auto fit = [](const std::string& s) { return s.size() <= 22 ? s : s.substr(0, 20) + "…"; };
  for (std::size_t k = 0; k < v.size(); ++k) {
    const double x = cx(k) - kW / 2.0;
    const int y = top(k);
    verts.push_back({{"x", fmt::format("{:.1f}", x)},
                     {"y", std::to_string(y)},
                     {"w", std::to_string(kW)},
                     {"h", std::to_string(kH)},
                     {"rx", v[k].value ? "15" : "4"},
                     {"cx", fmt::format("{:.1f}", cx(k))},
                     {"ty1", std::to_string(y + 14)},
                     {"ty2", std::to_string(y + 27)},
                     {"ty3", std::to_string(y + 40)},
                     {"cls", v[k].cls},
                     {"line1", fit(v[k].line1)},
                     {"line2", fit(v[k].line2)},
                     {"line3", v[k].line3},
                     {"has_line3", !v[k].line3.empty()},
                     {"title", v[k].title}});
  }
  return {{"graph_width", std::to_string(width)},
          {"graph_height", std::to_string(height)},
          {"graph_label", fmt::format("the model's graph: {} node(s)", n)},
          {"graph_nodes", verts},
          {"graph_edges", edges},
          {"has_graph_accuracy", third}};
}

// The verdict of every node of `model` over the cases of a check report: node-wise judgements, or
// in model mode the nodes judged on the IUT's intermediate values ([Check.attribution]).
std::vector<GraphStatus> node_statuses(const graph::Model& model, const J& report, std::string& note) {
  const auto& nodes = model.nodes();
  std::vector<GraphStatus> status(nodes.size());
  std::map<std::string, std::size_t> by_label;
  for (std::size_t i = 0; i < nodes.size(); ++i) by_label[coverage::node_label(model, i)] = i;
  std::vector<int> seen(nodes.size(), 0);  // 1 conforms somewhere, 2 differs somewhere, 3 not observed
  std::vector<std::string> reason(nodes.size());
  std::vector<double> largest(nodes.size(), -1);  // [Acc.report] the largest fraction of R, over cases and outputs
  std::vector<std::string> largest_text(nodes.size());
  auto note_accuracy = [&](std::size_t i, const J& output) {
    const J& worst = at(at(output, "accuracy"), "worst");
    if (!worst.is_object()) return;
    const double fr = fraction_of(at(worst, "accuracy"));
    if (fr > largest[i])
      largest[i] = fr, largest_text[i] = number_text(at(at(worst, "accuracy"), "fraction"));
  };
  std::size_t unmatched = 0;
  for (const auto& c : list(report, "cases")) {
    const J& nodewise = at(c, "nodewise");
    const J& judged = nodewise.is_object() ? list(nodewise, "nodes") : list(c, "nodes");
    for (const auto& j : judged) {
      const auto it = by_label.find(str(j, "node"));
      if (it == by_label.end()) {
        ++unmatched;
        continue;
      }
      const std::size_t i = it->second;
      const std::string s = str(j, "status");
      if (s == "differs" || s == "refused") seen[i] = 2;
      else if (s == "conforms" && seen[i] != 2) seen[i] = 1;
      else if (s == "not observed" && seen[i] == 0) seen[i] = 3;
      if (reason[i].empty()) reason[i] = str(j, "reason").empty() ? str(j, "detail") : str(j, "reason");
      for (const auto& o : list(j, "outputs")) note_accuracy(i, o);  // node-wise: every judged node's outputs
      if (at(j, "verdict").is_object()) note_accuracy(i, at(j, "verdict"));  // model mode: a node that differs
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    switch (seen[i]) {
      case 1: status[i] = {"pass", "conforms", largest_text[i]}; break;
      case 2: status[i] = {"fail", "DOES NOT CONFORM", largest_text[i]}; break;
      case 3: status[i] = {"warn", "not observed: " + reason[i], largest_text[i]}; break;
      default: status[i] = {"none", reason[i].empty() ? "not judged" : "not judged: " + reason[i], largest_text[i]};
    }
  }
  if (unmatched > 0)
    note = fmt::format("{} node verdict(s) of the report name no node of this model.", unmatched);
  return status;
}

// ---------------------------------------------------------------------------------------------
// One report's part of the view, per kind.

std::string verdict_class(bool conforms) { return conforms ? "pass" : "fail"; }

J manifest_rows(const J& m) {
  J rows = J::array();
  auto row = [&](const char* label, const std::string& value) {
    if (!value.empty()) rows.push_back({{"key", label}, {"value", value}});
  };
  row("sonnx-ref", str(m, "sonnx_ref_version"));
  row("git revision", str(m, "git_revision"));
  row("specification", str(m, "spec_version"));
  row("spec SHA-256", str(m, "spec_revision"));
  row("instruction set", str(m, "isa") + (at(m, "isa_levels").is_array() ? " (this CPU runs " + joined(at(m, "isa_levels"), ", ") + ")" : ""));
  row("compiler", str(m, "compiler"));
  row("flags", str(m, "compiler_flags"));
  row("build type", str(m, "build_type"));
  row("platform", str(m, "platform"));
  row("date (UTC)", str(m, "date_utc"));
  row("command line", joined(at(m, "argv"), " "));
  return rows;
}

void set_manifest(J& r, const J& m) {
  r["has_manifest"] = m.is_object();
  r["manifest_rows"] = m.is_object() ? manifest_rows(m) : J::array();
  J files = J::array();
  for (const auto& f : list(m, "files"))
    files.push_back({{"path", str(f, "path")}, {"bytes", str(f, "bytes")}, {"sha256", str(f, "sha256")}});
  r["file_count"] = std::to_string(files.size());
  r["has_files"] = !files.empty();
  r["files"] = files;
  J shards = J::array();
  for (const auto& s : list(m, "shards")) {
    const J& sm = at(s, "manifest");
    shards.push_back({{"shard", fmt::format("{}/{}", text(at(s, "index")), text(at(s, "count")))},
                      {"cases", str(s, "cases")},
                      {"path", str(s, "report")},
                      {"date", str(sm, "date_utc")},
                      {"platform", str(sm, "platform")},
                      {"isa", str(sm, "isa")},
                      {"argv", joined(at(sm, "argv"), " ")}});
  }
  r["has_shards"] = !shards.empty();
  r["shard_count"] = std::to_string(shards.size());
  r["shards"] = shards;
}

// Sections a report kind does not have: empty, and their has_ flag false (notes has no flag).
void no_tables(J& r, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    r[k] = J::array();
    if (std::string(k) != "notes") r[std::string("has_") + k] = false;
  }
}

J shard_card(const J& j) {
  const J& s = at(j, "shard");
  if (!s.is_object()) return nullptr;
  return card("shard [Check.shard]", fmt::format("{}/{}", text(at(s, "index")), text(at(s, "count"))));
}

void check_part(J& r, const Input& in, const graph::Model* model, const std::string& graph_note) {
  const J& j = in.json;
  const bool nodewise = str(j, "mode") == "nodewise";
  const bool conforms = flag(j, "conforms");
  const J& s = at(j, "summary");
  r["kind_text"] = std::string(nodewise ? "check, node by node [Check.nodewise]" : "check [Check.cases]") + ", comparison " +
                   str(at(j, "comparison"), "mode") +
                   (str(at(j, "comparison"), "mode") == "ulp" ? " " + str(at(j, "comparison"), "ulp") : "");
  r["verdict_class"] = verdict_class(conforms);
  r["verdict_text"] = conforms ? "CONFORMS" : "DOES NOT CONFORM";
  r["verdict_clause"] = str(j, "clause");
  J counts = J::array();
  counts.push_back(card("cases", at(s, "cases")));
  counts.push_back(card("cases not conforming", at(s, "failing_cases"), num(s, "failing_cases") > 0 ? "fail" : "pass"));
  counts.push_back(card("outputs judged", at(s, "outputs")));
  counts.push_back(card("elements judged", at(s, "elements")));
  counts.push_back(card("elements differing", at(s, "mismatches"), num(s, "mismatches") > 0 ? "fail" : "pass"));
  const J& ns = at(s, "nodes");
  if (nodewise && ns.is_object()) {
    counts.push_back(card("node verdicts", at(ns, "nodes")));
    counts.push_back(card("judged", at(ns, "judged")));
    counts.push_back(card("conform", at(ns, "conforming"), "pass"));
    counts.push_back(card("do not conform", at(ns, "differing"), num(ns, "differing") > 0 ? "fail" : "pass"));
    counts.push_back(card("not judged", at(ns, "not_judged")));
  }
  if (auto sc = shard_card(j); !sc.is_null()) counts.push_back(sc);
  r["counts"] = counts;
  if (nodewise)
    r["verdict_line"] = fmt::format("{} of the {} judged node verdict(s) do not conform; {} of {} judged, {} not judged, over {} case(s)",
                                    num(ns, "differing"), num(ns, "judged"), num(ns, "judged"), num(ns, "nodes"),
                                    num(ns, "not_judged"), num(s, "cases"));
  else
    r["verdict_line"] = fmt::format("{} of {} case(s) do not conform; {} of {} element(s) differ", num(s, "failing_cases"),
                                    num(s, "cases"), num(s, "mismatches"), num(s, "elements"));
  J by = J::array();
  if (at(s, "by_clause").is_object())
    for (const auto& [clause, n] : at(s, "by_clause").items()) by.push_back({{"clause", clause}, {"count", text(n)}});
  r["has_by_clause"] = !by.empty();
  r["by_clause"] = by;
  J ops = J::array();
  if (at(ns, "by_operator").is_object())
    for (const auto& [op, c] : at(ns, "by_operator").items())
      ops.push_back({{"op", op},
                     {"nodes", str(c, "nodes")},
                     {"judged", str(c, "judged")},
                     {"conforming", str(c, "conforming")},
                     {"differing", str(c, "differing")},
                     {"differing_class", num(c, "differing") > 0 ? "fail" : ""},
                     {"not_judged", str(c, "not_judged")}});
  r["has_by_operator"] = !ops.empty();
  r["by_operator"] = ops;
  set_manifest(r, at(j, "manifest"));

  // Matrix rows and findings.
  std::vector<MatrixRow> rows;
  Findings findings;
  AccuracyOutputs accuracy;  // [Acc.report]
  J notes = J::array();
  const bool many = list(j, "cases").size() > 1;
  for (const auto& c : list(j, "cases")) {
    const std::string name = str(c, "name");
    for (const auto& note : list(c, "notes")) notes.push_back((many ? name + ": " : "") + text(note));
    if (nodewise) {
      for (const auto& n : list(at(c, "nodewise"), "nodes")) {
        const std::string status = str(n, "status");
        if (status == "not judged") continue;
        MatrixRow row;
        row.group = str(n, "op_type");
        row.label = many ? name + " · " + str(n, "node") : str(n, "node");
        row.cls = status == "conforms" ? "pass" : "fail";
        row.title = str(n, "node") + ": " + status;
        add_coverage(row, list(n, "coverage"));
        for (const auto& o : list(n, "outputs")) add_failed(row, at(o, "by_clause"));
        rows.push_back(std::move(row));
        for (const auto& o : list(n, "outputs"))
          accuracy.add(name, str(n, "node") + ", output '" + str(o, "name") + "'", o, str(n, "node"), str(n, "op_type"));
        if (status == "differs") {
          if (list(n, "outputs").empty()) findings.add_whole(name, str(n, "node"), str(n, "clause"), str(n, "reason"));
          for (const auto& o : list(n, "outputs")) findings.add_output(name, str(n, "node") + ", output '" + str(o, "name") + "'", o);
        }
      }
      continue;
    }
    // Model mode: one row per case in each node's table.
    std::vector<std::pair<std::string, MatrixRow>> per_node;
    for (const auto& cov : list(c, "coverage")) {
      auto& row = row_for(per_node, str(cov, "node"));
      row.exercised.insert({str(cov, "clause"), str(cov, "situation")});
    }
    std::map<std::string, std::int64_t> failed;
    for (const auto& o : list(c, "outputs"))
      if (at(o, "by_clause").is_object())
        for (const auto& [clause, k] : at(o, "by_clause").items()) failed[clause] += k.is_number() ? k.get<std::int64_t>() : 0;
    for (auto& [label, row] : per_node) {
      row.group = label;
      row.label = name;
      row.cls = flag(c, "conforms") ? "pass" : "fail";
      row.title = name + ": " + str(c, "verdict");
      // The clauses of this node only: an operator's clause names its operator ([Check.coverage]).
      for (const auto& [clause, k] : failed)
        if (clause.rfind(operator_of(label) + ".", 0) == 0) row.failed[clause] = k;
      rows.push_back(std::move(row));
    }
    for (const auto& o : list(c, "outputs")) {
      findings.add_output(name, "output '" + str(o, "name") + "'", o);
      accuracy.add(name, "output '" + str(o, "name") + "'", o);
    }
    for (const auto& n : list(c, "nodes")) {
      const std::string status = str(n, "status");
      if (status == "differs") {
        findings.add_output(name, str(n, "node") + " (on the IUT's own inputs)", at(n, "verdict"));
        accuracy.add(name, str(n, "node") + " (on the IUT's own inputs)", at(n, "verdict"));
      } else if (status == "refused") {
        findings.add_whole(name, str(n, "node"), "", str(n, "detail"));
      }
    }
  }
  r["notes"] = notes;
  r["has_matrix"] = !rows.empty();
  r["matrix"] = matrix_json(rows, nodewise ? "node" : "case");
  r["matrix_note"] = nodewise ? "One row per judged node (per case), one table per operator: the clauses and situations that "
                                "decided its elements (the first 4096 of its first output), and where its findings lie."
                              : "One table per node, one row per case: the clauses and situations that decided the case's "
                                "expected values, and where its findings lie.";
  findings.put(r);
  accuracy.put(r);
  r["findings_note"] =
      fmt::format("{} finding(s) listed: each mismatching element the report lists (the first K per output, --max-listed), "
                  "with the clause that determines its expected value{}.",
                  findings.count(),
                  findings.unlisted > 0 ? fmt::format("; {} more differing element(s) are counted, not listed", findings.unlisted) : "");
  r["no_findings_text"] = "No finding: every output judged conforms.";
  // The graph.
  r["has_graph_section"] = true;
  r["has_graph"] = false;
  r["graph_note"] = graph_note;
  if (model != nullptr) {
    std::string note;
    const auto status = node_statuses(*model, j, note);
    const J g = graph_json(*model, status);
    for (const auto& [k, val] : g.items()) r[k] = val;
    r["has_graph"] = true;
    r["graph_note"] = note.empty() ? graph_note : note;
  }
}

void conformance_part(J& r, const Input& in) {
  const J& j = in.json;
  const J& s = at(j, "summary");
  const std::int64_t failed = num(s, "failed"), passed = num(s, "passed");
  r["kind_text"] = "conformance: test case folders judged bit for bit";
  const bool conforms = failed == 0 && passed > 0;  // [Check.exit]
  r["verdict_class"] = verdict_class(conforms);
  r["verdict_text"] = failed > 0 ? "FAILS" : passed == 0 ? "NO CASE JUDGED" : "PASSES";
  r["verdict_clause"] = "Check.exit";
  r["verdict_line"] = str(s, "line");
  J counts = J::array();
  counts.push_back(card("cases", at(s, "total")));
  counts.push_back(card("passed", at(s, "passed"), "pass"));
  counts.push_back(card("failed", at(s, "failed"), failed > 0 ? "fail" : "pass"));
  counts.push_back(card("not implemented", at(s, "not_implemented")));
  counts.push_back(card("skipped", at(s, "skipped")));
  if (auto sc = shard_card(j); !sc.is_null()) counts.push_back(sc);
  r["counts"] = counts;
  no_tables(r, {"by_clause", "by_operator", "notes"});
  set_manifest(r, at(j, "manifest"));
  std::vector<MatrixRow> rows;
  Findings findings;
  AccuracyOutputs accuracy;  // [Acc.report] the outputs with clause Acc.verdict
  for (const auto& c : list(j, "cases")) {
    const std::string name = str(c, "name"), status = str(c, "status");
    for (const auto& o : list(c, "outputs"))
      accuracy.add(name, str(o, "data_set") + ", output " + (str(o, "name").empty() ? "#" + str(o, "position") : "'" + str(o, "name") + "'"),
                   o);
    std::vector<std::pair<std::string, MatrixRow>> per_op;
    for (const auto& cov : list(c, "coverage"))
      row_for(per_op, operator_of(str(cov, "node"))).exercised.insert({str(cov, "clause"), str(cov, "situation")});
    for (auto& [op, row] : per_op) {
      row.group = op;
      row.label = name;
      row.cls = status == "passed" ? "pass" : status == "failed" ? "fail" : "none";
      row.title = name + ": " + status + (str(c, "message").empty() ? "" : " " + str(c, "message"));
      rows.push_back(std::move(row));
    }
    if (status != "failed") continue;
    bool listed = false;
    for (const auto& o : list(c, "outputs")) {
      const std::string os = str(o, "status");
      if (os == "conforms") continue;
      const std::string where = str(o, "data_set") + ", output " +
                                (str(o, "name").empty() ? "#" + str(o, "position") : "'" + str(o, "name") + "'");
      if (os != "differs" || list(o, "first").empty()) {
        findings.add_whole(name, where, str(o, "clause"), str(o, "message"));
      } else {
        for (const auto& f : list(o, "first")) {
          J g = f;
          g["clauses"] = J::array();
          if (str(o, "clause") == compare::kAccuracyClause)  // [Acc.verdict] a computed output: the case's value is judged, roles swapped
            g["reason"] = "a computed output (Acc.verdict): the case's expected output, here 'actual', lies outside the radius R "
                          "of the reference's ideal; 'expected' is the reference's value (Acc.run). " +
                          str(o, "message") + ". Conformance reports carry no deciding clause: run explain on the case";
          else
            g["reason"] = "the case's expected output differs from the reference's value (" + str(o, "clause") +
                          "); conformance reports carry no deciding clause: run explain on the case";
          findings.add(name, where, g);
        }
        findings.unlisted += std::max<std::int64_t>(0, num(o, "mismatches") - static_cast<std::int64_t>(list(o, "first").size()));
      }
      listed = true;
    }
    if (!listed) findings.add_whole(name, "case", str(at(c, "error"), "clause"), str(c, "message"));
  }
  r["has_matrix"] = !rows.empty();
  r["matrix"] = matrix_json(rows, "case");
  r["matrix_note"] = "One table per operator, one row per case: the clauses and situations that decided the reference's "
                     "values of the case's first data set.";
  findings.put(r);
  accuracy.put(r);
  r["findings_note"] = fmt::format("{} finding(s) listed, each failing case by its first mismatching elements{}.",
                                   findings.count(),
                                   findings.unlisted > 0 ? fmt::format("; {} more differing element(s) counted", findings.unlisted) : "");
  r["no_findings_text"] = "No finding: no case failed.";
  r["has_graph_section"] = false;
}

void golden_part(J& r, const Input& in) {
  const J& j = in.json;
  r["kind_text"] = "golden set manifest [Check.golden]";
  r["verdict_class"] = "none";
  r["verdict_text"] = "GOLDEN SET";
  r["verdict_clause"] = "Check.golden-coverage";
  std::map<std::string, std::int64_t> by_status;
  for (const auto& c : list(j, "coverage")) ++by_status[str(c, "status")];
  std::int64_t drawn = 0, constructed = 0;
  for (const auto& c : list(j, "cases")) (str(c, "made") == "drawn" ? drawn : constructed)++;
  const std::int64_t reachable = by_status["exercised"] + by_status["not built"];
  r["verdict_line"] = fmt::format("{} of {} reachable situation(s) exercised, {} unreachable", by_status["exercised"], reachable,
                                  by_status["unreachable"]);
  J counts = J::array();
  counts.push_back(card("seed", at(j, "seed")));
  counts.push_back(card("cases", std::to_string(list(j, "cases").size())));
  counts.push_back(card("drawn", std::to_string(drawn)));
  counts.push_back(card("constructed", std::to_string(constructed)));
  counts.push_back(card("situations exercised", std::to_string(by_status["exercised"]), "pass"));
  counts.push_back(card("not built", std::to_string(by_status["not built"]), by_status["not built"] > 0 ? "fail" : ""));
  counts.push_back(card("unreachable", std::to_string(by_status["unreachable"])));
  if (auto sc = shard_card(j); !sc.is_null()) counts.push_back(sc);
  r["counts"] = counts;
  no_tables(r, {"by_clause", "by_operator", "notes"});
  const J& tool = at(j, "tool");
  r["has_manifest"] = true;
  J rows = J::array();
  rows.push_back({{"key", "sonnx-ref"}, {"value", str(tool, "sonnx_ref_version")}});
  rows.push_back({{"key", "git revision"}, {"value", str(tool, "git_revision")}});
  rows.push_back({{"key", "spec SHA-256"}, {"value", str(tool, "spec_revision")}});
  rows.push_back({{"key", "seed"}, {"value", str(j, "seed")}});
  rows.push_back({{"key", "options"}, {"value", text(at(j, "options"))}});
  r["manifest_rows"] = rows;
  r["has_files"] = false;
  r["files"] = J::array();
  r["file_count"] = "0";
  r["has_shards"] = false;
  r["shards"] = J::array();
  r["shard_count"] = "0";
  std::vector<MatrixRow> mrows;
  for (const auto& c : list(j, "cases")) {
    std::vector<std::pair<std::string, MatrixRow>> per_node;
    for (const auto& e : list(c, "exercised"))
      row_for(per_node, str(e, "node")).exercised.insert({str(e, "clause"), str(e, "situation")});
    for (auto& [label, row] : per_node) {
      row.group = label;
      row.label = str(c, "name") + (str(c, "made") == "drawn" ? "" : " (" + str(c, "made") + ")");
      row.cls = "pass";
      row.title = str(c, "name") + ": " + str(c, "made");
      mrows.push_back(std::move(row));
    }
  }
  r["has_matrix"] = !mrows.empty();
  r["matrix"] = matrix_json(mrows, "case");
  r["matrix_note"] = "One table per node, one row per case: the situations each case exercises, with the witness the "
                     "manifest names for each. A golden set carries no verdict: judge an implementation with check.";
  J golden = J::array();
  for (const auto& c : list(j, "coverage")) {
    const std::string status = str(c, "status");
    golden.push_back({{"node", str(c, "node")},
                      {"clause", str(c, "clause")},
                      {"situation", str(c, "situation")},
                      {"status", status},
                      {"cls", status == "exercised" ? "pass" : status == "not built" ? "fail" : "none"},
                      {"where", status == "exercised" ? str(c, "case") : str(c, "why")}});
  }
  r["has_golden"] = !golden.empty();
  r["golden"] = golden;
  r["has_findings"] = false;
  r["findings"] = J::array();
  r["no_findings_text"] = "A golden set has no findings: it holds the cases and their expected values.";
  r["has_graph_section"] = false;
}

void golden_nodes_part(J& r, const Input& in) {
  const J& j = in.json;
  const J& s = at(j, "summary");
  r["kind_text"] = "per-node golden folders [Check.golden-nodes]";
  r["verdict_class"] = "none";
  r["verdict_text"] = "GOLDEN SETS";
  r["verdict_clause"] = "Check.golden-nodes";
  r["verdict_line"] = fmt::format("{} of {} reachable situation(s) exercised over {} node(s) written", num(s, "exercised"),
                                  num(s, "reachable"), num(s, "written"));
  J counts = J::array();
  counts.push_back(card("nodes", at(s, "nodes")));
  counts.push_back(card("folders written", at(s, "written")));
  counts.push_back(card("situations reachable", at(s, "reachable")));
  counts.push_back(card("exercised", at(s, "exercised"), "pass"));
  r["counts"] = counts;
  no_tables(r, {"by_clause", "by_operator", "notes", "files", "shards"});
  r["file_count"] = r["shard_count"] = "0";
  const J& tool = at(j, "tool");
  r["has_manifest"] = true;
  r["manifest_rows"] = J::array({J{{"key", "sonnx-ref"}, {"value", str(tool, "sonnx_ref_version")}},
                                 J{{"key", "git revision"}, {"value", str(tool, "git_revision")}},
                                 J{{"key", "spec SHA-256"}, {"value", str(tool, "spec_revision")}},
                                 J{{"key", "options"}, {"value", text(at(j, "options"))}}});
  J nodes = J::array();
  for (const auto& n : list(j, "nodes")) {
    const J& sit = at(n, "situations");
    const std::string status = str(n, "status");
    nodes.push_back({{"node", str(n, "node")},
                     {"status", status},
                     {"cls", status == "written" ? "pass" : "none"},
                     {"folder", str(n, "folder")},
                     {"cases", str(n, "cases")},
                     {"reachable", str(sit, "reachable")},
                     {"exercised", str(sit, "exercised")},
                     {"not_built", str(sit, "not_built")},
                     {"unreachable", str(sit, "unreachable")},
                     {"why", str(n, "reason").empty() ? str(n, "why") : str(n, "reason")}});
  }
  r["has_golden_nodes"] = !nodes.empty();
  r["golden_nodes"] = nodes;
  r["has_matrix"] = false;
  r["matrix"] = J::array();
  r["has_findings"] = false;
  r["findings"] = J::array();
  r["no_findings_text"] = "Golden sets have no findings: they hold cases and expected values.";
  r["has_graph_section"] = false;
}

}  // namespace

std::optional<bool> verdict_of(const Input& in) {
  switch (in.kind) {
    case Kind::Check: return flag(in.json, "conforms");
    case Kind::Conformance: {
      const J& s = at(in.json, "summary");
      return num(s, "failed") == 0 && num(s, "passed") > 0;
    }
    default: return std::nullopt;
  }
}

namespace {

// ---------------------------------------------------------------------------------------------
// JSON view -> the template library's data. Numbers are already text in the view; a boolean is a
// Mustache boolean; nothing is escaped here (the template's variable tags escape).

mu::data to_data(const J& j) {
  switch (j.type()) {
    case J::value_t::object: {
      mu::data d{mu::data::type::object};
      for (const auto& [k, v] : j.items()) d[k] = to_data(v);
      return d;
    }
    case J::value_t::array: {
      mu::list l;
      l.reserve(j.size());
      for (const auto& v : j) l.push_back(to_data(v));
      return mu::data{std::move(l)};
    }
    case J::value_t::boolean: return mu::data{j.get<bool>()};
    case J::value_t::null: return mu::data{false};
    default: return mu::data{text(j)};
  }
}

}  // namespace

const std::string& template_text() {
  static const std::string t(kTemplate);
  return t;
}

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::Check: return "check";
    case Kind::Conformance: return "conformance";
    case Kind::Golden: return "golden manifest";
    case Kind::GoldenNodes: return "golden --nodes list";
  }
  return "?";
}

Kind kind_of(const J& j, const std::string& path) {
  if (!j.is_object()) refuse("Check.report.input", "'{}' is JSON but not a report of sonnx-ref (not an object)", path);
  const std::string command = str(j, "command");
  if (command == "check" && at(j, "cases").is_array() && at(j, "summary").is_object()) return Kind::Check;
  if ((command == "conformance" || command.empty()) && at(j, "cases").is_array() && at(j, "summary").is_object() &&
      at(at(j, "summary"), "line").is_string())
    return Kind::Conformance;
  if (str(j, "clause") == "Check.golden-nodes" && at(j, "nodes").is_array()) return Kind::GoldenNodes;
  if (at(j, "tool").is_object() && at(j, "cases").is_array() && at(j, "coverage").is_array()) return Kind::Golden;
  if (command == "run")
    refuse("Check.report.input", "'{}' is a report of sonnx-ref run: it holds outputs and no verdict to show", path);
  refuse("Check.report.input",
         "'{}' is not a report sonnx-ref report reads (check --report, conformance --report, a golden manifest.json, "
         "golden --nodes' nodes.json, or report --merge's output)",
         path);
}

Input read_input(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) io_failure("Check.report.input", "report '{}' does not exist", path);
  if (fs::is_directory(path, ec)) io_failure("Check.report.input", "'{}' is a folder, not a JSON report", path);
  std::ifstream f(path, std::ios::binary);
  if (!f) io_failure("Check.report.input", "cannot read the report '{}'", path);
  std::stringstream buffer;
  buffer << f.rdbuf();
  if (f.bad()) io_failure("Check.report.input", "error while reading the report '{}'", path);
  Input in;
  in.path = path;
  try {
    in.json = J::parse(buffer.str());
  } catch (const J::parse_error& e) {
    refuse("Check.report.input", "'{}' is not JSON: {}", path, e.what());
  }
  in.kind = kind_of(in.json, path);
  return in;
}

std::string model_for(const Input& in, const std::string& model_path, std::string& why) {
  why.clear();
  if (in.kind != Kind::Check) return "";
  const J& files = list(at(in.json, "manifest"), "files");
  const std::string recorded = files.empty() ? "" : str(files[0], "path");
  const std::string sha = files.empty() ? "" : str(files[0], "sha256");
  auto same = [&](const std::string& p) {
    try {
      return sha.empty() || report::sha256_file(p) == sha;
    } catch (const SpecError&) {
      return false;
    }
  };
  std::error_code ec;
  if (!model_path.empty()) {
    if (!same(model_path)) {
      why = fmt::format("--model '{}' is not the model this report was made on (its SHA-256 is not the manifest's '{}'): "
                        "no graph drawn.", model_path, recorded);
      return "";
    }
    return model_path;
  }
  if (recorded.empty()) {
    why = "The report's manifest names no model: give --model MODEL.onnx to draw the graph.";
    return "";
  }
  for (const fs::path& p : {fs::path(recorded), fs::path(in.path).parent_path() / recorded})
    if (fs::is_regular_file(p, ec) && same(p.string())) return p.string();
  why = fmt::format("The model '{}' of the manifest is not here with its recorded SHA-256: give --model MODEL.onnx to draw "
                    "the graph.", recorded);
  return "";
}

J view(const std::vector<Input>& inputs, const std::vector<const graph::Model*>& models,
       const std::vector<std::string>& graph_notes) {
  J v;
  const auto rev = report::revisions();
  v["tool_version"] = text(rev["sonnx_ref_version"]);
  v["tool_revision"] = text(rev["git_revision"]);
  v["spec_revision"] = text(rev["spec_revision"]);
  v["spec_version"] = text(report::manifest({}, {})["spec_version"]);
  J reports = J::array();
  bool any = false, all = true;
  std::size_t failing = 0, judged = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Input& in = inputs[i];
    J r;
    r["id"] = fmt::format("report-{}", i + 1);
    r["path"] = in.path;
    r["heading"] = fmt::format("{} · {}", kind_name(in.kind), fs::path(in.path).filename().string());
    r["has_golden"] = false;
    r["golden"] = J::array();
    r["has_golden_nodes"] = false;
    r["golden_nodes"] = J::array();
    for (const char* k : {"accuracy", "accuracy_nodes", "plain_findings", "accuracy_findings"}) r[std::string("has_") + k] = false;
    r["verdict_line"] = "";
    r["graph_note"] = "";
    switch (in.kind) {
      case Kind::Check: check_part(r, in, i < models.size() ? models[i] : nullptr, i < graph_notes.size() ? graph_notes[i] : ""); break;
      case Kind::Conformance: conformance_part(r, in); break;
      case Kind::Golden: golden_part(r, in); break;
      case Kind::GoldenNodes: golden_nodes_part(r, in); break;
    }
    for (const char* k : {"verdict_clause", "verdict_line", "graph_note"})
      r[std::string("has_") + k] = !text(at(r, k)).empty();
    if (const auto verdict = verdict_of(in)) {
      any = true;
      ++judged;
      all = all && *verdict;
      failing += !*verdict;
    }
    reports.push_back(std::move(r));
  }
  v["title"] = inputs.size() == 1 ? "sonnx-ref report: " + fs::path(inputs[0].path).filename().string()
                                  : fmt::format("sonnx-ref report: {} reports", inputs.size());
  v["overall_class"] = !any ? "none" : all ? "pass" : "fail";
  v["overall_text"] = !any ? "NO VERDICT" : all ? "CONFORMS" : "DOES NOT CONFORM";
  v["overall_detail"] = !any ? "golden sets only: no implementation judged"
                             : fmt::format("{} of {} verdict(s) do not conform [Check.report.html]", failing, judged);
  v["reports"] = reports;
  return v;
}

std::string render(const J& view) {
  mu::mustache tmpl{template_text()};
  if (!tmpl.is_valid()) throw std::runtime_error("the HTML report template does not parse: " + tmpl.error_message());
  const mu::data d = to_data(view);
  std::string out = tmpl.render(d);
  if (!tmpl.is_valid()) throw std::runtime_error("the HTML report template failed to render: " + tmpl.error_message());
  return out;
}

}  // namespace sonnx::html_report
