// client_profiles_test.cc: each client's documented rules (ClientOptions), with scenarios taken
// from that client's own discovery tests and documentation (docs/discover.md names them).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> Loaded(Client client, const fs::path& cwd, const fs::path& home = {},
                                const ClientSettings& settings = {}) {
  Result<Discovery> d = Discover(ClientOptions(client, cwd, home, settings));
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  std::vector<std::string> out;
  if (d) {
    for (const auto& s : d->sources) out.push_back(s.display_path);
  }
  return out;
}

using Paths = std::vector<std::string>;

// The loaded texts, in order.
std::vector<std::string> Texts(const DiscoverOptions& options) {
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  std::vector<std::string> out;
  if (d) {
    for (const auto& s : d->sources) out.push_back(s.content);
  }
  return out;
}

// What a SubdirectoryTracker started on the client's discovery delivers for `path`.
std::vector<std::string> Touched(const DiscoverOptions& options, const fs::path& path) {
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value());
  if (!d) return {};
  SubdirectoryTracker tracker(options, *d);
  std::vector<std::string> out;
  for (const auto& s : tracker.Touch(path).sources) out.push_back(s.path.filename().string());
  return out;
}

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

// ---------------------------------------------------------------------------------------------
// Codex: scenarios of openai/codex codex-rs/core/src/agents_md_tests.rs (formerly
// project_doc.rs), rewritten as strata fixtures.

ClientSettings CodexLimit(size_t bytes) {
  ClientSettings s;
  s.codex_max_bytes = bytes;
  return s;
}

// openai/codex agents_md_tests.rs: doc_smaller_than_limit_is_returned
TEST(CodexProfileTest, SmallDocIsLoadedVerbatim) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "hello world");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path(), {}, CodexLimit(4096))),
            (Paths{"hello world"}));
}

// openai/codex agents_md_tests.rs: doc_larger_than_limit_is_truncated
TEST(CodexProfileTest, DocLargerThanTheLimitKeepsItsFirstLimitBytes) {
  TempDir tmp;
  tmp.Write("AGENTS.md", std::string(2048, 'A'));
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path(), {}, CodexLimit(1024))),
            (Paths{std::string(1024, 'A')}));
}

// openai/codex agents_md_tests.rs: total_byte_limit_truncates_later_project_docs
TEST(CodexProfileTest, OneLimitForAllDocsCutsTheLaterOne) {
  TempDir tmp;
  tmp.Write(".git", "");
  tmp.Write("AGENTS.md", "root");
  tmp.Write("nested/AGENTS.md", "abcdef");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "nested", {}, CodexLimit(7))),
            (Paths{"root", "abc"}));
}

// openai/codex agents_md_tests.rs: finds_doc_in_repo_root (.git is a gitdir file)
TEST(CodexProfileTest, FindsTheDocAtTheRepositoryRootFromANestedDirectory) {
  TempDir tmp;
  tmp.Write(".git", "gitdir: /path/to/actual/git/dir\n");
  tmp.Write("AGENTS.md", "root level doc");
  fs::create_directories(tmp.path() / "workspace/crate_a");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "workspace/crate_a", {})),
            (Paths{"root level doc"}));
}

// openai/codex agents_md_tests.rs: zero_byte_limit_disables_docs
TEST(CodexProfileTest, ZeroLimitLoadsNoProjectDoc) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "something");
  EXPECT_TRUE(Loaded(Client::kCodex, tmp.path(), {}, CodexLimit(0)).empty());
}

// openai/codex agents_md_tests.rs: concatenates_root_and_cwd_docs
TEST(CodexProfileTest, RootDocThenWorkingDirectoryDoc) {
  TempDir tmp;
  tmp.Write(".git", "gitdir: /path/to/actual/git/dir\n");
  tmp.Write("AGENTS.md", "root doc");
  tmp.Write("workspace/crate_a/AGENTS.md", "crate doc");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "workspace/crate_a", {})),
            (Paths{"root doc", "crate doc"}));
}

