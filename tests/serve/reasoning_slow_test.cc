// reasoning_slow_test.cc: reasoning models through strata serve, on the tiny generated model with
// real reasoning templates of the pinned llama.cpp (models/templates: Qwen3, GLM-4.7-Flash) and
// "<think>" / "</think>" added to its vocabulary as Qwen3's GGUF carries them. A random model
// does not think by itself, so a grammar (llama-server's `grammar` member) forces its reply: the
// parser, the writers and the prefix engine under test are the server's own.
//   - the reply's thinking comes back as each API shapes it (Chat reasoning_content, Messages
//     thinking blocks with their signature_delta, Responses reasoning items), streamed and not;
//     --reasoning-format none leaves it in the content;
//   - thinking a harness sends back reaches the template, which renders it where it keeps it
//     (Qwen3: the turns after the last user message) and drops it elsewhere, and the next turn
//     reuses exactly the prefix its render shares with the previous one;
//   - --reasoning-budget and the request's reasoning_budget_tokens force the end tag after N
//     thinking tokens (0: at once), as llama-server's budget sampler does; Anthropic's
//     thinking.budget_tokens bounds it beside the server's budget (the smaller wins), and
//     thinking {type: disabled} renders the template with thinking off;
//   - Responses report the thinking's tokens as usage.output_tokens_details.reasoning_tokens.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

constexpr const char* kQwen3 = "Qwen-Qwen3-0.6B.jinja";
constexpr const char* kGlm47 = "GLM-4.7-Flash.jinja";

json ReadFileTool() {
  return {{"name", "read_file"},
          {"description", "Reads a file."},
          {"input_schema", {{"type", "object"}, {"properties", {{"path", {{"type", "string"}}}}}}}};
}

class ReasoningTest : public ServeTest {
 protected:
  void SetUp() override {
    ServeTest::SetUp();
    if (IsSkipped()) return;
    if (!std::filesystem::exists(LlamaTemplatePath(kQwen3)))
      GTEST_SKIP() << "llama.cpp's models/templates not available";
  }
  ServeOptions With(const char* template_name) const {
    ServeOptions o = Options();
    o.model = ThinkModelPath();
    o.chat_template_file = LlamaTemplatePath(template_name);
    return o;
  }
  // The text a request renders to, as the server tokenizes it.
  static std::vector<int32_t> Tokens(httplib::Client& c, const char* api, const json& request) {
    json r = Post(c, "/tokenize", {{"api", api}, {"request", request}});
    return r["tokens"].get<std::vector<int32_t>>();
  }
  static std::string Text(httplib::Client& c, const std::vector<int32_t>& tokens) {
    return Post(c, "/detokenize", {{"tokens", tokens}})["content"].get<std::string>();
  }
  static size_t CommonPrefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
  }
  static std::string Sse(httplib::Client& c, const std::string& path, json body) {
    body["stream"] = true;
    auto res = c.Post(path, body.dump(), "application/json");
    EXPECT_TRUE(res && res->status == 200) << path << ": " << (res ? res->body : "");
    return res ? res->body : "";
  }
};

// The reply "<think>\nI should greet.\n</think>\n\nHello there": common's parser for Qwen3 puts the
// text between the tags in the reasoning (the newline after "<think>" dropped, the one before
// "</think>" kept, as llama-server answers) and the text after "</think>\n\n" in the content.
constexpr const char* kForced = "<think>\nI should greet.\n</think>\n\nHello there";

