// nested_sources_test.cc: a nested tests/AGENTS.md compiles to each client's path-scoped form,
// in band order, with the generated header and footer, and passes the stability gate.
#include "compile/nested_sources.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "strata/compile.h"
#include "support/test_support.h"
#include "targets/generated_header.h"
#include "targets/targets.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::TempDir;

const char kNested[] =
    "<!-- strata:tail -->\n"
    "Run pytest tests/.\n"
    "<!-- strata:head -->\n"
    "# Tests\n"
    "Use fixtures.\n";

const std::string kBody = "\n# Tests\nUse fixtures.\n\nRun pytest tests/.\n";

// Every scoped file and the frontmatter it must open with, by hand from each client's docs.
const std::map<std::string, std::string>& Expected() {
  static const std::map<std::string, std::string> table = {
      {".claude/rules/tests-unit.md", "---\npaths:\n  - \"tests/unit/**\"\n---\n"},
      {".cursor/rules/tests-unit.mdc",
       "---\ndescription: Instructions for tests/unit/ compiled from tests/unit/AGENTS.md\n"
       "globs: tests/unit/**\nalwaysApply: false\n---\n"},
      {".github/instructions/tests-unit.instructions.md", "---\napplyTo: \"tests/unit/**\"\n---\n"},
      {".windsurf/rules/tests-unit.md", "---\ntrigger: glob\nglobs: tests/unit/**\n---\n"},
      {".kiro/steering/tests-unit.md",
       "---\ninclusion: fileMatch\nfileMatchPattern: \"tests/unit/**\"\n---\n"},
      {".continue/rules/tests-unit.md",
       "---\nname: Instructions for tests/unit/ compiled from tests/unit/AGENTS.md\n"
       "globs: \"tests/unit/**\"\nalwaysApply: false\n---\n"},
      {"tests/unit/GEMINI.md", ""},
      {"tests/unit/WARP.md", ""},
      {"tests/unit/QWEN.md", ""},
  };
  return table;
}

Result<CompileReport> CompileTree(const TempDir& dir, bool write,
                                  std::vector<std::string> targets = {}) {
  CompileOptions options;
  options.root = dir.path();
  options.write = write;
  options.targets = std::move(targets);
  return Compile(options);
}

TEST(NestedSourcesTest, EachClientGetsItsScopedFormInBandOrder) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Root\n");
  dir.Write("tests/unit/AGENTS.md", kNested);
  dir.Write("node_modules/x/AGENTS.md", "# not a source\n");
  // Every target named: those that read AGENTS.md themselves (Cursor, Copilot, Windsurf, ...)
  // get their scoped form only when asked for by name.
  std::vector<std::string> all;
  for (const auto& target : AllTargets()) all.emplace_back(target.id);
  auto report = CompileTree(dir, true, all);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_TRUE(report->ok);
  const std::string header = GeneratedHeader("tests/unit/AGENTS.md");
  for (const auto& [path, frontmatter] : Expected()) {
    const fs::path full = dir.path() / path;
    ASSERT_TRUE(fs::exists(full)) << path;
    std::string bytes = ReadAll(full);
    EXPECT_EQ(bytes.substr(0, frontmatter.size() + header.size() + kBody.size()),
              frontmatter + header + kBody)
        << path;
    EXPECT_TRUE(DigestMatches(bytes)) << path;
  }
  // A rules directory without globs: the file opens with the line naming the directory.
  std::string cline = ReadAll(dir.path() / ".clinerules/tests-unit.md");
  EXPECT_TRUE(cline.starts_with(
      header + "\nThese instructions apply only to files under `tests/unit/`.\n\n# Tests\n"))
      << cline;
  EXPECT_FALSE(fs::exists(dir.path() / ".claude/rules/node_modules-x.md"));
  // Verify and the stability gate accept the tree just compiled.
  auto verify = CompileTree(dir, false, all);
  ASSERT_TRUE(verify);
  EXPECT_TRUE(verify->ok);
  EXPECT_TRUE(CheckStability(*verify).empty());
}

TEST(NestedSourcesTest, RemovingTheNestedSourceMakesItsScopedRulesOrphans) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Root\n");
  dir.Write("strata.toml", "targets = [\"claude-code\", \"copilot\"]\n");
  dir.Write("tests/AGENTS.md", kNested);
  // Copilot reads AGENTS.md (nested ones too) itself: only --target writes its scoped rule.
  ASSERT_TRUE(CompileTree(dir, true, {"claude-code", "copilot"}));
  ASSERT_TRUE(fs::exists(dir.path() / ".claude/rules/tests.md"));
  ASSERT_TRUE(fs::exists(dir.path() / ".github/instructions/tests.instructions.md"));
  fs::remove(dir.path() / "tests/AGENTS.md");
  auto compile = CompileTree(dir, true);
  ASSERT_TRUE(compile && compile->ok);
  // The two scoped rules, and the copilot file the named compile wrote (Copilot reads AGENTS.md).
  EXPECT_EQ(compile->orphans.size(), 3u);
  EXPECT_FALSE(fs::exists(dir.path() / ".github/copilot-instructions.md"));
  EXPECT_FALSE(fs::exists(dir.path() / ".claude/rules/tests.md"));
  EXPECT_FALSE(fs::exists(dir.path() / ".github/instructions/tests.instructions.md"));
}

TEST(NestedSourcesTest, VolatileTextInANestedHeadBandFailsTheGate) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# Root\n");
  dir.Write("strata.toml", "targets = [\"claude-code\"]\n");
  dir.Write("tests/AGENTS.md", "<!-- strata:head -->\n# T\nat 2026-10-07T12:30:00Z\n");
  auto report = CompileTree(dir, true);
  ASSERT_TRUE(report);
  auto findings = CheckStability(*report);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].where.path, "tests/AGENTS.md");
  EXPECT_EQ(findings[0].where.line, 3);
}

}  // namespace
}  // namespace strata