// openai/codex agents_md_tests.rs: project_root_markers_are_honored_for_agents_discovery
// (project_root_markers read from $CODEX_HOME/config.toml)
TEST(CodexProfileTest, ProjectRootMarkersFromTheUsersConfigDecideTheRoot) {
  TempDir tmp;
  tmp.Write("home/.codex/config.toml", "project_root_markers = [\".codex-root\"]\n");
  tmp.Write("repo/.codex-root", "");
  tmp.Write("repo/AGENTS.md", "parent doc");
  fs::create_directories(tmp.path() / "repo/dir1/.git");
  tmp.Write("repo/dir1/AGENTS.md", "child doc");
  const fs::path cwd = tmp.path() / "repo/dir1";
  Result<ClientSettings> settings =
      ReadClientSettings(Client::kCodex, cwd, tmp.path() / "home", tmp.path() / "home/.codex");
  ASSERT_TRUE(settings) << FormatError(settings.error());
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, cwd, {}, *settings)),
            (Paths{"parent doc", "child doc"}));
}

// openai/codex agents_md_tests.rs: project_layers_do_not_override_project_root_markers (a
// project's .codex/config.toml is not where markers come from)
TEST(CodexProfileTest, AProjectsOwnCodexConfigDoesNotSetRootMarkers) {
  TempDir tmp;
  tmp.Write(".git", "");
  tmp.Write("AGENTS.md", "root doc");
  tmp.Write(".codex/config.toml", "project_root_markers = [\".ignored-root-marker\"]\n");
  tmp.Write("nested/AGENTS.md", "nested doc");
  tmp.Write("nested/.codex/config.toml", "project_root_markers = [\".ignored-nested-marker\"]\n");
  const fs::path cwd = tmp.path() / "nested";
  Result<ClientSettings> settings =
      ReadClientSettings(Client::kCodex, cwd, tmp.path() / "home", tmp.path() / "home/.codex");
  ASSERT_TRUE(settings);
  EXPECT_FALSE(settings->codex_root_markers.has_value());
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, cwd, {}, *settings)),
            (Paths{"root doc", "nested doc"}));
}

// openai/codex agents_md.rs (module comment): an empty marker list disables parent traversal.
TEST(CodexProfileTest, EmptyRootMarkerListReadsOnlyTheWorkingDirectory) {
  TempDir tmp;
  tmp.Write(".git", "");
  tmp.Write("AGENTS.md", "root doc");
  tmp.Write("nested/AGENTS.md", "nested doc");
  ClientSettings s;
  s.codex_root_markers = std::vector<std::string>{};
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "nested", {}, s)),
            (Paths{"nested doc"}));
}

// openai/codex agents_md_tests.rs: agents_md_paths_preserve_symlinked_cwd
TEST(CodexProfileTest, AWorkingDirectoryReachedThroughASymlinkFindsItsDoc) {
  TempDir tmp;
  tmp.Write("target/AGENTS.md", "project doc");
  fs::create_directory_symlink(tmp.path() / "target", tmp.path() / "linked");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "linked", {})),
            (Paths{"project doc"}));
}

// openai/codex agents_md_tests.rs: instruction_sources_include_global_before_agents_md_docs
TEST(CodexProfileTest, GlobalDocComesBeforeTheProjectDoc) {
  TempDir tmp;
  tmp.Write("home/.codex/AGENTS.md", "global doc");
  tmp.Write("project/AGENTS.md", "project doc");
  EXPECT_EQ(Texts(ClientOptions(Client::kCodex, tmp.path() / "project", tmp.path() / "home")),
            (Paths{"global doc", "project doc"}));
}

// openai/codex agents_md_tests.rs: agents_local_md_preferred
TEST(CodexProfileTest, OverrideFileIsPreferredOverAgentsMd) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "versioned");
  tmp.Write("AGENTS.override.md", "local");
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path()), (Paths{"AGENTS.override.md"}));
}

// openai/codex agents_md_tests.rs: uses_configured_fallback_when_agents_missing
TEST(CodexProfileTest, ConfiguredFallbackNameIsUsedWhenAgentsMdIsMissing) {
  TempDir tmp;
  tmp.Write("EXAMPLE.md", "example instructions");
  tmp.Write("home/.codex/config.toml", "project_doc_fallback_filenames = [\"EXAMPLE.md\"]\n");
  Result<ClientSettings> settings =
      ReadClientSettings(Client::kCodex, tmp.path(), {}, tmp.path() / "home/.codex");
  ASSERT_TRUE(settings);
  EXPECT_EQ(settings->codex_fallback_names, (Paths{"EXAMPLE.md"}));
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path(), {}, *settings), (Paths{"EXAMPLE.md"}));
}

