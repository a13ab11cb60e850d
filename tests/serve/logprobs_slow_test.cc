// logprobs_slow_test.cc: log probabilities over HTTP on the tiny generated model, in each API's
// shape: Chat Completions `logprobs` / `top_logprobs` and llama-server's `n_probs`
// (choices[].logprobs.content), Responses `include: ["message.output_text.logprobs"]` with
// `top_logprobs` (output_text.logprobs), streamed and not.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

json Chat(json extra) {
  json body = {{"messages", {{{"role", "user"}, {"content", "Tell me about the build."}}}},
               {"temperature", 0},
               {"max_tokens", 8}};
  for (auto& [k, v] : extra.items()) body[k] = v;
  return body;
}

std::string BytesOf(const json& entry) {
  std::string out;
  for (const json& b : entry["bytes"]) out += static_cast<char>(b.get<int>());
  return out;
}

// What holds for every entry whatever the model: a log probability (<= 0), the token's bytes, and
// `n_top` candidates in descending order whose probabilities sum to at most 1. At temperature 0
// (greedy, no penalties) the sampled token is the likeliest candidate.
void ExpectEntry(const json& e, size_t n_top, bool greedy) {
  ASSERT_TRUE(e.contains("token") && e.contains("logprob") && e.contains("bytes")) << e.dump();
  EXPECT_LE(e["logprob"].get<double>(), 0.0);
  ASSERT_EQ(e["top_logprobs"].size(), n_top) << e.dump();
  double sum = 0, last = 0;
  for (size_t i = 0; i < n_top; ++i) {
    const double lp = e["top_logprobs"][i]["logprob"].get<double>();
    if (i > 0) EXPECT_LE(lp, last);
    last = lp;
    sum += std::exp(lp);
  }
  EXPECT_LE(sum, 1.0 + 1e-4);
  if (greedy && n_top > 0) {
    EXPECT_EQ(BytesOf(e), BytesOf(e["top_logprobs"][0]));
    EXPECT_NEAR(e["logprob"].get<double>(), e["top_logprobs"][0]["logprob"].get<double>(), 1e-5);
  }
}

