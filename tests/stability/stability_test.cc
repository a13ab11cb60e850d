// stability_test.cc: the render-twice check refuses a renderer that reads the clock or the
// visit order.
#include "stability/stability.h"

#include <gtest/gtest.h>

#include "compile/render_target.h"
#include "targets/targets.h"

namespace strata {
namespace {

TEST(StabilityTest, DefaultRendererIsStable) {
  auto banded = SplitBands("<!-- strata:head -->\nh\n## Cursor\nc\n", MatchClientHeading);
  std::vector<const ClientTarget*> targets;
  for (const auto& t : AllTargets()) targets.push_back(&t);
  EXPECT_TRUE(VerifyRenderTwice(targets, banded, "AGENTS.md", RenderTarget).empty());
}

TEST(StabilityTest, ClockReadingRendererIsRefused) {
  auto banded = SplitBands("<!-- strata:head -->\nh\n", MatchClientHeading);
  std::vector<const ClientTarget*> targets{FindTarget("claude-code"), FindTarget("zed")};
  TargetRenderer reads_clock = [](const ClientTarget& t, const BandedSource& b,
                                  std::string_view name, const RenderEnv& env) {
    return RenderTarget(t, b, name, env) + "<!-- built " + std::to_string(env.now_unix_ms()) +
           " -->\n";
  };
  auto findings = VerifyRenderTwice(targets, banded, "AGENTS.md", reads_clock);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].where.path, "CLAUDE.md");
  EXPECT_NE(findings[0].message.find("claude-code"), std::string::npos);
  EXPECT_NE(findings[0].message.find("at byte"), std::string::npos);
}

TEST(StabilityTest, VisitOrderDependentRendererIsRefused) {
  auto banded = SplitBands("<!-- strata:head -->\nh\n", MatchClientHeading);
  std::vector<const ClientTarget*> targets{FindTarget("claude-code"), FindTarget("zed"),
                                           FindTarget("cline")};
  // Appends the position at which this target was visited: a render that depends on order.
  TargetRenderer counts = [&targets](const ClientTarget& t, const BandedSource& b,
                                     std::string_view name, const RenderEnv& env) {
    size_t index = 0;
    while (targets[index] != &t) ++index;
    size_t position = 0;
    while (env.visit_order[position] != index) ++position;
    return RenderTarget(t, b, name, env) + std::to_string(position);
  };
  EXPECT_FALSE(VerifyRenderTwice(targets, banded, "AGENTS.md", counts).empty());
}

}  // namespace
}  // namespace strata