// openai/codex agents_md_tests.rs: agents_md_preferred_over_fallbacks
TEST(CodexProfileTest, AgentsMdIsPreferredOverFallbackNames) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "primary");
  tmp.Write("EXAMPLE.md", "secondary");
  ClientSettings s;
  s.codex_fallback_names = {"EXAMPLE.md", ".example.md"};
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path(), {}, s), (Paths{"AGENTS.md"}));
}

// openai/codex agents_md_tests.rs: agents_md_directory_is_ignored
TEST(CodexProfileTest, AnAgentsMdDirectoryIsNotADoc) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "AGENTS.md");
  EXPECT_TRUE(Loaded(Client::kCodex, tmp.path()).empty());
}

// openai/codex agents_md_tests.rs: agents_md_special_file_is_ignored
TEST(CodexProfileTest, AFifoNamedAgentsMdIsNotADoc) {
  TempDir tmp;
  ASSERT_EQ(::mkfifo((tmp.path() / "AGENTS.md").c_str(), 0644), 0);
  EXPECT_TRUE(Loaded(Client::kCodex, tmp.path()).empty());
}

// openai/codex agents_md_tests.rs: override_directory_falls_back_to_agents_md_file
TEST(CodexProfileTest, AnOverrideDirectoryFallsBackToAgentsMd) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "AGENTS.override.md");
  tmp.Write("AGENTS.md", "primary");
  EXPECT_EQ(Loaded(Client::kCodex, tmp.path()), (Paths{"AGENTS.md"}));
}

// Codex config.toml with a key of the wrong type: an error naming file, line and key.
TEST(CodexProfileTest, ConfigKeyOfTheWrongTypeIsAnError) {
  TempDir tmp;
  tmp.Write("home/.codex/config.toml",
            "model = \"x\"\nproject_doc_fallback_filenames = \"A.md\"\n");
  Result<ClientSettings> settings =
      ReadClientSettings(Client::kCodex, tmp.path(), {}, tmp.path() / "home/.codex");
  ASSERT_FALSE(settings);
  EXPECT_EQ(settings.error().where.line, 2);
  EXPECT_NE(settings.error().message.find("project_doc_fallback_filenames"), std::string::npos);
}

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

// ---------------------------------------------------------------------------------------------
// Goose: scenarios of block/goose crates/goose/src/hints/load_hints.rs (tests module).

// block/goose load_hints.rs: test_goosehints_when_present / test_goosehints_when_missing
TEST(GooseProfileTest, HintsFileLoadsWhenPresent) {
  TempDir tmp;
  EXPECT_TRUE(Loaded(Client::kGoose, tmp.path()).empty());
  tmp.Write(".goosehints", "Test hint content");
  EXPECT_EQ(Texts(ClientOptions(Client::kGoose, tmp.path(), {})), (Paths{"Test hint content"}));
}

// block/goose load_hints.rs: test_goosehints_multiple_filenames (both names load, in order)
TEST(GooseProfileTest, BothNamesLoadFromOneDirectory) {
  TempDir tmp;
  tmp.Write("AGENTS.md", "from AGENTS.md");
  tmp.Write(".goosehints", "from .goosehints");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path()), (Paths{".goosehints", "AGENTS.md"}));
}

// block/goose load_hints.rs: test_nested_goosehints_with_git_root
TEST(GooseProfileTest, NestedHintsFromTheGitRootDown) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write(".goosehints", "Root hints content");
  tmp.Write("subdir/.goosehints", "Subdir hints content");
  tmp.Write("subdir/current_dir/.goosehints", "current_dir hints content");
  EXPECT_EQ(Texts(ClientOptions(Client::kGoose, tmp.path() / "subdir/current_dir", {})),
            (Paths{"Root hints content", "Subdir hints content", "current_dir hints content"}));
}

// block/goose load_hints.rs: test_nested_goosehints_without_git_root
TEST(GooseProfileTest, WithoutGitOnlyTheWorkingDirectoryHints) {
  TempDir tmp;
  tmp.Write(".goosehints", "Base hints content");
  tmp.Write("subdir/.goosehints", "Subdir hints content");
  tmp.Write("subdir/current_dir/.goosehints", "Current dir hints content");
  EXPECT_EQ(Texts(ClientOptions(Client::kGoose, tmp.path() / "subdir/current_dir", {})),
            (Paths{"Current dir hints content"}));
}

