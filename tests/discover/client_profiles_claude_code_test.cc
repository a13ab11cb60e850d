// client_profiles_claude_code_test.cc: Claude Code's conditional rules (`paths:`) on touched
// files.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>

#include "discover/client_profiles_fixture.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing_profiles::Loaded;
using testing_profiles::Paths;
using testing_profiles::Texts;
using testing_profiles::Touched;

// ---------------------------------------------------------------------------------------------
// Claude Code (not open source): its memory documentation, code.claude.com/docs/en/memory,
// "Organize rules with .claude/rules/" and "Path-specific rules".

DiscoverOptions ClaudeTouching(const fs::path& cwd, std::vector<fs::path> touched) {
  DiscoverOptions o = ClientOptions(Client::kClaudeCode, cwd, {});
  o.touched_paths = std::move(touched);
  return o;
}

// Rules without `paths:` load unconditionally; a `paths:` rule only for a matching touched file.
TEST(ClaudeCodeProfileTest, PathsRuleLoadsOnlyForAMatchingTouchedFile) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write(".claude/rules/style.md", "always\n");
  tmp.Write(".claude/rules/api.md", "---\npaths:\n  - \"src/api/**/*.ts\"\n---\napi rules\n");
  Result<Discovery> none = Discover(ClaudeTouching(tmp.path(), {}));
  ASSERT_TRUE(none);
  ASSERT_EQ(none->sources.size(), 1u);
  EXPECT_EQ(none->sources[0].display_path, ".claude/rules/style.md");
  ASSERT_EQ(none->conditional_rules.size(), 1u);
  EXPECT_EQ(none->conditional_rules[0].path, ".claude/rules/api.md");
  EXPECT_EQ(none->conditional_rules[0].key, "paths");
  EXPECT_EQ(none->conditional_rules[0].patterns, (Paths{"src/api/**/*.ts"}));
  EXPECT_EQ(none->conditional_rules[0].matched, "");

  EXPECT_EQ(Loaded(Client::kClaudeCode, tmp.path()), (Paths{".claude/rules/style.md"}));
  Result<Discovery> other = Discover(ClaudeTouching(tmp.path(), {"src/web/page.ts"}));
  ASSERT_TRUE(other);
  EXPECT_EQ(other->sources.size(), 1u);

  Result<Discovery> hit = Discover(ClaudeTouching(tmp.path(), {"src/api/v1/users.ts"}));
  ASSERT_TRUE(hit);
  ASSERT_EQ(hit->sources.size(), 2u);
  EXPECT_EQ(hit->sources[0].display_path, ".claude/rules/api.md");
  EXPECT_EQ(hit->sources[0].condition, "paths: src/api/**/*.ts (src/api/v1/users.ts)");
  EXPECT_EQ(hit->sources[1].condition, "");
  EXPECT_EQ(hit->conditional_rules[0].matched, "src/api/v1/users.ts");
}

// Docs' pattern table: `**/*.ts` any depth, `*.md` the project root only, `src/**/*` below src,
// braces `src/**/*.{ts,tsx}`; several patterns in one list.
TEST(ClaudeCodeProfileTest, PathPatternsFollowTheDocumentedGlobRules) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  const std::string md = "---\npaths: \"*.md\"\n---\nmd\n";
  const std::string tsx = "---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n  - \"lib/**/*.ts\"\n---\ntsx\n";
  tmp.Write(".claude/rules/md.md", md);
  tmp.Write(".claude/rules/tsx.md", tsx);
  EXPECT_TRUE(Loaded(Client::kClaudeCode, tmp.path()).empty());
  auto loaded = [&](const fs::path& touched) {
    return Texts(ClaudeTouching(tmp.path(), {touched}));
  };
  EXPECT_EQ(loaded("README.md"), (Paths{md}));
  EXPECT_TRUE(loaded("docs/guide.md").empty());  // `*.md` does not reach docs/
  EXPECT_EQ(loaded("src/components/a.tsx"), (Paths{tsx}));
  EXPECT_EQ(loaded("src/a.ts"), (Paths{tsx}));
  EXPECT_EQ(loaded("lib/x/y.ts"), (Paths{tsx}));
  EXPECT_TRUE(loaded("test/a.ts").empty());
}

// A rule directory below the root: its patterns are relative to the directory holding .claude/.
TEST(ClaudeCodeProfileTest, NestedRulePatternsAreRelativeToTheirOwnDirectory) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  const std::string rule = "---\npaths: [\"src/**\"]\n---\npkg src\n";
  tmp.Write("pkg/.claude/rules/only-src.md", rule);
  DiscoverOptions o = ClaudeTouching(tmp.path() / "pkg", {tmp.path() / "pkg/src/main.c"});
  EXPECT_EQ(Texts(o), (Paths{rule}));
  o.touched_paths = {tmp.path() / "src/main.c"};  // the root's src/, not pkg's
  EXPECT_TRUE(Texts(o).empty());
}

}  // namespace
}  // namespace strata
