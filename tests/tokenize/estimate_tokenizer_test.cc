// estimate_tokenizer tests: the vocabulary-free tokenizer packs whole UTF-8 characters into
// tokens of at most 4 bytes (accounting.h, MakeEstimateTokenizer).
#include <gtest/gtest.h>

#include "strata/accounting.h"

namespace strata {
namespace {

TokenizedText Tokens(std::string_view text) {
  auto t = MakeEstimateTokenizer()->TokenizeWithOffsets(text);
  EXPECT_TRUE(t.has_value());
  return t ? *t : TokenizedText{};
}

TEST(EstimateTokenizerTest, FourBytesPerTokenLeftToRight) {
  TokenizedText t = Tokens("abcdefghij");
  EXPECT_EQ(t.ends, (std::vector<size_t>{4, 8, 10}));
  // Ids are the bytes packed little-endian: "abcd" = 0x64636261, "ij" = 0x6a69.
  EXPECT_EQ(t.ids, (std::vector<TokenId>{0x64636261, 0x68676665, 0x6a69}));
  EXPECT_TRUE(Tokens("").ids.empty());
}

TEST(EstimateTokenizerTest, NeverSplitsAUtf8Character) {
  // a (1 byte) + é (2) = 3 bytes; € (3) would make 6, so it starts the next token with x (1).
  EXPECT_EQ(Tokens("a\xC3\xA9\xE2\x82\xACx").ends, (std::vector<size_t>{3, 7}));
  // A 4-byte character is a token of its own; a stray continuation byte counts as one byte.
  EXPECT_EQ(Tokens("ab\xF0\x9F\x98\x80").ends, (std::vector<size_t>{2, 6}));
  EXPECT_EQ(Tokens("\x80\x80\x80\x80\x80").ends, (std::vector<size_t>{4, 5}));
}

TEST(EstimateTokenizerTest, NulIsATokenOfItsOwnSoIdsAreUnique) {
  using namespace std::string_view_literals;
  TokenizedText t = Tokens("a\0b"sv);
  EXPECT_EQ(t.ends, (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(t.ids, (std::vector<TokenId>{0x61, 0, 0x62}));
  EXPECT_NE(Tokens("a"sv).ids, Tokens("a\0"sv).ids);
}

TEST(EstimateTokenizerTest, APrefixTokenizesAsAPrefixButForItsLastToken) {
  TokenizedText whole = Tokens("the quick brown fox");
  TokenizedText prefix = Tokens("the quick br");  // 12 bytes: three whole tokens
  ASSERT_EQ(prefix.ids.size(), 3u);
  EXPECT_TRUE(std::equal(prefix.ids.begin(), prefix.ids.end(), whole.ids.begin()));
  EXPECT_EQ(MakeEstimateTokenizer()->max_token_bytes(), 4u);
  EXPECT_EQ(MakeEstimateTokenizer()->name(), "estimate (4 bytes per token, no vocabulary)");
}

}  // namespace
}  // namespace strata
