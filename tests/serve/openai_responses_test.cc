// openai_responses_test.cc: Responses requests (as Codex sends them) as strata's prompt types,
// and the last event of a streamed response.
#include "wire/serve_codec.h"

#include <gtest/gtest.h>

#include <sstream>

namespace strata::serve {
namespace {

using nlohmann::json;

TEST(OpenAiResponses, InstructionsItemsAndTools) {
  json body = json::parse(R"({
    "model": "gpt-x", "instructions": "Be a coder.", "stream": true, "store": false,
    "reasoning": {"effort": "low"}, "metadata": {}, "prompt_cache_key": "s1", "include": [],
    "tools": [{"type": "function", "name": "shell", "description": "Runs.", "parameters": {"type": "object"}},
              {"type": "web_search"}],
    "max_output_tokens": 30,
    "input": [
      {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Rules."}]},
      {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "AGENTS.md"}, {"type": "input_text", "text": "Go."}]},
      {"type": "reasoning", "summary": []},
      {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{\"cmd\":[\"ls\"]}"},
      {"type": "function_call_output", "call_id": "c1", "output": "a.txt"},
      {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}
    ]})");
  auto r = ParseResponses(body);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->system, "Be a coder.\n\nRules.");
  ASSERT_EQ(r->messages.size(), 4u);
  EXPECT_EQ(r->messages[0].text, "AGENTS.md\n\nGo.");
  EXPECT_EQ(r->messages[1].role, Role::kAssistant);
  EXPECT_EQ(r->messages[1].tool_calls[0].name, "shell");
  EXPECT_EQ(r->messages[2].role, Role::kToolResult);
  EXPECT_EQ(r->messages[3].text, "Done.");
  ASSERT_EQ(r->tools.size(), 1u);  // built-in tools are not offered
  EXPECT_EQ(r->ignored_tools, std::vector<std::string>{"web_search"});
  EXPECT_EQ(r->max_tokens, 30);
}

// A reasoning item's reasoning_text is the reasoning of the assistant turn it opens (the message
// and function calls after it); one with no content (OpenAI's summary-only items) adds nothing.
TEST(OpenAiResponses, ReasoningItemsBecomeTheTurnsReasoning) {
  json body = json::parse(R"({"input": [
      {"role": "user", "content": "Go."},
      {"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "Look."}]},
      {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{}"},
      {"type": "function_call_output", "call_id": "c1", "output": "a.txt"},
      {"type": "reasoning", "summary": [{"type": "summary_text", "text": "s"}]},
      {"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "Done."}]},
      {"role": "assistant", "content": "It is a.txt."},
      {"role": "user", "content": "Thanks"}]})");
  auto r = ParseResponses(body);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->messages.size(), 5u);
  EXPECT_EQ(r->messages[1].role, Role::kAssistant);
  EXPECT_EQ(r->reasoning.at(1), "Look.");
  EXPECT_EQ(r->messages[1].tool_calls.size(), 1u);
  EXPECT_EQ(r->messages[3].role, Role::kAssistant);
  EXPECT_EQ(r->reasoning.at(3), "Done.");
  EXPECT_EQ(r->messages[3].text, "It is a.txt.");
  auto bad = ParseResponses(json::parse(
      R"({"input": [{"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text"}]}]})"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().param, "input[0].content[0].text");
}

// Codex's tools: function tools are offered; the web_search built-in and a namespace tool (with
// its nested function tools) are not, and the request names them (type, and name when given).
TEST(OpenAiResponses, NonFunctionToolsAreNamedAsIgnored) {
  json body = json::parse(R"({
    "input": "hi",
    "tools": [
      {"type": "function", "name": "shell", "parameters": {"type": "object"}},
      {"type": "namespace", "name": "multi_agent_v1",
       "tools": [{"type": "function", "name": "spawn_agent", "parameters": {"type": "object"}}]},
      {"type": "web_search", "external_web_access": false},
      {"type": "function", "name": "apply_patch", "parameters": {"type": "object"}}
    ]})");
  auto r = ParseResponses(body);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->tools.size(), 2u);
  EXPECT_EQ(r->tools[0].name, "shell");
  EXPECT_EQ(r->tools[1].name, "apply_patch");
  EXPECT_EQ(r->ignored_tools, (std::vector<std::string>{"namespace:multi_agent_v1", "web_search"}));
  auto plain = ParseResponses(json::parse(R"({"input": "hi", "tools": [{"type": "function",
      "name": "shell", "parameters": {}}]})"));
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->ignored_tools.empty());
}

