// openai_chat_test.cc: Chat Completions requests as strata's prompt types, and errors naming the
// member.
#include "wire/serve_codec.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace strata::serve {
namespace {

using nlohmann::json;

TEST(OpenAiChat, MessagesToolsAndSampling) {
  json body = json::parse(R"({
    "model": "m", "stream": true, "stream_options": {"include_usage": true},
    "max_completion_tokens": 50, "temperature": 0, "top_p": 0.5, "seed": 7, "stop": "END",
    "tool_choice": "required",
    "tools": [{"type": "function", "function": {"name": "ls", "description": "List.",
               "parameters": {"type": "object", "properties": {"dir": {"type": "string"}}}}}],
    "messages": [
      {"role": "system", "content": "Be brief."},
      {"role": "developer", "content": [{"type": "text", "text": "Use tools."}]},
      {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
      {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "ls", "arguments": "{\"dir\": \".\"}"}}]},
      {"role": "tool", "tool_call_id": "c1", "content": "x.txt"},
      {"role": "system", "content": "Later notice."}
    ]})");
  auto r = ParseChatCompletions(body);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->system, "Be brief.\n\nUse tools.");
  ASSERT_EQ(r->messages.size(), 4u);
  EXPECT_EQ(r->messages[0].text, "ab");
  EXPECT_EQ(r->messages[1].role, Role::kAssistant);
  ASSERT_EQ(r->messages[1].tool_calls.size(), 1u);
  EXPECT_EQ(r->messages[1].tool_calls[0].arguments_json, R"({"dir":"."})");
  EXPECT_EQ(r->messages[2].role, Role::kToolResult);
  EXPECT_EQ(r->messages[2].tool_call_id, "c1");
  EXPECT_EQ(r->messages[3].role, Role::kContextUpdate);
  ASSERT_EQ(r->tools.size(), 1u);
  EXPECT_EQ(json::parse(r->tools[0].input_schema_json)["properties"]["dir"]["type"], "string");
  EXPECT_EQ(r->tool_choice, ToolChoice::kRequired);
  EXPECT_TRUE(r->stream);
  EXPECT_TRUE(r->include_usage);
  EXPECT_EQ(r->max_tokens, 50);
  EXPECT_EQ(*r->temperature, 0);
  EXPECT_EQ(*r->top_p, 0.5);
  EXPECT_EQ(*r->seed, 7u);
  EXPECT_EQ(r->stop, std::vector<std::string>{"END"});
}

TEST(OpenAiChat, MaxTokensIsTheOlderSpelling) {
  auto r = ParseChatCompletions(
      json::parse(R"({"max_tokens": 9, "messages": [{"role": "user", "content": "x"}]})"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->max_tokens, 9);
}

TEST(OpenAiChat, ErrorsNameTheMember) {
  struct Case {
    const char* body;
    const char* param;
  };
  for (const Case& k : std::vector<Case>{
           {R"({})", "messages"},
           {R"({"messages": []})", "messages"},
           {R"({"messages": [{"content": "x"}]})", "messages[0].role"},
           {R"({"messages": [{"role": "user", "content": 3}]})", "messages[0].content"},
           {R"({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]})",
            "messages[0].content[0].type"},
           {R"({"messages": [{"role": "tool", "content": "x"}]})", "messages[0].tool_call_id"},
           {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": -1})", "max_tokens"},
           {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"function": {}}]})",
            "tools[0].function.name"},
           {R"({"messages": [{"role": "user", "content": "x"}], "stream": "yes"})", "stream"},
       }) {
    auto r = ParseChatCompletions(json::parse(k.body));
    ASSERT_FALSE(r) << k.body;
    EXPECT_EQ(r.error().status, 400);
    EXPECT_EQ(r.error().param, k.param) << k.body << " -> " << r.error().message;
  }
}

}  // namespace
}  // namespace strata::serve
