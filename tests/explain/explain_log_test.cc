// explain on two requests of a session log (ExplainLogRequest, `strata explain --log`): a
// hand-written Claude Code log (compact_boundary and summary) and a Codex rollout (`compacted`)
// where the request after the compaction is explained with the compaction as its cause and no
// cached token counted lost, beside the request before it (no compaction, nothing cached lost)
// and a request number beyond the log.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "strata/accounting.h"
#include "strata/replay.h"
#include "support/claude_code_log.h"
#include "support/test_support.h"
#include "transcripts/redaction.h"

namespace strata {
namespace {

std::unique_ptr<Tokenizer> Qwen2() {
  auto t = LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  return t ? std::move(*t) : nullptr;
}

// ---- Claude Code ----

// Two turns of 20 KB each, a compact_boundary, its summary, a third turn.
using testing::OneLine;

std::string ClaudeCodeLog() { return testing::ClaudeCodeCompactedLog(); }

ReplayOptions ClaudeCodeOptions() {
  ReplayOptions o;
  o.fill_unlogged_prefix = true;  // as replay and explain --log do for a claude-code log
  return o;
}

TEST(ExplainLogTest, TheRequestAfterAClaudeCodeCompactionHasTheCompactionAsItsCause) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  auto e = ExplainLogRequest(ClaudeCodeLog(), "s.jsonl", TranscriptFormat::kClaudeCode, 3, *tok,
                             ClaudeCodeOptions());
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->request, 3u);
  EXPECT_TRUE(e->compaction);
  EXPECT_EQ(e->cause, "compaction");
  // The bytes differ inside A's cached history (the two 20 KB turns are gone): a byte diff alone
  // would call it a messages change costing A's cached tokens from there on.
  EXPECT_LT(e->first_token + 5000, e->tokens_a);
  EXPECT_FALSE(e->invalidated.empty());
  EXPECT_EQ(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->uncached_tokens, e->tokens_b - e->first_token);
  const std::string text = FormatExplanation(*e);
  EXPECT_NE(text.find("log requests 2 (A) and 3 (B)"), std::string::npos) << text;
  EXPECT_NE(text.find("cause: compaction (the conversation was compacted"), std::string::npos)
      << text;
  EXPECT_NE(text.find("none of A's cached tokens counted lost"), std::string::npos) << text;
  auto j = nlohmann::json::parse(FormatExplanationJson(*e));
  EXPECT_EQ(j["cause"], "compaction");
  EXPECT_EQ(j["compaction"], true);
  EXPECT_EQ(j["lost_cached_tokens"], 0);
}

TEST(ExplainLogTest, TheRequestBeforeTheCompactionExtendsItsPredecessor) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  auto e = ExplainLogRequest(ClaudeCodeLog(), "s.jsonl", TranscriptFormat::kClaudeCode, 2, *tok,
                             ClaudeCodeOptions());
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_FALSE(e->compaction);
  EXPECT_NE(e->cause, "compaction");
  // B adds a turn: the only difference is A's volatile tail, after every breakpoint of A.
  EXPECT_TRUE(e->invalidated.empty());
  EXPECT_EQ(e->lost_cached_tokens, 0u);
}

TEST(ExplainLogTest, ARequestNumberOutsideTheLogIsAnErrorNamingHowManyItHolds) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  auto e = ExplainLogRequest(ClaudeCodeLog(), "s.jsonl", TranscriptFormat::kClaudeCode, 4, *tok,
                             ClaudeCodeOptions());
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("the log holds 3 requests"), std::string::npos)
      << e.error().message;
  EXPECT_FALSE(ExplainLogRequest(ClaudeCodeLog(), "s.jsonl", TranscriptFormat::kClaudeCode, 1, *tok,
                                 ClaudeCodeOptions()));
}

// ---- Codex ----

std::string CodexLine(const std::string& time, const std::string& type,
                      const std::string& payload) {
  return "{\"timestamp\":\"" + time + "\",\"type\":\"" + type + "\",\"payload\":" + payload + "}\n";
}

std::string CodexUser(const std::string& time, const std::string& text) {
  return CodexLine(time, "response_item",
                   "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
                   "\"text\":\"" +
                       text + "\"}]}");
}

std::string CodexAnswer(const std::string& time, const std::string& text, int total, int in,
                        int cached) {
  return CodexLine(time, "response_item",
                   "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":"
                   "\"output_text\",\"text\":\"" +
                       text + "\"}]}") +
         CodexLine(time, "event_msg",
                   "{\"type\":\"token_count\",\"info\":{\"total_token_usage\":{\"total_tokens\":" +
                       std::to_string(total) + "},\"last_token_usage\":{\"input_tokens\":" +
                       std::to_string(in) + ",\"cached_input_tokens\":" + std::to_string(cached) +
                       ",\"output_tokens\":10}}}");
}

TEST(ExplainLogTest, TheRequestAfterACodexCompactionHasTheCompactionAsItsCause) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  const std::string prompt = OneLine(8000, "prompt");
  const std::string log =
      CodexLine("2026-12-01T10:00:00Z", "session_meta", "{\"cwd\":\"/p\"}") +
      CodexLine("2026-12-01T10:00:00Z", "turn_context", "{\"model\":\"gpt-5-codex\"}") +
      CodexUser("2026-12-01T10:00:01Z", prompt) +
      CodexAnswer("2026-12-01T10:00:03Z", "one", 3000, 2990, 0) +
      CodexUser("2026-12-01T10:00:04Z", "more " + prompt) +
      CodexAnswer("2026-12-01T10:00:06Z", "two", 9000, 5990, 2944) +
      CodexLine("2026-12-01T10:00:07Z", "compacted", "{\"message\":\"Summary.\"}") +
      CodexUser("2026-12-01T10:00:08Z", "next") +
      CodexAnswer("2026-12-01T10:00:09Z", "three", 9500, 400, 0);
  ReplayOptions o;
  o.cache.kind = CacheModelKind::kOpenAi;
  auto e = ExplainLogRequest(log, "r.jsonl", TranscriptFormat::kCodex, 3, *tok, o);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->compaction);
  EXPECT_EQ(e->cause, "compaction");
  EXPECT_TRUE(e->automatic);
  // Codex's compacted history keeps the user messages and drops the answers: B differs from A
  // inside A's cached prompt, where automatic caching would count A's tokens from there lost.
  EXPECT_LT(e->first_token, e->tokens_a);
  EXPECT_EQ(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->uncached_tokens, e->tokens_b - e->first_token);
  auto before = ExplainLogRequest(log, "r.jsonl", TranscriptFormat::kCodex, 2, *tok, o);
  ASSERT_TRUE(before) << before.error().message;
  EXPECT_FALSE(before->compaction);
  EXPECT_NE(before->cause, "compaction");
}

// The CLI: `strata explain --log LOG --format claude-code --request 3 --json`.
TEST(ExplainLogTest, TheCliExplainsARequestOfALog) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  testing::TempDir dir;
  auto log = dir.Write("s.jsonl", ClaudeCodeLog());
  auto r = testing::RunCli({"explain", "--log", log.string(), "--format", "claude-code",
                            "--request", "3", "--json", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cause"], "compaction");
  EXPECT_EQ(j["request"], 3);
  auto both =
      testing::RunCli({"explain", "a.json", "--log", log.string(), "--request", "3"}, dir.path());
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--log takes --request N and no A or B"), std::string::npos) << both.err;
}

}  // namespace
}  // namespace strata
