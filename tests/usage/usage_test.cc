// `strata usage` tests: a hand-written home with Claude Code (a session with a TTL gap and a
// compaction, a subagent, a resumed session repeating a request), Codex (a compaction) and
// opencode (a concurrent request) logs; every figure below is worked out by hand from the lines
// written here. Then the corpus logs (their sums read independently from the raw lines), the
// filters, the JSON and the HTML page's self-containment.
#include "strata/replay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/json_reader.h"
#include "support/test_support.h"

namespace strata {
namespace {

using testing::TempDir;

std::string Claude(const std::string& type, const std::string& uuid, const std::string& parent,
                   const std::string& time, const std::string& rest, bool side = false) {
  return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid +
         "\",\"parentUuid\":" + (parent.empty() ? "null" : "\"" + parent + "\"") +
         ",\"isSidechain\":" + (side ? "true" : "false") +
         ",\"cwd\":\"/home/dev/alpha\",\"timestamp\":\"" + time + "\"," + rest + "}\n";
}

std::string ClaudeUser(const std::string& uuid, const std::string& parent, const std::string& time,
                       bool side = false, const std::string& extra = "") {
  return Claude("user", uuid, parent, time,
                extra + "\"message\":{\"role\":\"user\",\"content\":\"go\"}", side);
}

std::string ClaudeAnswer(const std::string& uuid, const std::string& parent,
                         const std::string& time, const std::string& request,
                         const std::string& model, size_t in, size_t read, size_t write, size_t out,
                         bool side = false) {
  return Claude("assistant", uuid, parent, time,
                "\"requestId\":\"" + request + "\",\"message\":{\"model\":\"" + model +
                    "\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"usage\":{"
                    "\"input_tokens\":" +
                    std::to_string(in) + ",\"cache_read_input_tokens\":" + std::to_string(read) +
                    ",\"cache_creation_input_tokens\":" + std::to_string(write) +
                    ",\"output_tokens\":" + std::to_string(out) + "}}",
                side);
}

std::string CodexLine(const std::string& time, const std::string& type,
                      const std::string& payload) {
  return "{\"timestamp\":\"" + time + "\",\"type\":\"" + type + "\",\"payload\":" + payload + "}\n";
}

std::string CodexTurn(const std::string& time, int total, int in, int cached, int out) {
  return CodexLine(time, "response_item",
                   R"({"type":"message","role":"user","content":[{"type":"input_text","text":"t)" +
                       std::to_string(total) + R"("}]})") +
         CodexLine(
             time, "response_item",
             R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]})") +
         CodexLine(time, "event_msg",
                   "{\"type\":\"token_count\",\"info\":{\"total_token_usage\":{\"total_tokens\":" +
                       std::to_string(total) + "},\"last_token_usage\":{\"input_tokens\":" +
                       std::to_string(in) + ",\"cached_input_tokens\":" + std::to_string(cached) +
                       ",\"output_tokens\":" + std::to_string(out) + "}}}");
}

// The home every test reads (see the file comment); dates 2026-11-29 and 2026-11-30.
void WriteHome(const TempDir& home) {
  const std::string p = ".claude/projects/-home-dev-alpha/";
  home.Write(
      p + "sess-a.jsonl",
      ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
          ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "req1", "claude-sonnet-4-5", 10, 0,
                       20000, 100) +
          ClaudeUser("u2", "a1", "2026-11-29T08:00:58Z") +
          ClaudeAnswer("a2", "u2", "2026-11-29T08:01:00Z", "req2", "claude-sonnet-4-5", 10, 20000,
                       1000, 100) +
          ClaudeUser("u3", "a2", "2026-11-29T08:09:58Z") +  // 9 minutes later: 5 min TTL passed
          ClaudeAnswer("a3", "u3", "2026-11-29T08:10:00Z", "req3", "claude-sonnet-4-5", 10, 0,
                       21500, 100) +
          Claude("system", "c1", "", "2026-11-29T08:11:00Z",
                 "\"subtype\":\"compact_boundary\",\"content\":\"Conversation compacted\"") +
          ClaudeUser("s1", "c1", "2026-11-29T08:11:01Z", false, "\"isCompactSummary\":true,") +
          ClaudeUser("u4", "s1", "2026-11-29T08:11:58Z") +
          ClaudeAnswer("a4", "u4", "2026-11-29T08:12:00Z", "req4", "claude-sonnet-4-5", 10, 0, 3000,
                       100));
  home.Write(p + "sess-a/subagents/agent-x.jsonl",
             ClaudeUser("v1", "", "2026-11-29T08:04:58Z", true) +
                 ClaudeAnswer("b1", "v1", "2026-11-29T08:05:00Z", "req5", "claude-haiku-4-5", 5, 0,
                              5000, 10, true) +
                 ClaudeUser("v2", "b1", "2026-11-29T08:05:28Z", true) +
                 ClaudeAnswer("b2", "v2", "2026-11-29T08:05:30Z", "req6", "claude-haiku-4-5", 5,
                              5000, 100, 10, true));
  // A resumed session: its file repeats req1 (counted once), then a request the next day.
  home.Write(p + "sess-b.jsonl", ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
                                     ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "req1",
                                                  "claude-sonnet-4-5", 10, 0, 20000, 100) +
                                     ClaudeUser("w1", "a1", "2026-11-30T08:59:58Z") +
                                     ClaudeAnswer("d1", "w1", "2026-11-30T09:00:00Z", "req7",
                                                  "claude-sonnet-4-5", 10, 0, 20000, 100));
  home.Write(".codex/sessions/2026/11/29/rollout-2026-11-29T10-00-00-c1.jsonl",
             CodexLine("2026-11-29T10:00:00Z", "session_meta",
                       R"({"id":"c1","cwd":"/home/dev/beta","model_provider":"openai"})") +
                 CodexLine("2026-11-29T10:00:00Z", "turn_context", R"({"model":"gpt-5-codex"})") +
                 CodexLine("2026-11-29T10:00:00Z", "event_msg", R"({"type":"task_started"})") +
                 CodexTurn("2026-11-29T10:00:05Z", 5050, 5000, 0, 50) +
                 CodexTurn("2026-11-29T10:00:10Z", 11100, 6000, 4992, 50) +
                 CodexLine("2026-11-29T10:00:20Z", "compacted", R"({"message":"Summary."})") +
                 CodexTurn("2026-11-29T10:00:30Z", 12350, 1200, 0, 50));
  const std::string oc = ".local/share/opencode/storage/message/ses_1/";
  home.Write(
      oc + "msg_1.json",
      R"({"id":"msg_1","sessionID":"ses_1","role":"assistant","modelID":"claude-sonnet-4-5",)"
      R"("path":{"cwd":"/home/dev/gamma"},"time":{"created":1795946400000,"completed":1795946405000},)"
      R"("tokens":{"input":100,"output":20,"reasoning":0,"cache":{"read":0,"write":3000}}})");
  home.Write(
      oc + "msg_0.json",
      R"({"id":"msg_0","sessionID":"ses_1","role":"user","time":{"created":1795946399000}})");
  // Sent 2 s after msg_1, before msg_1's answer completed (5 s): concurrent.
  home.Write(
      oc + "msg_2.json",
      R"({"id":"msg_2","sessionID":"ses_1","role":"assistant","modelID":"claude-sonnet-4-5",)"
      R"("path":{"cwd":"/home/dev/gamma"},"time":{"created":1795946402000,"completed":1795946406000},)"
      R"("tokens":{"input":50,"output":20,"reasoning":0,"cache":{"read":0,"write":3100}}})");
}

