// checkpoint_summary_test.cc: ReadCheckpointSummary reads a checkpoint file's identity, key,
// prefix length and tokens without its payload, and refuses files that are not checkpoints.
#include <gtest/gtest.h>

#include <cstring>

#include "strata/checkpoint.h"
#include "support/test_support.h"

namespace strata {
namespace {

TEST(CheckpointSummary, ReadsHeaderAndTokensWithoutThePayload) {
  testing::TempDir tmp;
  CheckpointIdentity id;
  id.engine = "e";
  id.model = "m";
  id.n_ctx = 64;
  id.prefix_sha256 = "abc";
  const std::vector<int32_t> tokens = {1, 70000, -3, 42};
  const std::string image = EncodeCheckpoint(id, "prefix text", tokens, 5,
                                             [](char* dst) { std::memcpy(dst, "state", 5); });
  const auto path = tmp.Write("x.kv", image);
  auto summary = ReadCheckpointSummary(path);
  ASSERT_TRUE(summary) << FormatError(summary.error());
  EXPECT_EQ(summary->identity, id);
  EXPECT_EQ(summary->key, CheckpointKey(id));
  EXPECT_EQ(summary->prefix_bytes, 11u);
  EXPECT_EQ(summary->tokens, tokens);
  EXPECT_EQ(summary->file_bytes, image.size());
}

TEST(CheckpointSummary, RefusesOtherFilesAndDamagedHeaders) {
  testing::TempDir tmp;
  EXPECT_FALSE(ReadCheckpointSummary(tmp.Write("a.kv", "not a checkpoint at all")));
  CheckpointIdentity id;
  std::string image = EncodeCheckpoint(id, "p", {1}, 0, [](char*) {});
  image[20] ^= 1;  // inside the header: its checksum no longer matches
  auto damaged = ReadCheckpointSummary(tmp.Write("b.kv", image));
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.error().kind, ErrorKind::kCorrupt);
  EXPECT_FALSE(ReadCheckpointSummary(tmp.path() / "missing.kv"));
}

}  // namespace
}  // namespace strata
