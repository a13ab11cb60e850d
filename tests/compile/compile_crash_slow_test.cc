// compile_crash_slow_test.cc: `strata compile` killed with SIGKILL 30 times at random moments and
// 30 times inside its write window (a temporary half written, every file staged, one rename done):
// no target is ever torn (each is absent, the old generation or the new, digest intact), and the
// next compile leaves no temporary and a tree that --verify accepts.
#include <gtest/gtest.h>

#include "support/crash_harness.h"
#include "support/test_support.h"
#include "targets/generated_header.h"
#include "targets/targets.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string Source(int version) {
  std::string text =
      "<!-- strata:head -->\n# Project\n\nVersion " + std::to_string(version) + ".\n";
  for (int i = 0; i < 200; ++i) text += "Rule " + std::to_string(i) + " of the project.\n";
  return text + "<!-- strata:tail -->\nRun the tests.\n";
}

void ExpectWholeTargets(const fs::path& root, const std::string& when) {
  for (const auto& target : AllTargets()) {
    const fs::path path = root / target.path;
    if (!fs::exists(path) || std::string(target.path) == "AGENTS.md") continue;
    const std::string bytes = testing::ReadAll(path);
    EXPECT_TRUE(HasGeneratedHeader(bytes) && DigestMatches(bytes)) << when << ": torn " << path;
  }
}

void KillLoop(const std::vector<std::string>& crash_points, bool random_delay) {
  TempDir dir;
  dir.Write(".git/HEAD", "x\n");
  std::mt19937 rng(12345);
  for (int i = 0; i < 30; ++i) {
    dir.Write("AGENTS.md", Source(i));
    const std::string point = crash_points.empty() ? "" : crash_points[i % crash_points.size()];
    const long delay = random_delay ? static_cast<long>(rng() % 15000) : -1;
    testing::RunAndKill({"compile"}, dir.path(), point, delay);
    const std::string when = "run " + std::to_string(i) + " (" + point + ")";
    ExpectWholeTargets(dir.path(), when);
    int status = testing::RunAndKill({"compile"}, dir.path(), "", -1);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << when;
    EXPECT_EQ(testing::TemporariesBelow(dir.path()), std::vector<std::string>()) << when;
    status = testing::RunAndKill({"compile", "--verify"}, dir.path(), "", -1);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << when << ": not consistent";
  }
}

TEST(CompileCrashTest, KilledAtRandomMomentsNeverTearsATarget) { KillLoop({}, true); }

TEST(CompileCrashTest, KilledInsideTheWriteWindowIsRepairedByTheNextCompile) {
  KillLoop({"temp-half-written", "staged", "renamed-one"}, false);
}

}  // namespace
}  // namespace strata