TEST_F(ReasoningTest, ThinkingComesBackInEachApisShape) {
  RunningServer server(With(kQwen3));
  auto c = server.Client();
  const std::string grammar = LiteralGrammar(kForced);
  const json user = {{"role", "user"}, {"content", "Hi"}};

  json chat{{"messages", {user}}, {"grammar", grammar}, {"max_tokens", 40}, {"temperature", 0}};
  json r = Post(*c, "/v1/chat/completions", chat);
  EXPECT_EQ(r["choices"][0]["message"]["reasoning_content"], "I should greet.\n") << r.dump();
  EXPECT_EQ(r["choices"][0]["message"]["content"], "Hello there");
  std::string reasoning, content;
  for (const json& e : SseData(Sse(*c, "/v1/chat/completions", chat))) {
    if (!e.is_object() || e["choices"].empty()) continue;
    const json& d = e["choices"][0]["delta"];
    if (d.contains("reasoning_content")) reasoning += d["reasoning_content"].get<std::string>();
    if (d.contains("content") && d["content"].is_string())
      content += d["content"].get<std::string>();
  }
  EXPECT_EQ(reasoning, "I should greet.\n");
  EXPECT_EQ(content, "Hello there");

  // Messages: a thinking block (empty signature, as llama-server's) before the text block.
  json messages{{"messages", {user}}, {"grammar", grammar}, {"max_tokens", 40}, {"temperature", 0}};
  r = Post(*c, "/v1/messages", messages);
  ASSERT_EQ(r["content"].size(), 2u) << r.dump();
  EXPECT_EQ(r["content"][0],
            json({{"type", "thinking"}, {"thinking", "I should greet.\n"}, {"signature", ""}}));
  EXPECT_EQ(r["content"][1], json({{"type", "text"}, {"text", "Hello there"}}));
  // Streamed: block 0 opens as thinking, its thinking_deltas, one signature_delta, its stop;
  // then block 1, the text.
  std::vector<std::string> shape;
  reasoning.clear();
  for (const json& e : SseData(Sse(*c, "/v1/messages", messages))) {
    const std::string type = e.value("type", "");
    if (type == "content_block_start") {
      shape.push_back(fmt::format("start {} {}", e["index"].get<int>(),
                                  e["content_block"]["type"].get<std::string>()));
      if (e["content_block"]["type"] == "thinking")
        EXPECT_EQ(e["content_block"]["thinking"], "") << e.dump();
    } else if (type == "content_block_delta") {
      const std::string kind = e["delta"]["type"];
      if (kind == "thinking_delta") reasoning += e["delta"]["thinking"].get<std::string>();
      if (kind == "signature_delta") {
        EXPECT_EQ(e["delta"]["signature"], "");
        shape.push_back(fmt::format("signature {}", e["index"].get<int>()));
      }
    } else if (type == "content_block_stop") {
      shape.push_back(fmt::format("stop {}", e["index"].get<int>()));
    }
  }
  EXPECT_EQ(reasoning, "I should greet.\n");
  EXPECT_EQ(shape, (std::vector<std::string>{"start 0 thinking", "signature 0", "stop 0",
                                             "start 1 text", "stop 1"}));

  // Responses: a reasoning item (one reasoning_text part) before the message.
  json responses{
      {"input", "Hi"}, {"grammar", grammar}, {"max_output_tokens", 40}, {"temperature", 0}};
  r = Post(*c, "/v1/responses", responses);
  ASSERT_EQ(r["output"].size(), 2u) << r.dump();
  EXPECT_EQ(r["output"][0]["type"], "reasoning");
  EXPECT_EQ(r["output"][0]["content"],
            json::array({{{"type", "reasoning_text"}, {"text", "I should greet.\n"}}}));
  EXPECT_EQ(r["output"][1]["type"], "message");
  EXPECT_EQ(r["output"][1]["content"][0]["text"], "Hello there");
  reasoning.clear();
  std::string done_text;
  std::vector<std::string> items;
  for (const json& e : SseData(Sse(*c, "/v1/responses", responses))) {
    const std::string type = e.value("type", "");
    if (type == "response.reasoning_text.delta") reasoning += e["delta"].get<std::string>();
    if (type == "response.reasoning_text.done") done_text = e["text"];
    if (type == "response.output_item.done") items.push_back(e["item"]["type"]);
  }
  EXPECT_EQ(reasoning, "I should greet.\n");
  EXPECT_EQ(done_text, "I should greet.\n");
  EXPECT_EQ(items, (std::vector<std::string>{"reasoning", "message"}));
}

TEST_F(ReasoningTest, ReasoningFormatNoneLeavesTheThinkingInTheContent) {
  ServeOptions o = With(kQwen3);
  o.reasoning_format = "none";
  RunningServer server(o);
  auto c = server.Client();
  json r = Post(*c, "/v1/chat/completions",
                {{"messages", {{{"role", "user"}, {"content", "Hi"}}}},
                 {"grammar", LiteralGrammar(kForced)},
                 {"max_tokens", 40},
                 {"temperature", 0}});
  EXPECT_EQ(r["choices"][0]["message"]["content"], kForced) << r.dump();
  EXPECT_FALSE(r["choices"][0]["message"].contains("reasoning_content"));
}

