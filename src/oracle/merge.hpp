// [Check.report.merge] The report of a whole campaign from the reports of its pieces ([Check.shard],
// [Check.shard.report]): `sonnx-ref report --merge PIECE.json... -o ALL.json`.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "oracle/html_report.hpp"

namespace sonnx::merge {

struct Merged {
  nlohmann::ordered_json json;   // the report the unsharded run writes (manifest.shards lists the pieces)
  std::optional<bool> conforms;  // its verdict (nullopt for a golden manifest)
  std::string summary;           // "3 piece(s) of 1/3..3/3, 23 case(s): DOES NOT CONFORM"
};

// [Check.report.merge] Merges the reports of the N pieces of one campaign, given in any order: every
// piece K of 1..N exactly once, all of one kind (check, conformance, golden manifest), of one build and
// specification, run with the same options on the same cases. The cases are put back at their
// positions, the summary's counts added, the verdict recomputed from the whole; the manifest is the
// first piece's, with the files of every piece in the unsharded order, `argv` (the merge's command
// line) and `date_utc` of the merge, and `shards`: each piece's index, count, report path, number of
// cases and manifest. Anything else is refused with [Check.report.merge].
Merged merge(const std::vector<html_report::Input>& pieces, const std::vector<std::string>& argv);

}  // namespace sonnx::merge
