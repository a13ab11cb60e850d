// completion_slow_test.cc: the raw-prompt endpoints on the tiny generated model: llama-server's
// POST /completion (prompt text or token ids, n_predict, stream, n_probs, return_tokens; its
// response with tokens_cached and timings) and OpenAI's legacy POST /v1/completions (prompt,
// max_tokens, stream, logprobs), both through the prefix engine: a second request sharing a long
// prefix reuses it (timings.cache_n, usage.prompt_tokens_details.cached_tokens).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

// A long shared prefix (a few hundred tokens) and two different tails.
std::string Prefix() {
  std::string out = "Project notes. ";
  for (int i = 0; i < 40; ++i) out += "The build step " + std::to_string(i) + " compiles a file. ";
  return out;
}

size_t TokenCount(httplib::Client& c, const std::string& text) {
  auto res = c.Post("/tokenize", json{{"content", text}, {"add_special", true}}.dump(),
                    "application/json");
  if (!res || res->status != 200) return 0;
  return json::parse(res->body)["tokens"].size();
}

TEST_F(ServeTest, CompletionAnswersInLlamaServersShapeAndReusesASharedPrefix) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  const std::string first = Prefix() + "Question one: what runs first?";
  json r =
      Post(*c, "/completion", {{"prompt", first}, {"n_predict", 4}, {"temperature", 0}}, &status);
  ASSERT_EQ(status, 200) << r.dump();
  for (const char* key : {"index", "content", "tokens", "id_slot", "stop", "model",
                          "tokens_predicted", "tokens_evaluated", "prompt", "has_new_line",
                          "truncated", "stop_type", "stopping_word", "tokens_cached", "timings"})
    EXPECT_TRUE(r.contains(key)) << key << " missing: " << r.dump();
  for (const char* key :
       {"cache_n", "prompt_n", "prompt_ms", "prompt_per_token_ms", "prompt_per_second",
        "predicted_n", "predicted_ms", "predicted_per_token_ms", "predicted_per_second"})
    EXPECT_TRUE(r["timings"].contains(key)) << key << " missing: " << r["timings"].dump();
  EXPECT_EQ(r["stop"], true);
  EXPECT_EQ(r["prompt"], first);
  EXPECT_EQ(r["tokens_evaluated"].get<size_t>(), TokenCount(*c, first));
  EXPECT_LE(r["tokens_predicted"].get<int>(), 4);
  if (r["tokens_predicted"] == 4) EXPECT_EQ(r["stop_type"], "limit");
  EXPECT_EQ(r["timings"]["cache_n"], 0) << "a new server with an empty store has nothing to reuse";
  EXPECT_EQ(r["timings"]["prompt_n"], r["tokens_evaluated"]);
  EXPECT_EQ(r["timings"]["predicted_n"], r["tokens_predicted"]);
  // tokens_cached, as llama-server's: what the sequence held when the reply ended, the prompt and
  // the generated tokens decoded into it (every one but the last sampled; an end-of-generation
  // token, never counted as predicted here, is that last one).
  const size_t predicted = r["tokens_predicted"].get<size_t>();
  EXPECT_EQ(r["tokens_cached"].get<size_t>(),
            r["tokens_evaluated"].get<size_t>() + predicted - (r["stop_type"] == "limit" ? 1 : 0))
      << r.dump();
  EXPECT_TRUE(r["tokens"].empty()) << "generated ids only with return_tokens";

  // The second prompt shares the long prefix: its tokens are reused, only the tail is prefilled.
  const std::string second = Prefix() + "Question two: which file is compiled last?";
  json r2 = Post(
      *c, "/completion",
      {{"prompt", second}, {"n_predict", 4}, {"temperature", 0}, {"return_tokens", true}}, &status);
  ASSERT_EQ(status, 200) << r2.dump();
  const size_t prefix_tokens = TokenCount(*c, Prefix());
  ASSERT_GT(prefix_tokens, 200u);
  const size_t cached = r2["timings"]["cache_n"].get<size_t>();
  EXPECT_GE(cached + 1, prefix_tokens) << r2["timings"].dump();
  EXPECT_LT(cached, r2["tokens_evaluated"].get<size_t>());
  EXPECT_EQ(r2["timings"]["prompt_n"].get<size_t>(), r2["tokens_evaluated"].get<size_t>() - cached);
  EXPECT_EQ(r2["tokens"].size(), r2["tokens_predicted"].get<size_t>());

  // The same prompt as token ids: the same greedy reply.
  json ids;
  {
    auto res = c->Post("/tokenize", json{{"content", first}, {"add_special", true}}.dump(),
                       "application/json");
    ASSERT_TRUE(res);
    ids = json::parse(res->body)["tokens"];
  }
  json by_ids =
      Post(*c, "/completion", {{"prompt", ids}, {"n_predict", 4}, {"temperature", 0}}, &status);
  ASSERT_EQ(status, 200) << by_ids.dump();
  EXPECT_EQ(by_ids["content"], r["content"]);
  EXPECT_EQ(by_ids["tokens_evaluated"].get<size_t>(), ids.size());

  // Streamed: partial events carry the text, the last one (stop: true) the timings; no [DONE].
  auto res = c->Post(
      "/completion",
      json{{"prompt", first}, {"n_predict", 4}, {"temperature", 0}, {"stream", true}}.dump(),
      "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  std::string text;
  std::vector<json> events = SseData(res->body);
  ASSERT_FALSE(events.empty());
  for (const json& e : events) {
    ASSERT_TRUE(e.is_object()) << res->body;
    text += e["content"].get<std::string>();
  }
  EXPECT_EQ(text, r["content"].get<std::string>());
  EXPECT_EQ(events.back()["stop"], true);
  EXPECT_TRUE(events.back().contains("timings"));
  for (size_t i = 0; i + 1 < events.size(); ++i) EXPECT_EQ(events[i]["stop"], false);
}

