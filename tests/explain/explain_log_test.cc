// explain on two requests of a session log (ExplainLogRequest, `strata explain --log`): a
// hand-written Claude Code log (compact_boundary and summary) and a Codex rollout (`compacted`)
// where the request after the compaction is explained with the compaction as its cause and the
// cached tokens replay counts lost to it, beside the request before it (no compaction, nothing
// cached lost) and a request number beyond the log.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "io/file_io.h"
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
  // What replay and `strata usage` count under compaction: request 2 recorded a read of 12000 and
  // a write of 6000 (18000 left cached), request 3 a read of 2000: 16000 lost.
  EXPECT_TRUE(e->drop);
  EXPECT_TRUE(e->drop_recorded);
  EXPECT_EQ(e->cached_tokens, 18000u);
  EXPECT_EQ(e->read_tokens, 2000u);
  EXPECT_EQ(e->lost_cached_tokens, 16000u);
  EXPECT_EQ(e->uncached_tokens, e->tokens_b - e->first_token);
  const std::string text = FormatExplanation(*e);
  EXPECT_NE(text.find("log requests 2 (A) and 3 (B)"), std::string::npos) << text;
  EXPECT_NE(text.find("cause: compaction (the conversation was compacted"), std::string::npos)
      << text;
  EXPECT_NE(text.find("16000 of A's cached tokens lost to the compaction"), std::string::npos)
      << text;
  EXPECT_NE(text.find("drop: compaction, 16000 of 18000 tokens lost"), std::string::npos) << text;
  auto j = nlohmann::json::parse(FormatExplanationJson(*e));
  EXPECT_EQ(j["cause"], "compaction");
  EXPECT_EQ(j["compaction"], true);
  EXPECT_EQ(j["lost_cached_tokens"], 16000);
  // replay of the same log names the same drop.
  auto report = ReplayLog(ClaudeCodeLog(), "s.jsonl", TranscriptFormat::kClaudeCode, *tok,
                          ClaudeCodeOptions());
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_TRUE(report->turns.at(2).drop);
  EXPECT_EQ(report->turns[2].drop->cause, DropCause::kCompaction);
  EXPECT_EQ(report->turns[2].drop->lost_tokens, 16000u);
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
  // Request 2's recorded input of 5990 tokens left 1024 + 38 * 128 = 5888 cached under OpenAI's
  // rule (1024 tokens, then 128-token steps); request 3 read none: all 5888 lost to the
  // compaction, as replay counts it.
  EXPECT_EQ(e->cached_tokens, 5888u);
  EXPECT_EQ(e->lost_cached_tokens, 5888u);
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

// ---- explain and replay tell one story ----

// The pair: requests 2 and 3 of a three-request Claude Code log, all below 1024 tokens.
// Replay under openai finds no drop (nothing was cached); explain --log and explain A B with the
// provider's rules say the same: A left 0 tokens cached, B read 0, 0 lost, no cause. Before,
// replay said "unexplained, 165 of 165 lost" and explain "messages-change, 57 lost" (its byte
// view took A's whole prompt as cached).
struct LogPair {
  ReplayReport report;
  std::optional<ExplainInput> a, b;  // requests 2 and 3 as replay rebuilt them
};

LogPair ReplayPair(const std::string& log, const ReplayOptions& options, const Tokenizer& tok) {
  LogPair p;
  ReplayOptions o = options;
  o.on_request = [&](size_t i, std::string_view bytes, const LayerMap& layers,
                     const std::vector<Breakpoint>& bps) {
    if (i == 2) p.a = ExplainInput{std::string(bytes), layers, bps, "", ""};
    if (i == 3) p.b = ExplainInput{std::string(bytes), layers, bps, "", ""};
  };
  auto r = ReplayLog(log, "no-ids.jsonl", TranscriptFormat::kClaudeCode, tok, o);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  if (r) p.report = std::move(*r);
  return p;
}

std::string NoIdsLog() {
  auto bytes = ReadFileBytes(std::filesystem::path(STRATA_SOURCE_DIR) /
                             "tests/transcripts/fixtures/claude-code-no-ids.jsonl");
  EXPECT_TRUE(bytes);
  return bytes ? *bytes : std::string();
}

