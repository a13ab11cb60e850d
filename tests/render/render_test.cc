// Exact request bytes for a minimal context, written by hand from the provider formats in
// render.h, so any drift in member order, escaping or cache directives shows up here.
#include "strata/render.h"

#include <gtest/gtest.h>

#include "strata/assemble.h"

namespace strata {
namespace {

ContextInputs Minimal() {
  ContextInputs in;
  in.model = "m";
  in.persona = "P";
  in.cwd = "/a";
  return in;
}

TurnInputs Now() {
  TurnInputs t;
  t.now = "2026-01-01T00:00:00Z";
  return t;
}

std::string RenderFirstTurn(Provider provider, AssembleOptions options = {}) {
  auto session = ContextSession::Create(options);
  EXPECT_TRUE(session.has_value());
  EXPECT_TRUE(session->BeginTurn(Minimal(), "hi").has_value());
  auto r = session->Render(provider, Minimal(), Now());
  EXPECT_TRUE(r.has_value());
  return r->request.Flatten();
}

const char kTail[] = R"(<context-tail>\ndate-time: 2026-01-01T00:00:00Z\n</context-tail>)";

TEST(RenderTest, AnthropicMinimalRequest) {
  EXPECT_EQ(
      RenderFirstTurn(Provider::kAnthropic),
      std::string(
          R"({"model":"m","max_tokens":4096,"system":[)"
          R"({"type":"text","text":"P","cache_control":{"type":"ephemeral"}},)"
          R"({"type":"text","text":"Working directory: /a","cache_control":{"type":"ephemeral"}}],)"
          R"("messages":[{"role":"user","content":[)"
          R"({"type":"text","text":"hi","cache_control":{"type":"ephemeral"}},)"
          R"({"type":"text","text":")") +
          kTail + R"("}]}]})");
}

TEST(RenderTest, AnthropicLongTtlOnTheEarliestBreakpoints) {
  AssembleOptions options;
  options.long_ttl_breakpoints = 2;
  std::string r = RenderFirstTurn(Provider::kAnthropic, options);
  EXPECT_NE(r.find(R"("text":"P","cache_control":{"type":"ephemeral","ttl":"1h"})"),
            std::string::npos);
  EXPECT_NE(r.find(R"(/a","cache_control":{"type":"ephemeral","ttl":"1h"})"), std::string::npos);
  EXPECT_NE(r.find(R"("text":"hi","cache_control":{"type":"ephemeral"})"), std::string::npos);
}

TEST(RenderTest, OpenAiChatMinimalRequest) {
  EXPECT_EQ(RenderFirstTurn(Provider::kOpenAiChat),
            std::string(R"({"model":"m","messages":[{"role":"system","content":"P"},)"
                        R"({"role":"system","content":"Working directory: /a"},)"
                        R"({"role":"user","content":[{"type":"text","text":"hi"},)"
                        R"({"type":"text","text":")") +
                kTail + R"("}]}]})");
}

TEST(RenderTest, OpenAiResponsesMinimalRequestWithCacheKey) {
  AssembleOptions options;
  options.prompt_cache_key = "k1";
  EXPECT_EQ(
      RenderFirstTurn(Provider::kOpenAiResponses, options),
      std::string(
          R"({"model":"m","prompt_cache_key":"k1","input":[)"
          R"({"role":"system","content":[{"type":"input_text","text":"P"}]},)"
          R"({"role":"system","content":[{"type":"input_text","text":"Working directory: /a"}]},)"
          R"({"role":"user","content":[{"type":"input_text","text":"hi"},)"
          R"({"type":"input_text","text":")") +
          kTail + R"("}]}]})");
}

TEST(RenderTest, ChatMlMinimalText) {
  EXPECT_EQ(RenderFirstTurn(Provider::kChatTemplate),
            "<|im_start|>system\nP<|im_end|>\n"
            "<|im_start|>system\nWorking directory: /a<|im_end|>\n"
            "<|im_start|>user\nhi\n\n"
            "<context-tail>\ndate-time: 2026-01-01T00:00:00Z\n</context-tail><|im_end|>\n"
            "<|im_start|>assistant\n");
}

// A tool-call streak: the call in the assistant turn, the result as new input carrying the
// conversation breakpoint (no tail: nothing volatile was given).
std::string RenderStreak(Provider provider) {
  auto session = ContextSession::Create({});
  EXPECT_TRUE(session.has_value());
  ContextInputs in = Minimal();
  in.cwd.clear();
  in.tools = {{"read", "Read.", R"({"type":"object"})"}};
  EXPECT_TRUE(session->BeginTurn(in, "go").has_value());
  Message call;
  call.role = Role::kAssistant;
  call.tool_calls = {{"c1", "read", R"({"path":"a"})"}};
  EXPECT_TRUE(session->Append(call).has_value());
  Message result;
  result.role = Role::kToolResult;
  result.tool_call_id = "c1";
  result.text = "x";
  EXPECT_TRUE(session->Append(result).has_value());
  auto r = session->Render(provider, in, TurnInputs{});
  EXPECT_TRUE(r.has_value());
  return r->request.Flatten();
}

TEST(RenderTest, AnthropicToolStreak) {
  EXPECT_EQ(
      RenderStreak(Provider::kAnthropic),
      R"({"model":"m","max_tokens":4096,)"
      R"("tools":[{"description":"Read.","input_schema":{"type":"object"},"name":"read"}],)"
      R"("system":[{"type":"text","text":"P","cache_control":{"type":"ephemeral"}}],"messages":[)"
      R"({"role":"user","content":[{"type":"text","text":"go"}]},)"
      R"({"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"read","input":{"path":"a"}}]},)"
      R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"x",)"
      R"("cache_control":{"type":"ephemeral"}}]}]})");
}

