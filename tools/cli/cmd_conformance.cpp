// sonnx-ref conformance PATH... : runs ONNX backend node test cases (model.onnx +
// test_data_set_N/{input,output}_K.pb) in one process and judges the reference's outputs against the
// cases' expected outputs by spec/common/check.md ([Check.bitwise] [Check.shape] [Check.missing]
// [Check.verdict]). Also the batch mode of large campaigns. The library does the work (src/graph,
// src/io, src/oracle/compare); this file finds cases, runs them and reports.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "oracle/chain.hpp"
#include "oracle/coverage.hpp"
#include "core/error.hpp"
#include "graph/model.hpp"
#include "io/io.hpp"
#include "oracle/check.hpp"
#include "oracle/compare.hpp"
#include "oracle/report.hpp"
#include "oracle/shard.hpp"
#include "progress.hpp"

#include "ops/elementary.hpp"

namespace sonnx::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;  // report::write_json takes nlohmann::json

struct ConformanceOptions {
  std::vector<std::string> paths;
  std::string filter, report, junit, nan_payload = "any", shard, elementary_ulps;
  bool quiet = false, progress = false, assume_opset_reviewed = false, no_timings = false, sharded = false;
  compare::Options compare;  // [Check.bitwise]; nan_payload_strict from --nan-payload
  int jobs = 1;
  std::vector<std::string> argv;
};

// ---------------------------------------------------------------------------------------------
// Finding cases

struct CaseDir {
  std::string name;  // folder name, e.g. test_max_example
  fs::path path;
  std::size_t position = 0;  // [Check.shard] in the order of the unsharded run
};

bool is_case(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::is_regular_file(dir / "model.onnx", ec);
}

// A PATH is a case folder, or a folder whose direct subfolders include case folders (sorted by name;
// other entries are ignored). Anything else is refused.
std::vector<CaseDir> cases_of(const std::string& arg) {
  const fs::path p(arg);
  std::error_code ec;
  if (!fs::exists(p, ec)) io_failure("IO.testdata.folder", "'{}' does not exist", arg);
  if (is_case(p)) return {{p.lexically_normal().filename().string(), p}};
  if (!fs::is_directory(p, ec))
    refuse("IO.testdata.folder", "'{}' is not a folder (give a test case folder or a folder of them)", arg);
  std::vector<CaseDir> out;
  for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
    if (is_case(it->path())) out.push_back({it->path().filename().string(), it->path()});
  if (ec) refuse("IO.testdata.folder", "'{}': cannot list: {}", arg, ec.message());
  if (out.empty())
    refuse("IO.testdata.folder",
           "'{}' is neither a test case folder (model.onnx + test_data_set_N/) nor a folder of them", arg);
  std::sort(out.begin(), out.end(), [](const CaseDir& a, const CaseDir& b) { return a.name < b.name; });
  return out;
}

// The test_data_set_N subfolders of a case, in increasing N.
std::vector<fs::path> data_sets_of(const fs::path& dir) {
  static const std::regex pattern("test_data_set_([0-9]{1,9})");
  std::vector<std::pair<long, fs::path>> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string file = it->path().filename().string();
    if (it->is_directory(ec) && std::regex_match(file, m, pattern)) found.emplace_back(std::stol(m[1]), it->path());
  }
  if (ec) refuse("IO.testdata.folder", "'{}': cannot list: {}", dir.string(), ec.message());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& [n, path] : found) out.push_back(std::move(path));
  return out;
}

// The ID held by the case's `expected_error` file ("Max.err.broadcast" or "[Max.err.broadcast]"),
// if the file exists: the case is then a negative case.
std::optional<std::string> expected_error_of(const fs::path& dir) {
  const fs::path file = dir / "expected_error";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file);
  std::string id;
  in >> id;
  if (id.size() >= 2 && id.front() == '[' && id.back() == ']') id = id.substr(1, id.size() - 2);
  if (id.empty()) refuse("IO.testdata.folder", "'{}' is empty (it must hold the expected spec ID)", file.string());
  return id;
}

// ---------------------------------------------------------------------------------------------
// Running one case

// [Check.not-implemented] NotImplemented: the model uses an operator or version sonnx-ref does not have.
enum class Status { Passed, Failed, Skipped, NotImplemented };

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Passed: return "passed";
    case Status::Failed: return "failed";
    case Status::NotImplemented: return "not implemented";
    default: return "skipped";
  }
}