// block/goose load_hints.rs: test_nested_goosehints_mixed_filenames
TEST(GooseProfileTest, MixedNamesAcrossDirectories) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "Root AGENTS.md content");
  tmp.Write("subdir/.goosehints", "Subdir .goosehints content");
  fs::create_directories(tmp.path() / "subdir/current_dir");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path() / "subdir/current_dir"),
            (Paths{"../../AGENTS.md", "../.goosehints"}));
}

// block/goose load_hints.rs: test_hints_with_basic_imports (`@README.md` on its own line)
TEST(GooseProfileTest, BasicImports) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("README.md", "# Project README");
  tmp.Write("config.md", "Configuration details");
  tmp.Write(".goosehints", "Project hints content\n@README.md\n@config.md\nAdditional.\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path()), (Paths{".goosehints", "README.md", "config.md"}));
}

// block/goose load_hints.rs: test_hints_with_git_import_boundary (imports anywhere inside the git
// root, nested ones too; one above it refused). Goose inlines docs/api.md twice (once per hint
// file); strata delivers a file once.
TEST(GooseProfileTest, ImportsReachAnywhereInsideTheGitRoot) {
  TempDir tmp;
  tmp.Write("forbidden.md", "Forbidden content");
  fs::create_directories(tmp.path() / "p/.git");
  tmp.Write("p/root_file.md", "Root file content");
  tmp.Write("p/shared_docs.md", "Shared documentation content");
  tmp.Write("p/docs/api.md", "API documentation content");
  tmp.Write("p/src/utils/helpers.md", "Helper utilities content @../../shared_docs.md");
  tmp.Write("p/src/components/local_file.md", "Local file content");
  tmp.Write("p/.goosehints", "Project root hints\n@docs/api.md\nRoot level instructions\n");
  tmp.Write("p/src/components/.goosehints",
            "Nested directory hints\n@local_file.md\n@../utils/helpers.md\n@../../docs/api.md\n"
            "@../../root_file.md\n@../../../forbidden.md\nEnd of nested hints\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path() / "p/src/components"),
            (Paths{"../../.goosehints", "../../docs/api.md", ".goosehints", "local_file.md",
                   "../utils/helpers.md", "../../shared_docs.md", "../../root_file.md"}));
}

// block/goose load_hints.rs: test_hints_without_git_import_boundary
TEST(GooseProfileTest, WithoutGitImportsStayInTheWorkingDirectory) {
  TempDir tmp;
  tmp.Write("parent.md", "Parent content");
  tmp.Write("current/local.md", "Local content");
  tmp.Write("current/.goosehints", "Current directory hints\n@local.md\n@../parent.md\nEnd\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path() / "current"), (Paths{".goosehints", "local.md"}));
}

// block/goose load_hints.rs: test_import_boundary_respects_nested_setting
TEST(GooseProfileTest, ASubdirectoryHintImportsFromTheGitRoot) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("root_file.md", "Root file content");
  tmp.Write("subdir/local_file.md", "Local file content");
  tmp.Write("subdir/.goosehints", "Subdir hints\n@local_file.md\n@../root_file.md\nEnd\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path() / "subdir"),
            (Paths{".goosehints", "local_file.md", "../root_file.md"}));
}

// block/goose load_hints.rs: test_global_agents_md_in_agents_home (global hints under the config
// dir, then ~/.agents/AGENTS.md)
TEST(GooseProfileTest, GlobalHintsFromTheConfigDirAndTheAgentsHome) {
  TempDir tmp;
  tmp.Write("home/.config/goose/.goosehints", "global hints");
  tmp.Write("home/.agents/AGENTS.md", "Global agents home instructions");
  fs::create_directories(tmp.path() / "project");
  EXPECT_EQ(Texts(ClientOptions(Client::kGoose, tmp.path() / "project", tmp.path() / "home")),
            (Paths{"global hints", "Global agents home instructions"}));
}

// block/goose load_hints.rs build_gitignore: imports ignored by .gitignore are not read.
TEST(GooseProfileTest, GitignoredImportIsNotRead) {
  TempDir tmp;
  ASSERT_EQ(std::system(("git init -q " + tmp.path().string()).c_str()), 0);
  tmp.Write(".gitignore", "secret.md\n");
  tmp.Write(".goosehints", "@secret.md\n@open.md\n");
  tmp.Write("secret.md", "ignored\n");
  tmp.Write("open.md", "open\n");
  EXPECT_EQ(Loaded(Client::kGoose, tmp.path()), (Paths{".goosehints", "open.md"}));
}

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
