// client_profiles_codex_test.cc: the Codex profile on the scenarios of its own tests.
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

}  // namespace
}  // namespace strata
