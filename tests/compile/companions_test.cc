// companions_test.cc: the .aider.conf.yml `read:` entry and the .gitignore block, merged into
// the user's files without touching anything else.
#include <gtest/gtest.h>

#include "compile/housekeeping.h"
#include "strata/compile.h"
#include "support/test_support.h"

namespace strata {
namespace {

using testing::ReadAll;
using testing::TempDir;

Result<CompileReport> CompileTree(const TempDir& dir, bool write, bool gitignore = false) {
  CompileOptions options;
  options.root = dir.path();
  options.write = write;
  options.gitignore = gitignore;
  return Compile(options);
}

TEST(CompanionsTest, AiderConfigGetsTheReadEntryAndKeepsEverythingElse) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write("strata.toml", "targets = [\"aider\"]\n");
  const std::string conf = "# mine\nmodel: sonnet  # keep\nauto-commits: false\n";
  dir.Write(".aider.conf.yml", conf);
  auto verify = CompileTree(dir, false);
  ASSERT_TRUE(verify);
  EXPECT_FALSE(verify->ok);
  ASSERT_EQ(verify->companions.size(), 1u);
  EXPECT_EQ(verify->companions[0].id, "aider");
  EXPECT_EQ(verify->companions[0].status, TargetStatus::kStale);

  auto compile = CompileTree(dir, true);
  ASSERT_TRUE(compile && compile->ok);
  EXPECT_EQ(ReadAll(dir.path() / ".aider.conf.yml"), conf + "read: CONVENTIONS.md\n");
  auto again = CompileTree(dir, false);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->ok);
  EXPECT_EQ(again->companions[0].status, TargetStatus::kUnchanged);
}

TEST(CompanionsTest, NoAiderTargetLeavesTheAiderConfigAlone) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write("strata.toml", "targets = [\"claude-code\"]\n");
  auto compile = CompileTree(dir, true);
  ASSERT_TRUE(compile && compile->ok);
  EXPECT_TRUE(compile->companions.empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".aider.conf.yml"));
}

TEST(CompanionsTest, GitignoreBlockListsGeneratedFilesAndKeepsTheUsersLines) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write("strata.toml", "targets = [\"zed\", \"claude-code\", \"codex\"]\ngitignore = true\n");
  dir.Write(".gitignore", "build/\n*.o");
  auto compile = CompileTree(dir, true);
  ASSERT_TRUE(compile && compile->ok);
  const std::string block =
      "# BEGIN strata generated files (strata compile; edit the source instead)\n"
      "/.rules\n/CLAUDE.md\n"
      "# END strata generated files\n";
  EXPECT_EQ(ReadAll(dir.path() / ".gitignore"), "build/\n*.o\n\n" + block);
  // A second block replaces the first; the user's lines after it stay.
  EXPECT_EQ(MergeGitignoreBlock("a\n" + block + "z\n", {"X.md"}),
            "a\n# BEGIN strata generated files (strata compile; edit the source instead)\n"
            "/X.md\n# END strata generated files\nz\n");
}

// A companion that is a symlink out of the tree is never read or merged into: a conflict naming the
// allow options, and nothing is written.
TEST(CompanionsTest, GitignoreLinkedOutsideTheRootIsAConflictAndNothingIsWritten) {
  TempDir dir;
  TempDir outside;
  outside.Write("ignore", "secret\n");
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write("strata.toml", "targets = [\"claude-code\"]\ngitignore = true\n");
  std::filesystem::create_symlink(outside.path() / "ignore", dir.path() / ".gitignore");
  auto compile = CompileTree(dir, true);
  ASSERT_TRUE(compile);
  EXPECT_FALSE(compile->ok);
  ASSERT_EQ(compile->companions.size(), 1u);
  EXPECT_EQ(compile->companions[0].status, TargetStatus::kConflict);
  EXPECT_NE(compile->companions[0].detail.find("--allow-outside-root"), std::string::npos);
  EXPECT_EQ(ReadAll(outside.path() / "ignore"), "secret\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "CLAUDE.md"));
}

TEST(CompanionsTest, UnifiedDiffShowsRemovedAndAddedLines) {
  std::string diff = UnifiedDiff("a\nb\nc\n", "a\nB\nc\n", "CLAUDE.md");
  EXPECT_EQ(diff.substr(0, 28), "--- a/CLAUDE.md\n+++ b/CLAUDE");
  EXPECT_NE(diff.find("\n-b\n+B\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find("@@ -1,3 +1,3 @@"), std::string::npos) << diff;
}

}  // namespace
}  // namespace strata
