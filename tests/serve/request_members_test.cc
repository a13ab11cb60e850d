// request_members_test.cc: every top-level member of the three APIs' requests is honoured,
// accepted without effect (and listed), or refused with 400 naming it; unknown members are
// refused. The lists below are written from docs/serve.md's tables.
#include <gtest/gtest.h>

#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

json ChatBase() { return {{"messages", {{{"role", "user"}, {"content", "x"}}}}}; }
json ResponsesBase() { return {{"input", "x"}}; }
json MessagesBase() {
  return {{"max_tokens", 8}, {"messages", {{{"role", "user"}, {"content", "x"}}}}};
}

ApiResult<ServeRequest> Parse(Api api, const json& body) {
  if (api == Api::kOpenAiResponses) return ParseResponses(body);
  if (api == Api::kAnthropicMessages) return ParseMessages(body);
  return ParseChatCompletions(body);
}

json With(json base, const std::string& key, json value) {
  base[key] = std::move(value);
  return base;
}

void ExpectRefused(Api api, const json& base, const std::string& key, const json& value) {
  auto r = Parse(api, With(base, key, value));
  ASSERT_FALSE(r) << ApiName(api) << " " << key << "=" << value.dump();
  EXPECT_EQ(r.error().status, 400);
  // The member, or a member inside it (text.format).
  EXPECT_TRUE(r.error().param == key || r.error().param.starts_with(key + "."))
      << r.error().param << ": " << r.error().message;
  EXPECT_NE(r.error().message.find(key), std::string::npos) << r.error().message;
}

void ExpectAccepted(Api api, const json& base, const std::string& key, const json& value) {
  auto r = Parse(api, With(base, key, value));
  EXPECT_TRUE(r) << ApiName(api) << " " << key << "=" << value.dump() << ": " << r.error().message;
}

struct Member {
  const char* key;
  json value;
};

TEST(RequestMembers, ChatRefusesWhatItCannotHonour) {
  for (const Member& m : std::vector<Member>{
           {"n", 2},
           {"logprobs", "yes"},
           {"top_logprobs", 3},  // without logprobs: true
           {"n_probs", -1},
           {"response_format", {{"type", "xml"}}},
           {"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "a"}}}}},
           {"json_schema", "an object"},
           {"grammar", 5},
           {"logit_bias", {{"15", 100}}},
           {"audio", {{"voice", "alloy"}, {"format", "wav"}}},
           {"modalities", {"text", "audio"}},
           {"prediction", {{"type", "content"}, {"content", "x"}}},
           {"web_search_options", json::object()},
           {"functions", json::array()},
           {"function_call", "auto"},
           {"cache_prompt", false},
           {"mirostat", 2},
           {"no_such_member", 1},
       }) {
    ExpectRefused(Api::kOpenAiChat, ChatBase(), m.key, m.value);
  }
}

TEST(RequestMembers, ChatAcceptsTheValuesThatAskForWhatItDoes) {
  for (const Member& m : std::vector<Member>{{"n", 1},
                                             {"logprobs", false},
                                             {"response_format", {{"type", "text"}}},
                                             {"modalities", {"text"}},
                                             {"cache_prompt", true},
                                             {"n", nullptr},
                                             {"top_logprobs", nullptr}}) {
    ExpectAccepted(Api::kOpenAiChat, ChatBase(), m.key, m.value);
  }
}

TEST(RequestMembers, NoEffectMembersAreAcceptedAndListed) {
  json chat = ChatBase();
  for (const char* key : {"metadata", "store", "user", "safety_identifier", "service_tier",
                          "prompt_cache_key", "verbosity", "parallel_tool_calls"})
    chat[key] = key == std::string("store") || key == std::string("parallel_tool_calls")
                    ? json(false)
                    : json("v");
  chat["metadata"] = {{"k", "v"}};
  auto r = ParseChatCompletions(chat);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->no_effect.size(), 8u);

  json responses = ResponsesBase();
  for (const char* key : {"metadata", "client_metadata", "store", "user", "safety_identifier",
                          "service_tier", "prompt_cache_key"})
    responses[key] = key == std::string("store") ? json(false) : json("v");
  responses["reasoning"] = {{"effort", "medium"}, {"summary", "auto"}};
  responses["include"] = {"reasoning.encrypted_content"};
  responses["parallel_tool_calls"] = false;
  responses["stream_options"] = {{"include_obfuscation", false}};
  auto rr = ParseResponses(responses);
  ASSERT_TRUE(rr) << rr.error().message;
  // reasoning's effort is honoured (ReasoningEffort... below), its summary is named.
  EXPECT_EQ(rr->no_effect.size(), 11u);

  json messages = MessagesBase();
  messages["thinking"] = {{"type", "adaptive"}};
  messages["context_management"] = {{"edits", json::array()}};
  messages["metadata"] = {{"user_id", "u"}};
  messages["service_tier"] = "auto";
  // Claude Code 2.1.328's interactive sessions send a tool-use classifier context.
  messages["safeguards"] = {{{"type", "dangerous_tool_use"}, {"classifier_context", {{"v", 1}}}}};
  auto rm = ParseMessages(messages);
  ASSERT_TRUE(rm) << rm.error().message;
  // thinking is honoured (its own test below).
  EXPECT_EQ(rm->no_effect, (std::vector<std::string>{"context_management", "metadata", "safeguards",
                                                     "service_tier"}));
}

