// [Check.report.merge] The pieces of a sharded campaign ([Check.shard], [Check.shard.report]) put back
// together into the report of the unsharded run.
#include "oracle/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "oracle/report.hpp"

namespace sonnx::merge {

namespace {

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;
using html_report::Input;
using html_report::Kind;

const J& at(const J& j, const char* key) {
  static const J null;
  if (!j.is_object()) return null;
  const auto it = j.find(key);
  return it == j.end() ? null : *it;
}

// What a piece says of itself ([Check.shard.report]); a report without `shard` is the whole run (1/1).
struct Piece {
  const Input* input = nullptr;
  std::size_t index = 1, count = 1, total = 0;
  std::vector<std::size_t> positions;
};

std::size_t natural(const J& v, const std::string& path, const char* what) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    refuse("Check.report.merge", "'{}': shard.{} is not a non-negative integer [Check.shard.report]", path, what);
  return v.get<std::size_t>();
}

Piece piece_of(const Input& in) {
  Piece p;
  p.input = &in;
  const J& cases = at(in.json, "cases");
  const J& s = at(in.json, "shard");
  if (s.is_null()) {  // the unsharded run: the one piece of 1
    p.total = cases.size();
    for (std::size_t i = 0; i < cases.size(); ++i) p.positions.push_back(i);
    return p;
  }
  if (!s.is_object()) refuse("Check.report.merge", "'{}': 'shard' is not an object [Check.shard.report]", in.path);
  p.index = natural(at(s, "index"), in.path, "index");
  p.count = natural(at(s, "count"), in.path, "count");
  p.total = natural(at(s, "total"), in.path, "total");
  if (p.count < 1 || p.index < 1 || p.index > p.count)
    refuse("Check.report.merge", "'{}': shard {}/{} is not a piece K/N with 1 <= K <= N [Check.shard]", in.path, p.index, p.count);
  const J& names = at(s, "cases");
  const J& positions = at(s, "positions");
  if (!names.is_array() || !positions.is_array() || names.size() != positions.size() || names.size() != cases.size())
    refuse("Check.report.merge", "'{}': shard.cases, shard.positions and the report's {} case(s) do not match [Check.shard.report]",
           in.path, cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::size_t pos = natural(positions[i], in.path, "positions");
    if (pos >= p.total || pos % p.count != p.index - 1)  // [Check.shard] position p is in piece (p mod N) + 1
      refuse("Check.report.merge", "'{}': position {} is not one of piece {}/{} of {} case(s) [Check.shard]", in.path, pos, p.index,
             p.count, p.total);
    if (names[i] != at(cases[i], "name"))
      refuse("Check.report.merge", "'{}': shard.cases[{}] is not the name of the report's case {} [Check.shard.report]", in.path, i, i);
    p.positions.push_back(pos);
  }
  return p;
}

// The fields that identify the build and the specification a report was made with.
J revisions_of(const Input& in) {
  if (in.kind == Kind::Golden) return at(in.json, "tool");
  const J& m = at(in.json, "manifest");
  J r = J::object();
  for (const char* k : {"tool", "sonnx_ref_version", "git_revision", "spec_revision", "spec_version"}) r[k] = at(m, k);
  return r;
}

// Sum of two summaries: numbers added, objects merged key by key, anything else kept from the first.
// The keys keep their order of first appearance; a map whose keys are sorted in both (by_clause,
// by_operator: written from ordered maps) stays sorted.
J add(const J& a, const J& b) {
  if (a.is_number_unsigned() && b.is_number_unsigned()) return a.get<std::uint64_t>() + b.get<std::uint64_t>();
  if (a.is_number_integer() && b.is_number_integer()) return a.get<std::int64_t>() + b.get<std::int64_t>();
  if (a.is_number() && b.is_number()) return a.get<double>() + b.get<double>();
  if (!a.is_object() || !b.is_object()) return a;
  auto sorted = [](const J& o) {
    const std::string* last = nullptr;
    for (const auto& [k, v] : o.items()) {
      if (last != nullptr && !(*last < k)) return false;
      last = &k;
    }
    return true;
  };
  J out = a;
  for (const auto& [k, v] : b.items()) out[k] = a.contains(k) ? add(a.at(k), v) : v;
  if (sorted(a) && sorted(b)) {
    J s = J::object();
    std::vector<std::string> keys;
    for (const auto& [k, v] : out.items()) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys) s[k] = out[k];
    return s;
  }
  return out;
}

