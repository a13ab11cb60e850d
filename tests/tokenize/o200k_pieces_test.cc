// O200kPieces (src/tokenize/o200k_pieces.h) against llama.cpp's own std::regex split for the
// "granite-embed-multi-97m" pre-tokenizer (o200k_base's): the pattern below is copied from
// llama.cpp's src/llama-vocab.cpp (LLAMA_VOCAB_PRE_TYPE_GRANITE_EMB_MULTI) and run through its
// unicode_regex_split, which has no hand-written splitter for it. Hand-written cases carry the
// pieces the regex gives, worked out from its alternatives (o200k_pieces.h lists them).
#include "tokenize/o200k_pieces.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "unicode.h"  // llama.cpp's src/unicode.h (tests/CMakeLists.txt)

namespace strata {
namespace {

namespace fs = std::filesystem;

const char* const kGraniteEmbMulti =
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))*((?=[\\p{L}\\p{M}])([^A-Z]))+(?:'[sS]|'[tT]"
    "|'"
    "[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))+"
    "(("
    "?=[\\p{L}\\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{"
    "1,"
    "3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

std::vector<std::string> Pieces(std::string_view text) {
  std::vector<std::string> out;
  O200kPieces pieces(text);
  std::string_view piece;
  while (pieces.Next(&piece)) out.emplace_back(piece);
  return out;
}

// llama.cpp's regex split (its words: code points written back as UTF-8, an invalid byte as
// U+FFFD).
std::vector<std::string> LlamaPieces(const std::string& text) {
  return unicode_regex_split(text, {kGraniteEmbMulti}, /*byte_encode=*/false);
}

// Strata's pieces written the way llama.cpp writes its words (only differs on invalid UTF-8).
std::vector<std::string> AsLlamaWrites(const std::vector<std::string>& pieces) {
  std::vector<std::string> out;
  for (const auto& p : pieces) {
    std::string w;
    for (uint32_t cpt : unicode_cpts_from_utf8(p)) w += unicode_cpt_to_utf8(cpt);
    out.push_back(w);
  }
  return out;
}

using V = std::vector<std::string>;

TEST(O200kPiecesTest, HandWrittenCasesSplitAsTheRegexSays) {
  struct Case {
    std::string text;
    V pieces;  // from the regex's alternatives, by hand
  };
  const std::vector<Case> cases = {
      // Contractions join the word before them, in either case (alternatives 1-2, C?).
      {"it's", {"it's"}},
      {"IT'S", {"IT'S"}},
      {"don't we'd they're you've I'm we'll",
       {"don't", " we'd", " they're", " you've", " I'm", " we'll"}},
      {"THEY'RE YOU'VE WE'LL I'D", {"THEY'RE", " YOU'VE", " WE'LL", " I'D"}},
      {"We'Re", {"We'Re"}},
      // No word before it: the apostrophe leads the next word (alternative 1's P).
      {"'s", {"'s"}},
      {"x'x", {"x", "'x"}},
      {"o'clock", {"o", "'clock"}},
      // Case: an upper run then a lower run is one word; a lower run ends a word at an upper.
      {"camelCaseWords", {"camel", "Case", "Words"}},
      {"HTTPServer", {"HTTPServer"}},
      {"ABC.", {"ABC", "."}},
      // Numbers: groups of 1 to 3 digits from the left.
      {"1", {"1"}},
      {"12", {"12"}},
      {"123", {"123"}},
      {"1234567", {"123", "456", "7"}},
      {"v1.25", {"v", "1", ".", "25"}},
      // A space before a digit stands alone (only letters and punctuation take a leading one).
      {"a 1", {"a", " ", "1"}},
      // Whitespace: a run before a word leaves its last space to the word (alternative 6).
      {"a  b", {"a", " ", " b"}},
      {"a    b", {"a", "   ", " b"}},
      {"a\t\tb", {"a", "\t", "\tb"}},
      {"a   ", {"a", "   "}},
      // Newlines: whitespace up to the last newline of a run (alternative 5).
      {"a\n\nb", {"a", "\n\n", "b"}},
      {"a \n  b", {"a", " \n", " ", " b"}},
      {"a\r\n\r\nb", {"a", "\r\n\r\n", "b"}},
      {"\n", {"\n"}},
      // Punctuation runs keep a leading space and trailing newlines and slashes (alternative 4).
      {"a.\n\nb", {"a", ".\n\n", "b"}},
      {"x = {}\n", {"x", " =", " {}\n"}},
      {"//path/to", {"//", "path", "/to"}},
      {"end.//\n", {"end", ".//\n"}},
      {"  --", {" ", " --"}},
      // Non-ASCII letters count as both cases; marks join letters.
      {"\xC3\x89"
       "cole",
       {"\xC3\x89"
        "cole"}},
      {"na\xC3\xAFve caf\xC3\xA9", {"na\xC3\xAFve", " caf\xC3\xA9"}},
      {"Cafe\xCC\x81!", {"Cafe\xCC\x81", "!"}},
      {"\xCC\x81"
       "a",
       {"\xCC\x81"
        "a"}},
      // llama.cpp's collapsed text cannot tell a non-ASCII letter's case: it continues a lower run.
      {"a\xC3\x89"
       "b",
       {"a\xC3\x89"
        "b"}},
      // CJK runs are one letter run; fullwidth punctuation is punctuation.
      {"\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C",
       {"\xE4\xBD\xA0\xE5\xA5\xBD", "\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C"}},
      // Emoji are symbols: a run of them is a punctuation run.
      {"ok \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\n", {"ok", " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\n"}},
      // Mixed scripts in one run of letters.
      {"abc\xD0\xB4\xD0\xB5\xCE\xB1", {"abc\xD0\xB4\xD0\xB5\xCE\xB1"}},
      // A no-break space is whitespace.
      {"a\xC2\xA0\xC2\xA0"
       "b",
       {"a", "\xC2\xA0",
        "\xC2\xA0"
        "b"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Pieces(c.text), c.pieces) << "text: " << c.text;
    EXPECT_EQ(LlamaPieces(c.text), c.pieces) << "llama.cpp on: " << c.text;
  }
}

TEST(O200kPiecesTest, InvalidUtf8SplitsAsLlamaCppReadsIt) {
  for (std::string text : {std::string("a\x80"
                                       "b"),
                           std::string("\xFF\xFE text"), std::string("ab\xE4\xBD"),
                           std::string("x \xC0\xAF y"), std::string("\xE4\xBD\xA0\xBD\xBD")}) {
    std::vector<std::string> pieces;
    bool any_odd = false;
    O200kPieces split(text);
    std::string_view piece;
    bool odd = false;
    while (split.Next(&piece, &odd)) {
      pieces.emplace_back(piece);
      any_odd |= odd;
    }
    EXPECT_TRUE(any_odd) << text;
    EXPECT_EQ(AsLlamaWrites(pieces), LlamaPieces(text)) << text;
  }
  bool odd = true;
  std::string_view piece;
  O200kPieces valid("caf\xC3\xA9");
  ASSERT_TRUE(valid.Next(&piece, &odd));
  EXPECT_FALSE(odd);
}

TEST(O200kPiecesTest, EqualsLlamaCppOnEveryCorpusFile) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent (STRATA_CORPUS_DIR)";
  size_t files = 0, pieces = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*corpus)) {
    if (!entry.is_regular_file()) continue;
    const std::string text = testing::ReadAll(entry.path());
    const auto ours = Pieces(text);
    const auto theirs = LlamaPieces(text);
    EXPECT_EQ(AsLlamaWrites(ours), theirs) << entry.path();
    ++files;
    pieces += ours.size();
  }
  ASSERT_GT(files, 0u);
  std::printf("corpus: %zu files, %zu pieces equal to llama.cpp's\n", files, pieces);
}

}  // namespace
}  // namespace strata
