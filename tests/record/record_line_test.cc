// record_line tests: the request body keeps its bytes (less whitespace between tokens), the line
// has the documented members, and nothing but the body reaches it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "strata/record.h"

namespace strata {
namespace {

// Member order, number spelling, escapes and whitespace inside strings stay as sent.
TEST(RecordLineTest, CompactBodyKeepsEverythingButWhitespaceBetweenTokens) {
  std::string body =
      "{\n  \"model\" : \"m\",\n\t\"z\": 1.50,\r\n  \"a\": [ 1 , 2e3 ],\n"
      "  \"text\": \"two  spaces\\n\\\"quoted\\\" \\u00e9 \\\\\"\n}\n";
  auto compact = CompactJsonBody(body, "b.json");
  ASSERT_TRUE(compact) << compact.error().message;
  EXPECT_EQ(*compact,
            "{\"model\":\"m\",\"z\":1.50,\"a\":[1,2e3],"
            "\"text\":\"two  spaces\\n\\\"quoted\\\" \\u00e9 \\\\\"}");
}

TEST(RecordLineTest, CompactBodyRefusesWhatIsNotJson) {
  auto compact = CompactJsonBody("{\"a\":\n  tru}", "b.json");
  ASSERT_FALSE(compact);
  EXPECT_EQ(compact.error().kind, ErrorKind::kParse);
  EXPECT_EQ(compact.error().where.path, "b.json");
  EXPECT_EQ(compact.error().where.line, 2);
}

TEST(RecordLineTest, LineHoldsTheDocumentedMembersInOrder) {
  RecordedExchange exchange;
  exchange.api = RequestApi::kOpenAiResponses;
  exchange.request_body = "{\"model\": \"gpt-5\", \"input\": [], \"stream\": true}";
  exchange.usage_json = R"({"input_tokens":10,"output_tokens":2})";
  exchange.status = 200;
  exchange.started_ms = 1764590000123;
  exchange.ttft_ms = 250;
  exchange.total_ms = 900;
  EXPECT_EQ(FormatRecordLine(exchange),
            "{\"api\":\"openai-responses\",\"request\":{\"model\":\"gpt-5\",\"input\":[],"
            "\"stream\":true},\"usage\":{\"input_tokens\":10,\"output_tokens\":2},"
            "\"status\":200,\"started_ms\":1764590000123,\"ttft_ms\":250,\"total_ms\":900}\n");
}

// Only the documented token counts of usage are written: an upstream that puts a credential, text
// or a count of the wrong type in usage gets none of it into the file.
TEST(RecordLineTest, UsageKeepsOnlyTheDocumentedCounts) {
  RecordedExchange exchange;
  exchange.api = RequestApi::kAnthropicMessages;
  exchange.request_body = "{}";
  exchange.usage_json = R"({"input_tokens":12,"output_tokens":"7",
    "cache_read_input_tokens":4000,"authorization":"Bearer sk-echoed-secret",
    "cache_creation":{"ephemeral_5m_input_tokens":300,"note":"sk-nested-secret"},
    "service_tier":"standard"})";
  auto usage = nlohmann::json::parse(FormatRecordLine(exchange))["usage"];
  EXPECT_EQ(usage, nlohmann::json::parse(R"({"input_tokens":12,"cache_read_input_tokens":4000,
    "cache_creation":{"ephemeral_5m_input_tokens":300}})"));
  exchange.api = RequestApi::kOpenAiChat;
  exchange.usage_json = R"({"prompt_tokens":31,"x-api-key":"sk-secret",
    "prompt_tokens_details":{"cached_tokens":16}})";
  usage = nlohmann::json::parse(FormatRecordLine(exchange))["usage"];
  EXPECT_EQ(usage, nlohmann::json::parse(
                       R"({"prompt_tokens":31,"prompt_tokens_details":{"cached_tokens":16}})"));
  exchange.usage_json = R"({"echo":"sk-secret"})";  // no count at all
  EXPECT_TRUE(nlohmann::json::parse(FormatRecordLine(exchange))["usage"].is_null());
}

// A body that is not JSON (an upstream error the harness provoked) is kept, as a string.
TEST(RecordLineTest, NonJsonBodyIsAString) {
  RecordedExchange exchange;
  exchange.request_body = "not json\n";
  exchange.status = 400;
  std::string line = FormatRecordLine(exchange);
  auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["request"], "not json\n");
  EXPECT_TRUE(parsed["usage"].is_null());
  EXPECT_EQ(line.find('\n'), line.size() - 1);
}

}  // namespace
}  // namespace strata
