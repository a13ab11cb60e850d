// Canonical prompt tests: the rules of canonical_prompt.h written out by hand (a string content
// equals one text block, cache_control and non-prompt members are not text, tools before system
// before messages), wrong shapes named by member path, and the four captured Claude Code requests
// growing as strict prefixes of each other.
#include "wire/canonical_prompt.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_io.h"
#include "support/test_support.h"

namespace strata {
namespace {

using nlohmann::json;

CanonicalPrompt Canon(const std::string& body, RequestApi api = RequestApi::kAnthropicMessages) {
  auto c = CanonicalizeRequest(json::parse(body), api, {"r.json"});
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : CanonicalPrompt{};
}

TEST(CanonicalPromptTest, AnthropicOrderAndBlocks) {
  auto c = Canon(R"({"messages":[{"role":"user","content":"hi"}],"system":"Be brief.",
                     "tools":[{"name":"Bash","input_schema":{"type":"object"}}],"max_tokens":9})");
  EXPECT_EQ(c.bytes,
            "[tools[0] tool]\n{\"input_schema\":{\"type\":\"object\"},\"name\":\"Bash\"}\n"
            "[system[0] system text]\nBe brief.\n"
            "[messages[0].content[0] user text]\nhi\n");
  ASSERT_EQ(c.blocks.size(), 3u);
  EXPECT_EQ(c.blocks[2].path, "messages[0].content[0]");
  EXPECT_TRUE(c.Breakpoints().empty());
}

TEST(CanonicalPromptTest, StringContentEqualsOneTextBlockAndCacheControlIsABreakpoint) {
  auto a = Canon(R"({"messages":[{"role":"user","content":"hi"}]})");
  auto b = Canon(
      R"({"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral","ttl":"1h"}}]}],"stream":true,"metadata":{"user_id":"u"}})");
  EXPECT_EQ(a.bytes, b.bytes);
  ASSERT_EQ(b.Breakpoints().size(), 1u);
  EXPECT_EQ(b.Breakpoints()[0].offset, b.bytes.size());
  EXPECT_EQ(b.Breakpoints()[0].ttl, CacheTtl::k1h);
  EXPECT_EQ(b.Breakpoints()[0].layer, "messages[0].content[0]");
}

TEST(CanonicalPromptTest, ToolResultStringContentEqualsOneTextBlock) {
  auto a = Canon(
      R"({"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]})");
  auto b = Canon(
      R"({"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ok"}],"cache_control":{"type":"ephemeral"}}]}]})");
  EXPECT_EQ(a.bytes, b.bytes);
}

// Claude Code's billing block (strata/discover.h) is not prompt text: two requests that differ
// only there, with or without cch, or with a block and without one, have the same canonical bytes;
// NonPromptDifferences names it.
TEST(CanonicalPromptTest, ClaudeCodeBillingBlockIsNotPromptText) {
  const std::string rest =
      R"(,{"type":"text","text":"You are Claude Code.","cache_control":{"type":"ephemeral"}}],
         "messages":[{"role":"user","content":"list the files"}]})";
  auto with = [&](const std::string& header) {
    return R"({"system":[{"type":"text","text":")" + header + "\"}" + rest;
  };
  const std::string s1 =
      with("x-anthropic-billing-header: cc_version=2.1.328.ea9; cc_entrypoint=cli;");
  const std::string s2 =
      with("x-anthropic-billing-header: cc_version=2.1.328.07d; cc_entrypoint=cli;");
  const std::string r1 =
      with("x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=eb6c6;");
  const std::string r2 =
      with("x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=0aaa9;");
  const std::string expected =
      "[system[1] system text]\nYou are Claude Code.\n"
      "[messages[0].content[0] user text]\nlist the files\n";
  for (const std::string* body : {&s1, &s2, &r1, &r2}) {
    auto c = Canon(*body);
    EXPECT_EQ(c.bytes, expected) << *body;
    ASSERT_EQ(c.Breakpoints().size(), 1u);
    EXPECT_EQ(c.Breakpoints()[0].layer, "system[1]");
  }
  EXPECT_EQ(NonPromptDifferences(json::parse(r1), json::parse(r2), RequestApi::kAnthropicMessages),
            std::vector<std::string>{"system[0]:claude-code/billing-header-cch"});
  EXPECT_EQ(NonPromptDifferences(json::parse(s1), json::parse(s2), RequestApi::kAnthropicMessages),
            std::vector<std::string>{"system[0]:claude-code/billing-header"});
  EXPECT_TRUE(NonPromptDifferences(json::parse(s1), json::parse(s1), RequestApi::kAnthropicMessages)
                  .empty());
  // A string system whose first line is the block: the line is left out, the rest kept.
  auto str = Canon(
      R"({"system":"x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=eb6c6;\nYou are Claude Code.","messages":[{"role":"user","content":"hi"}]})");
  EXPECT_EQ(str.bytes,
            "[system[0] system text]\nYou are Claude Code.\n"
            "[messages[0].content[0] user text]\nhi\n");
  // A user message that quotes the header is prompt text.
  auto quoted = Canon(
      R"({"messages":[{"role":"user","content":"x-anthropic-billing-header: cc_version=2.1.100.7b4; cch=eb6c6;"}]})");
  EXPECT_NE(quoted.bytes.find("cch=eb6c6"), std::string::npos);
}

