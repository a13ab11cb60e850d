// config_test.cc: strata.toml parsing: the keys it accepts, errors with file:line:col, and
// non-ASCII text.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/config.h"
#include "config/toml_guard.h"
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

// A quote, '[' or '{' only opens a string, array or inline table where a value starts; after a
// bare value toml++ 3.3.0 reads on and reached its unreachable branch on non-ASCII text the guard
// took for a string (`"["=4p8["=4p8+<U+031B>p5ra` and `mcp=2yk{"""<U+FEEF>"""...`: found by
// config_fuzz), and so is a multi-line string as a key (`["""ozo\...`). Nested arrays, inline
// tables, dotted and quoted keys and table headers still read.
TEST(ConfigTest, AQuoteAfterABareValueOrAMultiLineKeyIsRefused) {
  TempDir dir;
  for (std::string_view text : {std::string_view("\"[\"=4p8[\"=4p8+\xcc\x9bp5ra"),
                                std::string_view("source = x\"\xc3\xa9\"\n"),
                                std::string_view("source = [1][\"\xc3\xa9\"]\n"),
                                std::string_view("mcp=2yk{\"\"\"\xef\xbb\xaf\"\"\"{\"\"{G{{cpQ{"),
                                std::string_view("source = 1, \"\xc3\xa9\"\n"),
                                std::string_view("[\"\"\"ozo\\\n\n\xef\xbb\x9f e!'''\n!"),
                                std::string_view("x = { '''a''' = 1 }\n")}) {
    auto bad = Parse(dir, text);
    ASSERT_FALSE(bad) << text;
    EXPECT_TRUE(bad.error().message.find("inside a bare value") != std::string::npos ||
                bad.error().message.find("a multi-line string cannot be a key") !=
                    std::string::npos)
        << bad.error().message;
  }
  for (std::string_view text :
       {std::string_view("targets = [\n  \"cursor\", # \xc3\xa9\n  'claude-code'\n]\n"),
        std::string_view("[mcp.\"caf\xc3\xa9\"]\ncommand = \"\"\"x\ny\"\"\" # z\n"),
        std::string_view(
            "a.\"b\".c = { \"A\" = \"\xc3\xa9\", B = [[\"c\"], ['d']], e.\"f\" = 1 }\n"),
        std::string_view("[[ \"x\" ]]\n[a . 'b']\n")}) {
    auto guard = AsciiTomlText(text, "strata.toml");
    EXPECT_TRUE(guard.has_value()) << text << ": " << (guard ? "" : guard.error().message);
  }
}

// toml++ 3.3.0 reaches an unreachable branch when it tests some non-ASCII characters for
// whitespace (U+00AB and U+0416 among them), so it reads only ASCII: a basic string's characters
// as escapes, a literal string as the basic string of the same value, a comment's as '?'. The
// values read back unchanged.
TEST(ConfigTest, NonAsciiTextReachesTomlAsEscapesWithTheSameValue) {
  TempDir dir;
  const std::string text =
      "# \xc2\xab comment \xd0\x96\n"
      "source = 'caf\xc2\xab.md' # \xef\xbb\xaf\n"
      "[mcp.x]\n"
      "command = '''a\"\n\xc2\xab\\b'''''\n"
      "args = [\"\xf0\x9f\x98\x80\", '\xd0\x96\\\"']\n";
  auto ascii = AsciiTomlText(text, "strata.toml");
  ASSERT_TRUE(ascii) << ascii.error().message;
  for (char c : *ascii) EXPECT_LT(static_cast<unsigned char>(c), 0x80) << *ascii;
  EXPECT_EQ(std::count(ascii->begin(), ascii->end(), '\n'), 6);  // lines kept
  EXPECT_NE(ascii->find("\\U0001F600"), std::string::npos) << *ascii;
  auto config = Parse(dir, text);
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config->source, "caf\xc2\xab.md");
  ASSERT_EQ(config->mcp_servers.size(), 1u);
  EXPECT_EQ(config->mcp_servers[0].command, "a\"\n\xc2\xab\\b''");
  EXPECT_EQ(config->mcp_servers[0].args,
            (std::vector<std::string>{"\xf0\x9f\x98\x80", "\xd0\x96\\\""}));
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
