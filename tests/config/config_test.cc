// config_test.cc: strata.toml parsing: the keys it accepts, errors with file:line:col, and
// non-ASCII text.
#include <gtest/gtest.h>

#include "config/config.h"
#include "support/test_support.h"

namespace strata {
namespace {

using testing::TempDir;

Result<ProjectConfig> Parse(const TempDir& dir, std::string_view toml) {
  return ParseProjectConfig(toml, dir.path() / "strata.toml", dir.path());
}

TEST(ConfigTest, KeysAreParsedAndUnknownOnesNamed) {
  TempDir dir;
  auto config = Parse(dir,
                      "source = \"DOCS.md\"\ntargets = [\"cursor\", \"claude-code\"]\n"
                      "gitignore = true\n[imports]\nmax_depth = 2\n");
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config->source, "DOCS.md");
  EXPECT_EQ(config->targets, (std::vector<std::string>{"claude-code", "cursor"}));  // table order
  EXPECT_TRUE(config->gitignore);
  EXPECT_EQ(config->imports.max_depth, 2);
  auto unknown = Parse(dir, "\nsorce = \"x\"\n");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("valid keys: source, targets"), std::string::npos);
  EXPECT_EQ(unknown.error().where.line, 2);
}

// Non-ASCII text is fine in comments and strings; outside them it is an error at its line and
// column, found before toml++ 3.3.0 reads the text (it takes an unreachable branch there).
TEST(ConfigTest, NonAsciiTextReadsInStringsAndCommentsAndIsAnErrorElsewhere) {
  TempDir dir;
  auto ok = Parse(dir,
                  "# caf\xC3\xA9 \xD0\x96\ntargets = [\"cursor\"] # \xEF\xBA\xA0\n"
                  "source = \"\xD0\x96\xEF\xBA\xA0.md\"\n");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->source, "\xD0\x96\xEF\xBA\xA0.md");
  auto bad = Parse(dir, "targets = [\"cursor\"]\n\xD0\x96 = 1\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kParse);
  EXPECT_EQ(bad.error().where.line, 2);
  EXPECT_EQ(bad.error().where.column, 1);
  EXPECT_NE(bad.error().message.find("outside a string or comment: quote the key"),
            std::string::npos)
      << bad.error().message;
}

// Bytes toml++ 3.3.0 cannot read (it asserts on a control character in a key) are refused first,
// with file:line:col and what to do: control characters but tab and CRLF, bytes that are not
// UTF-8. Multi-line strings (with quotes before their end, and non-ASCII text) still read.
// A backslash before a non-ASCII character (toml++ 3.3.0 reached its unreachable branch on
// `"""'"" \<U+FEFF>`: found by config_fuzz) is refused; a literal string keeps its backslash.
TEST(ConfigTest, ABackslashBeforeNonAsciiInABasicStringIsRefused) {
  TempDir dir;
  for (std::string_view text : {std::string_view("source = \"\"\"'\"\" \\\xef\xbb\xbf"),
                                std::string_view("source = \"a\\\xc3\xa9\"\n")}) {
    auto bad = Parse(dir, text);
    ASSERT_FALSE(bad) << text;
    EXPECT_NE(bad.error().message.find("not a TOML escape"), std::string::npos)
        << bad.error().message;
  }
  auto literal = Parse(dir, "source = 'a\\\xc3\xa9.md'\n");
  ASSERT_TRUE(literal) << literal.error().message;
}

TEST(ConfigTest, ControlCharactersAndBytesNotUtf8AreRefusedBeforeToml) {
  TempDir dir;
  auto key = Parse(dir,
                   "targets = [\"cursor\"]\n[mcp.a\x01"
                   "b]\ncommand = \"x\"\n");
  ASSERT_FALSE(key);
  EXPECT_EQ(key.error().kind, ErrorKind::kParse);
  EXPECT_EQ(key.error().where.path, (dir.path() / "strata.toml").string());
  EXPECT_EQ(key.error().where.line, 2);
  EXPECT_EQ(key.error().where.column, 7);
  EXPECT_NE(key.error().message.find("control character U+0001"), std::string::npos)
      << key.error().message;
  for (std::string_view text :
       {std::string_view("source = \"a\x1b[0m\"\n"), std::string_view("# \x7f\n"),
        std::string_view("source = \"a\"\r\n\r"), std::string_view("source = \"a\\\x02\"\n")}) {
    auto bad = Parse(dir, text);
    ASSERT_FALSE(bad) << text;
    EXPECT_NE(bad.error().message.find("control character"), std::string::npos) << text;
  }
  // A table header or dotted key without a name (toml++ asserted: found by config_fuzz).
  for (std::string_view text : {std::string_view("[\n\n"), std::string_view("[[ ]]\n"),
                                std::string_view("[a.]\n"), std::string_view("a. = 1\n")}) {
    auto bad = Parse(dir, text);
    ASSERT_FALSE(bad) << text;
    EXPECT_NE(bad.error().message.find("a key name must follow"), std::string::npos) << text;
  }
  auto not_utf8 = Parse(dir, "# fine\nsource = \"caf\xC3(\"\n");
  ASSERT_FALSE(not_utf8);
  EXPECT_EQ(not_utf8.error().where.line, 2);
  EXPECT_EQ(not_utf8.error().where.column, 14);
  EXPECT_NE(not_utf8.error().message.find("not UTF-8"), std::string::npos);
  auto ok = Parse(dir,
                  "source = \"\"\"a \"quoted\" \xC3\xA9\"\"\"\"\"\r\n"
                  "targets = ['''cursor''']\t# tab \xC3\xA9\n");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->source, "a \"quoted\" \xC3\xA9\"\"");
  EXPECT_EQ(ok->targets, (std::vector<std::string>{"cursor"}));
}

}  // namespace
}  // namespace strata
