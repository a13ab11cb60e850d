// move_aside_test.cc: an always-applied file `strata adopt --from` merged at another path than its
// client's compiled file still loads beside it: adopt names it, `strata audit` reports the double
// load while it is there, and MoveAdoptedAside (`adopt --remove-adopted`) moves it, never deleting
// or replacing a file.
#include <gtest/gtest.h>

#include <filesystem>

#include "strata/compile.h"
#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::TempDir;

// Claude Code's and Codex's files, Cursor's always-applied base.mdc (at another path than
// strata.mdc, where compile writes Cursor's text) and a scoped web.mdc (compiled back in place).
const char kBase[] =
    "---\ndescription: Always\nalwaysApply: true\n---\n# Kiln\n\nKiln bakes static sites.\n\n"
    "## Cursor\n\nOpen the preview pane before editing templates.\n";
const char kWeb[] =
    "---\ndescription: Templates\nglobs: templates/**\nalwaysApply: false\n---\n# Templates\n\n"
    "Escape every variable.\n";

void WriteRepo(const TempDir& dir) {
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("CLAUDE.md", "# Kiln\n\nKiln bakes static sites.\n\n## Claude\n\nUse the Task tool.\n");
  dir.Write("AGENTS.md", "# Kiln\n\nKiln bakes static sites.\n\n## Codex\n\nRun `make check`.\n");
  dir.Write(".cursor/rules/base.mdc", kBase);
  dir.Write(".cursor/rules/web.mdc", kWeb);
}

const std::vector<std::string> kFiles = {"CLAUDE.md", "AGENTS.md", ".cursor/rules/base.mdc",
                                         ".cursor/rules/web.mdc"};

std::vector<Diagnostic> DoubleLoadsAt(const fs::path& root) {
  CompareOptions compare;
  compare.read_settings = false;
  Result<Comparison> c = CompareClientsWith(root, compare);
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? DoubleLoads(*c) : std::vector<Diagnostic>{};
}

// Compiles (replacing the adopted files) or, with !write, verifies: either must succeed.
void ExpectCompiles(const fs::path& root, bool write) {
  CompileOptions options;
  options.root = root;
  options.force = true;
  options.write = write;
  auto report = Compile(options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok);
}

TEST(MoveAsideTest, AdoptNamesExactlyTheFilesThatStillLoadBesideTheCompiledOutput) {
  TempDir dir;
  WriteRepo(dir);
  auto adopted = AdoptFrom(dir.path(), kFiles, false);
  ASSERT_TRUE(adopted) << adopted.error().message;
  ASSERT_EQ(adopted->files.size(), 4u);
  // CLAUDE.md and AGENTS.md are rewritten in place by compile, web.mdc is a rule source compiled
  // back to its own path; base.mdc is at neither: Cursor keeps loading it.
  EXPECT_FALSE(adopted->files[0].loads_beside);
  EXPECT_FALSE(adopted->files[1].loads_beside);
  EXPECT_TRUE(adopted->files[2].loads_beside);
  EXPECT_FALSE(adopted->files[3].loads_beside);
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/base.mdc"), kBase);  // adopt itself moves nothing
}

TEST(MoveAsideTest, AuditReportsTheAdoptedFileUntilItIsMovedAsideAndTheTextIsKept) {
  TempDir dir;
  WriteRepo(dir);
  auto adopted = AdoptFrom(dir.path(), kFiles, false);
  ASSERT_TRUE(adopted) << adopted.error().message;
  ExpectCompiles(dir.path(), true);
  // Cursor loads base.mdc and the compiled AGENTS.md / strata.mdc holding the same text.
  std::vector<Diagnostic> found = DoubleLoadsAt(dir.path());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, "double-load");
  EXPECT_EQ(found[0].where.path, ".cursor/rules/base.mdc");
  EXPECT_EQ(found[0].message.rfind("cursor loads ", 0), 0u) << found[0].message;
  EXPECT_NE(found[0].message.find("--remove-adopted"), std::string::npos) << found[0].message;

  ASSERT_TRUE(MoveAdoptedAside(dir.path(), &*adopted));
  EXPECT_EQ(adopted->files[2].moved_to, ".strata/adopted/.cursor/rules/base.mdc.adopted");
  EXPECT_FALSE(fs::exists(dir.path() / ".cursor/rules/base.mdc"));
  EXPECT_EQ(ReadAll(dir.path() / ".strata/adopted/.cursor/rules/base.mdc.adopted"), kBase);
  for (std::size_t i : {0, 1, 3}) EXPECT_TRUE(adopted->files[i].moved_to.empty()) << i;
  EXPECT_TRUE(fs::exists(dir.path() / ".cursor/rules/web.mdc"));
  EXPECT_TRUE(DoubleLoadsAt(dir.path()).empty());
  // The compiled files are untouched by the move: a verify finds them current.
  ExpectCompiles(dir.path(), false);
}

