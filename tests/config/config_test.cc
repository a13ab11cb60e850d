// config_test.cc: strata.toml parsing: the keys it accepts, errors with file:line:col, and the
// characters the TOML library cannot read refused before it sees them.
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

// U+FEA0 (an Arabic presentation form) in a comment: toml++ 3.3.0 would reach undefined behaviour
// (found by fuzz/config_fuzz.cc); strata refuses it at its line and column instead.
TEST(ConfigTest, CharacterTheTomlLibraryCannotReadIsRefusedWithItsPlace) {
  TempDir dir;
  auto config = Parse(dir, "targets = [\"cursor\"]\n# \xEF\xBA\xA0\n");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().kind, ErrorKind::kParse);
  EXPECT_EQ(config.error().where.line, 2);
  EXPECT_EQ(config.error().where.column, 3);
  EXPECT_NE(config.error().message.find("U+FEA0"), std::string::npos);
  // The escape the message suggests parses.
  auto escaped = Parse(dir, "source = \"A\\uFEA0.md\"\n");
  EXPECT_TRUE(escaped) << escaped.error().message;
}

}  // namespace
}  // namespace strata
