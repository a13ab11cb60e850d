// file_identity_test.cc: device+inode identity, and the canonical-path fallback for inode 0.
#include "discover/file_identity.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata::discover {
namespace {

namespace fs = std::filesystem;

TEST(FileIdentityTest, SymlinkAndTargetShareAnIdentity) {
  strata::testing::TempDir tmp;
  tmp.Write("AGENTS.md", "x");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  IdentitySet set;
  set.Insert(*IdentityOf(tmp.path() / "AGENTS.md"), "AGENTS.md");
  const std::string* found = set.Find(*IdentityOf(tmp.path() / "CLAUDE.md"));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(*found, "AGENTS.md");
}

// A filesystem reporting inode 0 for everything: the canonical path tells files apart.
TEST(FileIdentityTest, InodeZeroFallsBackToCanonicalPath) {
  strata::testing::TempDir tmp;
  tmp.Write("AGENTS.md", "x");
  tmp.Write("OTHER.md", "y");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  IdentitySet set;
  set.Insert(MakeIdentity(7, 0, tmp.path() / "AGENTS.md"), "AGENTS.md");
  EXPECT_NE(set.Find(MakeIdentity(7, 0, tmp.path() / "CLAUDE.md")), nullptr);
  EXPECT_EQ(set.Find(MakeIdentity(7, 0, tmp.path() / "OTHER.md")), nullptr);
  EXPECT_EQ(set.Find(MakeIdentity(7, 5, tmp.path() / "AGENTS.md")), nullptr);
}

}  // namespace
}  // namespace strata::discover