// A Claude Code-like loop on Qwen3: turn 1 thinks and calls a tool; turn 2 sends the thinking
// back with the tool result (Qwen3 renders it: the turn follows the last user message); turn 3
// adds a user message (Qwen3 now drops the thinking of the earlier turns). Each turn reuses
// exactly the tokens its render shares with the previous turn's, as /tokenize renders them.
// The same loop in Responses (Codex: reasoning items) and Chat (reasoning_content), each with its
// own first message (so no API reuses another's stored prompts).
TEST_F(ReasoningTest, ThinkingSentBackIsRenderedWhereTheTemplateKeepsItAndReuseStaysExact) {
  RunningServer server(With(kQwen3));
  auto c = server.Client();
  const std::string think1 = "I need the file.", think2 = "It greets.";
  const std::string call =
      "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}\n</tool_call>";
  const std::string grammar1 = LiteralGrammar("<think>\n" + think1 + "\n</think>\n\n" + call);
  const std::string grammar2 = LiteralGrammar("<think>\n" + think2 + "\n</think>\n\nIt says hi.");
  struct Api {
    const char* name;
    const char* path;
    // The request of turn `n` (1-3) with the ids the earlier replies gave.
    std::function<json(int n, const std::string& call_id)> request;
    std::function<size_t(const json&)> cached;
  };
  const std::vector<Api> apis = {
      {"messages", "/v1/messages",
       [&](int n, const std::string& id) {
         const char* api_name = "messages";
         json m = json::array(
             {{{"role", "user"}, {"content", "Read a.txt for " + std::string(api_name)}}});
         if (n >= 2) {
           m.push_back({{"role", "assistant"},
                        {"content",
                         {{{"type", "thinking"}, {"thinking", think1}, {"signature", ""}},
                          {{"type", "tool_use"},
                           {"id", id},
                           {"name", "read_file"},
                           {"input", {{"path", "a.txt"}}}}}}});
           m.push_back({{"role", "user"},
                        {"content", json::array({{{"type", "tool_result"},
                                                  {"tool_use_id", id},
                                                  {"content", "hi"}}})}});
         }
         if (n >= 3) {
           m.push_back({{"role", "assistant"},
                        {"content",
                         {{{"type", "thinking"}, {"thinking", think2}, {"signature", ""}},
                          {{"type", "text"}, {"text", "It says hi."}}}}});
           m.push_back({{"role", "user"}, {"content", "Thanks"}});
         }
         return json{{"messages", m},
                     {"tools", {ReadFileTool()}},
                     {"grammar", n == 1 ? grammar1 : grammar2},
                     {"max_tokens", 60},
                     {"temperature", 0}};
       },
       [](const json& r) { return r["usage"]["cache_read_input_tokens"].get<size_t>(); }},
      {"responses", "/v1/responses",
       [&](int n, const std::string& id) {
         const char* api_name = "responses";
         json in = json::array(
             {{{"role", "user"}, {"content", "Read a.txt for " + std::string(api_name)}}});
         if (n >= 2) {
           in.push_back({{"type", "reasoning"},
                         {"summary", json::array()},
                         {"content", {{{"type", "reasoning_text"}, {"text", think1}}}}});
           in.push_back({{"type", "function_call"},
                         {"call_id", id},
                         {"name", "read_file"},
                         {"arguments", R"({"path":"a.txt"})"}});
           in.push_back({{"type", "function_call_output"}, {"call_id", id}, {"output", "hi"}});
         }
         if (n >= 3) {
           in.push_back({{"type", "reasoning"},
                         {"summary", json::array()},
                         {"content", {{{"type", "reasoning_text"}, {"text", think2}}}}});
           in.push_back({{"role", "assistant"}, {"content", "It says hi."}});
           in.push_back({{"role", "user"}, {"content", "Thanks"}});
         }
         json tool = ReadFileTool();
         tool["type"] = "function";
         tool["parameters"] = tool["input_schema"];
         tool.erase("input_schema");
         return json{{"input", in},
                     {"tools", {tool}},
                     {"grammar", n == 1 ? grammar1 : grammar2},
                     {"max_output_tokens", 60},
                     {"temperature", 0}};
       },
       [](const json& r) {
         return r["usage"]["input_tokens_details"]["cached_tokens"].get<size_t>();
       }},
      {"chat.completions", "/v1/chat/completions",
       [&](int n, const std::string& id) {
         const char* api_name = "chat";
         json m = json::array(
             {{{"role", "user"}, {"content", "Read a.txt for " + std::string(api_name)}}});
         if (n >= 2) {
           m.push_back(
               {{"role", "assistant"},
                {"content", ""},
                {"reasoning_content", think1},
                {"tool_calls",
                 {{{"id", id},
                   {"type", "function"},
                   {"function", {{"name", "read_file"}, {"arguments", R"({"path":"a.txt"})"}}}}}}});
           m.push_back({{"role", "tool"}, {"tool_call_id", id}, {"content", "hi"}});
         }
         if (n >= 3) {
           m.push_back(
               {{"role", "assistant"}, {"content", "It says hi."}, {"reasoning_content", think2}});
           m.push_back({{"role", "user"}, {"content", "Thanks"}});
         }
         json tool = {{"type", "function"},
                      {"function",
                       {{"name", "read_file"},
                        {"description", "Reads a file."},
                        {"parameters", ReadFileTool()["input_schema"]}}}};
         return json{{"messages", m},
                     {"tools", {tool}},
                     {"grammar", n == 1 ? grammar1 : grammar2},
                     {"max_tokens", 60},
                     {"temperature", 0}};
       },
       [](const json& r) {
         return r["usage"]["prompt_tokens_details"]["cached_tokens"].get<size_t>();
       }},
  };
  for (const Api& api : apis) {
    SCOPED_TRACE(api.name);
    // Turn 1: the forced reply is the thinking and a tool call.
    json r1 = Post(*c, api.path, api.request(1, ""));
    std::string id;
    if (std::string(api.name) == "messages") {
      ASSERT_EQ(r1["content"].size(), 2u) << r1.dump();
      EXPECT_EQ(r1["content"][0]["thinking"], think1 + "\n");
      id = r1["content"][1]["id"];
    } else if (std::string(api.name) == "responses") {
      ASSERT_EQ(r1["output"].size(), 2u) << r1.dump();
      EXPECT_EQ(r1["output"][0]["type"], "reasoning");
      id = r1["output"][1]["call_id"];
    } else {
      EXPECT_EQ(r1["choices"][0]["message"]["reasoning_content"], think1 + "\n") << r1.dump();
      id = r1["choices"][0]["message"]["tool_calls"][0]["id"];
    }
    const std::vector<int32_t> t1 = Tokens(*c, api.name, api.request(1, id));
    const std::vector<int32_t> t2 = Tokens(*c, api.name, api.request(2, id));
    const std::vector<int32_t> t3 = Tokens(*c, api.name, api.request(3, id));
    // Turn 2: the thinking sent back is rendered (the turn follows the last user message), so
    // the whole turn-1 prompt is a prefix of the turn-2 prompt and is reused.
    EXPECT_NE(Text(*c, t2).find(think1), std::string::npos);
    ASSERT_EQ(CommonPrefix(t1, t2), t1.size());
    json r2 = Post(*c, api.path, api.request(2, id));
    EXPECT_EQ(api.cached(r2), t1.size()) << r2.dump();
    // Turn 3: a new user message; Qwen3 drops the earlier thinking, so the render departs from
    // turn 2's inside the first assistant turn, and exactly the shared tokens are reused.
    const std::string text3 = Text(*c, t3);
    EXPECT_EQ(text3.find(think1), std::string::npos) << text3;
    EXPECT_EQ(text3.find(think2), std::string::npos) << text3;
    const size_t shared = CommonPrefix(t2, t3);
    EXPECT_LT(shared, t2.size());
    json r3 = Post(*c, api.path, api.request(3, id));
    EXPECT_EQ(api.cached(r3), shared) << r3.dump();
  }
}