TEST(RequestMembers, LogprobsAreReadAsEachApiDocumentsThem) {
  // Chat: logprobs with top_logprobs (OpenAI: 0-20); llama-server's n_probs alone.
  auto chat = ParseChatCompletions(With(With(ChatBase(), "logprobs", true), "top_logprobs", 3));
  ASSERT_TRUE(chat) << chat.error().message;
  EXPECT_TRUE(chat->logprobs);
  EXPECT_EQ(chat->top_logprobs, 3);
  auto bare = ParseChatCompletions(With(ChatBase(), "logprobs", true));
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->logprobs);
  EXPECT_EQ(bare->top_logprobs, 0);
  auto off = ParseChatCompletions(With(ChatBase(), "logprobs", false));
  ASSERT_TRUE(off);
  EXPECT_FALSE(off->logprobs);
  auto n_probs = ParseChatCompletions(With(ChatBase(), "n_probs", 5));
  ASSERT_TRUE(n_probs);
  EXPECT_TRUE(n_probs->logprobs);
  EXPECT_EQ(n_probs->top_logprobs, 5);
  auto over = ParseChatCompletions(With(With(ChatBase(), "logprobs", true), "top_logprobs", 21));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().param, "top_logprobs");
  // Responses: include message.output_text.logprobs, top_logprobs 0-20; another include value has
  // no effect and is named.
  json responses = ResponsesBase();
  responses["include"] = {"message.output_text.logprobs", "reasoning.encrypted_content"};
  responses["top_logprobs"] = 2;
  auto r = ParseResponses(responses);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->logprobs);
  EXPECT_EQ(r->top_logprobs, 2);
  EXPECT_EQ(r->no_effect, (std::vector<std::string>{"include:reasoning.encrypted_content"}));
  responses["top_logprobs"] = 25;
  EXPECT_FALSE(ParseResponses(responses));
  auto without = ParseResponses(With(ResponsesBase(), "top_logprobs", 0));
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->logprobs);
}

TEST(RequestMembers, SamplingMembersAreRead) {
  for (Api api : {Api::kOpenAiChat, Api::kOpenAiResponses, Api::kAnthropicMessages}) {
    json body = api == Api::kOpenAiResponses     ? ResponsesBase()
                : api == Api::kAnthropicMessages ? MessagesBase()
                                                 : ChatBase();
    body["top_k"] = 5;
    body["min_p"] = 0.25;
    body["repeat_penalty"] = 1.5;
    body["repeat_last_n"] = -1;
    body["presence_penalty"] = 0.5;
    body["frequency_penalty"] = -0.5;
    body["seed"] = 42;
    auto r = Parse(api, body);
    ASSERT_TRUE(r) << ApiName(api) << ": " << r.error().message;
    EXPECT_EQ(r->top_k, 5);
    EXPECT_EQ(r->min_p, 0.25);
    EXPECT_EQ(r->repeat_penalty, 1.5);
    EXPECT_EQ(r->repeat_last_n, -1);
    EXPECT_EQ(r->presence_penalty, 0.5);
    EXPECT_EQ(r->frequency_penalty, -0.5);
    EXPECT_EQ(r->seed, 42u);
  }
}