// The repository with a second always-applied rule, other.mdc, adopted with the others: base.mdc
// (files[2]) and other.mdc (files[4]) both still load beside the compiled output.
const char kOther[] =
    "---\nalwaysApply: true\n---\n# Kiln\n\nKiln bakes static sites.\n\nLint with ruff.\n";
Result<AdoptFromReport> AdoptWithOther(const TempDir& dir) {
  WriteRepo(dir);
  dir.Write(".cursor/rules/other.mdc", kOther);
  std::vector<std::string> files = kFiles;
  files.push_back(".cursor/rules/other.mdc");
  return AdoptFrom(dir.path(), files, false);
}

TEST(MoveAsideTest, AnOccupiedDestinationMovesNothingAndReplacesNothing) {
  TempDir dir;
  auto adopted = AdoptWithOther(dir);
  ASSERT_TRUE(adopted) << adopted.error().message;
  ASSERT_TRUE(adopted->files[2].loads_beside && adopted->files[4].loads_beside);
  dir.Write(".strata/adopted/.cursor/rules/other.mdc.adopted", "an earlier move\n");
  Status moved = MoveAdoptedAside(dir.path(), &*adopted);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(moved.error().where.path, ".strata/adopted/.cursor/rules/other.mdc.adopted");
  // All or nothing: base.mdc, whose destination was free, stays too.
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/base.mdc"), kBase);
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/other.mdc"), kOther);
  EXPECT_EQ(ReadAll(dir.path() / ".strata/adopted/.cursor/rules/other.mdc.adopted"),
            "an earlier move\n");
  EXPECT_FALSE(fs::exists(dir.path() / ".strata/adopted/.cursor/rules/base.mdc.adopted"));
  for (const auto& f : adopted->files) EXPECT_TRUE(f.moved_to.empty()) << f.path;
}

// A rename that fails after others succeeded moves those back: the tree is as before the call.
// The failure is real, not injected: the report names base.mdc twice, so both moves are planned
// while it is in place, and the second one finds it gone.
TEST(MoveAsideTest, AMoveFailingHalfwayMovesTheEarlierOnesBack) {
  TempDir dir;
  auto adopted = AdoptWithOther(dir);
  ASSERT_TRUE(adopted) << adopted.error().message;
  ASSERT_TRUE(adopted->files[2].loads_beside && adopted->files[4].loads_beside);
  adopted->files.push_back(adopted->files[2]);  // base.mdc again, after other.mdc
  Status moved = MoveAdoptedAside(dir.path(), &*adopted);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kIo);
  EXPECT_EQ(moved.error().where.path, ".cursor/rules/base.mdc");
  EXPECT_NE(moved.error().message.find("moved back"), std::string::npos) << moved.error().message;
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/base.mdc"), kBase);
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/other.mdc"), kOther);
  EXPECT_FALSE(fs::exists(dir.path() / ".strata/adopted/.cursor/rules/base.mdc.adopted"));
  EXPECT_FALSE(fs::exists(dir.path() / ".strata/adopted/.cursor/rules/other.mdc.adopted"));
  for (const auto& f : adopted->files) EXPECT_TRUE(f.moved_to.empty()) << f.path;
}

TEST(MoveAsideTest, ADirectoryLinkedOutsideTheRootIsRefused) {
  TempDir outside;
  TempDir dir;
  WriteRepo(dir);
  auto adopted = AdoptFrom(dir.path(), kFiles, false);
  ASSERT_TRUE(adopted) << adopted.error().message;
  fs::create_directories(dir.path() / ".strata");
  fs::create_directory_symlink(outside.path(), dir.path() / ".strata/adopted");
  Status moved = MoveAdoptedAside(dir.path(), &*adopted);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(ReadAll(dir.path() / ".cursor/rules/base.mdc"), kBase);
  EXPECT_TRUE(fs::is_empty(outside.path()));
}

}  // namespace
}  // namespace strata
