// Replay tests: the corpus transcripts (strata's layout within one point of the naive one, which
// writes the day, not the clock), a
// generated 100-turn session (strata reaches 99% of the ideal hit ratio), the CLI's JSON.
#include "strata/replay.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "replay/transcript_replay.h"
#include "strata/accounting.h"
#include "support/test_support.h"
#include "transcripts/recorded_requests.h"
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
  ctx.context.tools = {{"read_file", SynthesizeText(400, "read"), R"({"type":"object"})"},
                       {"bash", SynthesizeText(600, "bash"), R"({"type":"object"})"}};
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
    call.message.tool_calls.push_back({"call_" + n, "bash", R"({"command":"ls )" + n + R"("})"});
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
    // The naive client writes the day, not the clock: within one day its prefix holds too.
    auto n = RunReplay(*parsed, *tok, kind, ReplayLayout::kNaive);
    EXPECT_GT(n.totals.hit_ratio, 0.9) << CacheModelName(kind);
  }
}

// The naive layout's date on top changes at midnight: the first request of the new day reads
// nothing on Anthropic (every breakpoint lies after the date), while strata's layout, whose date
// sits in the tail, reads its whole head and history.
TEST(ReplayTest, NaiveLayoutMissesWhenTheDayChanges) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  Transcript t = Generated(4);
  for (auto& e : t.events) {
    if (e.kind == TranscriptEventKind::kContext) continue;
    bool late = &e > &t.events[t.events.size() / 2];
    e.time = late ? "2026-11-30T00:01:00Z" : "2026-11-29T23:59:00Z";
    e.time_s = *ParseRfc3339Seconds(e.time);
  }
  auto s = RunReplay(t, *tok, CacheModelKind::kAnthropic, ReplayLayout::kStrata);
  auto n = RunReplay(t, *tok, CacheModelKind::kAnthropic, ReplayLayout::kNaive);
  ASSERT_EQ(n.turns.size(), 8u);
  size_t first_late = 0;
  for (size_t i = 0; i < t.events.size(); ++i) {
    if (t.events[i].kind == TranscriptEventKind::kAssistant &&
        t.events[i].time.starts_with("2026-11-30")) {
      break;
    }
    first_late += t.events[i].kind == TranscriptEventKind::kAssistant;
  }
  ASSERT_GT(first_late, 0u);
  ASSERT_LT(first_late, 8u);
  EXPECT_EQ(n.turns[first_late].usage.cache_read_tokens, 0u);
  EXPECT_GT(n.turns[first_late - 1].usage.cache_read_tokens, 0u);
  EXPECT_GT(s.turns[first_late].usage.cache_read_tokens, 0u);
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
      // The naive client writes the day, not the clock, so within a day it reads about as much
      // as strata: strata's date/time tail costs it at most a storage unit per request (128
      // tokens: OpenAI's granule) and one point of hit ratio in total.
      for (size_t i = 0; i < s.turns.size(); ++i) {
        EXPECT_GE(s.turns[i].usage.cache_read_tokens + 128, n.turns[i].usage.cache_read_tokens)
            << c.file << " " << CacheModelName(kind) << " turn " << i + 1;
      }
      EXPECT_GE(s.totals.hit_ratio + 0.01, n.totals.hit_ratio)
          << c.file << " " << CacheModelName(kind);
      EXPECT_GT(s.totals.hit_ratio, 0.5) << c.file << " " << CacheModelName(kind);
      EXPECT_EQ(s.tokenizer, "llama.cpp vocab qwen2");
    }
  }
}

