// prefill_progress_slow_test.cc: a long prefill shows while it runs. With a small batch (-b 32
// -ub 32) a prompt of T tokens is decoded in ceil(T / 32) steps, each taking the next 32 tokens;
// once the prefill has run longer than the threshold (0 ms here, so every step counts) each step
// logs one "serve: prefill" line, and a streamed request with llama-server's return_progress gets
// one prompt_progress event at the start (processed = cache) and one per step, in llama-server's
// shape for /completion, Chat Completions and Responses (response.in_progress events), and as
// `ping` events on Messages (strata's extension: llama-server sends none there).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

class PrefillProgressTest : public ServeTest {
 protected:
  ServeOptions Small() const {
    ServeOptions o = Options();
    o.n_batch = 32;
    o.n_ubatch = 32;
    o.progress_log_after_ms = 0;
    return o;
  }
  static std::string LongPrompt(int words) {
    std::string out;
    for (int i = 0; i < words; ++i) out += "word" + std::to_string(i) + " ";
    return out;
  }
  // The prompt's steps from `cache` tokens reused: 32 more each, the last one to `total`.
  static std::vector<size_t> Steps(size_t cache, size_t total) {
    std::vector<size_t> out;
    for (size_t done = cache; done < total;) {
      done = std::min(done + 32, total);
      out.push_back(done);
    }
    return out;
  }
};

TEST_F(PrefillProgressTest, EachStepOfALongPrefillLogsALine) {
  RunningServer server(Small());
  auto c = server.Client();
  json r =
      Post(*c, "/completion", {{"prompt", LongPrompt(60)}, {"n_predict", 1}, {"temperature", 0}});
  const size_t total = r["tokens_evaluated"].get<size_t>();
  ASSERT_GT(total, 100u) << r.dump();
  std::vector<size_t> done;
  const std::regex line(
      R"(^serve: prefill api=completion seq=0 done=(\d+)/(\d+) \((\d+)%\) rate=[0-9.]+ tok/s elapsed_ms=\d+$)");
  for (const std::string& l : server.log()) {
    std::smatch m;
    if (!l.starts_with("serve: prefill")) continue;
    ASSERT_TRUE(std::regex_match(l, m, line)) << l;
    EXPECT_EQ(std::stoul(m[2]), total) << l;
    EXPECT_EQ(std::stoul(m[3]), std::stoul(m[1]) * 100 / total) << l;
    done.push_back(std::stoul(m[1]));
  }
  EXPECT_EQ(done, Steps(0, total));
}

TEST_F(PrefillProgressTest, StreamedRequestsWithReturnProgressGetLlamaServersEvents) {
  RunningServer server(Small());
  auto c = server.Client();
  const std::string prompt = LongPrompt(50);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    // Round 1 extends round 0's prompt: its events start from the reused tokens.
    json body{{"prompt", round == 0 ? prompt : prompt + LongPrompt(20)},
              {"n_predict", 2},
              {"temperature", 0},
              {"stream", true},
              {"return_progress", true}};
    auto res = c->Post("/completion", body.dump(), "application/json");
    ASSERT_TRUE(res && res->status == 200);
    std::vector<json> progress;
    json last;
    for (const json& e : SseData(res->body)) {
      if (e.contains("prompt_progress")) {
        progress.push_back(e["prompt_progress"]);
        // llama-server's partial-result shape around it.
        EXPECT_EQ(e["content"], "");
        EXPECT_EQ(e["stop"], false);
        EXPECT_EQ(e["tokens_predicted"], 0);
      }
      last = e;
    }
    const size_t total = last["tokens_evaluated"].get<size_t>();
    const size_t cache = last["timings"]["cache_n"].get<size_t>();
    if (round == 1) EXPECT_GT(cache, 0u);
    ASSERT_FALSE(progress.empty());
    std::vector<size_t> processed;
    int64_t time_ms = 0;
    for (const json& p : progress) {
      EXPECT_EQ(p["total"], total);
      EXPECT_EQ(p["cache"], cache);
      EXPECT_GE(p["time_ms"].get<int64_t>(), time_ms);
      time_ms = p["time_ms"];
      processed.push_back(p["processed"]);
    }
    std::vector<size_t> expected = {cache};
    for (size_t s : Steps(cache, total)) expected.push_back(s);
    EXPECT_EQ(processed, expected);
  }
  // /v1/completions: text_completion chunks with empty text carry them.
  auto legacy = c->Post("/v1/completions",
                        json{{"prompt", LongPrompt(45)},
                             {"max_tokens", 2},
                             {"stream", true},
                             {"return_progress", true}}
                            .dump(),
                        "application/json");
  ASSERT_TRUE(legacy && legacy->status == 200);
  size_t chunks = 0;
  for (const json& e : SseData(legacy->body)) {
    if (!e.is_object() || !e.contains("prompt_progress")) continue;
    ++chunks;
    EXPECT_EQ(e["object"], "text_completion");
    EXPECT_EQ(e["choices"][0]["text"], "");
  }
  EXPECT_GE(chunks, 2u);
  // Without return_progress: no progress event.
  auto res =
      c->Post("/completion", json{{"prompt", "short"}, {"n_predict", 2}, {"stream", true}}.dump(),
              "application/json");
  ASSERT_TRUE(res);
  for (const json& e : SseData(res->body)) EXPECT_FALSE(e.contains("prompt_progress"));
}

