// agent_assets_test.cc: skills, subagents, commands and MCP servers from one place, written to
// each client's location and format; hand-written files kept; drift fails --verify.
#include "compile/agent_assets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "strata/compile.h"
#include "support/test_support.h"
#include "targets/generated_header.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::TempDir;

const char kSkill[] = "---\nname: review\ndescription: Review a change\n---\n\nRead the diff.\n";
const char kAgent[] = "---\nname: tester\ndescription: Runs tests\ntools: Bash\n---\nRun ctest.\n";
const char kCommand[] = "---\ndescription: Ship it\n---\nTag and push.\n";

void WriteTree(const TempDir& dir) {
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# P\n");
  dir.Write(
      "strata.toml",
      "targets = [\"claude-code\", \"copilot\", \"cursor\", \"gemini-cli\"]\n"
      "[mcp.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\nenv = { TOKEN = \"x\" }\n"
      "[mcp.remote]\nurl = \"https://example.invalid/mcp\"\n");
  dir.Write(".agents/skills/review/SKILL.md", kSkill);
  dir.Write(".agents/skills/review/scripts/check.sh", "#!/bin/sh\necho ok\n");
  dir.Write(".agents/agents/tester.md", kAgent);
  dir.Write(".agents/commands/ship.md", kCommand);
}

Result<CompileReport> CompileTree(const TempDir& dir, bool write) {
  CompileOptions options;
  options.root = dir.path();
  options.write = write;
  return Compile(options);
}

TEST(AgentAssetsTest, EachClientGetsItsLocationAndFormat) {
  TempDir dir;
  WriteTree(dir);
  auto report = CompileTree(dir, true);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_TRUE(report->ok);
  const std::string skill = RenderMarkdownAsset(kSkill, ".agents/skills/review/SKILL.md");
  EXPECT_TRUE(skill.starts_with(
      "---\nname: review\ndescription: Review a change\n---\n<!-- markdownlint-disable -->\n"))
      << skill;
  EXPECT_NE(skill.find("-->\n\nRead the diff.\n"), std::string::npos) << skill;
  EXPECT_TRUE(DigestMatches(skill));
  EXPECT_EQ(ReadAll(dir.path() / ".claude/skills/review/SKILL.md"), skill);
  EXPECT_EQ(ReadAll(dir.path() / ".github/skills/review/SKILL.md"), skill);
  EXPECT_EQ(ReadAll(dir.path() / ".claude/skills/review/scripts/check.sh"), "#!/bin/sh\necho ok\n");
  EXPECT_EQ(ReadAll(dir.path() / ".claude/agents/tester.md"),
            RenderMarkdownAsset(kAgent, ".agents/agents/tester.md"));
  EXPECT_TRUE(fs::exists(dir.path() / ".github/agents/tester.agent.md"));
  EXPECT_TRUE(fs::exists(dir.path() / ".claude/commands/ship.md"));
  EXPECT_TRUE(fs::exists(dir.path() / ".cursor/commands/ship.md"));
  EXPECT_FALSE(fs::exists(dir.path() / ".cursor/agents"));

  using nlohmann::json;
  json claude = json::parse(ReadAll(dir.path() / ".mcp.json"));
  EXPECT_EQ(claude["mcpServers"]["docs"],
            json({{"command", "npx"}, {"args", {"-y", "docs-mcp"}}, {"env", {{"TOKEN", "x"}}}}));
  EXPECT_EQ(claude["mcpServers"]["remote"],
            json({{"type", "http"}, {"url", "https://example.invalid/mcp"}}));
  json vscode = json::parse(ReadAll(dir.path() / ".vscode/mcp.json"));
  EXPECT_EQ(vscode["servers"]["docs"]["type"], "stdio");
  json cursor = json::parse(ReadAll(dir.path() / ".cursor/mcp.json"));
  EXPECT_EQ(cursor["mcpServers"]["remote"], json({{"url", "https://example.invalid/mcp"}}));
  json gemini = json::parse(ReadAll(dir.path() / ".gemini/settings.json"));
  EXPECT_EQ(gemini["mcpServers"]["remote"], json({{"httpUrl", "https://example.invalid/mcp"}}));

  auto verify = CompileTree(dir, false);
  ASSERT_TRUE(verify);
  EXPECT_TRUE(verify->ok);
}

TEST(AgentAssetsTest, HandWrittenAgentIsKeptAndOtherMcpSettingsSurvive) {
  TempDir dir;
  WriteTree(dir);
  dir.Write(".claude/agents/tester.md", "# mine\n");
  dir.Write(".gemini/settings.json",
            "{\"theme\": \"dark\", \"mcpServers\": {\"own\": {\"command\": \"me\"}}}\n");
  auto report = CompileTree(dir, true);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->ok);  // a conflict: nothing written
  EXPECT_EQ(ReadAll(dir.path() / ".claude/agents/tester.md"), "# mine\n");
  fs::remove(dir.path() / ".claude/agents/tester.md");
  auto again = CompileTree(dir, true);
  ASSERT_TRUE(again && again->ok);
  auto gemini = nlohmann::json::parse(ReadAll(dir.path() / ".gemini/settings.json"));
  EXPECT_EQ(gemini["theme"], "dark");
  EXPECT_EQ(gemini["mcpServers"]["own"]["command"], "me");
  EXPECT_EQ(gemini["mcpServers"]["docs"]["command"], "npx");
}

TEST(AgentAssetsTest, DriftFailsVerify) {
  TempDir dir;
  WriteTree(dir);
  ASSERT_TRUE(CompileTree(dir, true));
  dir.Write(".agents/commands/ship.md", "---\ndescription: Ship it\n---\nTag, push, announce.\n");
  dir.Write("strata.toml",
            "targets = [\"claude-code\", \"copilot\", \"cursor\", \"gemini-cli\"]\n"
            "[mcp.docs]\ncommand = \"uvx\"\n");
  auto verify = CompileTree(dir, false);
  ASSERT_TRUE(verify);
  EXPECT_FALSE(verify->ok);
  int stale = 0;
  for (const auto& t : verify->targets) stale += t.status == TargetStatus::kStale;
  for (const auto& t : verify->companions) stale += t.status == TargetStatus::kStale;
  EXPECT_EQ(stale, 2 + 4);  // two command files, four MCP settings files
}

}  // namespace
}  // namespace strata