// The incremental path (each request written over the previous one, its cuts and tokens kept
// where both share bytes, the cache model told the shared tokens) gives exactly the report of a
// replay that renders, cuts, tokenizes and hashes every request whole.
void ExpectSameReplay(const Transcript& t, const Tokenizer& tok, const ReplayOptions& options,
                      const std::string& what) {
  std::vector<uint64_t> hashes[2];
  ReplayReport reports[2];
  for (int i = 0; i < 2; ++i) {
    ReplayOptions o = options;
    o.on_request = [&, i](size_t, std::string_view bytes, const LayerMap&,
                          const std::vector<Breakpoint>&) {
      hashes[i].push_back(std::hash<std::string_view>{}(bytes));
    };
    auto r = Replay(t, tok, o, i == 0 ? ReplayPath::kIncremental : ReplayPath::kFromScratch);
    ASSERT_TRUE(r) << what << ": " << r.error().message;
    reports[i] = std::move(*r);
  }
  const ReplayReport& inc = reports[0];
  const ReplayReport& full = reports[1];
  EXPECT_EQ(hashes[0], hashes[1]) << what;
  ASSERT_EQ(inc.turns.size(), full.turns.size()) << what;
  EXPECT_EQ(inc.prefix_fill_tokens, full.prefix_fill_tokens) << what;
  EXPECT_EQ(inc.request_bytes, full.request_bytes) << what;
  for (size_t i = 0; i < inc.turns.size(); ++i) {
    const TurnReport& a = inc.turns[i];
    const TurnReport& b = full.turns[i];
    std::string at = what + " turn " + std::to_string(i + 1);
    EXPECT_EQ(a.usage.input_tokens, b.usage.input_tokens) << at;
    EXPECT_EQ(a.usage.cache_read_tokens, b.usage.cache_read_tokens) << at;
    EXPECT_EQ(a.usage.cache_write_tokens, b.usage.cache_write_tokens) << at;
    EXPECT_EQ(a.usage.cache_write_1h_tokens, b.usage.cache_write_1h_tokens) << at;
    EXPECT_EQ(a.usage.uncached_tokens, b.usage.uncached_tokens) << at;
    EXPECT_EQ(a.usage.notes, b.usage.notes) << at;
    EXPECT_EQ(a.ideal_read_tokens, b.ideal_read_tokens) << at;
    EXPECT_EQ(a.drop.has_value(), b.drop.has_value()) << at;
    if (a.drop && b.drop) {
      EXPECT_EQ(a.drop->cause, b.drop->cause) << at;
    }
  }
  EXPECT_EQ(inc.totals.cache_read_tokens, full.totals.cache_read_tokens) << what;
  EXPECT_DOUBLE_EQ(inc.totals.cost, full.totals.cost) << what;
}

TEST(ReplayTest, IncrementalPathEqualsReplayFromScratchOnCorpusTranscripts) {
  auto corpus = testing::CorpusDir();
  auto tok = Qwen2();
  if (!corpus || !tok) GTEST_SKIP();
  for (auto [file, format] : {std::pair{"transcripts/claude-code-subagent.jsonl", "claude-code"},
                              std::pair{"transcripts/codex-rollout.jsonl", "codex"}}) {
    auto t = LoadTranscript(*corpus / file, format);
    ASSERT_TRUE(t) << t.error().message;
    for (auto kind :
         {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi, CacheModelKind::kRadix}) {
      for (auto layout : {ReplayLayout::kStrata, ReplayLayout::kNaive}) {
        ReplayOptions o;
        o.cache.kind = kind;
        o.layout = layout;
        ExpectSameReplay(
            *t, *tok, o,
            std::string(file) + " " + CacheModelName(kind) + " " + ReplayLayoutName(layout));
      }
    }
  }
}

// The same on a generated session with a compaction (a new layout mid-replay) and 1 h breakpoints.
TEST(ReplayTest, IncrementalPathEqualsReplayFromScratchAcrossACompaction) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  Transcript t = Generated(30);
  TranscriptEvent compaction = t.events[60];
  compaction.kind = TranscriptEventKind::kCompaction;
  compaction.message.text = SynthesizeText(900, "summary");
  t.events.insert(t.events.begin() + 61, compaction);
  for (auto kind : {CacheModelKind::kAnthropic, CacheModelKind::kDeepSeek}) {
    ReplayOptions o;
    o.cache.kind = kind;
    o.long_ttl_breakpoints = 2;
    ExpectSameReplay(t, *tok, o, std::string("generated ") + CacheModelName(kind));
  }
}

