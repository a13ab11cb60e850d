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
  EXPECT_EQ(j["targets"].size(), 26u);  // every target in the table (docs/targets.md)
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

TEST(CompileCliTest, NoArgumentsIsAUsageError) {
  TempDir dir;
  EXPECT_EQ(RunCli({}, dir.path()).exit_code, 2);
  EXPECT_EQ(RunCli({"compile", "--bogus"}, dir.path()).exit_code, 2);
}

// strata's own AGENTS.md is written in bands and its compiled client files are committed: they must
// be current and stable.
TEST(DogfoodTest, RepositoryClientFilesAreCurrentAndStable) {
  auto r = RunCli({"compile", "--verify", "--verify-stable"}, STRATA_SOURCE_DIR);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata
