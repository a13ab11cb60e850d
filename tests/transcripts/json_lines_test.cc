// The JSON-lines reader the log formats share (json_lines.h): a lone UTF-16 surrogate escape, as
// Node's JSON.stringify writes one where Claude Code cut a tool output inside an emoji, is read as
// U+FFFD with one warning per file naming the file, the first line and the count, in every reader
// of the logs other programs write (claude-code, codex, recorded, swe-agent); strata's own format
// stays strict.
#include "transcripts/json_lines.h"

#include <gtest/gtest.h>

#include "transcripts/claude_code_log.h"
#include "transcripts/codex_rollout.h"
#include "transcripts/recorded_requests.h"
#include "transcripts/swe_agent_trajectory.h"
#include "transcripts/transcript.h"

namespace strata {
namespace {

constexpr const char* kFffd = "\xEF\xBF\xBD";

std::string UserLine(const std::string& json_text) {
  return R"({"type":"user","message":{"role":"user","content":")" + json_text + "\"}}\n";
}

const std::string kAnswer =
    R"({"type":"assistant","requestId":"r1","message":{"model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}]}})"
    "\n";

const TranscriptEvent* FirstOf(const Transcript& t, TranscriptEventKind kind) {
  for (const auto& e : t.events)
    if (e.kind == kind) return &e;
  return nullptr;
}

TEST(JsonLinesTest, ALoneSurrogateInAClaudeCodeLogIsReadAsReplacementWithOneWarning) {
  // Line 1 is fine, line 2 holds a lone high surrogate, line 4 a lone low and a reversed pair.
  std::string log = UserLine("Look around.") + UserLine(R"(cut \ud83d)") + kAnswer +
                    UserLine(R"(\ude00 and \ude00\ud83d)") + kAnswer;
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  const TranscriptEvent* user = FirstOf(*t, TranscriptEventKind::kUser);
  ASSERT_NE(user, nullptr);
  EXPECT_NE(user->message.text.find(std::string("cut ") + kFffd), std::string::npos)
      << user->message.text;
  ASSERT_EQ(t->warnings.size(), 1u);
  const std::string& w = t->warnings[0];
  EXPECT_EQ(w.rfind("s.jsonl:2: 4 lone UTF-16 surrogates read as U+FFFD (the first on this line; 2 "
                    "lines in all)",
                    0),
            0u)
      << w;
}

TEST(JsonLinesTest, OneLoneSurrogateSaysOne) {
  auto t = ImportClaudeCode(UserLine(R"(end\ud83d)") + kAnswer, "one.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0].rfind("one.jsonl:1: 1 lone UTF-16 surrogate read as U+FFFD:", 0), 0u)
      << t->warnings[0];
  EXPECT_EQ(FirstOf(*t, TranscriptEventKind::kUser)->message.text, std::string("end") + kFffd);
}

TEST(JsonLinesTest, AValidPairIsAnEmojiAndNoWarning) {
  auto t = ImportClaudeCode(UserLine(R"(\ud83d\ude00)") + kAnswer, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->warnings.empty());
  EXPECT_EQ(FirstOf(*t, TranscriptEventKind::kUser)->message.text, "\xF0\x9F\x98\x80");  // U+1F600
}

TEST(JsonLinesTest, CodexAndRecordedFilesReadLoneSurrogatesToo) {
  std::string codex =
      R"({"type":"event_msg","payload":{"type":"task_started"}})"
      "\n"
      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"x\udc00"}]}})"
      "\n";
  auto c = ImportCodexRollout(codex, "r.jsonl");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_EQ(c->warnings[0].rfind("r.jsonl:2: 1 lone UTF-16 surrogate read as U+FFFD", 0), 0u)
      << c->warnings[0];

  std::string recorded =
      R"({"api":"anthropic-messages","request":{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi \ud83d"}]},"usage":null,"status":200,"started_ms":1})"
      "\n";
  std::vector<std::string> warnings;
  std::string text;
  auto n = ReadRecordedRequests(
      recorded, "rec.jsonl",
      [&](RecordedRequest&& r) -> Status {
        text = r.body["messages"][0]["content"];
        return {};
      },
      &warnings);
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_EQ(text, std::string("hi ") + kFffd);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("rec.jsonl:1: 1 lone UTF-16 surrogate read as U+FFFD", 0), 0u)
      << warnings[0];
}

TEST(JsonLinesTest, ASweAgentTrajectoryNamesTheLineOfItsFirstLoneSurrogate) {
  std::string traj =
      "{\"history\":[\n"
      R"({"role":"system","content":"sys"},)"
      "\n"
      R"({"role":"user","content":"a \ud83d b"},)"
      "\n"
      R"({"role":"assistant","content":"ok"}]})"
      "\n";
  auto t = ImportSweAgentTrajectory(traj, "t.traj");
  ASSERT_TRUE(t) << t.error().message;
  bool found = false;
  for (const auto& w : t->warnings) {
    found = found || w.rfind("t.traj:3: 1 lone UTF-16 surrogate read as U+FFFD", 0) == 0;
  }
  EXPECT_TRUE(found);
}

TEST(JsonLinesTest, AWarningForACutShortLastLineKeepsTheSurrogateWarning) {
  std::string log = UserLine(R"(a\ud83d)") + kAnswer + R"({"type":"user","mess)";
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->warnings.size(), 2u);
  EXPECT_NE(t->warnings[0].find("s.jsonl:3: the last line is cut short"), std::string::npos);
  EXPECT_EQ(t->warnings[1].rfind("s.jsonl:1: 1 lone UTF-16 surrogate", 0), 0u) << t->warnings[1];
}

TEST(JsonLinesTest, StrataOwnFormatStaysStrict) {
  auto t = ParseTranscript(R"({"type":"user","text":"a\ud83d"})"
                           "\n",
                           "t.jsonl", TranscriptFormat::kStrata);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("surrogate"), std::string::npos) << t.error().message;
}

// A raw byte that is not UTF-8 makes its line unreadable: that line is skipped with a warning at
// its line quoting the byte as text, the rest of the log read; strata's own format refuses it.
TEST(JsonLinesTest, ARawInvalidByteSkipsItsLineWithAWarningQuotingItAsText) {
  std::string log = UserLine("fine") +
                    "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\xFF\"}}\n" +
                    kAnswer;
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
  EXPECT_EQ(t->skipped_lines, 1u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0].rfind("s.jsonl:2: 1 of 3 lines is not a JSON object, skipped", 0), 0u)
      << t->warnings[0];
  EXPECT_EQ(EscapeInvalidUtf8(t->warnings[0]), t->warnings[0]) << t->warnings[0];
  auto strict = ParseTranscript("{\"type\":\"user\",\"text\":\"a\xFF\"}\n", "t.jsonl",
                                TranscriptFormat::kStrata);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().where.line, 1);
}

// A line that is JSON but not an object (a bare number) is skipped like a broken one.
TEST(JsonLinesTest, ALineThatIsNotAnObjectIsSkippedInALog) {
  auto t = ImportClaudeCode(UserLine("a") + "42\n" + kAnswer, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0].rfind("s.jsonl:2: 1 of 3 lines is not a JSON object, skipped (the first "
                                 "on this line: a JSON number)",
                                 0),
            0u)
      << t->warnings[0];
}

}  // namespace
}  // namespace strata
