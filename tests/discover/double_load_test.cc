// `strata audit`'s double-load check: a client profile that loads a generated copy beside its
// source, or two files with the same text, is reported.
#include <gtest/gtest.h>

#include <filesystem>

#include "strata/compile.h"
#include "strata/discover.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<Diagnostic> DoubleLoadsIn(const fs::path& dir) {
  Result<Comparison> c = CompareClients(dir, {});
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? DoubleLoads(*c) : std::vector<Diagnostic>{};
}

TEST(DoubleLoadTest, GooseLoadingAgentsMdAndItsGeneratedCopyIsReported) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Project\n\nInvariants.\n");
  CompileOptions options;
  options.root = dir.path();
  options.targets = {"goose"};  // named: written although Goose reads AGENTS.md
  ASSERT_TRUE(Compile(options));
  std::vector<Diagnostic> found = DoubleLoadsIn(dir.path());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, "double-load");
  EXPECT_EQ(found[0].where.path, ".goosehints");
  EXPECT_EQ(found[0].message.rfind("goose loads AGENTS.md and .goosehints", 0), 0u)
      << found[0].message;
}

TEST(DoubleLoadTest, HandCopyWithTheSameTextIsReported) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("AGENTS.md", "Use tabs.\n");
  dir.Write(".goosehints", "Use tabs.\n");
  std::vector<Diagnostic> found = DoubleLoadsIn(dir.path());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("(the same text)"), std::string::npos);
}

// A source no client reads (strata.md, as adopt writes when the clients' texts differ) compiled
// to AGENTS.md for Codex and to .github/copilot-instructions.md: Copilot reads both. A plain
// compile gives Copilot's file only its own section (no shared text: not reported); the full copy
// --target asks for carries the shared head band a second time, which is reported.
TEST(DoubleLoadTest, TwoFilesCompiledFromOneSourceAreReportedWhenTheyShareText) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("strata.md",
            "<!-- strata:head -->\n# Project\n\nInvariants.\n\n<!-- strata:config -->\n"
            "<!-- strata:for copilot -->\nCopilot only.\n<!-- strata:end-for -->\n");
  dir.Write("strata.toml", "source = \"strata.md\"\ntargets = [\"codex\", \"copilot\"]\n");
  CompileOptions options;
  options.root = dir.path();
  auto copilot_reported = [&] {
    bool copilot = false;
    for (const Diagnostic& d : DoubleLoadsIn(dir.path())) {
      if (d.message.rfind("copilot loads", 0) != 0) continue;
      copilot = true;
      EXPECT_NE(d.message.find("both compiled from"), std::string::npos) << d.message;
    }
    return copilot;
  };
  ASSERT_TRUE(Compile(options));
  ASSERT_TRUE(fs::exists(dir.path() / "AGENTS.md"));
  ASSERT_TRUE(fs::exists(dir.path() / ".github/copilot-instructions.md"));
  EXPECT_FALSE(copilot_reported());
  options.targets = {"codex", "copilot"};
  ASSERT_TRUE(Compile(options));
  EXPECT_TRUE(copilot_reported());
}

TEST(DoubleLoadTest, DistinctFilesAreNotReported) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Project\n");
  dir.Write(".goosehints", "Goose only.\n");
  CompileOptions options;
  options.root = dir.path();
  options.targets = {"claude-code"};
  ASSERT_TRUE(Compile(options));
  EXPECT_TRUE(DoubleLoadsIn(dir.path()).empty());
}

}  // namespace
}  // namespace strata
