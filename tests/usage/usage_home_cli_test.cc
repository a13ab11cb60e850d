// `strata usage --home DIR` on the command line: the explicit flag beats $CODEX_HOME and
// $CLAUDE_CONFIG_DIR (the environment names the roots only when no home is given), and a home
// holding none of the roots is a warning naming the paths looked at.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata {
namespace {

std::string OneCodexRollout() {
  return "{\"timestamp\":\"2026-11-29T10:00:00Z\",\"type\":\"turn_context\",\"payload\":{"
         "\"model\":\"gpt-5-codex\"}}\n"
         "{\"timestamp\":\"2026-11-29T10:00:05Z\",\"type\":\"response_item\",\"payload\":{"
         "\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
         "\"text\":\"ok\"}]}}\n"
         "{\"timestamp\":\"2026-11-29T10:00:05Z\",\"type\":\"event_msg\",\"payload\":{\"type\":"
         "\"token_count\",\"info\":{\"total_token_usage\":{\"total_tokens\":5050},"
         "\"last_token_usage\":{\"input_tokens\":5000,\"cached_input_tokens\":0,"
         "\"output_tokens\":50}}}}\n";
}

TEST(UsageHomeCliTest, AnExplicitHomeBeatsTheEnvironment) {
  testing::TempDir home, env;
  home.Write(".codex/sessions/rollout-home.jsonl", OneCodexRollout());
  env.Write("codex/sessions/rollout-env.jsonl", OneCodexRollout());
  const std::vector<std::string> vars = {"CODEX_HOME=" + (env.path() / "codex").string(),
                                         "CLAUDE_CONFIG_DIR=" + (env.path() / "claude").string()};
  auto r = testing::RunCli({"usage", "--home", home.path().string(), "--json"}, home.path(), vars);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"id\": \"rollout-home\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("rollout-env"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("no agent logs found"), std::string::npos) << r.out;

  testing::TempDir empty;
  auto none = testing::RunCli({"usage", "--home", empty.path().string()}, empty.path(), vars);
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("warning: " + empty.path().string() +
                          ": no agent logs found under this home (looked at " +
                          (empty.path() / ".config/claude/projects").string()),
            std::string::npos)
      << none.out;
}

}  // namespace
}  // namespace strata