// A refusal (or any other exception) met while loading or running.
struct Refusal {
  std::string id;       // empty for an internal error
  std::string message;  // "error: [ID] ..."
};

// The verdict on one output of one data set.
struct OutputVerdict {
  std::string data_set;
  std::size_t position = 0;  // K of output_K.pb
  std::string name;          // graph output name (empty for an extra expected output)
  std::string status;        // conforms, differs, shape, missing, extra (as check's reports)
  std::string id;            // the Check clause that judged it
  std::int64_t elements = 0;
  compare::Result result;
  std::string detail;        // the sentence of the FAIL line
};

struct DataSetRun {
  std::string name;
  std::string failure;  // empty = passed
  double seconds = 0;
};

struct CaseResult {
  CaseDir dir;
  Status status = Status::Passed;
  std::string detail;  // the text after "FAIL name: " / "SKIP name: " / "PASS name "
  std::optional<std::string> expected_error;
  std::optional<Refusal> error;
  std::vector<OutputVerdict> outputs;
  std::vector<DataSetRun> data_sets;
  std::vector<std::string> files;  // model and data files, for the manifest
  std::vector<coverage::NodeCoverage> coverage;  // [Check.coverage] of the first data set run
  double seconds = 0;
  std::size_t position = 0;  // [Check.shard] in the unsharded order
  // [Check.nan-payload.any] elements that differ only in NaN payload (under [Check.nan-payload.strict]
  // they are mismatches)
  std::int64_t nan_payload_only() const {
    std::int64_t n = 0;
    for (const auto& v : outputs) n += v.result.nan_payload_only;
    return n;
  }
};

// Runs `f`; a SpecError or any other exception becomes a Refusal.
template <class F> std::optional<Refusal> attempt(F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const SpecError& e) {
    return Refusal{e.id(), e.report()};
  } catch (const std::bad_alloc&) {
    return Refusal{"Common.tensor.size-limit", "error: [Common.tensor.size-limit] out of memory"};
  } catch (const std::exception& e) {
    return Refusal{"", std::string("error: internal: ") + e.what()};
  }
}

std::string index_text(const std::vector<std::int64_t>& index) {
  std::string out = "[";
  for (std::size_t k = 0; k < index.size(); ++k) out += (k ? "," : "") + std::to_string(index[k]);
  return out + "]";
}

