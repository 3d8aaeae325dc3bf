// [Check.shard] `--shard K/N`: N >= 1 and 1 <= K <= N, both decimal integers; anything else is a usage
// error (spec/common/check.md). shard::parse gives the piece, or nothing for what is refused; the
// command-line forms are pinned by props/cli/exit-codes, these are the cases it does not write.
#include <catch2/catch.hpp>

#include "oracle/shard.hpp"

namespace shard_parse_test {  // this file's own names (the unity build of props/CMakeLists.txt)

using namespace sonnx;

TEST_CASE("[Check.shard] K/N of decimal digits is a piece, letters, or a count no 64-bit integer holds, are refused",
          "[shard]") {
  CHECK(shard::parse("2/3")->index == 2);
  CHECK(shard::parse("2/3")->count == 3);
  CHECK(shard::parse("999999999999999999/999999999999999999")->count == 999999999999999999u);  // 18 digits
  CHECK_FALSE(shard::parse("a/3"));   // a letter (above '9' in ASCII)
  CHECK_FALSE(shard::parse("1/3b"));
  CHECK_FALSE(shard::parse("1/ 3"));  // a space (below '0')
  // 20 digits: above 2^64 - 1, out of the range of any count of cases
  CHECK_FALSE(shard::parse("1/18446744073709551616"));
  CHECK_FALSE(shard::parse("18446744073709551616/18446744073709551616"));
}

}  // namespace shard_parse_test
