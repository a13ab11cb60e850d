// UsageScanner tests: the usage each API reports, from one JSON body and from hand-written event
// streams, fed whole and in pieces.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "record/usage_scanner.h"

namespace strata {
namespace {

// Feeds `body` to a scanner `piece` bytes at a time.
nlohmann::json ScanInPieces(RequestApi api, bool event_stream, std::string_view body,
                            size_t piece) {
  UsageScanner scanner(api, event_stream);
  for (size_t at = 0; at < body.size(); at += piece) scanner.Feed(body.substr(at, piece));
  return scanner.usage();
}

constexpr std::string_view kAnthropicStream =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[],"
    "\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":300,"
    "\"cache_read_input_tokens\":4000,\"output_tokens\":1}}}\n"
    "\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\","
    "\"text\":\"\"}}\n"
    "\n"
    "event: ping\n"
    "data: {\"type\": \"ping\"}\n"
    "\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
    "\"text\":\"usage\"}}\n"
    "\n"
    "event: message_delta\n"
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
    "\"usage\":{\"output_tokens\":42}}\n"
    "\n"
    "event: message_stop\n"
    "data: {\"type\":\"message_stop\"}\n"
    "\n";

// message_start gives the input side, message_delta updates the output count.
TEST(UsageScannerTest, AnthropicStreamMergesMessageStartAndMessageDelta) {
  auto expected = nlohmann::json::parse(
      R"({"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":4000,
          "output_tokens":42})");
  for (size_t piece : {kAnthropicStream.size(), size_t{1}, size_t{7}, size_t{64}}) {
    EXPECT_EQ(ScanInPieces(RequestApi::kAnthropicMessages, true, kAnthropicStream, piece), expected)
        << "piece " << piece;
  }
}

// CRLF line ends and data split over two lines (joined by LF) are server-sent events too.
TEST(UsageScannerTest, CrlfEventsAndMultiLineDataAreRead) {
  std::string stream =
      "event: message_start\r\n"
      "data: {\"type\":\"message_start\",\r\n"
      "data: \"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\r\n"
      "\r\n"
      "data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\r\n"
      "\r\n";
  EXPECT_EQ(ScanInPieces(RequestApi::kAnthropicMessages, true, stream, 3),
            nlohmann::json::parse(R"({"input_tokens":5,"output_tokens":9})"));
}

// An event without its blank line yet is not read: a stream cut short keeps what was complete.
TEST(UsageScannerTest, IncompleteLastEventIsNotRead) {
  std::string stream =
      "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n"
      "data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\n";
  EXPECT_EQ(ScanInPieces(RequestApi::kAnthropicMessages, true, stream, 1000),
            nlohmann::json::parse(R"({"input_tokens":5})"));
}

// Chat Completions with stream_options.include_usage: the last chunk (no choices) has usage.
TEST(UsageScannerTest, OpenAiChatStreamTakesTheUsageChunk) {
  std::string stream =
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}],"
      "\"usage\":null}\n\n"
      "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
      "data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":2048,"
      "\"completion_tokens\":7,\"total_tokens\":2055,"
      "\"prompt_tokens_details\":{\"cached_tokens\":1920}}}\n\n"
      "data: [DONE]\n\n";
  EXPECT_EQ(ScanInPieces(RequestApi::kOpenAiChat, true, stream, 11),
            nlohmann::json::parse(R"({"prompt_tokens":2048,"completion_tokens":7,
              "total_tokens":2055,"prompt_tokens_details":{"cached_tokens":1920}})"));
}

// Responses: response.created carries "usage": null; response.completed the real figures.
TEST(UsageScannerTest, OpenAiResponsesStreamTakesResponseCompleted) {
  std::string stream =
      "event: response.created\n"
      "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"usage\":null}}\n\n"
      "event: response.output_text.delta\n"
      "data: {\"type\":\"response.output_text.delta\",\"delta\":\"hi\"}\n\n"
      "event: response.completed\n"
      "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"usage\":"
      "{\"input_tokens\":3000,\"input_tokens_details\":{\"cached_tokens\":2944},"
      "\"output_tokens\":12,\"total_tokens\":3012}}}\n\n";
  EXPECT_EQ(ScanInPieces(RequestApi::kOpenAiResponses, true, stream, 5),
            nlohmann::json::parse(R"({"input_tokens":3000,
              "input_tokens_details":{"cached_tokens":2944},"output_tokens":12,
              "total_tokens":3012})"));
}

// A JSON body: its top-level usage, for each API; read once the whole body is in.
TEST(UsageScannerTest, JsonBodyUsage) {
  std::string anthropic =
      R"({"id":"msg","content":[{"type":"text","text":"x"}],
          "usage":{"input_tokens":4,"cache_read_input_tokens":1024,"output_tokens":2}})";
  EXPECT_EQ(ScanInPieces(RequestApi::kAnthropicMessages, false, anthropic, 9),
            nlohmann::json::parse(R"({"input_tokens":4,"cache_read_input_tokens":1024,
              "output_tokens":2})"));
  std::string chat = R"({"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1}})";
  EXPECT_EQ(ScanInPieces(RequestApi::kOpenAiChat, false, chat, 4),
            nlohmann::json::parse(R"({"prompt_tokens":10,"completion_tokens":1})"));
  std::string responses = R"({"object":"response","usage":{"input_tokens":8,"output_tokens":1}})";
  EXPECT_EQ(ScanInPieces(RequestApi::kOpenAiResponses, false, responses, 100),
            nlohmann::json::parse(R"({"input_tokens":8,"output_tokens":1})"));
}

// No usage, a body that is not JSON, an error event: null, never a failure.
TEST(UsageScannerTest, MissingOrUnreadableUsageIsNull) {
  EXPECT_TRUE(ScanInPieces(RequestApi::kOpenAiChat, false, "<html>502</html>", 4).is_null());
  EXPECT_TRUE(
      ScanInPieces(RequestApi::kAnthropicMessages, false, R"({"type":"error"})", 4).is_null());
  EXPECT_TRUE(ScanInPieces(RequestApi::kAnthropicMessages, true,
                           "event: error\ndata: {\"type\":\"error\"}\n\ndata: {not json\n\n", 4)
                  .is_null());
  EXPECT_TRUE(
      ScanInPieces(RequestApi::kOpenAiResponses, true,
                   "data: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\n", 4)
          .is_null());
}

}  // namespace
}  // namespace strata