TEST(RequestMembers, SamplingValuesOutOfRangeNameTheMember) {
  for (const Member& m : std::vector<Member>{{"min_p", 1.5},
                                             {"top_p", -0.1},
                                             {"temperature", 3},
                                             {"presence_penalty", 2.5},
                                             {"frequency_penalty", -3},
                                             {"repeat_penalty", -1},
                                             {"top_k", -2},
                                             {"top_k", 1.5},
                                             {"min_p", "0.1"}}) {
    auto r = ParseChatCompletions(With(ChatBase(), m.key, m.value));
    ASSERT_FALSE(r) << m.key << "=" << m.value.dump();
    EXPECT_EQ(r.error().param, m.key) << r.error().message;
  }
}

TEST(RequestMembers, ResponsesRefusesWhatItCannotHonour) {
  for (const Member& m : std::vector<Member>{
           {"previous_response_id", "resp_1"},
           {"conversation", "conv_1"},
           {"background", true},
           {"prompt", {{"id", "pmpt_1"}}},
           {"text", {{"format", {{"type", "json_schema"}, {"name", "a"}}}}},
           {"top_logprobs", 2},
           {"max_tool_calls", 3},
           {"truncation", "auto"},
           {"n", 1},
           {"max_tokens", 5},
           {"no_such_member", true},
       }) {
    ExpectRefused(Api::kOpenAiResponses, ResponsesBase(), m.key, m.value);
  }
  for (const Member& m :
       std::vector<Member>{{"previous_response_id", ""},
                           {"background", false},
                           {"truncation", "disabled"},
                           {"text", {{"format", {{"type", "text"}}}, {"verbosity", "low"}}}}) {
    ExpectAccepted(Api::kOpenAiResponses, ResponsesBase(), m.key, m.value);
  }
}

TEST(RequestMembers, MessagesRefusesWhatItCannotHonour) {
  for (const Member& m : std::vector<Member>{
           {"output_config", {{"format", {{"type", "json_schema"}}}}},
           {"container", "c"},
           {"mcp_servers", json::array({{{"type", "url"}, {"url", "http://x"}}})},
           {"stop", "x"},
           {"n", 1},
           {"no_such_member", 1},
       }) {
    ExpectRefused(Api::kAnthropicMessages, MessagesBase(), m.key, m.value);
  }
  ExpectAccepted(Api::kAnthropicMessages, MessagesBase(), "output_config", {{"effort", "medium"}});
}

// The grammar common's json_schema_to_grammar writes for a schema holds one rule per property.
const json kSchema = {{"type", "object"},
                      {"properties", {{"ok", {{"type", "boolean"}}}}},
                      {"required", {"ok"}},
                      {"additionalProperties", false}};

