// Codex rollout reader tests: token_count snapshots repeated unchanged do not close a request, a
// token_count written after the tool output belongs to the answer that called the tool, "info":
// null is no usage, and usage counts of the wrong type are refused at their line.
#include "transcripts/codex_rollout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "io/file_io.h"

namespace strata {
namespace {

std::string Message(const char* role, const char* text) {
  return std::string(R"({"type":"response_item","payload":{"type":"message","role":")") + role +
         R"(","content":[{"type":"output_text","text":")" + text + R"("}]}})" + "\n";
}

std::string TokenCount(const std::string& total, const std::string& input,
                       const std::string& cached) {
  return R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":)" +
         total + R"(},"last_token_usage":{"input_tokens":)" + input + R"(,"cached_input_tokens":)" +
         cached + "}}}}\n";
}

const std::string kStart = R"({"type":"event_msg","payload":{"type":"task_started"}})"
                           "\n";

// The transcript's requests (its assistant events), in order.
std::vector<const TranscriptEvent*> Requests(const Transcript& t) {
  std::vector<const TranscriptEvent*> out;
  for (const auto& e : t.events)
    if (e.kind == TranscriptEventKind::kAssistant) out.push_back(&e);
  return out;
}

TEST(CodexRolloutTest, RepeatedTokenCountSnapshotsCollapse) {
  std::string log = kStart + Message("user", "Fix it.") + Message("assistant", "Looking.") +
                    TokenCount("100", "90", "10") + Message("user", "And the test.") +
                    Message("assistant", "Done.") +
                    TokenCount("100", "90", "10") +  // the same snapshot again: not a request
                    TokenCount("250", "150", "90");
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  std::vector<const TranscriptEvent*> requests = Requests(*t);
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_TRUE(requests[0]->recorded && requests[1]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 90u);
  EXPECT_EQ(requests[0]->recorded->cache_read_tokens, 10u);
  EXPECT_EQ(requests[1]->message.text, "Done.");
  EXPECT_EQ(requests[1]->recorded->input_tokens, 150u);
  EXPECT_EQ(requests[1]->recorded->cache_read_tokens, 90u);
}

// Codex 0.171 writes an answer's token_count after the output of the tool it called, as its
// rollouts of a real `codex exec` run show (tests/serve/realclient/sessions.mjs --usage): the count
// belongs to that answer, not to nothing; the next answer's count, before any tool output, is its
// own.
TEST(CodexRolloutTest, TokenCountAfterTheToolOutputIsTheCallingAnswers) {
  const std::string call =
      R"({"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat hello.txt\"}","call_id":"call_1"}})"
      "\n";
  const std::string output =
      R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"hello"}})"
      "\n";
  std::string log = kStart + Message("user", "What is in hello.txt?") + call + output +
                    TokenCount("15", "10", "0") + Message("assistant", "Done.") +
                    TokenCount("30", "12", "8") +
                    TokenCount("30", "12", "8");  // repeated: no request
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  std::vector<const TranscriptEvent*> requests = Requests(*t);
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_EQ(requests[0]->message.tool_calls.size(), 1u);
  ASSERT_TRUE(requests[0]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 10u);
  EXPECT_EQ(requests[0]->recorded->cache_read_tokens, 0u);
  EXPECT_EQ(requests[1]->message.text, "Done.");
  ASSERT_TRUE(requests[1]->recorded);
  EXPECT_EQ(requests[1]->recorded->input_tokens, 12u);
  EXPECT_EQ(requests[1]->recorded->cache_read_tokens, 8u);
  EXPECT_EQ(t->RequestCount(), 2u);
}

// A token_count after a user message has no answer to go to (the one before it closed without
// one): it is not given to an earlier answer.
TEST(CodexRolloutTest, TokenCountAfterAUserMessageIsNoEarlierAnswers) {
  const std::string call =
      R"({"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}})"
      "\n";
  const std::string output =
      R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"x"}})"
      "\n";
  std::string log = kStart + Message("user", "Go.") + call + output + Message("user", "Stop.") +
                    TokenCount("15", "10", "0");
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  for (const auto& e : t->events) EXPECT_FALSE(e.recorded) << e.message.text;
}

TEST(CodexRolloutTest, NullInfoIsNoUsage) {
  std::string log = kStart + Message("user", "hi") + Message("assistant", "hello") +
                    R"({"type":"event_msg","payload":{"type":"token_count","info":null}})" + "\n";
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
}

// A count that is not an integer from 0 to 10^12 refuses its token_count line with a warning
// naming the line and the member; the request stays open and the next snapshot closes it.
TEST(CodexRolloutTest, UsageThatIsNotACountIsRefusedAtItsLine) {
  for (const char* value : {R"("12")", "-5", "1e30", "0.5", "18446744073709551616"}) {
    std::string log = kStart + Message("user", "hi") + Message("assistant", "hello") +
                      TokenCount("100", value, "0") + TokenCount("100", "90", "0");
    auto t = ImportCodexRollout(log, "r.jsonl");
    ASSERT_TRUE(t) << value << ": " << t.error().message;
    ASSERT_EQ(t->warnings.size(), 1u) << value;
    EXPECT_EQ(
        t->warnings[0].rfind("r.jsonl:4: 'payload.info.last_token_usage.input_tokens' must be", 0),
        0u)
        << t->warnings[0];
    ASSERT_EQ(t->RequestCount(), 1u);
    for (const auto& e : t->events) {
      if (e.kind == TranscriptEventKind::kAssistant) EXPECT_EQ(e.recorded->input_tokens, 90u);
    }
  }
}

