// LlamaPreTokenizer (src/tokenize/llama_pre_tokenizer.h): which vocabularies it takes, where its
// pieces end in the original text (hand-written from qwen2's expression, llama.cpp's reading of
// invalid UTF-8 and its overlong forms), and where it cuts a long text into parts.
#include "tokenize/llama_pre_tokenizer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/vocab_model.h"

namespace strata {
namespace {

using Ends = std::vector<size_t>;
using Bytes = std::vector<std::string>;

TEST(LlamaPreTokenizerTest, TakesTheByteLevelBpeTypesItRunsOnly) {
  // ignore_merges: llama.cpp sets it for llama3 ("llama-bpe"), not for qwen2 or gpt-2.
  struct Case {
    std::string vocab;
    bool taken;
    bool ignore_merges;
  };
  for (const Case& c :
       {Case{"qwen2", true, false}, Case{"llama-bpe", true, true}, Case{"gpt-2", true, false},
        Case{"mpt", true, false}, Case{"qwen35", false, false}, Case{"starcoder", false, false},
        Case{"llama-spm", false, false}, Case{"bert-bge", false, false}}) {
    testing::VocabModel m(testing::LlamaVocabFile(c.vocab));
    if (m.model() == nullptr) GTEST_SKIP() << "llama.cpp's vocabulary files not found";
    auto pre = LlamaPreTokenizer::For(m.model());
    EXPECT_EQ(pre.has_value(), c.taken) << c.vocab;
    if (pre) {
      EXPECT_EQ(pre->ignore_merges(), c.ignore_merges) << c.vocab;
      EXPECT_FALSE(pre->own_o200k_split()) << c.vocab;
    }
  }
}

TEST(LlamaPreTokenizerTest, PiecesEndInTheOriginalText) {
  testing::VocabModel m(testing::LlamaVocabFile("qwen2"));
  if (m.model() == nullptr) GTEST_SKIP() << "llama.cpp's vocabulary files not found";
  auto pre = LlamaPreTokenizer::For(m.model());
  ASSERT_TRUE(pre);
  struct Case {
    std::string text;
    Ends ends;
    Bytes bytes;
  };
  const std::string fffd = "\xEF\xBF\xBD";
  const std::vector<Case> cases = {
      // Contraction, a space before digits alone, one digit a piece, newlines, then a space left
      // before a space and a letter.
      {"Hello world's 12\n\n  x",
       {5, 11, 13, 14, 15, 16, 18, 19, 21},
       {"Hello", " world", "'s", " ", "1", "2", "\n\n", " ", " x"}},
      // A byte llama.cpp rejects is U+FFFD, a symbol that leads the letters after it.
      {"a\x80"
       "b",
       {1, 3},
       {"a", fffd + "b"}},
      // An overlong '/' is read as '/': two bytes of the text, one of the piece.
      {"x \xC0\xAF y", {1, 4, 6}, {"x", " /", " y"}},
      // A cut-off sequence: each of its bytes is a U+FFFD.
      {"ab\xE4\xBD", {2, 4}, {"ab", fffd + fffd}},
      // Lone continuation bytes: two symbols, then the letter (a letter run takes one character
      // before it at most).
      {"\xBF\xBFx", {2, 3}, {fffd + fffd, "x"}},
  };
  for (const Case& c : cases) {
    auto pieces = pre->Split(c.text);
    ASSERT_TRUE(pieces) << pieces.error().message;
    EXPECT_EQ(pieces->ends, c.ends) << c.text;
    EXPECT_EQ(pieces->bytes, c.bytes) << c.text;
  }
  auto beyond = pre->Split("a \xF4\x90\x80\x80");
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().kind, ErrorKind::kInvalidArgument);
}

TEST(LlamaPreTokenizerTest, PartsEndBeforeASpaceBetweenLetters) {
  const size_t k = LlamaPreTokenizer::kMaxPartBytes;
  // Short text: one part.
  EXPECT_EQ(LlamaPreTokenizer::PartEnd("a b c", 0), 5u);
  // The last letter-space-letter within the limit, not one after it nor a space elsewhere.
  std::string text = std::string(k - 10, 'a') + " b" + std::string(30, ',') + " " +
                     std::string(40, 'c') + " d" + std::string(k, 'e');
  EXPECT_EQ(LlamaPreTokenizer::PartEnd(text, 0), k - 10);
  // From a later start, the limit moves with it.
  EXPECT_EQ(LlamaPreTokenizer::PartEnd(text, k - 10), k - 10 + 2 + 30 + 1 + 40);
  // None within the limit: the first one after it.
  text = std::string(k + 100, ',') + "a b" + std::string(10, 'x');
  EXPECT_EQ(LlamaPreTokenizer::PartEnd(text, 0), k + 101);
  // None at all: the whole text.
  text = std::string(k + 100, 'a') + " 1 ,b";
  EXPECT_EQ(LlamaPreTokenizer::PartEnd(text, 0), text.size());
}

}  // namespace
}  // namespace strata
