// Claude Code log reader tests: one request per requestId, sidechains skipped, a user line without
// content, and usage counts of the wrong type refused at their line.
#include "transcripts/claude_code_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "io/file_io.h"

namespace strata {
namespace {

std::vector<const TranscriptEvent*> Of(const Transcript& t, TranscriptEventKind kind) {
  std::vector<const TranscriptEvent*> out;
  for (const auto& e : t.events)
    if (e.kind == kind) out.push_back(&e);
  return out;
}

constexpr const char* kUser = R"({"type":"user","message":{"role":"user","content":"Fix it."}})";

TEST(ClaudeCodeLogTest, LinesWithOneRequestIdAreOneRequest) {
  std::string log =
      std::string(kUser) + "\n" +
      R"({"type":"assistant","requestId":"r1","message":{"model":"claude-sonnet-4-5","content":[{"type":"text","text":"Looking."}]}})"
      "\n"
      R"({"type":"assistant","requestId":"r1","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"cache_read_input_tokens":100,"cache_creation_input_tokens":20}}})"
      "\n"
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.txt"}]}})"
      "\n"
      R"({"type":"assistant","requestId":"r2","message":{"content":[{"type":"text","text":"Done."}]}})"
      "\n";
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]->message.text, "Looking.");
  ASSERT_EQ(requests[0]->message.tool_calls.size(), 1u);
  EXPECT_EQ(requests[0]->message.tool_calls[0].id, "t1");
  ASSERT_TRUE(requests[0]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 123u);  // 3 + 100 + 20
  EXPECT_EQ(requests[0]->recorded->cache_read_tokens, 100u);
  EXPECT_EQ(requests[0]->recorded->cache_write_tokens, 20u);
  auto results = Of(*t, TranscriptEventKind::kToolResult);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]->message.text, "a.txt");
  EXPECT_EQ(requests[1]->message.text, "Done.");
}

TEST(ClaudeCodeLogTest, SidechainLinesAreNotReplayed) {
  std::string log =
      std::string(kUser) + "\n" +
      R"({"type":"assistant","isSidechain":true,"requestId":"s1","message":{"content":[{"type":"text","text":"subagent"}]}})"
      "\n"
      R"({"type":"assistant","requestId":"r1","message":{"content":[{"type":"text","text":"main"}]}})"
      "\n";
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]->message.text, "main");
}

TEST(ClaudeCodeLogTest, UserLineWithoutContentSaysNothing) {
  auto t = ImportClaudeCode(R"({"type":"user","message":{"role":"user"}})"
                            "\n",
                            "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(Of(*t, TranscriptEventKind::kUser).empty());
}

TEST(ClaudeCodeLogTest, UnknownMembersAreIgnored) {
  auto t = ImportClaudeCode(
      R"({"type":"user","newField":[1,2],"message":{"role":"user","content":"hi","extra":{}}})"
      "\n",
      "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(Of(*t, TranscriptEventKind::kUser).size(), 1u);
}

TEST(ClaudeCodeLogTest, UsageThatIsNotACountIsAnErrorAtItsLine) {
  for (const char* value : {R"("12")", "-5", "1e30", "2.5"}) {
    std::string log =
        std::string(kUser) + "\n" +
        R"({"type":"assistant","requestId":"r1","message":{"content":[],"usage":{"input_tokens":)" +
        value + "}}}\n";
    auto t = ImportClaudeCode(log, "s.jsonl");
    ASSERT_FALSE(t) << value;
    EXPECT_EQ(t.error().where.path, "s.jsonl");
    EXPECT_EQ(t.error().where.line, 2) << value;
    EXPECT_NE(t.error().message.find("'message.usage.input_tokens'"), std::string::npos)
        << t.error().message;
  }
}

TEST(ClaudeCodeLogTest, ReadMemberOfWrongTypeIsAnErrorAtItsLine) {
  std::string log = std::string(kUser) + "\n" + R"({"type":"user","message":{"content":7}})" + "\n";
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().where.line, 2);
  EXPECT_NE(t.error().message.find("'message.content'"), std::string::npos) << t.error().message;
}

}  // namespace
}  // namespace strata

// Hand-written fixtures, one per importer case (tests/transcripts/fixtures/).
namespace strata {
namespace {

std::string ClaudeFixture(const std::string& name) {
  auto bytes =
      ReadFileBytes(std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures" / name);
  EXPECT_TRUE(bytes) << name;
  return bytes ? *bytes : std::string();
}

TEST(ClaudeCodeFixtureTest, ASubagentFileIsItsOwnConversation) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-sidechain.jsonl"), "agent-1.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]->message.tool_calls.at(0).name, "Glob");
  EXPECT_EQ(requests[1]->recorded->cache_read_tokens, 5000u);
  EXPECT_EQ(Of(*t, TranscriptEventKind::kUser).at(0)->message.text, "Find the config file.");
}

TEST(ClaudeCodeFixtureTest, MissingContentSaysNothing) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-missing-content.jsonl"), "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 2u);
  EXPECT_EQ(Of(*t, TranscriptEventKind::kUser).size(), 1u);
}

TEST(ClaudeCodeFixtureTest, CallsWithoutIdsAreKeptApart) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-no-ids.jsonl"), "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 3u);  // no requestId and no message id: one request per line
  EXPECT_EQ(requests[0]->message.tool_calls.size(), 1u);
  EXPECT_EQ(requests[1]->message.tool_calls.size(), 1u);
  EXPECT_EQ(Of(*t, TranscriptEventKind::kToolResult).size(), 2u);
}

TEST(ClaudeCodeFixtureTest, AUsageCountGivenAsAStringIsAnErrorAtItsLine) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-usage-string.jsonl"), "s.jsonl");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().where.line, 2);
  EXPECT_NE(t.error().message.find("message.usage.input_tokens"), std::string::npos)
      << t.error().message;
}

TEST(ClaudeCodeFixtureTest, ACutShortLastLineIsAWarningAndTheRestReads) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-truncated-last-line.jsonl"), "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("s.jsonl:3"), std::string::npos) << t->warnings[0];
}

}  // namespace
}  // namespace strata
