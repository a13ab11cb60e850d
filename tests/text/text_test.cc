#include "text/text.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(TextTest, StripsBomAndNormalisesLineEndings) {
  auto r = CleanText("\xEF\xBB\xBF# Title\r\nline\rend\n", "A.md");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->text, "# Title\nline\nend\n");
  EXPECT_TRUE(r->had_bom);
  EXPECT_TRUE(r->had_crlf);
}

TEST(TextTest, RefusesInvalidUtf8WithLocation) {
  auto r = CleanText("ok\nab\xC3(\n", "A.md");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidUtf8);
  EXPECT_EQ(r.error().where.line, 2);
  EXPECT_EQ(r.error().where.column, 3);
}

TEST(TextTest, RefusesBinary) {
  auto r = CleanText(std::string("a\0b", 3), "A.md");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kParse);
}

TEST(TextTest, StripsTagCharactersAndReportsThem) {
  // "hi" followed by U+E0041 U+E0042 (TAG LATIN CAPITAL A, B).
  auto r = CleanText("hi\xF3\xA0\x81\x81\xF3\xA0\x81\x82!\n", "A.md");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->text, "hi!\n");
  ASSERT_EQ(r->diagnostics.size(), 1u);
  EXPECT_EQ(r->diagnostics[0].kind, "tag-characters");
  EXPECT_EQ(r->diagnostics[0].where.column, 3);
}

TEST(TextTest, NormalisesToNfc) {
  // "e" + COMBINING ACUTE ACCENT becomes U+00E9.
  auto r = CleanText(
      "caf"
      "e\xCC\x81\n",
      "A.md");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->text, "caf\xC3\xA9\n");
}

TEST(TextTest, FlagsZeroWidthSpace) {
  auto r = CleanText(
      "a\xE2\x80\x8B"
      "b\n",
      "A.md");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->diagnostics.size(), 1u);
  EXPECT_EQ(r->diagnostics[0].kind, "invisible-character");
}

TEST(TextTest, CodePointBoundary) {
  std::string s =
      "a\xE2\x82\xAC"
      "b";  // a, EURO SIGN (3 bytes), b
  EXPECT_TRUE(IsCodePointBoundary(s, 1));
  EXPECT_FALSE(IsCodePointBoundary(s, 2));
  EXPECT_FALSE(IsCodePointBoundary(s, 3));
  EXPECT_TRUE(IsCodePointBoundary(s, 4));
}

TEST(TextTest, NfcComposesCombiningMarksAndLeavesOtherTextAlone) {
  // e + COMBINING ACUTE ACCENT (U+0301) composes to U+00E9; ANGSTROM SIGN (U+212B) is a singleton
  // that NFC maps to U+00C5; ASCII and Latin-1 text is already NFC.
  auto composed = CleanText(
      "caf"
      "e\xCC\x81 \xE2\x84\xAB",
      "a.md");
  ASSERT_TRUE(composed);
  EXPECT_EQ(composed->text, "caf\xC3\xA9 \xC3\x85");
  auto latin = CleanText("na\xC3\xAFve plain", "a.md");
  ASSERT_TRUE(latin);
  EXPECT_EQ(latin->text, "na\xC3\xAFve plain");
  // Hangul: leading jamo U+1100 + vowel jamo U+1161 compose to the syllable U+AC00.
  auto hangul = CleanText("\xE1\x84\x80\xE1\x85\xA1", "a.md");
  ASSERT_TRUE(hangul);
  EXPECT_EQ(hangul->text, "\xEA\xB0\x80");
  // Em dash, arrows and CJK have no decomposition: unchanged.
  auto dash = CleanText("a \xE2\x80\x94 b \xE2\x86\x92 \xE4\xB8\xAD", "a.md");
  ASSERT_TRUE(dash);
  EXPECT_EQ(dash->text, "a \xE2\x80\x94 b \xE2\x86\x92 \xE4\xB8\xAD");
  auto kept = CleanText("e\xCC\x81", "a.md", {.normalize_nfc = false});
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->text, "e\xCC\x81");
}

}  // namespace
}  // namespace strata
