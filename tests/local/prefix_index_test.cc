// prefix_index_test.cc: the block-hash prefix index: chained block hashes, longest exact match
// first, token-by-token verification, removal.
#include "local/prefix_index.h"

#include <gtest/gtest.h>

#include <numeric>

namespace strata::serve {
namespace {

std::vector<int32_t> Iota(size_t n, int32_t from = 1) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(PrefixIndex, BlockHashesChainFullBlocksOnly) {
  const auto a = PrefixIndex::BlockHashes(Iota(40));
  ASSERT_EQ(a.size(), 3u);  // seed, 16, 32 tokens (the last 8 tokens form no full block)
  const auto b = PrefixIndex::BlockHashes(Iota(33));
  EXPECT_EQ(a, b);
  std::vector<int32_t> changed = Iota(40);
  changed[3] = 999;  // a change in block 0 changes every later hash
  const auto c = PrefixIndex::BlockHashes(changed);
  EXPECT_EQ(c[0], a[0]);
  EXPECT_NE(c[1], a[1]);
  EXPECT_NE(c[2], a[2]);
}

TEST(PrefixIndex, MatchesAreExactPrefixesLongestFirst) {
  PrefixIndex index;
  index.Add({"short", 10, Iota(5)});
  index.Add({"mid", 20, Iota(20)});
  index.Add({"long", 30, Iota(37)});
  index.Add({"longer-than-request", 40, Iota(60)});
  std::vector<int32_t> other = Iota(20);
  other[19] = 7;  // same first block, differs at its last token
  index.Add({"diverges", 50, other});
  const auto found = index.Matches(Iota(50));
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].key, "long");
  EXPECT_EQ(found[1].key, "mid");
  EXPECT_EQ(found[2].key, "short");
  EXPECT_EQ(found[0].prefix_bytes, 30u);
}

TEST(PrefixIndex, RemoveAndContains) {
  PrefixIndex index;
  index.Add({"a", 1, Iota(17)});
  EXPECT_TRUE(index.Contains("a"));
  EXPECT_EQ(index.size(), 1u);
  index.Remove("a");
  EXPECT_FALSE(index.Contains("a"));
  EXPECT_TRUE(index.Matches(Iota(30)).empty());
}

TEST(PrefixIndex, AnEmptyRequestMatchesOnlyEmptyEntries) {
  PrefixIndex index;
  index.Add({"a", 1, Iota(3)});
  EXPECT_TRUE(index.Matches({}).empty());
}

// Sharing: the entries sharing the most full blocks with a request, prefix or not, with the
// exact shared count (here 40 tokens: two full blocks and 8 more).
TEST(PrefixIndex, SharingFindsLongerCheckpointsWithTheRequestsStart) {
  PrefixIndex index;
  std::vector<int32_t> other_session = Iota(40);
  for (int32_t t : Iota(30, 1000)) other_session.push_back(t);  // 70 tokens, diverging at 40
  index.Add({"other-session", 100, other_session, "text"});
  index.Add({"system-cut", 50, Iota(20), "sys"});
  index.Add({"unrelated", 60, Iota(64, 5000), "u"});
  const std::vector<int32_t> request = Iota(50);
  const std::vector<SharedEntry> found = index.Sharing(request);
  ASSERT_EQ(found.size(), 1u);  // only it shares two full blocks
  EXPECT_EQ(found[0].entry.key, "other-session");
  EXPECT_EQ(found[0].shared, 40u);
  EXPECT_EQ(found[0].entry.prefix_text, "text");
  const std::vector<SharedEntry> one_block = index.Sharing(Iota(17));
  ASSERT_EQ(one_block.size(), 2u);  // both share block 1 (17 tokens: one full block)
  EXPECT_EQ(one_block[0].shared, 17u);
  EXPECT_EQ(one_block[1].shared, 17u);
  index.Remove("other-session");
  ASSERT_EQ(index.Sharing(request).size(), 1u);
  EXPECT_EQ(index.Sharing(request)[0].entry.key, "system-cut");
  EXPECT_EQ(index.Sharing(request)[0].shared, 20u);
}

// A share shorter than one block is found too (every entry's first block is compared): the
// longest common prefix with any entry, to the token. Equal shares come shortest entry first,
// then by key, whatever the order of insertion.
TEST(PrefixIndex, SharingFindsSharesShorterThanABlockShortestEntryFirst) {
  PrefixIndex index;
  std::vector<int32_t> long_one = Iota(9);
  for (int32_t t : Iota(100, 2000)) long_one.push_back(t);  // 109 tokens, diverging at 9
  std::vector<int32_t> short_b = Iota(9);
  for (int32_t t : Iota(10, 3000)) short_b.push_back(t);  // 19 tokens
  std::vector<int32_t> short_a = short_b;
  short_a.back() = 4000;
  index.Add({"long", 300, long_one, "l"});
  index.Add({"short-b", 60, short_b, "b"});
  index.Add({"short-a", 60, short_a, "a"});
  index.Add({"fewer", 10, Iota(4), "f"});
  index.Add({"none", 10, Iota(20, 7000), "n"});
  std::vector<int32_t> request = Iota(9);
  request.push_back(5000);  // 10 tokens, diverging at 9 from the first three
  const std::vector<SharedEntry> found = index.Sharing(request);
  ASSERT_EQ(found.size(), 4u);               // "none" shares no token
  EXPECT_EQ(found[0].entry.key, "short-a");  // 9 shared, 19 tokens, "a" < "b"
  EXPECT_EQ(found[1].entry.key, "short-b");
  EXPECT_EQ(found[2].entry.key, "long");   // 9 shared, 109 tokens
  EXPECT_EQ(found[3].entry.key, "fewer");  // 4 shared (the whole entry: a prefix)
  EXPECT_EQ(found[0].shared, 9u);
  EXPECT_EQ(found[2].shared, 9u);
  EXPECT_EQ(found[3].shared, 4u);
  EXPECT_EQ(index.Sharing(Iota(15)).size(), 4u);  // no full block: 4 entries share 4 to 15 tokens
  EXPECT_TRUE(index.Sharing(Iota(3, 9000)).empty());
}

}  // namespace
}  // namespace strata::serve