// GLM-4.7-Flash's generation prompt ends with "<think>": thinking starts with the prompt, so a
// budget of N lets N tokens through and then forces "</think>" (one token here), as
// llama-server's budget sampler does. The forced run's first N tokens are the unbounded run's
// (greedy, same prompt).
TEST_F(ReasoningTest, ReasoningBudgetForcesTheEndTagAfterNTokens) {
  if (!std::filesystem::exists(LlamaTemplatePath(kGlm47)))
    GTEST_SKIP() << kGlm47 << " not available";
  auto tokens_of = [](const json& r) {
    std::vector<std::string> out;
    for (const json& e : r["choices"][0]["logprobs"]["content"])
      out.push_back(e["token"].get<std::string>());
    return out;
  };
  auto ask = [](httplib::Client& c, std::optional<int> budget) {
    json body{{"messages", {{{"role", "user"}, {"content", "Hi"}}}},
              {"max_tokens", 8},
              {"temperature", 0},
              {"logprobs", true}};
    if (budget) body["reasoning_budget_tokens"] = *budget;
    return Post(c, "/v1/chat/completions", body);
  };
  std::vector<std::string> free_run;
  {
    RunningServer server(With(kGlm47));  // --reasoning-budget -1: unbounded
    auto c = server.Client();
    free_run = tokens_of(ask(*c, std::nullopt));
    ASSERT_EQ(free_run.size(), 8u);
    for (int n : {0, 3}) {
      SCOPED_TRACE(n);
      json r = ask(*c, n);
      const std::vector<std::string> got = tokens_of(r);
      ASSERT_GT(got.size(), static_cast<size_t>(n)) << r.dump();
      EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + n),
                std::vector<std::string>(free_run.begin(), free_run.begin() + n));
      EXPECT_EQ(got[static_cast<size_t>(n)], "</think>") << r.dump();
    }
  }
  // The server's --reasoning-budget applies when the request gives none.
  ServeOptions o = With(kGlm47);
  o.reasoning_budget = 2;
  RunningServer server(o);
  auto c = server.Client();
  const std::vector<std::string> got = tokens_of(ask(*c, std::nullopt));
  ASSERT_GT(got.size(), 2u);
  EXPECT_EQ(got[2], "</think>");
  EXPECT_EQ(got[0], free_run[0]);
}

