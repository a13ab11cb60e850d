#include "strata/adopt.h"

#include <gtest/gtest.h>

#include "strata/bands.h"
#include "strata/compile.h"
#include "strata/targets.h"
#include "support/test_support.h"

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
  EXPECT_TRUE(compiled->diagnostics.empty());
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

TEST(AdoptTest, ForceOnBandedFileChangesNothing) {
  TempDir dir;
  std::string banded = "<!-- praetor:head -->\nx\n";
  dir.Write("AGENTS.md", banded);
  auto report = Adopt(dir.path(), true);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->outcome, AdoptOutcome::kAlreadyBanded);
  EXPECT_EQ(ReadAll(dir.path() / "AGENTS.md"), banded);
}

}  // namespace
}  // namespace strata
