// client_profiles_opencode_test.cc: the opencode profile on its own rules.
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
// opencode: sst/opencode (anomalyco/opencode) packages/opencode/src/session/instruction.ts and its
// test/session/instruction.test.ts, checked against the pinned opencode 1.18.33.

// instruction.ts systemPaths: the first of AGENTS.md, CLAUDE.md, CONTEXT.md found anywhere up
// the tree wins; every copy of it loads, the working directory's first.
TEST(OpencodeProfileTest, EveryCopyOfTheWinningNameLoadsWorkingDirectoryFirst) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root agents");
  tmp.Write("CLAUDE.md", "root claude");
  tmp.Write("pkg/AGENTS.md", "pkg agents");
  tmp.Write("pkg/sub/CLAUDE.md", "sub claude");
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path() / "pkg/sub"),
            (Paths{"../AGENTS.md", "../../AGENTS.md"}));
}

// instruction.ts FILES: CLAUDE.md, then the deprecated CONTEXT.md, only when no earlier name
// exists anywhere up the tree.
TEST(OpencodeProfileTest, ContextMdOnlyWhenNeitherAgentsNorClaudeExists) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("CONTEXT.md", "context");
  tmp.Write("sub/GEMINI.md", "not opencode");
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path() / "sub"), (Paths{"../CONTEXT.md"}));
  tmp.Write("sub/CLAUDE.md", "claude");
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path() / "sub"), (Paths{"CLAUDE.md"}));
}

// instruction.ts with Project.fromDirectory: outside git the worktree is /, so findUp walks every
// ancestor.
TEST(OpencodeProfileTest, OutsideGitEveryAncestorIsSearched) {
  TempDir tmp;
  tmp.Write("a/AGENTS.md", "a");
  fs::create_directories(tmp.path() / "a/b/c");
  EXPECT_EQ(Loaded(Client::kOpencode, tmp.path() / "a/b/c"), (Paths{"../../AGENTS.md"}));
}

// instruction.test.ts: "uses global AGENTS.md when OPENCODE_CONFIG_DIR is not set"; the global
// file comes before the project's; ~/.claude/CLAUDE.md only without it.
TEST(OpencodeProfileTest, GlobalAgentsMdElseClaudeCodesGlobalFile) {
  TempDir tmp;
  tmp.Write("home/.claude/CLAUDE.md", "claude global");
  tmp.Write("project/AGENTS.md", "project");
  const fs::path cwd = tmp.path() / "project";
  EXPECT_EQ(Texts(ClientOptions(Client::kOpencode, cwd, tmp.path() / "home")),
            (Paths{"claude global", "project"}));
  tmp.Write("home/.config/opencode/AGENTS.md", "opencode global");
  EXPECT_EQ(Texts(ClientOptions(Client::kOpencode, cwd, tmp.path() / "home")),
            (Paths{"opencode global", "project"}));
}

// instruction.test.ts: "returns empty when AGENTS.md is at project root (already in
// systemPaths)"
TEST(OpencodeProfileTest, TouchingAFileAddsNothingTheSystemPromptHas) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "# Root Instructions");
  tmp.Write("src/file.ts", "const x = 1");
  EXPECT_TRUE(Touched(ClientOptions(Client::kOpencode, tmp.path(), {}), "src/file.ts").empty());
}

// instruction.test.ts: "returns AGENTS.md from subdirectory (not in systemPaths)" and "does not
// reattach the same nearby instructions twice for one message"
TEST(OpencodeProfileTest, TouchingAFileDeliversItsSubdirectoryAgentsMdOnce) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("subdir/AGENTS.md", "# Subdir Instructions");
  tmp.Write("subdir/nested/file.ts", "const x = 1");
  DiscoverOptions o = ClientOptions(Client::kOpencode, tmp.path(), {});
  Result<Discovery> d = Discover(o);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->sources.empty());
  SubdirectoryTracker tracker(o, *d);
  TouchResult first = tracker.Touch("subdir/nested/file.ts");
  ASSERT_EQ(first.sources.size(), 1u);
  EXPECT_EQ(first.sources[0].content, "# Subdir Instructions");
  EXPECT_TRUE(tracker.Touch("subdir/nested/file.ts").sources.empty());
}

}  // namespace
}  // namespace strata
