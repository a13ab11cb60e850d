// compile_watch_cli_test.cc: `--target a,b`, `--verify --diff`, and `compile --watch`
// recompiling after the source changes (bounded: --watch-limit 1, and the test gives up waiting
// after 20 s).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::RunCli;
using testing::TempDir;

TEST(CompileWatchCliTest, CommaSeparatedTargetListCompilesExactlyThose) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  auto r = RunCli({"compile", "--target", "claude-code,goose"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir.path() / "CLAUDE.md"));
  EXPECT_TRUE(fs::exists(dir.path() / ".goosehints"));
  EXPECT_FALSE(fs::exists(dir.path() / "GEMINI.md"));
  EXPECT_EQ(RunCli({"compile", "--target", "claude-code,emacs"}, dir.path()).exit_code, 2);
}

TEST(CompileWatchCliTest, VerifyDiffPrintsTheChangedLines) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\nold line\n");
  ASSERT_EQ(RunCli({"compile", "--target", "claude-code"}, dir.path()).exit_code, 0);
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\nnew line\n");
  auto r = RunCli({"compile", "--verify", "--diff", "--target", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--- a/CLAUDE.md\n+++ b/CLAUDE.md\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n-old line\n+new line\n"), std::string::npos) << r.out;
}

TEST(CompileWatchCliTest, WatchRecompilesAfterTheSourceChanges) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# First\n");
  auto run = std::async(std::launch::async, [&dir] {
    return RunCli({"compile", "--watch", "--watch-limit", "1", "--watch-timeout-ms", "20000",
                   "--target", "claude-code"},
                  dir.path());
  });
  const fs::path claude = dir.path() / "CLAUDE.md";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!fs::exists(claude) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(fs::exists(claude)) << "the first compile never ran";
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Second\n");
  // A watcher that missed the change would never exit: keep writing until it does or we give up.
  while (run.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready &&
         std::chrono::steady_clock::now() < deadline) {
    dir.Write("AGENTS.md", "<!-- strata:head -->\n# Second\n");
  }
  ASSERT_EQ(run.wait_for(std::chrono::seconds(0)), std::future_status::ready)
      << "watch did not recompile within 20 s";
  auto r = run.get();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("change detected: recompiling AGENTS.md"), std::string::npos) << r.out;
  EXPECT_NE(ReadAll(claude).find("# Second"), std::string::npos);
}

}  // namespace
}  // namespace strata
