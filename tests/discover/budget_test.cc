// budget_test.cc: head + tail truncation on code point boundaries with a marker naming the file.
#include "discover/budget.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(BudgetTest, FitsUnchanged) {
  Truncation t = TruncateHeadTail("hello", 5, "a.md");
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(t.text, "hello");
}

TEST(BudgetTest, KeepsHeadAndTailAroundAMarkerNamingFileAndBytes) {
  Truncation t = TruncateHeadTail("0123456789", 4, "docs/a.md");
  ASSERT_TRUE(t.truncated);
  EXPECT_EQ(t.head_bytes, 2u);
  EXPECT_EQ(t.tail_bytes, 2u);
  EXPECT_EQ(t.cut_bytes, 6u);
  EXPECT_EQ(t.text, "01\n[strata: docs/a.md truncated: 6 of 10 bytes cut]\n89");
}

// "€" is E2 82 AC. Head target 4 falls after the first byte of the euro at offset 3; the tail
// target (last 4 bytes) starts in the middle of the last euro.
TEST(BudgetTest, NeverCutsInsideACodePoint) {
  std::string text =
      "abc\xE2\x82\xAC"
      "defgh"
      "\xE2\x82\xAC\xE2\x82\xAC";
  Truncation t = TruncateHeadTail(text, 8, "x.md");
  ASSERT_TRUE(t.truncated);
  EXPECT_EQ(t.head_bytes, 3u);  // "abc": the euro would be split at 4
  EXPECT_EQ(t.tail_bytes, 3u);  // one euro: 4 bytes would start at its second byte
  EXPECT_EQ(t.text.substr(0, 3), "abc");
  EXPECT_EQ(t.text.substr(t.text.size() - 3), "\xE2\x82\xAC");
}

TEST(BudgetTest, ZeroKeepLeavesOnlyTheMarker) {
  Truncation t = TruncateHeadTail("abc", 0, "a.md");
  EXPECT_EQ(t.text, "[strata: a.md truncated: 3 of 3 bytes cut]\n");
}

TEST(BudgetTest, TokenSearchFindsLargestFittingCut) {
  TokenCounter words = [](std::string_view s) {
    size_t n = 0;
    bool in = false;
    for (char c : s) {
      if (c != ' ' && !in) ++n;
      in = c != ' ';
    }
    return n;
  };
  std::string text = "aa bb cc dd ee ff";  // 6 words, 17 bytes
  EXPECT_EQ(BytesWithinTokens(text, 17, 6, words), 17u);
  size_t keep = BytesWithinTokens(text, 17, 2, words);
  Truncation t = TruncateHeadTail(text, keep, "w");
  EXPECT_LE(words(text.substr(0, t.head_bytes)) + words(text.substr(text.size() - t.tail_bytes)),
            2u);
  EXPECT_GT(words(text.substr(0, TruncateHeadTail(text, keep + 2, "w").head_bytes)) +
                words(text.substr(text.size() - TruncateHeadTail(text, keep + 2, "w").tail_bytes)),
            2u);
}

}  // namespace
}  // namespace strata
