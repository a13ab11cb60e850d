// discover_edge_test.cc: token budgets, dangling links, the global file's import boundary, and the
// tracker's per-file budget.
#include <gtest/gtest.h>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

size_t CountWords(std::string_view s) {
  size_t n = 0;
  bool in_word = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\n';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

TEST(DiscoverEdgeTest, TokenBudgetCutsWithTheConfiguredCounter) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "one two three four five six seven eight\n");  // 8 words
  DiscoverOptions options;
  options.working_dir = tmp.path();
  options.budget.count_tokens = CountWords;
  options.budget.per_file_tokens = 4;
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->sources.size(), 1u);
  EXPECT_TRUE(d->sources[0].truncated);
  // Head and tail hold at most 4 words together, and the marker sits between them.
  const std::string& text = d->sources[0].content;
  size_t marker = text.find("[strata: AGENTS.md truncated:");
  ASSERT_NE(marker, std::string::npos);
  size_t marker_end = text.find('\n', marker);
  EXPECT_LE(CountWords(text.substr(0, marker)) + CountWords(text.substr(marker_end)), 4u);
  EXPECT_TRUE(text.starts_with("one two"));
  EXPECT_TRUE(text.ends_with("eight\n"));
}

TEST(DiscoverEdgeTest, DanglingSymlinkIsReportedAndSkipped) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("gone.md", tmp.path() / "AGENTS.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].kind, "dangling-symlink");
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

TEST(DiscoverEdgeTest, DirectoryNamedAgentsMdIsReportedAndSkipped) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_directories(tmp.path() / "AGENTS.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(d->diagnostics[0].kind, "not-a-file");
  EXPECT_EQ(d->diagnostics[0].message, "a directory, not an instruction file; skipped");
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

TEST(DiscoverEdgeTest, SymlinkToADeviceIsReportedAndSkipped) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("/dev/zero", tmp.path() / "CLAUDE.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 1u);
  EXPECT_EQ(d->diagnostics[0].kind, "not-a-file");
  EXPECT_EQ(d->diagnostics[0].message,
            "symlink to a device, FIFO or socket, not an instruction file; skipped");
  EXPECT_EQ(d->diagnostics[0].where.path, "CLAUDE.md");
}

TEST(DiscoverEdgeTest, SymlinkLoopIsReportedAsALoop) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  fs::create_symlink("CLAUDE.md", tmp.path() / "AGENTS.md");
  fs::create_symlink("AGENTS.md", tmp.path() / "CLAUDE.md");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->sources.empty());
  ASSERT_EQ(d->diagnostics.size(), 2u);
  for (const Diagnostic& x : d->diagnostics) {
    EXPECT_EQ(x.kind, "symlink-loop");
    EXPECT_NE(x.message.find("symlink loop"), std::string::npos) << x.message;
  }
  EXPECT_EQ(d->diagnostics[0].where.path, "AGENTS.md");
}

// The global file's imports stay inside its own directory, not the project.
TEST(DiscoverEdgeTest, GlobalFileImportsStayInsideItsDirectory) {
  TempDir tmp;
  tmp.Write("config/strata/AGENTS.md", "@style.md\n@../../proj/AGENTS.md\n");
  tmp.Write("config/strata/style.md", "style\n");
  fs::create_directories(tmp.path() / "proj/.git");
  tmp.Write("proj/AGENTS.md", "project\n");
  DiscoverOptions options;
  options.working_dir = tmp.path() / "proj";
  options.global_files = {tmp.path() / "config/strata/AGENTS.md"};
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->sources.size(), 3u);
  EXPECT_EQ(d->sources[0].origin, SourceOrigin::kGlobal);
  EXPECT_EQ(d->sources[1].content, "style\n");
  EXPECT_EQ(d->sources[2].display_path, "AGENTS.md");
  bool refused = false;
  for (const auto& x : d->diagnostics) refused = refused || x.kind == "import-outside-root";
  EXPECT_TRUE(refused);
}

TEST(DiscoverEdgeTest, TrackerAppliesThePerFileBudgetButNotTheTotal) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("deep/AGENTS.md", "0123456789");
  DiscoverOptions options;
  options.working_dir = tmp.path();
  options.budget.per_file_bytes = 6;
  options.budget.total_bytes = 5;  // spent by the root file already
  Result<Discovery> d = Discover(options);
  ASSERT_TRUE(d.has_value());
  SubdirectoryTracker tracker(options, *d);
  TouchResult t = tracker.Touch("deep/x.c");
  ASSERT_EQ(t.sources.size(), 1u);
  EXPECT_EQ(t.sources[0].content,
            "012\n[strata: deep/AGENTS.md truncated: 4 of 10 bytes cut]\n789");
}

TEST(DiscoverEdgeTest, WorkingDirectoryOutsideConfiguredRootIsRefused) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "a");
  fs::create_directories(tmp.path() / "b");
  DiscoverOptions options;
  options.working_dir = tmp.path() / "a";
  options.project_root = tmp.path() / "b";
  Result<Discovery> d = Discover(options);
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().kind, ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace strata
