// The CLI surface of compile, audit and adopt: exit statuses, diagnostic format, --json, and the
// repository's own compiled client files (strata dogfoods its bands).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace strata {
namespace {

using testing::RunCli;
using testing::TempDir;

TEST(CompileCliTest, VerifyStableRefusesPlantedHeadTimestampWithLocation) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\nstamp 2026-10-07T12:30:00Z\n");
  auto r = RunCli({"compile", "--verify-stable", "--target", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("AGENTS.md:3:7: error: timestamp: 2026-10-07T12:30:00Z"), std::string::npos)
      << r.err;
}

TEST(CompileCliTest, CompileVerifyStableOnCleanSourcePrintsWritesAndVerdict) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\nretry count: 3\n");
  auto r = RunCli({"compile", "--verify-stable", "--target", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote CLAUDE.md"), std::string::npos);
  EXPECT_NE(r.out.find("stable: 1 target renders identically"), std::string::npos) << r.out;
}

TEST(CompileCliTest, VerifyExitsOneAndListsEveryMissingTarget) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\nx\n");
  auto r =
      RunCli({"compile", "--verify", "--target", "claude-code", "--target", "zed"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("CLAUDE.md: error: CLAUDE.md is missing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".rules: error: .rules is missing"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "CLAUDE.md"));
}

TEST(CompileCliTest, UnknownTargetExitsTwo) {
  TempDir dir;
  dir.Write("AGENTS.md", "x\n");
  auto r = RunCli({"compile", "--target", "emacs"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("valid targets: claude-code"), std::string::npos);
}

TEST(CompileCliTest, JsonReportParsesAndNamesEveryTarget) {
  TempDir dir;
  dir.Write("AGENTS.md", "no markers\n");
  auto r = RunCli({"compile", "--json", "--verify-stable"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "compile");
  EXPECT_EQ(j["targets"].size(), 49u);  // every target in the table (docs/targets.md)
  EXPECT_EQ(j["targets"][0]["id"], "claude-code");
  EXPECT_EQ(j["targets"][0]["status"], "written");
  EXPECT_EQ(j["diagnostics"][0]["kind"], "unmarked-source");
  EXPECT_EQ(j["stability"]["stable"], true);
  EXPECT_EQ(j["ok"], true);
}

TEST(CompileCliTest, JsonErrorIsAnObjectToo) {
  TempDir dir;
  auto r = RunCli({"compile", "--json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_NE(j["error"]["message"].get<std::string>().find("no instruction source"),
            std::string::npos);
}

TEST(CompileCliTest, VerifyJsonReportsStaleTargetsAndWritesNothing) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\nx\n");
  auto r = RunCli({"compile", "--verify", "--json", "--target", "zed"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "verify");
  EXPECT_EQ(j["targets"][0]["status"], "missing");
  EXPECT_EQ(j["ok"], false);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".rules"));
}

TEST(CompileCliTest, AuditRunsBothChecksAndWarnsAboutUnmarkedSource) {
  TempDir dir;
  dir.Write("AGENTS.md", "# T\nhome is /home/alice/x\n");
  auto r = RunCli({"audit", "--json", "--target", "gemini-cli"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "audit");
  EXPECT_EQ(j["targets"][0]["status"], "missing");
  EXPECT_EQ(j["diagnostics"][0]["kind"], "unmarked-source");
  EXPECT_EQ(j["stability"]["findings"][0]["kind"], "absolute-path");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "GEMINI.md"));
}

TEST(CompileCliTest, AdoptLeavesExistingFileAlone) {
  TempDir dir;
  dir.Write("AGENTS.md", "mine\n");
  auto r = RunCli({"adopt"}, dir.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(testing::ReadAll(dir.path() / "AGENTS.md"), "mine\n");
}

// Issue 23: adopt names the merged file a client would still load beside its compiled file and
// the command that moves it aside; --remove-adopted moves it (and needs --from).
TEST(CompileCliTest, AdoptNamesTheFileLeftLoadingAndRemoveAdoptedMovesIt) {
  const char* base = "---\nalwaysApply: true\n---\n# T\n\nShared.\n\nCursor bit.\n";
  TempDir dir;
  dir.Write("CLAUDE.md", "# T\n\nShared.\n\nClaude bit.\n");
  dir.Write(".cursor/rules/base.mdc", base);
  auto told = RunCli({"adopt", "--from", "CLAUDE.md", ".cursor/rules/base.mdc"}, dir.path());
  EXPECT_EQ(told.exit_code, 0) << told.err;
  EXPECT_NE(told.out.find("  .cursor/rules/base.mdc still loads beside the compiled "
                          ".cursor/rules/strata.mdc (cursor would read its text twice): move it "
                          "aside with `mkdir -p .strata/adopted/.cursor/rules && mv "
                          ".cursor/rules/base.mdc .strata/adopted/.cursor/rules/base.mdc.adopted`"),
            std::string::npos)
      << told.out;
  EXPECT_EQ(told.out.find("CLAUDE.md still loads"), std::string::npos) << told.out;
  EXPECT_EQ(testing::ReadAll(dir.path() / ".cursor/rules/base.mdc"), base);

  EXPECT_EQ(RunCli({"adopt", "--remove-adopted"}, dir.path()).exit_code, 2);
  auto moved = RunCli(
      {"adopt", "--force", "--remove-adopted", "--from", "CLAUDE.md", ".cursor/rules/base.mdc"},
      dir.path());
  EXPECT_EQ(moved.exit_code, 0) << moved.err;
  EXPECT_NE(moved.out.find("moved .cursor/rules/base.mdc to "
                           ".strata/adopted/.cursor/rules/base.mdc.adopted"),
            std::string::npos)
      << moved.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".cursor/rules/base.mdc"));
  EXPECT_EQ(testing::ReadAll(dir.path() / ".strata/adopted/.cursor/rules/base.mdc.adopted"), base);
}

TEST(CompileCliTest, NoArgumentsIsAUsageError) {
  TempDir dir;
  EXPECT_EQ(RunCli({}, dir.path()).exit_code, 2);
  EXPECT_EQ(RunCli({"compile", "--bogus"}, dir.path()).exit_code, 2);
}

// strata's own AGENTS.md is written in bands and its compiled client files are committed: they must
// be current and stable.
// Issue 12: run from a subdirectory, compile writes at the project root and says so.
TEST(CompileCliTest, CompileFromSubdirectoryWritesAtTheProjectRoot) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
  dir.Write("packages/ai/README.md", "pkg\n");
  auto r = RunCli({"compile", "--target", "copilot"}, dir.path() / "packages/ai");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ".github/copilot-instructions.md"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "packages/ai/.github"));
  EXPECT_NE(r.err.find("using the project root"), std::string::npos) << r.err;
}

