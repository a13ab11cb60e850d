// chat_cli_test.cc: `strata chat` end to end on the tiny model: one JSON object per turn with the
// checkpoint outcome and counts, a second process restoring the first one's checkpoint, usage
// errors exiting 2.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "local/local_fixture.h"

namespace strata::testing {
namespace {

using ChatCliTest = LocalTest;

nlohmann::json Parse(const std::string& line) {
  return nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
}

TEST_F(ChatCliTest, SecondProcessRestoresTheCheckpoint) {
  tmp_.Write("project/AGENTS.md", "Build with cmake.\n");
  const std::vector<std::string> args = {"chat",
                                         "--model",
                                         TinyModelPath(1).string(),
                                         "--project",
                                         project_.string(),
                                         "--store",
                                         (tmp_.path() / "cli-kv").string(),
                                         "--json",
                                         "-n",
                                         "3",
                                         "--threads",
                                         "1",
                                         "--ctx",
                                         "1024",
                                         "-p",
                                         "How do I build?"};
  CliResult first = RunCli(args, tmp_.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  nlohmann::json a = Parse(first.out);
  ASSERT_TRUE(a.is_object()) << first.out;
  EXPECT_EQ(a["checkpoint"], "miss");
  EXPECT_EQ(a["title"], "How do I build");
  EXPECT_GT(a["prefix_tokens"].get<int>(), 0);
  EXPECT_GT(a["suffix_tokens"].get<int>(), 0);
  EXPECT_TRUE(a.contains("restore_ms"));
  EXPECT_TRUE(a.contains("prefill_ms"));
  CliResult second = RunCli(args, tmp_.path());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  nlohmann::json b = Parse(second.out);
  EXPECT_EQ(b["checkpoint"], "hit");
  EXPECT_EQ(b["prefix_tokens"], a["prefix_tokens"]);
  EXPECT_EQ(b["key"], a["key"]);
  EXPECT_EQ(b["reply"], a["reply"]);  // greedy decoding from an identical state
}

TEST_F(ChatCliTest, ReplPrintsOneJsonObjectPerTurnAndSkipsBlankLines) {
  // RunCli passes this process's stdin on; the test needs it empty (as under ctest).
  if (isatty(0)) GTEST_SKIP() << "stdin is a terminal";
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv2").string(), "--json"},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv2"));  // no store or model work at all
}

TEST_F(ChatCliTest, EmptyPromptIsAUsageErrorAndDoesNoWork) {
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv3").string(), "-p", "  "},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv3"));
}

TEST_F(ChatCliTest, ContextSmallerThanBatchDecodesInContextSizedBatches) {
  // llama.cpp lowers n_batch to n_ctx; decoding a 512-token batch into it would abort in ggml.
  CliResult r = RunCli(
      {"chat", "--model", TinyModelPath(1).string(), "--store", (tmp_.path() / "kv4").string(),
       "--ctx", "64", "--batch", "512", "-n", "2", "--json", "-p", "hi"},
      tmp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"checkpoint\":\"miss\""), std::string::npos) << r.out;
}

TEST_F(ChatCliTest, NegativeMaxTokensIsAUsageError) {
  CliResult r = RunCli({"chat", "--model", TinyModelPath(1).string(), "--store",
                        (tmp_.path() / "kv5").string(), "-n", "-1", "-p", "hi"},
                       tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() / "kv5"));
}

// strata chat reads the project through discovery: an imported file is part of the checkpoint key.
TEST_F(ChatCliTest, ImportedFileKeysTheCheckpoint) {
  tmp_.Write("project/AGENTS.md", "Build with cmake.\n@docs/extra.md\n");
  tmp_.Write("project/docs/extra.md", "Run ctest after building.\n");
  std::filesystem::create_symlink("AGENTS.md", project_ / "CLAUDE.md");
  std::vector<std::string> args = {"chat", "--model", TinyModelPath(1).string(), "--project",
                                   project_.string()};
  for (const char* arg : {"--json", "-n", "0", "--threads", "1", "--ctx", "1024", "--datetime",
                          "2026-01-01T00:00:00Z", "-p", "How do I build?", "--store"}) {
    args.emplace_back(arg);
  }
  args.push_back((tmp_.path() / "kv6").string());
  nlohmann::json a = Parse(RunCli(args, tmp_.path()).out);
  nlohmann::json b = Parse(RunCli(args, tmp_.path()).out);
  tmp_.Write("project/docs/extra.md", "Run ctest twice.\n");
  nlohmann::json c = Parse(RunCli(args, tmp_.path()).out);
  ASSERT_TRUE(a.is_object() && b.is_object() && c.is_object());
  EXPECT_EQ(a["checkpoint"], "miss");
  EXPECT_EQ(b["checkpoint"], "hit");
  EXPECT_EQ(b["key"], a["key"]);
  EXPECT_EQ(c["checkpoint"], "miss");
  EXPECT_NE(c["key"], a["key"]);
}

TEST_F(ChatCliTest, MissingModelIsAUsageError) {
  CliResult r =
      RunCli({"chat", "--model", (tmp_.path() / "nope.gguf").string(), "-p", "hi"}, tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace strata::testing