// A reply ended by a stop string: tokens_cached is the prompt and the reply's tokens up to the
// one that completed the stop, all but that last one decoded (llama-server's n_past), the same in
// every run.
TEST_F(ServeTest, CompletionTokensCachedAfterAStopStringIsExactAndStable) {
  RunningServer server(Options());
  auto c = server.Client();
  const std::string prompt = "Tell me about the build of this project.";
  int status = 0;
  json free_run =
      Post(*c, "/completion", {{"prompt", prompt}, {"n_predict", 12}, {"temperature", 0}}, &status);
  ASSERT_EQ(status, 200) << free_run.dump();
  const std::string content = free_run["content"];
  ASSERT_GE(content.size(), 8u);
  // A stop string ending a few characters into the greedy reply.
  const std::string stop = content.substr(2, 3);
  std::set<size_t> cached;
  for (int run = 0; run < 6; ++run) {
    json r = Post(*c, "/completion",
                  {{"prompt", prompt}, {"n_predict", 12}, {"temperature", 0}, {"stop", {stop}}},
                  &status);
    ASSERT_EQ(status, 200) << r.dump();
    EXPECT_EQ(r["stop_type"], "word") << r.dump();
    const size_t predicted = r["tokens_predicted"];
    EXPECT_LT(predicted, 12u);
    EXPECT_EQ(r["tokens_cached"].get<size_t>(), r["tokens_evaluated"].get<size_t>() + predicted - 1)
        << r.dump();
    cached.insert(r["tokens_cached"].get<size_t>());
  }
  EXPECT_EQ(cached.size(), 1u);
}

// The value of a /metrics line starting with `name` (-1 when absent).
double Metric(httplib::Client& c, const std::string& name) {
  auto res = c.Get("/metrics");
  if (!res) return -1;
  const size_t at = res->body.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(res->body.substr(at + name.size() + 2));
}