// Whether `file` (a path of a manifest) belongs to case `c`: below the case's folder (conformance) or
// in a folder, or a .npz, named as the case (check's test_data_set_K).
bool belongs(const std::string& file, const J& c) {
  if (const J& path = at(c, "path"); path.is_string()) {
    const std::string dir = path.get<std::string>();
    if (!dir.empty() && file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 && file[dir.size()] == '/') return true;
  }
  const J& name = at(c, "name");
  if (!name.is_string() || name.get<std::string>().empty()) return false;
  const std::string n = name.get<std::string>();
  const fs::path p(file);
  for (const auto& part : p.parent_path())
    if (part == n) return true;
  return p.filename() == n + ".npz";
}

// The files of the unsharded manifest: the files every piece read first (the model), then each
// case's files in the unsharded order. nullopt when the files cannot be told apart by case.
std::optional<J> merged_files(const std::vector<Piece>& pieces, std::size_t total) {
  std::optional<J> common;
  std::vector<J> per_case(total, J::array());
  for (const auto& p : pieces) {
    const J& files = at(at(p.input->json, "manifest"), "files");
    const J& cases = at(p.input->json, "cases");
    if (!files.is_array()) return std::nullopt;
    std::size_t f = 0;
    J head = J::array();
    while (f < files.size() && (cases.empty() || !belongs(at(files[f], "path").get<std::string>(), cases[0]))) head.push_back(files[f++]);
    if (!common) common = head;
    else if (*common != head) return std::nullopt;
    std::size_t c = 0;
    for (; f < files.size(); ++f) {
      const std::string path = at(files[f], "path").is_string() ? at(files[f], "path").get<std::string>() : "";
      while (c < cases.size() && !belongs(path, cases[c])) ++c;
      if (c == cases.size()) return std::nullopt;
      per_case[p.positions[c]].push_back(files[f]);
    }
  }
  J out = common.value_or(J::array());
  for (auto& files : per_case)
    for (auto& f : files) out.push_back(std::move(f));
  return out;
}

// [Check.exit] conformance: the closing line (as cmd_conformance writes it).
std::string conformance_line(const J& s) {
  auto n = [&](const char* k) { return at(s, k).is_number() ? at(s, k).get<std::int64_t>() : 0; };
  std::string line = fmt::format("{} passed, {} failed", n("passed"), n("failed"));
  if (n("not_implemented") > 0) line += fmt::format(", {} not implemented", n("not_implemented"));
  if (n("skipped") > 0) line += fmt::format(", {} skipped", n("skipped"));
  return line;
}

}  // namespace

