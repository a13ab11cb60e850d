// shared_layout_test.cc: the Redis layout of the shared tier: key names (hash-tagged), chunk
// ranges, the header entry codec and the index entry codec.
#include <gtest/gtest.h>

#include "strata/checkpoint.h"

namespace strata {
namespace {

TEST(SharedLayoutTest, KeysAreHashTaggedByCheckpointKey) {
  EXPECT_EQ(SharedHeaderKey("strata:", "ab12"), "strata:kv:{ab12}:h");
  EXPECT_EQ(SharedChunkKey("strata:", "ab12", 3), "strata:kv:{ab12}:3");
  EXPECT_EQ(SharedLeaseKey("strata:", "ab12"), "strata:lease:{ab12}");
  EXPECT_EQ(SharedIndexKey("fleet:", "scope9"), "fleet:idx:scope9");
}

TEST(SharedLayoutTest, ChunkRangesCoverTheImageWithAShortLastChunk) {
  using R = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(ChunkRanges(10, 4), (R{{0, 4}, {4, 4}, {8, 2}}));
  EXPECT_EQ(ChunkRanges(8, 4), (R{{0, 4}, {4, 4}}));
  EXPECT_EQ(ChunkRanges(3, 4), (R{{0, 3}}));
  EXPECT_EQ(ChunkRanges(0, 4), R{});
}

SharedHeader SampleHeader() {
  SharedHeader h;
  h.identity.engine = "llama.cpp test";
  h.identity.model = "m1";
  h.identity.n_ctx = 1024;
  h.identity.prefix_sha256 = "00ff";
  h.key = CheckpointKey(h.identity);
  h.token_count = 7;
  h.prefix_bytes = 30;
  h.image_bytes = 10;
  h.chunk_bytes = 4;
  h.chunks = 3;
  h.xxh3 = 0x0123456789abcdefull;
  return h;
}

TEST(SharedLayoutTest, HeaderEntryRoundTrips) {
  const SharedHeader h = SampleHeader();
  const std::string json = EncodeSharedHeader(h);
  EXPECT_NE(json.find("\"xxh3\":\"0123456789abcdef\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"chunks\":3"), std::string::npos) << json;
  auto back = DecodeSharedHeader(json);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->key, h.key);
  EXPECT_EQ(back->identity, h.identity);
  EXPECT_EQ(back->token_count, 7u);
  EXPECT_EQ(back->prefix_bytes, 30u);
  EXPECT_EQ(back->image_bytes, 10u);
  EXPECT_EQ(back->xxh3, 0x0123456789abcdefull);
}

TEST(SharedLayoutTest, HeaderEntryRefusesWrongChunkCountsAndMissingMembers) {
  SharedHeader h = SampleHeader();
  h.chunks = 2;  // 10 bytes in 4-byte chunks are 3
  EXPECT_FALSE(DecodeSharedHeader(EncodeSharedHeader(h)));
  h = SampleHeader();
  h.chunk_bytes = kMaxChunkBytes + 1;
  EXPECT_FALSE(DecodeSharedHeader(EncodeSharedHeader(h)));
  EXPECT_FALSE(DecodeSharedHeader("{\"format\":1}"));
  EXPECT_FALSE(DecodeSharedHeader("not json"));
  std::string json = EncodeSharedHeader(SampleHeader());
  json.replace(json.find("\"format\":1"), 10, "\"format\":2");
  auto r = DecodeSharedHeader(json);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt);
}

TEST(SharedLayoutTest, IndexEntryIsPrefixBytesThenTokensLittleEndian) {
  const std::string bytes = EncodeIndexEntry(0x0102, {1, -1});
  const std::string expected("\x02\x01\0\0\0\0\0\0\x01\0\0\0\xff\xff\xff\xff", 16);
  EXPECT_EQ(bytes, expected);
  auto e = DecodeIndexEntry("k", bytes);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, "k");
  EXPECT_EQ(e->prefix_bytes, 0x0102u);
  EXPECT_EQ(e->tokens, (std::vector<int32_t>{1, -1}));
  EXPECT_FALSE(DecodeIndexEntry("k", bytes.substr(0, 15)));
  EXPECT_FALSE(DecodeIndexEntry("k", "abc"));
}

TEST(SharedLayoutTest, ScopeIgnoresThePrefixOnly) {
  CheckpointIdentity a;
  a.model = "m1";
  a.prefix_sha256 = "aa";
  CheckpointIdentity b = a;
  b.prefix_sha256 = "bb";
  EXPECT_EQ(SharedScope(a), SharedScope(b));
  b.model = "m2";
  EXPECT_NE(SharedScope(a), SharedScope(b));
}

TEST(SharedLayoutTest, ErrorNamesAreTheMetricLabels) {
  EXPECT_STREQ(SharedErrorName(SharedError::kUnreachable), "unreachable");
  EXPECT_STREQ(SharedErrorName(SharedError::kFull), "full");
  EXPECT_STREQ(SharedErrorName(SharedError::kQueueFull), "queue_full");
}

}  // namespace
}  // namespace strata
