// OpenHands output.jsonl reader tests, on hand-written fixtures (tests/transcripts/fixtures/):
// history[0] gives the system prompt and tools, one request per model response with its
// token_usages entry, --instance picks a line and several instances without it are refused with
// their ids, and a usage count of the wrong shape is an error naming its member.
#include "transcripts/openhands_output.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.h"

namespace strata {
namespace {

std::string Fixture(const std::string& name) {
  return testing::ReadAll(std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures" /
                          name);
}

std::vector<const TranscriptEvent*> Of(const Transcript& t, TranscriptEventKind kind) {
  std::vector<const TranscriptEvent*> out;
  for (const auto& e : t.events)
    if (e.kind == kind) out.push_back(&e);
  return out;
}

TEST(OpenHandsOutputTest, SystemPromptToolsAndPerResponseUsage) {
  auto t = ImportOpenHands(Fixture("openhands-one-instance.jsonl"), "output.jsonl", "");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->format, "openhands");
  auto ctx = Of(*t, TranscriptEventKind::kContext);
  ASSERT_EQ(ctx.size(), 1u);
  EXPECT_EQ(ctx[0]->context.persona,
            "You are a careful software agent. Solve the issue in /workspace.");
  EXPECT_EQ(ctx[0]->context.model, "claude-sonnet-4-5");
  ASSERT_EQ(ctx[0]->context.tools.size(), 2u);
  EXPECT_EQ(ctx[0]->context.tools[0].name, "execute_bash");
  EXPECT_EQ(ctx[0]->context.tools[0].description, "Run a shell command.");
  EXPECT_EQ(nlohmann::json::parse(ctx[0]->context.tools[0].input_schema_json)["required"][0],
            "command");
  // No offset in the log's timestamps: read as UTC.
  EXPECT_EQ(ctx[0]->time, "2026-12-01T10:00:00.000001Z");

  auto users = Of(*t, TranscriptEventKind::kUser);
  ASSERT_EQ(users.size(), 1u);
  EXPECT_EQ(users[0]->message.text, "Fix the failing test in tests/test_sum.py.");

  auto requests = Of(*t, TranscriptEventKind::kAssistant);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0]->message.text, "Let me run the tests.");
  ASSERT_EQ(requests[0]->message.tool_calls.size(), 1u);
  EXPECT_EQ(requests[0]->message.tool_calls[0].id, "toolu_1");
  EXPECT_EQ(requests[0]->message.tool_calls[0].name, "execute_bash");
  EXPECT_EQ(nlohmann::json::parse(requests[0]->message.tool_calls[0].arguments_json)["command"],
            "pytest -q");
  ASSERT_TRUE(requests[0]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 2400u);
  EXPECT_EQ(requests[0]->recorded->cache_read_tokens, 0u);
  EXPECT_EQ(requests[0]->recorded->cache_write_tokens, 2300u);
  ASSERT_TRUE(requests[1]->recorded);
  EXPECT_EQ(requests[1]->recorded->cache_read_tokens, 2300u);
  EXPECT_EQ(requests[1]->recorded->cache_write_tokens, 200u);
  // The reply without tool calls: its usage is the last entry of the snapshot it carries.
  EXPECT_EQ(requests[2]->message.text, "The test passes now.");
  EXPECT_TRUE(requests[2]->message.tool_calls.empty());
  ASSERT_TRUE(requests[2]->recorded);
  EXPECT_EQ(requests[2]->recorded->input_tokens, 2560u);
  EXPECT_EQ(requests[2]->recorded->cache_read_tokens, 2500u);

  auto results = Of(*t, TranscriptEventKind::kToolResult);
  ASSERT_EQ(results.size(), 2u);  // the agent_state_changed observation is no result
  EXPECT_EQ(results[0]->message.tool_call_id, "toolu_1");
  EXPECT_EQ(results[0]->message.text, "1 failed: test_sum expected 3 got 4");
}

TEST(OpenHandsOutputTest, SeveralInstancesNeedInstance) {
  std::string log = Fixture("openhands-two-instances.jsonl");
  auto none = ImportOpenHands(log, "output.jsonl", "");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(none.error().message.find("2 OpenHands instances"), std::string::npos);
  EXPECT_NE(none.error().message.find("--instance"), std::string::npos);
  EXPECT_NE(none.error().message.find("demo__sum-1, demo__sum-2"), std::string::npos)
      << none.error().message;

  auto second = ImportOpenHands(log, "output.jsonl", "demo__sum-2");
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->RequestCount(), 3u);

  auto missing = ImportOpenHands(log, "output.jsonl", "demo__sum-9");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no instance 'demo__sum-9'"), std::string::npos);
  EXPECT_NE(missing.error().message.find("demo__sum-1, demo__sum-2"), std::string::npos);
}

TEST(OpenHandsOutputTest, UsageOfTheWrongShapeIsAnErrorAtItsMember) {
  auto t = ImportOpenHands(Fixture("openhands-usage-string.jsonl"), "output.jsonl", "");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().kind, ErrorKind::kParse);
  EXPECT_EQ(t.error().where.line, 1);
  EXPECT_NE(
      t.error().message.find("'metrics.token_usages[1].cache_read_tokens' must be an integer"),
      std::string::npos)
      << t.error().message;
}

}  // namespace
}  // namespace strata