std::string Joined(const std::vector<std::string>& tokens, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && i < tokens.size(); ++i) out += tokens[i];
  return out;
}

// Anthropic's thinking.budget_tokens drives the same budget sampler: with a budget of N the
// thinking block holds the unbounded run's first N tokens, then "</think>" is forced. Beside the
// server's
// --reasoning-budget the smaller wins.
TEST_F(ReasoningTest, AnthropicThinkingBudgetBoundsTheThinkingBesideTheServersBudget) {
  if (!std::filesystem::exists(LlamaTemplatePath(kGlm47)))
    GTEST_SKIP() << kGlm47 << " not available";
  auto thinking_of = [](httplib::Client& c, int budget) {
    json r = Post(c, "/v1/messages",
                  {{"messages", {{{"role", "user"}, {"content", "Hi"}}}},
                   {"max_tokens", 8},
                   {"temperature", 0},
                   {"thinking", {{"type", "enabled"}, {"budget_tokens", budget}}}});
    EXPECT_EQ(r["content"][0]["type"], "thinking") << r.dump();
    return r["content"][0].value("thinking", "");
  };
  std::vector<std::string> free_run;
  {
    RunningServer server(With(kGlm47));  // --reasoning-budget -1: the request's budget alone
    auto c = server.Client();
    // The greedy tokens of the reply with no budget (thinking starts in the generation prompt).
    json r = Post(*c, "/v1/chat/completions",
                  {{"messages", {{{"role", "user"}, {"content", "Hi"}}}},
                   {"max_tokens", 8},
                   {"temperature", 0},
                   {"logprobs", true}});
    for (const json& e : r["choices"][0]["logprobs"]["content"])
      free_run.push_back(e["token"].get<std::string>());
    ASSERT_EQ(free_run.size(), 8u);
    ASSERT_EQ(std::count(free_run.begin(), free_run.end(), "</think>"), 0);
    EXPECT_EQ(thinking_of(*c, 3), Joined(free_run, 3));
  }
  struct Case {
    int server, request, expected;
  };
  for (const Case& k : {Case{2, 5, 2}, Case{5, 1, 1}}) {
    SCOPED_TRACE(::testing::Message() << "server " << k.server << ", request " << k.request);
    ServeOptions o = With(kGlm47);
    o.reasoning_budget = k.server;
    RunningServer server(o);
    auto c = server.Client();
    EXPECT_EQ(thinking_of(*c, k.request), Joined(free_run, static_cast<size_t>(k.expected)));
  }
}