UsageReport Scan(const TempDir& home, const std::string& since = "",
                 const std::string& project = "") {
  UsageOptions o;
  o.home = home.path();
  o.home_explicit = true;  // the test's home, whatever the environment says
  o.since = since;
  o.project = project;
  auto r = ScanUsage(o);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : UsageReport{};
}

const SessionUsage* Find(const UsageReport& r, const std::string& source, const std::string& id) {
  for (const auto& s : r.sessions) {
    if (s.source == source && s.id == id) return &s;
  }
  return nullptr;
}

size_t Count(const UsageTotals& t, DropCause c) { return t.drops[size_t(c)].count; }
size_t Lost(const UsageTotals& t, DropCause c) { return t.drops[size_t(c)].lost_tokens; }

TEST(UsageTest, EveryRequestCountedOnceWithItsDrops) {
  TempDir home;
  WriteHome(home);
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 7u);  // 3 Claude Code, 1 Codex, 3 opencode message files
  ASSERT_EQ(r.sessions.size(), 4u);
  // 4 main + 2 subagent + 1 new in the resumed session + 3 codex + 2 opencode.
  EXPECT_EQ(r.totals.requests, 12u);
  EXPECT_EQ(Count(r.totals, DropCause::kTtlExpiry), 2u);  // req3, req7
  EXPECT_EQ(Lost(r.totals, DropCause::kTtlExpiry), 21000u + 20000u);
  EXPECT_EQ(Count(r.totals, DropCause::kCompaction), 2u);  // req4, the codex third turn
  // The codex request of 6,000 tokens left 1024 + 38 * 128 = 5,888 cached (OpenAI's rule).
  EXPECT_EQ(Lost(r.totals, DropCause::kCompaction), 21500u + 5888u);
  EXPECT_EQ(Count(r.totals, DropCause::kConcurrent), 1u);  // msg_2
  EXPECT_EQ(Lost(r.totals, DropCause::kConcurrent), 3000u);
  EXPECT_EQ(Count(r.totals, DropCause::kUnexplained), 0u);

  const SessionUsage* a = Find(r, "claude-code", "sess-a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->project, "/home/dev/alpha");
  ASSERT_EQ(a->chains.size(), 2u);  // main and the subagent
  EXPECT_EQ(a->totals.requests, 6u);
  EXPECT_EQ(a->totals.input_tokens, 20010u + 21010u + 21510u + 3010u + 5005u + 5105u);
  EXPECT_EQ(a->totals.cache_read_tokens, 20000u + 5000u);
  EXPECT_EQ(a->totals.cache_write_tokens, 20000u + 1000u + 21500u + 3000u + 5000u + 100u);
  // Files are read in path order: sess-a/subagents/ before sess-a.jsonl.
  EXPECT_EQ(a->models, (std::vector<std::string>{"claude-haiku-4-5", "claude-sonnet-4-5"}));
  // Sonnet: $3 in, $15 out, read $0.30, 5 min write $3.75; Haiku 4.5: $1, $5, $0.10, $1.25.
  const double sonnet =
      (40 * 3 + 20000 * 0.3 + (20000 + 1000 + 21500 + 3000) * 3.75 + 400 * 15) / 1e6;
  const double haiku = (10 * 1 + 5000 * 0.1 + 5100 * 1.25 + 20 * 5) / 1e6;
  EXPECT_NEAR(a->totals.cost, sonnet + haiku, 1e-9);
  // The drops cost their tokens written again instead of read: (3.75 - 0.30) per million.
  EXPECT_NEAR(a->totals.lost_cost, (21000 + 21500) * 3.45 / 1e6, 1e-9);
  const UsageChain& main = a->chains[0].label == "main" ? a->chains[0] : a->chains[1];
  EXPECT_EQ(main.label, "main");
  ASSERT_EQ(main.requests.size(), 4u);
  ASSERT_TRUE(main.requests[2].drop);
  EXPECT_EQ(main.requests[2].drop->detail, "gap 9m 00s > TTL 5m 00s");
  EXPECT_FALSE(main.requests[1].drop);

  const SessionUsage* b = Find(r, "claude-code", "sess-b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->totals.requests, 1u);  // req1 was counted in sess-a
  const SessionUsage* c = Find(r, "codex", "rollout-2026-11-29T10-00-00-c1");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->project, "/home/dev/beta");
  EXPECT_EQ(c->totals.input_tokens, 5000u + 6000u + 1200u);
  EXPECT_EQ(c->totals.cache_read_tokens, 4992u);
  // GPT-5 prices: $1.25 in, $10 out, cached $0.125; no write premium.
  EXPECT_NEAR(c->totals.cost, ((5000 + 1008 + 1200) * 1.25 + 4992 * 0.125 + 150 * 10) / 1e6, 1e-9);
  const SessionUsage* o = Find(r, "opencode", "ses_1");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->project, "/home/dev/gamma");
  EXPECT_EQ(o->totals.input_tokens, 3100u + 3150u);

  // Days (UTC): everything on the 29th but req7.
  ASSERT_EQ(r.days.size(), 2u);
  EXPECT_EQ(r.days[0].date, "2026-11-29");
  EXPECT_EQ(r.days[0].totals.requests, 11u);
  EXPECT_EQ(r.days[1].date, "2026-11-30");
  EXPECT_EQ(r.days[1].totals.requests, 1u);
  // Worst first: sess-a lost the most.
  EXPECT_EQ(r.sessions[0].id, "sess-a");
}

