// client_profiles_goose_test.cc: the Goose profile on the scenarios of its own tests.
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

}  // namespace
}  // namespace strata
