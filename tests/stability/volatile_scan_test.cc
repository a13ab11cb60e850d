// volatile_scan_test.cc: the exact volatile shapes, and the head-band scan that reports them.
#include <gtest/gtest.h>

#include "bands/bands.h"
#include "stability/stability.h"
#include "targets/targets.h"

namespace strata {
namespace {

std::vector<std::string> Kinds(std::string_view text) {
  std::vector<std::string> kinds;
  for (const auto& m : ScanVolatileText(text)) kinds.push_back(m.kind + "=" + m.text);
  return kinds;
}

using V = std::vector<std::string>;

TEST(VolatileScanTest, TimestampsWithSecondsAreCaught) {
  EXPECT_EQ(Kinds("at 2026-10-07T12:30:00Z done"), V{"timestamp=2026-10-07T12:30:00Z"});
  EXPECT_EQ(Kinds("at 2026-10-07 12:30:00Z done"), V{"timestamp=2026-10-07 12:30:00Z"});
  EXPECT_EQ(Kinds("at 2026-10-07T12:30:00 done"), V{"timestamp=2026-10-07T12:30:00"});
}

TEST(VolatileScanTest, DateWithoutSecondsPasses) {
  EXPECT_EQ(Kinds("released 2026-10-07, meeting 12:30"), V{});
}

TEST(VolatileScanTest, Sha256DigestsAreCaught) {
  EXPECT_EQ(Kinds("image sha256:0123456789ab"), V{"digest=sha256:0123456789ab"});
  EXPECT_EQ(Kinds("sha256:0123456789a is short"), V{});
}

TEST(VolatileScanTest, MachinePathsAreCaught) {
  EXPECT_EQ(Kinds("see /home/alice/src/x"), V{"absolute-path=/home/alice/src/x"});
  EXPECT_EQ(Kinds("see /Users/bob/dev."), V{"absolute-path=/Users/bob/dev"});
  EXPECT_EQ(Kinds("see /Volumes/Disk/x"), V{"absolute-path=/Volumes/Disk/x"});
  EXPECT_EQ(Kinds("in /root/.cache"), V{"absolute-path=/root/.cache"});
  EXPECT_EQ(Kinds("in /tmp/build-1"), V{"absolute-path=/tmp/build-1"});
  EXPECT_EQ(Kinds("certs in /etc/ssl/certs"), V{"absolute-path=/etc/ssl/certs"});
  EXPECT_EQ(Kinds("at `/workspace/repo/src`"), V{"absolute-path=/workspace/repo/src"});
  EXPECT_EQ(Kinds("on C:\\work today"), V{"absolute-path=C:\\work"});
  EXPECT_EQ(Kinds("on D:/work today"), V{"absolute-path=D:/work"});
  EXPECT_EQ(Kinds("share \\\\host\\share now"), V{"absolute-path=\\\\host\\share"});
}

TEST(VolatileScanTest, RunAndBuildCountersAreCaught) {
  EXPECT_EQ(Kinds("this is run #7"), V{"run-counter=run #7"});
  EXPECT_EQ(Kinds("run_id: abc123"), V{"run-counter=run_id: abc123"});
  EXPECT_EQ(Kinds("build number 12"), V{"run-counter=build number 12"});
  EXPECT_EQ(Kinds("build #12 passed"), V{"run-counter=build #12"});
  EXPECT_EQ(Kinds("this is run # 7"), V{"run-counter=run # 7"});
  EXPECT_EQ(Kinds("build # 12 passed"), V{"run-counter=build # 12"});
  EXPECT_EQ(Kinds("ci run-id=1234"), V{"run-counter=run-id=1234"});
  EXPECT_EQ(Kinds("ci run_id=1234"), V{"run-counter=run_id=1234"});
  EXPECT_EQ(Kinds("Build no. 12"), V{"run-counter=Build no. 12"});
  EXPECT_EQ(Kinds("env build_number=12"), V{"run-counter=build_number=12"});
}

TEST(VolatileScanTest, HomePathsWithoutAFurtherComponentAreCaught) {
  EXPECT_EQ(Kinds("HOME=/home/kilian"), V{"absolute-path=/home/kilian"});
  EXPECT_EQ(Kinds("as /Users/me."), V{"absolute-path=/Users/me"});
  EXPECT_EQ(Kinds("on /Volumes/Data now"), V{"absolute-path=/Volumes/Data"});
  EXPECT_EQ(Kinds("the /home/ directory"), V{});
}

TEST(VolatileScanTest, ProseExamplesPass) {
  EXPECT_EQ(Kinds("retry count: 3"), V{});
  EXPECT_EQ(Kinds("Run: 2 passes"), V{});
  EXPECT_EQ(Kinds("pinned to commit 0123456789abcdef0123456789abcdef01234567"), V{});
  EXPECT_EQ(Kinds("scratch files go in /var/tmp when needed"), V{});
  EXPECT_EQ(Kinds("see https://example.com/home/user/page"), V{});
  EXPECT_EQ(Kinds("use the /tmp directory"), V{});
  EXPECT_EQ(Kinds("a ratio 3:2 and http://x.org/a/b"), V{});
  EXPECT_EQ(Kinds("build the project, then run the tests"), V{});
  EXPECT_EQ(Kinds("set the run id in CI"), V{});
}

TEST(StabilityTest, HeadBandFindingsCarryLineAndColumn) {
  auto banded = SplitBands(
      "<!-- strata:head -->\n# T\nBuilt at 2026-10-07T12:30:00Z.\n<!-- strata:tail -->\n"
      "Last run 2026-10-07T12:30:00Z.\n",
      MatchClientHeading);
  auto findings = ScanHeadBand(banded, "AGENTS.md");
  ASSERT_EQ(findings.size(), 1u);  // the tail is not cached first: not scanned
  EXPECT_EQ(FormatDiagnostic(findings[0]),
            "AGENTS.md:3:10: error: timestamp: 2026-10-07T12:30:00Z");
}

}  // namespace
}  // namespace strata
