// Tokenizer tests: every llama.cpp vocabulary with bundled test texts (.inp/.out) tokenizes each
// text to exactly the ids llama.cpp's own test-tokenizer-0 expects.
#include "strata/accounting.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "support/test_support.h"

namespace strata {
namespace {

std::filesystem::path VocabDir() { return STRATA_LLAMA_VOCAB_DIR; }

// The format of llama.cpp's tests/test-tokenizer-0.cpp: inputs separated by
// "\n__ggml_vocab_test__\n"; one output line per input, space-separated ids.
std::vector<std::pair<std::string, std::vector<TokenId>>> ReadVocabTests(
    const std::filesystem::path& inp, const std::filesystem::path& out) {
  std::string raw = testing::ReadAll(inp);
  std::vector<std::string> inputs;
  const std::string sep = "\n__ggml_vocab_test__\n";
  size_t pos = 0;
  while (pos < raw.size()) {
    size_t next = raw.find(sep, pos);
    if (next == std::string::npos) {
      inputs.push_back(raw.substr(pos));
      break;
    }
    inputs.push_back(raw.substr(pos, next - pos));
    pos = next + sep.size();
  }
  std::istringstream lines(testing::ReadAll(out));
  std::vector<std::pair<std::string, std::vector<TokenId>>> tests;
  std::string line;
  for (size_t i = 0; std::getline(lines, line); ++i) {
    std::istringstream ids(line);
    std::vector<TokenId> expected;
    for (TokenId id; ids >> id;) expected.push_back(id);
    if (i < inputs.size()) tests.emplace_back(inputs[i], std::move(expected));
  }
  EXPECT_EQ(tests.size(), inputs.size()) << inp;
  return tests;
}

TEST(VocabTokenizerTest, MatchesLlamaCppBundledTestsForEveryVocab) {
  if (VocabDir().empty() || !std::filesystem::is_directory(VocabDir())) GTEST_SKIP();
  int vocabs_checked = 0;
  for (const std::string& name : ListVocabs(VocabDir())) {
    auto gguf = VocabDir() / ("ggml-vocab-" + name + ".gguf");
    auto inp = gguf;
    inp += ".inp";
    auto out = gguf;
    out += ".out";
    if (!std::filesystem::exists(inp) || !std::filesystem::exists(out)) continue;
    auto tok = LoadVocabTokenizer(gguf);
    ASSERT_TRUE(tok) << name << ": " << tok.error().message;
    EXPECT_EQ((*tok)->name(), "llama.cpp vocab " + name);
    auto tests = ReadVocabTests(inp, out);
    ASSERT_FALSE(tests.empty()) << name;
    for (const auto& [text, expected] : tests) {
      auto ids = (*tok)->Tokenize(text);
      ASSERT_TRUE(ids) << name;
      EXPECT_EQ(*ids, expected) << name << " on '" << text << "'";
      auto with = (*tok)->TokenizeWithOffsets(text);
      ASSERT_TRUE(with);
      EXPECT_EQ(with->ids, expected);
      ASSERT_EQ(with->ends.size(), expected.size());
      if (!with->ends.empty()) EXPECT_EQ(with->ends.back(), text.size());
    }
    ++vocabs_checked;
  }
  // gpt-2, llama-bpe, qwen2 and the others that ship .inp/.out.
  EXPECT_GE(vocabs_checked, 10);
}

TEST(VocabTokenizerTest, OffsetsOfByteLevelBpeConcatenateToTheText) {
  auto tok = LoadNamedTokenizer("gpt-2", VocabDir());
  if (!tok) GTEST_SKIP() << tok.error().message;
  auto t = (*tok)->TokenizeWithOffsets("Hello world, hello cache");
  ASSERT_TRUE(t);
  // GPT-2: "Hello" " world" "," " hello" " cache" -> ends 5, 11, 12, 18, 24.
  ASSERT_EQ(t->ends.size(), 5u);
  EXPECT_EQ(t->ends, (std::vector<size_t>{5, 11, 12, 18, 24}));
  EXPECT_EQ(TokensBefore(*t, 12), 3u);
  EXPECT_EQ(TokensBefore(*t, 13), 3u);  // a token straddling the cut is not in the prefix
}

TEST(VocabTokenizerTest, UnknownNameListsAvailableVocabs) {
  if (VocabDir().empty()) GTEST_SKIP();
  auto tok = LoadNamedTokenizer("no-such-vocab", VocabDir());
  ASSERT_FALSE(tok);
  EXPECT_EQ(tok.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(tok.error().message.find("qwen2"), std::string::npos);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// Bytes that decode leniently to a code point past U+10FFFF (F7 BF BF BF: U+1FFFFF) make
// llama.cpp's pre-tokenizer throw from inside its C function; every vocabulary answers with a
// token list or an error value, and the process goes on.
TEST(VocabTokenizerTest, TextLlamaCppThrowsOnIsAnErrorValue) {
  if (VocabDir().empty() || !std::filesystem::is_directory(VocabDir())) GTEST_SKIP();
  const std::string text = "ok \xF7\xBF\xBF\xBF then \xF4\x90\x80\x80 more";
  size_t tried = 0;
  for (const char* name : {"qwen35", "starcoder", "falcon", "deepseek-coder", "command-r",
                           "refact", "gpt-2", "qwen2", "llama-bpe"}) {
    auto tok = LoadNamedTokenizer(name, VocabDir());
    if (!tok) continue;
    ++tried;
    Result<std::vector<TokenId>> ids = {std::vector<TokenId>{}};
    EXPECT_NO_THROW(ids = (*tok)->Tokenize(text)) << name;
    if (!ids) {
      EXPECT_NE(ids.error().message.find("tokenize"), std::string::npos)
          << name << ": " << ids.error().message;
    }
    Result<TokenizedText> offsets = TokenizedText{};
    EXPECT_NO_THROW(offsets = (*tok)->TokenizeWithOffsets(text)) << name;
  }
  EXPECT_GT(tried, 0u);
}

}  // namespace
}  // namespace strata