TEST(UsageTest, SinceAndProjectFilter) {
  TempDir home;
  WriteHome(home);
  UsageReport since = Scan(home, "2026-11-30");
  EXPECT_EQ(since.totals.requests, 1u);
  ASSERT_EQ(since.sessions.size(), 1u);
  EXPECT_EQ(since.sessions[0].id, "sess-b");
  EXPECT_EQ(Scan(home, "20261130").totals.requests, 1u);
  UsageReport beta = Scan(home, "", "beta");
  ASSERT_EQ(beta.sessions.size(), 1u);
  EXPECT_EQ(beta.sessions[0].source, "codex");
  UsageOptions bad;
  bad.home = home.path();
  bad.since = "last week";
  auto r = ScanUsage(bad);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("YYYY-MM-DD"), std::string::npos);
}

// A log a reader refuses (a member of the wrong type) is skipped whole, with a warning naming it.
TEST(UsageTest, AMalformedLogIsSkippedWithAWarningNamingIt) {
  TempDir home;
  WriteHome(home);
  home.Write(".claude/projects/-x/bad.jsonl",
             "{\"type\":\"user\"}\n{\"type\":\"user\",\"message\":{\"content\":7}}\n");
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 12u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("bad.jsonl:2"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("file skipped"), std::string::npos);
}

// A session whose log has a line cut short by a crash and a line of binary junk in the middle,
// and a last line still being written: only those lines are skipped (named with path:line, and
// counted), the session's three requests count.
TEST(UsageTest, ABrokenLineSkipsOnlyThatLine) {
  TempDir home;
  WriteHome(home);
  home.Write(".claude/projects/-x/torn.jsonl",
             ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
                 ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "rt1", "claude-sonnet-4-5", 10, 0,
                              2000, 100) +
                 "{\"type\":\"assistant\",\"uuid\":\"a9\",\"mess\n" +  // line 3: cut short
                 ClaudeUser("u2", "a1", "2026-11-29T08:00:58Z") +
                 std::string("\xff\xfe\x00\x01 junk\n", 10) +  // line 5: binary junk
                 ClaudeAnswer("a2", "u2", "2026-11-29T08:01:00Z", "rt2", "claude-sonnet-4-5", 10,
                              2000, 100, 100) +
                 ClaudeUser("u3", "a2", "2026-11-29T08:01:58Z") +
                 ClaudeAnswer("a3", "u3", "2026-11-29T08:02:00Z", "rt3", "claude-sonnet-4-5", 10,
                              2100, 100, 100) +
                 "{\"type\":\"user\",\"uuid\":\"u4\",\"tim");  // line 9: being written
  UsageReport r = Scan(home);
  EXPECT_TRUE(r.skipped.empty());
  const SessionUsage* s = Find(r, "claude-code", "torn");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->totals.requests, 3u);
  EXPECT_EQ(s->totals.cache_read_tokens, 2000u + 2100u);
  EXPECT_EQ(r.totals.requests, 15u);
  EXPECT_EQ(r.skipped_lines, 3u);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_NE(r.warnings[0].find("torn.jsonl:9: the last line is cut short"), std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[1].find("torn.jsonl:3: 2 of 8 lines are not a JSON object, skipped"),
            std::string::npos)
      << r.warnings[1];
  const std::string table = FormatUsageTable(r);
  EXPECT_NE(table.find("; 3 broken lines skipped"), std::string::npos) << table;
  EXPECT_EQ(nlohmann::json::parse(FormatUsageJson(r))["skipped_lines"], 3);
}

std::string ClaudeAnswerRaw(const std::string& uuid, const std::string& parent,
                            const std::string& time, const std::string& request,
                            const std::string& input_tokens) {
  return Claude("assistant", uuid, parent, time,
                "\"requestId\":\"" + request +
                    "\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"content\":[],\"usage\":{"
                    "\"input_tokens\":" +
                    input_tokens + ",\"cache_creation_input_tokens\":1000,\"output_tokens\":10}}");
}

