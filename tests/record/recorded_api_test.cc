// recorded_api tests: the API of a request path, and which headers are credentials.
#include <gtest/gtest.h>

#include "strata/record.h"

namespace strata {
namespace {

TEST(RecordedApiTest, PathSuffixNamesTheApi) {
  EXPECT_EQ(RecordedApiOfPath("/v1/messages?beta=true"), RecordedApi::kAnthropicMessages);
  EXPECT_EQ(RecordedApiOfPath("/v1/messages"), RecordedApi::kAnthropicMessages);
  EXPECT_EQ(RecordedApiOfPath("/v1/chat/completions"), RecordedApi::kOpenAiChat);
  EXPECT_EQ(RecordedApiOfPath("/openai/v1/chat/completions/"), RecordedApi::kOpenAiChat);
  EXPECT_EQ(RecordedApiOfPath("/v1/responses"), RecordedApi::kOpenAiResponses);
  EXPECT_STREQ(RecordedApiName(RecordedApi::kAnthropicMessages), "anthropic-messages");
  EXPECT_STREQ(RecordedApiName(RecordedApi::kOpenAiChat), "openai-chat");
  EXPECT_STREQ(RecordedApiName(RecordedApi::kOpenAiResponses), "openai-responses");
}

// Token counting, model lists and response lookups are forwarded but are not model requests.
TEST(RecordedApiTest, OtherPathsAreNotRecorded) {
  EXPECT_FALSE(RecordedApiOfPath("/v1/messages/count_tokens"));
  EXPECT_FALSE(RecordedApiOfPath("/v1/models"));
  EXPECT_FALSE(RecordedApiOfPath("/v1/responses/resp_123"));
  EXPECT_FALSE(RecordedApiOfPath("/"));
  EXPECT_FALSE(RecordedApiOfPath(""));
}

TEST(RecordedApiTest, CredentialHeadersAnyCase) {
  for (const char* name : {"Authorization", "authorization", "X-Api-Key", "x-api-key", "api-key",
                           "Cookie", "Set-Cookie", "Proxy-Authorization"}) {
    EXPECT_TRUE(IsCredentialHeader(name)) << name;
  }
  for (const char* name : {"anthropic-version", "anthropic-beta", "content-type", "user-agent",
                           "x-stainless-lang", "openai-organization"}) {
    EXPECT_FALSE(IsCredentialHeader(name)) << name;
  }
}

}  // namespace
}  // namespace strata
