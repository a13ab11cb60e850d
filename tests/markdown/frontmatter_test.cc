// frontmatter_test.cc: the frontmatter keys clients scope rules with, read as the clients write
// them (a comma list, a quoted string, a YAML list), globs with brace alternatives kept whole.
#include "markdown/frontmatter.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

using Items = std::vector<std::string>;

TEST(FrontmatterTest, ValuesAsCommaListQuotedStringAndYamlList) {
  const std::string front =
      "---\nglobs: src/**/*.ts, test/**\napplyTo: \"**/*.py\"\npaths:\n  - \"a/**\"\n  - b/*.md\n"
      "---\n";
  ASSERT_EQ(FrontmatterLength(front + "body\n"), front.size());
  EXPECT_EQ(FrontmatterValues(front, "globs"), (Items{"src/**/*.ts", "test/**"}));
  EXPECT_EQ(FrontmatterValues(front, "applyTo"), (Items{"**/*.py"}));
  EXPECT_EQ(FrontmatterValues(front, "paths"), (Items{"a/**", "b/*.md"}));
  EXPECT_TRUE(FrontmatterValues(front, "description").empty());
}

TEST(FrontmatterTest, CommaInsideBracesStaysInItsGlob) {
  const std::string front = "---\nglobs: web/**/*.{ts,tsx},docs/*.{md,mdx}\n---\n";
  EXPECT_EQ(FrontmatterValues(front, "globs"), (Items{"web/**/*.{ts,tsx}", "docs/*.{md,mdx}"}));
}

}  // namespace
}  // namespace strata
