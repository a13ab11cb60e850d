// anthropic_messages_test.cc: Messages requests (as Claude Code sends them) as strata's prompt
// types: system blocks, content blocks, tool_use / tool_result, system-role messages inside
// messages, members accepted and ignored; errors naming the member.
#include "wire/serve_codec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace strata::serve {
namespace {

using nlohmann::json;

TEST(AnthropicMessages, BlocksToolsAndIgnoredMembers) {
  json body = json::parse(R"({
    "model": "claude-x", "max_tokens": 100, "stream": true,
    "thinking": {"type": "enabled", "budget_tokens": 10}, "metadata": {"user_id": "u"},
    "context_management": {"edits": []}, "output_config": {},
    "system": [{"type": "text", "text": "Header."}, {"type": "text", "text": "You are an agent.", "cache_control": {"type": "ephemeral"}}],
    "tools": [{"name": "Bash", "description": "Runs.", "input_schema": {"type": "object"}}],
    "tool_choice": {"type": "auto"}, "stop_sequences": ["</end>"],
    "messages": [
      {"role": "user", "content": [{"type": "text", "text": "Hi."}, {"type": "text", "text": "Do it."}]},
      {"role": "system", "content": [{"type": "text", "text": "Env: linux"}]},
      {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"},
        {"type": "text", "text": "Running."}, {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"cmd": "ls"}}]},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "a.txt"}]},
        {"type": "text", "text": "Next?"}]}
    ]})");
  auto r = ParseMessages(body);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->system, "Header.\n\nYou are an agent.");
  ASSERT_EQ(r->messages.size(), 5u);
  EXPECT_EQ(r->messages[0].text, "Hi.\n\nDo it.");
  EXPECT_EQ(r->messages[1].role, Role::kContextUpdate);
  EXPECT_EQ(r->messages[1].text, "Env: linux");
  EXPECT_EQ(r->messages[2].text, "Running.");
  EXPECT_EQ(r->reasoning,
            (std::map<size_t, std::string>{{2, "hm"}}));  // the thinking block, for the template
  ASSERT_EQ(r->messages[2].tool_calls.size(), 1u);
  EXPECT_EQ(r->messages[2].tool_calls[0].arguments_json, R"({"cmd":"ls"})");
  EXPECT_EQ(r->messages[3].role, Role::kToolResult);
  EXPECT_EQ(r->messages[3].text, "a.txt");
  EXPECT_EQ(r->messages[4].text, "Next?");
  EXPECT_EQ(r->tools[0].name, "Bash");
  EXPECT_EQ(r->stop, std::vector<std::string>{"</end>"});
  EXPECT_EQ(r->max_tokens, 100);
}

TEST(AnthropicMessages, ASystemMessageAsStringOrOneBlockReadsTheSame) {
  auto a = ParseMessages(json::parse(
      R"({"max_tokens": 1, "messages": [{"role": "user", "content": "x"}, {"role": "system", "content": "Env"}]})"));
  auto b = ParseMessages(json::parse(
      R"({"max_tokens": 1, "messages": [{"role": "user", "content": "x"}, {"role": "system", "content": [{"type": "text", "text": "Env"}]}]})"));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->messages[1].text, b->messages[1].text);
}

TEST(AnthropicMessages, ErrorsNameTheMember) {
  for (
      auto [body, param] : std::vector<std::pair<const char*, const char*>>{
          {R"({"messages": [{"role": "user", "content": "x"}]})", "max_tokens"},
          {R"({"max_tokens": 1})", "messages"},
          {R"({"max_tokens": 1, "messages": [{"role": "tool", "content": "x"}]})",
           "messages[0].role"},
          {R"({"max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "image"}]}]})",
           "messages[0].content[0].type"},
          {R"({"max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "tool_result"}]}]})",
           "messages[0].content[0].tool_use_id"},
          {R"({"max_tokens": 1, "messages": [{"role": "user", "content": "x"}], "tools": [{"name": "a", "input_schema": 3}]})",
           "tools[0].input_schema"},
      }) {
    auto r = ParseMessages(json::parse(body));
    ASSERT_FALSE(r) << body;
    EXPECT_EQ(r.error().param, param) << body << " -> " << r.error().message;
  }
  EXPECT_TRUE(
      ParseMessages(json::parse(R"({"messages": [{"role": "user", "content": "x"}]})"), true));
}

TEST(AnthropicMessages, ClaudeCodeCapturedRequestsParse) {
  const std::filesystem::path dir = "/work/shared/corpus/requests/claude-code-2.1.328";
  if (!std::filesystem::exists(dir / "000.json")) GTEST_SKIP() << "corpus not available";
  for (const char* name : {"000.json", "001.json", "002.json", "003.json"}) {
    std::ifstream in(dir / name);
    auto r = ParseMessages(json::parse(in));
    ASSERT_TRUE(r) << name << ": " << r.error().message;
    EXPECT_FALSE(r->system.empty());
    EXPECT_GE(r->tools.size(), 10u);
    EXPECT_TRUE(r->stream);
  }
}

// Claude Code's billing block (strata/discover.h) is left out of the prompt, in both forms, as a
// system[0] block or the first line of a string; the request names it; --keep-client-text
// keeps it.
TEST(AnthropicMessages, ClaudeCodeBillingBlockIsLeftOutOfThePrompt) {
  auto body = [](const json& system) {
    return json{{"model", "m"},
                {"max_tokens", 5},
                {"system", system},
                {"messages", {{{"role", "user"}, {"content", "Hi."}}}}};
  };
  const json blocks = json::parse(R"([
    {"type": "text", "text": "x-anthropic-billing-header: cc_version=2.1.328.ea9; cc_entrypoint=cli;"},
    {"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}}])");
  auto r = ParseMessages(body(blocks));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->system, "You are Claude Code.");
  EXPECT_EQ(r->left_out, std::vector<std::string>{"system[0]:claude-code/billing-header"});

  json cch = blocks;
  cch[0]["text"] =
      "x-anthropic-billing-header: cc_version=2.1.170.3f1; cc_entrypoint=cli; cch=36ee5;";
  r = ParseMessages(body(cch));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->system, "You are Claude Code.");
  EXPECT_EQ(r->left_out, std::vector<std::string>{"system[0]:claude-code/billing-header-cch"});

  r =
      ParseMessages(body("x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; "
                         "cch=eb6c6;\nBe brief."));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->system, "Be brief.");

  r = ParseMessages(body(cch), false, ClientTextOptions{.keep = true});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->system,
            "x-anthropic-billing-header: cc_version=2.1.170.3f1; cc_entrypoint=cli; cch=36ee5;\n\n"
            "You are Claude Code.");
  EXPECT_TRUE(r->left_out.empty());

  // The same text later in the system, or in a message, is prompt text.
  json later = json::array({blocks[1], blocks[0]});
  r = ParseMessages(body(later));
  ASSERT_TRUE(r);
  EXPECT_NE(r->system.find("x-anthropic-billing-header"), std::string::npos);
  EXPECT_TRUE(r->left_out.empty());
}

}  // namespace
}  // namespace strata::serve
