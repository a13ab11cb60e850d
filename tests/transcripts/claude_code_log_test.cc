// Claude Code log reader tests: one request per requestId, sidechains skipped, a user line without
// content, usage counts of the wrong type refused at their line (a warning; the rest is read),
// broken lines skipped, and Claude Code's own "<synthetic>" lines not taken as requests.
#include "transcripts/claude_code_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "base/json_reader.h"
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

std::string Answer(const std::string& request, const std::string& model,
                   const std::string& input_tokens) {
  return R"({"type":"assistant","requestId":")" + request + R"(","message":{"model":")" + model +
         R"(","content":[],"usage":{"input_tokens":)" + input_tokens +
         R"(,"cache_read_input_tokens":0,"output_tokens":1}}})" + "\n";
}

// A usage count that is not an integer from 0 to 10^12 refuses that line's usage with a warning
// naming the line and the member; the requests before and after it count.
TEST(ClaudeCodeLogTest, UsageThatIsNotACountIsRefusedAtItsLineAndTheRestReads) {
  for (const char* value : {R"("12")", "-5", "1e30", "2.5", "9223372036854775808"}) {
    std::string log = std::string(kUser) + "\n" + Answer("r1", "claude-sonnet-4-5", "100") + kUser +
                      "\n" + Answer("r2", "claude-sonnet-4-5", value) + kUser + "\n" +
                      Answer("r3", "claude-sonnet-4-5", "300");
    auto t = ImportClaudeCode(log, "s.jsonl");
    ASSERT_TRUE(t) << value << ": " << t.error().message;
    std::vector<size_t> inputs;
    for (const auto* e : Of(*t, TranscriptEventKind::kAssistant)) {
      if (e->recorded) inputs.push_back(e->recorded->input_tokens);
    }
    EXPECT_EQ(inputs, (std::vector<size_t>{100, 300})) << value;
    ASSERT_EQ(t->warnings.size(), 1u) << value;
    EXPECT_EQ(t->warnings[0].rfind("s.jsonl:4: 'message.usage.input_tokens' must be", 0), 0u)
        << t->warnings[0];
    EXPECT_NE(t->warnings[0].find("the line's usage is refused"), std::string::npos);
  }
}

// One line cut short by a crash and one of binary junk in the middle of a log: only those lines
// are skipped, with one warning naming the first (path:line) and the count.
TEST(ClaudeCodeLogTest, BrokenLinesInTheMiddleAreSkippedAndTheRestReads) {
  std::string log = std::string(kUser) + "\n" + Answer("r1", "claude-sonnet-4-5", "100") +
                    R"({"type":"assistant","requestId":"r9","mess)" + "\n" +
                    std::string("\x00\xff\xfe junk \x01\n", 11) + kUser + "\n" +
                    Answer("r2", "claude-sonnet-4-5", "200");
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 2u);
  EXPECT_EQ(t->skipped_lines, 2u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0].rfind("s.jsonl:3: 2 of 6 lines are not a JSON object, skipped (the "
                                 "first on this line: ",
                                 0),
            0u)
      << t->warnings[0];
  EXPECT_EQ(EscapeInvalidUtf8(t->warnings[0]), t->warnings[0]);  // the junk is quoted as text
}

// Claude Code's own assistant lines (model "<synthetic>": an API error, "No response
// requested.") made no request: none is counted and the model does not change.
TEST(ClaudeCodeLogTest, SyntheticAssistantLinesAreNotRequests) {
  std::string log =
      std::string(kUser) + "\n" + Answer("r1", "claude-sonnet-4-5", "100") + kUser + "\n" +
      R"({"type":"assistant","message":{"model":"<synthetic>","content":[{"type":"text","text":"API Error: overloaded"}],"usage":{"input_tokens":0,"output_tokens":0}}})"
      "\n" +
      kUser + "\n" + Answer("r2", "claude-sonnet-4-5", "200");
  auto t = ImportClaudeCode(log, "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 2u);
  std::vector<std::string> models;  // the first line's context (no model yet), then Sonnet's
  for (const auto* e : Of(*t, TranscriptEventKind::kContext)) models.push_back(e->context.model);
  EXPECT_EQ(models, (std::vector<std::string>{"", "claude-sonnet-4-5"}));
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

TEST(ClaudeCodeFixtureTest, AUsageCountGivenAsAStringIsRefusedAtItsLine) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-usage-string.jsonl"), "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_EQ(t->warnings[0].rfind("s.jsonl:2: 'message.usage.input_tokens'", 0), 0u)
      << t->warnings[0];
  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_FALSE(requests[0]->recorded);  // refused: no usage recorded, not counted
}

TEST(ClaudeCodeFixtureTest, ACutShortLastLineIsAWarningAndTheRestReads) {
  auto t = ImportClaudeCode(ClaudeFixture("claude-code-truncated-last-line.jsonl"), "s.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("s.jsonl:3"), std::string::npos) << t->warnings[0];
  EXPECT_EQ(t->skipped_lines, 1u);
}

}  // namespace
}  // namespace strata
