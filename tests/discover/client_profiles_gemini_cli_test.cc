// client_profiles_gemini_cli_test.cc: the gemini-cli profile on the scenarios of its own tests.
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
// gemini-cli: scenarios of google-gemini/gemini-cli packages/core/src/utils/memoryDiscovery.test.ts
// and memoryImportProcessor.test.ts.

ClientSettings GeminiNames(std::vector<std::string> names) {
  ClientSettings s;
  s.gemini_context_file_names = std::move(names);
  return s;
}

// gemini-cli memoryDiscovery.test.ts: "should traverse upward from trusted root to git root"
TEST(GeminiCliProfileTest, TraversesUpToTheGitRootAndNoFurther) {
  TempDir tmp;
  tmp.Write("parent/GEMINI.md", "Parent content");
  fs::create_directories(tmp.path() / "parent/repo/.git");
  tmp.Write("parent/repo/GEMINI.md", "Repo content");
  tmp.Write("parent/repo/src/GEMINI.md", "Src content");
  EXPECT_EQ(Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "parent/repo/src", {})),
            (Paths{"Repo content", "Src content"}));
}

// gemini-cli memoryDiscovery.test.ts: "should fall back to trusted root as ceiling when no .git
// exists"
TEST(GeminiCliProfileTest, WithoutGitTheWorkingDirectoryIsTheCeiling) {
  TempDir tmp;
  tmp.Write("GEMINI.md", "Home content");
  tmp.Write("docs/GEMINI.md", "Docs content");
  fs::create_directories(tmp.path() / "docs/notes");
  EXPECT_TRUE(Loaded(Client::kGeminiCli, tmp.path() / "docs/notes").empty());
  EXPECT_EQ(Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "docs", {})),
            (Paths{"Docs content"}));
}

// gemini-cli memoryDiscovery.test.ts: "should recognize .git as a file (submodules/worktrees)"
TEST(GeminiCliProfileTest, AGitFileMarksTheRoot) {
  TempDir tmp;
  tmp.Write("worktree_repo/.git", "gitdir: /some/other/path/.git/worktrees/worktree_repo");
  tmp.Write("worktree_repo/GEMINI.md", "Repo content");
  tmp.Write("worktree_repo/src/GEMINI.md", "Src content");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path() / "worktree_repo/src"),
            (Paths{"../GEMINI.md", "GEMINI.md"}));
}

// gemini-cli memoryDiscovery.test.ts: "should keep multiple memory files from the same directory
// adjacent and in order" (paths are sorted; configured names come before GEMINI.md, which stays)
TEST(GeminiCliProfileTest, SeveralConfiguredNamesLoadInPathOrder) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("SECONDARY.md", "Secondary content");
  tmp.Write("PRIMARY.md", "Primary content");
  tmp.Write("GEMINI.md", "Gemini content");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path(), {}, GeminiNames({"SECONDARY.md", "PRIMARY.md"})),
            (Paths{"GEMINI.md", "PRIMARY.md", "SECONDARY.md"}));
}

// gemini-cli sorts environment memory paths by path: a directory whose name sorts before
// "GEMINI.md" puts its file before the root's (getEnvironmentMemoryPaths, `unique.sort()`).
TEST(GeminiCliProfileTest, PathOrderCanPutADeeperFileFirst) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "root");
  tmp.Write("Apps/GEMINI.md", "apps");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path() / "Apps"), (Paths{"GEMINI.md", "../GEMINI.md"}));
}

// gemini-cli memoryDiscovery.test.ts: "should deduplicate files that point to the same inode"
TEST(GeminiCliProfileTest, TwoNamesForOneFileLoadOnce) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "shared");
  fs::create_symlink("GEMINI.md", tmp.path() / "AGENTS.md");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path(), {}, GeminiNames({"AGENTS.md"})).size(), 1u);
}

// gemini-cli memoryDiscovery.test.ts: getGlobalMemoryPaths "should find global memory file if it
// exists" / "should return empty array if global memory file does not exist"
TEST(GeminiCliProfileTest, GlobalFileUnderDotGeminiLoadsWhenPresent) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "home");
  fs::create_directories(tmp.path() / "project");
  EXPECT_TRUE(Loaded(Client::kGeminiCli, tmp.path() / "project", tmp.path() / "home").empty());
  tmp.Write("home/.gemini/GEMINI.md", "global");
  EXPECT_EQ(Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "project", tmp.path() / "home")),
            (Paths{"global"}));
}

