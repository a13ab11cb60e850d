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

// A strata.md source compiled to AGENTS.md for Codex: Cursor and Goose read that AGENTS.md
// themselves (docs/targets.md), so the shared bands reach them there. Cursor's file holds only
// its own section; Goose, with no section, gets no file; named with --target, Goose's full copy
// is written with a warning.
const char kStrataMd[] =
    "<!-- strata:head -->\n# Project\n\nShared invariant.\n\n<!-- strata:config -->\n\n"
    "<!-- strata:for cursor -->\n## Cursor notes\n\nCursor only.\n<!-- strata:end-for -->\n\n"
    "<!-- strata:tail -->\n\nShared closing.\n";

TEST(ServedByGeneratedAgentsMdTest, ReadersOfAgentsMdGetOnlyTheirOwnSection) {
  TempDir dir;
  dir.Write("strata.md", kStrataMd);
  dir.Write("strata.toml",
            "source = \"strata.md\"\ntargets = [\"claude-code\", \"cursor\", \"codex\", "
            "\"goose\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok);
  EXPECT_EQ(Find(*report, "codex")->status, TargetStatus::kWritten);
  const std::string agents = ReadAll(dir.path() / "AGENTS.md");
  EXPECT_NE(agents.find("Shared invariant."), std::string::npos);
  EXPECT_EQ(agents.find("Cursor only."), std::string::npos);
  // Cursor: its section, nothing shared.
  EXPECT_EQ(Find(*report, "cursor")->status, TargetStatus::kWritten);
  const std::string mdc = ReadAll(dir.path() / ".cursor/rules/strata.mdc");
  EXPECT_NE(mdc.find("## Cursor notes\n\nCursor only.\n"), std::string::npos) << mdc;
  EXPECT_EQ(mdc.find("Shared"), std::string::npos) << mdc;
  EXPECT_TRUE(mdc.starts_with("---\ndescription: ")) << mdc;
  // Goose: no section, no file, and the report says why.
  EXPECT_EQ(Find(*report, "goose")->status, TargetStatus::kServedBySource);
  EXPECT_NE(Find(*report, "goose")->detail.find("AGENTS.md (written for codex)"), std::string::npos)
      << Find(*report, "goose")->detail;
  EXPECT_FALSE(fs::exists(dir.path() / ".goosehints"));
  // Claude Code reads no AGENTS.md: its full copy.
  EXPECT_NE(ReadAll(dir.path() / "CLAUDE.md").find("Shared closing."), std::string::npos);
  EXPECT_EQ(CountKind(*report, "duplicate-load"), 0u);
  // A second run finds everything current.
  auto verify = CompileAt(dir, {}, false);
  ASSERT_TRUE(verify);
  EXPECT_TRUE(verify->ok);
  EXPECT_TRUE(verify->orphans.empty());

  auto named = CompileAt(dir, {"codex", "goose"});
  ASSERT_TRUE(named) << named.error().message;
  EXPECT_EQ(Find(*named, "goose")->status, TargetStatus::kWritten);
  EXPECT_NE(ReadAll(dir.path() / ".goosehints").find("Shared invariant."), std::string::npos);
  EXPECT_EQ(CountKind(*named, "duplicate-load"), 1u);
  auto full = CompileAt(dir);  // the configured targets again: the full copy is an orphan
  ASSERT_TRUE(full);
  EXPECT_FALSE(fs::exists(dir.path() / ".goosehints"));
}

// Without a target writing AGENTS.md, the same clients get their full copy.
TEST(ServedByGeneratedAgentsMdTest, NoAgentsMdWrittenMeansFullCopies) {
  TempDir dir;
  dir.Write("strata.md", kStrataMd);
  dir.Write("strata.toml", "source = \"strata.md\"\ntargets = [\"cursor\", \"goose\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_NE(ReadAll(dir.path() / ".cursor/rules/strata.mdc").find("Shared invariant."),
            std::string::npos);
  EXPECT_NE(ReadAll(dir.path() / ".goosehints").find("Shared closing."), std::string::npos);
}

// Crush reads AGENTS.md and CLAUDE.md both: with both written, its own file drops the shared
// text but the two others still carry it twice, which compile says.
TEST(ServedByGeneratedAgentsMdTest, ClientReadingTwoCompiledFilesIsWarned) {
  TempDir dir;
  dir.Write("strata.md", kStrataMd);
  dir.Write("strata.toml",
            "source = \"strata.md\"\ntargets = [\"claude-code\", \"codex\", \"crush\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(Find(*report, "crush")->status, TargetStatus::kServedBySource);
  EXPECT_FALSE(fs::exists(dir.path() / "CRUSH.md"));
  ASSERT_EQ(CountKind(*report, "duplicate-load"), 1u);
  for (const auto& d : report->diagnostics) {
    if (d.kind != "duplicate-load") continue;
    EXPECT_NE(d.message.find("AGENTS.md (written for codex) and CLAUDE.md (written for "
                             "claude-code)"),
              std::string::npos)
        << d.message;
  }
}

// With an AGENTS.md source, Crush is served by it but reads the CLAUDE.md written for Claude Code
// too (its context paths hold both): compile says so.
TEST(ServedByGeneratedAgentsMdTest, ServedClientReadingAWrittenFileIsWarned) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("strata.toml", "targets = [\"claude-code\", \"crush\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(Find(*report, "crush")->status, TargetStatus::kServedBySource);
  ASSERT_EQ(CountKind(*report, "duplicate-load"), 1u);
  for (const auto& d : report->diagnostics) {
    if (d.kind == "duplicate-load") {
      EXPECT_NE(d.message.find("AGENTS.md and CLAUDE.md (written for claude-code)"),
                std::string::npos)
          << d.message;
    }
  }
}

// DeepSeek Harness's own file is the AGENTS.md source, and it reads CLAUDE.md too: written for
// Claude Code, it gives the shared text a second time, and compile says so.
TEST(ServedByGeneratedAgentsMdTest, ClientWhoseFileIsTheSourceReadingAWrittenFileIsWarned) {
  TempDir dir;
  dir.Write("AGENTS.md", kSource);
  dir.Write("strata.toml", "targets = [\"claude-code\", \"dsh\"]\n");
  auto report = CompileAt(dir);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(CountKind(*report, "duplicate-load"), 1u);
  for (const auto& d : report->diagnostics) {
    if (d.kind == "duplicate-load") {
      EXPECT_NE(d.message.find("reads AGENTS.md and CLAUDE.md (written for claude-code)"),
                std::string::npos)
          << d.message;
    }
  }
  dir.Write("strata.toml", "targets = [\"dsh\"]\n");
  auto alone = CompileAt(dir);
  ASSERT_TRUE(alone) << alone.error().message;
  EXPECT_EQ(CountKind(*alone, "duplicate-load"), 0u);
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
  // Named: Copilot reads the AGENTS.md written for Codex, so only --target writes its full copy.
  auto report = CompileAt(dir, {"codex", "copilot", "gemini-cli"}, true, "docs/rules.md");
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
