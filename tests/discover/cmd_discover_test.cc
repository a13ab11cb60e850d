// cmd_discover_test.cc: `strata discover` prints sources, JSON and assembled content.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::TempDir;

TEST(CmdDiscoverTest, TableListsOriginBytesTruncationAndPathInOrder) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root\n@more.md\n");
  tmp.Write("more.md", "0123456789");
  tmp.Write("sub/CLAUDE.md", "sub\n");
  testing::CliResult r =
      RunCli({"discover", "--no-global", "--max-file-bytes", "4", "sub"}, tmp.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "project root: " + tmp.path().string() +
                       " (marker .git)\n"
                       "ORIGIN       BYTES  TRUNCATED PATH\n"
                       "project         14  -10       ../AGENTS.md\n"
                       "import          10  -6        ../more.md  (imported by ../AGENTS.md)\n"
                       "project          4  no        CLAUDE.md\n");
  EXPECT_NE(r.err.find("../AGENTS.md: warning: ../AGENTS.md cut to the per-file budget of 4 bytes"),
            std::string::npos)
      << r.err;
}

TEST(CmdDiscoverTest, JsonCarriesSourcesAndPositionedDiagnostics) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "see @gone.md\n");
  testing::CliResult r = RunCli({"discover", "--no-global", "--json", "--content"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["sources"].size(), 1u);
  EXPECT_EQ(j["sources"][0]["origin"], "project");
  EXPECT_EQ(j["sources"][0]["path"], "AGENTS.md");
  EXPECT_EQ(j["sources"][0]["bytes"], 13);
  EXPECT_EQ(j["sources"][0]["content"], "see @gone.md\n");
  bool missing = false;
  for (const auto& d : j["diagnostics"]) {
    if (d["kind"] == "import-missing") {
      missing = true;
      EXPECT_EQ(d["line"], 1);
      EXPECT_EQ(d["column"], 5);
    }
  }
  EXPECT_TRUE(missing);
}

TEST(CmdDiscoverTest, ContentPrintsEachSourceUnderItsPathHeader) {
  TempDir tmp;
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", "root\n");
  tmp.Write("a/AGENTS.md", "a\n");
  testing::CliResult r = RunCli({"discover", "--no-global", "--content", "a"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "<!-- source: ../AGENTS.md (project) -->\nroot\n\n"
            "<!-- source: AGENTS.md (project) -->\na\n");
}

TEST(CmdDiscoverTest, MissingDirectoryIsAnInputErrorAndRefusedFileFailsTheCheck) {
  TempDir tmp;
  EXPECT_EQ(RunCli({"discover", "--no-global", "nope"}, tmp.path()).exit_code, 2);
  fs::create_directories(tmp.path() / ".git");
  tmp.Write("AGENTS.md", std::string("bin\0ary", 7));
  testing::CliResult r = RunCli({"discover", "--no-global"}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("AGENTS.md:1:4: error: binary file"), std::string::npos) << r.err;
}

// Repeatable flags take one value each, so DIR after them stays the directory.
TEST(CmdDiscoverTest, RepeatedMarkerFlagsLeaveDirAsThePositional) {
  TempDir tmp;
  tmp.Write("WORKSPACE", "");
  tmp.Write("AGENTS.md", "top\n");
  tmp.Write("sub/AGENTS.md", "sub\n");
  testing::CliResult r = RunCli(
      {"discover", "--no-global", "--marker", "WORKSPACE", "--marker", ".hg", "sub"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(marker WORKSPACE)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("../AGENTS.md"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace strata
