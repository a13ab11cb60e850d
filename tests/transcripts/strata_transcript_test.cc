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
