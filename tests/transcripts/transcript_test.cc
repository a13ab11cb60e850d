// transcript tests: LoadTranscript on the corpus logs keeps the provider's own usage figures.
#include "transcripts/transcript.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata {
namespace {

TEST(ReplayTest, ImportersKeepTheProvidersOwnUsage) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP();
  auto cc = LoadTranscript(*corpus / "transcripts/claude-code-subagent.jsonl", "claude-code");
  ASSERT_TRUE(cc);
  EXPECT_EQ(cc->RequestCount(), 12u);  // 12 requestIds in the log
  const TranscriptEvent* first = nullptr;
  for (const auto& e : cc->events) {
    if (e.kind == TranscriptEventKind::kAssistant) {
      first = &e;
      break;
    }
  }
  ASSERT_TRUE(first && first->recorded);
  // input 2 + cache read 17915 + cache creation 10245, as logged.
  EXPECT_EQ(first->recorded->input_tokens, 28162u);
  EXPECT_EQ(first->recorded->cache_read_tokens, 17915u);
  EXPECT_EQ(first->recorded->cache_write_tokens, 10245u);
  EXPECT_EQ(first->message.tool_calls.size(), 4u);  // WebFetch and three WebSearch

  auto cx = LoadTranscript(*corpus / "transcripts/codex-rollout.jsonl", "codex");
  ASSERT_TRUE(cx);
  for (const auto& e : cx->events) {
    if (e.kind == TranscriptEventKind::kAssistant) {
      ASSERT_TRUE(e.recorded);
      EXPECT_EQ(e.recorded->input_tokens, 17102u);  // the first non-empty token_count
      EXPECT_EQ(e.recorded->cache_read_tokens, 3456u);
      break;
    }
  }
}

}  // namespace
}  // namespace strata
