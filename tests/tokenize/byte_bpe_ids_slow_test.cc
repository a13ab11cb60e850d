// Token ids of the vocabularies strata tokenizes without llama.cpp's model (its own
// pre-tokenizer call and BPE, src/tokenize/byte_bpe_tokenizer.h: o200k_base, cl100k_base,
// qwen2, llama-bpe, gpt-2, mpt) against llama.cpp's llama_tokenize on the same vocabulary file,
// loaded through llama.cpp here: equal on every corpus file and on hand-written hard cases; the
// offsets equal those the llama.cpp path gives (slow: the vocabularies load in seconds, and
// llama.cpp runs o200k_base's split through std::regex).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <typeinfo>
#include <vector>

#include "strata/accounting.h"
#include "support/test_support.h"
#include "support/vocab_model.h"
#include "tokenize/byte_bpe.h"
#include "tokenize/byte_bpe_tokenizer.h"
#include "tokenize/llama_pre_tokenizer.h"
#include "tokenize/llama_tokenize.h"
#include "tokenize/o200k_pieces.h"
#include "tokenize/user_tokens.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// The vocabulary file of `name`: o200k_base and cl100k_base are built by setup-clients.sh, the
// others ship with llama.cpp's source tree.
fs::path VocabFile(const std::string& name) {
  if (name == "o200k_base" || name == "cl100k_base") {
    return OpenAIVocabDir() / ("ggml-vocab-" + name + ".gguf");
  }
  return testing::LlamaVocabFile(name);
}

std::vector<std::string> HardCases() {
  return {
      "I'M here, you'RE there; they'll've DON'T it's O'Neil's we'D\n",
      "i'm I'm I'M i'Ve 'S 's 'll 'LL x'd X'D can't CAN'T\n",
      "1 12 123 1234 12345678901 3.14159 0x1F 2026-12-01T13:31:58Z\n",
      "a  b   c\t\td\n\n\n   e    \n  \r\n\r\nf \xC2\xA0g\n        ",
      "Cafe\xCC\x81 na\xC3\xAFve \xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\x82\xE0\xA4\xA6\xE0\xA5\x80 "
      "\xE0\xB8\x81\xE0\xB8\xB3\n",
      "\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C "
      "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D"
      "\xF0\x9F\x8F\xBD\n",
      // Control tokens stay plain text; qwen2's user-defined "[PAD151646]" is split out.
      "<|endoftext|> <|endofprompt|> <|fim_prefix|>\n",
      "<|im_start|>system\nYou are<|im_end|>\n<|im_start|>user\nhi<|endoftext|>",
      "x[PAD151646]y [PAD151647][PAD151648] [PAD1516 PAD151646]\n",
      "\xC3\x89"
      "cole\xC3\x89T\xC3\x89 stra\xC3\x9F"
      "eSTRASSE camelCaseWords HTTPServer getHTTPResponseCode \xC4\xB0stanbul \xEF\xAC\x81nal\n",
      "def f(x):\n    return {'a': [1, 2], \"b\": x**2}  # done\n//path/to\n.\n\n---\n\n",
      "zqxjkvbwpfgh Zzyzx qwertyuiopasdfghjklzxcvbnm aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      // Tokens of llama-bpe that its merges alone do not reach (" jeho" merges to " j" "eh"
      // "o"): llama3's ignore_merges takes them whole.
      "ok jeho zdrav nhanh lardan mektedir iyordu .:.:.:.:.:.:.:.:\n",
      std::string(1000, '=') + "\n" + std::string(300, ' ') + "x",
      "trailing spaces   ",
      "tabs\t\t\tand  \n  spaces \t\n",
      std::string(70, ' ') + "x" + std::string(25, ' ') + "y\n" + std::string(48, ' '),
      // Invalid UTF-8 (llama.cpp reads each bad byte as U+FFFD), an overlong form (read as the
      // code point it encodes), a surrogate (kept) and lone continuation bytes.
      "a\x80"
      "b \xFF\xFE text ab\xE4\xBD",
      "x \xC0\xAF y \xC1\x81"
      "BC \xED\xA0\x80!",
      "\xBF\xBF word \x80 \xBFx",
  };
}

class ByteBpeIdsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::error_code ec;
    if (!fs::is_regular_file(VocabFile(GetParam()), ec)) {
      GTEST_SKIP() << VocabFile(GetParam()) << " not found (setup-llama.sh, setup-clients.sh)";
    }
    auto tokenizer = LoadVocabTokenizer(VocabFile(GetParam()));
    ASSERT_TRUE(tokenizer) << tokenizer.error().message;
    tokenizer_ = std::move(*tokenizer);
    llama_ = std::make_unique<testing::VocabModel>(VocabFile(GetParam()));
    ASSERT_NE(llama_->model(), nullptr);
  }

  const llama_vocab* vocab() const { return llama_->vocab(); }

  // Strata's ids of `text`, then llama.cpp's.
  void ExpectSameIds(const std::string& text, const std::string& what) {
    auto ours = tokenizer_->Tokenize(text);
    ASSERT_TRUE(ours) << ours.error().message;
    auto theirs = LlamaTokenize(vocab(), text, false, false);
    ASSERT_TRUE(theirs) << theirs.error().message;
    EXPECT_EQ(*ours, *theirs) << GetParam() << ": " << what;
  }

  std::unique_ptr<Tokenizer> tokenizer_;
  std::unique_ptr<testing::VocabModel> llama_;
};

TEST_P(ByteBpeIdsTest, LoadsWithoutLlamaCppsModel) {
  // The tokenizer LoadVocabTokenizer gives is the one that holds strata's tables only (the
  // llama.cpp-backed one holds the model; llama-spm, a SentencePiece vocabulary, keeps it).
  auto bpe = ByteBpe::Load(VocabFile(GetParam()));
  ASSERT_TRUE(bpe);
  auto pre = LlamaPreTokenizer::For(llama_->model());
  ASSERT_TRUE(pre);
  auto user = UserTokens::FromVocab(vocab());
  ASSERT_TRUE(user);
  auto own = MakeByteBpeTokenizer("x", std::move(*bpe), *pre, std::move(*user));
  EXPECT_EQ(typeid(*tokenizer_), typeid(*own));
  EXPECT_EQ(tokenizer_->name(), "llama.cpp vocab " + GetParam());
  auto spm = LoadVocabTokenizer(testing::LlamaVocabFile("llama-spm"));
  ASSERT_TRUE(spm);
  EXPECT_NE(typeid(**spm), typeid(*own));
}

TEST_P(ByteBpeIdsTest, EqualLlamaCppOnHardCases) {
  for (const auto& text : HardCases()) ExpectSameIds(text, text);
}

