// `strata usage --home DIR` on the command line: the explicit flag beats $CODEX_HOME and
// $CLAUDE_CONFIG_DIR (the environment names the roots only when no home is given), and a home
// holding none of the roots is a warning naming the paths looked at.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace strata {
namespace {

// A Codex rollout of one request (5000 input, 50 output) on `model`; `provider` non-empty: a
// session_meta naming that model_provider first.
std::string OneCodexRollout(const std::string& model = "gpt-5-codex",
                            const std::string& provider = "") {
  const std::string meta =
      provider.empty() ? ""
                       : "{\"timestamp\":\"2026-11-29T10:00:00Z\",\"type\":\"session_meta\","
                         "\"payload\":{\"id\":\"s\",\"cwd\":\"/p\",\"model_provider\":\"" +
                             provider + "\"}}\n";
  return meta +
         "{\"timestamp\":\"2026-11-29T10:00:00Z\",\"type\":\"turn_context\",\"payload\":{"
         "\"model\":\"" +
         model +
         "\"}}\n"
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

// A model the price table does not know (a local model behind Codex's ollama provider) is priced
// at its provider's default, and said so once: its cost is a guess, not a list price.
TEST(UsageHomeCliTest, AModelNotInThePriceTableIsNamedInAWarning) {
  testing::TempDir home;
  const std::string rollout = OneCodexRollout("qwen3-coder:30b", "ollama");
  home.Write(".codex/sessions/2026/11/29/rollout-a.jsonl", rollout);
  home.Write(".codex/sessions/2026/11/29/rollout-b.jsonl", rollout);
  auto r = testing::RunCli({"usage", "--home", home.path().string()}, home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = r.out + r.err;
  const std::string warning = "model 'qwen3-coder:30b' is not in the price table";
  const size_t at = text.find(warning);
  EXPECT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.find(warning, at + 1), std::string::npos) << "named once: " << text;
}

}  // namespace
}  // namespace strata
