// Replay tests: the corpus transcripts (strata's layout never scores below the naive one), a
// generated 100-turn session (strata reaches 99% of the ideal hit ratio), the CLI's JSON.
#include "strata/replay.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "replay/transcript_replay.h"
#include "support/test_support.h"
#include "tokenize/vocab_tokenizer.h"
#include "transcripts/redaction.h"
#include "transcripts/strata_transcript.h"

namespace strata {
namespace {

std::unique_ptr<Tokenizer> Qwen2() {
  auto t = LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  return t ? std::move(*t) : nullptr;
}

ReplayReport RunReplay(const Transcript& t, const Tokenizer& tok, CacheModelKind kind,
                       ReplayLayout layout) {
  ReplayOptions o;
  o.cache.kind = kind;
  o.layout = layout;
  auto r = Replay(t, tok, o);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : ReplayReport{};
}

// A session of `turns` user turns, each with one tool call and its result, one minute apart.
Transcript Generated(int turns) {
  Transcript t;
  t.format = "strata";
  TranscriptEvent ctx;
  ctx.kind = TranscriptEventKind::kContext;
  ctx.context.model = "claude-sonnet-4-5";
  ctx.context.persona = SynthesizeText(3000, "persona");
  ctx.context.rules = {SynthesizeText(1500, "rules")};
  ctx.context.tools = {{"read_file", SynthesizeText(400, "read"), {{"type", "object"}}},
                       {"bash", SynthesizeText(600, "bash"), {{"type", "object"}}}};
  ctx.context.cwd = "/home/dev/project";
  ctx.context.instructions = {{"AGENTS.md", SynthesizeText(4000, "agents")}};
  t.events.push_back(ctx);
  auto at = [](int minute) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "2026-11-29T%02d:%02d:00Z", 8 + minute / 60, minute % 60);
    return std::string(buf);
  };
  for (int i = 0; i < turns; ++i) {
    auto ev = [&](TranscriptEventKind kind, Role role, std::string text, int sec) {
      TranscriptEvent e;
      e.kind = kind;
      e.message.role = role;
      e.message.text = std::move(text);
      e.time = at(i);
      e.time.replace(17, 2, sec < 10 ? "0" + std::to_string(sec) : std::to_string(sec));
      e.time_s = *ParseRfc3339Seconds(e.time);
      return e;
    };
    std::string n = std::to_string(i);
    t.events.push_back(
        ev(TranscriptEventKind::kUser, Role::kUser, SynthesizeText(300, "u" + n), 0));
    auto call =
        ev(TranscriptEventKind::kAssistant, Role::kAssistant, SynthesizeText(120, "a" + n), 5);
    call.message.tool_calls.push_back({"call_" + n, "bash", {{"command", "ls " + n}}});
    t.events.push_back(call);
    auto result =
        ev(TranscriptEventKind::kToolResult, Role::kToolResult, SynthesizeText(800, "r" + n), 10);
    result.message.tool_call_id = "call_" + n;
    t.events.push_back(result);
    t.events.push_back(
        ev(TranscriptEventKind::kAssistant, Role::kAssistant, SynthesizeText(200, "b" + n), 20));
  }
  return t;
}

TEST(ReplayTest, GeneratedHundredTurnSessionReaches99PercentOfIdeal) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  Transcript t = Generated(100);
  // Through the strata format and back, so the format round-trips.
  auto parsed = ParseStrataTranscript(FormatStrataTranscript(t), "generated.jsonl");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->RequestCount(), 200u);
  for (auto kind : {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi, CacheModelKind::kRadix}) {
    auto s = RunReplay(*parsed, *tok, kind, ReplayLayout::kStrata);
    ASSERT_EQ(s.turns.size(), 200u);
    ASSERT_GT(s.totals.ideal_hit_ratio, 0.9);
    EXPECT_GE(s.totals.hit_ratio, 0.99 * s.totals.ideal_hit_ratio) << CacheModelName(kind);
    auto n = RunReplay(*parsed, *tok, kind, ReplayLayout::kNaive);
    EXPECT_LT(n.totals.hit_ratio, 0.05) << "the date on top busts every request";
    EXPECT_LT(s.totals.cost, n.totals.cost);
  }
}

TEST(ReplayTest, CorpusTranscriptsStrataNeverBelowNaive) {
  auto corpus = testing::CorpusDir();
  auto tok = Qwen2();
  if (!corpus || !tok) GTEST_SKIP();
  struct Case {
    const char* file;
    const char* format;
  };
  for (const Case& c : {Case{"transcripts/claude-code-subagent.jsonl", "claude-code"},
                        Case{"transcripts/codex-rollout.jsonl", "codex"}}) {
    auto t = LoadTranscript(*corpus / c.file, c.format);
    ASSERT_TRUE(t) << t.error().message;
    ASSERT_GT(t->RequestCount(), 10u) << c.file;
    for (auto kind :
         {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi, CacheModelKind::kDeepSeek,
          CacheModelKind::kBlockHash, CacheModelKind::kRadix}) {
      auto s = RunReplay(*t, *tok, kind, ReplayLayout::kStrata);
      auto n = RunReplay(*t, *tok, kind, ReplayLayout::kNaive);
      ASSERT_EQ(s.turns.size(), n.turns.size());
      for (size_t i = 0; i < s.turns.size(); ++i) {
        EXPECT_GE(s.turns[i].usage.cache_read_tokens, n.turns[i].usage.cache_read_tokens)
            << c.file << " " << CacheModelName(kind) << " turn " << i + 1;
      }
      EXPECT_GE(s.totals.hit_ratio, n.totals.hit_ratio) << c.file << " " << CacheModelName(kind);
      EXPECT_GT(s.totals.hit_ratio, 0.5) << c.file << " " << CacheModelName(kind);
      EXPECT_EQ(s.tokenizer, "llama.cpp vocab qwen2");
    }
  }
}

TEST(ReplayCliTest, JsonHasTurnsAndTotals) {
  testing::TempDir dir;
  auto path = dir.Write("t.jsonl", FormatStrataTranscript(Generated(3)));
  auto r = testing::RunCli({"replay", "--transcript", path.string(), "--provider", "openai",
                            "--json", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["turns"].size(), 6u);
  for (const char* key :
       {"input_tokens", "cache_read_tokens", "cache_write_tokens", "hit_ratio", "cost"}) {
    EXPECT_TRUE(j["totals"].contains(key)) << key;
  }
  auto c = testing::RunCli(
      {"replay", "--transcript", path.string(), "--compare", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
      dir.path());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("strata vs naive"), std::string::npos);
  auto bad = testing::RunCli({"replay", "--transcript", path.string(), "--provider", "gemini"},
                             dir.path());
  EXPECT_EQ(bad.exit_code, 2);
}

// ReplayLog reads the log itself; a log with no model request is refused before tokenizing.
TEST(ReplayTest, ReplayLogRefusesALogWithoutRequests) {
  struct NoTokenizer final : Tokenizer {
    const std::string& name() const override { return name_; }
    Result<std::vector<TokenId>> Tokenize(std::string_view) const override { return {}; }
    Result<TokenizedText> TokenizeWithOffsets(std::string_view) const override { return {}; }
    std::string name_ = "none";
  } none;
  auto r = ReplayLog("{\"type\":\"user\",\"text\":\"hi\"}\n", "t.jsonl", TranscriptFormat::kStrata,
                     none, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(r.error().message.find("no model requests"), std::string::npos);
  EXPECT_EQ(r.error().where.path, "t.jsonl");
}

}  // namespace
}  // namespace strata