Merged merge(const std::vector<Input>& inputs, const std::vector<std::string>& argv) {
  if (inputs.empty()) usage_error("report --merge needs the report of every piece");
  const Kind kind = inputs.front().kind;
  for (const auto& in : inputs) {
    if (in.kind == Kind::GoldenNodes)
      refuse("Check.report.merge", "'{}' is golden --nodes' list: golden --nodes is not sharded [Check.shard]", in.path);
    if (in.kind != kind)
      refuse("Check.report.merge", "'{}' is a {} report and '{}' a {} report: the pieces of one campaign are of one command",
             inputs.front().path, html_report::kind_name(kind), in.path, html_report::kind_name(in.kind));
  }
  std::vector<Piece> pieces;
  for (const auto& in : inputs) pieces.push_back(piece_of(in));
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.index < b.index; });
  const std::size_t count = pieces.front().count, total = pieces.front().total;
  const J revisions = revisions_of(*pieces.front().input);
  // The fields that are neither the cases, nor their counts, nor where the piece was run: the
  // command's options; equal in every piece of one campaign.
  const std::set<std::string> per_piece = {"cases", "summary", "manifest", "shard", "verdict", "conforms"};
  for (const auto& p : pieces) {
    if (p.count != count || p.total != total)
      refuse("Check.report.merge", "'{}' is piece {}/{} of {} case(s), '{}' piece {}/{} of {}: not one campaign [Check.shard]",
             pieces.front().input->path, pieces.front().index, count, total, p.input->path, p.index, p.count, p.total);
    if (revisions_of(*p.input) != revisions)
      refuse("Check.report.merge", "'{}' and '{}' were made by different builds of sonnx-ref or specifications: {} against {}",
             pieces.front().input->path, p.input->path, revisions.dump(), revisions_of(*p.input).dump());
    const J& first = pieces.front().input->json;
    for (const auto& [k, v] : p.input->json.items())
      if (!per_piece.count(k) && (!first.contains(k) || first.at(k) != v))
        refuse("Check.report.merge", "'{}' and '{}' differ in '{}': pieces of one campaign are run with the same options",
               pieces.front().input->path, p.input->path, k);
    for (const auto& [k, v] : first.items())
      if (!per_piece.count(k) && !p.input->json.contains(k))
        refuse("Check.report.merge", "'{}' has no '{}', which '{}' has", p.input->path, k, pieces.front().input->path);
    // The modes a summary records (conformance's nan_payload) are options too; its counts are not.
    for (const auto& [k, v] : at(p.input->json, "summary").items())
      if (v.is_string() && k != "line" && at(at(first, "summary"), k.c_str()) != v)
        refuse("Check.report.merge", "'{}' and '{}' differ in summary.{}: pieces of one campaign are run with the same options",
               pieces.front().input->path, p.input->path, k);
  }
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (i > 0 && pieces[i].index == pieces[i - 1].index)
      refuse("Check.report.merge", "piece {}/{} is given twice ('{}', '{}')", pieces[i].index, count,
             pieces[i - 1].input->path, pieces[i].input->path);
  if (pieces.size() != count) {
    std::string missing;
    std::size_t k = 0;
    for (std::size_t index = 1; index <= count; ++index) {
      if (k < pieces.size() && pieces[k].index == index) {
        ++k;
        continue;
      }
      missing += (missing.empty() ? "" : ", ") + fmt::format("{}/{}", index, count);
    }
    refuse("Check.report.merge", "piece(s) {} missing: the merge of a campaign needs all {} of them", missing, count);
  }
  // The cases at their positions.
  std::vector<const J*> at_position(total, nullptr);
  for (const auto& p : pieces) {
    const J& cases = at(p.input->json, "cases");
    for (std::size_t i = 0; i < p.positions.size(); ++i) at_position[p.positions[i]] = &cases[i];
  }
  for (std::size_t pos = 0; pos < total; ++pos)
    if (at_position[pos] == nullptr)
      refuse("Check.report.merge", "no piece holds the case at position {} of {} [Check.shard]", pos, total);

  Merged m;
  J out = J::object();
  const J& first = pieces.front().input->json;
  J summary = at(first, "summary");
  for (std::size_t i = 1; i < pieces.size(); ++i) summary = add(summary, at(pieces[i].input->json, "summary"));
  bool conforms = true;
  for (const auto& p : pieces) conforms = conforms && at(p.input->json, "conforms").is_boolean() && at(p.input->json, "conforms").get<bool>();
  for (const auto& [k, v] : first.items()) {
    if (k == "shard") continue;  // the whole run has none ([Check.shard.report])
    if (k == "cases") {
      J cases = J::array();
      for (const J* c : at_position) cases.push_back(*c);
      out[k] = std::move(cases);
    } else if (k == "summary") {
      out[k] = summary;
    } else if (k == "conforms" && kind == Kind::Check) {
      out[k] = conforms;  // [Check.cases] every case conforms
    } else if (k == "verdict" && kind == Kind::Check) {
      out[k] = conforms ? "conforms" : "does not conform";
    } else if (k == "manifest" && v.is_object()) {
      J manifest = v;
      if (const auto files = merged_files(pieces, total)) manifest["files"] = *files;
      else {  // files that cannot be told apart by case: every piece's, in the order of the pieces
        J all = J::array();
        for (const auto& p : pieces)
          for (const auto& f : at(at(p.input->json, "manifest"), "files"))
            if (std::find(all.begin(), all.end(), f) == all.end()) all.push_back(f);
        manifest["files"] = all;
      }
      if (manifest.contains("date_utc")) manifest["date_utc"] = report::manifest({}, {})["date_utc"];
      if (manifest.contains("argv")) manifest["argv"] = argv;
      J shards = J::array();
      for (const auto& p : pieces)
        shards.push_back({{"index", p.index},
                          {"count", p.count},
                          {"report", p.input->path},
                          {"cases", p.positions.size()},
                          {"manifest", at(p.input->json, "manifest")}});
      manifest["shards"] = shards;  // [Check.report.merge] the pieces' manifests listed
      out[k] = std::move(manifest);
    } else {
      out[k] = v;
    }
  }
  if (kind == Kind::Conformance && out.contains("summary") && out["summary"].is_object()) {
    out["summary"]["line"] = conformance_line(out["summary"]);
    const J& s = out["summary"];
    const std::int64_t failed = at(s, "failed").is_number() ? at(s, "failed").get<std::int64_t>() : 0;
    const std::int64_t passed = at(s, "passed").is_number() ? at(s, "passed").get<std::int64_t>() : 0;
    m.conforms = failed == 0 && passed > 0;  // [Check.exit]
  } else if (kind == Kind::Check) {
    m.conforms = conforms;
  }
  m.summary = fmt::format("{} piece(s) of {}, {} case(s): {}", pieces.size(), count, total,
                          !m.conforms ? "golden manifest" : *m.conforms ? "CONFORMS" : "DOES NOT CONFORM");
  m.json = std::move(out);
  return m;
}

}  // namespace sonnx::merge
