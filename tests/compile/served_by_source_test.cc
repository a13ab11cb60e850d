// No client reads the same text twice (a client that reads the source itself gets no copy unless
// --target asks for one), and every documented size limit is reported per target.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "strata/compile.h"
#include "strata/discover.h"
#include "support/test_support.h"
#include "targets/targets.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::ReadAll;
using testing::TempDir;

const char kSource[] = "<!-- strata:head -->\n# Project\n\nInvariants.\n";

Result<CompileReport> CompileAt(const TempDir& dir, std::vector<std::string> targets = {},
                                bool write = true, std::string source = "") {
  CompileOptions options;
  options.root = dir.path();
  options.targets = std::move(targets);
  options.write = write;
  options.source = std::move(source);
  return Compile(options);
}

const TargetReport* Find(const CompileReport& report, std::string_view id) {
  for (const auto& t : report.targets) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

size_t CountKind(const CompileReport& report, std::string_view kind) {
  size_t n = 0;
  for (const auto& d : report.diagnostics) n += d.kind == kind;
  return n;
}

// Goose, Cursor and Copilot load AGENTS.md themselves (their docs; docs/targets.md): compiling an
// AGENTS.md source writes no .goosehints, strata.mdc or copilot-instructions.md for them.
TEST(ServedBySourceTest, ClientsThatReadAgentsMdGetNoCopy) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("strata.toml", "targets = [\"claude-code\", \"cursor\", \"copilot\", \"goose\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok);
  for (const char* id : {"cursor", "copilot", "goose"}) {
    ASSERT_NE(Find(*report, id), nullptr) << id;
    EXPECT_EQ(Find(*report, id)->status, TargetStatus::kServedBySource) << id;
    EXPECT_NE(Find(*report, id)->detail.find("--target " + std::string(id)), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(dir.path() / ".goosehints"));
  EXPECT_FALSE(fs::exists(dir.path() / ".cursor/rules/strata.mdc"));
  EXPECT_FALSE(fs::exists(dir.path() / ".github/copilot-instructions.md"));
  EXPECT_EQ(Find(*report, "claude-code")->status, TargetStatus::kWritten);
  EXPECT_TRUE(fs::exists(dir.path() / "CLAUDE.md"));
}

// Asked for by name, the copy is written, with a warning that the client loads the text twice;
// the next compile of the configured targets removes it as an orphan.
TEST(ServedBySourceTest, NamedTargetIsWrittenWithAWarningAndLaterRemoved) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("strata.toml", "targets = [\"claude-code\", \"goose\"]\n");
  auto named = CompileAt(dir, {"goose"});
  ASSERT_TRUE(named) << named.error().message;
  EXPECT_EQ(Find(*named, "goose")->status, TargetStatus::kWritten);
  EXPECT_TRUE(fs::exists(dir.path() / ".goosehints"));
  EXPECT_EQ(CountKind(*named, "duplicate-load"), 1u);

  auto verify = CompileAt(dir, {}, false);
  ASSERT_TRUE(verify);
  EXPECT_FALSE(verify->ok);
  ASSERT_EQ(verify->orphans.size(), 1u);
  EXPECT_EQ(verify->orphans[0].path, ".goosehints");
  EXPECT_EQ(verify->orphans[0].status, TargetStatus::kOrphaned);

  auto full = CompileAt(dir);
  ASSERT_TRUE(full);
  EXPECT_FALSE(fs::exists(dir.path() / ".goosehints"));
}

// Claude Code reads ./CLAUDE.md and ./.claude/CLAUDE.md both: a .claude/CLAUDE.md source gets no
// root CLAUDE.md beside it.
TEST(ServedBySourceTest, DotClaudeSourceWritesNoRootClaudeMd) {
  TempDir dir;
  dir.Write(".claude/CLAUDE.md", kSource);
  dir.Write("strata.toml", "targets = [\"claude-code\", \"gemini-cli\"]\n");
  auto report = CompileAt(dir, {}, true, ".claude/CLAUDE.md");
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(Find(*report, "claude-code")->status, TargetStatus::kServedBySource);
  EXPECT_FALSE(fs::exists(dir.path() / "CLAUDE.md"));
  EXPECT_TRUE(fs::exists(dir.path() / "GEMINI.md"));
}

// Nested sources: a client that reads AGENTS.md reads the nested ones too, so no scoped rule.
TEST(ServedBySourceTest, ServedClientGetsNoScopedRules) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("tests/AGENTS.md", "<!-- strata:head -->\nTest rules.\n");
  dir.Write("strata.toml", "targets = [\"claude-code\", \"cursor\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(fs::exists(dir.path() / ".claude/rules/tests.md"));
  EXPECT_FALSE(fs::exists(dir.path() / ".cursor/rules/tests.mdc"));
}

// Codex reads at most 32 KiB (project_doc_max_bytes): an AGENTS.md source over it is reported,
// naming the bytes Codex never sees; the limit is the one discovery's codex profile applies.
TEST(ClientLimitTest, CodexCutOfTheSourceIsReported) {
  TempDir dir;
  std::string big = std::string(kSource) + "\n" + std::string(40000, 'x') + "\n";
  dir.Write("AGENTS.md", big);
  dir.Write("strata.toml", "targets = [\"codex\", \"claude-code\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(Find(*report, "codex")->cut_bytes, 32768u);
  EXPECT_EQ(Find(*report, "claude-code")->cut_bytes, 0u);
  ASSERT_EQ(CountKind(*report, "client-limit"), 1u);
  for (const auto& d : report->diagnostics) {
    if (d.kind != "client-limit") continue;
    EXPECT_EQ(d.where.path, "AGENTS.md");
    EXPECT_NE(d.message.find("32768 bytes"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find(std::to_string(big.size() - 32768)), std::string::npos) << d.message;
  }
  EXPECT_EQ(ClientOptions(Client::kCodex, dir.path(), {}).budget.total_bytes, 32768u);
}

// A written AGENTS.md (source elsewhere) over 32 KiB is written and reported; Copilot code
// review's 4,000 characters likewise.
TEST(ClientLimitTest, WrittenTargetsOverTheirCutAreWrittenAndReported) {
  TempDir dir;
  dir.Write("docs/rules.md", std::string(kSource) + "\n" + std::string(40000, 'y') + "\n");
  dir.Write("strata.toml", "targets = [\"codex\", \"copilot\", \"gemini-cli\"]\n");
  auto report = CompileAt(dir, {}, true, "docs/rules.md");
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(Find(*report, "codex")->status, TargetStatus::kWritten);
  EXPECT_EQ(Find(*report, "copilot")->status, TargetStatus::kWritten);
  EXPECT_EQ(Find(*report, "copilot")->cut_chars, 4000u);
  EXPECT_EQ(CountKind(*report, "client-limit"), 2u);
  std::set<std::string> paths;
  for (const auto& d : report->diagnostics) {
    if (d.kind == "client-limit") paths.insert(d.where.path);
  }
  EXPECT_EQ(paths, (std::set<std::string>{"AGENTS.md", ".github/copilot-instructions.md"}));
  EXPECT_GT(ReadAll(dir.path() / "AGENTS.md").size(), 40000u);  // written whole, not cut
}

// A client whose own file is within its limits gets no warning.
TEST(ClientLimitTest, SmallSourceIsNotReported) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("strata.toml", "targets = [\"codex\", \"windsurf\"]\n");
  auto report = CompileAt(dir, {"codex", "windsurf"});
  ASSERT_TRUE(report);
  EXPECT_EQ(CountKind(*report, "client-limit"), 0u);
  EXPECT_EQ(Find(*report, "windsurf")->max_chars, 12000u);
}

}  // namespace
}  // namespace strata