// Radix and block-hash key a cached prefix only when a request leaves it, hashed from the
// previous request's tokens that replay passes on (CacheRequest::previous_tail): the figures
// equal those of a replay that hashes every request whole when the model alternates (a switch
// leaves the whole chain, the switch back reads it), across a compaction, and when a request
// returns to tokens the one before it left (compactions to one summary, then the first user
// message, another, the first again).
TEST(ReplayTest, IncrementalPathEqualsReplayFromScratchWhenRequestsLeaveAndReturn) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  Transcript t = Generated(30);
  TranscriptEvent compaction = t.events[60];
  compaction.kind = TranscriptEventKind::kCompaction;
  compaction.message.text = SynthesizeText(900, "summary");
  t.events.insert(t.events.begin() + 61, compaction);
  const TranscriptEvent context = t.events[0];
  int i = 0;
  for (size_t at : {80, 70, 50, 40, 34, 26, 20}) {  // from the end: the indices stay valid
    TranscriptEvent c = context;
    c.time = t.events[at].time;
    c.time_s = t.events[at].time_s;
    c.context.model = i++ % 2 == 0 ? "claude-opus-4-1" : "claude-sonnet-4-5";
    t.events.insert(t.events.begin() + std::ptrdiff_t(at), c);
  }
  const std::string time = t.events.back().time;
  const double time_s = t.events.back().time_s;
  for (const char* user : {"first", "second", "first"}) {
    for (auto [kind, text] : {std::pair{TranscriptEventKind::kCompaction, std::string("summary")},
                              std::pair{TranscriptEventKind::kUser, std::string(user)},
                              std::pair{TranscriptEventKind::kAssistant, std::string("answer")}}) {
      TranscriptEvent e = MakeEvent(kind, time, SynthesizeText(600, text));
      e.time_s = time_s;
      t.events.push_back(std::move(e));
    }
  }
  for (auto kind : {CacheModelKind::kRadix, CacheModelKind::kBlockHash}) {
    ReplayOptions o;
    o.cache.kind = kind;
    ExpectSameReplay(t, *tok, o, std::string("alternating models ") + CacheModelName(kind));
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

std::string Fixture(const std::string& name) {
  auto bytes =
      ReadFileBytes(std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures" / name);
  EXPECT_TRUE(bytes) << name;
  return bytes ? *bytes : std::string();
}

// The recorded layout replays what the client sent: request 2 repeats request 1's system and
// user text (once as a one-block array with cache_control, once as a string), so with a 1-token
// minimum everything request 1 wrote at its breakpoints is read by request 2; the recorded usage
// rides along unchanged.
TEST(ReplayTest, RecordedLayoutReplaysTheCanonicalRequests) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.layout = ReplayLayout::kRecorded;
  o.cache.minimum_tokens = 1;
  auto r = ReplayLog(Fixture("recorded-two-requests.jsonl"), "r.jsonl", TranscriptFormat::kRecorded,
                     *tok, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->layout, "recorded");
  EXPECT_EQ(r->transcript_format, "recorded");
  ASSERT_EQ(r->turns.size(), 2u);
  EXPECT_EQ(r->turns[0].usage.cache_read_tokens, 0u);
  EXPECT_GT(r->turns[0].usage.cache_write_tokens, 0u);
  EXPECT_EQ(r->turns[1].usage.cache_read_tokens, r->turns[0].usage.cache_write_tokens);
  EXPECT_EQ(r->turns[1].time, "2025-12-01T12:00:01.000Z");
  ASSERT_TRUE(r->turns[1].recorded);
  EXPECT_EQ(r->turns[1].recorded->cache_read_tokens, 2000u);
  EXPECT_EQ(r->totals.cached_requests, 1u);  // only request 2 recorded a cache read
}

TEST(ReplayTest, RecordedLayoutNeedsARecordedFile) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  ReplayOptions o;
  o.layout = ReplayLayout::kRecorded;
  auto r = ReplayLog(Fixture("claude-code-sidechain.jsonl"), "s.jsonl",
                     TranscriptFormat::kClaudeCode, *tok, o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--prefix-from"), std::string::npos) << r.error().message;
}

// A recorded cache read that falls while the modelled prompt keeps its prefix is flagged.
TEST(ReplayTest, ARecordedDropUnderAnIntactPrefixIsFlagged) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  std::string log = Fixture("recorded-two-requests.jsonl");
  // A third request: the second one plus a user message; the provider read nothing.
  auto lines = nlohmann::json::parse(log.substr(log.find('\n') + 1));
  lines["request"]["messages"].push_back({{"role", "user"}, {"content", "thanks"}});
  lines["usage"] = {
      {"input_tokens", 2100}, {"cache_read_input_tokens", 0}, {"cache_creation_input_tokens", 0}};
  lines["started_ms"] = lines["started_ms"].get<int64_t>() + 60000;  // after request 2 completed
  log += lines.dump() + "\n";
  ReplayOptions o;
  o.layout = ReplayLayout::kRecorded;
  o.cache.minimum_tokens = 1;
  auto r = ReplayLog(log, "r.jsonl", TranscriptFormat::kRecorded, *tok, o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->turns.size(), 3u);
  EXPECT_FALSE(r->turns[1].drop);
  ASSERT_TRUE(r->turns[2].drop);
  EXPECT_EQ(r->turns[2].drop->cause, DropCause::kUnexplained);
  EXPECT_FALSE(r->turns[2].drop->predicted);
  EXPECT_EQ(r->totals.drops[size_t(DropCause::kUnexplained)].count, 1u);
  EXPECT_NE(FormatReplayTable(*r).find("drop: unexplained (not predicted)"), std::string::npos);
}

