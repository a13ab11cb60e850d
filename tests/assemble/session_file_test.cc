// session_file_test.cc: the session-file format is strata's own, so it is read strictly: every
// unknown member is an error naming the closest known one, every wrong type names the member's
// full path, and bad values name the member and what is allowed.
#include "strata/assemble.h"

#include <gtest/gtest.h>

#include "base/time.h"

namespace strata {
namespace {

// The message of the error ParseSessionFile returns for `json` (or "" when it parses).
std::string ErrorOf(const char* json) {
  auto f = ParseSessionFile(json, "s.json");
  if (f.has_value()) return "";
  EXPECT_EQ(f.error().where.path, "s.json") << json;
  return f.error().message;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
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

TEST(SessionFileTest, UnknownTopLevelMemberNamesTheClosestMember) {
  auto f = ParseSessionFile(R"({"model": "m", "histroy": []})", "s.json");
  ASSERT_FALSE(f.has_value());
  EXPECT_EQ(f.error().kind, ErrorKind::kParse);
  std::string message = f.error().message;
  EXPECT_TRUE(StartsWith(message, "'histroy' is not a known member; did you mean 'history'?"))
      << message;
  EXPECT_NE(message.find("(known: "), std::string::npos) << message;
}

TEST(SessionFileTest, UnknownNestedMembersNameTheirFullPath) {
  EXPECT_TRUE(StartsWith(
      ErrorOf(R"({"history": [{"role": "assistant", "content": "",
                  "tool_calls": [{"id": "c1", "name": "read", "argumens": {}}]}]})"),
      "'history[0].tool_calls[0].argumens' is not a known member; did you mean 'arguments'?"));
  EXPECT_TRUE(StartsWith(ErrorOf(R"({"options": {"max_token": 5}})"),
                         "'options.max_token' is not a known member; did you mean 'max_tokens'?"));
  EXPECT_TRUE(StartsWith(ErrorOf(R"({"tools": [{"name": "read", "descripton": "x"}]})"),
                         "'tools[0].descripton' is not a known member; did you mean "
                         "'description'?"));
  EXPECT_TRUE(StartsWith(ErrorOf(R"({"signals": [{"id": "s1", "txt": "x"}]})"),
                         "'signals[0].txt' is not a known member; did you mean 'text'?"));
}

TEST(SessionFileTest, WrongTypeNamesTheFullPath) {
  auto f = ParseSessionFile(R"({"history": [
      {"role": "user", "content": "a"},
      {"role": "assistant", "content": "b"},
      {"role": "user", "content": "c"},
      {"role": "assistant", "content": "", "tool_calls": [{"id": 7, "name": "read"}]}]})",
                            "s.json");
  ASSERT_FALSE(f.has_value());
  EXPECT_EQ(f.error().kind, ErrorKind::kParse);
  EXPECT_EQ(f.error().message, "'history[3].tool_calls[0].id' must be a string");
  EXPECT_EQ(ErrorOf(R"({"rules": ["a", 2]})"), "'rules[1]' must be a string");
  EXPECT_EQ(ErrorOf(R"({"session_state": {"mode": 1}})"), "'session_state.mode' must be a string");
  EXPECT_EQ(ErrorOf(R"({"history": [{"role": "tool", "is_error": "yes"}]})"),
            "'history[0].is_error' must be true or false");
  EXPECT_EQ(ErrorOf(R"({"tools": [3]})"),
            "'tools[0]' must be a tool {name, description, input_schema} (a JSON object)");
  EXPECT_EQ(ErrorOf(R"({"tools": [{"description": "x"}]})"),
            "'tools[0].name' is required (a string)");
  EXPECT_EQ(ErrorOf(R"({"options": {"max_tokens": 1.5}})"),
            "'options.max_tokens' must be an integer");
  EXPECT_EQ(ErrorOf("[]"), "'the top level' must be a session (a JSON object)");
}

TEST(SessionFileTest, BadNamesListTheNamesAllowed) {
  EXPECT_EQ(ErrorOf(R"({"history": [{"role": "robot", "content": "x"}]})"),
            "history[0].role 'robot' is not one of user, assistant, tool, context-update");
  EXPECT_EQ(ErrorOf(R"({"options": {"tool_order": "alpha"}})"),
            "options.tool_order must be one of sorted, registration, got 'alpha'");
}

}  // namespace
}  // namespace strata