// Issue 12: --verify-stable with a finding exits 1 and writes nothing.
TEST(CompileCliTest, VerifyStableFindingWritesNothing) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\nstamp 2026-10-07T12:30:00Z\n");
  auto r = RunCli({"compile", "--verify-stable", "--json", "--target", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "CLAUDE.md"));
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["targets"][0]["status"], "stale");
  EXPECT_NE(j["targets"][0]["detail"].get<std::string>().find("not written"), std::string::npos);
}

TEST(DogfoodTest, RepositoryClientFilesAreCurrentAndStable) {
  auto r = RunCli({"compile", "--verify", "--verify-stable"}, STRATA_SOURCE_DIR);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

// Containment of compile: block files, a symlinked target directory, a target symlink out of the
// root: refused with or without --force, naming the allow options, nothing outside touched.
TEST(CompileCliTest, BlockFileOutsideTheRootIsRefusedNamingTheAllowOptions) {
  for (const char* file : {"/etc/hostname", "../../x"}) {
    TempDir dir;
    dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
    dir.Write("strata.toml", std::string("[blocks.x]\nfile = \"") + file + "\"\n");
    auto r = RunCli({"compile", "--target", "claude-code"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << file;
    EXPECT_NE(r.err.find("[blocks.x] file = \"" + std::string(file) + "\" resolves outside"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--allow-outside-root or --allow-dir DIR"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "CLAUDE.md"));
  }
}

TEST(CompileCliTest, TargetThroughASymlinkOutOfTheRootIsRefusedEvenWithForce) {
  TempDir outside;
  outside.Write("passwd", "root:x:0:0\n");
  for (const char* force : {"", "--force"}) {
    TempDir dir;
    dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
    std::filesystem::create_directory_symlink(outside.path(), dir.path() / ".github");
    std::filesystem::create_symlink(outside.path() / "passwd", dir.path() / "CLAUDE.md");
    std::vector<std::string> args = {"compile", "--target", "claude-code", "--target", "copilot"};
    if (*force) args.emplace_back(force);
    auto r = RunCli(args, dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("CLAUDE.md: error: target CLAUDE.md: CLAUDE.md resolves outside"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(".github/copilot-instructions.md resolves outside"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--allow-outside-root or --allow-dir DIR"), std::string::npos) << r.err;
  }
  EXPECT_EQ(testing::ReadAll(outside.path() / "passwd"), "root:x:0:0\n");
  EXPECT_FALSE(std::filesystem::exists(outside.path() / "copilot-instructions.md"));
}

TEST(CompileCliTest, AllowDirLetsATargetDirectoryOutsideTheRootBeWritten) {
  TempDir outside;
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
  std::filesystem::create_directory_symlink(outside.path(), dir.path() / ".github");
  auto r = RunCli({"compile", "--target", "copilot", "--allow-dir", outside.path().string()},
                  dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(outside.path() / "copilot-instructions.md"));
}

TEST(CompileCliTest, TemporariesOfAKilledCompileAreReportedByVerifyAndRemovedByCompile) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
  dir.Write(".CLAUDE.md.strata-tmp-Ab3dE9", "half");
  auto verify = RunCli({"compile", "--verify", "--target", "claude-code"}, dir.path());
  EXPECT_NE(verify.err.find(".CLAUDE.md.strata-tmp-Ab3dE9: warning: temporary file left by a "
                            "compile that was killed"),
            std::string::npos)
      << verify.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ".CLAUDE.md.strata-tmp-Ab3dE9"));
  auto r = RunCli({"compile", "--target", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".CLAUDE.md.strata-tmp-Ab3dE9"));
}

// --verify counts what it lists: orphans are not "0 of N targets".
TEST(CompileCliTest, VerifySummaryCountsTheOrphansItLists) {
  TempDir dir;
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
  dir.Write("strata.toml", "targets = [\"claude-code\", \"gemini-cli\", \"zed\"]\n");
  ASSERT_EQ(RunCli({"compile"}, dir.path()).exit_code, 0);
  dir.Write("strata.toml", "targets = [\"claude-code\"]\n");
  auto r = RunCli({"compile", "--verify"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("verify failed: 2 orphaned generated files (no configured target produces "
                       "them)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("targets need attention"), std::string::npos) << r.out;
}

// audit fails when a client would load the same text twice (Goose: AGENTS.md and a copy).
TEST(CompileCliTest, AuditReportsAClientThatLoadsTheSameTextTwice) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("AGENTS.md", "<!-- strata:head -->\n# T\n");
  dir.Write("strata.toml", "targets = [\"claude-code\", \"goose\"]\n");
  ASSERT_EQ(RunCli({"compile"}, dir.path()).exit_code, 0);
  EXPECT_EQ(RunCli({"audit"}, dir.path()).exit_code, 0);
  auto named = RunCli({"compile", "--target", "goose"}, dir.path());
  EXPECT_NE(named.err.find(".goosehints: warning: Goose reads AGENTS.md itself"), std::string::npos)
      << named.err;
  auto r = RunCli({"audit", "--target", "goose"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(".goosehints: error: goose loads AGENTS.md and .goosehints"),
            std::string::npos)
      << r.err;
}

// --client claude-code finds the git root as default discovery does, not `/`.
TEST(CompileCliTest, ClientModeFindsTheGitRoot) {
  TempDir dir;
  dir.Write(".git/HEAD", "ref: refs/heads/main\n");
  dir.Write("CLAUDE.md", "memory\n");
  auto r = RunCli({"discover", "--client", "claude-code"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(marker .git)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("no marker found"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace strata