// --prefix-from: the captured request's tools and system replace the log's stand-ins.
TEST(ReplayTest, PrefixFromGivesALogTheCapturedToolsAndSystem) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  auto t = ParseTranscript(Fixture("claude-code-sidechain.jsonl"), "s.jsonl",
                           TranscriptFormat::kClaudeCode);
  ASSERT_TRUE(t) << t.error().message;
  auto plain = RunReplay(*t, *tok, CacheModelKind::kAnthropic, ReplayLayout::kStrata);
  auto prefix = PrefixFromRequest(Fixture("recorded-two-requests.jsonl"), "r.jsonl");
  ASSERT_TRUE(prefix) << prefix.error().message;
  EXPECT_EQ(prefix->persona, "You are a test agent.");
  ApplyPrefix(&*t, *prefix);
  EXPECT_EQ(t->events[0].context.persona, "You are a test agent.");
  ASSERT_EQ(t->events[0].context.tools.size(), 2u);  // Bash from the capture, then the log's Glob
  EXPECT_EQ(t->events[0].context.tools[0].name, "Bash");
  EXPECT_EQ(t->events[0].context.tools[1].name, "Glob");
  auto with = RunReplay(*t, *tok, CacheModelKind::kAnthropic, ReplayLayout::kStrata);
  EXPECT_NE(with.totals.input_tokens, plain.totals.input_tokens);
}

TEST(ReplayCliTest, RecordedFileDefaultsToTheRecordedLayoutAndComparesWithStrata) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP();
  testing::TempDir dir;
  auto path = dir.Write("r.jsonl", Fixture("recorded-two-requests.jsonl"));
  auto r = testing::RunCli({"replay", "--transcript", path.string(), "--format", "recorded",
                            "--json", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["layout"], "recorded");
  EXPECT_EQ(j["provider"], "anthropic");
  EXPECT_EQ(j["turns"].size(), 2u);
  EXPECT_EQ(j["turns"][1]["recorded"]["cache_read_tokens"], 2000);
  auto c = testing::RunCli({"replay", "--transcript", path.string(), "--format", "recorded",
                            "--compare", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("recorded vs strata"), std::string::npos) << c.out;
  auto cut = dir.Write("cut.jsonl", Fixture("recorded-truncated-last-line.jsonl"));
  auto w = testing::RunCli({"replay", "--transcript", cut.string(), "--format", "recorded",
                            "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.out.find("warning: "), std::string::npos) << w.out;
  auto bad = dir.Write("bad.jsonl", Fixture("recorded-usage-string.jsonl"));
  auto e = testing::RunCli({"replay", "--transcript", bad.string(), "--format", "recorded",
                            "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_NE(e.err.find("bad.jsonl:1"), std::string::npos) << e.err;
}

// ReplayFile settles what the flags leave open from the log: a recorded Anthropic file replays with
// the recorded layout and the anthropic model (compare adds strata's layout), the tokenizer is
// asked for the log's model; a Codex log implies openai.
TEST(ReplayTest, ReplayFileSettlesProviderLayoutAndModelFromTheLog) {
  auto tok = Qwen2();
  if (!tok) GTEST_SKIP() << "no vocabulary files";
  testing::TempDir dir;
  std::vector<std::string> asked;
  auto loader = [&](std::string_view model) -> Result<std::unique_ptr<Tokenizer>> {
    asked.emplace_back(model);
    return LoadNamedTokenizer("qwen2", STRATA_LLAMA_VOCAB_DIR);
  };
  ReplayFileOptions run;
  run.log = dir.Write("r.jsonl", Fixture("recorded-two-requests.jsonl"));
  run.format = TranscriptFormat::kRecorded;
  run.compare = true;
  auto r = ReplayFile(run, loader);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].layout, "recorded");
  EXPECT_EQ((*r)[1].layout, "strata");
  EXPECT_EQ((*r)[0].provider, "anthropic");
  EXPECT_EQ((*r)[0].turns.size(), 2u);
  EXPECT_EQ(asked, std::vector<std::string>{"claude-sonnet-4-5"});

  ReplayFileOptions codex;
  codex.log = dir.Write("c.jsonl", Fixture("codex-compaction.jsonl"));
  codex.format = TranscriptFormat::kCodex;
  asked.clear();
  auto c = ReplayFile(codex, loader);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].provider, "openai");
  EXPECT_EQ((*c)[0].layout, "strata");
  EXPECT_EQ(asked, std::vector<std::string>{"gpt-5-codex"});

  codex.provider = "anthropc";
  auto bad = ReplayFile(codex, loader);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  ReplayFileOptions missing;
  missing.log = dir.path() / "none.jsonl";
  EXPECT_EQ(ReplayFile(missing, loader).error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace strata
