// render_target_test.cc: every target's path and the frontmatter its file opens with, written
// out by hand from each client's documentation (docs/targets.md lists the sources).
#include "compile/render_target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "bands/bands.h"
#include "support/test_support.h"
#include "targets/generated_header.h"
#include "targets/targets.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

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
      // Clients that read AGENTS.md as their one instruction file (served by an AGENTS.md source).
      {"amp", {"AGENTS.md", ""}},
      {"opencode", {"AGENTS.md", ""}},
      {"factory", {"AGENTS.md", ""}},
      {"jules", {"AGENTS.md", ""}},
      {"mistral-vibe", {"AGENTS.md", ""}},
      {"pi", {"AGENTS.md", ""}},
      {"kimi", {"AGENTS.md", ""}},
      {"devin", {"AGENTS.md", ""}},
      {"rovo-dev", {"AGENTS.md", ""}},
      {"zcode", {"AGENTS.md", ""}},
      {"muse-code", {"AGENTS.md", ""}},
      {"command-code", {"AGENTS.md", ""}},
      {"cortex-code", {"AGENTS.md", ""}},
      {"codebuddy", {"CODEBUDDY.md", ""}},
      {"tabnine", {".tabnine/guidelines/strata.md", ""}},
      {"replit", {"replit.md", ""}},
      {"reasonix", {"REASONIX.md", ""}},
      {"hermes", {".hermes.md", ""}},
      {"bob", {".bob/rules/strata.md", ""}},
      {"zoo-code", {".roo/rules/strata.md", ""}},
      {"deepagents", {".deepagents/AGENTS.md", ""}},
      {"pool", {"AGENTS.md", ""}},
      {"dsh", {"AGENTS.md", ""}},
  };
  return table;
}

// rulesync 17.0.0's rules targets (its rulesProcessorToolTargetTuple), each mapped by hand to the
// strata target that covers it; "" marks the few left out on purpose (docs/targets.md says why).
TEST(RenderTargetTest, EveryRulesyncRulesTargetHasAStrataTarget) {
  const std::map<std::string_view, std::string_view> rulesync = {
      {"agentsmd", "codex"},
      {"aiassistant", "jetbrains-ai"},
      {"amp", "amp"},
      {"antigravity-cli", "antigravity"},
      {"antigravity-ide", "antigravity"},
      {"antigravity-plugin", "antigravity"},
      {"augmentcode", "augment"},
      {"augmentcode-legacy", "augment"},
      {"bob", "bob"},
      {"claudecode", "claude-code"},
      {"claudecode-legacy", "claude-code"},
      {"cline", "cline"},
      {"codebuddy", "codebuddy"},
      {"codexcli", "codex"},
      {"commandcode", "command-code"},
      {"continue", "continue"},
      {"copilot", "copilot"},
      {"copilotcli", "copilot"},
      {"cortexcode", "cortex-code"},
      {"crush", "crush"},
      {"cursor", "cursor"},
      {"deepagents", "deepagents"},
      {"factorydroid", "factory"},
      {"goose", "goose"},
      {"grokcli", "grok"},
      {"hermesagent", "hermes"},
      {"junie", "junie"},
      {"kilo", "kilo-code"},
      {"kimi-code", "kimi"},
      {"kiro", "kiro"},
      {"kiro-cli", "kiro"},
      {"kiro-ide", "kiro"},
      {"musecode", "muse-code"},
      {"opencode", "opencode"},
      {"pi", "pi"},
      {"pool", "pool"},
      {"qwencode", "qwen-code"},
      {"reasonix", "reasonix"},
      {"replit", "replit"},
      {"roo", "roo-code"},
      {"rovodev", "rovo-dev"},
      {"tabnine", "tabnine"},
      {"takt", ""},
      {"vibe", "mistral-vibe"},
      {"warp", "warp"},
      {"devin", "devin"},
      {"zcode", "zcode"},
      {"zed", "zed"},
      {"zoocode", "zoo-code"},
      {"dsh", "dsh"},
  };
  EXPECT_EQ(rulesync.size(), 50u);
  size_t covered = 0;
  for (const auto& [theirs, ours] : rulesync) {
    if (ours.empty()) continue;
    ++covered;
    EXPECT_NE(FindTarget(ours), nullptr) << theirs << " -> " << ours;
  }
  EXPECT_EQ(covered, 49u);  // all but takt (docs/targets.md says why)
  // Those the issue names (Continue, Grok, Factory, Kimi, Codebuddy, Jules, Mistral, Pi) and
  // ruler's Firebender-free rest.
  for (const char* id : {"continue", "grok", "factory", "kimi", "codebuddy", "jules",
                         "mistral-vibe", "pi", "amp", "opencode"}) {
    EXPECT_NE(FindTarget(id), nullptr) << id;
  }
}

// docs/targets.md's table has a row for every target, with its path and a documentation column.
TEST(RenderTargetTest, TargetTableInDocsNamesEveryTargetAndItsSource) {
  const fs::path doc = fs::path(STRATA_SOURCE_DIR) / "docs/targets.md";
  const std::string text = testing::ReadAll(doc);
  ASSERT_FALSE(text.empty()) << doc;
  for (const auto& target : AllTargets()) {
    const std::string row =
        "| " + std::string(target.id) + " | `" + std::string(target.path) + "` |";
    const size_t at = text.find(row);
    ASSERT_NE(at, std::string::npos) << "no row `" << row << "` in docs/targets.md";
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_GE(std::count(line.begin(), line.end(), '|'), 6) << line;
    EXPECT_GT(line.size() - line.rfind("| ", line.size() - 3), 6u) << "no source: " << line;
    // Issue 23, item 2: the documented "also reads" column is the table compile decides by.
    std::string also;
    for (std::string_view name : target.reads_too) {
      if (!name.empty()) also += (also.empty() ? "`" : ", `") + std::string(name) + "`";
    }
    size_t begin = 0;  // after the fourth '|': id, file, frontmatter, also reads
    for (int bar = 0; bar < 4; ++bar) begin = line.find('|', begin) + 1;
    std::string cell = line.substr(begin, line.find('|', begin) - begin);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    EXPECT_EQ(cell, also) << line;
  }
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