// A stop string ends the generation at the token that completes it (llama-server's process_token
// checks the stop strings before the next step): that token is the last one sampled and is not
// decoded, so the engine decodes the prompt tokens it prefills and the reply's tokens before that
// one, and nothing after. (Matched only on the thread that takes the tokens, the scheduler had
// decoded the stop's token and sampled past it by then.)
TEST_F(ServeTest, AStopStringEndsTheDecodingAtTheTokenThatCompletesIt) {
  RunningServer server(Options());
  auto c = server.Client();
  const std::string prompt = "Tell me about the build of this project.";
  int status = 0;
  json free_run =
      Post(*c, "/completion",
           {{"prompt", prompt}, {"n_predict", 12}, {"temperature", 0}, {"n_probs", 1}}, &status);
  ASSERT_EQ(status, 200) << free_run.dump();
  std::vector<std::string> pieces;  // each generated token's text
  for (const json& e : free_run["completion_probabilities"]) {
    pieces.emplace_back();
    for (int b : e["bytes"]) pieces.back() += static_cast<char>(b);
  }
  ASSERT_EQ(pieces.size(), 12u);
  // The token that completes `stop`: the first whose text, with the text before it, holds it.
  auto completing = [&](const std::string& stop) {
    std::string text;
    for (size_t k = 0; k < pieces.size(); ++k) {
      text += pieces[k];
      if (text.find(stop) != std::string::npos) return k + 1;  // 1-based
    }
    return size_t{0};
  };
  // A stop string that a later token completes (some generated tokens are decoded before it):
  // the text of the third token or of a later one.
  std::string stop;
  size_t completes_at = 0;
  for (size_t k = 2; k < pieces.size() && completes_at < 3; ++k) {
    stop = pieces[k];
    completes_at = stop.empty() ? 0 : completing(stop);
  }
  ASSERT_GE(completes_at, 3u) << free_run.dump();
  ASSERT_LT(completes_at, 12u);
  for (int run = 0; run < 3; ++run) {
    const double before = Metric(*c, "strata_decoded_tokens_total");
    ASSERT_GE(before, 0);
    json r = Post(*c, "/completion",
                  {{"prompt", prompt}, {"n_predict", 12}, {"temperature", 0}, {"stop", {stop}}},
                  &status);
    ASSERT_EQ(status, 200) << r.dump();
    EXPECT_EQ(r["stop_type"], "word");
    EXPECT_EQ(r["tokens_predicted"], completes_at);
    const double decoded = Metric(*c, "strata_decoded_tokens_total") - before;
    EXPECT_EQ(decoded, r["timings"]["prompt_n"].get<double>() + completes_at - 1) << r.dump();
  }
}

