// o200k_base token ids through strata's own split and BPE (the vocabulary tokenizer's path for it,
// src/tokenize/vocab_tokenizer.cc) against llama.cpp's llama_tokenize on the same vocabulary file,
// which splits with std::regex: equal on every corpus file and on hand-written hard cases
// (slow: the 200k-token vocabulary loads in seconds).
#include <gtest/gtest.h>
#include <llama.h>

#include <filesystem>
#include <string>
#include <vector>

#include "strata/accounting.h"
#include "support/test_support.h"
#include "tokenize/byte_bpe.h"
#include "tokenize/llama_tokenize.h"
#include "tokenize/o200k_pieces.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct LlamaVocab {
  llama_model* model = nullptr;
  ~LlamaVocab() {
    if (model != nullptr) llama_model_free(model);
  }
};

fs::path O200kFile() { return OpenAIVocabDir() / "ggml-vocab-o200k_base.gguf"; }

std::vector<std::string> HardCases() {
  return {
      "I'M here, you'RE there; they'll've DON'T it's O'Neil's we'D\n",
      "1 12 123 1234 12345678901 3.14159 0x1F 2026-12-01T13:31:58Z\n",
      "a  b   c\t\td\n\n\n   e    \n  \r\n\r\nf \xC2\xA0g\n        ",
      "Cafe\xCC\x81 na\xC3\xAFve \xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\x82\xE0\xA4\xA6\xE0\xA5\x80 "
      "\xE0\xB8\x81\xE0\xB8\xB3\n",
      "\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C "
      "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D"
      "\xF0\x9F\x8F\xBD\n",
      "<|endoftext|> <|endofprompt|> <|fim_prefix|>\n",
      "\xC3\x89"
      "cole\xC3\x89T\xC3\x89 stra\xC3\x9F"
      "eSTRASSE camelCaseWords HTTPServer getHTTPResponseCode \xC4\xB0stanbul \xEF\xAC\x81nal\n",
      "def f(x):\n    return {'a': [1, 2], \"b\": x**2}  # done\n//path/to\n.\n\n---\n\n",
      "zqxjkvbwpfgh Zzyzx qwertyuiopasdfghjklzxcvbnm aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      std::string(1000, '=') + "\n" + std::string(300, ' ') + "x",
      // Invalid UTF-8 (llama.cpp reads each bad byte as U+FFFD), an overlong form (read as the
      // code point it encodes) and a surrogate (kept).
      "a\x80"
      "b \xFF\xFE text ab\xE4\xBD",
      "x \xC0\xAF y \xC1\x81"
      "BC \xED\xA0\x80!",
  };
}

class O200kIdsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::error_code ec;
    if (!fs::is_regular_file(O200kFile(), ec)) {
      GTEST_SKIP() << "o200k_base vocabulary not built (setup-clients.sh)";
    }
    auto tokenizer = LoadVocabTokenizer(O200kFile());
    ASSERT_TRUE(tokenizer) << tokenizer.error().message;
    tokenizer_ = std::move(*tokenizer);
    InitQuietLlamaBackend();
    llama_model_params params = llama_model_default_params();
    params.vocab_only = true;
    llama_.model = llama_model_load_from_file(O200kFile().c_str(), params);
    ASSERT_NE(llama_.model, nullptr);
  }

  // Strata's ids of `text`, then llama.cpp's.
  void ExpectSameIds(const std::string& text, const std::string& what) {
    auto ours = tokenizer_->Tokenize(text);
    ASSERT_TRUE(ours) << ours.error().message;
    auto theirs = LlamaTokenize(llama_model_get_vocab(llama_.model), text, false, false);
    ASSERT_TRUE(theirs) << theirs.error().message;
    EXPECT_EQ(*ours, *theirs) << what;
  }

  std::unique_ptr<Tokenizer> tokenizer_;
  LlamaVocab llama_;
};

TEST_F(O200kIdsTest, EqualLlamaCppOnHardCases) {
  for (const auto& text : HardCases()) ExpectSameIds(text, text);
}

TEST_F(O200kIdsTest, EqualLlamaCppOnEveryCorpusFile) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent (STRATA_CORPUS_DIR)";
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*corpus)) {
    if (!entry.is_regular_file()) continue;
    ExpectSameIds(testing::ReadAll(entry.path()), entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 0u);
}

// Each token's end: the bytes of llama.cpp's pieces for the tokens so far.
TEST_F(O200kIdsTest, OffsetsAreTheEndsOfLlamaCppPieces) {
  const llama_vocab* vocab = llama_model_get_vocab(llama_.model);
  for (const auto& text : HardCases()) {
    auto with = tokenizer_->TokenizeWithOffsets(text);
    ASSERT_TRUE(with) << with.error().message;
    auto ids = tokenizer_->Tokenize(text);
    ASSERT_TRUE(ids);
    EXPECT_EQ(with->ids, *ids);
    ASSERT_EQ(with->ends.size(), with->ids.size());
    if (text.find('\x80') != std::string::npos || text.find('\xC0') != std::string::npos) {
      continue;  // U+FFFD pieces are longer than the bytes they stand for
    }
    size_t end = 0;
    for (size_t i = 0; i < with->ids.size(); ++i) {
      char buf[512];
      const int32_t n = llama_token_to_piece(vocab, with->ids[i], buf, sizeof buf, 0, false);
      ASSERT_GE(n, 0);
      end += static_cast<size_t>(n);
      EXPECT_EQ(with->ends[i], end) << text << " token " << i;
    }
    EXPECT_EQ(end, text.size());
  }
}

// The split and BPE alone: every piece of valid text encodes to llama.cpp's ids for the text.
TEST_F(O200kIdsTest, PieceByPieceEqualsTheWholeText) {
  auto bpe = ByteBpe::Load(O200kFile());
  ASSERT_TRUE(bpe) << bpe.error().message;
  for (const auto& text : HardCases()) {
    std::vector<int32_t> ids;
    O200kPieces pieces(text);
    std::string_view piece;
    bool not_utf8 = false;
    bool any = false;
    while (pieces.Next(&piece, &not_utf8)) {
      any |= not_utf8;
      (*bpe)->Encode(piece, ids);
    }
    if (any) continue;
    auto theirs = LlamaTokenize(llama_model_get_vocab(llama_.model), text, false, false);
    ASSERT_TRUE(theirs);
    EXPECT_EQ(ids, *theirs) << text;
  }
  // A piece that is not one token goes through the merges.
  std::vector<int32_t> ids;
  (*bpe)->Encode("zqxjkvbwpfgh", ids);
  EXPECT_GT(ids.size(), 1u);
}

}  // namespace
}  // namespace strata