// gemini-cli memoryDiscovery.test.ts: loadJitSubdirectoryMemory "should load JIT memory when
// target is inside a trusted root"
TEST(GeminiCliProfileTest, JustInTimeFileBelowTheWorkingDirectoryWhenATargetIsTouched) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("subdir/GEMINI.md", "Subdir JIT content");
  DiscoverOptions o = ClientOptions(Client::kGeminiCli, tmp.path(), {});
  EXPECT_EQ(Touched(o, "subdir/target.txt"), (Paths{"GEMINI.md"}));
}

// gemini-cli memoryDiscovery.test.ts: loadJitSubdirectoryMemory "should skip already loaded paths"
TEST(GeminiCliProfileTest, JustInTimeSkipsWhatTheCascadeLoaded) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "Root content");
  tmp.Write("subdir/GEMINI.md", "Subdir content");
  DiscoverOptions o = ClientOptions(Client::kGeminiCli, tmp.path(), {});
  Result<Discovery> d = Discover(o);
  ASSERT_TRUE(d);
  SubdirectoryTracker tracker(o, *d);
  TouchResult r = tracker.Touch("subdir/target.txt");
  ASSERT_EQ(r.sources.size(), 1u);
  EXPECT_EQ(r.sources[0].content, "Subdir content");
}

// gemini-cli memoryDiscovery.test.ts: "should handle non-existent file target by using parent
// directory" and "should resolve file target to its parent directory for traversal"
TEST(GeminiCliProfileTest, JustInTimeTargetFileNeedNotExist) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("src/GEMINI.md", "Rules for new files");
  tmp.Write("lib/app.ts", "const x = 1;");
  tmp.Write("lib/GEMINI.md", "Lib rules");
  DiscoverOptions o = ClientOptions(Client::kGeminiCli, tmp.path(), {});
  EXPECT_EQ(Touched(o, "src/new-file.ts"), (Paths{"GEMINI.md"}));
  EXPECT_EQ(Touched(o, "lib/app.ts"), (Paths{"GEMINI.md"}));
}

// gemini-cli memoryDiscovery.test.ts: "should skip JIT memory when target is outside trusted
// roots"
TEST(GeminiCliProfileTest, JustInTimeIgnoresTargetsOutsideTheProject) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "trusted/.git");
  tmp.Write("untrusted/GEMINI.md", "Untrusted content");
  DiscoverOptions o = ClientOptions(Client::kGeminiCli, tmp.path() / "trusted", {});
  EXPECT_TRUE(Touched(o, tmp.path() / "untrusted/target.txt").empty());
}

// gemini-cli memoryDiscovery.test.ts: "should stop at a custom boundary marker instead of .git"
// (context.memoryBoundaryMarkers)
TEST(GeminiCliProfileTest, CustomBoundaryMarkerDecidesTheRoot) {
  TempDir tmp;
  tmp.Write("custom_marker/.monorepo-root", "");
  tmp.Write("custom_marker/GEMINI.md", "Root rules");
  tmp.Write("custom_marker/packages/app/GEMINI.md", "App rules");
  ClientSettings s;
  s.gemini_boundary_markers = std::vector<std::string>{".monorepo-root"};
  EXPECT_EQ(
      Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "custom_marker/packages/app", {}, s)),
      (Paths{"Root rules", "App rules"}));
}

// gemini-cli memoryDiscovery.test.ts: "should support multiple boundary markers"
TEST(GeminiCliProfileTest, AnyOfSeveralBoundaryMarkersDecidesTheRoot) {
  TempDir tmp;
  tmp.Write("multi_marker/package.json", "{}");
  tmp.Write("multi_marker/GEMINI.md", "Root content");
  fs::create_directories(tmp.path() / "multi_marker/src");
  ClientSettings s;
  s.gemini_boundary_markers = std::vector<std::string>{".git", "package.json"};
  EXPECT_EQ(Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "multi_marker/src", {}, s)),
            (Paths{"Root content"}));
}

// gemini-cli memoryDiscovery.ts findProjectRoot: an empty marker list finds no root, so the
// working directory is the ceiling ("should disable parent traversal when boundary markers array
// is empty").
TEST(GeminiCliProfileTest, EmptyBoundaryMarkerListDisablesParentTraversal) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "Root content");
  tmp.Write("subdir/GEMINI.md", "Subdir content");
  ClientSettings s;
  s.gemini_boundary_markers = std::vector<std::string>{};
  EXPECT_EQ(Texts(ClientOptions(Client::kGeminiCli, tmp.path() / "subdir", {}, s)),
            (Paths{"Subdir content"}));
}

