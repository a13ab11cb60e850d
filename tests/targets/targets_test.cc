// targets_test.cc: the client table and the `## <Client>` heading match.
#include "targets/targets.h"

#include <gtest/gtest.h>

#include <set>

namespace strata {
namespace {

TEST(TargetsTest, TableHasAtLeastTwelveClientsWithUniqueIdsAndPaths) {
  std::set<std::string_view> ids, paths;
  size_t agents_md = 0;  // clients whose instruction file is AGENTS.md share that path
  for (const auto& t : AllTargets()) {
    ids.insert(t.id);
    paths.insert(t.path);
    agents_md += t.path == "AGENTS.md";
  }
  EXPECT_GE(AllTargets().size(), 12u);
  EXPECT_EQ(ids.size(), AllTargets().size());
  // Zoo Code, Roo Code's continuation, reads Roo's .roo/rules/: the one other shared path.
  EXPECT_EQ(paths.size(), AllTargets().size() - agents_md + 1 - 1);
  EXPECT_EQ(FindTarget("zoo-code")->path, FindTarget("roo-code")->path);
  EXPECT_EQ(agents_md, 16u);  // codex and the 15 AGENTS.md clients of docs/targets.md
  for (auto id : {"claude-code", "cursor", "copilot", "windsurf", "gemini-cli", "codex", "cline",
                  "zed", "junie", "kiro", "amazon-q", "aider"}) {
    EXPECT_NE(FindTarget(id), nullptr) << id;
  }
}

TEST(TargetsTest, HeadingMatchIgnoresCaseAndBlanksAndKnowsAliases) {
  EXPECT_EQ(MatchClientHeading("Claude Code"), "claude-code");
  EXPECT_EQ(MatchClientHeading("  claude code "), "claude-code");
  EXPECT_EQ(MatchClientHeading("Copilot"), "copilot");
  EXPECT_EQ(MatchClientHeading("Conventions"), "");
}

}  // namespace
}  // namespace strata
