// `strata usage` on the command line: --html - prints the page instead of the table, an empty
// --html name is refused (exit 2) rather than taken as "no report".
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "support/test_support.h"

namespace strata {
namespace {

std::string OneClaudeSession() {
  return "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"s\","
         "\"timestamp\":\"2026-11-29T08:00:00Z\",\"cwd\":\"/p\",\"message\":{\"role\":\"user\","
         "\"content\":\"hi\"}}\n"
         "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"s\","
         "\"timestamp\":\"2026-11-29T08:00:05Z\",\"requestId\":\"r1\",\"message\":{\"model\":"
         "\"claude-sonnet-4-5\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
         "\"hello\"}],\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":0,"
         "\"cache_creation_input_tokens\":2000,\"output_tokens\":5}}}\n";
}

TEST(UsageCliTest, HtmlDashPrintsThePageAndAnEmptyNameIsRefused) {
  testing::TempDir home;
  home.Write(".claude/projects/p/s.jsonl", OneClaudeSession());
  auto page =
      testing::RunCli({"usage", "--home", home.path().string(), "--html", "-"}, home.path());
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_EQ(page.out.rfind("<!doctype html>", 0), 0u) << page.out.substr(0, 80);
  EXPECT_NE(page.out.find("</html>"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(home.path() / "-"));
  auto both = testing::RunCli({"usage", "--home", home.path().string(), "--json", "--html", "-"},
                              home.path());
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--json and --html - both print"), std::string::npos) << both.err;
  auto empty =
      testing::RunCli({"usage", "--home", home.path().string(), "--html", ""}, home.path());
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("--html needs a file name"), std::string::npos) << empty.err;
  EXPECT_TRUE(empty.out.empty()) << empty.out;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// --html into a folder that does not exist is refused before the scan (no folder created), and
// into a FIFO refused without replacing it.
TEST(UsageCliTest, HtmlIntoAMissingFolderOrAFifoIsRefused) {
  testing::TempDir home;
  home.Write(".claude/projects/p/s.jsonl", OneClaudeSession());
  const auto missing = home.path() / "no-such" / "r.html";
  auto r = testing::RunCli({"usage", "--home", home.path().string(), "--html", missing.string()},
                           home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such directory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.path() / "no-such"));
  const auto fifo = home.path() / "pipe.html";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto f = testing::RunCli({"usage", "--home", home.path().string(), "--html", fifo.string()},
                           home.path());
  EXPECT_NE(f.exit_code, 0);
  EXPECT_NE(f.err.find("is a FIFO"), std::string::npos) << f.err;
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

}  // namespace
}  // namespace strata