TEST(ExplainLogTest, ExplainAgreesWithReplayThatNothingBelowTheMinimumDrops) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.cache.kind = CacheModelKind::kOpenAi;
  o.fill_unlogged_prefix = true;
  LogPair p = ReplayPair(NoIdsLog(), o, *tok);
  ASSERT_EQ(p.report.turns.size(), 3u);
  ASSERT_TRUE(p.a && p.b);
  EXPECT_FALSE(p.report.turns[2].drop);

  auto log =
      ExplainLogRequest(NoIdsLog(), "no-ids.jsonl", TranscriptFormat::kClaudeCode, 3, *tok, o);
  ASSERT_TRUE(log) << log.error().message;
  auto pair = Explain(*p.a, *p.b, *tok, &o.cache);
  ASSERT_TRUE(pair) << pair.error().message;
  for (const Explanation* e : {&*log, &*pair}) {
    EXPECT_EQ(e->provider, "openai");
    EXPECT_EQ(e->minimum_tokens, 1024u);
    EXPECT_LT(e->tokens_a, 1024u);
    EXPECT_FALSE(e->drop);
    EXPECT_EQ(e->cached_tokens, 0u);
    EXPECT_EQ(e->read_tokens, 0u);
    EXPECT_EQ(e->lost_cached_tokens, 0u);
    EXPECT_EQ(e->cause, "");
    const std::string text = FormatExplanation(*e);
    EXPECT_NE(text.find("cache model (openai): A left 0 tokens cached, B reads 0 (A's " +
                        std::to_string(e->tokens_a) +
                        " tokens are below the 1024-token minimum: nothing was cached)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("drop: none"), std::string::npos) << text;
    EXPECT_EQ(text.find("A's whole prompt was cached"), std::string::npos) << text;
    auto j = nlohmann::json::parse(FormatExplanationJson(*e));
    EXPECT_EQ(j["drop"], false);
    EXPECT_EQ(j["cached_tokens"], 0);
    EXPECT_EQ(j["lost_cached_tokens"], 0);
  }
}

// Where the provider does cache the prompts (radix: every token), the same pair is a drop: the
// strata layout's volatile tail moved. Replay, explain --log and explain A B name the same cause
// and the same lost tokens.
TEST(ExplainLogTest, ExplainAndReplayNameTheSameDropAndLostTokens) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.cache.kind = CacheModelKind::kRadix;
  o.fill_unlogged_prefix = true;
  LogPair p = ReplayPair(NoIdsLog(), o, *tok);
  ASSERT_TRUE(p.a && p.b);
  ASSERT_TRUE(p.report.turns.at(2).drop);
  const CacheDrop& d = *p.report.turns[2].drop;
  EXPECT_EQ(d.cause, DropCause::kMessagesChange);
  auto log =
      ExplainLogRequest(NoIdsLog(), "no-ids.jsonl", TranscriptFormat::kClaudeCode, 3, *tok, o);
  ASSERT_TRUE(log) << log.error().message;
  auto pair = Explain(*p.a, *p.b, *tok, &o.cache);
  ASSERT_TRUE(pair) << pair.error().message;
  for (const Explanation* e : {&*log, &*pair}) {
    EXPECT_TRUE(e->drop);
    EXPECT_EQ(e->cause, "messages-change");
    EXPECT_EQ(e->cached_tokens, d.held_tokens);
    EXPECT_EQ(e->read_tokens, d.read_tokens);
    EXPECT_EQ(e->lost_cached_tokens, d.lost_tokens);
    EXPECT_NE(FormatExplanation(*e).find("drop: messages-change, " + std::to_string(d.lost_tokens) +
                                         " of " + std::to_string(d.held_tokens) + " tokens lost"),
              std::string::npos)
        << FormatExplanation(*e);
  }
}

// A drop replay measured on the log's recorded usage shows those figures, labelled as such (the
// corpus subagent log under openai: recorded 31,104 held, 29,587 read).
TEST(ExplainLogTest, ARecordedDropIsLabelledWithTheRecordedFigures) {
  Explanation e;
  e.tokens_a = 30863;
  e.tokens_b = 32945;
  e.provider = "openai";
  e.minimum_tokens = 1024;
  e.drop = e.drop_recorded = true;
  e.cached_tokens = 31104;
  e.read_tokens = 29587;
  e.lost_cached_tokens = 1517;
  e.cause = "unexplained";
  const std::string text = FormatExplanation(e);
  EXPECT_NE(text.find("recorded figures (openai): A left 31104 tokens cached, B reads 29587\n"
                      "drop: unexplained, 1517 of 31104 tokens lost\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("cache model ("), std::string::npos) << text;
}

}  // namespace
}  // namespace strata
