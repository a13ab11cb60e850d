// serve_codec_test.cc: the table of the codecs' strata serve halves (src/wire/serve_codec.h): one
// row per API in RequestApi order, with the names, id prefixes, routes and error bodies
// docs/serve.md gives each API.
#include "wire/serve_codec.h"

#include <gtest/gtest.h>

namespace strata::serve {
namespace {

using nlohmann::json;

TEST(ServeCodecTest, OneRowPerApiWithItsNameAndIdPrefix) {
  ASSERT_EQ(AllServeCodecs().size(), 3u);
  EXPECT_STREQ(ApiName(Api::kAnthropicMessages), "messages");
  EXPECT_STREQ(ApiName(Api::kOpenAiChat), "chat.completions");
  EXPECT_STREQ(ApiName(Api::kOpenAiResponses), "responses");
  EXPECT_STREQ(ServeCodecFor(Api::kAnthropicMessages).id_prefix, "msg");
  EXPECT_STREQ(ServeCodecFor(Api::kOpenAiChat).id_prefix, "chatcmpl");
  EXPECT_STREQ(ServeCodecFor(Api::kOpenAiResponses).id_prefix, "resp");
  for (const ServeCodec* codec : AllServeCodecs()) EXPECT_EQ(&ServeCodecFor(codec->api), codec);
}

TEST(ServeCodecTest, PathsNameTheirApi) {
  EXPECT_EQ(ApiOfPath("/v1/messages"), Api::kAnthropicMessages);
  EXPECT_EQ(ApiOfPath("/v1/messages/count_tokens"), Api::kAnthropicMessages);
  EXPECT_EQ(ApiOfPath("/v1/responses"), Api::kOpenAiResponses);
  EXPECT_EQ(ApiOfPath("/v1/chat/completions"), Api::kOpenAiChat);
  EXPECT_EQ(ApiOfPath("/chat/completions"), Api::kOpenAiChat);
  EXPECT_EQ(ApiOfPath("/tokenize"), Api::kOpenAiChat);  // llama-server's endpoints answer as OpenAI
}

TEST(ServeCodecTest, ErrorBodiesHaveEachApisShape) {
  const ApiError error{400, "invalid_request_error", "messages: is required", "messages"};
  EXPECT_EQ(ErrorBody(Api::kAnthropicMessages, error),
            json::parse(R"({"type":"error","error":{"type":"invalid_request_error",
                           "message":"messages: is required"}})"));
  const json openai = json::parse(R"({"error":{"message":"messages: is required",
      "type":"invalid_request_error","param":"messages","code":null}})");
  EXPECT_EQ(ErrorBody(Api::kOpenAiChat, error), openai);
  EXPECT_EQ(ErrorBody(Api::kOpenAiResponses, error), openai);
}

}  // namespace
}  // namespace strata::serve
