// OpenAI vocabulary tests (slow: loading the 200k-token vocabulary takes seconds): o200k_base and
// cl100k_base, converted from the npm tiktoken package's rank data into llama.cpp vocabularies
// (tools/make_openai_vocab), give the package's own token ids (run with node) on every corpus
// instruction file and on hand-picked hard cases; OpenAI models select them automatically.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "strata/accounting.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

TEST(OpenAIVocabTest, ModelIdsNameTheirEncoding) {
  EXPECT_EQ(OpenAIEncodingForModel("gpt-4o-mini"), "o200k_base");
  EXPECT_EQ(OpenAIEncodingForModel("gpt-4.1-nano"), "o200k_base");
  EXPECT_EQ(OpenAIEncodingForModel("gpt-5-codex"), "o200k_base");
  EXPECT_EQ(OpenAIEncodingForModel("o3-mini"), "o200k_base");
  EXPECT_EQ(OpenAIEncodingForModel("openai/gpt-oss-120b"), "o200k_base");
  EXPECT_EQ(OpenAIEncodingForModel("gpt-4"), "cl100k_base");
  EXPECT_EQ(OpenAIEncodingForModel("gpt-4-turbo-2024-04-09"), "cl100k_base");
  EXPECT_EQ(OpenAIEncodingForModel("gpt-3.5-turbo"), "cl100k_base");
  EXPECT_EQ(OpenAIEncodingForModel("claude-sonnet-4-5"), "");
  EXPECT_EQ(OpenAIEncodingForModel("qwen3-coder"), "");
}

bool OpenAIVocabsBuilt() {
  std::error_code ec;
  return fs::is_regular_file(OpenAIVocabDir() / "ggml-vocab-o200k_base.gguf", ec) &&
         fs::is_regular_file(OpenAIVocabDir() / "ggml-vocab-cl100k_base.gguf", ec);
}

TEST(OpenAIVocabTest, AutoPicksTheModelsEncodingAndAProxyOtherwise) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  if (!OpenAIVocabsBuilt()) GTEST_SKIP() << "OpenAI vocabularies not built (setup-clients.sh)";
  auto gpt5 = LoadTokenizerForModel("auto", "gpt-5", STRATA_LLAMA_VOCAB_DIR);
  ASSERT_TRUE(gpt5) << gpt5.error().message;
  EXPECT_EQ((*gpt5)->name(), "llama.cpp vocab o200k_base");
  auto gpt4 = LoadTokenizerForModel("auto", "gpt-4", STRATA_LLAMA_VOCAB_DIR);
  ASSERT_TRUE(gpt4);
  EXPECT_EQ((*gpt4)->name(), "llama.cpp vocab cl100k_base");
  auto claude = LoadTokenizerForModel("auto", "claude-sonnet-4-5", STRATA_LLAMA_VOCAB_DIR);
  ASSERT_TRUE(claude);
  EXPECT_EQ((*claude)->name(), "llama.cpp vocab qwen2");
  auto named = LoadTokenizerForModel("gpt-2", "gpt-5", STRATA_LLAMA_VOCAB_DIR);
  ASSERT_TRUE(named);
  EXPECT_EQ((*named)->name(), "llama.cpp vocab gpt-2");
}

// The node_modules of the pinned npm packages, or "" (setup-clients.sh prints it).
std::string NodeModules() {
  std::string command = "bash '" + std::string(STRATA_SOURCE_DIR) +
                        "/scripts/setup-clients.sh' 2>/dev/null | tail -n 1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  if (::pclose(pipe) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// tiktoken's ids of each file, by file and encoding.
std::map<std::string, nlohmann::json> TiktokenIds(const std::vector<fs::path>& files,
                                                  const std::string& node_modules,
                                                  const fs::path& scratch) {
  std::string command = "node '" + std::string(STRATA_SOURCE_DIR) +
                        "/tests/tokenize/tiktoken_ids.mjs' '" + node_modules + "'";
  for (const auto& f : files) command += " '" + f.string() + "'";
  command += " > '" + (scratch / "ids.jsonl").string() + "'";
  std::map<std::string, nlohmann::json> out;
  if (std::system(command.c_str()) != 0) return out;
  std::istringstream lines(testing::ReadAll(scratch / "ids.jsonl"));
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    out[j["file"].get<std::string>()] = j;
  }
  return out;
}

