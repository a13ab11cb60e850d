// Orphans include every generated asset: dropping a target from strata.toml leaves none of its
// skills, subagents, commands or MCP entries behind, and never touches a hand-written file.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "strata/compile.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::ReadAll;
using testing::TempDir;

const char kMcp[] = "[mcp.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\n";

void WriteTree(const TempDir& dir, std::string_view targets) {
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write("strata.toml", "targets = " + std::string(targets) + "\n" + kMcp);
  dir.Write(".agents/skills/review/SKILL.md",
            "---\nname: review\ndescription: Review.\n---\nBody.\n");
  dir.Write(".agents/skills/review/scripts/check.sh", "#!/bin/sh\necho ok\n");
  dir.Write(".agents/agents/tester.md", "---\nname: tester\ndescription: Tests.\n---\nTest.\n");
}

Result<CompileReport> CompileAt(const TempDir& dir, bool write) {
  CompileOptions options;
  options.root = dir.path();
  options.write = write;
  return Compile(options);
}

std::set<std::string> OrphanPaths(const CompileReport& report) {
  std::set<std::string> out;
  for (const auto& t : report.orphans) out.insert(t.path);
  return out;
}

TEST(AssetOrphansTest, DroppingCopilotLeavesNoSkillAgentOrMcpEntryBehind) {
  TempDir dir;
  WriteTree(dir, "[\"claude-code\", \"copilot\"]");
  ASSERT_TRUE(CompileAt(dir, true));
  ASSERT_TRUE(fs::exists(dir.path() / ".github/skills/review/scripts/check.sh"));
  ASSERT_TRUE(fs::exists(dir.path() / ".github/agents/tester.agent.md"));
  // The user's own server and a hand-written agent beside strata's.
  json vscode = json::parse(ReadAll(dir.path() / ".vscode/mcp.json"));
  vscode["servers"]["mine"] = {{"type", "stdio"}, {"command", "my-server"}};
  dir.Write(".vscode/mcp.json", vscode.dump(2) + "\n");
  dir.Write(".github/agents/mine.agent.md", "---\nname: mine\n---\nHand-written.\n");

  dir.Write("strata.toml", "targets = [\"claude-code\"]\n" + std::string(kMcp));
  auto verify = CompileAt(dir, false);
  ASSERT_TRUE(verify) << verify.error().message;
  EXPECT_FALSE(verify->ok);
  EXPECT_EQ(
      OrphanPaths(*verify),
      (std::set<std::string>{".github/agents/tester.agent.md", ".github/skills/review/SKILL.md",
                             ".github/skills/review/scripts/check.sh", ".vscode/mcp.json"}));
  for (const auto& t : verify->orphans) EXPECT_EQ(t.status, TargetStatus::kOrphaned) << t.path;

  auto compile = CompileAt(dir, true);
  ASSERT_TRUE(compile) << compile.error().message;
  EXPECT_FALSE(fs::exists(dir.path() / ".github/agents/tester.agent.md"));
  EXPECT_FALSE(fs::exists(dir.path() / ".github/skills/review"));  // emptied directory removed
  EXPECT_TRUE(fs::exists(dir.path() / ".github/agents/mine.agent.md"));
  json after = json::parse(ReadAll(dir.path() / ".vscode/mcp.json"));
  EXPECT_FALSE(after["servers"].contains("docs"));
  EXPECT_EQ(after["servers"]["mine"]["command"], "my-server");
  EXPECT_TRUE(fs::exists(dir.path() / ".claude/skills/review/scripts/check.sh"));  // still owned
  auto clean = CompileAt(dir, false);
  ASSERT_TRUE(clean);
  EXPECT_TRUE(clean->ok);
  EXPECT_TRUE(clean->orphans.empty());
}

// An MCP entry the user changed is not strata's any more: it stays, and is not reported.
TEST(AssetOrphansTest, EditedMcpEntryIsKept) {
  TempDir dir;
  WriteTree(dir, "[\"claude-code\", \"cursor\"]");
  ASSERT_TRUE(CompileAt(dir, true));
  json cursor = json::parse(ReadAll(dir.path() / ".cursor/mcp.json"));
  cursor["mcpServers"]["docs"]["args"] = {"-y", "docs-mcp@2"};
  dir.Write(".cursor/mcp.json", cursor.dump(2) + "\n");
  dir.Write("strata.toml", "targets = [\"claude-code\"]\n" + std::string(kMcp));
  auto compile = CompileAt(dir, true);
  ASSERT_TRUE(compile);
  EXPECT_EQ(OrphanPaths(*compile).count(".cursor/mcp.json"), 0u);
  EXPECT_EQ(json::parse(ReadAll(dir.path() / ".cursor/mcp.json"))["mcpServers"]["docs"]["args"][1],
            "docs-mcp@2");
}

// A skill's plain file is an orphan only with its strata SKILL.md: a hand-written skill stays.
TEST(AssetOrphansTest, HandWrittenSkillIsNeverAnOrphan) {
  TempDir dir;
  WriteTree(dir, "[\"claude-code\"]");
  dir.Write(".github/skills/own/SKILL.md", "---\nname: own\n---\nMine.\n");
  dir.Write(".github/skills/own/run.sh", "echo mine\n");
  auto verify = CompileAt(dir, false);
  ASSERT_TRUE(verify);
  EXPECT_EQ(OrphanPaths(*verify).count(".github/skills/own/run.sh"), 0u);
  EXPECT_EQ(OrphanPaths(*verify).count(".github/skills/own/SKILL.md"), 0u);
}

}  // namespace
}  // namespace strata
