// render_target_test.cc: every target's path and the frontmatter its file opens with, written
// out by hand from each client's documentation (docs/targets.md lists the sources).
#include "compile/render_target.h"

#include <gtest/gtest.h>

#include <map>

#include "bands/bands.h"
#include "targets/generated_header.h"
#include "targets/targets.h"

namespace strata {
namespace {

struct Expected {
  std::string_view path;
  std::string_view frontmatter;  // "" when the file is plain markdown
};

const std::map<std::string_view, Expected>& Table() {
  static const std::map<std::string_view, Expected> table = {
      {"claude-code", {"CLAUDE.md", ""}},
      {"cursor",
       {".cursor/rules/strata.mdc",
        "---\ndescription: Project instructions compiled from AGENTS.md\nglobs:\n"
        "alwaysApply: true\n---\n"}},
      {"copilot", {".github/copilot-instructions.md", ""}},
      {"windsurf", {".windsurf/rules/strata.md", "---\ntrigger: always_on\n---\n"}},
      {"gemini-cli", {"GEMINI.md", ""}},
      {"codex", {"AGENTS.md", ""}},
      {"cline", {".clinerules/strata.md", ""}},
      {"zed", {".rules", ""}},
      {"junie", {".junie/AGENTS.md", ""}},
      {"kiro", {".kiro/steering/strata.md", "---\ninclusion: always\n---\n"}},
      {"amazon-q", {".amazonq/rules/strata.md", ""}},
      {"aider", {"CONVENTIONS.md", ""}},
      {"roo-code", {".roo/rules/strata.md", ""}},
      {"kilo-code", {".kilocode/rules/strata.md", ""}},
      {"goose", {".goosehints", ""}},
      {"crush", {"CRUSH.md", ""}},
      {"warp", {"WARP.md", ""}},
      {"openhands", {".openhands/microagents/repo.md", ""}},
      {"continue",
       {".continue/rules/strata.md",
        "---\nname: Project instructions from AGENTS.md\nalwaysApply: true\n---\n"}},
      {"augment", {".augment/rules/strata.md", "---\ntype: always_apply\n---\n"}},
      {"qwen-code", {"QWEN.md", ""}},
      {"trae", {".trae/rules/project_rules.md", ""}},
      {"jetbrains-ai", {".aiassistant/rules/strata.md", ""}},
      {"firebase-studio", {".idx/airules.md", ""}},
      {"antigravity", {".agents/rules/strata.md", ""}},
      {"grok", {".grok/rules/strata.md", ""}},
  };
  return table;
}

TEST(RenderTargetTest, AtLeastTwentyFiveTargetsEachWithItsDocumentedPathAndFrontmatter) {
  EXPECT_GE(AllTargets().size(), 25u);
  EXPECT_EQ(AllTargets().size(), Table().size());
  const BandedSource banded =
      SplitBands("<!-- strata:head -->\n# P\n", [](std::string_view) { return std::string(); });
  for (const auto& target : AllTargets()) {
    auto it = Table().find(target.id);
    ASSERT_NE(it, Table().end()) << target.id << " is not in the hand-written table";
    EXPECT_EQ(target.path, it->second.path) << target.id;
    EXPECT_FALSE(target.source_note.empty()) << target.id;
    std::string bytes = RenderTarget(target, banded, "AGENTS.md", RenderEnv{});
    const std::string expected_start =
        std::string(it->second.frontmatter) + GeneratedHeader("AGENTS.md") + "\n# P\n";
    EXPECT_EQ(bytes.substr(0, expected_start.size()), expected_start) << target.id;
    EXPECT_TRUE(HasGeneratedHeader(bytes)) << target.id;
    EXPECT_TRUE(DigestMatches(bytes)) << target.id;
  }
}

}  // namespace
}  // namespace strata