std::string TurnContext(const char* model) {
  return std::string(R"({"type":"turn_context","payload":{"cwd":"/w","model":")") + model +
         "\"}}\n";
}

// Each turn_context sets the model of the requests after it: a /model switch between turns is
// a context event with the new model; every context event keeps the rollout's tools.
TEST(CodexRolloutTest, ATurnContextSwitchesTheModelForTheRequestsAfterIt) {
  std::string log = TurnContext("gpt-5-codex") + kStart + Message("user", "a") +
                    Message("assistant", "b") + TokenCount("100", "90", "0") +
                    TurnContext("gpt-5-codex") + Message("user", "c") + Message("assistant", "d") +
                    TokenCount("300", "190", "0") + TurnContext("gpt-5.1-codex-mini") +
                    Message("user", "e") + Message("assistant", "f") +
                    TokenCount("600", "290", "0");
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  std::vector<std::string> models;  // the model in force at each request
  std::string model;
  for (const auto& e : t->events) {
    if (e.kind == TranscriptEventKind::kContext) model = e.context.model;
    if (e.kind == TranscriptEventKind::kAssistant) models.push_back(model);
  }
  EXPECT_EQ(models, (std::vector<std::string>{"gpt-5-codex", "gpt-5-codex", "gpt-5.1-codex-mini"}));
  size_t contexts = 0;
  for (const auto& e : t->events) contexts += e.kind == TranscriptEventKind::kContext;
  EXPECT_EQ(contexts, 2u);  // the first, and the switch (the repeated model is none)
  EXPECT_EQ(t->events.front().context.cwd, "/w");
}

}  // namespace
}  // namespace strata

// Hand-written fixtures, one per importer case (tests/transcripts/fixtures/).
namespace strata {
namespace {

std::string CodexFixture(const std::string& name) {
  auto bytes =
      ReadFileBytes(std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures" / name);
  EXPECT_TRUE(bytes) << name;
  return bytes ? *bytes : std::string();
}

std::vector<TranscriptEventKind> Kinds(const Transcript& t) {
  std::vector<TranscriptEventKind> out;
  for (const auto& e : t.events) out.push_back(e.kind);
  return out;
}

TEST(CodexFixtureTest, ACompactionReplacesTheConversation) {
  auto t = ImportCodexRollout(CodexFixture("codex-compaction.jsonl"), "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  using K = TranscriptEventKind;
  EXPECT_EQ(Kinds(*t), (std::vector<K>{K::kContext, K::kUser, K::kAssistant, K::kCompaction,
                                       K::kUser, K::kAssistant}));
  EXPECT_EQ(t->events[3].message.text,
            "Refactor the parser.\n\nSummary: the parser was split in two.");
}

TEST(CodexFixtureTest, DesktopUserMessagesAndDynamicTools) {
  auto t = ImportCodexRollout(CodexFixture("codex-desktop.jsonl"), "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  using K = TranscriptEventKind;
  // The second prompt is logged twice (event_msg and response_item): taken once.
  EXPECT_EQ(Kinds(*t), (std::vector<K>{K::kContext, K::kUser, K::kAssistant, K::kToolResult,
                                       K::kUser, K::kAssistant}));
  EXPECT_EQ(t->events[1].message.text, "Open the README.");
  EXPECT_EQ(t->events[4].message.text, "Thanks, now close it.");
  const auto& tools = t->events[0].context.tools;
  ASSERT_FALSE(tools.empty());
  EXPECT_EQ(tools[0].name, "open_in_editor");
  EXPECT_EQ(tools[0].description, "Open a file in the editor");
  EXPECT_TRUE(nlohmann::json::parse(tools[0].input_schema_json).contains("properties"));
}

TEST(CodexFixtureTest, HugeRedactionPlaceholdersAreRefusedNotSynthesized) {
  auto t = ImportCodexRollout(CodexFixture("codex-huge-redactions.jsonl"), "r.jsonl");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().where.line, 1);
  EXPECT_NE(t.error().message.find("len=99999999"), std::string::npos) << t.error().message;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A token_count with no answer item before it (a reasoning-only response, a turn cut short) is
// not a request, and is said once (Codex repeats the snapshot) with its line and input tokens.
TEST(CodexRolloutTest, UsageWithNoAnswerIsSaidOnce) {
  std::string log = kStart + Message("user", "Fix it.") + TokenCount("100", "90", "10") +
                    TokenCount("100", "90", "10") + Message("assistant", "Done.") +
                    TokenCount("250", "150", "90");
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  std::vector<const TranscriptEvent*> requests = Requests(*t);
  ASSERT_EQ(requests.size(), 1u);
  ASSERT_TRUE(requests[0]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 150u);
  size_t said = 0;
  for (const auto& w : t->warnings) {
    if (w.find("a token_count of 90 input tokens for a response with no answer item") !=
        std::string::npos) {
      ++said;
      EXPECT_EQ(w.rfind("r.jsonl:", 0), 0u) << w;
    }
  }
  EXPECT_EQ(said, 1u) << ::testing::PrintToString(t->warnings);
}

}  // namespace
}  // namespace strata
