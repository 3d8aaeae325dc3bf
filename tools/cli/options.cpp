#include "options.hpp"

#include <iostream>

#include "core/error.hpp"
#include "oracle/report.hpp"

namespace sonnx::cli {

std::uint64_t parse_unsigned(const std::string& text, const std::string& option) {
  std::uint64_t v = 0;
  bool ok = !text.empty();
  for (char c : text) {
    if (c < '0' || c > '9' || __builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, unsigned(c - '0'), &v)) {
      ok = false;
      break;
    }
  }
  if (!ok) usage_error("{} expects an integer from 0 to 18446744073709551615, got '{}'", option, text);
  return v;
}

std::vector<std::int64_t> parse_index(const std::string& text, const std::string& option) {
  std::vector<std::int64_t> index;
  if (text.find_first_not_of(' ') == std::string::npos) return index;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = part.find_first_not_of(' '), last = part.find_last_not_of(' ');
    part = first == std::string::npos ? "" : part.substr(first, last - first + 1);
    std::uint64_t v = 0;
    try {
      v = parse_unsigned(part, option);
    } catch (const SpecError&) {
      usage_error("{} expects the index as integers separated by commas, e.g. 1,0,2; got '{}'", option, text);
    }
    if (v > static_cast<std::uint64_t>(INT64_MAX)) usage_error("{}: coordinate {} is too large", option, part);
    index.push_back(static_cast<std::int64_t>(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return index;
}

shard::Shard parse_shard(const std::string& text, const std::string& option) {
  const auto s = shard::parse(text);
  if (!s) usage_error("{} expects K/N with 1 <= K <= N (piece K of N), got '{}'", option, text);
  return *s;
}

bool parse_nan_payload(const std::string& text, const std::string& option) {
  if (text == "any") return false;
  if (text == "strict") return true;
  usage_error("{} expects strict or any, got '{}'", option, text);
}

void write_report(const std::string& path, const nlohmann::ordered_json& j) {
  if (path == "-") std::cout << j.dump(2) << "\n";
  else report::write_json(path, j);
}

void write_report(const std::string& path, const nlohmann::json& j) {
  if (path == "-") std::cout << j.dump(2) << "\n";
  else report::write_json(path, j);
}

}  // namespace sonnx::cli
