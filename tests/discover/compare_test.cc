// compare_test.cc: CompareClients, every client's view of one directory side by side.
#include <gtest/gtest.h>

#include <algorithm>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using Paths = std::vector<std::string>;

// --compare: every client's column, with what each never sees and what it cuts.
TEST(CompareClientsTest, NotesWhatEachClientCutsAndNeverSees) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", std::string(32760, 'a') + "\n");
  tmp.Write("pkg/AGENTS.md", std::string(100, 'p'));
  Result<Comparison> c = CompareClients(tmp.path() / "pkg", {});
  ASSERT_TRUE(c);
  ASSERT_EQ(c->views.size(), 7u);
  EXPECT_EQ(c->files, (Paths{"../AGENTS.md", "AGENTS.md"}));
  const ClientView& claude = c->views[0];
  EXPECT_NE(std::find(claude.notes.begin(), claude.notes.end(), "AGENTS.md not read here"),
            claude.notes.end());
  const ClientView& codex = c->views[1];
  EXPECT_NE(std::find(codex.notes.begin(), codex.notes.end(), "AGENTS.md cut at byte 7 of 100"),
            codex.notes.end());
  EXPECT_EQ(EstimateTokens("12345"), 2u);
}

}  // namespace
}  // namespace strata
