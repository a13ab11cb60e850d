// Recorded-request reader tests (the `strata record` file format): lines, usage per API, counts of
// the wrong shape refused at their line, a cut-short last line, and the conversation as a
// Transcript.
#include "transcripts/recorded_requests.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_io.h"
#include "support/test_support.h"

namespace strata {
namespace {

std::string Fixture(const std::string& name) { return testing::TranscriptFixture(name); }

std::vector<RecordedRequest> ReadAll(const std::string& text, std::vector<std::string>* warnings,
                                     Status* status) {
  std::vector<RecordedRequest> out;
  auto n = ReadRecordedRequests(
      text, "r.jsonl",
      [&](RecordedRequest&& r) -> Status {
        out.push_back(std::move(r));
        return {};
      },
      warnings);
  if (!n) *status = tl::unexpected(n.error());
  return out;
}

TEST(RecordedRequestsTest, ReadsEachLineWithItsUsage) {
  std::vector<std::string> warnings;
  Status status;
  auto requests = ReadAll(Fixture("recorded-two-requests.jsonl"), &warnings, &status);
  ASSERT_TRUE(status) << status.error().message;
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].api, RequestApi::kAnthropicMessages);
  EXPECT_EQ(requests[0].status, 200);
  EXPECT_EQ(requests[0].started_ms, 1764590400000);
  EXPECT_EQ(requests[0].ttft_ms, 120);
  EXPECT_FALSE(requests[1].ttft_ms);
  ASSERT_TRUE(requests[1].usage);
  EXPECT_EQ(requests[1].usage->input_tokens, 2070u);  // 30 + 2000 + 40
  EXPECT_EQ(requests[1].usage->cache_read_tokens, 2000u);
  EXPECT_EQ(requests[1].usage->cache_write_tokens, 40u);
  EXPECT_TRUE(warnings.empty());
}

TEST(RecordedRequestsTest, ACutShortLastLineIsAWarning) {
  std::vector<std::string> warnings;
  Status status;
  auto requests = ReadAll(Fixture("recorded-truncated-last-line.jsonl"), &warnings, &status);
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(requests.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("r.jsonl:2"), std::string::npos) << warnings[0];
}

TEST(RecordedRequestsTest, WrongShapeCountsAreErrorsAtTheirLine) {
  for (const char* name : {"recorded-usage-string.jsonl", "recorded-usage-huge.jsonl",
                           "recorded-usage-wraps.jsonl", "recorded-usage-negative.jsonl"}) {
    Status status;
    ReadAll(Fixture(name), nullptr, &status);
    ASSERT_FALSE(status) << name;
    EXPECT_EQ(status.error().where.line, 1) << name;
    EXPECT_NE(status.error().message.find("usage."), std::string::npos)
        << name << ": " << status.error().message;
  }
}

TEST(RecordedRequestsTest, OpenAiUsageReadsCachedTokens) {
  auto chat = ReadProviderUsage(
      nlohmann::json::parse(
          R"({"prompt_tokens":2000,"prompt_tokens_details":{"cached_tokens":1536}})"),
      RequestApi::kOpenAiChat, {});
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->input_tokens, 2000u);
  EXPECT_EQ(chat->cache_read_tokens, 1536u);
  auto responses = ReadProviderUsage(
      nlohmann::json::parse(
          R"({"input_tokens":3000,"input_tokens_details":{"cached_tokens":2048}})"),
      RequestApi::kOpenAiResponses, {});
  ASSERT_TRUE(responses);
  EXPECT_EQ(responses->cache_read_tokens, 2048u);
}

TEST(RecordedRequestsTest, TheConversationBecomesATranscript) {
  auto t = ImportRecorded(Fixture("recorded-two-requests.jsonl"), "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->RequestCount(), 2u);
  std::vector<TranscriptEventKind> kinds;
  for (const auto& e : t->events) kinds.push_back(e.kind);
  using K = TranscriptEventKind;
  EXPECT_EQ(kinds,
            (std::vector<K>{K::kContext, K::kUser, K::kAssistant, K::kToolResult, K::kAssistant}));
  EXPECT_EQ(t->events[0].context.persona, "You are a test agent.");
  ASSERT_EQ(t->events[0].context.tools.size(), 1u);
  EXPECT_EQ(t->events[0].context.tools[0].name, "Bash");
  EXPECT_EQ(t->events[2].message.tool_calls.at(0).id, "toolu_1");
  EXPECT_EQ(t->events[2].recorded->cache_write_tokens, 2000u);  // the first request's usage
  EXPECT_EQ(t->events[4].recorded->cache_read_tokens, 2000u);
}

}  // namespace
}  // namespace strata
