#include "prompt/canonical_json.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(CanonicalJsonTest, SortsKeysAtEveryDepth) {
  auto a = nlohmann::json::parse(R"({"z":1,"a":{"y":true,"b":null}})");
  EXPECT_EQ(CanonicalJson(a), R"({"a":{"b":null,"y":true},"z":1})");
}

TEST(CanonicalJsonTest, KeyOrderOfTheInputDoesNotMatter) {
  auto a =
      nlohmann::json::parse(R"({"type":"object","properties":{"p":{"type":"string"},"q":{}}})");
  auto b =
      nlohmann::json::parse(R"({"properties":{"q":{},"p":{"type":"string"}},"type":"object"})");
  EXPECT_EQ(CanonicalJson(a), CanonicalJson(b));
}

TEST(CanonicalJsonTest, OneSpellingPerNumber) {
  auto v = nlohmann::json::parse(R"([1.0, 1, -0.0, 2.50, 1e2, 0.1, 1e21, -3])");
  EXPECT_EQ(CanonicalJson(v), "[1,1,0,2.5,100,0.1,1e+21,-3]");
}

TEST(CanonicalJsonTest, EscapesOnlyWhatJsonRequires) {
  nlohmann::json v = std::string("a\"b\\c\nd\x01 \xC3\xA9/");
  EXPECT_EQ(CanonicalJson(v), "\"a\\\"b\\\\c\\nd\\u0001 \xC3\xA9/\"");
}

TEST(CanonicalJsonTest, EscapingPiecesEqualsEscapingTheWhole) {
  std::string whole, pieces;
  AppendJsonEscaped("ab\"\ncd", &whole);
  AppendJsonEscaped("ab\"", &pieces);
  AppendJsonEscaped("\ncd", &pieces);
  EXPECT_EQ(whole, pieces);
}

}  // namespace
}  // namespace strata
