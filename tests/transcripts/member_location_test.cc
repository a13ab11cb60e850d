// member_location tests: a member path leads to its value's offset in the JSON text, and the
// importers' wrong-shape errors carry the member's line and column.
#include "transcripts/member_location.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/test_support.h"
#include "transcripts/claude_code_log.h"
#include "transcripts/recorded_requests.h"
#include "wire/canonical_prompt.h"

namespace strata {
namespace {

constexpr size_t npos = std::string_view::npos;

TEST(MemberLocationTest, PathsLeadToTheirValues) {
  //                           0         1         2         3         4
  //                           01234567890123456789012345678901234567890123456
  std::string_view text = R"({"a":{"b":[1,{"c":"x,]}"},[2]],"d":true},"e":null})";
  EXPECT_EQ(MemberOffset(text, ""), 0u);
  EXPECT_EQ(MemberOffset(text, "a"), 5u);
  EXPECT_EQ(MemberOffset(text, "a.b"), 10u);
  EXPECT_EQ(MemberOffset(text, "a.b[0]"), 11u);
  EXPECT_EQ(MemberOffset(text, "a.b[1].c"), 18u);  // a string holding , ] and }
  EXPECT_EQ(MemberOffset(text, "a.b[2][0]"), 27u);
  EXPECT_EQ(MemberOffset(text, "a.d"), 35u);
  EXPECT_EQ(MemberOffset(text, "e"), 45u);
  EXPECT_EQ(MemberOffset(text, "a.b[3]"), npos);
  EXPECT_EQ(MemberOffset(text, "a.z"), npos);
  EXPECT_EQ(MemberOffset(text, "e.f"), npos);
}

TEST(MemberLocationTest, AMemberErrorGetsTheLineAndColumnOfItsValue) {
  std::string text = "{\n  \"usage\": {\n    \"input_tokens\": \"12\"\n  }\n}\n";
  Error e{ErrorKind::kParse, "'usage.input_tokens' must be an integer", {"f.json", 0, 0}};
  Error at = WithMemberColumn(e, text, 1);
  EXPECT_EQ(at.where.line, 3);
  EXPECT_EQ(at.where.column, 21);
  // An error that names no member, or already has a column, is left alone.
  Error other{ErrorKind::kParse, "no model requests", {"f.json", 2, 0}};
  EXPECT_EQ(WithMemberColumn(other, text, 1).where.column, 0);
  Error placed{ErrorKind::kParse, "'usage' must be an object", {"f.json", 1, 4}};
  EXPECT_EQ(WithMemberColumn(placed, text, 1).where.column, 4);
}

TEST(MemberLocationTest, ImportersReportTheColumnOfAWrongShapeMember) {
  auto fixture = [](const char* name) {
    return testing::ReadAll(std::filesystem::path(STRATA_SOURCE_DIR) /
                            "tests/transcripts/fixtures" / name);
  };
  // (A usage count of the wrong shape is a warning, not an error: claude_code_log_test.cc.)
  auto claude = ImportClaudeCode(
      "{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}\n"
      "{\"type\":\"user\",\"message\":{\"content\":7}}\n",
      "s.jsonl");
  ASSERT_FALSE(claude);
  EXPECT_EQ(claude.error().where.line, 2);
  EXPECT_EQ(claude.error().where.column, 37);  // the 7 of message.content

  Status status = ReadRecordedRequests(
                      fixture("recorded-usage-string.jsonl"), "r.jsonl",
                      [](RecordedRequest&&) -> Status { return {}; }, nullptr)
                      .transform([](size_t) {});
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().where.line, 1);
  EXPECT_EQ(status.error().where.column, 119);  // the "1200" of prompt_tokens
}

// A recorded request's body error (canonical_prompt.h, as `replay --layout recorded` reads each
// line) points at the member inside the line's "request".
TEST(MemberLocationTest, ARecordedRequestMemberErrorPointsIntoTheRequest) {
  std::string line =
      R"({"api":"anthropic-messages","request":{"model":"m","messages":[{"role":"user","content":7}]},"status":200})"
      "\n";
  auto n = ReadRecordedRequests(
      line, "r.jsonl",
      [](RecordedRequest&& r) -> Status {
        STRATA_TRY(CanonicalizeRequest(r.body, r.api, r.where));
        return {};
      },
      nullptr);
  ASSERT_FALSE(n);
  EXPECT_NE(n.error().message.find("messages[0].content"), std::string::npos) << n.error().message;
  EXPECT_EQ(n.error().where.line, 1);
  EXPECT_EQ(n.error().where.column, 89);  // the 7
}

}  // namespace
}  // namespace strata
