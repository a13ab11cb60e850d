// Codex rollout reader tests: token_count snapshots repeated unchanged do not close a request,
// "info": null is no usage, and usage counts of the wrong type are refused at their line.
#include "transcripts/codex_rollout.h"

#include <gtest/gtest.h>

#include <string>

namespace strata {
namespace {

std::string Message(const char* role, const char* text) {
  return std::string(R"({"type":"response_item","payload":{"type":"message","role":")") + role +
         R"(","content":[{"type":"output_text","text":")" + text + R"("}]}})" + "\n";
}

std::string TokenCount(const std::string& total, const std::string& input,
                       const std::string& cached) {
  return R"({"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":)" +
         total + R"(},"last_token_usage":{"input_tokens":)" + input + R"(,"cached_input_tokens":)" +
         cached + "}}}}\n";
}

const std::string kStart = R"({"type":"event_msg","payload":{"type":"task_started"}})"
                           "\n";

TEST(CodexRolloutTest, RepeatedTokenCountSnapshotsCollapse) {
  std::string log = kStart + Message("user", "Fix it.") + Message("assistant", "Looking.") +
                    TokenCount("100", "90", "10") + Message("user", "And the test.") +
                    Message("assistant", "Done.") +
                    TokenCount("100", "90", "10") +  // the same snapshot again: not a request
                    TokenCount("250", "150", "90");
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  std::vector<const TranscriptEvent*> requests;
  for (const auto& e : t->events)
    if (e.kind == TranscriptEventKind::kAssistant) requests.push_back(&e);
  ASSERT_EQ(requests.size(), 2u);
  ASSERT_TRUE(requests[0]->recorded && requests[1]->recorded);
  EXPECT_EQ(requests[0]->recorded->input_tokens, 90u);
  EXPECT_EQ(requests[0]->recorded->cache_read_tokens, 10u);
  EXPECT_EQ(requests[1]->message.text, "Done.");
  EXPECT_EQ(requests[1]->recorded->input_tokens, 150u);
  EXPECT_EQ(requests[1]->recorded->cache_read_tokens, 90u);
}

TEST(CodexRolloutTest, NullInfoIsNoUsage) {
  std::string log = kStart + Message("user", "hi") + Message("assistant", "hello") +
                    R"({"type":"event_msg","payload":{"type":"token_count","info":null}})" + "\n";
  auto t = ImportCodexRollout(log, "r.jsonl");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->RequestCount(), 1u);
}

TEST(CodexRolloutTest, UsageThatIsNotACountIsAnErrorAtItsLine) {
  for (const char* value : {R"("12")", "-5", "1e30"}) {
    std::string log = kStart + Message("user", "hi") + Message("assistant", "hello") +
                      TokenCount("100", value, "0");
    auto t = ImportCodexRollout(log, "r.jsonl");
    ASSERT_FALSE(t) << value;
    EXPECT_EQ(t.error().where.line, 4) << value;
    EXPECT_NE(t.error().message.find("'payload.info.last_token_usage.input_tokens'"),
              std::string::npos)
        << t.error().message;
  }
}

}  // namespace
}  // namespace strata