// thinking {type: disabled} renders the template with enable_thinking off (Qwen3 closes an empty
// block in its generation prompt, GLM-4.7-Flash writes "</think>" where it wrote "<think>"), in
// the prompt a request generates from, /tokenize and count_tokens alike; the reply has no thinking.
TEST_F(ReasoningTest, AnthropicThinkingDisabledRendersTheTemplateWithoutThinking) {
  struct Case {
    const char* name;
    const char* thinking_on;   // how the prompt ends by default
    const char* thinking_off;  // and with thinking disabled
  };
  for (const Case& k :
       {Case{kQwen3, "<|im_start|>assistant\n", "<|im_start|>assistant\n<think>\n\n</think>\n\n"},
        Case{kGlm47, "<|assistant|><think>", "<|assistant|></think>"}}) {
    SCOPED_TRACE(k.name);
    if (!std::filesystem::exists(LlamaTemplatePath(k.name))) continue;
    RunningServer server(With(k.name));
    auto c = server.Client();
    json body{{"messages", {{{"role", "user"}, {"content", "Hi"}}}}, {"max_tokens", 20}};
    // Compared without spaces: the vocabulary's detokenizer puts one after each added token.
    auto unspaced = [](std::string text) {
      std::erase(text, ' ');
      return text;
    };
    const std::string on = Text(*c, Tokens(*c, "messages", body));
    EXPECT_TRUE(unspaced(on).ends_with(unspaced(k.thinking_on))) << on;
    body["thinking"] = {{"type", "disabled"}};
    const std::string off = Text(*c, Tokens(*c, "messages", body));
    EXPECT_TRUE(unspaced(off).ends_with(unspaced(k.thinking_off))) << off;
    // adaptive changes nothing.
    body["thinking"] = {{"type", "adaptive"}};
    EXPECT_EQ(Text(*c, Tokens(*c, "messages", body)), on);
    if (std::string(k.name) != kQwen3) continue;
    body["thinking"] = {{"type", "disabled"}};
    body["grammar"] = LiteralGrammar("Hello there");
    body["temperature"] = 0;
    json r = Post(*c, "/v1/messages", body);
    EXPECT_EQ(r["content"], json::array({{{"type", "text"}, {"text", "Hello there"}}})) << r.dump();
    const json& u = r["usage"];
    EXPECT_EQ(u["input_tokens"].get<size_t>() + u["cache_read_input_tokens"].get<size_t>() +
                  u["cache_creation_input_tokens"].get<size_t>(),
              Tokens(*c, "messages", body).size());
  }
}

// OpenAI's reasoning effort as llama-server passes it: "none" renders Qwen3's template with
// thinking off (Chat's reasoning_effort and Responses' reasoning.effort alike), another effort is
// the template's reasoning_effort variable, which gpt-oss's template writes into its system part
// ("Reasoning: medium" when unset).
TEST_F(ReasoningTest, OpenAiReasoningEffortReachesTheTemplate) {
  auto unspaced = [](std::string text) {
    std::erase(text, ' ');
    return text;
  };
  {
    RunningServer server(With(kQwen3));
    auto c = server.Client();
    json chat{{"messages", {{{"role", "user"}, {"content", "Hi"}}}}};
    const std::string on = Text(*c, Tokens(*c, "chat.completions", chat));
    EXPECT_TRUE(unspaced(on).ends_with("<|im_start|>assistant\n")) << on;
    chat["reasoning_effort"] = "none";
    const std::string off = Text(*c, Tokens(*c, "chat.completions", chat));
    EXPECT_TRUE(unspaced(off).ends_with("<|im_start|>assistant\n<think>\n\n</think>\n\n")) << off;
    json responses{{"input", "Hi"}, {"reasoning", {{"effort", "none"}}}};
    EXPECT_EQ(Text(*c, Tokens(*c, "responses", responses)), off);
  }
  constexpr const char* kGptOss = "openai-gpt-oss-120b.jinja";
  if (!std::filesystem::exists(LlamaTemplatePath(kGptOss))) GTEST_SKIP() << kGptOss << " absent";
  RunningServer server(With(kGptOss));
  auto c = server.Client();
  json chat{{"messages", {{{"role", "user"}, {"content", "Hi"}}}}};
  EXPECT_NE(unspaced(Text(*c, Tokens(*c, "chat.completions", chat))).find("Reasoning:medium"),
            std::string::npos);
  chat["reasoning_effort"] = "high";
  const std::string high = Text(*c, Tokens(*c, "chat.completions", chat));
  EXPECT_NE(unspaced(high).find("Reasoning:high"), std::string::npos) << high;
  json responses{{"input", "Hi"}, {"reasoning", {{"effort", "high"}, {"summary", "auto"}}}};
  EXPECT_EQ(Text(*c, Tokens(*c, "responses", responses)), high);
}

