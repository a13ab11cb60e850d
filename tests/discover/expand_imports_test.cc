// expand_imports_test.cc: a single file with its imports inlined (for `strata compile`).
#include <gtest/gtest.h>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(ExpandImportsTest, ImportLineBecomesTheImportedText) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "# Rules\n@parts/a.md\nend\n");
  tmp.Write("parts/a.md", "part a\n@b.md\n");
  tmp.Write("parts/b.md", "part b\n");
  Result<ExpandedText> e = ExpandImports(tmp.path() / "AGENTS.md", DiscoverOptions{});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->text, "# Rules\npart a\npart b\nend\n");
  ASSERT_EQ(e->imported.size(), 2u);
  EXPECT_EQ(e->imported[0].display_path, "parts/a.md");
  EXPECT_EQ(e->imported[1].imported_by, "parts/a.md");
}

// Input 5a for compile: sub/CLAUDE.md holding only `@../AGENTS.md` expands to the root text.
TEST(ExpandImportsTest, ImportOnlyFileExpandsToItsTarget) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root rules\n");
  tmp.Write("sub/CLAUDE.md", "@../AGENTS.md\n");
  Result<ExpandedText> e = ExpandImports(tmp.path() / "sub/CLAUDE.md", DiscoverOptions{});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->text, "root rules\n");
}

TEST(ExpandImportsTest, CyclesAndRefusalsKeepTheTokenAndReport) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("A.md", "a @B.md\n");
  tmp.Write("B.md", "b @A.md @gone.md\n");
  Result<ExpandedText> e = ExpandImports(tmp.path() / "A.md", DiscoverOptions{});
  ASSERT_TRUE(e.has_value());
  // Issue 12: a mid-line import keeps its line; the imported text follows it as a block.
  EXPECT_EQ(e->text, "a @B.md\n\nb @A.md @gone.md\n");
  int cycles = 0, missing = 0;
  for (const auto& d : e->diagnostics) {
    cycles += d.kind == "import-cycle";
    missing += d.kind == "import-missing";
  }
  EXPECT_EQ(cycles, 1);
  EXPECT_EQ(missing, 1);
}

TEST(ExpandImportsTest, MissingFileIsNotFound) {
  TempDir tmp;
  Result<ExpandedText> e = ExpandImports(tmp.path() / "none.md", DiscoverOptions{});
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().kind, ErrorKind::kNotFound);
}

// Issue 12: an import inside a sentence or list item keeps its line whole; the imported text
// follows the line as its own block (it was pasted into the middle of the line).
TEST(ExpandImportsTest, MidLineImportKeepsTheLineAndFollowsItAsABlock) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "# Steps\n\n1. Read @a.md before starting.\n2. Then @b.md and @a.md.\n");
  tmp.Write("a.md", "# A\nbody\n");
  tmp.Write("b.md", "b text\n");
  Result<ExpandedText> e = ExpandImports(tmp.path() / "AGENTS.md", DiscoverOptions{});
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->text,
            "# Steps\n\n"
            "1. Read @a.md before starting.\n"
            "\n# A\nbody\n"
            "\n"
            "2. Then @b.md and @a.md.\n"
            "\nb text\n");
}

}  // namespace
}  // namespace strata