// Usage counts that are not integers from 0 to 10^12 (negative, a string, 1e30, a fraction,
// beyond int64) refuse their line's usage, each with a warning naming path:line and the member;
// the log's other requests count.
TEST(UsageTest, BadUsageNumbersRefuseTheLineAndTheRestCounts) {
  TempDir home;
  const char* bad[] = {"-5", "\"12\"", "1e30", "2.5", "9223372036854775808"};
  std::string log = ClaudeUser("u0", "", "2026-11-29T08:00:00Z") +
                    ClaudeAnswerRaw("a0", "u0", "2026-11-29T08:00:01Z", "ok1", "7");
  for (int i = 0; i < 5; ++i) {
    log += ClaudeUser("u" + std::to_string(i + 1), "", "2026-11-29T08:00:02Z") +
           ClaudeAnswerRaw("b" + std::to_string(i), "", "2026-11-29T08:00:03Z",
                           "bad" + std::to_string(i), bad[i]);
  }
  log += ClaudeUser("u9", "", "2026-11-29T08:00:04Z") +
         ClaudeAnswerRaw("a9", "u9", "2026-11-29T08:00:05Z", "ok2", "9");
  home.Write(".claude/projects/-x/s.jsonl", log);
  UsageReport r = Scan(home);
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_EQ(r.totals.requests, 2u);
  EXPECT_EQ(r.totals.input_tokens, (7u + 1000u) + (9u + 1000u));
  ASSERT_EQ(r.warnings.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const std::string at = "s.jsonl:" + std::to_string(4 + 2 * i) +
                           ": 'message.usage.input_tokens' must be an integer from 0 to ";
    EXPECT_NE(r.warnings[size_t(i)].find(at), std::string::npos) << r.warnings[size_t(i)];
  }
}

// Claude Code's "<synthetic>" assistant lines (an API error, zero usage) are no requests: the
// session has its two real requests, one model, and no model-change drop.
TEST(UsageTest, SyntheticAssistantLinesAreNotRequests) {
  TempDir home;
  home.Write(".claude/projects/-x/s.jsonl",
             ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
                 ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "req1", "claude-sonnet-4-5", 10,
                              0, 20000, 100) +
                 ClaudeUser("u2", "a1", "2026-11-29T08:00:30Z") +
                 ClaudeAnswer("x1", "u2", "2026-11-29T08:00:31Z", "", "<synthetic>", 0, 0, 0, 0) +
                 ClaudeUser("u3", "x1", "2026-11-29T08:00:58Z") +
                 ClaudeAnswer("a2", "u3", "2026-11-29T08:01:00Z", "req2", "claude-sonnet-4-5", 10,
                              20000, 100, 100));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.totals.requests, 2u);
  EXPECT_EQ(r.sessions[0].models, (std::vector<std::string>{"claude-sonnet-4-5"}));
  EXPECT_EQ(Count(r.totals, DropCause::kModelChange), 0u);
  EXPECT_EQ(r.totals.LostTokens(), 0u);
}

// A Codex rollout whose model is switched between turns (/model): each turn_context sets the
// model of the requests after it; the switch is a model change, and each request is priced at
// its own model's price.
TEST(UsageTest, ACodexModelSwitchIsAModelChangeAndPricesFollowTheModel) {
  TempDir home;
  home.Write(
      ".codex/sessions/2026/11/29/rollout-2026-11-29T10-00-00-m1.jsonl",
      CodexLine("2026-11-29T10:00:00Z", "session_meta",
                R"({"id":"m1","cwd":"/home/dev/beta","model_provider":"openai"})") +
          CodexLine("2026-11-29T10:00:00Z", "turn_context", R"({"model":"gpt-5-codex"})") +
          CodexLine("2026-11-29T10:00:00Z", "event_msg", R"({"type":"task_started"})") +
          CodexTurn("2026-11-29T10:00:05Z", 5050, 5000, 0, 50) +
          CodexLine("2026-11-29T10:00:06Z", "turn_context", R"({"model":"gpt-5.1-codex-mini"})") +
          CodexTurn("2026-11-29T10:00:10Z", 11100, 6000, 0, 50) +
          CodexTurn("2026-11-29T10:00:15Z", 17650, 6500, 5888, 50));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  const SessionUsage& s = r.sessions[0];
  EXPECT_EQ(s.models, (std::vector<std::string>{"gpt-5-codex", "gpt-5.1-codex-mini"}));
  const auto& reqs = s.chains.at(0).requests;
  ASSERT_EQ(reqs.size(), 3u);
  ASSERT_TRUE(reqs[1].drop);
  EXPECT_EQ(reqs[1].drop->cause, DropCause::kModelChange);
  // 5,000 tokens left 1024 + 31 * 128 = 4,992 cached (OpenAI's rule), all lost.
  EXPECT_EQ(reqs[1].drop->lost_tokens, 4992u);
  EXPECT_FALSE(reqs[2].drop);
  // gpt-5-codex $1.25 / $10; gpt-5.1-codex-mini $0.25 / $2, cached $0.025.
  EXPECT_NEAR(reqs[0].cost, (5000 * 1.25 + 50 * 10) / 1e6, 1e-12);
  EXPECT_NEAR(reqs[1].cost, (6000 * 0.25 + 50 * 2) / 1e6, 1e-12);
  EXPECT_NEAR(reqs[2].cost, (612 * 0.25 + 5888 * 0.025 + 50 * 2) / 1e6, 1e-12);
  // Lost under automatic caching: sent uncached instead of read, at the mini's price.
  EXPECT_NEAR(s.totals.lost_cost, 4992 * (0.25 - 0.025) / 1e6, 1e-12);
}

