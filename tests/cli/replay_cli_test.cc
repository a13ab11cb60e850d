// replay CLI tests: the provider's recorded usage beside the model's figures; stdin as input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace strata {
namespace {

// The provider's own usage from the log stands next to the model's figures, per turn.
TEST(ReplayCliTest, RecordedUsageIsPrintedBesideTheModelsFigures) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  auto path = *corpus / "transcripts" / "claude-code-subagent.jsonl";
  auto text = testing::RunCli({"replay", "--transcript", path.string(), "--format", "claude-code",
                               "--provider", "anthropic"},
                              *corpus);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("rec.read"), std::string::npos);
  // Turn 1 as Claude Code logged it: 28162 input, 17915 cache read, 10245 cache creation.
  EXPECT_NE(text.out.find("28162     17915     10245"), std::string::npos) << text.out;
  auto json = testing::RunCli({"replay", "--transcript", path.string(), "--format", "claude-code",
                               "--provider", "anthropic", "--json"},
                              *corpus);
  ASSERT_EQ(json.exit_code, 0);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["turns"][0]["recorded"]["cache_read_tokens"], 17915);
  EXPECT_TRUE(j["turns"][0].contains("cache_read_tokens"));
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// `strata replay --transcript -` and `strata explain - B.json` read standard input.
TEST(ReplayCliTest, DashReadsStandardInput) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  testing::TempDir dir;
  auto log = dir.Write("t.jsonl",
                       "{\"type\":\"context\",\"model\":\"m\",\"persona\":\"You help.\"}\n"
                       "{\"type\":\"user\",\"text\":\"hi\"}\n"
                       "{\"type\":\"assistant\",\"text\":\"hello\"}\n");
  std::string cli = STRATA_CLI_PATH;
  std::string vocab = STRATA_LLAMA_VOCAB_DIR;
  auto out = dir.path() / "out.json";
  std::string replay = "'" + cli + "' replay --transcript - --json --vocab-dir '" + vocab +
                       "' --dump-requests '" + dir.path().string() + "/req' < '" + log.string() +
                       "' > '" + out.string() + "'";
  ASSERT_EQ(std::system(replay.c_str()), 0);
  auto j = nlohmann::json::parse(testing::ReadAll(out));
  EXPECT_EQ(j["turns"].size(), 1u);
  std::string req = dir.path().string() + "/req/1.json";
  std::string explain = "'" + cli + "' explain - '" + req + "' --vocab-dir '" + vocab + "' < '" +
                        req + "' > '" + out.string() + "'";
  ASSERT_EQ(std::system(explain.c_str()), 0);
  EXPECT_NE(testing::ReadAll(out).find("identical requests"), std::string::npos);
  auto both = testing::RunCli({"explain", "-", "-"}, dir.path());
  EXPECT_EQ(both.exit_code, 2);
}

}  // namespace
}  // namespace strata
