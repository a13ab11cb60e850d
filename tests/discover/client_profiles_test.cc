// client_profiles_test.cc: each client's documented rules (ClientOptions) in one scenario per
// client; the files beside it hold the scenarios of each client's own discovery tests
// (docs/discover.md names them).
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

TEST(ClientNamesTest, EveryClientRoundTripsAndUnknownNamesAreRefused) {
  for (Client c : AllClients()) EXPECT_EQ(ClientFromName(ClientName(c)), c);
  EXPECT_FALSE(ClientFromName("windsurf").has_value());
  EXPECT_EQ(ClientNameList(), "claude-code, codex, gemini-cli, opencode, goose, copilot, cursor");
}

// Codex project_doc tests: no doc, root-to-cwd concatenation, override precedence.
TEST(CodexProfileTest, RootToCwdOneFilePerDirectoryOverrideFirst) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  EXPECT_TRUE(Loaded(Client::kCodex, tmp.path()).empty());  // no_doc_file_returns_none
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("a/b/AGENTS.md", "b\n");
  tmp.Write("a/b/AGENTS.override.md", "override\n");
  tmp.Write("a/b/CLAUDE.md", "not codex\n");
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path() / "a/b"),
            (Paths{"../../AGENTS.md", "AGENTS.override.md"}));
}

// Codex: without a project root marker only the working directory is read.
TEST(CodexProfileTest, WithoutGitOnlyTheWorkingDirectoryIsRead) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "parent\n");
  tmp.Write("sub/AGENTS.md", "sub\n");
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path() / "sub"), (Paths{"AGENTS.md"}));
}

// Codex doc_larger_than_limit_is_truncated: one 32 KiB budget spent root-first, head kept.
TEST(CodexProfileTest, ThirtyTwoKibBudgetIsSpentRootFirstKeepingTheHead) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", std::string(30000, 'r'));
  tmp.Write("pkg/AGENTS.md", std::string(5000, 'p'));
  Result<Discovery> d = Discover(ClientOptions(Client::kCodex, tmp.path() / "pkg", {}));
  ASSERT_TRUE(d);
  ASSERT_EQ(d->sources.size(), 2u);
  EXPECT_FALSE(d->sources[0].truncated);
  EXPECT_TRUE(d->sources[1].truncated);
  EXPECT_EQ(d->sources[1].content, std::string(32768 - 30000, 'p'));  // no marker, no tail
}

// Codex reads no @imports.
TEST(CodexProfileTest, ImportsArePlainText) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "@more.md\n");
  tmp.Write("more.md", "more\n");
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path()), (Paths{"AGENTS.md"}));
}

// Claude Code docs: CLAUDE.md in every ancestor, .claude/CLAUDE.md, CLAUDE.local.md; AGENTS.md
// only when imported.
TEST(ClaudeCodeProfileTest, ReadsClaudeFilesAndAgentsMdOnlyWhenImported) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("repo/AGENTS.md", "agents\n");
  tmp.Write("repo/CLAUDE.md", "claude\n");
  tmp.Write("repo/pkg/.claude/CLAUDE.md", "pkg claude\n");
  tmp.Write("repo/pkg/CLAUDE.local.md", "mine\n");
  EXPECT_EQ(Loaded(Client::kClaudeCode, tmp.path() / "repo/pkg"),
            (Paths{"../CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"}));
  tmp.Write("repo/CLAUDE.md", "@AGENTS.md\n");
  EXPECT_EQ(Loaded(Client::kClaudeCode, tmp.path() / "repo"), (Paths{"CLAUDE.md", "AGENTS.md"}));
}

// Claude Code: .gitignored files are not imported.
TEST(ClaudeCodeProfileTest, GitignoredImportIsNotRead) {
  TempDir tmp;
  ASSERT_EQ(std::system(("git init -q " + tmp.path().string()).c_str()), 0);
  tmp.Write(".gitignore", "notes.md\n");
  tmp.Write("CLAUDE.md", "@notes.md\n");
  tmp.Write("notes.md", "ignored\n");
  EXPECT_EQ(Loaded(Client::kClaudeCode, tmp.path()), (Paths{"CLAUDE.md"}));
}