// A rollout naming no model is priced at its provider's default (OpenAI: GPT-5), with one
// warning for the file, not at Claude Sonnet's price.
TEST(UsageTest, ACodexRolloutWithoutAModelIsPricedAtItsProvidersDefaultWithAWarning) {
  TempDir home;
  home.Write(".codex/sessions/2026/11/29/rollout-2026-11-29T10-00-00-n1.jsonl",
             CodexLine("2026-11-29T10:00:00Z", "session_meta",
                       R"({"id":"n1","cwd":"/home/dev/beta","model_provider":"openai"})") +
                 CodexLine("2026-11-29T10:00:00Z", "event_msg", R"({"type":"task_started"})") +
                 CodexTurn("2026-11-29T10:00:05Z", 5050, 5000, 0, 50) +
                 CodexTurn("2026-11-29T10:00:10Z", 11100, 6000, 4992, 50));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_NEAR(r.totals.cost, ((5000 + 1008) * 1.25 + 4992 * 0.125 + 100 * 10) / 1e6, 1e-12);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("rollout-2026-11-29T10-00-00-n1.jsonl: no model named"),
            std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("provider 'openai'"), std::string::npos) << r.warnings[0];
}

// List prices (dollars per million tokens, from OpenAI's and Anthropic's pricing pages, written
// here by hand): a -mini / -nano never takes its parent's price, a newer point release is not
// taken for its parent.
TEST(UsageTest, PricesMatchTheLongestFamilyWithTheSameVariant) {
  struct Case {
    const char* model;
    double input, output, cached;
    bool known;
  };
  const Case cases[] = {
      {"gpt-5.1-codex-mini", 0.25, 2, 0.025, true},
      {"gpt-5-codex-mini", 0.25, 2, 0.025, true},
      {"gpt-5.2", 1.75, 14, 0.175, true},
      {"gpt-5.2-2025-12-11", 1.75, 14, 0.175, true},
      {"gpt-5.2-codex", 1.75, 14, 0.175, true},
      {"gpt-5.3-codex", 1.75, 14, 0.175, true},
      {"gpt-5", 1.25, 10, 0.125, true},
      {"gpt-5-2025-08-07", 1.25, 10, 0.125, true},
      {"openai/gpt-5-codex", 1.25, 10, 0.125, true},
      {"gpt-5.1-codex-max", 1.25, 10, 0.125, true},
      {"gpt-5-mini-2025-08-07", 0.25, 2, 0.025, true},
      {"gpt-5-nano", 0.05, 0.4, 0.005, true},
      {"gpt-4.1-nano", 0.1, 0.4, 0.025, true},
      {"gpt-4o-mini-2024-07-18", 0.15, 0.6, 0.075, true},
      {"gpt-4o", 2.5, 10, 1.25, true},
      {"o4-mini", 1.1, 4.4, 0.275, true},
      {"o3", 2, 8, 0.5, true},
      {"o3-mini", 1.1, 4.4, 0.55, true},
      {"claude-opus-4-5@20251101", 5, 25, 0.5, true},
      {"claude-opus-4-1-20250805", 15, 75, 1.5, true},
      {"us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3, 15, 0.3, true},
      {"claude-3-5-haiku-20241022", 0.8, 4, 0.08, true},
      {"claude-haiku-4-5-20251001", 1, 5, 0.1, true},
      // Unknown: a mini of a release not in the table is priced as a mini, not as GPT-5.
      {"gpt-5.9-mini", 0.25, 2, 0.025, false},
      {"gpt-5.9", 1.25, 10, 0.125, false},
      {"mystery-model", 3, 15, 0.3, false},
  };
  for (const auto& c : cases) {
    ModelPrice p = PriceForModel(c.model);
    EXPECT_DOUBLE_EQ(p.input, c.input) << c.model;
    EXPECT_DOUBLE_EQ(p.output, c.output) << c.model;
    EXPECT_NEAR(p.input * p.read_multiplier, c.cached, 1e-12) << c.model;
    EXPECT_EQ(p.known, c.known) << c.model;
  }
  // No model: the provider's default.
  EXPECT_DOUBLE_EQ(PriceForModel("", "openai").input, 1.25);
  EXPECT_FALSE(PriceForModel("", "openai").known);
  EXPECT_DOUBLE_EQ(PriceForModel("", "anthropic").input, 3);
  EXPECT_DOUBLE_EQ(PriceForModel("", "azure").output, 10);
}

// One session file of many holds a raw byte that is not UTF-8 (Node never writes one: the line
// is corrupt): that line is skipped and named with its line in a warning (the byte quoted as
// text), the table's first line counts it, the JSON (which cannot hold the raw byte) is still
// written, and every other session is reported as before.
TEST(UsageTest, OneCorruptLineIsNamedWithItsLineAndTheRestStillCounts) {
  TempDir home;
  WriteHome(home);
  home.Write(".claude/projects/-x/corrupt.jsonl",
             ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
                 "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\xFF\"}}\n" +
                 ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "reqc", "claude-sonnet-4-5", 10,
                              0, 2000, 100));
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 13u);  // WriteHome's twelve and the corrupt file's one
  EXPECT_EQ(r.files, 8u);
  EXPECT_TRUE(r.skipped.empty());
  EXPECT_EQ(r.skipped_lines, 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("corrupt.jsonl:2: 1 of 3 lines is not a JSON object, skipped"),
            std::string::npos)
      << r.warnings[0];
  const std::string table = FormatUsageTable(r);
  EXPECT_NE(table.find("from 8 log files; 1 broken line skipped"), std::string::npos) << table;
  EXPECT_NE(table.find("corrupt.jsonl:2:"), std::string::npos);
  EXPECT_EQ(EscapeInvalidUtf8(table), table);  // the message quotes the byte as text
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(FormatUsageJson(r)));
  EXPECT_EQ(j["totals"]["requests"], 13);
  EXPECT_EQ(j["skipped_lines"], 1);
  EXPECT_TRUE(j["skipped_files"].empty());
}

