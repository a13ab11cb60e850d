// subdirectory_tracker_test.cc: nested files delivered once, when their subtree is touched.
#include <gtest/gtest.h>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> Paths(const std::vector<Source>& sources) {
  std::vector<std::string> out;
  for (const auto& s : sources) out.push_back(s.display_path);
  return out;
}

// Input 3: root CLAUDE.md -> AGENTS.md, tests/AGENTS.md alone.
TEST(SubdirectoryTrackerTest, SymlinkedRootLoadsOnceAndNestedFileArrivesOnTouch) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root rules\n");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  tmp.Write("tests/AGENTS.md", "test rules\n");
  tmp.Write("tests/test_x.py", "pass\n");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(Paths(d->sources), std::vector<std::string>{"AGENTS.md"});

  SubdirectoryTracker tracker(options, *d);
  TouchResult first = tracker.Touch("tests/test_x.py");
  ASSERT_EQ(Paths(first.sources), std::vector<std::string>{"tests/AGENTS.md"});
  EXPECT_EQ(first.sources[0].origin, SourceOrigin::kNested);
  EXPECT_EQ(first.sources[0].content, "test rules\n");
  EXPECT_TRUE(tracker.Touch("tests").sources.empty());
  EXPECT_TRUE(tracker.Touch(tmp.path() / "tests/new_dir/new_file.py").sources.empty());
  EXPECT_TRUE(tracker.Touch("README.md").sources.empty());
}

TEST(SubdirectoryTrackerTest, DeepTouchDeliversEveryNewLevelRootFirstWithImports) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("a/AGENTS.md", "a\n@notes.md\n");
  tmp.Write("a/notes.md", "notes\n");
  tmp.Write("a/b/c/GEMINI.md", "c\n");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  SubdirectoryTracker tracker(options, *d);
  TouchResult touched = tracker.Touch("a/b/c/file.txt");
  EXPECT_EQ(Paths(touched.sources),
            (std::vector<std::string>{"a/AGENTS.md", "a/notes.md", "a/b/c/GEMINI.md"}));
  EXPECT_EQ(touched.sources[1].origin, SourceOrigin::kImport);
}

TEST(SubdirectoryTrackerTest, PathsOutsideTheProjectDeliverNothing) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "proj/.git");
  tmp.Write("other/AGENTS.md", "not ours\n");
  DiscoverOptions options;
  options.working_dir = tmp.path() / "proj";
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  SubdirectoryTracker tracker(options, *d);
  EXPECT_TRUE(tracker.Touch(tmp.path() / "other/x.py").sources.empty());
  EXPECT_TRUE(tracker.Touch("../other").sources.empty());
}

TEST(SubdirectoryTrackerTest, DiscoverAllListsNestedFilesInSortedDepthFirstOrder) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git/hooks");
  tmp.Write(".git/hooks/AGENTS.md", "never: inside .git\n");
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("b/AGENTS.md", "b\n");
  tmp.Write("a/z/AGENTS.md", "az\n");
  tmp.Write("a/AGENTS.md", "a\n");
  tmp.Write("c/CLAUDE.md", "c\n");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = DiscoverAll(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(Paths(d->sources),
            (std::vector<std::string>{"AGENTS.md", "a/AGENTS.md", "a/z/AGENTS.md", "b/AGENTS.md",
                                      "c/CLAUDE.md"}));
}

}  // namespace
}  // namespace strata