TEST(CanonicalPromptTest, OpenAiChatAndResponses) {
  auto chat = Canon(
      R"({"model":"gpt-5","stream":true,"messages":[{"role":"system","content":"S"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]})",
      RequestApi::kOpenAiChat);
  EXPECT_EQ(chat.bytes,
            "[messages[0].content[0] system text]\nS\n"
            "[messages[1].calls assistant "
            "calls]\n{\"tool_calls\":[{\"function\":{\"arguments\":\"{}\",\"name\":\"f\"},\"id\":"
            "\"c1\",\"type\":\"function\"}]}\n"
            "[messages[2].content[0] tool text]\nr\n"
            "[messages[2].calls tool calls]\n{\"tool_call_id\":\"c1\"}\n");
  auto a = Canon(R"({"model":"gpt-5","instructions":"I","input":"hi","store":false})",
                 RequestApi::kOpenAiResponses);
  auto b = Canon(
      R"({"model":"gpt-5","instructions":"I","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],"prompt_cache_key":"k"})",
      RequestApi::kOpenAiResponses);
  EXPECT_EQ(a.bytes,
            "[instructions developer text]\nI\n[input[0].content[0] user input_text]\nhi\n");
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(CanonicalPromptTest, GuessesTheApi) {
  EXPECT_EQ(GuessRequestApi(json::parse(R"({"input":"x"})")), RequestApi::kOpenAiResponses);
  EXPECT_EQ(GuessRequestApi(json::parse(R"({"system":"x","messages":[]})")),
            RequestApi::kAnthropicMessages);
  EXPECT_EQ(GuessRequestApi(json::parse(R"({"messages":[{"role":"developer","content":"x"}]})")),
            RequestApi::kOpenAiChat);
}

TEST(CanonicalPromptTest, WrongShapesNameTheMember) {
  auto bad = CanonicalizeRequest(json::parse(R"({"messages":[{"role":"user","content":7}]})"),
                                 RequestApi::kAnthropicMessages, {"r.json"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("messages[0].content"), std::string::npos)
      << bad.error().message;
  auto no_text = CanonicalizeRequest(
      json::parse(R"({"messages":[{"role":"user","content":[{"type":"text"}]}]})"),
      RequestApi::kAnthropicMessages, {"r.json"});
  ASSERT_FALSE(no_text);
  EXPECT_NE(no_text.error().message.find("messages[0].content[0]"), std::string::npos);
}

TEST(CanonicalPromptTest, NonPromptDifferencesAreNamed) {
  auto a = json::parse(R"({"messages":[],"stream":true,"metadata":{"a":1}})");
  auto b = json::parse(R"({"messages":[],"stream":false,"metadata":{"a":1},"max_tokens":5})");
  EXPECT_EQ(NonPromptDifferences(a, b, RequestApi::kAnthropicMessages),
            (std::vector<std::string>{"max_tokens", "stream"}));
}

// The four captured Claude Code 2.1.328 requests (a breakpoint moving forward, a content string
// in one request and a one-block array in the next): each canonical prompt extends the one before.
TEST(CanonicalPromptTest, CapturedClaudeCodeRequestsGrowAsPrefixes) {
  std::optional<std::filesystem::path> corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent (STRATA_CORPUS_DIR)";
  std::filesystem::path dir = *corpus / "requests/claude-code-2.1.328";
  if (!std::filesystem::exists(dir / "000.json")) GTEST_SKIP() << "corpus absent: " << dir;
  std::vector<CanonicalPrompt> prompts;
  for (const char* name : {"000.json", "001.json", "002.json", "003.json"}) {
    auto bytes = ReadFileBytes(dir / name);
    ASSERT_TRUE(bytes);
    json body = json::parse(*bytes);
    EXPECT_EQ(GuessRequestApi(body), RequestApi::kAnthropicMessages);
    prompts.push_back(Canon(*bytes));
  }
  for (size_t i = 0; i + 1 < prompts.size(); ++i) {
    EXPECT_TRUE(prompts[i + 1].bytes.starts_with(prompts[i].bytes)) << "request " << i;
    EXPECT_GT(prompts[i + 1].bytes.size(), prompts[i].bytes.size());
    EXPECT_FALSE(prompts[i].Breakpoints().empty());
  }
}

}  // namespace
}  // namespace strata