TEST(OpenAiResponses, StringInputAndErrors) {
  auto r = ParseResponses(json::parse(R"({"input": "hello", "store": true})"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->messages[0].text, "hello");
  EXPECT_EQ(ParseResponses(json::parse(R"({})")).error().param, "input");
  EXPECT_EQ(
      ParseResponses(json::parse(R"({"input": [{"type": "function_call_output"}]})")).error().param,
      "input[0].call_id");
  EXPECT_EQ(ParseResponses(json::parse(R"({"input": [{"type": "image"}]})")).error().param,
            "input[0].type");
  EXPECT_EQ(
      ParseResponses(json::parse(R"({"input": "x", "previous_response_id": "r"})")).error().param,
      "previous_response_id");
}

// The data of the SSE events in `sse` ("event: X\ndata: {...}\n\n" each).
std::vector<json> Events(const std::string& sse) {
  std::vector<json> out;
  std::istringstream in(sse);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("data: ")) out.push_back(json::parse(line.substr(6)));
  return out;
}

// OpenAI's Responses streaming events (developers.openai.com, "Responses streaming events"): a
// stream ends with response.completed, response.incomplete ("emitted when a response finishes as
// incomplete") or response.failed, each carrying the response. A reply cut by its token limit is
// the non-streamed response with status "incomplete" and incomplete_details.reason
// "max_output_tokens", and its stream ends with response.incomplete carrying that response.
TEST(OpenAiResponses, AStreamCutByTheTokenLimitEndsWithResponseIncomplete) {
  ResponseMeta meta;
  meta.id = "resp-1";
  meta.model = "tiny";
  FinishedReply cut;
  cut.reply.content = "Hello th";
  cut.finish = FinishReason::kLength;
  cut.usage.prompt_tokens = 7;
  cut.usage.completion_tokens = 3;
  auto writer = MakeResponsesWriter(meta);
  const json body = writer->Body(cut);
  ASSERT_EQ(body["status"], "incomplete");
  ASSERT_EQ(body["incomplete_details"], json({{"reason", "max_output_tokens"}}));

  auto streamed = MakeResponsesWriter(meta);
  std::string sse = streamed->Start(cut.usage);
  ReplyDelta d;
  d.content = cut.reply.content;
  sse += streamed->Delta(d);
  sse += streamed->Finish(cut);
  std::vector<json> events = Events(sse);
  ASSERT_FALSE(events.empty());
  const json& last = events.back();
  EXPECT_EQ(last["type"], "response.incomplete");
  EXPECT_EQ(last["response"]["status"], "incomplete");
  EXPECT_EQ(last["response"]["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(last["response"], body);  // the same response object as the non-streamed one
  EXPECT_EQ(last["response"]["usage"]["output_tokens"], 3);
  for (const json& e : events) EXPECT_NE(e["type"], "response.completed") << e.dump();
  EXPECT_EQ(sse.substr(sse.rfind("event: ")).substr(0, 27), "event: response.incomplete\n");

  // A reply that ended on its own (an end of generation, a stop string) ends with
  // response.completed, status "completed" and no incomplete_details.
  FinishedReply done = cut;
  done.finish = FinishReason::kStop;
  auto finished = MakeResponsesWriter(meta);
  std::vector<json> ok = Events(finished->Start(done.usage) + finished->Finish(done));
  ASSERT_FALSE(ok.empty());
  EXPECT_EQ(ok.back()["type"], "response.completed");
  EXPECT_EQ(ok.back()["response"]["status"], "completed");
  EXPECT_TRUE(ok.back()["response"]["incomplete_details"].is_null());

  // Cut by the server's own cap (-n) below the request's limit: the same incomplete response, in
  // a response.completed event (Codex CLI fails its run on response.incomplete).
  FinishedReply capped = cut;
  capped.server_capped = true;
  auto capped_writer = MakeResponsesWriter(meta);
  std::vector<json> c = Events(capped_writer->Start(capped.usage) + capped_writer->Finish(capped));
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.back()["type"], "response.completed");
  EXPECT_EQ(c.back()["response"], body);
}

}  // namespace
}  // namespace strata::serve