// [Check.missing] output_K.pb is the K-th graph output; [Check.shape] then [Check.bitwise] per output,
// NaNs as --nan-payload says ([Check.nan-payload.strict], [Check.nan-payload.any]).
std::vector<OutputVerdict> judge(const std::string& data_set, const std::vector<io::NamedTensor>& expected,
                                 const std::vector<io::NamedTensor>& actual, const compare::Options& options) {
  std::vector<OutputVerdict> out;
  const std::size_t n = std::max(expected.size(), actual.size());
  for (std::size_t k = 0; k < n; ++k) {
    OutputVerdict v;
    v.data_set = data_set;
    v.position = k;
    if (k >= expected.size()) {
      v.name = actual[k].name;
      v.status = "missing";
      v.id = "Check.missing";
      v.detail = fmt::format("output '{}' has no expected value (no output_{}.pb)", v.name, k);
    } else if (k >= actual.size()) {
      v.status = "extra";
      v.id = "Check.missing";
      v.detail = fmt::format("output_{}.pb names no graph output (the model has {} output{})", k, actual.size(),
                             actual.size() == 1 ? "" : "s");
    } else {
      v.name = actual[k].name;
      v.elements = expected[k].tensor.size();
      // [Acc.verdict] a computed output: the case's expected output is an evaluation like an IUT's, judged
      // against the reference's ideal and radius; otherwise [Check.bitwise], the reference against the case
      const bool computed = actual[k].tensor.annex != nullptr;
      v.result = computed ? compare::compare(actual[k].tensor, expected[k].tensor, options)
                          : compare::compare(expected[k].tensor, actual[k].tensor, options);
      if (!v.result.structural.empty()) {
        v.status = "shape";
        v.id = "Check.shape";
        v.detail = fmt::format("output '{}' {}", v.name, v.result.structural);
      } else if (v.result.mismatches > 0 && computed) {  // [Acc.verdict] the case's value outside the bound
        const auto& m = v.result.first.front();
        v.status = "differs";
        v.id = compare::kAccuracyClause;
        v.detail = fmt::format("output '{}' {} of {} element{} outside their bound; first {}: the case's {} ({}), ideal {:.9g}, "
                               "radius {:.3g}, error {:.3g} of the radius", v.name, v.result.mismatches, v.elements,
                               v.elements == 1 ? "" : "s", index_text(m.index), m.actual, m.actual_bits, m.accuracy->ideal,
                               m.accuracy->radius, m.accuracy->fraction);
      } else if (v.result.mismatches > 0) {
        const auto& m = v.result.first.front();
        v.status = "differs";
        v.id = "Check.bitwise";
        v.detail = fmt::format("output '{}' {} of {} element{} differ{}; first {} expected {} ({}) got {} ({})", v.name,
                               v.result.mismatches, v.elements, v.elements == 1 ? "" : "s",
                               // [Check.nan-payload.strict] how many only in NaN payload
                               v.result.nan_payload_only > 0
                                   ? fmt::format(" ({} only in NaN payload [Check.nan-payload.strict])",
                                                 v.result.nan_payload_only)
                                   : std::string(),
                               index_text(m.index), m.expected, m.expected_bits, m.actual, m.actual_bits);
      } else {
        v.status = "conforms";
        v.id = computed ? compare::kAccuracyClause : "Check.bitwise";
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

void add_files(CaseResult& r, const fs::path& data_set) {
  std::error_code ec;
  std::vector<std::string> pbs;
  for (fs::directory_iterator it(data_set, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".pb") pbs.push_back(it->path().string());
  std::sort(pbs.begin(), pbs.end());
  r.files.insert(r.files.end(), pbs.begin(), pbs.end());
}

// Loads the model, then runs and judges every data set. A negative case (expected_error) passes
// when the model or every data set is refused with exactly the expected ID.
CaseResult run_case(const CaseDir& dir, const graph::LoadOptions& load, const compare::Options& options) {
  const auto start = Clock::now();
  CaseResult r;
  r.dir = dir;
  r.files.push_back((dir.path / "model.onnx").string());
  auto finish = [&](Status s, std::string detail) {
    r.status = s;
    r.detail = std::move(detail);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(r);
  };
  std::vector<fs::path> data_sets;
  if (auto e = attempt([&] {
        r.expected_error = expected_error_of(dir.path);
        data_sets = data_sets_of(dir.path);
      }))
    return finish(Status::Failed, "malformed case: " + e->message);
  for (const auto& d : data_sets) add_files(r, d);
  const std::string expect = r.expected_error.value_or("");  // the ID of a negative case

  std::optional<graph::Model> model;
  if (auto e = attempt([&] { model.emplace(graph::Model::load((dir.path / "model.onnx").string(), load)); })) {
    r.error = e;
    r.data_sets.push_back({"model", e->message, 0});
    if (r.expected_error && e->id == expect) {
      r.data_sets.back().failure.clear();
      return finish(Status::Passed, fmt::format("(refused with [{}])", expect));
    }
    if (!r.expected_error && check::not_implemented(e->id))
      return finish(Status::NotImplemented, e->message);
    if (r.expected_error) return finish(Status::Failed, fmt::format("expected refusal [{}], got {}", expect, e->message));
    return finish(Status::Failed, e->message);
  }
  if (data_sets.empty()) {
    if (r.expected_error)
      return finish(Status::Failed,
                    fmt::format("expected refusal [{}], but the model loaded and there is no test_data_set_N", expect));
    return finish(Status::Skipped, "no test_data_set_N folder");
  }

  std::string first_failure, chain_not_judged;
  std::size_t failing = 0;
  for (const auto& d : data_sets) {
    const auto ds_start = Clock::now();
    const std::string ds = d.filename().string();
    std::string failure;
    std::vector<io::NamedTensor> actual;
    std::map<std::string, Tensor> values;
    const auto refused = attempt([&] {
      values = model->run_all(graph::load_feeds(*model, d.string()));
      for (const auto& o : model->outputs()) actual.push_back({o.name, values.at(o.name)});
    });
    // [Check.chain] a computed value read by another node, and no intermediate value in the case: the graph
    // outputs after it are judged against the enclosure of every value the chain can give
    if (!refused && !r.expected_error && chain::needed(*model, values)) {
      std::string why;
      if (auto enclosed = chain::enclose(*model, values, &why)) {
        for (auto& a : actual)
          if (auto it = enclosed->find(a.name); it != enclosed->end()) a.tensor = it->second;
      } else {
        chain_not_judged = why;
      }
    }
    if (!refused && r.coverage.empty()) attempt([&] { r.coverage = coverage::account(*model, values); });
    if (r.expected_error) {
      if (!refused) failure = fmt::format("expected refusal [{}], but it ran", expect);
      else if (refused->id != expect) failure = fmt::format("expected refusal [{}], got {}", expect, refused->message);
      if (refused && !r.error) r.error = refused;
    } else if (refused) {
      failure = refused->message;
      if (!r.error) r.error = refused;
    } else {
      std::vector<io::NamedTensor> expected;
      if (auto bad = attempt([&] { expected = io::read_test_data_set(d.string(), "output"); })) {
        failure = "malformed expected outputs: " + bad->message;
      } else {
        auto verdicts = judge(ds, expected, actual, options);
        for (auto& v : verdicts) {
          if (v.status != "conforms") failure += (failure.empty() ? "" : "; ") + v.detail;
          r.outputs.push_back(std::move(v));
        }
      }
    }
    r.data_sets.push_back({ds, failure, std::chrono::duration<double>(Clock::now() - ds_start).count()});
    if (!failure.empty() && failing++ == 0)
      first_failure = data_sets.size() > 1 ? ds + ": " + failure : failure;
  }
  if (!chain_not_judged.empty())  // [Check.chain] [Check.not-implemented] not judged, counted apart
    return finish(Status::NotImplemented, "not judged: " + chain_not_judged + " [Check.chain]");
  if (failing == 0) {
    if (const std::int64_t n = r.nan_payload_only(); n > 0)  // [Check.nan-payload.any] a note, not a failure
      return finish(Status::Passed, fmt::format("(note: {} element{} differ{} only in NaN payload, accepted by "
                                                "--nan-payload any [Check.nan-payload.any])",
                                                n, n == 1 ? "" : "s", n == 1 ? "s" : ""));
    return finish(Status::Passed, r.expected_error ? fmt::format("(refused with [{}])", expect) : "");
  }
  if (failing > 1) first_failure += fmt::format(" ({} of {} data sets fail)", failing, data_sets.size());
  return finish(Status::Failed, first_failure);
}

// ---------------------------------------------------------------------------------------------
// Reporting

std::string case_line(const CaseResult& r) {
  switch (r.status) {
    case Status::Passed: return "PASS " + r.dir.name + (r.detail.empty() ? "" : " " + r.detail);
    case Status::Failed: return "FAIL " + r.dir.name + ": " + r.detail;
    case Status::NotImplemented: return "NOT IMPLEMENTED " + r.dir.name + ": " + r.detail;
    default: return "SKIP " + r.dir.name + ": " + r.detail;
  }
}

// The closing line, parsed by CI: "N passed, N failed", then ", N not implemented" and ", N skipped"
// when there are some.
std::string summary_line(int passed, int failed, int not_implemented, int skipped) {
  std::string s = fmt::format("{} passed, {} failed", passed, failed);
  if (not_implemented > 0) s += fmt::format(", {} not implemented", not_implemented);
  if (skipped > 0) s += fmt::format(", {} skipped", skipped);
  return s;
}

Json output_json(const OutputVerdict& v) {
  Json o = {{"data_set", v.data_set}, {"position", v.position}, {"name", v.name},
            {"status", v.status},     {"clause", v.id},         {"elements", v.elements}};
  if (!v.result.structural.empty()) o["structural"] = v.result.structural;
  // The listed elements (the first mismatches, the NaN-payload notes): index, values and their bits.
  const auto elements_json = [](const auto& list) {
    Json a = Json::array();
    for (const auto& m : list)
      a.push_back({{"index", m.index},
                   {"expected", m.expected},
                   {"actual", m.actual},
                   {"expected_bits", m.expected_bits},
                   {"actual_bits", m.actual_bits}});
    return a;
  };
  if (v.status == "differs") {
    o["mismatches"] = v.result.mismatches;
    o["first"] = elements_json(v.result.first);
  }
  // [Check.nan-payload.any] elements both NaN with different bits (under [Check.nan-payload.strict],
  // among the mismatches); listed when they conform
  o["nan_payload_only"] = v.result.nan_payload_only;
  if (!v.result.nan_payload_first.empty()) {
    o["nan_payload_notes"] = elements_json(v.result.nan_payload_first);
  }
  if (!v.detail.empty()) o["message"] = v.detail;
  return o;
}

Json case_json(const CaseResult& r) {
  Json c = {{"name", r.dir.name},
            {"path", r.dir.path.string()},
            {"status", status_name(r.status)},
            {"message", r.detail},
            {"seconds", r.seconds}};
  if (r.expected_error) c["expected_error"] = *r.expected_error;
  Json sets = Json::array();
  for (const auto& d : r.data_sets)
    sets.push_back({{"name", d.name}, {"status", d.failure.empty() ? "passed" : "failed"}, {"seconds", d.seconds}});
  c["data_sets"] = sets;
  Json outs = Json::array();
  for (const auto& v : r.outputs) outs.push_back(output_json(v));
  c["outputs"] = outs;
  if (r.error) c["error"] = {{"clause", r.error->id}, {"message", r.error->message}};
  c["coverage"] = coverage::to_json(r.coverage);
  return c;
}

void write_reports(const ConformanceOptions& o, const std::vector<CaseResult>& results, int passed, int failed,
                   int not_implemented, int skipped, double seconds, const std::optional<shard::Piece>& piece) {
  if (!o.report.empty()) {
    std::vector<std::string> files;
    for (const auto& r : results) files.insert(files.end(), r.files.begin(), r.files.end());
    Json cases = Json::array();
    std::int64_t payload_only = 0, payload_cases = 0;
    for (const auto& r : results) {
      cases.push_back(case_json(r));
      payload_only += r.nan_payload_only();
      payload_cases += r.nan_payload_only() > 0;
    }
    Json doc = {{"manifest", report::manifest(files, o.argv)},
                {"cases", cases},
                {"summary",
                 {{"total", results.size()},
                  {"passed", passed},
                  {"failed", failed},
                  {"not_implemented", not_implemented},
                  {"skipped", skipped},
                  {"seconds", seconds},
                  {"line", summary_line(passed, failed, not_implemented, skipped)},
                  {"nan_payload", compare::nan_payload_name(o.compare)},  // [Check.nan-payload.any]
                  {"nan_payload_only", payload_only},
                  {"nan_payload_cases", payload_cases}}}};
    if (piece) doc["shard"] = shard::to_json(*piece);  // [Check.shard.report]
    write_report(o.report, doc);
  }
  if (!o.junit.empty()) {
    std::vector<report::JunitCase> cases;
    for (const auto& r : results) {
      const std::string cls = "conformance." + r.dir.name;
      if (r.status == Status::Skipped || r.status == Status::NotImplemented) {
        cases.push_back({cls, "case", r.detail, true, r.seconds});
        continue;
      }
      if (r.data_sets.empty()) cases.push_back({cls, "case", r.detail, false, r.seconds});
      for (const auto& d : r.data_sets) cases.push_back({cls, d.name, d.failure, false, d.seconds});
    }
    report::write_junit(o.junit, "sonnx-ref conformance", cases);
  }
}

int conformance(const ConformanceOptions& o) {
  const auto start = Clock::now();
  std::vector<CaseDir> cases;
  for (const auto& p : o.paths)
    for (auto& c : cases_of(p)) cases.push_back(std::move(c));
  if (!o.filter.empty()) {
    const std::regex re(o.filter, std::regex::ECMAScript);
    std::erase_if(cases, [&](const CaseDir& c) { return !std::regex_search(c.name, re); });
  }
  if (cases.empty()) usage_error("no test case matches --filter '{}'", o.filter);
  for (std::size_t p = 0; p < cases.size(); ++p) cases[p].position = p;  // [Check.shard] the unsharded order
  std::optional<shard::Piece> piece;
  if (o.sharded) {
    const shard::Shard s = parse_shard(o.shard, "--shard");
    piece = shard::Piece{s, cases.size(), {}, {}};
    std::erase_if(cases, [&](const CaseDir& c) { return !shard::holds(s, c.position); });  // [Check.shard]
    for (const auto& c : cases) piece->cases.push_back(c.name), piece->positions.push_back(c.position);
    std::cout << shard::text(*piece) << "\n";  // [Check.shard.report]
  }

  // On a terminal unless --quiet; elsewhere plain lines only with --progress
  Progress progress("conformance", o.quiet, o.progress);
  // Cases run on `jobs` threads, each case whole on one thread (no operator is split: each stays
  // deterministic); results are reported in case order, so the output does not depend on `jobs`.
  std::vector<std::optional<CaseResult>> done(cases.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  auto run = [&](std::size_t i) {
    CaseResult r = run_case(cases[i], {o.assume_opset_reviewed}, o.compare);
    r.position = cases[i].position;
    std::lock_guard lock(mutex);
    done[i] = std::move(r);
    ready.notify_all();
  };
  auto worker = [&] {
    for (std::size_t i; (i = next++) < cases.size();) run(i);
  };
  // -j N > 1: N workers run cases while this thread reports them in order (it waits, it does not run
  // cases: with N - 1 workers, -j 2 ran one case at a time). -j 1: no worker, each case runs in the
  // loop below, so the progress follows it.
  std::vector<std::jthread> threads;
  const int workers = o.jobs > 1 ? std::min<int>(o.jobs, static_cast<int>(cases.size())) : 0;
  for (int t = 0; t < workers; ++t) threads.emplace_back(worker);
  const bool here = threads.empty();
  std::vector<CaseResult> results;
  int passed = 0, failed = 0, not_implemented = 0, skipped = 0;
  std::int64_t payload_only = 0, payload_cases = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    progress.update("cases", i, cases.size(), fmt::format("{} failed", failed));
    if (here) run(i);
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return done[i].has_value(); });
    CaseResult r = std::move(*done[i]);
    lock.unlock();
    if (r.status == Status::Passed) ++passed;
    else if (r.status == Status::Failed) ++failed;
    else if (r.status == Status::NotImplemented) ++not_implemented;
    else ++skipped;
    payload_only += r.nan_payload_only();  // [Check.nan-payload.any]
    payload_cases += r.nan_payload_only() > 0;
    if (!o.quiet || r.status == Status::Failed) {
      progress.clear();
      std::cout << case_line(r) << "\n";
    }
    results.push_back(std::move(r));
  }
  threads.clear();  // joins
  progress.clear();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (o.no_timings) {  // reports that two runs, at any -j, write alike (but for the command line)
    seconds = 0;
    for (auto& r : results) {
      r.seconds = 0;
      for (auto& d : r.data_sets) d.seconds = 0;
    }
  }
  if (payload_only > 0)  // [Check.nan-payload.any] a note before the closing line, which stays last
    std::cout << (o.compare.nan_payload_strict
                      ? fmt::format("note: {} of the differing element(s) in {} case(s) differ only in NaN payload "
                                    "(--nan-payload strict) [Check.nan-payload.strict]\n",
                                    payload_only, payload_cases)
                      : fmt::format("note: {} element(s) in {} case(s) differ only in NaN payload: accepted by "
                                    "--nan-payload any, not failures [Check.nan-payload.any]\n",
                                    payload_only, payload_cases));
  std::cout << summary_line(passed, failed, not_implemented, skipped) << std::endl;  // [Check.verdict]
  write_reports(o, results, passed, failed, not_implemented, skipped, seconds, piece);
  if (failed > 0) return check::exit_status(false);
  if (passed == 0 && piece) {  // [Check.shard.exit] nothing judged in this piece: the merge decides
    std::cerr << "conformance: " << shard::text(*piece) << ": no case judged here; whether the campaign judged any is "
              << "its merged report's question [Check.shard.exit]\n";
    return 0;
  }
  if (passed == 0) {         // nothing judged: no verdict of conformance
    std::cerr << "conformance: no case was judged (" << not_implemented << " not implemented, " << skipped
              << " skipped): that is not a pass [Check.exit]\n";
    return 1;
  }
  return 0;
}

}  // namespace

Action add_conformance(CLI::App& app) {
  auto o = std::make_shared<ConformanceOptions>();
  auto* sub = app.add_subcommand(
      "conformance", "Run ONNX backend node test cases (model.onnx + test_data_set_N/) and judge them bit for bit");
  sub->add_option("PATH", o->paths, "a test case folder, or a folder of test case folders")->required();
  sub->add_option("--filter", o->filter, "run only the cases whose folder name matches REGEX (ECMAScript, searched)")
      ->type_name("REGEX")
      ->check([](const std::string& s) {
        try {
          std::regex re(s, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
          return std::string("invalid regular expression: ") + e.what();
        }
        return std::string();
      });
  sub->add_option("--report", o->report, "also write a JSON report (manifest, every case, summary)")
      ->type_name("FILE.json");
  sub->add_option("--junit", o->junit, "also write a JUnit XML report (one test per case and data set)")
      ->type_name("FILE.xml");
  sub->add_flag("-q,--quiet", o->quiet, "print only FAIL lines and the closing line");
  sub->add_option("-j,--jobs", o->jobs, "run N cases at a time, each on its own thread (default 1); the output is the same for every N")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  sub->add_flag("--no-timings", o->no_timings,
                "write 0 for every measured time in the reports, so that runs at any -j write the same reports");
  sub->add_flag("--progress", o->progress,
                "show progress on stderr every 2 s even when stderr is not a terminal (on a terminal it is shown "
                "unless --quiet)");
  sub->add_option("--elementary-ulps", o->elementary_ulps,
                  "the K of the implementation's exp, log, tanh, pow in ULPs, as FUNCTION=K items separated by commas "
                  "(exp=2,tanh=6) [Elem.ulps]")
      ->type_name("F=K,...");
  sub->add_option("--nan-payload", o->nan_payload,
                  "strict: an expected NaN is matched only by the same bits [Check.nan-payload.strict]; any (default): "
                  "by any NaN, the elements that differ only in NaN payload counted as a note [Check.nan-payload.any]")
      ->type_name("strict|any");
  auto* shard = sub->add_option("--shard", o->shard,
                  "run only piece K of N of the cases: the case at position p of the unsharded order is in piece "
                  "p mod N + 1 [Check.shard]")
      ->type_name("K/N");
  sub->add_flag("--assume-opset-reviewed", o->assume_opset_reviewed,
                "accept models whose opset is newer than the spec has been reviewed against [Graph.opset.reviewed]");
  sub->footer(
      "A test case folder holds model.onnx and test_data_set_0/, test_data_set_1/, ... each with\n"
      "input_K.pb and output_K.pb (one ONNX TensorProto per file: the layout of onnx's backend node tests).\n"
      "A PATH that is not a case folder is searched one level deep for case folders (other entries are\n"
      "ignored); cases run in the order of the PATHs, sorted by folder name within each, all in this process.\n"
      "\n"
      "Each data set's inputs are fed to the model (input_K.pb named by its TensorProto.name, else by\n"
      "position) and output_K.pb is compared with the K-th graph output [Check.missing]: dtype and shape\n"
      "first [Check.shape], then bit for bit [Check.bitwise] - any NaN equals any NaN, +0 and -0 differ,\n"
      "integers and bool exact.\n"
      "\n"
      "Negative cases: a case folder holding a file 'expected_error' with a spec ID (e.g. Max.err.broadcast)\n"
      "passes only when sonnx-ref refuses the model, or every data set, with exactly that ID. In any other\n"
      "case a refusal is a failure, reported as 'error: [ID] ...'.\n"
      "\n"
      "Output (stdout): one line per case,\n"
      "  PASS test_max_example\n"
      "  FAIL test_x: output 'y' 2 of 6 elements differ; first [0,1] expected -0 (0x80000000) got +0 (0x00000000)\n"
      "  FAIL test_y: error: [Graph.opset.unsupported] ...\n"
      "  NOT IMPLEMENTED test_w: error: [Graph.opset.unsupported] operator 'Add' is not supported ...\n"
      "  SKIP test_z: no test_data_set_N folder\n"
      "then the closing line 'N passed, N failed', with ', N not implemented' and ', N skipped' appended when\n"
      "there are some. A case whose model uses an operator or version sonnx-ref does not implement is NOT\n"
      "IMPLEMENTED, counted apart from failures [Check.not-implemented]. -j N runs N cases at a time; the\n"
      "output and the reports (but for their timings and date) do not depend on N.\n"
      "A case with several data sets is reported by its first failing data set. --quiet prints only FAIL\n"
      "lines and the closing line.\n"
      "\n"
      "NaN payloads: by default (--nan-payload any) any NaN matches any NaN; a passing case whose NaNs differ\n"
      "only in their bits says so on its PASS line ('note: N elements differ only in NaN payload'), and a line\n"
      "'note: N element(s) in M case(s) differ only in NaN payload' precedes the closing line\n"
      "[Check.nan-payload.any]. --nan-payload strict compares NaNs bit for bit: the first NaN's bits are the\n"
      "expected value [Common.order.nan-payload] [Check.nan-payload.strict].\n"
      "\n"
      "Shards [Check.shard]: --shard K/N runs piece K of N. The cases are ordered as the unsharded run orders\n"
      "them (PATHs in the order given, folders by name within each, after --filter); the one at position p\n"
      "(from 0) is in piece p mod N + 1, on every machine. The first line names the piece ('shard K/N: M of T\n"
      "case(s)'). Its report is the unsharded report restricted to its cases, with 'shard': {index: K, count: N,\n"
      "total: T, cases: [names], positions: [p of each]} [Check.shard.report]; 'sonnx-ref report --merge' puts\n"
      "the pieces together. A piece that holds no case, or judged none while none failed, exits 0\n"
      "[Check.shard.exit].\n"
      "Progress: a line on stderr (cases done, rate, time left, failures), rewritten in place, when stderr is\n"
      "a terminal and not --quiet; none in a log or file unless --progress.\n"
      "--report writes {manifest, cases: [{name, path, status, message, data_sets, outputs: [{data_set,\n"
      "position, name, status (conforms | differs | shape | missing | extra), clause, elements,\n"
      "mismatches, first: [{index, expected, actual, expected_bits, actual_bits}]}], error: {clause, message},\n"
      "expected_error, coverage: [{node, clause, situation, witness}]}], summary: {total, passed, failed,\n"
      "not_implemented, skipped, seconds, line, nan_payload, nan_payload_only, nan_payload_cases}, shard}\n"
      "(each output also nan_payload_only, and nan_payload_notes: [{index, expected, actual, expected_bits,\n"
      "actual_bits}] when they conform) ('-' writes it to stdout). coverage lists the clauses and\n"
      "situations that decided the case's expected values [Check.coverage].\n"
      "\n"
      "Exit codes [Check.exit]: 0 every judged case passed, and at least one was judged; 1 some case failed,\n"
      "or no case was judged (all skipped or not implemented); 2 usage (including a --filter that selects no\n"
      "case); 3 a PATH refused (not a case folder nor a folder of them); 4 I/O failure; 5 internal error.\n"
      "Example: sonnx-ref conformance --filter '^test_(max|reduce_max|hardmax)_' /usr/share/libonnx-testdata/data/node");
  return [o, shard] {
    o->sharded = shard->count() > 0;
    // The command line, for the manifest.
    o->argv = {"sonnx-ref", "conformance"};
    o->argv.insert(o->argv.end(), o->paths.begin(), o->paths.end());
    if (!o->filter.empty()) o->argv.insert(o->argv.end(), {"--filter", o->filter});
    if (!o->report.empty()) o->argv.insert(o->argv.end(), {"--report", o->report});
    if (!o->junit.empty()) o->argv.insert(o->argv.end(), {"--junit", o->junit});
    if (o->quiet) o->argv.push_back("--quiet");
    if (o->jobs != 1) o->argv.insert(o->argv.end(), {"--jobs", std::to_string(o->jobs)});
    if (o->progress) o->argv.push_back("--progress");
    if (o->assume_opset_reviewed) o->argv.push_back("--assume-opset-reviewed");
    if (o->nan_payload != "any") o->argv.insert(o->argv.end(), {"--nan-payload", o->nan_payload});
    if (o->sharded) o->argv.insert(o->argv.end(), {"--shard", o->shard});
    if (!o->elementary_ulps.empty()) o->argv.insert(o->argv.end(), {"--elementary-ulps", o->elementary_ulps});
    o->compare.nan_payload_strict = parse_nan_payload(o->nan_payload, "--nan-payload");  // [Check.nan-payload.strict]
    if (!o->elementary_ulps.empty()) elementary::parse_ulps(o->elementary_ulps);  // the K declaration, refused as the spec says (ops/elementary.cpp)
    if (o->sharded) parse_shard(o->shard, "--shard");  // a malformed K/N is a usage error before any case runs
    return conformance(*o);
  };
}

}  // namespace sonnx::cli
