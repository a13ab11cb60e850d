// json_reader_test.cc: the one JSON-reading helper: locations, member paths, strictness.
#include "base/json_reader.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(JsonReaderTest, SyntaxErrorCarriesLineColumnAndJsonlLineOffset) {
  auto r = ParseJson("{\n  \"a\": ,\n}", "s.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where.path, "s.json");
  EXPECT_EQ(r.error().where.line, 2);
  EXPECT_EQ(r.error().where.column, 8);
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
  auto l = ParseJson("{\"a\":", "t.jsonl", 7);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().where.line, 7);
}

// ParseJson builds its document itself (strings moved out of the parser): every kind of value
// lands where it belongs, nested containers stay in order, a repeated key keeps its last value,
// and text after the document is an error at its column.
TEST(JsonReaderTest, ParsedDocumentHoldsEveryValueInPlace) {
  auto r = ParseJson(
      R"({"a": [1, -2, 18446744073709551615, 2.5, true, null, "s\u00e9", [], {}],
          "b": {"c": {"d": ["x", {"e": "y"}]}}, "a2": "z", "b": {"f": false}})",
      "v.json");
  ASSERT_TRUE(r) << r.error().message;
  const nlohmann::json expected = {
      {"a",
       {1, -2, 18446744073709551615ull, 2.5, true, nullptr, "s\xc3\xa9", nlohmann::json::array(),
        nlohmann::json::object()}},
      {"a2", "z"},
      {"b", {{"f", false}}}};
  EXPECT_EQ(*r, expected) << r->dump();
  auto top = ParseJson(R"( "only a string" )", "w.json");
  ASSERT_TRUE(top);
  EXPECT_EQ(*top, "only a string");
  auto trailing = ParseJson(R"({"a": 1} x)", "t.json");
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().where.column, 10);
}

// nlohmann throws out_of_range (not parse_error) for a number beyond a double; found by
// fuzz/transcript_fuzz.cc, where it ended the process. It is an error value like any other.
TEST(JsonReaderTest, NumberTooLargeForADoubleIsAnErrorNotACrash) {
  auto r = ParseJson("{\"input_tokens\": 1e99999}", "u.jsonl", 4);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kParse);
  EXPECT_EQ(r.error().where.line, 4);
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
}

TEST(JsonReaderTest, WrongTypeNamesTheFullMemberPath) {
  auto doc = *ParseJson(R"({"id": 3})", "s.json");
  JsonObjectReader r(doc, "history[3].tool_calls[0]", {"s.json"}, JsonStrictness::kStrict);
  std::string id;
  auto s = r.String("id", &id);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "'history[3].tool_calls[0].id' must be a string");
}

TEST(JsonReaderTest, StrictUnknownMemberNamesClosestKnownOne) {
  auto doc = *ParseJson(R"({"tool_cals": [], "role": "user"})", "s.json");
  JsonObjectReader r(doc, "history[1]", {"s.json"}, JsonStrictness::kStrict);
  std::string role;
  ASSERT_TRUE(r.String("role", &role));
  ASSERT_TRUE(r.Array("tool_calls"));
  auto s = r.Finish();
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("'history[1].tool_cals' is not a known member"),
            std::string::npos);
  EXPECT_NE(s.error().message.find("did you mean 'tool_calls'?"), std::string::npos);
}

TEST(JsonReaderTest, LenientIgnoresUnknownMembersButNotWrongTypes) {
  auto doc = *ParseJson(R"({"new_member": 1, "n": "7"})", "log.jsonl");
  JsonObjectReader r(doc, "", {"log.jsonl"}, JsonStrictness::kLenient);
  int64_t n = 0;
  EXPECT_FALSE(r.Int("n", &n));
  EXPECT_TRUE(r.Finish());
}

TEST(JsonReaderTest, IntegersOutsideTheirRangeAreRefused) {
  auto doc = *ParseJson(R"({"a": -1, "b": 1e30, "c": 18446744073709551615, "d": 12})", "x");
  JsonObjectReader r(doc, "usage", {"x"}, JsonStrictness::kLenient);
  int64_t v = 0;
  EXPECT_FALSE(r.Int("a", &v));
  EXPECT_FALSE(r.Int("b", &v));
  EXPECT_FALSE(r.Int("c", &v));
  ASSERT_TRUE(r.Int("d", &v));
  EXPECT_EQ(v, 12);
}

TEST(JsonReaderTest, ClosestNameNeedsToBeNear) {
  EXPECT_EQ(ClosestName("modle", {"model", "tools"}), "model");
  EXPECT_EQ(ClosestName("zzzzzz", {"model", "tools"}), "");
}

}  // namespace
}  // namespace strata
