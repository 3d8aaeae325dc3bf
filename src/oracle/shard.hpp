// [Check.shard] Shards of a campaign: `--shard K/N` on golden, conformance and the folder form of
// check. The partition rests on the order of the cases in the unsharded run alone: the case at
// position p (from 0) belongs to piece (p mod N) + 1 — the same pieces on every machine, whatever the
// file system's listing order or the timing. [Check.shard.report] what a piece's report carries.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonnx::shard {

// Piece `index` of `count` (1 <= index <= count); the default is the whole run.
struct Shard {
  std::size_t index = 1, count = 1;
  bool whole() const { return count == 1; }
};

// "K/N": two decimal integers (digits only), N >= 1, 1 <= K <= N; nullopt otherwise.
std::optional<Shard> parse(const std::string& text);

// [Check.shard] Whether the case at `position` of the unsharded order belongs to piece `s`.
inline bool holds(const Shard& s, std::size_t position) { return position % s.count == s.index - 1; }

// The positions, among `total` cases, that piece `s` holds, in increasing order.
std::vector<std::size_t> positions(const Shard& s, std::size_t total);

// What a piece's report says of it ([Check.shard.report]): the piece, the number of cases of the
// unsharded run, and the piece's cases (names, and their positions in the unsharded order).
struct Piece {
  Shard shard;
  std::size_t total = 0;
  std::vector<std::string> cases;
  std::vector<std::size_t> positions;
};

// [Check.shard.report] {"index": K, "count": N, "total": T, "cases": [...], "positions": [...]}
nlohmann::ordered_json to_json(const Piece& p);
// "shard K/N: M of T case(s)"
std::string text(const Piece& p);

}  // namespace sonnx::shard
