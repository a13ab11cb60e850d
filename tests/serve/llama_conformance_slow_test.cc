// llama_conformance_slow_test.cc: the same requests to llama-server (built by
// bench/build-llama-server.sh from the pinned source; env STRATA_LLAMA_SERVER names another
// binary) and to strata serve, on the tiny generated model at temperature 0: the new endpoints'
// response shapes (strata's members are llama-server's, with the same types), status codes, and
// the generated text and log probabilities. Skipped when no llama-server binary is built.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "serve/serve_fixture.h"

extern char** environ;

namespace strata::testing {
namespace {

using nlohmann::json;

std::filesystem::path LlamaServerBinary() {
  if (const char* env = std::getenv("STRATA_LLAMA_SERVER"); env != nullptr && *env != '\0')
    return env;
  // <cache>/src/models is the vocabulary directory; the server build is beside the cache.
  const std::filesystem::path cache =
      std::filesystem::path(STRATA_LLAMA_VOCAB_DIR).parent_path().parent_path();
  return cache.string() + "-server/build/bin/llama-server";
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    return -1;
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

// llama-server on `model` at a free port, its output to a log file; SIGTERM at the end.
class LlamaServer {
 public:
  LlamaServer(const std::filesystem::path& binary, const std::filesystem::path& model,
              const std::filesystem::path& log, const std::vector<std::string>& extra = {}) {
    port_ = FreePort();
    std::vector<std::string> args = {binary.string(),
                                     "-m",
                                     model.string(),
                                     "--port",
                                     std::to_string(port_),
                                     "--host",
                                     "127.0.0.1",
                                     "-c",
                                     "1024",
                                     "-np",
                                     "1",
                                     "-t",
                                     "1",
                                     "--temp",
                                     "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~LlamaServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int st = 0;
      waitpid(pid_, &st, 0);
    }
  }
  // Waits (at most 60 s) for /health to answer 200.
  bool Ready() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
      httplib::Client c("127.0.0.1", port_);
      c.set_connection_timeout(1, 0);
      auto res = c.Get("/health");
      if (res && res->status == 200) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return false;
  }
  std::unique_ptr<httplib::Client> Client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_read_timeout(120, 0);
    return c;
  }

