// Lone UTF-16 surrogate escapes (base/lone_surrogates.h): each one alone becomes \ufffd, a pair in
// order stays, everything else is untouched; EscapeInvalidUtf8 (json_reader.h) for messages that
// quote input bytes.
#include "base/lone_surrogates.h"

#include <gtest/gtest.h>

#include "base/json_reader.h"

namespace strata {
namespace {

// The replaced text, or "(none)" when nothing was replaced; the count in `*n`.
std::string Replaced(std::string_view text, size_t* n) {
  auto out = ReplaceLoneSurrogateEscapes(text, n);
  return out ? *out : "(none)";
}

TEST(LoneSurrogatesTest, ALoneHighSurrogateIsReplaced) {
  size_t n = 9;
  EXPECT_EQ(Replaced(R"({"t":"cut \ud83d here"})", &n), R"({"t":"cut \ufffd here"})");
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(Replaced(R"({"t":"\uD83D"})", &n), R"({"t":"\ufffd"})");  // upper-case hex
  EXPECT_EQ(n, 1u);
}

TEST(LoneSurrogatesTest, ALoneLowSurrogateIsReplaced) {
  size_t n = 0;
  EXPECT_EQ(Replaced(R"({"t":"a\ude00b"})", &n), R"({"t":"a\ufffdb"})");
  EXPECT_EQ(n, 1u);
}

TEST(LoneSurrogatesTest, AReversedPairIsTwoLoneSurrogates) {
  size_t n = 0;
  EXPECT_EQ(Replaced(R"({"t":"\ude00\ud83d"})", &n), R"({"t":"\ufffd\ufffd"})");
  EXPECT_EQ(n, 2u);
}

TEST(LoneSurrogatesTest, AValidPairAndOtherEscapesAreUnchanged) {
  size_t n = 9;
  EXPECT_EQ(Replaced(R"({"t":"\ud83d\ude00 \u00e9 \n \" \\ \u0041"})", &n), "(none)");
  EXPECT_EQ(n, 0u);
  // A pair then a lone high: only the last one.
  EXPECT_EQ(Replaced(R"({"t":"\ud83d\ude00\ud83d"})", &n), R"({"t":"\ud83d\ude00\ufffd"})");
  EXPECT_EQ(n, 1u);
}

TEST(LoneSurrogatesTest, AnEscapedBackslashBeforeULeavesTextAlone) {
  size_t n = 9;
  // \\ud83d is a backslash and the letters ud83d, not an escape.
  EXPECT_EQ(Replaced(R"({"t":"C:\\ud83d"})", &n), "(none)");
  EXPECT_EQ(n, 0u);
}

TEST(LoneSurrogatesTest, AnEscapeAtTheEndOfAStringOrOfTheText) {
  size_t n = 0;
  EXPECT_EQ(Replaced(R"({"t":"end\ud83d"})", &n), R"({"t":"end\ufffd"})");
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(Replaced(R"("\ud83d)", &n), R"("\ufffd)");  // cut short after the escape
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(Replaced(R"("\ud83)", &n), "(none)");  // not a whole escape: the parser says so
}

TEST(LoneSurrogatesTest, TheReplacedTextParsesToUPlusFffd) {
  size_t n = 0;
  auto text = ReplaceLoneSurrogateEscapes(R"({"t":"a\ud83db"})", &n);
  ASSERT_TRUE(text);
  auto j = ParseJson(*text, "x.json");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ((*j)["t"],
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_FALSE(ParseJson(R"({"t":"a\ud83db"})", "x.json"));  // ParseJson alone refuses it
}

TEST(EscapeInvalidUtf8Test, InvalidBytesBecomeHexText) {
  EXPECT_EQ(EscapeInvalidUtf8("ok \xC3\xA9 \xFF end"), "ok \xC3\xA9 \\xFF end");
  EXPECT_EQ(EscapeInvalidUtf8("\xE2\x82"), "\\xE2\\x82");           // a sequence cut short
  EXPECT_EQ(EscapeInvalidUtf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // an encoded surrogate
  EXPECT_EQ(EscapeInvalidUtf8("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");
}

TEST(EscapeInvalidUtf8Test, AParseErrorQuotingARawByteIsText) {
  auto j = ParseJson("{\"a\":\xFF}", "x.json");
  ASSERT_FALSE(j);
  EXPECT_EQ(EscapeInvalidUtf8(j.error().message), j.error().message) << j.error().message;
  EXPECT_NE(j.error().message.find("\\xFF"), std::string::npos) << j.error().message;
}

}  // namespace
}  // namespace strata
