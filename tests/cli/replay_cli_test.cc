// replay CLI tests: the provider's recorded usage beside the model's figures; stdin as input.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace strata {
namespace {

// The provider's own usage from the log stands next to the model's figures, per turn.
TEST(ReplayCliTest, RecordedUsageIsPrintedBesideTheModelsFigures) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  auto path = *corpus / "transcripts" / "claude-code-subagent.jsonl";
  auto text = testing::RunCli({"replay", "--transcript", path.string(), "--format", "claude-code",
                               "--provider", "anthropic"},
                              *corpus);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("rec.read"), std::string::npos);
  // Turn 1 as Claude Code logged it: 28162 input, 17915 cache read, 10245 cache creation.
  EXPECT_NE(text.out.find("28162     17915     10245"), std::string::npos) << text.out;
  auto json = testing::RunCli({"replay", "--transcript", path.string(), "--format", "claude-code",
                               "--provider", "anthropic", "--json"},
                              *corpus);
  ASSERT_EQ(json.exit_code, 0);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["turns"][0]["recorded"]["cache_read_tokens"], 17915);
  EXPECT_TRUE(j["turns"][0].contains("cache_read_tokens"));
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// `strata replay --transcript -` and `strata explain - B.json` read standard input.
TEST(ReplayCliTest, DashReadsStandardInput) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  testing::TempDir dir;
  auto log = dir.Write("t.jsonl",
                       "{\"type\":\"context\",\"model\":\"m\",\"persona\":\"You help.\"}\n"
                       "{\"type\":\"user\",\"text\":\"hi\"}\n"
                       "{\"type\":\"assistant\",\"text\":\"hello\"}\n");
  std::string cli = STRATA_CLI_PATH;
  std::string vocab = STRATA_LLAMA_VOCAB_DIR;
  auto out = dir.path() / "out.json";
  std::string replay = "'" + cli + "' replay --transcript - --json --vocab-dir '" + vocab +
                       "' --dump-requests '" + dir.path().string() + "/req' < '" + log.string() +
                       "' > '" + out.string() + "'";
  ASSERT_EQ(std::system(replay.c_str()), 0);
  auto j = nlohmann::json::parse(testing::ReadAll(out));
  EXPECT_EQ(j["turns"].size(), 1u);
  std::string req = dir.path().string() + "/req/1.json";
  std::string explain = "'" + cli + "' explain - '" + req + "' --vocab-dir '" + vocab + "' < '" +
                        req + "' > '" + out.string() + "'";
  ASSERT_EQ(std::system(explain.c_str()), 0);
  EXPECT_NE(testing::ReadAll(out).find("identical requests"), std::string::npos);
  auto both = testing::RunCli({"explain", "-", "-"}, dir.path());
  EXPECT_EQ(both.exit_code, 2);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// Without --format, replay and explain --log tell a Claude Code log and a Codex rollout from their
