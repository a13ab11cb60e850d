#include "adopt/adopt.h"

#include <gtest/gtest.h>

#include <vector>

#include "bands/bands.h"
#include "strata/compile.h"
#include "support/test_support.h"
#include "targets/targets.h"

namespace strata {
namespace {

using testing::ReadAll;
using testing::TempDir;

TEST(AdoptTest, NewSkeletonCarriesTheThreeMarkersAndCompilesBanded) {
  TempDir dir;
  auto report = Adopt(dir.path(), false);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->outcome, AdoptOutcome::kCreated);
  std::string text = ReadAll(dir.path() / "AGENTS.md");
  for (auto marker :
       {"<!-- strata:head -->\n", "<!-- strata:config -->\n", "<!-- strata:tail -->\n"}) {
    EXPECT_NE(text.find(marker), std::string::npos) << marker;
  }
  CompileOptions options;
  options.root = dir.path();
  auto compiled = Compile(options);
  ASSERT_TRUE(compiled);
  EXPECT_TRUE(compiled->had_markers);
  // Every target (no strata.toml): only the clients that read both AGENTS.md and the CLAUDE.md
  // written for Claude Code (Crush, Augment, and DeepSeek Harness, whose own file is the AGENTS.md
  // source) are warned, once each.
  std::vector<std::string> warned;
  for (const auto& d : compiled->diagnostics) {
    EXPECT_EQ(d.kind, "duplicate-load") << d.message;
    warned.push_back(d.where.path);
  }
  EXPECT_EQ(warned,
            (std::vector<std::string>{"CRUSH.md", ".augment/rules/strata.md", "AGENTS.md"}));
}

TEST(AdoptTest, ExistingFileIsLeftAloneWithoutForce) {
  TempDir dir;
  dir.Write("AGENTS.md", "# Mine\n\nhand-written\n");
  auto report = Adopt(dir.path(), false);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->outcome, AdoptOutcome::kLeftAlone);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"), "# Mine\n\nhand-written\n");
}

TEST(AdoptTest, ForceAddsOnlyTheMarkersAndKeepsEveryLine) {
  TempDir dir;
  dir.Write("AGENTS.md", "# Mine\n\nhand-written\n");
  auto report = Adopt(dir.path(), true);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->outcome, AdoptOutcome::kMarkersAdded);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"),
            "# Mine\n\n<!-- strata:head -->\n\nhand-written\n\n<!-- strata:config -->\n\n"
            "<!-- strata:tail -->\n");
}

TEST(AdoptTest, ForceRefusesFileEndingInsideUnclosedFence) {
  TempDir dir;
  dir.Write("AGENTS.md", "no heading\n```\ncode\n");
  auto report = Adopt(dir.path(), true);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("unclosed code block"), std::string::npos);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"), "no heading\n```\ncode\n");
}

TEST(AdoptTest, MissingRootIsAnErrorAndCreatesNothing) {
  auto report = Adopt("/nonexistent/strata-adopt-root", false);
  ASSERT_FALSE(report);
  EXPECT_FALSE(std::filesystem::exists("/nonexistent/strata-adopt-root"));
}

TEST(AdoptTest, SymlinkedAgentsMdIsWrittenThroughTheLink) {
  TempDir dir;
  dir.Write("real.md", "# Mine\n\ntext\n");
  std::filesystem::create_symlink("real.md", dir.path() / "AGENTS.md");
  auto report = Adopt(dir.path(), true);
  ASSERT_TRUE(report);
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path() / "AGENTS.md"));
  EXPECT_NE(ReadAll(dir.path() / "real.md").find("<!-- strata:head -->"), std::string::npos);
}

TEST(AdoptTest, ForceOnBandedFileChangesNothing) {
  TempDir dir;
  std::string banded = "<!-- praetor:head -->\nx\n";
  dir.Write("AGENTS.md", banded);
  auto report = Adopt(dir.path(), true);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->outcome, AdoptOutcome::kAlreadyBanded);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"), banded);
}

// Issue 12: with frontmatter and no H1, the head marker goes after the frontmatter.
TEST(AdoptTest, ForcePutsHeadMarkerAfterFrontmatter) {
  TempDir dir;
  dir.Write("AGENTS.md", "---\ndescription: rules\nalwaysApply: true\n---\nbody\n");
  auto report = Adopt(dir.path(), true);
  ASSERT_TRUE(report);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"),
            "---\ndescription: rules\nalwaysApply: true\n---\n\n<!-- strata:head -->\n\nbody\n\n"
            "<!-- strata:config -->\n\n<!-- strata:tail -->\n");
}

}  // namespace
}  // namespace strata
