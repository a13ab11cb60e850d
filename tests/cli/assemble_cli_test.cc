// `strata assemble` end to end: session file in, request JSON or layer map out.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assemble/session_file.h"
#include "base/time.h"
#include "support/test_support.h"

namespace strata {
namespace {

using strata::testing::RunCli;
using strata::testing::TempDir;

const char kSession[] = R"({
  "model": "claude-sonnet-4-5",
  "persona": "You are a careful coding agent.",
  "tools": [{"name": "read", "description": "Read a file",
             "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}],
  "history": [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}],
  "now": "2026-11-29T10:00:00Z",
  "cwd": "/work/project",
  "user": "run the tests"
})";

TEST(AssembleCliTest, PrintsTheRequestJsonWithProjectInstructions) {
  TempDir dir;
  dir.Write("session.json", kSession);
  dir.Write("project/AGENTS.md", "# Rules\r\n\r\nRun make test.\r\n");
  auto r = RunCli({"assemble", "--session", (dir.path() / "session.json").string(), "--project",
                   (dir.path() / "project").string(), "--provider", "anthropic"},
                  dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["model"], "claude-sonnet-4-5");
  ASSERT_EQ(doc["messages"].size(), 3u);
  EXPECT_EQ(doc["messages"][2]["content"][0]["text"], "run the tests");
  std::string block2 = doc["system"][1]["text"];
  EXPECT_NE(block2.find("# Instructions from AGENTS.md\n\n# Rules\n\nRun make test."),
            std::string::npos)
      << block2;
}

TEST(AssembleCliTest, EveryProviderPrintsValidJson) {
  TempDir dir;
  dir.Write("session.json", kSession);
  for (const char* provider : {"openai-chat", "openai-responses"}) {
    auto r = RunCli({"assemble", "--session", "session.json", "--provider", provider}, dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << provider;
    EXPECT_EQ(r.out.find("cache_control"), std::string::npos);
  }
}

TEST(AssembleCliTest, LayersPrintsTheLayerMap) {
  TempDir dir;
  dir.Write("session.json", kSession);
  auto r = RunCli({"assemble", "--session", "session.json", "--layers"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto map = nlohmann::json::parse(r.out);
  ASSERT_TRUE(map.is_array());
  std::vector<std::string> layers;
  for (const auto& e : map) layers.push_back(e["layer"]);
  EXPECT_EQ(layers, (std::vector<std::string>{"tools", "persona", "environment", "history", "input",
                                              "tail"}));
}

TEST(AssembleCliTest, BadInputsExitWithTwo) {
  TempDir dir;
  dir.Write("session.json", kSession);
  EXPECT_EQ(RunCli({"assemble", "--session", "session.json", "--provider", "gemini"}, dir.path())
                .exit_code,
            2);
  EXPECT_EQ(RunCli({"assemble", "--session", "missing.json"}, dir.path()).exit_code, 2);
  dir.Write("bad.json", R"({"now": "yesterday"})");
  auto r = RunCli({"assemble", "--session", "bad.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("RFC 3339"), std::string::npos) << r.err;
}

TEST(SessionFileTest, ParsesToolCallsAndOptions) {
  auto f = ParseSessionFile(R"({
    "history": [{"role": "user", "content": "a"},
                {"role": "assistant", "content": "", "tool_calls":
                  [{"id": "c1", "name": "read", "arguments": {"path": "x"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "x", "is_error": true}],
    "session_state": {"mode": "plan", "branch": "main"},
    "signals": [{"id": "s1", "text": "mode changed"}],
    "options": {"tool_order": "registration", "long_ttl_breakpoints": 1}
  })",
                            "s.json");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  ASSERT_EQ(f->history.size(), 3u);
  EXPECT_EQ(f->history[1].tool_calls[0].name, "read");
  EXPECT_TRUE(f->history[2].is_error);
  ASSERT_EQ(f->turn.session_state.size(), 2u);
  EXPECT_EQ(f->turn.session_state[0].key, "branch");  // sorted by key
  EXPECT_EQ(f->options.tool_order, ToolOrder::kRegistration);
  EXPECT_EQ(f->options.long_ttl_breakpoints, 1);
}

TEST(SessionFileTest, RefusesUnknownRolesAndWrongTypes) {
  auto role = ParseSessionFile(R"({"history": [{"role": "robot", "content": "x"}]})", "s.json");
  ASSERT_FALSE(role.has_value());
  EXPECT_NE(role.error().message.find("robot"), std::string::npos);
  auto type = ParseSessionFile(R"({"persona": 3})", "s.json");
  ASSERT_FALSE(type.has_value());
  EXPECT_EQ(type.error().kind, ErrorKind::kParse);
  EXPECT_NE(type.error().message.find("persona"), std::string::npos);
}

TEST(SessionFileTest, Rfc3339) {
  EXPECT_TRUE(IsRfc3339("2026-11-29T23:59:59Z"));
  EXPECT_TRUE(IsRfc3339("2026-11-29T23:59:59.123+01:00"));
  EXPECT_FALSE(IsRfc3339("2026-11-29 23:59:59"));
  EXPECT_FALSE(IsRfc3339("2026-11-29T23:59:59"));
}

}  // namespace
}  // namespace strata
