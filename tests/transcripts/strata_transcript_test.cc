// strata transcript tests: the strict reader refuses unknown events, unknown members and wrong
// types at their line.
#include "transcripts/strata_transcript.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(TranscriptTest, StrataFormatRejectsUnknownEventWithLine) {
  auto t = ParseStrataTranscript("{\"type\":\"user\",\"text\":\"hi\"}\n{\"type\":\"bogus\"}\n",
                                 "t.jsonl");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().where.line, 2);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(StrataTranscriptTest, WrongTypesAndBadTimesAreRefusedAtTheirLine) {
  auto typed = ParseStrataTranscript(
      "{\"type\":\"user\",\"text\":123}\n{\"type\":\"assistant\",\"text\":\"ok\"}\n", "t.jsonl");
  ASSERT_FALSE(typed);
  EXPECT_EQ(typed.error().where.line, 1);
  EXPECT_NE(typed.error().message.find("'text'"), std::string::npos);
  auto timed = ParseStrataTranscript(
      "{\"type\":\"user\",\"text\":\"hi\"}\n"
      "{\"type\":\"assistant\",\"text\":\"ok\",\"time\":\"yesterday\"}\n",
      "t.jsonl");
  ASSERT_FALSE(timed);
  EXPECT_EQ(timed.error().where.line, 2);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(StrataTranscriptTest, LineNumbersCountBlankLinesAndJsonErrorsSayWhy) {
  auto blank = ParseStrataTranscript("\n\n{\"type\":\"user\",\"text\":5}\n", "t.jsonl");
  ASSERT_FALSE(blank);
  EXPECT_EQ(blank.error().where.line, 3);
  auto cut = ParseStrataTranscript("{\"type\":\"user\",\"text\":\"hi\n", "t.jsonl");
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().where.line, 1);
  EXPECT_GT(cut.error().where.column, 1);
  EXPECT_NE(cut.error().message.find("missing closing quote"), std::string::npos);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(StrataTranscriptTest, UnknownMemberNamesTheClosestValidOne) {
  auto t = ParseStrataTranscript("{\"type\":\"user\",\"txt\":\"hi\"}\n", "t.jsonl");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().where.line, 1);
  EXPECT_NE(t.error().message.find("did you mean 'text'"), std::string::npos) << t.error().message;
}

TEST(StrataTranscriptTest, WrongTypeNamesTheMemberPath) {
  auto t = ParseStrataTranscript(
      "{\"type\":\"assistant\",\"tool_calls\":[{\"id\":5,\"name\":\"bash\"}]}\n", "t.jsonl");
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("'tool_calls[0].id'"), std::string::npos) << t.error().message;
  auto usage = ParseStrataTranscript("{\"type\":\"assistant\",\"usage\":{\"input_tokens\":-1}}\n",
                                     "t.jsonl");
  ASSERT_FALSE(usage);
  EXPECT_NE(usage.error().message.find("'usage.input_tokens'"), std::string::npos);
}

TEST(StrataTranscriptTest, FormatRoundTrips) {
  Transcript t;
  t.format = "strata";
  TranscriptEvent ctx = MakeEvent(TranscriptEventKind::kContext, "2026-11-29T10:00:00Z");
  ctx.context.model = "m";
  ctx.context.tools = {{"bash", "runs", R"({"type":"object"})"}};
  t.events.push_back(ctx);
  TranscriptEvent a = MakeEvent(TranscriptEventKind::kAssistant, "", "ok");
  a.message.tool_calls.push_back({"c1", "bash", R"({"command":"ls"})"});
  a.recorded = RecordedUsage{10, 4, 2};
  t.events.push_back(a);
  std::string text = FormatStrataTranscript(t);
  auto back = ParseStrataTranscript(text, "t.jsonl");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(FormatStrataTranscript(*back), text);
}

}  // namespace
}  // namespace strata
