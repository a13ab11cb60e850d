// project_instructions_test.cc: a project's instruction sources come from discovery, with
// discovery's diagnostics handed back so a refused file is never silently missing.
#include "strata/assemble.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata {
namespace {

using strata::testing::TempDir;

TEST(SessionInputTest, LoadProjectInstructionsReturnsDiscoveryDiagnostics) {
  TempDir dir;
  dir.Write("AGENTS.md", std::string("bin\0ary", 7));
  std::vector<Diagnostic> diagnostics;
  auto sources = LoadProjectInstructions(dir.path(), &diagnostics);
  ASSERT_TRUE(sources.has_value());
  EXPECT_TRUE(sources->empty());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kError);
  EXPECT_EQ(diagnostics[0].where.path, "AGENTS.md");
}

}  // namespace
}  // namespace strata
