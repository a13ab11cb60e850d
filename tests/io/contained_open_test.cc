// contained_open_test.cc: the containment primitive, with openat2 and with the O_NOFOLLOW walk:
// inside paths and inside symlinks open, every way out is refused (absolute and relative links,
// `..`, /proc), FIFOs are refused without blocking, the allow options open what they name; and
// the flip race: a thread swapping a link between an inside and an outside file while discover
// and compile run many times never lets an outside byte through.
#include "io/contained_open.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "strata/compile.h"
#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

class ContainedOpenTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    UseOpenat2ForTesting(GetParam());
    root_ = fs::canonical(tmp_.path()) / "root";
    outside_ = fs::canonical(tmp_.path()) / "outside";
    tmp_.Write("root/AGENTS.md", "inside\n");
    tmp_.Write("root/docs/a.md", "doc\n");
    tmp_.Write("outside/secret.md", "SECRET\n");
  }
  void TearDown() override { UseOpenat2ForTesting(true); }

  OpenFailure Open(const fs::path& path, const OutsideRootAccess& access = {}) {
    return OpenContained(root_, path, OpenIntent::kRegularFile, access).failure;
  }

  TempDir tmp_;
  fs::path root_, outside_;
};

TEST_P(ContainedOpenTest, InsideFilesAndInsideSymlinksOpen) {
  fs::create_symlink("docs/a.md", root_ / "rel.md");
  fs::create_symlink(root_ / "docs/a.md", root_ / "abs.md");  // absolute, but inside
  fs::create_directory_symlink("docs", root_ / "d");
  EXPECT_EQ(Open("AGENTS.md"), OpenFailure::kNone);
  EXPECT_EQ(Open(root_ / "docs/a.md"), OpenFailure::kNone);
  EXPECT_EQ(Open("rel.md"), OpenFailure::kNone);
  EXPECT_EQ(Open("abs.md"), OpenFailure::kNone);
  EXPECT_EQ(Open("d/a.md"), OpenFailure::kNone);
  EXPECT_EQ(Open("docs/../AGENTS.md"), OpenFailure::kNone);
  EXPECT_EQ(Open("missing.md"), OpenFailure::kMissing);
}

TEST_P(ContainedOpenTest, EveryWayOutIsRefused) {
  fs::create_symlink(outside_ / "secret.md", root_ / "CLAUDE.md");
  fs::create_symlink("../outside/secret.md", root_ / "up.md");
  fs::create_symlink("/proc/self/status", root_ / "proc.md");
  fs::create_directory_symlink(outside_, root_ / ".github");
  EXPECT_EQ(Open("CLAUDE.md"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open("up.md"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open("proc.md"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open(".github/secret.md"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open("../outside/secret.md"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open("/etc/hostname"), OpenFailure::kOutsideRoot);
  EXPECT_EQ(Open(".github/missing.md"), OpenFailure::kOutsideRoot);  // not "missing": never looked
}

TEST_P(ContainedOpenTest, AllowOptionsOpenWhatTheyName) {
  fs::create_symlink(outside_ / "secret.md", root_ / "CLAUDE.md");
  EXPECT_EQ(Open("CLAUDE.md", {true, {}}), OpenFailure::kNone);
  EXPECT_EQ(Open("CLAUDE.md", {false, {outside_}}), OpenFailure::kNone);
  EXPECT_EQ(Open("CLAUDE.md", {false, {root_ / "docs"}}), OpenFailure::kOutsideRoot);
}

TEST_P(ContainedOpenTest, FifoAndDirectoryAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo((root_ / "fifo.md").c_str(), 0644), 0);
  EXPECT_EQ(Open("fifo.md"), OpenFailure::kNotRegular);
  EXPECT_EQ(Open("docs"), OpenFailure::kNotRegular);
  EXPECT_TRUE(OpenContained(root_, "docs", OpenIntent::kDirectory).ok());
}

TEST_P(ContainedOpenTest, RefusalMessageNamesTheAllowOptions) {
  std::string message = OutsideRootMessage("CLAUDE.md", root_);
  EXPECT_NE(message.find("--allow-outside-root"), std::string::npos) << message;
  EXPECT_NE(message.find("--allow-dir"), std::string::npos) << message;
}

// A thread replaces `link` (atomically, by rename) with a symlink to the inside file, then to the
// outside one, as fast as it can, until `stop`.
void Flip(const fs::path& link, const fs::path& inside, const fs::path& outside,
          const std::atomic<bool>& stop) {
  const fs::path staging = link.parent_path() / ".flip-staging";
  for (bool out = false; !stop.load(); out = !out) {
    std::error_code ec;
    fs::remove(staging, ec);
    fs::create_symlink(out ? outside : inside, staging, ec);
    fs::rename(staging, link, ec);
  }
}

TEST_P(ContainedOpenTest, FlipRaceNeverLetsAnOutsideByteThrough) {
  tmp_.Write("root/.git/HEAD", "ref: refs/heads/main\n");
  tmp_.Write("root/inside.md", "inside text\n");
  tmp_.Write("root/AGENTS.md", "# P\n\n@./flip.md\n");
  fs::create_symlink("inside.md", root_ / "flip.md");
  std::atomic<bool> stop{false};
  std::thread flipper(Flip, root_ / "flip.md", root_ / "inside.md", outside_ / "secret.md",
                      std::cref(stop));
  int discovered = 0, compiled = 0, outside = 0;
  for (int i = 0; i < 300; ++i) {
    DiscoverOptions options;
    options.working_dir = root_;
    Result<Discovery> d = Discover(options);
    if (d) {
      for (const Source& s : d->sources) outside += s.content.find("SECRET") != std::string::npos;
      ++discovered;
    }
    CompileOptions compile;
    compile.root = root_;
    compile.targets = {"claude-code"};
    if (Result<CompileReport> r = Compile(compile); r.has_value()) ++compiled;
    std::error_code ec;
    if (fs::exists(root_ / "CLAUDE.md", ec)) {
      outside += testing::ReadAll(root_ / "CLAUDE.md").find("SECRET") != std::string::npos;
    }
  }
  stop = true;
  flipper.join();
  EXPECT_EQ(outside, 0);
  EXPECT_EQ(discovered, 300);
  EXPECT_GT(compiled, 0);
}

INSTANTIATE_TEST_SUITE_P(Openat2AndWalk, ContainedOpenTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "openat2" : "walk"; });

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// PathWithin compares normal spellings as strings and everything else component by component;
// both must give the lexical answer.
TEST(PathWithinTest, StringFastPathAndComponentPathAgree) {
  struct Case {
    const char* path;
    const char* dir;
    bool within;
  };
  const Case cases[] = {
      {"/a/b/c", "/a/b", true},     {"/a/b", "/a/b", true},       {"/a/b/", "/a/b", true},
      {"/a/b", "/a/b/", true},      {"/a/bc", "/a/b", false},     {"/a", "/a/b", false},
      {"/x/y", "/", true},          {"/a/b/../c", "/a/b", false}, {"/a/b/./c", "/a/b", true},
      {"/a//b/c", "/a/b", true},    {"/a/b/c/..", "/a/b", true},  {"a/b", "a", true},
      {"ab", "a", false},           {"a/b", "/a", false},         {"/a/b", "a", false},
      {"/a/../../a/b", "/a", true},  // the lexical ".." above "/" stays at "/"
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PathWithin(c.path, c.dir), c.within) << c.path << " within " << c.dir;
  }
}

}  // namespace
}  // namespace strata