TEST(RenderTest, OpenAiChatToolStreak) {
  EXPECT_EQ(
      RenderStreak(Provider::kOpenAiChat),
      R"({"model":"m","tools":[{"type":"function","function":{"description":"Read.","name":"read",)"
      R"("parameters":{"type":"object"}}}],"messages":[{"role":"system","content":"P"},)"
      R"({"role":"user","content":[{"type":"text","text":"go"}]},)"
      R"({"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",)"
      R"("function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]},)"
      R"({"role":"tool","tool_call_id":"c1","content":"x"}]})");
}

TEST(RenderTest, OpenAiResponsesToolStreak) {
  EXPECT_EQ(
      RenderStreak(Provider::kOpenAiResponses),
      R"({"model":"m","tools":[{"type":"function","description":"Read.","name":"read",)"
      R"("parameters":{"type":"object"}}],"input":[)"
      R"({"role":"system","content":[{"type":"input_text","text":"P"}]},)"
      R"({"role":"user","content":[{"type":"input_text","text":"go"}]},)"
      R"({"type":"function_call","call_id":"c1","name":"read","arguments":"{\"path\":\"a\"}"},)"
      R"({"type":"function_call_output","call_id":"c1","output":"x"}]})");
}

// ChatML, Hermes-style: the call after the (empty) text, the result in <tool_response>.
TEST(RenderTest, ChatMlToolStreak) {
  const std::string text = RenderStreak(Provider::kChatTemplate);
  const std::string messages =
      "<|im_start|>user\ngo<|im_end|>\n"
      "<|im_start|>assistant\n<tool_call>\n{\"arguments\":{\"path\":\"a\"},\"name\":\"read\"}\n"
      "</tool_call><|im_end|>\n"
      "<|im_start|>tool\n<tool_response>\nx\n</tool_response><|im_end|>\n"
      "<|im_start|>assistant\n";
  ASSERT_GE(text.size(), messages.size());
  EXPECT_EQ(text.substr(text.size() - messages.size()), messages);
}

// A message given in parts is written as their concatenation, into room made once for the whole
// message: appending a huge content and then the end marker grew the buffer to twice its size
// (the old and the new buffer held at once while copying).
TEST(RenderTest, ChatMlWritesAMessageFromPartsReservingItOnce) {
  auto chatml = MakeChatMlTemplate();
  const std::string big(size_t{1} << 20, 'a');
  const std::string_view parts[] = {"<b>", big, "</b>"};
  std::string out = "x";
  EXPECT_EQ(chatml->AppendMessageParts("user", parts, &out), 1u + 12 + 4 + 1);
  EXPECT_EQ(out, "x<|im_start|>user\n<b>" + big + "</b><|im_end|>\n");
  EXPECT_LT(out.capacity(), out.size() + out.size() / 8);
  std::string one;
  EXPECT_EQ(chatml->AppendMessage("tool", big, &one), 12u + 4 + 1);
  EXPECT_EQ(one, "<|im_start|>tool\n" + big + "<|im_end|>\n");
  EXPECT_LT(one.capacity(), one.size() + one.size() / 8);
}

TEST(RenderTest, ProviderNamesRoundTripAndUnknownNamesAreRefused) {
  for (Provider p : {Provider::kAnthropic, Provider::kOpenAiChat, Provider::kOpenAiResponses,
                     Provider::kChatTemplate}) {
    auto parsed = ParseProvider(ProviderName(p));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, p);
  }
  EXPECT_EQ(ProviderNameList(), "anthropic, openai-chat, openai-responses, chat-template");
  auto bad = ParseProvider("gemini");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("openai-responses"), std::string::npos);
}

// A custom template plugs in through the ChatTemplate interface.
class BracketTemplate : public ChatTemplate {
 public:
  std::string_view name() const override { return "bracket"; }
  size_t AppendMessage(std::string_view role, std::string_view content,
                       std::string* out) const override {
    *out += "[";
    out->append(role);
    *out += "]";
    size_t at = out->size();
    out->append(content);
    *out += "\n";
    return at;
  }
  void AppendGenerationPrompt(std::string* out) const override { *out += "[assistant]"; }
};

// A template that writes no AppendMessageParts gets the parts joined.
TEST(RenderTest, CustomChatTemplateGetsMessagePartsJoined) {
  BracketTemplate bracket;
  const std::string_view parts[] = {"a", "", "bc"};
  std::string out = "x";
  EXPECT_EQ(bracket.AppendMessageParts("user", parts, &out), 7u);
  EXPECT_EQ(out, "x[user]abc\n");
}

TEST(RenderTest, CustomChatTemplatePlugsIn) {
  BracketTemplate bracket;
  AssembleOptions options;
  options.chat_template = &bracket;
  auto session = ContextSession::Create(options);
  ASSERT_TRUE(session.has_value());
  ContextInputs in = Minimal();
  ASSERT_TRUE(session->BeginTurn(in, "hi").has_value());
  auto r = session->Render(Provider::kChatTemplate, in, TurnInputs{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->request.Flatten(),
            "[system]P\n[system]Working directory: /a\n[user]hi\n[assistant]");
}

}  // namespace
}  // namespace strata
