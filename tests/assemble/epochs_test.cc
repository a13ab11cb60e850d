#include "assemble/epochs.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(EpochsTest, DiffListsOnlyChangedSourcesInKeyOrder) {
  SourceSnapshot before = {{"cwd", "/a"}, {"notes", "n"}, {"plan", "p"}};
  SourceSnapshot after = {{"cwd", "/b"}, {"notes", "n"}, {"skills", "s"}};
  auto changes = DiffSnapshots(before, after);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].key, "cwd");
  EXPECT_EQ(changes[0].kind, ChangeKind::kModified);
  EXPECT_EQ(changes[1].key, "plan");
  EXPECT_EQ(changes[1].kind, ChangeKind::kRemoved);
  EXPECT_EQ(changes[2].key, "skills");
  EXPECT_EQ(changes[2].kind, ChangeKind::kAdded);
}

TEST(EpochsTest, EqualSnapshotsCostNothing) {
  SourceSnapshot s = {{"cwd", "/a"}, {"instructions:AGENTS.md", "text"}};
  EXPECT_TRUE(DiffSnapshots(s, s).empty());
}

TEST(EpochsTest, UnifiedDiffShowsTheChangedLineWithOneLineOfContext) {
  std::string before = "one\ntwo\nthree\nfour\nfive\n";
  std::string after = "one\ntwo\nTHREE\nfour\nfive\n";
  EXPECT_EQ(UnifiedLineDiff(before, after), "@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n");
}

TEST(EpochsTest, UnifiedDiffOfAnAppendedLine) {
  EXPECT_EQ(UnifiedLineDiff("a\nb\n", "a\nb\nc\n"), "@@ -2,1 +2,2 @@\n b\n+c\n");
}

TEST(EpochsTest, UnifiedDiffOfAMovedLineIsOneRemovalAndOneAddition) {
  // The longest common run is "b", "c": the moved "a" leaves the top and arrives at the bottom;
  // the two changes are two lines apart, so one line of context on each side joins them.
  EXPECT_EQ(UnifiedLineDiff("a\nb\nc\n", "b\nc\na\n"), "@@ -1,3 +1,3 @@\n-a\n b\n c\n+a\n");
}

TEST(EpochsTest, UnifiedDiffRemovesBeforeItAddsAndSplitsDistantHunks) {
  EXPECT_EQ(UnifiedLineDiff("1\nx\n3\n4\n5\n6\ny\n8\n", "1\nX\n3\n4\n5\n6\nY\n8\n"),
            "@@ -1,3 +1,3 @@\n 1\n-x\n+X\n 3\n@@ -6,3 +6,3 @@\n 6\n-y\n+Y\n 8\n");
}

TEST(EpochsTest, UnifiedDiffOfAHugeMiddleIsAllRemovedThenAllAdded) {
  std::string before = "keep\n", after = "keep\n";
  for (int i = 0; i < 4001; ++i) {
    before += "old" + std::to_string(i) + "\n";
    after += "new" + std::to_string(i) + "\n";
  }
  std::string diff = UnifiedLineDiff(before, after);
  EXPECT_EQ(diff.substr(0, diff.find('\n')), "@@ -1,4002 +1,4002 @@");
  EXPECT_EQ(diff.find("-old4000\n+new0\n") != std::string::npos, true);
}

TEST(EpochsTest, NoticeNamesEachChangeAndHoldsTheDiff) {
  std::vector<SourceChange> changes = {{"cwd", ChangeKind::kModified, "/a", "/b"},
                                       {"tool:deploy", ChangeKind::kAdded, "", "{\"name\":1}"},
                                       {"notes", ChangeKind::kRemoved, "x", ""}};
  EXPECT_EQ(RenderContextUpdate(changes, 2),
            "<context-update epoch=\"2\">\n"
            "These sources changed since they were last shown; the new text replaces the old.\n"
            "## cwd (modified)\n@@ -1,1 +1,1 @@\n-/a\n+/b\n"
            "## tool:deploy (added)\n{\"name\":1}\n"
            "## notes (removed)\n"
            "</context-update>");
}

}  // namespace
}  // namespace strata
