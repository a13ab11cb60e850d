// DetectTranscriptFormat: each format told from the hand-written fixtures and the corpus logs, a
// Claude Code log opening with its bookkeeping lines, strata's own events, a log no rule matches
// (an error asking for --format), and the bound on the lines read.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_io.h"
#include "strata/accounting.h"
#include "support/test_support.h"

namespace strata {
namespace {

std::string Fixture(const std::string& name) { return testing::TranscriptFixture(name); }

std::string Detected(std::string_view log) {
  auto f = DetectTranscriptFormat(log, "log.jsonl");
  return f ? TranscriptFormatName(*f) : "error: " + f.error().message;
}

TEST(TranscriptFormatTest, EachFixtureIsToldFromItsFirstLines) {
  EXPECT_EQ(Detected(Fixture("claude-code-no-ids.jsonl")), "claude-code");
  EXPECT_EQ(Detected(Fixture("claude-code-sidechain.jsonl")), "claude-code");
  EXPECT_EQ(Detected(Fixture("codex-desktop.jsonl")), "codex");
  EXPECT_EQ(Detected(Fixture("codex-compaction.jsonl")), "codex");
  EXPECT_EQ(Detected(Fixture("recorded-two-requests.jsonl")), "recorded");
  EXPECT_EQ(Detected(Fixture("openhands-one-instance.jsonl")), "openhands");
  EXPECT_EQ(Detected(Fixture("swe-agent.traj")), "swe-agent");  // indented over many lines
}

TEST(TranscriptFormatTest, TheCorpusLogsAreTold) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus";
  for (auto [name, format] : {std::pair{"claude-code-subagent.jsonl", "claude-code"},
                              std::pair{"codex-rollout.jsonl", "codex"}}) {
    auto bytes = ReadFileBytes(*corpus / "transcripts" / name);
    if (!bytes) continue;
    EXPECT_EQ(Detected(*bytes), format) << name;
  }
}

TEST(TranscriptFormatTest, AClaudeCodeLogOpeningWithBookkeepingLinesIsClaudeCode) {
  // A summary line (leafUuid) and a file-history snapshot (messageId) come before the first
  // message in real logs.
  EXPECT_EQ(Detected("{\"type\":\"summary\",\"summary\":\"Fix\",\"leafUuid\":\"x\"}\n"),
            "claude-code");
  EXPECT_EQ(Detected("{\"type\":\"file-history-snapshot\",\"messageId\":\"m\",\"snapshot\":{}}\n"),
            "claude-code");
}

TEST(TranscriptFormatTest, StrataEventsAreStrata) {
  EXPECT_EQ(Detected("{\"type\":\"context\",\"instructions\":[]}\n"
                     "{\"type\":\"user\",\"text\":\"hi\"}\n"),
            "strata");
}

TEST(TranscriptFormatTest, ALogNoRuleMatchesAsksForTheFormat) {
  auto empty = DetectTranscriptFormat("\n \n", "empty.jsonl");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no model requests found: the log is empty"),
            std::string::npos);
  for (std::string_view log :
       {std::string_view("not json at all\n"), std::string_view("{\"hello\":1}\n[1,2]\n")}) {
    auto f = DetectTranscriptFormat(log, "odd.jsonl");
    ASSERT_FALSE(f) << log;
    EXPECT_EQ(f.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(FormatError(f.error()).find("odd.jsonl"), std::string::npos);
    EXPECT_NE(f.error().message.find("give --format"), std::string::npos);
  }
}

TEST(TranscriptFormatTest, OnlyTheFirstTwentyLinesAreRead) {
  std::string log;
  for (int i = 0; i < 19; ++i) log += "{\"other\":" + std::to_string(i) + "}\n";
  const std::string codex = "{\"type\":\"session_meta\",\"payload\":{}}\n";
  EXPECT_EQ(Detected(log + codex), "codex");  // line 20
  EXPECT_NE(Detected(log + "{\"other\":19}\n" + codex).find("error: "), std::string::npos);
}

TEST(TranscriptFormatTest, ACutShortFirstLineDoesNotHideTheNext) {
  EXPECT_EQ(Detected("{\"type\":\"user\",\"uu\n{\"type\":\"turn_context\",\"payload\":{}}\n"),
            "codex");
}

}  // namespace
}  // namespace strata
