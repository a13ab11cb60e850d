// prefix_fill tests: the stand-in for an unlogged prefix makes the first request as large as the
// provider recorded it, stays the same in later requests (they read it from the cache), and is not
// added when the log records no usage or the modelled request is already as large.
#include "replay/prefix_fill.h"

#include <gtest/gtest.h>

#include "replay/transcript_replay.h"
#include "strata/accounting.h"

namespace strata {
namespace {

std::unique_ptr<Tokenizer> Qwen2() {
  auto t = LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  return t ? std::move(*t) : nullptr;
}

Transcript TwoRequests(std::optional<RecordedUsage> first) {
  Transcript t;
  t.format = "claude-code";
  auto ctx = MakeEvent(TranscriptEventKind::kContext, "2026-12-01T10:00:00Z");
  ctx.context.model = "claude-sonnet-4-5";
  ctx.context.persona = "You are Claude Code, an interactive coding agent.";
  t.events.push_back(ctx);
  t.events.push_back(MakeEvent(TranscriptEventKind::kUser, "2026-12-01T10:00:01Z", "List files."));
  auto a = MakeEvent(TranscriptEventKind::kAssistant, "2026-12-01T10:00:02Z", "Listing.");
  a.message.tool_calls.push_back({"c1", "Bash", R"({"command":"ls"})"});
  a.recorded = first;
  t.events.push_back(a);
  auto r = MakeEvent(TranscriptEventKind::kToolResult, "2026-12-01T10:00:03Z", "a.txt\nb.txt");
  r.message.tool_call_id = "c1";
  t.events.push_back(r);
  t.events.push_back(MakeEvent(TranscriptEventKind::kAssistant, "2026-12-01T10:00:04Z", "Done."));
  return t;
}

TEST(PrefixFillTest, TheFirstRequestGetsTheRecordedSize) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.cache.kind = CacheModelKind::kAnthropic;
  auto bare = Replay(TwoRequests(std::nullopt), *tok, o);
  ASSERT_TRUE(bare) << bare.error().message;
  const size_t modelled = bare->turns[0].usage.input_tokens;
  const size_t recorded = modelled + 3000;  // the log's first request: 3000 tokens it omits

  o.fill_unlogged_prefix = true;
  auto filled = Replay(TwoRequests(RecordedUsage{recorded, 0, 0}), *tok, o);
  ASSERT_TRUE(filled) << filled.error().message;
  EXPECT_NEAR(double(filled->turns[0].usage.input_tokens), double(recorded), recorded * 0.01);
  EXPECT_NEAR(double(filled->prefix_fill_tokens), 3000.0, 30.0);
  // The second request carries the same fill: it reads the first one's cached prefix (the fill
  // takes it over the 1024-token minimum).
  EXPECT_GE(filled->turns[1].usage.cache_read_tokens, filled->prefix_fill_tokens);
  EXPECT_NE(FormatReplayTable(*filled).find("prefix: the log omits"), std::string::npos);
}

TEST(PrefixFillTest, NoFillWithoutUsageOrWhenTheModelIsAsLarge) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.cache.kind = CacheModelKind::kAnthropic;
  o.fill_unlogged_prefix = true;
  auto none = Replay(TwoRequests(std::nullopt), *tok, o);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(none->prefix_fill_tokens, 0u);
  auto small = Replay(TwoRequests(RecordedUsage{10, 0, 0}), *tok, o);
  ASSERT_TRUE(small) << small.error().message;
  EXPECT_EQ(small->prefix_fill_tokens, 0u);
  EXPECT_EQ(small->turns[0].usage.input_tokens, none->turns[0].usage.input_tokens);
}

}  // namespace
}  // namespace strata
