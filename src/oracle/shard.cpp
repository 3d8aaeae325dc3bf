// [Check.shard] [Check.shard.report] The partition of a campaign's cases into pieces.
#include "oracle/shard.hpp"

#include <fmt/format.h>

namespace sonnx::shard {

namespace {

std::optional<std::size_t> decimal(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;  // at most 10^18 - 1: no overflow
  std::size_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  return v;
}

}  // namespace

std::optional<Shard> parse(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto k = decimal(text.substr(0, slash)), n = decimal(text.substr(slash + 1));
  if (!k || !n || *n < 1 || *k < 1 || *k > *n) return std::nullopt;  // [Check.shard] 1 <= K <= N
  return Shard{*k, *n};
}

std::vector<std::size_t> positions(const Shard& s, std::size_t total) {
  std::vector<std::size_t> out;
  for (std::size_t p = s.index - 1; p < total; p += s.count) out.push_back(p);  // [Check.shard] p mod N = K - 1
  return out;
}

nlohmann::ordered_json to_json(const Piece& p) {
  nlohmann::ordered_json j;  // [Check.shard.report]
  j["index"] = p.shard.index;
  j["count"] = p.shard.count;
  j["total"] = p.total;
  j["cases"] = p.cases;
  j["positions"] = p.positions;
  return j;
}

std::string text(const Piece& p) {
  return fmt::format("shard {}/{}: {} of {} case(s) [Check.shard]", p.shard.index, p.shard.count, p.cases.size(), p.total);
}

}  // namespace sonnx::shard
