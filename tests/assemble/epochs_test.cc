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
