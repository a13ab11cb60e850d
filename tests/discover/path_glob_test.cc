// path_glob_test.cc: the glob rules of rule frontmatter (Claude Code paths:, Copilot applyTo:,
// Cursor globs:), expected values written from the rules in path_glob.h.
#include "discover/path_glob.h"

#include <gtest/gtest.h>

namespace strata::discover {
namespace {

TEST(PathGlobTest, StarStaysInOneSegmentAndDoubleStarSpansAny) {
  EXPECT_TRUE(MatchPathGlob("*.md", "README.md"));
  EXPECT_FALSE(MatchPathGlob("*.md", "docs/a.md"));
  EXPECT_TRUE(MatchPathGlob("**/*.md", "README.md"));
  EXPECT_TRUE(MatchPathGlob("**/*.md", "docs/deep/a.md"));
  EXPECT_TRUE(MatchPathGlob("src/**", "src/a/b.c"));
  EXPECT_FALSE(MatchPathGlob("src/**/*.ts", "lib/a.ts"));
  EXPECT_TRUE(MatchPathGlob("src/*/x?.ts", "src/a/x1.ts"));
  EXPECT_FALSE(MatchPathGlob("**/*.ts", "src/.hidden.ts"));  // a leading dot is matched only
                                                             // by a pattern that spells it
}

TEST(PathGlobTest, BracesAlternateAndNest) {
  EXPECT_TRUE(MatchPathGlob("src/**/*.{ts,tsx}", "src/a/b.tsx"));
  EXPECT_TRUE(MatchPathGlob("{src,lib}/**/*.{ts,{js,mjs}}", "lib/x.mjs"));
  EXPECT_FALSE(MatchPathGlob("src/**/*.{ts,tsx}", "src/a/b.js"));
  EXPECT_TRUE(MatchPathGlob("a{b", "a{b"));  // an unmatched brace is literal
}

TEST(PathGlobTest, LeadingDotSlashAndTrailingSlash) {
  EXPECT_TRUE(MatchPathGlob("./src/*.c", "src/a.c"));
  EXPECT_TRUE(MatchPathGlob("/src/*.c", "src/a.c"));
  EXPECT_TRUE(MatchPathGlob("docs/", "docs/a/b.md"));
  EXPECT_FALSE(MatchPathGlob("", "a"));
}

TEST(PathGlobTest, CommaListsSplitOutsideBracesOnly) {
  EXPECT_EQ(SplitPatternList({"**/*.ts, **/*.tsx", "lib/**"}),
            (std::vector<std::string>{"**/*.ts", "**/*.tsx", "lib/**"}));
  EXPECT_EQ(SplitPatternList({"src/*.{ts", "tsx}"}),  // a reader split at the brace's comma
            (std::vector<std::string>{"src/*.{ts,tsx}"}));
  EXPECT_TRUE(SplitPatternList({" ", ""}).empty());
}

}  // namespace
}  // namespace strata::discover
