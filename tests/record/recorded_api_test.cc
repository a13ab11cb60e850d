// recorded_api tests: the API of a request path.
#include <gtest/gtest.h>

#include "strata/record.h"

namespace strata {
namespace {

TEST(RecordedApiTest, PathSuffixNamesTheApi) {
  EXPECT_EQ(RecordedApiOfPath("/v1/messages?beta=true"), RequestApi::kAnthropicMessages);
  EXPECT_EQ(RecordedApiOfPath("/v1/messages"), RequestApi::kAnthropicMessages);
  EXPECT_EQ(RecordedApiOfPath("/v1/chat/completions"), RequestApi::kOpenAiChat);
  EXPECT_EQ(RecordedApiOfPath("/openai/v1/chat/completions/"), RequestApi::kOpenAiChat);
  EXPECT_EQ(RecordedApiOfPath("/v1/responses"), RequestApi::kOpenAiResponses);
  EXPECT_STREQ(RequestApiName(RequestApi::kAnthropicMessages), "anthropic-messages");
  EXPECT_STREQ(RequestApiName(RequestApi::kOpenAiChat), "openai-chat");
  EXPECT_STREQ(RequestApiName(RequestApi::kOpenAiResponses), "openai-responses");
}

// Token counting, model lists and response lookups are forwarded but are not model requests.
TEST(RecordedApiTest, OtherPathsAreNotRecorded) {
  EXPECT_FALSE(RecordedApiOfPath("/v1/messages/count_tokens"));
  EXPECT_FALSE(RecordedApiOfPath("/v1/models"));
  EXPECT_FALSE(RecordedApiOfPath("/v1/responses/resp_123"));
  EXPECT_FALSE(RecordedApiOfPath("/"));
  EXPECT_FALSE(RecordedApiOfPath(""));
}

}  // namespace
}  // namespace strata
