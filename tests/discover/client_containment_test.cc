// Client-emulation discovery (`discover --client`, `--compare`) under the same containment as
// default discovery: a .claude/rules file or directory linked out of the project root is refused
// with a warning, and the project root is the git root, as in default mode.
#include <gtest/gtest.h>

#include <filesystem>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// tmp/repo is a git checkout (a .git with HEAD); tmp/outside holds rules that are not the repo's.
struct Repo {
  TempDir tmp;
  fs::path repo;
  Repo() {
    tmp.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
    tmp.Write("repo/CLAUDE.md", "repo memory\n");
    tmp.Write("outside/rules/secret.md", "outside text\n");
    repo = fs::canonical(tmp.path() / "repo");
  }
};

bool LoadsText(const Discovery& d, std::string_view text) {
  for (const auto& s : d.sources) {
    if (s.content.find(text) != std::string::npos) return true;
  }
  return false;
}

bool Warns(const Discovery& d, std::string_view kind) {
  for (const auto& diag : d.diagnostics) {
    if (diag.kind == kind && diag.severity == Severity::kWarning) return true;
  }
  return false;
}

TEST(ClientContainmentTest, ClaudeRulesDirectoryLinkedOutOfTheRootIsRefused) {
  Repo r;
  fs::create_directories(r.repo / ".claude");
  fs::create_directory_symlink(r.tmp.path() / "outside/rules", r.repo / ".claude/rules");
  Result<Discovery> d = Discover(ClientOptions(Client::kClaudeCode, r.repo, {}));
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(LoadsText(*d, "repo memory"));
  EXPECT_FALSE(LoadsText(*d, "outside text"));
  EXPECT_TRUE(Warns(*d, "outside-root"));
  EXPECT_EQ(d->project_root, r.repo);
  EXPECT_EQ(d->root_marker, ".git");
}

TEST(ClientContainmentTest, ClaudeRuleFileLinkedOutOfTheRootIsRefused) {
  Repo r;
  fs::create_directories(r.repo / ".claude/rules");
  fs::create_symlink(r.tmp.path() / "outside/rules/secret.md", r.repo / ".claude/rules/a.md");
  Result<Discovery> d = Discover(ClientOptions(Client::kClaudeCode, r.repo, {}));
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_FALSE(LoadsText(*d, "outside text"));
  EXPECT_TRUE(Warns(*d, "outside-root"));
}

TEST(ClientContainmentTest, CompareRefusesTheLinkForEveryClient) {
  Repo r;
  fs::create_directories(r.repo / ".claude");
  fs::create_directory_symlink(r.tmp.path() / "outside/rules", r.repo / ".claude/rules");
  Result<Comparison> c = CompareClients(r.repo, {});
  ASSERT_TRUE(c) << c.error().message;
  for (const ClientView& view : c->views) {
    EXPECT_FALSE(LoadsText(view.discovery, "outside text")) << ClientName(view.client);
    EXPECT_EQ(view.discovery.project_root, r.repo) << ClientName(view.client);
  }
}

// Claude Code still reads CLAUDE.md in the ancestors above the repository (its memory walk).
TEST(ClientContainmentTest, ClaudeMdAboveTheRootStillLoads) {
  Repo r;
  r.tmp.Write("CLAUDE.md", "parent memory\n");
  Result<Discovery> d = Discover(ClientOptions(Client::kClaudeCode, r.repo, {}));
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_GE(d->sources.size(), 2u);
  EXPECT_EQ(d->sources[0].content, "parent memory\n");  // ancestors first, root down
  EXPECT_TRUE(LoadsText(*d, "repo memory"));
  EXPECT_EQ(d->project_root, r.repo);
}

}  // namespace
}  // namespace strata