// A path is bytes: a session file whose name is not UTF-8 still gives a JSON report.
TEST(UsageTest, AFileNameThatIsNotUtf8KeepsTheJsonWritable) {
  TempDir home;
  home.Write(".claude/projects/-x/s\xFF.jsonl",
             ClaudeUser("u1", "", "2026-11-29T07:59:58Z") +
                 ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "req1", "claude-sonnet-4-5", 10,
                              0, 2000, 100));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(FormatUsageJson(r)));
  EXPECT_EQ(j["totals"]["requests"], 1);
}

// Lone UTF-16 surrogate escapes (a tool output Node cut inside an emoji) are read as U+FFFD in
// Claude Code, Codex and opencode files alike, with one warning per file; the requests count.
TEST(UsageTest, LoneSurrogatesAreReadWithOneWarningPerFile) {
  TempDir home;
  home.Write(
      ".claude/projects/-x/s.jsonl",
      ClaudeUser("u1", "", "2026-11-29T07:59:58Z", false, R"("toolUseResult":"cut \ud83d",)") +
          ClaudeAnswer("a1", "u1", "2026-11-29T08:00:00Z", "req1", "claude-sonnet-4-5", 10, 0, 2000,
                       100));
  home.Write(
      ".local/share/opencode/storage/message/ses_1/msg_1.json",
      R"({"id":"msg_1","sessionID":"ses_1","role":"assistant","modelID":"claude-sonnet-4-5",)"
      R"("summary_text":"\udc00","time":{"created":1795946400000,"completed":1795946405000},)"
      R"("tokens":{"input":100,"output":20,"reasoning":0,"cache":{"read":0,"write":3000}}})");
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 2u);
  EXPECT_TRUE(r.skipped.empty());
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_NE(r.warnings[0].find("s.jsonl:1: 1 lone UTF-16 surrogate read as U+FFFD"),
            std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[1].find("msg_1.json:1: 1 lone UTF-16 surrogate read as U+FFFD"),
            std::string::npos)
      << r.warnings[1];
}

// OpenAI caches no prompt below 1024 tokens: a Codex request after one of 900 tokens lost
// nothing, whatever it read. 1200 tokens cached 1152 (1024 + 128); the next one reading 0 lost
// those 1152 (held = the longest 1024 + 128k at or below the previous input).
TEST(UsageTest, AnOpenAiRequestAfterOneBelowTheMinimumHasNoDrop) {
  TempDir home;
  home.Write(".codex/sessions/2026/11/29/rollout-2026-11-29T10-00-00-c2.jsonl",
             CodexLine("2026-11-29T10:00:00Z", "session_meta",
                       R"({"id":"c2","cwd":"/home/dev/beta","model_provider":"openai"})") +
                 CodexLine("2026-11-29T10:00:00Z", "turn_context", R"({"model":"gpt-5-codex"})") +
                 CodexLine("2026-11-29T10:00:00Z", "event_msg", R"({"type":"task_started"})") +
                 CodexTurn("2026-11-29T10:00:05Z", 950, 900, 0, 50) +
                 CodexTurn("2026-11-29T10:00:10Z", 2250, 1200, 0, 100) +
                 CodexTurn("2026-11-29T10:00:15Z", 3600, 1300, 0, 50));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  const auto& reqs = r.sessions[0].chains.at(0).requests;
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_FALSE(reqs[1].drop);  // the 900-token request cached nothing
  ASSERT_TRUE(reqs[2].drop);
  EXPECT_EQ(reqs[2].drop->held_tokens, 1152u);
  EXPECT_EQ(reqs[2].drop->lost_tokens, 1152u);
  EXPECT_EQ(r.totals.LostTokens(), 1152u);
}

TEST(UsageTest, JsonAndTableCarryTheCauses) {
  TempDir home;
  WriteHome(home);
  UsageReport r = Scan(home);
  auto j = nlohmann::json::parse(FormatUsageJson(r));
  EXPECT_EQ(j["totals"]["requests"], 12);
  EXPECT_EQ(j["totals"]["drops"]["ttl-expiry"]["count"], 2);
  EXPECT_EQ(j["totals"]["drops"]["compaction"]["lost_tokens"], 21500 + 5888);
  EXPECT_EQ(j["sessions"][0]["drops"][0]["cause"], "ttl-expiry");
  EXPECT_EQ(j["days"].size(), 2u);
  std::string table = FormatUsageTable(r);
  EXPECT_NE(table.find("compaction 2 (27388)"), std::string::npos) << table;
  EXPECT_NE(table.find("concurrent 1 (3000)"), std::string::npos) << table;
}

// The page loads nothing from anywhere: no URL, no external script or stylesheet; one chart per
// chain, a marker per drop.
TEST(UsageTest, HtmlReportIsSelfContained) {
  TempDir home;
  WriteHome(home);
  std::string html = FormatUsageHtml(Scan(home));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  size_t charts = 0, drops = 0;
  for (size_t at = 0; (at = html.find("<svg class=\"chart\"", at)) != std::string::npos; ++at)
    ++charts;
  for (size_t at = 0; (at = html.find("class=\"drop\"", at)) != std::string::npos; ++at) ++drops;
  EXPECT_EQ(charts, 5u);  // sess-a main and subagent, sess-b, codex, opencode
  EXPECT_EQ(drops, 5u);
}