TEST(RequestMembers, StructuredOutputBecomesAGrammar) {
  auto chat = ParseChatCompletions(
      With(ChatBase(), "response_format",
           {{"type", "json_schema"},
            {"json_schema", {{"name", "r"}, {"strict", true}, {"schema", kSchema}}}}));
  ASSERT_TRUE(chat) << chat.error().message;
  EXPECT_NE(chat->grammar.find("root ::="), std::string::npos) << chat->grammar;
  EXPECT_NE(chat->grammar.find("ok"), std::string::npos) << chat->grammar;
  auto object =
      ParseChatCompletions(With(ChatBase(), "response_format", {{"type", "json_object"}}));
  ASSERT_TRUE(object);
  EXPECT_NE(object->grammar.find("root ::="), std::string::npos);
  auto text = ParseChatCompletions(With(ChatBase(), "response_format", {{"type", "text"}}));
  ASSERT_TRUE(text);
  EXPECT_EQ(text->grammar, "");
  auto llama_schema = ParseChatCompletions(With(ChatBase(), "json_schema", kSchema));
  ASSERT_TRUE(llama_schema);
  EXPECT_EQ(llama_schema->grammar, chat->grammar);
  auto gbnf = ParseChatCompletions(With(ChatBase(), "grammar", "root ::= \"yes\" | \"no\""));
  ASSERT_TRUE(gbnf);
  EXPECT_EQ(gbnf->grammar, "root ::= \"yes\" | \"no\"");
  json both = With(ChatBase(), "grammar", "root ::= \"a\"");
  both["json_schema"] = kSchema;
  auto two = ParseChatCompletions(both);
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().param, "grammar");

  auto responses = ParseResponses(
      With(ResponsesBase(), "text",
           {{"format", {{"type", "json_schema"}, {"name", "r"}, {"schema", kSchema}}},
            {"verbosity", "low"}}));
  ASSERT_TRUE(responses) << responses.error().message;
  EXPECT_EQ(responses->grammar, chat->grammar);
  auto messages = ParseMessages(
      With(MessagesBase(), "output_config",
           {{"effort", "low"}, {"format", {{"type", "json_schema"}, {"schema", kSchema}}}}));
  ASSERT_TRUE(messages) << messages.error().message;
  EXPECT_EQ(messages->grammar, chat->grammar);
  auto bad = ParseMessages(With(MessagesBase(), "output_config", {{"task_budget", 5}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().param, "output_config.task_budget");
}

// llama-server's members that reach strata serve's reasoning and progress: the reasoning budget
// (-1: the server's), return_progress, an assistant's reasoning_content; and its grammar on the
// Messages and Responses endpoints too.
TEST(RequestMembers, LlamaServersReasoningAndProgressMembersAreRead) {
  auto budget = ParseChatCompletions(With(ChatBase(), "reasoning_budget_tokens", 12));
  ASSERT_TRUE(budget) << budget.error().message;
  EXPECT_EQ(budget->reasoning_budget, 12);
  auto thinking = ParseChatCompletions(With(ChatBase(), "thinking_budget_tokens", 0));
  ASSERT_TRUE(thinking);
  EXPECT_EQ(thinking->reasoning_budget, 0);
  auto unset = ParseChatCompletions(With(ChatBase(), "reasoning_budget_tokens", -1));
  ASSERT_TRUE(unset);
  EXPECT_FALSE(unset->reasoning_budget.has_value());
  ExpectRefused(Api::kOpenAiChat, ChatBase(), "reasoning_budget_tokens", -2);
  auto progress = ParseChatCompletions(With(ChatBase(), "return_progress", true));
  ASSERT_TRUE(progress);
  EXPECT_TRUE(progress->return_progress);
  ExpectRefused(Api::kOpenAiChat, ChatBase(), "return_progress", "yes");
  // Messages (strata's ping events) and Responses (llama-server's in_progress events) too.
  for (Api api : {Api::kAnthropicMessages, Api::kOpenAiResponses}) {
    const json base = api == Api::kAnthropicMessages ? MessagesBase() : ResponsesBase();
    auto r = Parse(api, With(base, "return_progress", true));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->return_progress);
    EXPECT_TRUE(r->no_effect.empty());
    ExpectRefused(api, base, "return_progress", "yes");
  }

  json chat = ChatBase();
  chat["messages"] = {{{"role", "user"}, {"content", "x"}},
                      {{"role", "assistant"}, {"content", "y"}, {"reasoning_content", "think"}},
                      {{"role", "user"}, {"content", "z"}}};
  auto sent_back = ParseChatCompletions(chat);
  ASSERT_TRUE(sent_back) << sent_back.error().message;
  EXPECT_EQ(sent_back->reasoning, (std::map<size_t, std::string>{{1, "think"}}));

  for (Api api : {Api::kAnthropicMessages, Api::kOpenAiResponses}) {
    const json base = api == Api::kAnthropicMessages ? MessagesBase() : ResponsesBase();
    auto r = Parse(api, With(base, "grammar", "root ::= \"a\""));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->grammar, "root ::= \"a\"");
    json both = With(base, "grammar", "root ::= \"a\"");
    if (api == Api::kAnthropicMessages) {
      both["output_config"] = {{"format", {{"type", "json_schema"}, {"schema", kSchema}}}};
    } else {
      both["text"] = {{"format", {{"type", "json_schema"}, {"name", "r"}, {"schema", kSchema}}}};
    }
    auto two = Parse(api, both);
    ASSERT_FALSE(two);
    EXPECT_EQ(two.error().param, "grammar");
  }
}