// lines and print what --format would have printed; a log they cannot tell asks for --format.
TEST(ReplayCliTest, TheFormatIsToldFromTheLog) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  const auto fixtures = std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures";
  const std::string vocab = STRATA_LLAMA_VOCAB_DIR;
  for (auto [name, format] : {std::pair{"claude-code-no-ids.jsonl", "claude-code"},
                              std::pair{"codex-compaction.jsonl", "codex"}}) {
    const std::string log = (fixtures / name).string();
    auto told =
        testing::RunCli({"replay", "--transcript", log, "--vocab-dir", vocab, "--json"}, fixtures);
    auto given = testing::RunCli(
        {"replay", "--transcript", log, "--vocab-dir", vocab, "--json", "--format", format},
        fixtures);
    ASSERT_EQ(told.exit_code, 0) << told.err;
    ASSERT_EQ(given.exit_code, 0) << given.err;
    EXPECT_EQ(nlohmann::json::parse(told.out)["transcript_format"], format);
    EXPECT_EQ(told.out, given.out) << name;
    auto explained = testing::RunCli(
        {"explain", "--log", log, "--request", "2", "--vocab-dir", vocab}, fixtures);
    auto explained_given = testing::RunCli(
        {"explain", "--log", log, "--request", "2", "--vocab-dir", vocab, "--format", format},
        fixtures);
    ASSERT_EQ(explained.exit_code, 0) << explained.err;
    EXPECT_EQ(explained.out, explained_given.out) << name;
  }
  testing::TempDir dir;
  auto odd = dir.Write("odd.jsonl", "{\"hello\":1}\n");
  auto r =
      testing::RunCli({"replay", "--transcript", odd.string(), "--vocab-dir", vocab}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("odd.jsonl"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give --format"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A price, multiplier or retention that is negative, not finite or not a number is refused
// (exit 2, the flag and the value named) before any log is read: none is taken as "not given".
TEST(ReplayCliTest, BadNumberFlagsAreRefused) {
  testing::TempDir dir;
  auto log = dir.Write("t.jsonl", "{\"type\":\"user\",\"text\":\"hi\"}\n");
  for (auto [flag, value] :
       {std::pair{"--price", "-5"}, std::pair{"--price", "nan"}, std::pair{"--price", "inf"},
        std::pair{"--price", "-0"}, std::pair{"--price", "3x"},
        std::pair{"--read-multiplier", "-0.1"}, std::pair{"--write-multiplier", "NaN"},
        std::pair{"--write-1h-multiplier", "1e999"}, std::pair{"--retention", "-1"},
        std::pair{"--long-ttl", "-1"}, std::pair{"--long-ttl", "5"}}) {
    auto r = testing::RunCli({"replay", "--transcript", log.string(), flag, value}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << flag << " " << value << ": " << r.out;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(value), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The Codex fixture's compaction: replay names its drop `compaction`, as explain --log does on
// the same request, not "unexplained (not predicted)" (the rebuilt prompt kept the user messages,
// so the cache model's read did not fall).
TEST(ReplayCliTest, ACodexCompactionDropIsNamedCompactionByReplayAndExplain) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  const auto fixtures = std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures";
  const std::string log = (fixtures / "codex-compaction.jsonl").string();
  auto r = testing::RunCli(
      {"replay", "--transcript", log, "--json", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR}, fixtures);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  size_t drops = 0;
  for (size_t i = 0; i < j["turns"].size(); ++i) {
    const auto& t = j["turns"][i];
    if (!t.contains("drop")) continue;
    ++drops;
    EXPECT_EQ(t["drop"]["cause"], "compaction") << t.dump();
    EXPECT_EQ(t["drop"]["predicted"], true) << t.dump();
    auto e = testing::RunCli({"explain", "--log", log, "--request", std::to_string(i + 1), "--json",
                              "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                             fixtures);
    ASSERT_EQ(e.exit_code, 0) << e.err;
    auto x = nlohmann::json::parse(e.out);
    EXPECT_EQ(x["cause"], "compaction");
    EXPECT_EQ(x["lost_cached_tokens"], t["drop"]["lost_tokens"]);
  }
  EXPECT_EQ(drops, 1u) << r.out;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A Claude Code request on claude-opus-4-5 ($5/MTok input) that recorded 100 uncached tokens and
// a 1,000-token write, all of it 1 h entries: its recorded prompt cost is (100 + 1000 * 2) * 5 /
// 10^6 = $0.0105 (a 1 h write costs 2x, not the 5 min 1.25x). A multiplier flag replaces only its
// own figure: --read-multiplier 0.1 keeps the model's $5, --write-1h-multiplier 3 makes it (100 +
// 3000) * 5 / 10^6 = $0.0155.
TEST(ReplayCliTest, TheRecordedCostPricesOneHourWritesAndKeepsTheModelsPriceUnderAFlag) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  testing::TempDir dir;
  auto log = dir.Write(
      "s.jsonl",
      "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"s\",\"timestamp\":"
      "\"2026-11-29T08:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
      "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"s\","
      "\"timestamp\":\"2026-11-29T08:00:05Z\",\"requestId\":\"r1\",\"message\":{\"model\":"
      "\"claude-opus-4-5\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
      "\"hello\"}],\"usage\":{\"input_tokens\":100,\"cache_read_input_tokens\":0,"
      "\"cache_creation_input_tokens\":1000,\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,"
      "\"ephemeral_1h_input_tokens\":1000},\"output_tokens\":5}}}\n");
  auto cost = [&](std::vector<std::string> flags) {
    std::vector<std::string> args = {"replay", "--transcript", log.string(),
                                     "--json", "--vocab-dir",  STRATA_LLAMA_VOCAB_DIR};
    args.insert(args.end(), flags.begin(), flags.end());
    auto r = testing::RunCli(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_NE(j.value("prices", "").find("claude-opus-4-5 list price"), std::string::npos)
        << j.value("prices", "");
    return j.is_object() ? j["totals"].value("recorded_cost", -1.0) : -1.0;
  };
  EXPECT_NEAR(cost({}), 0.0105, 1e-9);
  EXPECT_NEAR(cost({"--read-multiplier", "0.1"}), 0.0105, 1e-9);
  EXPECT_NEAR(cost({"--write-1h-multiplier", "3"}), 0.0155, 1e-9);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A retention past 2^31 seconds is printed as given, not wrapped negative through an int.
TEST(ReplayCliTest, AHugeRetentionIsPrintedAsGiven) {
  if (std::string(STRATA_LLAMA_VOCAB_DIR).empty()) GTEST_SKIP() << "no vocabulary files";
  const auto fixtures = std::filesystem::path(STRATA_SOURCE_DIR) / "tests/transcripts/fixtures";
  auto r = testing::RunCli({"replay", "--transcript", (fixtures / "codex-desktop.jsonl").string(),
                            "--retention", "3e9", "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           fixtures);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("retention 3e+09 s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("retention -"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace strata
