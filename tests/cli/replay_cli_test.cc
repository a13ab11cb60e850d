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