TEST_F(ServeTest, ChatLogprobsCoverEveryTokenInOpenAisShapeStreamedOrNot) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  json plain = Post(*c, "/v1/chat/completions", Chat({}), &status);
  ASSERT_EQ(status, 200) << plain.dump();
  EXPECT_TRUE(plain["choices"][0]["logprobs"].is_null()) << "not asked for: null, as OpenAI";

  json r =
      Post(*c, "/v1/chat/completions", Chat({{"logprobs", true}, {"top_logprobs", 3}}), &status);
  ASSERT_EQ(status, 200) << r.dump();
  const json& content = r["choices"][0]["logprobs"]["content"];
  ASSERT_TRUE(content.is_array()) << r.dump();
  // One entry per generated token (no stop string here: the reply is max_tokens long or ends at
  // an end-of-generation token, which is not shown).
  EXPECT_EQ(content.size(), r["usage"]["completion_tokens"].get<size_t>());
  std::string bytes;
  for (const json& e : content) {
    ExpectEntry(e, 3, true);
    bytes += BytesOf(e);
  }
  EXPECT_EQ(bytes, r["choices"][0]["message"]["content"].get<std::string>());
  // The same reply as without logprobs: asking does not change sampling.
  EXPECT_EQ(r["choices"][0]["message"]["content"], plain["choices"][0]["message"]["content"]);

  // logprobs alone: top_logprobs defaults to 0 (OpenAI), each entry still has its own logprob.
  json bare = Post(*c, "/v1/chat/completions", Chat({{"logprobs", true}}), &status);
  ASSERT_EQ(status, 200);
  ASSERT_EQ(bare["choices"][0]["logprobs"]["content"].size(), content.size());
  for (size_t i = 0; i < content.size(); ++i) {
    const json& e = bare["choices"][0]["logprobs"]["content"][i];
    ExpectEntry(e, 0, true);
    EXPECT_NEAR(e["logprob"].get<double>(), content[i]["logprob"].get<double>(), 1e-5);
  }

  // llama-server's n_probs: the same entries with n candidates.
  json n_probs = Post(*c, "/v1/chat/completions", Chat({{"n_probs", 2}}), &status);
  ASSERT_EQ(status, 200) << n_probs.dump();
  ASSERT_EQ(n_probs["choices"][0]["logprobs"]["content"].size(), content.size());
  for (const json& e : n_probs["choices"][0]["logprobs"]["content"]) ExpectEntry(e, 2, true);

  // Streamed: each chunk carries the entries of its tokens; together they are the whole list.
  auto res = c->Post("/v1/chat/completions",
                     Chat({{"logprobs", true}, {"top_logprobs", 3}, {"stream", true}}).dump(),
                     "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  json streamed = json::array();
  std::string text;
  for (const json& chunk : SseData(res->body)) {
    if (!chunk.is_object() || chunk["choices"].empty()) continue;
    const json& choice = chunk["choices"][0];
    if (choice["delta"].contains("content")) text += choice["delta"]["content"].get<std::string>();
    if (choice["logprobs"].is_object())
      for (const json& e : choice["logprobs"]["content"]) streamed.push_back(e);
  }
  EXPECT_EQ(text, r["choices"][0]["message"]["content"].get<std::string>());
  ASSERT_EQ(streamed.size(), content.size()) << res->body;
  for (size_t i = 0; i < content.size(); ++i) {
    EXPECT_EQ(streamed[i]["id"], content[i]["id"]);
    EXPECT_NEAR(streamed[i]["logprob"].get<double>(), content[i]["logprob"].get<double>(), 1e-5);
    EXPECT_EQ(streamed[i]["top_logprobs"].size(), 3u);
  }

  // Bad values name the member.
  json over =
      Post(*c, "/v1/chat/completions", Chat({{"logprobs", true}, {"top_logprobs", 21}}), &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(over["error"]["param"], "top_logprobs") << over.dump();
  json alone = Post(*c, "/v1/chat/completions", Chat({{"top_logprobs", 2}}), &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(alone["error"]["param"], "top_logprobs") << alone.dump();
}

TEST_F(ServeTest, ChatLogprobsLeaveOutTheTokensOfAStopString) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  json full =
      Post(*c, "/v1/chat/completions", Chat({{"logprobs", true}, {"max_tokens", 12}}), &status);
  ASSERT_EQ(status, 200) << full.dump();
  const std::string text = full["choices"][0]["message"]["content"].get<std::string>();
  const json& all = full["choices"][0]["logprobs"]["content"];
  // A stop string made of the bytes of the third token on: the reply ends before it, and so do
  // the entries.
  std::string head;
  for (size_t i = 0; i < 2 && i < all.size(); ++i) head += BytesOf(all[i]);
  if (all.size() < 4 || text.size() <= head.size() + 1)
    GTEST_SKIP() << "the tiny model's reply is too short to cut: " << text;
  const std::string stop = text.substr(head.size(), 2);
  if (head.find(stop) != std::string::npos) GTEST_SKIP() << "the stop string occurs earlier";
  json cut = Post(*c, "/v1/chat/completions",
                  Chat({{"logprobs", true}, {"max_tokens", 12}, {"stop", {stop}}}), &status);
  ASSERT_EQ(status, 200) << cut.dump();
  EXPECT_EQ(cut["choices"][0]["message"]["content"], head);
  ASSERT_EQ(cut["choices"][0]["logprobs"]["content"].size(), 2u) << cut.dump();
}

TEST_F(ServeTest, ResponsesLogprobsInOutputTextWhenIncluded) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  const json base = {
      {"input", "Tell me about the build."}, {"temperature", 0}, {"max_output_tokens", 8}};
  json plain = Post(*c, "/v1/responses", base, &status);
  ASSERT_EQ(status, 200) << plain.dump();
  EXPECT_FALSE(plain["output"][0]["content"][0].contains("logprobs"));

  json body = base;
  body["include"] = {"message.output_text.logprobs"};
  body["top_logprobs"] = 2;
  json r = Post(*c, "/v1/responses", body, &status);
  ASSERT_EQ(status, 200) << r.dump();
  const json& part = r["output"][0]["content"][0];
  ASSERT_TRUE(part["logprobs"].is_array()) << r.dump();
  EXPECT_EQ(part["logprobs"].size(), r["usage"]["output_tokens"].get<size_t>());
  std::string bytes;
  for (const json& e : part["logprobs"]) {
    ExpectEntry(e, 2, true);
    EXPECT_FALSE(e.contains("id")) << "OpenAI's Responses shape has no id";
    bytes += BytesOf(e);
  }
  EXPECT_EQ(bytes, part["text"].get<std::string>());

  body["stream"] = true;
  auto res = c->Post("/v1/responses", body.dump(), "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  size_t streamed = 0;
  json done;
  for (const json& e : SseData(res->body)) {
    if (!e.is_object()) continue;
    if (e["type"] == "response.output_text.delta") streamed += e["logprobs"].size();
    // The last event: response.incomplete for a reply cut by max_output_tokens.
    if (e["type"] == "response.completed" || e["type"] == "response.incomplete")
      done = e["response"];
  }
  EXPECT_EQ(streamed, part["logprobs"].size());
  EXPECT_EQ(done["output"][0]["content"][0]["logprobs"], part["logprobs"]);

  // top_logprobs without the include: refused, not ignored.
  json alone = base;
  alone["top_logprobs"] = 2;
  json refused = Post(*c, "/v1/responses", alone, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(refused["error"]["param"], "top_logprobs") << refused.dump();
}

}  // namespace
}  // namespace strata::testing
