// codec_test.cc: the table of wire codecs (src/wire/codec.h) has one row per API, in RequestApi
// order, and the names, request paths and renderers each row gives are the API's own (written by
// hand from docs/record.md and docs/replay.md).
#include "wire/codec.h"

#include <gtest/gtest.h>

#include "strata/record.h"

namespace strata::wire {
namespace {

struct Row {
  RequestApi api;
  const char* name;
  const char* path;
  Provider provider;
  bool explicit_breakpoints;
};

constexpr Row kRows[] = {
    {RequestApi::kAnthropicMessages, "anthropic-messages", "/v1/messages", Provider::kAnthropic,
     true},
    {RequestApi::kOpenAiChat, "openai-chat", "/v1/chat/completions", Provider::kOpenAiChat, false},
    {RequestApi::kOpenAiResponses, "openai-responses", "/openai/v1/responses",
     Provider::kOpenAiResponses, false},
};

TEST(WireCodecTest, OneRowPerApiWithItsNamesPathAndRenderer) {
  ASSERT_EQ(AllCodecs().size(), std::size(kRows));
  for (const Row& row : kRows) {
    const WireCodec& codec = CodecFor(row.api);
    EXPECT_EQ(codec.api, row.api);
    EXPECT_STREQ(RequestApiName(row.api), row.name);
    auto parsed = ParseRequestApi(row.name);
    ASSERT_TRUE(parsed) << row.name;
    EXPECT_EQ(*parsed, row.api);
    EXPECT_EQ(RecordedApiOfPath(row.path), row.api) << row.path;
    EXPECT_EQ(CodecOfProvider(row.provider), &codec);
    EXPECT_EQ(codec.explicit_breakpoints, row.explicit_breakpoints);
    auto renderer = MakeRenderer(row.provider);
    ASSERT_NE(renderer, nullptr);
    EXPECT_EQ(renderer->provider(), row.provider);
  }
  EXPECT_EQ(CodecOfProvider(Provider::kChatTemplate), nullptr);
}

TEST(WireCodecTest, UnknownApiNameListsEveryCodec) {
  auto parsed = ParseRequestApi("gemini");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message,
            "unknown API 'gemini' (anthropic-messages, openai-chat, openai-responses)");
}

}  // namespace
}  // namespace strata::wire