TEST_P(ByteBpeIdsTest, EqualLlamaCppOnEveryCorpusFile) {
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

// A text of several pre-tokenizer parts (LlamaPreTokenizer::PartEnd), one with no place to cut
// within a part, and user-defined tokens near the cuts: still llama.cpp's ids.
TEST_P(ByteBpeIdsTest, EqualLlamaCppAcrossParts) {
  std::string text;
  for (int i = 0; text.size() < 3 * LlamaPreTokenizer::kMaxPartBytes; ++i) {
    text += "word" + std::to_string(i % 97) + (i % 13 == 0 ? "\n" : " ") + "cache prefix ";
    if (i % 5000 == 0) text += "[PAD151646] ";
  }
  // Letters and commas: no place to cut, yet short pieces (std::regex, which llama.cpp runs for
  // o200k_base, recurses once a character of a match).
  for (size_t n = 0; n < LlamaPreTokenizer::kMaxPartBytes + 10; n += 3) text += "zq,";
  text += " tail";
  ExpectSameIds(text, "three parts and a long word");
}

// Each token's end: the bytes of llama.cpp's pieces for the tokens so far, as the llama.cpp path
// (VocabTokenizer) computes them, on every case whose pieces are its bytes (valid UTF-8).
TEST_P(ByteBpeIdsTest, OffsetsAreTheEndsOfLlamaCppPieces) {
  for (const auto& text : HardCases()) {
    auto with = tokenizer_->TokenizeWithOffsets(text);
    ASSERT_TRUE(with) << with.error().message;
    auto ids = tokenizer_->Tokenize(text);
    ASSERT_TRUE(ids);
    EXPECT_EQ(with->ids, *ids);
    ASSERT_EQ(with->ends.size(), with->ids.size());
    if (text.find_first_of("\x80\xBF\xC0\xFF") != std::string::npos) {
      continue;  // U+FFFD pieces are longer than the bytes they stand for (next test)
    }
    size_t end = 0;
    for (size_t i = 0; i < with->ids.size(); ++i) {
      char buf[512];
      const int32_t n = llama_token_to_piece(vocab(), with->ids[i], buf, sizeof buf, 0, false);
      ASSERT_GE(n, 0);
      end = std::min(end + static_cast<size_t>(n), text.size());
      EXPECT_EQ(with->ends[i], end) << GetParam() << ": " << text << " token " << i;
    }
    EXPECT_EQ(end, text.size());
  }
}

// Where llama.cpp reads bytes as other characters, each token still ends within the bytes of its
// piece of the original text: "a\x80b" is read "a", U+FFFD, "b", and every pre-tokenizer here
// splits it "a" | U+FFFD "b" (a symbol then letters), so every token ends at 1 or 3; ends are
// ascending and the last is the text's end.
TEST_P(ByteBpeIdsTest, OffsetsOfInvalidUtf8StayWithinTheText) {
  auto with = tokenizer_->TokenizeWithOffsets(
      "a\x80"
      "b");
  ASSERT_TRUE(with) << with.error().message;
  ASSERT_GE(with->ends.size(), 2u);
  EXPECT_EQ(with->ends.front(), 1u);
  EXPECT_EQ(with->ends.back(), 3u);
  for (size_t i = 1; i < with->ends.size(); ++i) {
    EXPECT_LE(with->ends[i - 1], with->ends[i]);
    EXPECT_LE(with->ends[i], 3u);
  }
  for (const auto& text : HardCases()) {
    auto t = tokenizer_->TokenizeWithOffsets(text);
    ASSERT_TRUE(t);
    for (size_t i = 1; i < t->ends.size(); ++i) EXPECT_LE(t->ends[i - 1], t->ends[i]) << text;
    if (!t->ends.empty()) EXPECT_EQ(t->ends.back(), text.size()) << text;
  }
}

// A UTF-8 sequence beyond U+10FFFF, which llama.cpp cannot write back: an error, not a crash.
TEST_P(ByteBpeIdsTest, SequenceBeyondUnicodeIsAnError) {
  auto ids = tokenizer_->Tokenize("ok \xF4\x90\x80\x80 no");
  ASSERT_FALSE(ids);
  EXPECT_EQ(ids.error().kind, ErrorKind::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Vocabs, ByteBpeIdsTest,
                         ::testing::Values("o200k_base", "cl100k_base", "qwen2", "llama-bpe",
                                           "gpt-2", "mpt"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// The split and BPE alone: every piece of valid text encodes to llama.cpp's ids for the text.
TEST(O200kIdsTest, PieceByPieceEqualsTheWholeText) {
  const fs::path file = VocabFile("o200k_base");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) GTEST_SKIP() << "o200k_base vocabulary not built";
  auto bpe = ByteBpe::Load(file);
  ASSERT_TRUE(bpe) << bpe.error().message;
  testing::VocabModel llama(file);
  ASSERT_NE(llama.model(), nullptr);
  for (const auto& text : HardCases()) {
    std::vector<int32_t> ids;
    O200kPieces pieces(text);
    std::string_view piece;
    bool not_utf8 = false;
    bool any = false;
    while (pieces.Next(&piece, &not_utf8)) {
      any |= not_utf8;
      (*bpe)->Encode(piece, /*ignore_merges=*/true, ids);
    }
    if (any) continue;
    auto theirs = LlamaTokenize(llama.vocab(), text, false, false);
    ASSERT_TRUE(theirs);
    EXPECT_EQ(ids, *theirs) << text;
  }
  // A piece that is not one token goes through the merges.
  std::vector<int32_t> ids;
  (*bpe)->Encode("zqxjkvbwpfgh", /*ignore_merges=*/true, ids);
  EXPECT_GT(ids.size(), 1u);
}

// llama-bpe's " jeho" is a token its merges do not reach: " j" "eh" "o" by rank (worked out from
// the file's merges), so without ignore_merges it is three tokens every time (the per-token
// memory of what the merges give must not turn it whole), with it one.
TEST(ByteBpeTest, MergesDecideWithoutIgnoreMergesEveryTime) {
  const fs::path file = VocabFile("llama-bpe");
  testing::VocabModel llama(file);
  if (llama.model() == nullptr) GTEST_SKIP() << "llama.cpp's vocabulary files not found";
  auto bpe = ByteBpe::Load(file);
  ASSERT_TRUE(bpe) << bpe.error().message;
  std::vector<int32_t> expected;
  for (const char* part : {" j", "eh", "o"}) {
    auto ids = LlamaTokenize(llama.vocab(), part, false, false);
    ASSERT_TRUE(ids);
    ASSERT_EQ(ids->size(), 1u) << part;
    expected.push_back(ids->front());
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<int32_t> ids;
    (*bpe)->Encode(" jeho", /*ignore_merges=*/false, ids);
    EXPECT_EQ(ids, expected) << "round " << round;
  }
  std::vector<int32_t> whole;
  (*bpe)->Encode(" jeho", /*ignore_merges=*/true, whole);
  EXPECT_EQ(whole, (std::vector<int32_t>{(*bpe)->TokenOf(" jeho")}));
  EXPECT_GE(whole.front(), 0);
}

}  // namespace
}  // namespace strata