// gemini-cli memoryDiscovery tests: global file first, then project root down to cwd, stopping
// at the .git root; files below cwd are not in the prefix.
TEST(GeminiCliProfileTest, GlobalThenRootDownToCwdStoppingAtGitRoot) {
  TempDir tmp;
  tmp.Write("home/.gemini/GEMINI.md", "global\n");
  tmp.Write("GEMINI.md", "above the repo\n");
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("repo/GEMINI.md", "root\n");
  tmp.Write("repo/src/GEMINI.md", "src\n");
  tmp.Write("repo/src/deep/GEMINI.md", "below cwd\n");
  tmp.Write("repo/src/AGENTS.md", "not gemini\n");
  std::vector<std::string> paths =
      Loaded(Client::kGeminiCli, tmp.path() / "repo/src", tmp.path() / "home");
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(paths[0], (fs::canonical(tmp.path()) / "home/.gemini/GEMINI.md").string());
  EXPECT_EQ(paths[1], "../GEMINI.md");
  EXPECT_EQ(paths[2], "GEMINI.md");
}

// gemini-cli memoryImportProcessor tests: imports resolve relative to the file, 5 deep.
TEST(GeminiCliProfileTest, ImportsFollowFiveDeep) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "@a1.md\n");
  for (int i = 1; i <= 6; ++i) {
    tmp.Write("a" + std::to_string(i) + ".md", "@a" + std::to_string(i + 1) + ".md\n");
  }
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()).size(), 6u);  // GEMINI.md + 5 imports
}

// opencode: the first name found up the tree wins; CLAUDE.md is not read when AGENTS.md exists.
TEST(OpencodeProfileTest, FirstNameFoundInTheTreeWins) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("CLAUDE.md", "claude at root\n");
  tmp.Write("pkg/AGENTS.md", "agents in pkg\n");
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path() / "pkg"), (Paths{"AGENTS.md"}));
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path()), (Paths{"CLAUDE.md"}));
}

// Goose load_hints tests: both names load, nested from the git root, imports 3 deep inside it.
TEST(GooseProfileTest, HintsAndAgentsMdFromGitRootDownWithImportsThreeDeep) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("repo/.goosehints", "@i1.md\n");
  tmp.Write("repo/AGENTS.md", "agents\n");
  tmp.Write("repo/sub/.goosehints", "sub hints\n");
  tmp.Write("repo/i1.md", "@i2.md\n");
  tmp.Write("repo/i2.md", "@i3.md\n");
  tmp.Write("repo/i3.md", "@i4.md\n");
  tmp.Write("repo/i4.md", "too deep\n");
  EXPECT_EQ(
      Loaded(Client::kGoose, tmp.path() / "repo/sub"),
      (Paths{"../.goosehints", "../i1.md", "../i2.md", "../i3.md", "../AGENTS.md", ".goosehints"}));
}

// Goose test_import_boundary_respected: an import outside the git root is not read.
TEST(GooseProfileTest, ImportOutsideTheGitRootIsRefused) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "repo/.git");
  tmp.Write("outside.md", "outside\n");
  tmp.Write("repo/.goosehints", "@../outside.md\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path() / "repo"), (Paths{".goosehints"}));
}

// Copilot docs: repository-wide file and path-specific files at the root; applyTo decides.
TEST(CopilotProfileTest, RepositoryInstructionsAndAlwaysApplyingPathFiles) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write(".github/copilot-instructions.md", "repo wide\n");
  tmp.Write(".github/instructions/all.instructions.md", "---\napplyTo: \"**\"\n---\nall\n");
  tmp.Write(".github/instructions/ts/ts.instructions.md", "---\napplyTo: \"**/*.ts\"\n---\nts\n");
  tmp.Write("AGENTS.md", "agents\n");
  EXPECT_EQ(Loaded(Client::kCopilot, tmp.path()),
            (Paths{".github/copilot-instructions.md", ".github/instructions/all.instructions.md",
                   "AGENTS.md"}));
}

// Cursor docs: .mdc rules with alwaysApply: true are in the prefix, glob rules are not.
TEST(CursorProfileTest, AlwaysApplyRulesLoadGlobRulesWait) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write(".cursor/rules/always.mdc", "---\ndescription: x\nglobs:\nalwaysApply: true\n---\nA\n");
  tmp.Write(".cursor/rules/py.mdc", "---\nglobs: *.py\nalwaysApply: false\n---\nP\n");
  tmp.Write("AGENTS.md", "agents\n");
  EXPECT_EQ(Loaded(Client::kCursor, tmp.path()), (Paths{".cursor/rules/always.mdc", "AGENTS.md"}));
}

}  // namespace
}  // namespace strata
