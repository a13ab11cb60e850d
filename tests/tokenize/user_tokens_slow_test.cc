// UserTokens (src/tokenize/user_tokens.h): the user-defined tokens llama.cpp splits out of plain
// text, on real vocabularies: mpt's runs of 2 to 24 spaces (ids 50254 for 24 down to 50276 for 2)
// and "[PAD50402]"-style names; qwen2's "[PAD151646]" and on. Expected segments are worked out
// from llama.cpp's rule (longest token first, leftmost match, resuming after it); control tokens
// ("<|endoftext|>") stay text.
#include "tokenize/user_tokens.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/vocab_model.h"

namespace strata {
namespace {

struct Seg {
  size_t begin, end;
  int32_t id;
  bool operator==(const Seg&) const = default;
};

std::vector<Seg> Segments(const UserTokens& tokens, std::string_view text) {
  std::vector<Seg> out;
  for (const auto& s : tokens.Partition(text)) out.push_back({s.begin, s.end, s.id});
  return out;
}

void PrintTo(const Seg& s, std::ostream* os) {
  *os << "{" << s.begin << "," << s.end << "," << s.id << "}";
}

TEST(UserTokensTest, LongestTokenFirstThenTheRest) {
  testing::VocabModel m(testing::LlamaVocabFile("mpt"));
  if (m.model() == nullptr) GTEST_SKIP() << "llama.cpp's vocabulary files not found";
  auto tokens = UserTokens::FromVocab(m.vocab());
  ASSERT_TRUE(tokens);
  // 30 spaces: 24 then 6; 50: 24, 24, 2; one space is no token.
  EXPECT_EQ(Segments(*tokens, "x" + std::string(30, ' ') + "y"),
            (std::vector<Seg>{{0, 1, -1}, {1, 25, 50254}, {25, 31, 50272}, {31, 32, -1}}));
  EXPECT_EQ(Segments(*tokens, std::string(50, ' ')),
            (std::vector<Seg>{{0, 24, 50254}, {24, 48, 50254}, {48, 50, 50276}}));
  EXPECT_TRUE(Segments(*tokens, "a b").empty());  // no token in it: no segments
  EXPECT_EQ(Segments(*tokens, "[PAD50402]<|endoftext|>"),
            (std::vector<Seg>{{0, 10, 50402}, {10, 23, -1}}));
  EXPECT_TRUE(Segments(*tokens, "").empty());
}

TEST(UserTokensTest, Qwen2PadNamesAreTokensAndControlTokensText) {
  testing::VocabModel m(testing::LlamaVocabFile("qwen2"));
  if (m.model() == nullptr) GTEST_SKIP() << "llama.cpp's vocabulary files not found";
  auto tokens = UserTokens::FromVocab(m.vocab());
  ASSERT_TRUE(tokens);
  EXPECT_FALSE(tokens->empty());
  EXPECT_EQ(Segments(*tokens, "<|im_start|>x[PAD151646][PAD151935] [PAD1516"),
            (std::vector<Seg>{{0, 13, -1}, {13, 24, 151646}, {24, 35, 151935}, {35, 44, -1}}));
  // gpt-2 has none.
  testing::VocabModel g(testing::LlamaVocabFile("gpt-2"));
  auto none = UserTokens::FromVocab(g.vocab());
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_TRUE(Segments(*none, "[PAD151646]").empty());
}

}  // namespace
}  // namespace strata