 private:
  pid_t pid_ = -1;
  int port_ = -1;
};

// Every member of `ours` is a member of `theirs` with the same JSON type (numbers alike).
void ExpectMembersOf(const json& ours, const json& theirs, const std::string& where) {
  ASSERT_TRUE(ours.is_object() && theirs.is_object())
      << where << ": " << ours.dump() << " / " << theirs.dump();
  for (const auto& [key, value] : ours.items()) {
    if (!theirs.contains(key)) {
      ADD_FAILURE() << where << "." << key << " is not in llama-server's reply: " << theirs.dump();
      continue;
    }
    const json& other = theirs[key];
    const bool same = value.is_number() ? other.is_number() : value.type() == other.type();
    EXPECT_TRUE(same || value.is_null() || other.is_null())
        << where << "." << key << ": " << value.dump() << " vs " << other.dump();
  }
}

class LlamaConformanceTest : public ServeTest {
 protected:
  void SetUp() override {
    ServeTest::SetUp();
    if (IsSkipped()) return;
    if (!std::filesystem::exists(LlamaServerBinary()))
      GTEST_SKIP() << "no llama-server at " << LlamaServerBinary()
                   << " (bench/build-llama-server.sh builds it)";
  }
};

TEST_F(LlamaConformanceTest, NewEndpointsAnswerInLlamaServersShapes) {
  LlamaServer llama(LlamaServerBinary(), TinyModelPath(1), tmp_.path() / "llama-server.log");
  ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
  RunningServer strata(Options());
  auto theirs = llama.Client();
  auto ours = strata.Client();
  auto both = [&](const std::string& path, const json& body, int* s1, int* s2) {
    return std::pair{Post(*ours, path, body, s1), Post(*theirs, path, body, s2)};
  };
  int s1 = 0, s2 = 0;

  // /completion with n_probs: the same greedy text and probabilities, llama-server's members.
  const json completion = {{"prompt", "The build compiles every file of the project."},
                           {"n_predict", 4},
                           {"temperature", 0},
                           {"n_probs", 2}};
  auto [c1, c2] = both("/completion", completion, &s1, &s2);
  ASSERT_EQ(s1, 200) << c1.dump();
  ASSERT_EQ(s2, 200) << c2.dump();
  ExpectMembersOf(c1, c2, "/completion");
  ExpectMembersOf(c1["timings"], c2["timings"], "/completion.timings");
  EXPECT_EQ(c1["content"], c2["content"]);
  EXPECT_EQ(c1["tokens_evaluated"], c2["tokens_evaluated"]);
  EXPECT_EQ(c1["tokens_predicted"], c2["tokens_predicted"]);
  EXPECT_EQ(c1["stop_type"], c2["stop_type"]);
  ASSERT_EQ(c1["completion_probabilities"].size(), c2["completion_probabilities"].size());
  for (size_t i = 0; i < c1["completion_probabilities"].size(); ++i) {
    const json& a = c1["completion_probabilities"][i];
    const json& b = c2["completion_probabilities"][i];
    ExpectMembersOf(a, b, "completion_probabilities[]");
    EXPECT_EQ(a["id"], b["id"]);
    EXPECT_NEAR(a["logprob"].get<double>(), b["logprob"].get<double>(), 1e-3);
    ASSERT_EQ(a["top_logprobs"].size(), b["top_logprobs"].size());
    for (size_t k = 0; k < a["top_logprobs"].size(); ++k) {
      ExpectMembersOf(a["top_logprobs"][k], b["top_logprobs"][k], "top_logprobs[]");
      EXPECT_EQ(a["top_logprobs"][k]["id"], b["top_logprobs"][k]["id"]);
    }
  }

  // /v1/completions.
  const json legacy = {{"prompt", "The build compiles every file of the project."},
                       {"max_tokens", 4},
                       {"temperature", 0}};
  auto [l1, l2] = both("/v1/completions", legacy, &s1, &s2);
  ASSERT_EQ(s1, 200) << l1.dump();
  ASSERT_EQ(s2, 200) << l2.dump();
  ExpectMembersOf(l1, l2, "/v1/completions");
  ExpectMembersOf(l1["choices"][0], l2["choices"][0], "/v1/completions.choices[0]");
  ExpectMembersOf(l1["usage"], l2["usage"], "/v1/completions.usage");
  EXPECT_EQ(l1["choices"][0]["text"], l2["choices"][0]["text"]);
  EXPECT_EQ(l1["choices"][0]["finish_reason"], l2["choices"][0]["finish_reason"]);

  // Chat Completions logprobs: the entries' members and values.
  const json chat = {{"messages", {{{"role", "user"}, {"content", "Tell me about the build."}}}},
                     {"max_tokens", 4},
                     {"temperature", 0},
                     {"logprobs", true},
                     {"top_logprobs", 2}};
  auto [h1, h2] = both("/v1/chat/completions", chat, &s1, &s2);
  ASSERT_EQ(s1, 200) << h1.dump();
  ASSERT_EQ(s2, 200) << h2.dump();
  EXPECT_EQ(h1["choices"][0]["message"]["content"], h2["choices"][0]["message"]["content"]);
  const json& e1 = h1["choices"][0]["logprobs"]["content"];
  const json& e2 = h2["choices"][0]["logprobs"]["content"];
  ASSERT_EQ(e1.size(), e2.size()) << h1.dump() << "\n" << h2.dump();
  for (size_t i = 0; i < e1.size(); ++i) {
    ExpectMembersOf(e1[i], e2[i], "logprobs.content[]");
    ExpectMembersOf(e2[i], e1[i], "llama-server's logprobs.content[] in ours");
    EXPECT_NEAR(e1[i]["logprob"].get<double>(), e2[i]["logprob"].get<double>(), 1e-3);
  }

  // /slots: each slot's members are llama-server's.
  auto sl1 = json::parse(ours->Get("/slots")->body);
  auto sl2 = json::parse(theirs->Get("/slots")->body);
  ASSERT_EQ(sl1.size(), sl2.size());
  ExpectMembersOf(sl1[0], sl2[0], "/slots[0]");

  // /v1/embeddings on a generation model: both 501, llama-server's error type.
  auto [m1, m2] = both("/v1/embeddings", {{"input", "hello"}}, &s1, &s2);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(m1["error"]["type"], m2["error"]["type"]) << m1.dump() << "\n" << m2.dump();
}

// A reasoning template (Qwen3's, from the pinned source) on the model with "<think>" tokens: the
// same rendered prompt, the same forced reply parsed into the same reasoning_content and content;
// and GLM-4.7-Flash's (thinking starts in its generation prompt) under a reasoning budget, the
// same tokens with the end tag forced at the same place.
TEST_F(LlamaConformanceTest, ReasoningTemplatesParseAndBudgetAsLlamaServer) {
  for (const char* name : {"Qwen-Qwen3-0.6B.jinja", "GLM-4.7-Flash.jinja"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path tmpl = LlamaTemplatePath(name);
    if (!std::filesystem::exists(tmpl)) GTEST_SKIP() << tmpl << " not available";
    LlamaServer llama(LlamaServerBinary(), ThinkModelPath(), tmp_.path() / "llama-server.log",
                      {"--jinja", "--chat-template-file", tmpl.string()});
    ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
    ServeOptions o = Options();
    o.model = ThinkModelPath();
    o.chat_template_file = tmpl;
    RunningServer strata(o);
    auto theirs = llama.Client();
    auto ours = strata.Client();
    const json user = {{{"role", "user"}, {"content", "Hi"}}};
    int s1 = 0, s2 = 0;
    json p1 = Post(*ours, "/apply-template", {{"messages", user}}, &s1);
    json p2 = Post(*theirs, "/apply-template", {{"messages", user}}, &s2);
    ASSERT_EQ(s1, 200);
    ASSERT_EQ(s2, 200);
    EXPECT_EQ(p1["prompt"], p2["prompt"]);
    json body = {{"messages", user}, {"max_tokens", 40}, {"temperature", 0}};
    if (std::string(name).starts_with("Qwen")) {
      body["grammar"] = LiteralGrammar("<think>\nI should greet.\n</think>\n\nHello there");
    } else {
      body["reasoning_budget_tokens"] = 3;
      body["max_tokens"] = 8;
      body["logprobs"] = true;
    }
    json r1 = Post(*ours, "/v1/chat/completions", body, &s1);
    json r2 = Post(*theirs, "/v1/chat/completions", body, &s2);
    ASSERT_EQ(s1, 200) << r1.dump();
    ASSERT_EQ(s2, 200) << r2.dump();
    const json& m1 = r1["choices"][0]["message"];
    const json& m2 = r2["choices"][0]["message"];
    EXPECT_EQ(m1.value("reasoning_content", ""), m2.value("reasoning_content", ""));
    EXPECT_EQ(m1["content"], m2["content"]);
    if (body.contains("logprobs")) {
      const json& e1 = r1["choices"][0]["logprobs"]["content"];
      const json& e2 = r2["choices"][0]["logprobs"]["content"];
      ASSERT_EQ(e1.size(), e2.size());
      for (size_t i = 0; i < e1.size(); ++i) EXPECT_EQ(e1[i]["token"], e2[i]["token"]) << i;
      // Anthropic's thinking.budget_tokens: llama-server maps it onto the same budget (the server
      // sets none), so the same thinking and text come back.
      const json messages = {{"messages", user},
                             {"max_tokens", 8},
                             {"temperature", 0},
                             {"thinking", {{"type", "enabled"}, {"budget_tokens", 3}}}};
      json a1 = Post(*ours, "/v1/messages", messages, &s1);
      json a2 = Post(*theirs, "/v1/messages", messages, &s2);
      ASSERT_EQ(s1, 200) << a1.dump();
      ASSERT_EQ(s2, 200) << a2.dump();
      ASSERT_EQ(a1["content"].size(), a2["content"].size()) << a1.dump() << "\n" << a2.dump();
      for (size_t i = 0; i < a1["content"].size(); ++i) {
        EXPECT_EQ(a1["content"][i]["type"], a2["content"][i]["type"]);
        EXPECT_EQ(a1["content"][i].value("thinking", ""), a2["content"][i].value("thinking", ""));
        EXPECT_EQ(a1["content"][i].value("text", ""), a2["content"][i].value("text", ""));
      }
    }
  }
}

// /completion's tokens_cached and timings.cache_n mean what llama-server's do (server-context.cpp
// of the pinned source): tokens_cached is what the slot holds when the reply ends (the prompt and
// the generated tokens decoded into it, every one but the last sampled: tokens_evaluated +
// tokens_predicted - 1 for a reply ended by n_predict); cache_n is the prompt tokens taken from
// the cache, at most all but the last one (decoded again for its logits).
TEST_F(LlamaConformanceTest, TokensCachedAndCacheNMeanWhatLlamaServersMean) {
  LlamaServer llama(LlamaServerBinary(), TinyModelPath(1), tmp_.path() / "llama-server.log");
  ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
  RunningServer strata(Options());
  auto theirs = llama.Client();
  auto ours = strata.Client();
  const std::string prompt = "The build compiles every file of the project.";
  int s1 = 0, s2 = 0;
  auto both = [&](const std::string& text) {
    const json body = {{"prompt", text}, {"n_predict", 4}, {"temperature", 0}};
    std::pair<json, json> r{Post(*ours, "/completion", body, &s1),
                            Post(*theirs, "/completion", body, &s2)};
    EXPECT_EQ(s1, 200) << r.first.dump();
    EXPECT_EQ(s2, 200) << r.second.dump();
    EXPECT_EQ(r.first["tokens_evaluated"], r.second["tokens_evaluated"]);
    EXPECT_EQ(r.first["tokens_predicted"], r.second["tokens_predicted"]);
    EXPECT_EQ(r.first["tokens_cached"], r.second["tokens_cached"]) << r.first.dump() << "\n"
                                                                   << r.second.dump();
    EXPECT_EQ(r.first["timings"]["cache_n"], r.second["timings"]["cache_n"]);
    EXPECT_EQ(r.first["timings"]["prompt_n"], r.second["timings"]["prompt_n"]);
    return r;
  };
  // A new prompt: nothing cached; the slot ends with the prompt and 3 of the 4 tokens.
  auto [a1, a2] = both(prompt);
  const size_t n = a1["tokens_evaluated"].get<size_t>();
  ASSERT_EQ(a1["tokens_predicted"], 4) << a1.dump();
  EXPECT_EQ(a1["timings"]["cache_n"], 0);
  EXPECT_EQ(a1["tokens_cached"], n + 4 - 1);
  // The same prompt again: all of it but the last token is cached.
  auto [b1, b2] = both(prompt);
  EXPECT_EQ(b1["timings"]["cache_n"], n - 1);
  EXPECT_EQ(b1["timings"]["prompt_n"], 1);
  EXPECT_EQ(b1["tokens_cached"], n + 4 - 1);
  // A longer prompt starting with it: at most the first prompt's tokens are cached.
  auto [c1, c2] = both(prompt + " Then it links them into one binary.");
  EXPECT_GT(c1["timings"]["cache_n"].get<size_t>(), 0u);
  EXPECT_LE(c1["timings"]["cache_n"].get<size_t>(), n);
  EXPECT_EQ(c1["tokens_cached"], c1["tokens_evaluated"].get<size_t>() + 4 - 1);
}

// A reply that ends on an end-of-generation token (a grammar forcing a literal, then only the end):
// completion_tokens / output_tokens / tokens_predicted / predicted_n count it, as llama-server's
// n_decoded does, so both servers report the same counts; tokens_cached is the prompt and the
// tokens decoded (all sampled but the end of generation). (llama-server's Messages converter drops
// `grammar`, so Messages is left to UsageCountsTheEndOfGenerationTokenAsLlamaServerDoes.)
TEST_F(LlamaConformanceTest, UsageOfAReplyEndedByEndOfGenerationEqualsLlamaServers) {
  LlamaServer llama(LlamaServerBinary(), TinyModelPath(1), tmp_.path() / "llama-server.log");
  ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
  RunningServer strata(Options());
  auto theirs = llama.Client();
  auto ours = strata.Client();
  const std::string grammar = LiteralGrammar("Hello there");
  int s1 = 0, s2 = 0;
  auto both = [&](const std::string& path, const json& body) {
    std::pair<json, json> r{Post(*ours, path, body, &s1), Post(*theirs, path, body, &s2)};
    EXPECT_EQ(s1, 200) << r.first.dump();
    EXPECT_EQ(s2, 200) << r.second.dump();
    return r;
  };
  const json user = {{{"role", "user"}, {"content", "Hi"}}};
  auto [c1, c2] =
      both("/v1/chat/completions",
           {{"messages", user}, {"max_tokens", 20}, {"temperature", 0}, {"grammar", grammar}});
  EXPECT_EQ(c1["choices"][0]["message"]["content"], "Hello there");
  EXPECT_EQ(c1["choices"][0]["finish_reason"], c2["choices"][0]["finish_reason"]);
  EXPECT_EQ(c1["usage"]["completion_tokens"], c2["usage"]["completion_tokens"]) << c1.dump() << "\n"
                                                                                << c2.dump();
  EXPECT_EQ(c1["usage"]["total_tokens"], c2["usage"]["total_tokens"]);
  auto [r1, r2] =
      both("/v1/responses",
           {{"input", "Hi"}, {"max_output_tokens", 20}, {"temperature", 0}, {"grammar", grammar}});
  EXPECT_EQ(r1["status"], "completed");
  EXPECT_EQ(r1["usage"]["output_tokens"], r2["usage"]["output_tokens"]) << r1.dump() << "\n"
                                                                        << r2.dump();
  auto [p1, p2] =
      both("/completion",
           {{"prompt", "Hi"}, {"n_predict", 20}, {"temperature", 0}, {"grammar", grammar}});
  EXPECT_EQ(p1["content"], "Hello there");
  EXPECT_EQ(p1["stop_type"], "eos");
  EXPECT_EQ(p1["stop_type"], p2["stop_type"]);
  EXPECT_EQ(p1["tokens_predicted"], p2["tokens_predicted"]) << p1.dump() << "\n" << p2.dump();
  EXPECT_EQ(p1["timings"]["predicted_n"], p2["timings"]["predicted_n"]);
  EXPECT_EQ(p1["tokens_cached"], p2["tokens_cached"]);
  // The rule itself: the text's tokens and the end of generation; all but the end decoded.
  EXPECT_EQ(p1["tokens_cached"].get<size_t>(),
            p1["tokens_evaluated"].get<size_t>() + p1["tokens_predicted"].get<size_t>() - 1);
}

// Streamed prompt progress (return_progress): on Responses both servers send response.in_progress
// events carrying prompt_progress, the first after response.created; on Messages llama-server
// sends none (its converter does not pass the member on), strata its ping events.
TEST_F(LlamaConformanceTest, ProgressEventsOfResponsesAndMessages) {
  LlamaServer llama(LlamaServerBinary(), TinyModelPath(1), tmp_.path() / "llama-server.log");
  ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
  RunningServer strata(Options());
  auto theirs = llama.Client();
  auto ours = strata.Client();
  auto events = [](httplib::Client& c, const std::string& path, const json& body) {
    auto res = c.Post(path, body.dump(), "application/json");
    EXPECT_TRUE(res && res->status == 200) << path << (res ? res->body : "");
    return SseData(res ? res->body : "");
  };
  const json responses = {{"input", "Tell me about the build."},
                          {"max_output_tokens", 3},
                          {"temperature", 0},
                          {"stream", true},
                          {"return_progress", true}};
  for (auto* c : {ours.get(), theirs.get()}) {
    const bool strata_side = c == ours.get();
    SCOPED_TRACE(strata_side ? "strata" : "llama-server");
    std::vector<json> e = events(*c, "/v1/responses", responses);
    ASSERT_GE(e.size(), 2u);
    EXPECT_EQ(e[0]["type"], "response.created");
    EXPECT_EQ(e[1]["type"], "response.in_progress");
    ASSERT_TRUE(e[1].contains("prompt_progress")) << e[1].dump();
    size_t progress = 0;
    for (const json& x : e) {
      if (!x.contains("prompt_progress")) continue;
      ++progress;
      EXPECT_EQ(x["type"], "response.in_progress");
      const json& p = x["prompt_progress"];
      for (const char* key : {"total", "cache", "processed", "time_ms"})
        EXPECT_TRUE(p.contains(key) && p[key].is_number()) << key << ": " << p.dump();
    }
    EXPECT_GE(progress, 2u);  // the start, and the step that decodes the prompt
    // Cut by max_output_tokens: strata ends the stream as OpenAI documents it, with
    // response.incomplete; llama-server always sends response.completed (server-task.cpp,
    // to_json_oaicompat_resp_stream, with status "completed").
    EXPECT_EQ(e.back()["type"], strata_side ? "response.incomplete" : "response.completed");
    EXPECT_EQ(e.back()["response"]["status"], strata_side ? "incomplete" : "completed");
  }
  const json messages = {{"messages", {{{"role", "user"}, {"content", "Tell me about it."}}}},
                         {"max_tokens", 3},
                         {"temperature", 0},
                         {"stream", true},
                         {"return_progress", true}};
  size_t theirs_progress = 0, ours_pings = 0;
  for (const json& x : events(*theirs, "/v1/messages", messages))
    theirs_progress += x.contains("prompt_progress") ? 1 : 0;
  for (const json& x : events(*ours, "/v1/messages", messages))
    ours_pings += x.value("type", "") == "ping" && x.contains("prompt_progress") ? 1 : 0;
  EXPECT_EQ(theirs_progress, 0u);
  EXPECT_GE(ours_pings, 2u);
}

// --embeddings on the embedding model (mean pooling): the same vectors (to float precision of two
// thread layouts), the same usage, the same shapes of both endpoints.
TEST_F(LlamaConformanceTest, EmbeddingsMatchLlamaServersNumerically) {
  LlamaServer llama(LlamaServerBinary(), EmbeddingModelPath(), tmp_.path() / "llama-server.log",
                    {"--embeddings"});
  ASSERT_TRUE(llama.Ready()) << "llama-server did not start; see " << tmp_.path();
  ServeOptions o = Options();
  o.model = EmbeddingModelPath();
  o.embeddings = true;
  RunningServer strata(o);
  auto theirs = llama.Client();
  auto ours = strata.Client();
  int s1 = 0, s2 = 0;
  const json body = {{"input", {"hello world", "The build compiles every file."}}};
  json a = Post(*ours, "/v1/embeddings", body, &s1);
  json b = Post(*theirs, "/v1/embeddings", body, &s2);
  ASSERT_EQ(s1, 200) << a.dump();
  ASSERT_EQ(s2, 200) << b.dump();
  ExpectMembersOf(a, b, "/v1/embeddings");
  ExpectMembersOf(a["data"][0], b["data"][0], "/v1/embeddings.data[0]");
  EXPECT_EQ(a["usage"], b["usage"]);
  ASSERT_EQ(a["data"].size(), b["data"].size());
  for (size_t i = 0; i < a["data"].size(); ++i) {
    const auto va = a["data"][i]["embedding"].get<std::vector<float>>();
    const auto vb = b["data"][i]["embedding"].get<std::vector<float>>();
    ASSERT_EQ(va.size(), vb.size());
    for (size_t k = 0; k < va.size(); ++k) EXPECT_NEAR(va[k], vb[k], 1e-4) << i << "," << k;
  }
  json n1 = Post(*ours, "/embedding", {{"content", "hello world"}}, &s1);
  json n2 = Post(*theirs, "/embedding", {{"content", "hello world"}}, &s2);
  ASSERT_EQ(s1, 200);
  ASSERT_EQ(s2, 200);
  ASSERT_TRUE(n1.is_array() && n2.is_array()) << n1.dump() << "\n" << n2.dump();
  ExpectMembersOf(n1[0], n2[0], "/embedding[0]");
  EXPECT_EQ(n1[0]["embedding"].size(), n2[0]["embedding"].size());
}

}  // namespace
}  // namespace strata::testing