TEST_F(PrefillProgressTest, ChatCompletionsProgressChunksCarryTheRoleDelta) {
  RunningServer server(Small());
  auto c = server.Client();
  json body{{"messages", {{{"role", "user"}, {"content", LongPrompt(40)}}}},
            {"max_tokens", 2},
            {"temperature", 0},
            {"stream", true},
            {"stream_options", {{"include_usage", true}}},
            {"return_progress", true}};
  auto res = c->Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(res && res->status == 200);
  std::vector<size_t> processed;
  json usage;
  for (const json& e : SseData(res->body)) {
    if (!e.is_object()) continue;
    if (e.contains("usage") && e["usage"].is_object()) usage = e["usage"];
    if (!e.contains("prompt_progress")) continue;
    EXPECT_EQ(e["object"], "chat.completion.chunk");
    EXPECT_EQ(e["choices"][0]["delta"], json({{"role", "assistant"}, {"content", nullptr}}));
    processed.push_back(e["prompt_progress"]["processed"]);
  }
  const size_t total = usage["prompt_tokens"].get<size_t>();
  std::vector<size_t> expected = {0};
  for (size_t s : Steps(0, total)) expected.push_back(s);
  EXPECT_EQ(processed, expected);
}

// Responses, as llama-server sends them: the first progress event follows response.created and is
// a response.in_progress event with prompt_progress beside its response; one more per step; the
// stream then goes on without a second response.created.
TEST_F(PrefillProgressTest, ResponsesProgressEventsAreInProgressEventsWithPromptProgress) {
  RunningServer server(Small());
  auto c = server.Client();
  json body{{"input", LongPrompt(40)},
            {"max_output_tokens", 2},
            {"temperature", 0},
            {"stream", true},
            {"return_progress", true}};
  auto res = c->Post("/v1/responses", body.dump(), "application/json");
  ASSERT_TRUE(res && res->status == 200);
  std::vector<std::string> types;
  std::vector<size_t> processed;
  json completed;
  for (const json& e : SseData(res->body)) {
    types.push_back(e.value("type", ""));
    if (types.back() == "response.incomplete") completed = e["response"];
    if (!e.contains("prompt_progress")) continue;
    EXPECT_EQ(e["type"], "response.in_progress") << e.dump();
    EXPECT_EQ(e["response"]["status"], "in_progress");
    EXPECT_EQ(e["prompt_progress"]["cache"], 0);
    processed.push_back(e["prompt_progress"]["processed"]);
  }
  const size_t total = completed["usage"]["input_tokens"].get<size_t>();
  std::vector<size_t> expected = {0};
  for (size_t s : Steps(0, total)) expected.push_back(s);
  EXPECT_EQ(processed, expected);
  ASSERT_GE(types.size(), 2u);
  EXPECT_EQ(types[0], "response.created");
  EXPECT_EQ(types[1], "response.in_progress");
  EXPECT_EQ(std::count(types.begin(), types.end(), "response.created"), 1);
  // One in_progress event per progress event: none without prompt_progress.
  EXPECT_EQ(static_cast<size_t>(std::count(types.begin(), types.end(), "response.in_progress")),
            expected.size());
  EXPECT_EQ(types.back(), "response.incomplete");  // cut by max_output_tokens (OpenAI's event)
}

// Messages: llama-server passes no return_progress on from /v1/messages; strata sends the
// progress as Anthropic `ping` events (which clients skip): the first before message_start (the
// prefill begins before the prompt's usage is known), all before the first content block.
TEST_F(PrefillProgressTest, MessagesProgressEventsArePingsBeforeTheFirstBlock) {
  RunningServer server(Small());
  auto c = server.Client();
  json body{{"messages", {{{"role", "user"}, {"content", LongPrompt(40)}}}},
            {"max_tokens", 2},
            {"temperature", 0},
            {"stream", true},
            {"return_progress", true}};
  auto res = c->Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(res && res->status == 200);
  // Each ping is a named SSE event whose data has type ping.
  size_t named_pings = 0;
  for (size_t at = 0; (at = res->body.find("event: ping\ndata: ", at)) != std::string::npos; ++at)
    ++named_pings;
  std::vector<size_t> processed;
  std::vector<std::string> types;
  json start;
  bool block = false;
  for (const json& e : SseData(res->body)) {
    types.push_back(e.value("type", ""));
    if (types.back() == "message_start") start = e["message"];
    if (types.back() == "content_block_start") block = true;
    if (types.back() != "ping") continue;
    ASSERT_TRUE(e.contains("prompt_progress")) << e.dump();
    EXPECT_FALSE(block) << "a progress ping after the first content block";
    processed.push_back(e["prompt_progress"]["processed"]);
  }
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types[0], "ping");
  const json& u = start["usage"];
  const size_t total = u["input_tokens"].get<size_t>() +
                       u["cache_read_input_tokens"].get<size_t>() +
                       u["cache_creation_input_tokens"].get<size_t>();
  std::vector<size_t> expected = {0};
  for (size_t s : Steps(0, total)) expected.push_back(s);
  EXPECT_EQ(processed, expected);
  EXPECT_EQ(named_pings, expected.size());
  EXPECT_EQ(types.back(), "message_stop");
  // Without return_progress: no ping.
  body.erase("return_progress");
  auto plain = c->Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(plain && plain->status == 200);
  EXPECT_EQ(plain->body.find("ping"), std::string::npos);
}

}  // namespace
}  // namespace strata::testing
