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

// Non-ASCII text is fine in comments and strings; outside them it is a TOML syntax error at its
// line and column (toml++ 3.3.0 takes an unreachable branch on the way there: see config.cc).
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
}

}  // namespace
}  // namespace strata