// Responses' usage.output_tokens_details.reasoning_tokens: the reply's tokens up to and including
// the end tag. GLM-4.7-Flash under --reasoning-budget 3: the three tokens the budget lets through
// and the forced "</think>" are 4 of the 8 output tokens. Qwen3's forced "<think>...</think>"
// reply: its tokens from "<think>" to "</think>" (as Chat's logprobs list them); a reply without
// thinking: 0.
TEST_F(ReasoningTest, ResponsesReportTheThinkingsTokensAsReasoningTokens) {
  auto usage_of = [](httplib::Client& c, json body, bool stream) {
    if (!stream) return Post(c, "/v1/responses", body)["usage"];
    body["stream"] = true;
    auto res = c.Post("/v1/responses", body.dump(), "application/json");
    EXPECT_TRUE(res && res->status == 200);
    for (const json& e : SseData(res ? res->body : ""))
      if (e.value("type", "") == "response.completed" ||
          e.value("type", "") == "response.incomplete")  // cut by max_output_tokens
        return e["response"]["usage"];
    return json();
  };
  if (std::filesystem::exists(LlamaTemplatePath(kGlm47))) {
    ServeOptions o = With(kGlm47);
    o.reasoning_budget = 3;
    RunningServer server(o);
    auto c = server.Client();
    for (bool stream : {false, true}) {
      SCOPED_TRACE(stream);
      const json u =
          usage_of(*c, {{"input", "Hi"}, {"max_output_tokens", 8}, {"temperature", 0}}, stream);
      EXPECT_EQ(u["output_tokens"], 8) << u.dump();
      EXPECT_EQ(u["output_tokens_details"]["reasoning_tokens"], 4) << u.dump();
    }
  }
  RunningServer server(With(kQwen3));
  auto c = server.Client();
  // The forced reply's tokens, as Chat lists them: the thinking is those up to "</think>".
  json chat = Post(*c, "/v1/chat/completions",
                   {{"messages", {{{"role", "user"}, {"content", "Hi"}}}},
                    {"grammar", LiteralGrammar(kForced)},
                    {"max_tokens", 40},
                    {"temperature", 0},
                    {"logprobs", true}});
  size_t thinking = 0;
  std::string text;
  for (const json& e : chat["choices"][0]["logprobs"]["content"]) {
    if (text.find("</think>") != std::string::npos) break;
    text += e["token"].get<std::string>();
    ++thinking;
  }
  ASSERT_NE(text.find("</think>"), std::string::npos) << chat.dump();
  for (bool stream : {false, true}) {
    SCOPED_TRACE(stream);
    json u = usage_of(*c,
                      {{"input", "Hi"},
                       {"grammar", LiteralGrammar(kForced)},
                       {"max_output_tokens", 40},
                       {"temperature", 0}},
                      stream);
    EXPECT_EQ(u["output_tokens_details"]["reasoning_tokens"], thinking) << u.dump();
    EXPECT_GT(u["output_tokens"].get<size_t>(), thinking);
    u = usage_of(*c,
                 {{"input", "Hi"},
                  {"grammar", LiteralGrammar("Hello there")},
                  {"max_output_tokens", 40},
                  {"temperature", 0}},
                 stream);
    EXPECT_EQ(u["output_tokens_details"]["reasoning_tokens"], 0) << u.dump();
  }
}

}  // namespace
}  // namespace strata::testing