// Compares strata's ids with tiktoken's on `files`; prints the agreement per encoding.
void ExpectAgreement(const std::vector<fs::path>& files, const char* what) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  if (!OpenAIVocabsBuilt()) GTEST_SKIP() << "OpenAI vocabularies not built (setup-clients.sh)";
  std::string node_modules = NodeModules();
  if (node_modules.empty()) GTEST_SKIP() << "no npm clients cache (scripts/setup-clients.sh)";
  testing::TempDir scratch;
  auto expected = TiktokenIds(files, node_modules, scratch.path());
  ASSERT_EQ(expected.size(), files.size()) << "node tiktoken_ids.mjs failed";
  for (const char* encoding : {"o200k_base", "cl100k_base"}) {
    auto tokenizer = LoadNamedTokenizer(encoding);
    ASSERT_TRUE(tokenizer) << tokenizer.error().message;
    size_t same_count = 0, same_ids = 0, tokens = 0;
    for (const auto& file : files) {
      auto ids = (*tokenizer)->Tokenize(testing::ReadAll(file));
      ASSERT_TRUE(ids) << ids.error().message;
      std::vector<TokenId> want = expected[file.string()][encoding].get<std::vector<TokenId>>();
      tokens += want.size();
      same_count += ids->size() == want.size();
      same_ids += *ids == want;
      EXPECT_EQ(ids->size(), want.size()) << encoding << " count of " << file;
      EXPECT_EQ(*ids, want) << encoding << " ids of " << file;
    }
    std::printf("%s %s: %zu/%zu files equal in count, %zu/%zu in ids (%zu tokens)\n", what,
                encoding, same_count, files.size(), same_ids, files.size(), tokens);
  }
}

TEST(OpenAIVocabTest, CountsEqualTiktokenOnEveryCorpusInstructionFile) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(*corpus / "instructions")) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  ExpectAgreement(files, "corpus instructions");
}

// Where the split rules differ most: contractions in any case, digit runs, whitespace runs before
// text, CRLF, letters with combining marks, CJK, emoji, text that spells a special token.
TEST(OpenAIVocabTest, IdsEqualTiktokenOnHardCases) {
  testing::TempDir dir;
  std::vector<fs::path> files = {
      dir.Write("contractions.txt", "I'M here, you'RE there; they'll've DON'T it's O'Neil's\n"),
      dir.Write("digits.txt", "1 12 123 1234 12345678901 3.14159 0x1F 2026-12-01T13:31:58Z\n"),
      dir.Write("spaces.txt", "a  b   c\t\td\n\n\n   e    \n  \r\n\r\nf \u00a0g\n        "),
      dir.Write("marks.txt",
                "Cafe\xCC\x81 na\xC3\xAFve \xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\x82"
                "\xE0\xA4\xA6\xE0\xA5\x80 \xE0\xB8\x81\xE0\xB8\xB3\n"),
      dir.Write("cjk.txt",
                "\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C "
                "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\n"),
      dir.Write("special.txt", "<|endoftext|> <|endofprompt|> <|fim_prefix|>\n"),
      dir.Write("cases.txt",
                "\xC3\x89"
                "cole\xC3\x89T\xC3\x89 stra\xC3\x9F"
                "eSTRASSE camelCaseWords "
                "HTTPServer getHTTPResponseCode \xC4\xB0stanbul \xEF\xAC\x81nal\n"),
      dir.Write("code.txt",
                "def f(x):\n    return {'a': [1, 2], \"b\": x**2}  # done\n//path/to\n"),
  };
  ExpectAgreement(files, "hard cases");
}

}  // namespace
}  // namespace strata