// The corpus Claude Code log: requests and token sums equal those read straight from its lines
// (one request per requestId, its last usage), whatever its drops.
TEST(UsageTest, CorpusClaudeCodeLogSumsMatchItsLines) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  const auto log = *corpus / "transcripts" / "claude-code-subagent.jsonl";
  TempDir home;
  std::filesystem::create_directories(home.path() / ".claude/projects/p");
  std::filesystem::create_symlink(log, home.path() / ".claude/projects/p/s.jsonl");
  std::map<std::string, nlohmann::json> usage;  // requestId -> last usage
  std::string text = testing::ReadAll(log);
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    auto j = nlohmann::json::parse(text.substr(at, end - at), nullptr, false);
    at = end == std::string::npos ? text.size() : end + 1;
    if (!j.is_object() || j.value("type", "") != "assistant") continue;
    if (j["message"].contains("usage")) usage[j.value("requestId", "")] = j["message"]["usage"];
  }
  size_t read = 0, write = 0, in = 0;
  for (auto& [id, u] : usage) {
    read += u.value("cache_read_input_tokens", size_t{0});
    write += u.value("cache_creation_input_tokens", size_t{0});
    in += u.value("input_tokens", size_t{0});
  }
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, usage.size());
  EXPECT_EQ(r.totals.cache_read_tokens, read);
  EXPECT_EQ(r.totals.cache_write_tokens, write);
  EXPECT_EQ(r.totals.input_tokens, in + read + write);
}

// Sets an environment variable for one test, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string OneClaudeSession(const std::string& request, const std::string& time) {
  return ClaudeUser("u-" + request, "", time) + ClaudeAnswer("a-" + request, "u-" + request, time,
                                                             request, "claude-sonnet-4-5", 10, 0,
                                                             2000, 100);
}

std::string OneCodexRollout() {
  return CodexLine("2026-11-29T10:00:00Z", "turn_context", R"({"model":"gpt-5-codex"})") +
         CodexLine("2026-11-29T10:00:00Z", "event_msg", R"({"type":"task_started"})") +
         CodexTurn("2026-11-29T10:00:05Z", 5050, 5000, 0, 50);
}

// An explicit home (--home) beats $CODEX_HOME and $CLAUDE_CONFIG_DIR; without it the environment
// names the roots, $CLAUDE_CONFIG_DIR each of its comma-separated directories.
TEST(UsageTest, AnExplicitHomeBeatsTheEnvironmentWhichMayNameSeveralClaudeDirs) {
  TempDir home, env;
  home.Write(".codex/sessions/2026/11/29/rollout-home.jsonl", OneCodexRollout());
  home.Write(".claude/projects/-p/home-s.jsonl", OneClaudeSession("h1", "2026-11-29T08:00:00Z"));
  env.Write("codex/sessions/rollout-env.jsonl", OneCodexRollout());
  env.Write("c1/projects/-p/env-s1.jsonl", OneClaudeSession("e1", "2026-11-29T08:00:00Z"));
  env.Write("c2/projects/-p/env-s2.jsonl", OneClaudeSession("e2", "2026-11-29T08:00:00Z"));
  ScopedEnv codex("CODEX_HOME", (env.path() / "codex").string());
  ScopedEnv claude("CLAUDE_CONFIG_DIR",
                   (env.path() / "c1").string() + ", " + (env.path() / "c2").string());
  auto ids = [](const UsageReport& r) {
    std::vector<std::string> out;
    for (const auto& s : r.sessions) out.push_back(s.id);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(ids(Scan(home)), (std::vector<std::string>{"home-s", "rollout-home"}));
  UsageOptions o;
  o.home = home.path();  // the default home ($HOME): the environment wins
  auto from_env = ScanUsage(o);
  ASSERT_TRUE(from_env);
  EXPECT_EQ(ids(*from_env), (std::vector<std::string>{"env-s1", "env-s2", "rollout-env"}));
}

// Newer Claude Code logs under ~/.config/claude: read with ~/.claude, a request in both once.
TEST(UsageTest, BothClaudeConfigDirsAreReadAndARequestInBothCountsOnce) {
  TempDir home;
  home.Write(".config/claude/projects/-p/s.jsonl",
             OneClaudeSession("r1", "2026-11-29T08:00:00Z") +
                 OneClaudeSession("r2", "2026-11-29T08:01:00Z"));
  home.Write(".claude/projects/-p/s.jsonl", OneClaudeSession("r1", "2026-11-29T08:00:00Z"));
  home.Write(".claude/projects/-q/old.jsonl", OneClaudeSession("r3", "2026-11-29T07:00:00Z"));
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 3u);
  EXPECT_EQ(r.sessions.size(), 2u);
  EXPECT_EQ(r.totals.requests, 3u);  // r1 once, r2, r3
}

// A symlinked project directory is followed; a link cycle ends (each directory read once).
TEST(UsageTest, SymlinkedProjectDirectoriesAreFollowedAndCyclesEnd) {
  TempDir home, elsewhere;
  elsewhere.Write("proj/linked.jsonl", OneClaudeSession("l1", "2026-11-29T08:00:00Z"));
  std::filesystem::create_directory_symlink(elsewhere.path() / "proj",
                                            elsewhere.path() / "proj" / "loop");
  home.Write(".claude/projects/-p/plain.jsonl", OneClaudeSession("p1", "2026-11-29T08:00:00Z"));
  std::filesystem::create_directory_symlink(elsewhere.path() / "proj",
                                            home.path() / ".claude/projects/-linked");
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 2u);
  EXPECT_EQ(r.totals.requests, 2u);
  EXPECT_NE(Find(r, "claude-code", "linked"), nullptr);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.at(0);
}

// A root that exists but cannot be read (here a file where a directory should be), an override
// that does not exist, and a --home holding none of the roots: warnings naming the paths.
TEST(UsageTest, UnreadableOrMissingRootsAreWarningsNamingThePaths) {
  TempDir home;
  home.Write("not-a-dir", "x");
  UsageOptions o;
  o.home = home.path();
  o.home_explicit = true;
  o.claude_projects = home.path() / "not-a-dir";
  o.codex_sessions = home.path() / "no-such";
  auto r = ScanUsage(o);
  ASSERT_TRUE(r);
  const std::string all = [&] {
    std::string s;
    for (const auto& w : r->warnings) s += w + "\n";
    return s;
  }();
  EXPECT_NE(all.find((home.path() / "not-a-dir").string() + ": cannot be read ("),
            std::string::npos)
      << all;
  EXPECT_NE(all.find((home.path() / "no-such").string() + ": no such directory (--codex-sessions)"),
            std::string::npos)
      << all;
  UsageOptions empty;
  empty.home = home.path();
  empty.home_explicit = true;
  auto e = ScanUsage(empty);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->warnings.size(), 1u);
  EXPECT_NE(e->warnings[0].find(home.path().string() +
                                ": no agent logs found under this home "
                                "(looked at " +
                                (home.path() / ".config/claude/projects").string() + ", " +
                                (home.path() / ".claude/projects").string()),
            std::string::npos)
      << e->warnings[0];
}

