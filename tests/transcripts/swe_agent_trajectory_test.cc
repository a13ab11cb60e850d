// SWE-agent .traj reader tests, on hand-written fixtures (tests/transcripts/fixtures/): the
// history's system, user, assistant and tool messages, and the warning that only the total input
// is recorded.
#include "transcripts/swe_agent_trajectory.h"

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

TEST(SweAgentTrajectoryTest, HistoryBecomesTheConversation) {
  auto t = ImportSweAgentTrajectory(Fixture("swe-agent.traj"), "x.traj");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->format, "swe-agent");
  ASSERT_EQ(t->events.size(), 6u);
  EXPECT_EQ(t->events[0].kind, TranscriptEventKind::kContext);
  EXPECT_EQ(t->events[0].context.persona, "You are an autonomous programmer working in a shell.");
  ASSERT_EQ(t->events[0].context.tools.size(), 2u);
  EXPECT_EQ(t->events[0].context.tools[1].name, "submit");
  EXPECT_EQ(t->events[1].kind, TranscriptEventKind::kUser);
  EXPECT_EQ(t->events[1].message.text,
            "<pr_description>add() returns one too many.</pr_description>");
  EXPECT_EQ(t->events[2].kind, TranscriptEventKind::kAssistant);
  EXPECT_EQ(nlohmann::json::parse(t->events[2].message.tool_calls.at(0).arguments_json)["command"],
            "cat sum.py");
  EXPECT_FALSE(t->events[2].recorded);  // no usage per request
  EXPECT_EQ(t->events[3].kind, TranscriptEventKind::kToolResult);
  EXPECT_EQ(t->events[3].message.tool_call_id, "call_a");
  EXPECT_EQ(t->RequestCount(), 2u);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("only the total input"), std::string::npos);
  EXPECT_NE(t->warnings[0].find("tokens_sent 5120 over 2 API calls"), std::string::npos)
      << t->warnings[0];
}

TEST(SweAgentTrajectoryTest, AMemberOfTheWrongTypeIsAnErrorAtItsLineAndColumn) {
  auto t = ImportSweAgentTrajectory(Fixture("swe-agent-bad-name.traj"), "x.traj");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().kind, ErrorKind::kParse);
  EXPECT_NE(t.error().message.find("'history[2].tool_calls[0].function.name' must be a string"),
            std::string::npos)
      << t.error().message;
  // "name": 7 is on line 54 of the fixture; the value starts at column 21.
  EXPECT_EQ(t.error().where.line, 54);
  EXPECT_EQ(t.error().where.column, 21);
}

}  // namespace
}  // namespace strata