// gemini-cli settings: context.fileName as a string or a list, the older top-level
// contextFileName, and the workspace settings.json over the user's (comments allowed).
TEST(GeminiCliProfileTest, ContextFileNameFromSettingsJson) {
  TempDir tmp;
  tmp.Write("home/.gemini/settings.json", "// user\n{\"context\": {\"fileName\": \"AGENTS.md\"}}");
  fs::create_directories(tmp.path() / "work");
  Result<ClientSettings> user =
      ReadClientSettings(Client::kGeminiCli, tmp.path() / "work", tmp.path() / "home", {});
  ASSERT_TRUE(user) << FormatError(user.error());
  EXPECT_EQ(user->gemini_context_file_names, (Paths{"AGENTS.md"}));
  tmp.Write("work/.gemini/settings.json",
            "{\"context\": {\"fileName\": [\"CONTEXT.md\", \"GEMINI.md\"], "
            "\"memoryBoundaryMarkers\": [\".root\"]}}");
  Result<ClientSettings> both =
      ReadClientSettings(Client::kGeminiCli, tmp.path() / "work", tmp.path() / "home", {});
  ASSERT_TRUE(both);
  EXPECT_EQ(both->gemini_context_file_names, (Paths{"CONTEXT.md", "GEMINI.md"}));
  EXPECT_EQ(both->gemini_boundary_markers, (Paths{".root"}));
  tmp.Write("work/.gemini/settings.json", "{\"contextFileName\": \"LEGACY.md\"}");
  Result<ClientSettings> legacy =
      ReadClientSettings(Client::kGeminiCli, tmp.path() / "work", {}, {});
  ASSERT_TRUE(legacy);
  EXPECT_EQ(legacy->gemini_context_file_names, (Paths{"LEGACY.md"}));
  tmp.Write("work/.gemini/settings.json", "{\"context\": {\"fileName\": 3}}");
  EXPECT_FALSE(ReadClientSettings(Client::kGeminiCli, tmp.path() / "work", {}, {}));
}

// gemini-cli memoryImportProcessor.test.ts: "should handle nested imports recursively"
TEST(GeminiCliProfileTest, NestedImportsAreFollowed) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "Main @./nested.md content\n");
  tmp.Write("nested.md", "Nested @./inner.md content\n");
  tmp.Write("inner.md", "Inner content\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()), (Paths{"GEMINI.md", "nested.md", "inner.md"}));
}

// gemini-cli memoryImportProcessor.test.ts: "should import non-md files just like md files"
TEST(GeminiCliProfileTest, NonMarkdownFilesAreImported) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "Some content @./instructions.txt more content\n");
  tmp.Write("instructions.txt", "plain text\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()), (Paths{"GEMINI.md", "instructions.txt"}));
}

// gemini-cli memoryImportProcessor.test.ts: "should handle circular imports"
TEST(GeminiCliProfileTest, CircularImportsStop) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "Content @./circular.md more content\n");
  tmp.Write("circular.md", "Circular @./GEMINI.md content\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()), (Paths{"GEMINI.md", "circular.md"}));
}

// gemini-cli memoryImportProcessor.test.ts: "should ignore imports inside code blocks" and
// "should ignore imports inside inline code"
TEST(GeminiCliProfileTest, ImportsInCodeAreText) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md",
            "Normal content @./should-import.md\n```\ncode block with @./should-not-import.md\n"
            "```\nInline `@./not-either.md` here\n");
  tmp.Write("should-import.md", "yes\n");
  tmp.Write("should-not-import.md", "no\n");
  tmp.Write("not-either.md", "no\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()), (Paths{"GEMINI.md", "should-import.md"}));
}

// gemini-cli memoryImportProcessor.test.ts: "should allow imports from parent and subdirectories
// within project root" and "should reject imports outside project root"
TEST(GeminiCliProfileTest, ImportsStayInsideTheProjectRoot) {
  TempDir tmp;
  tmp.Write("outside.md", "outside\n");
  fs::create_directories(tmp.path() / "project/.git");
  tmp.Write("project/parent.md", "Parent file content\n");
  tmp.Write("project/src/components/sub.md", "Subdir file content\n");
  tmp.Write("project/src/GEMINI.md",
            "Parent import: @../parent.md Subdir import: @./components/sub.md\n"
            "Outside import: @../../outside.md\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path() / "project/src"),
            (Paths{"GEMINI.md", "../parent.md", "components/sub.md"}));
}

// gemini-cli memoryImportProcessor.test.ts: validateImportPath "should reject URLs"
TEST(GeminiCliProfileTest, UrlImportsAreRefused) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("GEMINI.md", "@https://example.com/a.md\n@file:///etc/passwd\n");
  EXPECT_EQ(Loaded(Client::kGeminiCli, tmp.path()), (Paths{"GEMINI.md"}));
}

}  // namespace
}  // namespace strata