// An unreadable project directory is named in a warning (not as root: root reads everything).
TEST(UsageTest, AnUnreadableSubdirectoryIsAWarningNamingIt) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a mode-000 directory";
  TempDir home;
  home.Write(".claude/projects/-p/s.jsonl", OneClaudeSession("r1", "2026-11-29T08:00:00Z"));
  home.Write(".claude/projects/-locked/t.jsonl", OneClaudeSession("r2", "2026-11-29T08:00:00Z"));
  const auto locked = home.path() / ".claude/projects/-locked";
  std::filesystem::permissions(locked, std::filesystem::perms::none);
  UsageReport r = Scan(home);
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  EXPECT_EQ(r.totals.requests, 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind(locked.string() + ": cannot be read (", 0), 0u) << r.warnings[0];
}

// A log that cannot be opened is skipped with one warning naming its path once (the I/O error's
// message names it too: not printed twice).
TEST(UsageTest, AnUnreadableLogIsNamedOnce) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a mode-000 file";
  TempDir home;
  const auto f =
      home.Write(".claude/projects/-p/s.jsonl", OneClaudeSession("r1", "2026-11-29T08:00:00Z"));
  std::filesystem::permissions(f, std::filesystem::perms::none);
  UsageReport r = Scan(home);
  std::filesystem::permissions(f, std::filesystem::perms::owner_all);
  ASSERT_EQ(r.skipped.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind(f.string() + ": error: ", 0), 0u) << r.warnings[0];
  EXPECT_EQ(r.warnings[0].find(f.string(), 1), std::string::npos) << r.warnings[0];
}

// Older Claude Code wrote a subagent flat as <project>/agent-<id>.jsonl, its lines carrying the
// parent's sessionId: one session with two chains, not two sessions.
TEST(UsageTest, AFlatAgentFileFoldsIntoItsParentSession) {
  TempDir home;
  home.Write(".claude/projects/-p/sess-f.jsonl", OneClaudeSession("m1", "2026-11-29T08:00:00Z"));
  home.Write(".claude/projects/-p/agent-1a2b.jsonl",
             ClaudeUser("v1", "", "2026-11-29T08:00:10Z", true, "\"sessionId\":\"sess-f\",") +
                 ClaudeAnswer("b1", "v1", "2026-11-29T08:00:12Z", "s1", "claude-haiku-4-5", 5, 0,
                              5000, 10, true));
  UsageReport r = Scan(home);
  ASSERT_EQ(r.sessions.size(), 1u);
  const SessionUsage& s = r.sessions[0];
  EXPECT_EQ(s.id, "sess-f");
  EXPECT_EQ(s.totals.requests, 2u);
  ASSERT_EQ(s.chains.size(), 2u);
  std::vector<std::string> labels{s.chains[0].label, s.chains[1].label};
  std::sort(labels.begin(), labels.end());
  EXPECT_EQ(labels, (std::vector<std::string>{"agent-1a2b", "main"}));
  EXPECT_TRUE(s.path.ends_with("-p/sess-f.jsonl")) << s.path;
}

// A log larger than the read limit is mapped and read, not skipped (the limit lowered here to
// a few bytes: the mapped path reads the same lines).
TEST(UsageTest, ALogAboveTheReadLimitIsMappedAndCounted) {
  TempDir home;
  WriteHome(home);
  UsageOptions o;
  o.home = home.path();
  o.home_explicit = true;
  o.map_above_bytes = 64;
  auto r = ScanUsage(o);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->skipped.empty());
  EXPECT_EQ(r->totals.requests, 12u);
}

// The table names each session by a prefix no other session shares (24 characters at least),
// and says "1 session", "1 log file".
TEST(UsageTest, TheTableShowsUniqueIdsAndSingulars) {
  TempDir home;
  const std::string a = "0123456789abcdef0123456789-aaaa", b = "0123456789abcdef0123456789-bbbb";
  home.Write(".claude/projects/-p/" + a + ".jsonl", OneClaudeSession("r1", "2026-11-29T08:00:00Z"));
  UsageReport one = Scan(home);
  EXPECT_NE(FormatUsageTable(one).find("strata usage: 1 session from 1 log file\n"),
            std::string::npos)
      << FormatUsageTable(one);
  home.Write(".claude/projects/-p/" + b + ".jsonl", OneClaudeSession("r2", "2026-11-29T08:00:00Z"));
  const std::string table = FormatUsageTable(Scan(home));
  EXPECT_NE(table.find("claude-code 0123456789abcdef0123456789-a "), std::string::npos) << table;
  EXPECT_NE(table.find("claude-code 0123456789abcdef0123456789-b "), std::string::npos) << table;
}

// --since counts requests by their own time: a file written today whose requests are older
// counts none of them (WriteHome's files are all written now).
TEST(UsageTest, SinceFiltersRequestsByTheirTimeNotTheFilesMtime) {
  TempDir home;
  WriteHome(home);
  EXPECT_EQ(Scan(home, "2026-12-01").totals.requests, 0u);
  EXPECT_EQ(Scan(home, "2026-11-30").totals.requests, 1u);
}

}  // namespace
}  // namespace strata
