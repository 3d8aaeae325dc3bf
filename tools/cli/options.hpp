// Option values of the command line, read strictly: a value outside its range is a usage error
// (exit status 2), never wrapped or clamped (spec/README.md, "Error reporting").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/shard.hpp"

namespace sonnx::cli {

// A decimal integer in [0, 2^64 - 1]: digits only (no sign, no space).
std::uint64_t parse_unsigned(const std::string& text, const std::string& option);
// A tensor index "i,j,k": non-negative decimal integers separated by commas (spaces around a comma
// allowed); "" is the index of a rank-0 value.
std::vector<std::int64_t> parse_index(const std::string& text, const std::string& option);
// [Check.shard] "K/N", 1 <= K <= N (decimal digits only).
shard::Shard parse_shard(const std::string& text, const std::string& option);
// [Check.nan-payload.strict] "strict" -> true, [Check.nan-payload.any] "any" -> false.
bool parse_nan_payload(const std::string& text, const std::string& option);

// Writes a JSON report to `path`, or to standard output when `path` is "-".
void write_report(const std::string& path, const nlohmann::ordered_json& j);
void write_report(const std::string& path, const nlohmann::json& j);

}  // namespace sonnx::cli