TEST_F(ServeTest, CompletionNProbsAndRefusedMembers) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  json r = Post(*c, "/completion",
                {{"prompt", "The build"}, {"n_predict", 3}, {"temperature", 0}, {"n_probs", 2}},
                &status);
  ASSERT_EQ(status, 200) << r.dump();
  ASSERT_EQ(r["completion_probabilities"].size(), r["tokens_predicted"].get<size_t>());
  for (const json& e : r["completion_probabilities"]) {
    EXPECT_EQ(e["top_logprobs"].size(), 2u);
    EXPECT_EQ(e["id"], e["top_logprobs"][0]["id"]) << "greedy: the likeliest token";
  }
  for (const auto& [key, value] : std::vector<std::pair<std::string, json>>{{"mirostat", 2},
                                                                            {"cache_prompt", false},
                                                                            {"ignore_eos", true},
                                                                            {"id_slot", 0},
                                                                            {"n_cmpl", 2},
                                                                            {"frobnicate", 1}}) {
    json bad = Post(*c, "/completion", {{"prompt", "x"}, {key, value}}, &status);
    EXPECT_EQ(status, 400) << key;
    EXPECT_EQ(bad["error"]["param"], key) << bad.dump();
  }
  json empty = Post(*c, "/completion", {{"n_predict", 2}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(empty["error"]["param"], "prompt") << empty.dump();
  json out_of_vocab = Post(*c, "/completion", {{"prompt", {1, 99999999}}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(out_of_vocab["error"]["param"], "prompt[1]") << out_of_vocab.dump();
  json two = Post(*c, "/completion", {{"prompt", {"a", "b"}}}, &status);
  EXPECT_EQ(status, 400) << two.dump();
}

TEST_F(ServeTest, OaiCompletionsAnswerAsOpenAiWithLegacyLogprobsAndReuse) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  const std::string first = Prefix() + "Question one: what runs first?";
  json native =
      Post(*c, "/completion", {{"prompt", first}, {"n_predict", 4}, {"temperature", 0}}, &status);
  ASSERT_EQ(status, 200);
  json r =
      Post(*c, "/v1/completions",
           {{"prompt", first}, {"max_tokens", 4}, {"temperature", 0}, {"logprobs", 2}}, &status);
  ASSERT_EQ(status, 200) << r.dump();
  EXPECT_EQ(r["object"], "text_completion");
  const json& choice = r["choices"][0];
  EXPECT_EQ(choice["text"], native["content"]) << "the same greedy reply as /completion";
  EXPECT_EQ(r["usage"]["completion_tokens"], native["tokens_predicted"]);
  EXPECT_EQ(r["usage"]["prompt_tokens"], native["tokens_evaluated"]);
  // The same prompt again: all of it but the last token is reused.
  EXPECT_EQ(r["usage"]["prompt_tokens_details"]["cached_tokens"].get<size_t>() + 1,
            r["usage"]["prompt_tokens"].get<size_t>());
  if (native["tokens_predicted"] == 4) EXPECT_EQ(choice["finish_reason"], "length");
  const json& lp = choice["logprobs"];
  ASSERT_EQ(lp["tokens"].size(), r["usage"]["completion_tokens"].get<size_t>()) << lp.dump();
  ASSERT_EQ(lp["token_logprobs"].size(), lp["tokens"].size());
  ASSERT_EQ(lp["text_offset"].size(), lp["tokens"].size());
  ASSERT_EQ(lp["top_logprobs"].size(), lp["tokens"].size());
  for (size_t i = 0; i < lp["tokens"].size(); ++i) {
    EXPECT_LE(lp["top_logprobs"][i].size(), 2u);
    EXPECT_LE(lp["token_logprobs"][i].get<double>(), 0.0);
  }
  EXPECT_EQ(lp["text_offset"][0], 0);

  auto res = c->Post("/v1/completions",
                     json{{"prompt", first},
                          {"max_tokens", 4},
                          {"temperature", 0},
                          {"stream", true},
                          {"stream_options", {{"include_usage", true}}}}
                         .dump(),
                     "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  std::vector<json> events = SseData(res->body);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events.back(), json("[DONE]"));
  std::string text;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    EXPECT_EQ(events[i]["object"], "text_completion");
    text += events[i]["choices"][0]["text"].get<std::string>();
  }
  EXPECT_EQ(text, choice["text"].get<std::string>());
  const json& last = events[events.size() - 2];
  EXPECT_FALSE(last["choices"][0]["finish_reason"].is_null());
  EXPECT_EQ(last["usage"]["completion_tokens"], r["usage"]["completion_tokens"]);

  for (const auto& [key, value] : std::vector<std::pair<std::string, json>>{
           {"echo", true}, {"suffix", "x"}, {"best_of", 2}, {"n", 2}, {"logprobs", 6}}) {
    json bad = Post(*c, "/v1/completions", {{"prompt", "x"}, {key, value}}, &status);
    EXPECT_EQ(status, 400) << key;
    EXPECT_EQ(bad["error"]["param"], key) << bad.dump();
  }
}

}  // namespace
}  // namespace strata::testing