// Anthropic's thinking: enabled with budget_tokens is this reply's bound (beside the server's:
// ServeRequest::thinking_budget, not the replacing reasoning_budget), disabled turns the template's
// thinking off, adaptive changes nothing; anything else is 400 naming the member inside.
TEST(RequestMembers, MessagesThinkingBoundsOrTurnsOffTheThinking) {
  auto enabled = ParseMessages(
      With(MessagesBase(), "thinking", {{"type", "enabled"}, {"budget_tokens", 2048}}));
  ASSERT_TRUE(enabled) << enabled.error().message;
  EXPECT_EQ(enabled->thinking_budget, 2048);
  EXPECT_FALSE(enabled->reasoning_budget.has_value());
  EXPECT_FALSE(enabled->enable_thinking.has_value());
  EXPECT_TRUE(enabled->no_effect.empty());
  auto disabled = ParseMessages(With(MessagesBase(), "thinking", {{"type", "disabled"}}));
  ASSERT_TRUE(disabled) << disabled.error().message;
  EXPECT_EQ(disabled->enable_thinking, false);
  EXPECT_FALSE(disabled->thinking_budget.has_value());
  auto adaptive = ParseMessages(With(MessagesBase(), "thinking", {{"type", "adaptive"}}));
  ASSERT_TRUE(adaptive) << adaptive.error().message;
  EXPECT_FALSE(adaptive->enable_thinking.has_value());
  EXPECT_FALSE(adaptive->thinking_budget.has_value());
  struct Bad {
    json thinking;
    const char* param;
  };
  for (const Bad& b : std::vector<Bad>{
           {{{"type", "enabled"}}, "thinking.budget_tokens"},
           {{{"type", "enabled"}, {"budget_tokens", -1}}, "thinking.budget_tokens"},
           {{{"type", "enabled"}, {"budget_tokens", "many"}}, "thinking.budget_tokens"},
           {{{"type", "sometimes"}}, "thinking.type"},
           {{{"budget_tokens", 10}}, "thinking.type"},
           {"enabled", "thinking"},
       }) {
    auto r = ParseMessages(With(MessagesBase(), "thinking", b.thinking));
    ASSERT_FALSE(r) << b.thinking.dump();
    EXPECT_EQ(r.error().status, 400);
    EXPECT_EQ(r.error().param, b.param) << r.error().message;
    EXPECT_NE(r.error().message.find(b.param), std::string::npos) << r.error().message;
  }
}

// OpenAI's reasoning effort, read as llama-server reads it: "none" renders the template with
// thinking off, another string becomes the template's reasoning_effort variable.
TEST(RequestMembers, ReasoningEffortNoneTurnsThinkingOffAndOtherEffortsReachTheTemplate) {
  auto none = ParseChatCompletions(With(ChatBase(), "reasoning_effort", "none"));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(none->enable_thinking, false);
  EXPECT_EQ(none->reasoning_effort, "");
  auto high = ParseChatCompletions(With(ChatBase(), "reasoning_effort", "high"));
  ASSERT_TRUE(high) << high.error().message;
  EXPECT_FALSE(high->enable_thinking.has_value());
  EXPECT_EQ(high->reasoning_effort, "high");
  EXPECT_TRUE(high->no_effect.empty());
  auto unset = ParseChatCompletions(ChatBase());
  ASSERT_TRUE(unset);
  EXPECT_EQ(unset->reasoning_effort, "");
  EXPECT_FALSE(unset->enable_thinking.has_value());

  // Responses: reasoning.effort the same; Codex's summary "auto" has no effect and is named.
  auto codex = ParseResponses(
      With(ResponsesBase(), "reasoning", {{"effort", "medium"}, {"summary", "auto"}}));
  ASSERT_TRUE(codex) << codex.error().message;
  EXPECT_EQ(codex->reasoning_effort, "medium");
  EXPECT_EQ(codex->no_effect, std::vector<std::string>{"reasoning.summary"});
  auto off = ParseResponses(With(ResponsesBase(), "reasoning", {{"effort", "none"}}));
  ASSERT_TRUE(off) << off.error().message;
  EXPECT_EQ(off->enable_thinking, false);

  struct Bad {
    Api api;
    json body;
    const char* param;
  };
  for (const Bad& b : std::vector<Bad>{
           {Api::kOpenAiChat, With(ChatBase(), "reasoning_effort", 3), "reasoning_effort"},
           {Api::kOpenAiResponses, With(ResponsesBase(), "reasoning", {{"effort", true}}),
            "reasoning.effort"},
           {Api::kOpenAiResponses, With(ResponsesBase(), "reasoning", {{"budget", 10}}),
            "reasoning.budget"},
           {Api::kOpenAiResponses, With(ResponsesBase(), "reasoning", "high"), "reasoning"},
       }) {
    auto r = b.api == Api::kOpenAiChat ? ParseChatCompletions(b.body) : ParseResponses(b.body);
    ASSERT_FALSE(r) << b.body.dump();
    EXPECT_EQ(r.error().status, 400);
    EXPECT_EQ(r.error().param, b.param) << r.error().message;
  }
}

}  // namespace
}  // namespace strata::serve
