// dropin_slow_test.cc: strata serve as a drop-in for llama-server, end to end on the tiny
// generated model: the output cap (-n) and each API's length reason, the sampling members and
// server defaults reaching common's sampler, members refused over HTTP in the API's error shape,
// the no-effect header, a second server on a port in use, and the llama-server command line of
// the strata binary (a refused flag, and a run whose flags take effect).
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <regex>
#include <set>

#include "serve/serve_fixture.h"

extern char** environ;

namespace strata::testing {
namespace {

using nlohmann::json;

std::string Text(const json& chat) {
  const json& c = chat["choices"][0]["message"]["content"];
  return c.is_string() ? c.get<std::string>() : "";
}

json UserChat(json extra) {
  json body = {{"messages", {{{"role", "user"}, {"content", "Tell me about the build."}}}}};
  for (auto& [k, v] : extra.items()) body[k] = v;
  return body;
}

TEST_F(ServeTest, OutputCapEndsEveryReplyWithEachApisLengthReason) {
  ServeOptions o = Options();
  o.n_predict = 4;
  RunningServer server(o);
  auto c = server.Client();
  int status = 0;
  // No limit in the request: the server's -n ends the reply.
  json chat = Post(*c, "/v1/chat/completions", UserChat({{"temperature", 0}}), &status);
  ASSERT_EQ(status, 200) << chat.dump();
  EXPECT_EQ(chat["usage"]["completion_tokens"], 4);
  EXPECT_EQ(chat["choices"][0]["finish_reason"], "length");
  // The request's own limit wins when smaller; the server's when the request's is larger.
  json smaller =
      Post(*c, "/v1/chat/completions", UserChat({{"temperature", 0}, {"max_tokens", 2}}), &status);
  EXPECT_EQ(smaller["usage"]["completion_tokens"], 2);
  EXPECT_EQ(smaller["choices"][0]["finish_reason"], "length");
  json larger =
      Post(*c, "/v1/chat/completions", UserChat({{"temperature", 0}, {"max_tokens", 50}}), &status);
  EXPECT_EQ(larger["usage"]["completion_tokens"], 4);
  json messages = Post(*c, "/v1/messages",
                       {{"max_tokens", 100},
                        {"temperature", 0},
                        {"messages", {{{"role", "user"}, {"content", "Tell me."}}}}},
                       &status);
  ASSERT_EQ(status, 200) << messages.dump();
  EXPECT_EQ(messages["usage"]["output_tokens"], 4);
  // Cut by the server's -n under the request's max_tokens: an end of turn, because Claude Code
  // takes max_tokens as its own limit reached, asks to resume and then fails the run.
  EXPECT_EQ(messages["stop_reason"], "end_turn");
  json own = Post(*c, "/v1/messages",
                  {{"max_tokens", 3},
                   {"temperature", 0},
                   {"messages", {{{"role", "user"}, {"content", "Tell me."}}}}},
                  &status);
  ASSERT_EQ(status, 200) << own.dump();
  EXPECT_EQ(own["usage"]["output_tokens"], 3);
  EXPECT_EQ(own["stop_reason"], "max_tokens");  // the request's own limit
  json responses = Post(*c, "/v1/responses", {{"input", "Tell me."}, {"temperature", 0}}, &status);
  ASSERT_EQ(status, 200) << responses.dump();
  EXPECT_EQ(responses["usage"]["output_tokens"], 4);
  EXPECT_EQ(responses["status"], "incomplete");
  EXPECT_EQ(responses["incomplete_details"]["reason"], "max_output_tokens");
}

// A streamed Responses request cut by its token limit ends as OpenAI documents it (Responses
// streaming events): with response.incomplete carrying the response as the non-streamed request
// gets it (status "incomplete", incomplete_details.reason "max_output_tokens", the same usage);
// cut by the server's -n below the request's limit, with response.completed (docs/serve.md,
// Output cap).
TEST_F(ServeTest, StreamedResponsesCutByTheirLimitEndWithResponseIncomplete) {
  RunningServer server(Options());
  auto c = server.Client();
  const json body = {{"input", "Tell me."}, {"temperature", 0}, {"max_output_tokens", 3}};
  int status = 0;
  json whole = Post(*c, "/v1/responses", body, &status);
  ASSERT_EQ(status, 200) << whole.dump();
  ASSERT_EQ(whole["status"], "incomplete");
  json streamed_body = body;
  streamed_body["stream"] = true;
  auto res = c->Post("/v1/responses", streamed_body.dump(), "application/json");
  ASSERT_TRUE(res && res->status == 200);
  std::vector<json> events = SseData(res->body);
  ASSERT_FALSE(events.empty()) << res->body;
  const json& last = events.back();
  EXPECT_EQ(last["type"], "response.incomplete") << res->body;
  EXPECT_EQ(last["response"]["status"], "incomplete");
  EXPECT_EQ(last["response"]["incomplete_details"], json({{"reason", "max_output_tokens"}}));
  EXPECT_EQ(last["response"]["usage"]["output_tokens"], 3);
  EXPECT_EQ(last["response"]["usage"]["input_tokens"], whole["usage"]["input_tokens"]);
  EXPECT_EQ(last["response"]["usage"]["total_tokens"], whole["usage"]["total_tokens"]);
  EXPECT_EQ(last["response"]["output"][0]["content"][0]["text"],
            whole["output"][0]["content"][0]["text"]);
  for (const json& e : events) EXPECT_NE(e["type"], "response.completed");
  EXPECT_NE(res->body.find("event: response.incomplete\n"), std::string::npos);

  // Cut by the server's -n, the request sending no limit (as Codex CLI): the same incomplete
  // response, in a response.completed event, as llama-server ends its streams (Codex CLI fails
  // its run on response.incomplete).
  ServeOptions capped_options = Options();
  capped_options.n_predict = 4;
  RunningServer capped(capped_options);
  auto cc = capped.Client();
  const json uncapped = {{"input", "Tell me."}, {"temperature", 0}, {"stream", true}};
  auto capped_res = cc->Post("/v1/responses", uncapped.dump(), "application/json");
  ASSERT_TRUE(capped_res && capped_res->status == 200);
  std::vector<json> capped_events = SseData(capped_res->body);
  ASSERT_FALSE(capped_events.empty());
  EXPECT_EQ(capped_events.back()["type"], "response.completed");
  EXPECT_EQ(capped_events.back()["response"]["status"], "incomplete");
  EXPECT_EQ(capped_events.back()["response"]["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(capped_events.back()["response"]["usage"]["output_tokens"], 4);
  // The request's own limit under the cap: response.incomplete again.
  json own = uncapped;
  own["max_output_tokens"] = 2;
  auto own_res = cc->Post("/v1/responses", own.dump(), "application/json");
  ASSERT_TRUE(own_res && own_res->status == 200);
  std::vector<json> own_events = SseData(own_res->body);
  ASSERT_FALSE(own_events.empty());
  EXPECT_EQ(own_events.back()["type"], "response.incomplete");
  EXPECT_EQ(own_events.back()["response"]["usage"]["output_tokens"], 2);
}

// llama-server counts every token it samples for a reply, the end-of-generation token included
// (server-context.cpp of the pinned source: stats.n_gen grows before process_token sees the
// token, and is n_decoded, the completion_tokens / output_tokens / tokens_predicted /
// predicted_n of every API). A grammar that matches only the empty string allows only an end of
// generation: each reply is that one token, counted 1, streamed or not.
TEST_F(ServeTest, UsageCountsTheEndOfGenerationTokenAsLlamaServerDoes) {
  RunningServer server(Options());
  auto c = server.Client();
  const std::string empty = LiteralGrammar("");
  const json messages = {{{"role", "user"}, {"content", "Tell me."}}};
  int status = 0;
  json chat = Post(*c, "/v1/chat/completions",
                   {{"messages", messages}, {"max_tokens", 8}, {"grammar", empty}}, &status);
  ASSERT_EQ(status, 200) << chat.dump();
  EXPECT_EQ(chat["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(chat["usage"]["completion_tokens"], 1) << chat.dump();
  EXPECT_EQ(chat["usage"]["total_tokens"], chat["usage"]["prompt_tokens"].get<int>() + 1);
  json responses =
      Post(*c, "/v1/responses",
           {{"input", "Tell me."}, {"max_output_tokens", 8}, {"grammar", empty}}, &status);
  ASSERT_EQ(status, 200) << responses.dump();
  EXPECT_EQ(responses["status"], "completed");
  EXPECT_EQ(responses["usage"]["output_tokens"], 1) << responses.dump();
  json anthropic = Post(*c, "/v1/messages",
                        {{"messages", messages}, {"max_tokens", 8}, {"grammar", empty}}, &status);
  ASSERT_EQ(status, 200) << anthropic.dump();
  EXPECT_EQ(anthropic["stop_reason"], "end_turn");
  EXPECT_EQ(anthropic["usage"]["output_tokens"], 1) << anthropic.dump();
  json completion = Post(*c, "/completion",
                         {{"prompt", "Tell me."}, {"n_predict", 8}, {"grammar", empty}}, &status);
  ASSERT_EQ(status, 200) << completion.dump();
  EXPECT_EQ(completion["stop_type"], "eos");
  EXPECT_EQ(completion["tokens_predicted"], 1) << completion.dump();
  EXPECT_EQ(completion["timings"]["predicted_n"], 1);
  // The end of generation is sampled, never decoded: the sequence holds the prompt only.
  EXPECT_EQ(completion["tokens_cached"], completion["tokens_evaluated"]);

  // Streamed: the usage each stream ends with.
  auto stream = [&](const std::string& path, json body) {
    body["stream"] = true;
    auto res = c->Post(path, body.dump(), "application/json");
    EXPECT_TRUE(res && res->status == 200) << path;
    return SseData(res ? res->body : "");
  };
  std::vector<json> chat_events =
      stream("/v1/chat/completions", {{"messages", messages},
                                      {"max_tokens", 8},
                                      {"grammar", empty},
                                      {"stream_options", {{"include_usage", true}}}});
  ASSERT_GE(chat_events.size(), 2u);
  EXPECT_EQ(chat_events[chat_events.size() - 2]["usage"]["completion_tokens"], 1);
  std::vector<json> responses_events = stream(
      "/v1/responses", {{"input", "Tell me."}, {"max_output_tokens", 8}, {"grammar", empty}});
  ASSERT_FALSE(responses_events.empty());
  EXPECT_EQ(responses_events.back()["type"], "response.completed");
  EXPECT_EQ(responses_events.back()["response"]["usage"]["output_tokens"], 1);
  size_t delta_output_tokens = 0;
  for (const json& e :
       stream("/v1/messages", {{"messages", messages}, {"max_tokens", 8}, {"grammar", empty}}))
    if (e.value("type", "") == "message_delta") delta_output_tokens = e["usage"]["output_tokens"];
  EXPECT_EQ(delta_output_tokens, 1u);
  std::vector<json> completion_events =
      stream("/completion", {{"prompt", "Tell me."}, {"n_predict", 8}, {"grammar", empty}});
  ASSERT_FALSE(completion_events.empty());
  EXPECT_EQ(completion_events.back()["tokens_predicted"], 1);
  EXPECT_EQ(completion_events.back()["timings"]["predicted_n"], 1);
}

TEST_F(ServeTest, SamplingMembersReachTheSampler) {
  RunningServer server(Options());
  auto c = server.Client();
  auto text = [&](json extra) {
    extra["max_tokens"] = 16;
    int status = 0;
    json r = Post(*c, "/v1/chat/completions", UserChat(extra), &status);
    EXPECT_EQ(status, 200) << r.dump();
    return Text(r);
  };
  const std::string greedy = text({{"temperature", 0}});
  ASSERT_FALSE(greedy.empty());
  // At a high temperature, different seeds sample different replies...
  std::set<std::string> sampled;
  for (int seed = 1; seed <= 4; ++seed) sampled.insert(text({{"temperature", 2}, {"seed", seed}}));
  EXPECT_GT(sampled.size(), 1u);
  // ...the same seed the same one...
  EXPECT_EQ(text({{"temperature", 2}, {"seed", 3}}), text({{"temperature", 2}, {"seed", 3}}));
  // ...and top_k 1 or min_p 1 leave only the most likely token: the greedy reply.
  EXPECT_EQ(text({{"temperature", 2}, {"seed", 1}, {"top_k", 1}}), greedy);
  EXPECT_EQ(text({{"temperature", 2}, {"seed", 2}, {"min_p", 1.0}}), greedy);
  // The penalties change a greedy reply (the tiny model repeats itself).
  EXPECT_NE(text({{"temperature", 0}, {"repeat_penalty", 5}, {"repeat_last_n", -1}}), greedy);
  EXPECT_NE(text({{"temperature", 0}, {"presence_penalty", 2}}), greedy);
  EXPECT_NE(text({{"temperature", 0}, {"frequency_penalty", 2}}), greedy);
  // A stop string cuts the reply before it (two ASCII letters of the greedy reply, so the string
  // is whole UTF-8).
  size_t at = 1;
  while (at + 1 < greedy.size() && !(std::isalpha(static_cast<unsigned char>(greedy[at])) &&
                                     std::isalpha(static_cast<unsigned char>(greedy[at + 1]))))
    ++at;
  ASSERT_LT(at + 1, greedy.size()) << greedy;
  const std::string stop = greedy.substr(at, 2);
  int status = 0;
  json stopped = Post(*c, "/v1/chat/completions",
                      UserChat({{"temperature", 0}, {"max_tokens", 16}, {"stop", stop}}), &status);
  EXPECT_EQ(Text(stopped), greedy.substr(0, greedy.find(stop)));
  EXPECT_EQ(stopped["choices"][0]["finish_reason"], "stop");
}

TEST_F(ServeTest, ServerSamplingDefaultsApplyWhenTheRequestGivesNone) {
  ServeOptions o = Options();
  RunningServer plain(o);
  auto c = plain.Client();
  int status = 0;
  const std::string greedy = Text(Post(
      *c, "/v1/chat/completions", UserChat({{"temperature", 0}, {"max_tokens", 12}}), &status));
  o.temperature = 0;  // --temp 0: greedy without the request asking
  o.store_dir = tmp_.path() / "kv2";
  RunningServer greedy_server(o);
  auto g = greedy_server.Client();
  EXPECT_EQ(Text(Post(*g, "/v1/chat/completions", UserChat({{"max_tokens", 12}}), &status)),
            greedy);
  o.temperature = 2;
  o.top_k = 1;  // --top-k 1: only the most likely token, whatever the temperature
  o.store_dir = tmp_.path() / "kv3";
  RunningServer top_k_server(o);
  auto k = top_k_server.Client();
  EXPECT_EQ(Text(Post(*k, "/v1/chat/completions", UserChat({{"max_tokens", 12}}), &status)),
            greedy);
}

TEST_F(ServeTest, RefusedMembersGet400InTheApisShapeAndNoEffectOnesAreNamed) {
  RunningServer server(Options());
  auto c = server.Client();
  int status = 0;
  json n2 = Post(*c, "/v1/chat/completions", UserChat({{"n", 2}}), &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(n2["error"]["param"], "n") << n2.dump();
  json logit_bias =
      Post(*c, "/v1/chat/completions", UserChat({{"logit_bias", {{"15", 100}}}}), &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(logit_bias["error"]["param"], "logit_bias") << logit_bias.dump();
  json unknown = Post(*c, "/v1/messages",
                      {{"max_tokens", 4},
                       {"messages", {{{"role", "user"}, {"content", "x"}}}},
                       {"frobnicate", true}},
                      &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(unknown["type"], "error");
  EXPECT_NE(unknown["error"]["message"].get<std::string>().find("frobnicate"), std::string::npos);
  auto res =
      c->Post("/v1/chat/completions",
              UserChat({{"max_tokens", 2}, {"metadata", {{"k", "v"}}}, {"user", "u1"}}).dump(),
              "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("X-Strata-No-Effect-Members"), "metadata, user");
  const auto log = server.log();
  EXPECT_NE(log.back().find("no_effect=metadata,user"), std::string::npos) << log.back();
}

TEST_F(ServeTest, StructuredOutputRepliesKeepToTheSchemaOrGrammar) {
  RunningServer server(Options());
  auto c = server.Client();
  const json schema = {{"type", "object"},
                       {"properties", {{"ok", {{"type", "boolean"}}}}},
                       {"required", {"ok"}},
                       {"additionalProperties", false}};
  auto expect_valid = [](const std::string& text) {
    json v = json::parse(text, nullptr, false);
    ASSERT_TRUE(v.is_object()) << text;
    EXPECT_EQ(v.size(), 1u) << text;
    EXPECT_TRUE(v["ok"].is_boolean()) << text;
  };
  int status = 0;
  json chat = Post(
      *c, "/v1/chat/completions",
      UserChat({{"temperature", 0},
                {"max_tokens", 64},
                {"response_format",
                 {{"type", "json_schema"}, {"json_schema", {{"name", "r"}, {"schema", schema}}}}}}),
      &status);
  ASSERT_EQ(status, 200) << chat.dump();
  expect_valid(Text(chat));
  EXPECT_EQ(chat["choices"][0]["finish_reason"], "stop");
  json object = Post(*c, "/v1/chat/completions",
                     UserChat({{"temperature", 1},
                               {"seed", 5},
                               {"max_tokens", 200},
                               {"response_format", {{"type", "json_object"}}}}),
                     &status);
  EXPECT_TRUE(Text(object).starts_with("{")) << Text(object);
  if (object["choices"][0]["finish_reason"] == "stop") {
    EXPECT_TRUE(json::parse(Text(object), nullptr, false).is_object()) << Text(object);
  }
  json yes_no = Post(*c, "/v1/chat/completions",
                     UserChat({{"temperature", 1},
                               {"seed", 3},
                               {"max_tokens", 8},
                               {"grammar", "root ::= \"yes\" | \"no\""}}),
                     &status);
  EXPECT_TRUE(Text(yes_no) == "yes" || Text(yes_no) == "no") << yes_no.dump();
  json bad = Post(*c, "/v1/chat/completions", UserChat({{"grammar", "root ::= ("}}), &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(bad["error"]["param"], "grammar");
  json messages =
      Post(*c, "/v1/messages",
           {{"max_tokens", 64},
            {"temperature", 0},
            {"messages", {{{"role", "user"}, {"content", "Answer."}}}},
            {"output_config", {{"format", {{"type", "json_schema"}, {"schema", schema}}}}}},
           &status);
  ASSERT_EQ(status, 200) << messages.dump();
  expect_valid(messages["content"][0]["text"]);
  json responses =
      Post(*c, "/v1/responses",
           {{"input", "Answer."},
            {"temperature", 0},
            {"max_output_tokens", 64},
            {"text", {{"format", {{"type", "json_schema"}, {"name", "r"}, {"schema", schema}}}}}},
           &status);
  ASSERT_EQ(status, 200) << responses.dump();
  expect_valid(responses["output"][0]["content"][0]["text"]);
}

TEST_F(ServeTest, LlamaServerEndpointsAnswerInItsShapes) {
  ServeOptions o = Options();
  o.n_predict = 7;
  RunningServer server(o);
  auto c = server.Client();
  int status = 0;
  json plain = Post(*c, "/tokenize", {{"content", "hello world"}}, &status);
  ASSERT_EQ(status, 200) << plain.dump();
  ASSERT_TRUE(plain["tokens"].is_array());
  ASSERT_FALSE(plain["tokens"].empty());
  EXPECT_TRUE(plain["tokens"][0].is_number_integer());
  json with_bos =
      Post(*c, "/tokenize", {{"content", "hello world"}, {"add_special", true}}, &status);
  ASSERT_EQ(with_bos["tokens"].size(), plain["tokens"].size() + 1);
  EXPECT_EQ(with_bos["tokens"][0], 1);  // the llama-spm vocabulary's BOS
  json pieces = Post(*c, "/tokenize", {{"content", "hello world"}, {"with_pieces", true}}, &status);
  std::string joined;
  for (const json& t : pieces["tokens"]) joined += t["piece"].get<std::string>();
  json detok = Post(*c, "/detokenize", {{"tokens", plain["tokens"]}}, &status);
  ASSERT_EQ(status, 200) << detok.dump();
  EXPECT_EQ(detok["content"], joined);
  EXPECT_TRUE(joined.ends_with("hello world")) << joined;
  json bad = Post(*c, "/detokenize", {{"tokens", {1, -4}}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(bad["error"]["param"], "tokens[1]");
  json unknown = Post(*c, "/tokenize", {{"content", "x"}, {"add_bos", true}}, &status);
  EXPECT_EQ(status, 400) << unknown.dump();
  json applied = Post(*c, "/apply-template", UserChat(json::object()), &status);
  ASSERT_EQ(status, 200) << applied.dump();
  EXPECT_NE(applied["prompt"].get<std::string>().find("Tell me about the build."),
            std::string::npos);
  auto props = c->Get("/props");
  ASSERT_TRUE(props);
  json p = json::parse(props->body);
  EXPECT_EQ(p["total_slots"], 1);
  EXPECT_EQ(p["default_generation_settings"]["n_ctx"], 1024);
  EXPECT_EQ(p["default_generation_settings"]["params"]["n_predict"], 7);
  EXPECT_EQ(p["default_generation_settings"]["params"]["top_k"], 40);
  EXPECT_EQ(p["model_path"], o.model.string());
}

TEST_F(ServeTest, ASecondServerOnAPortInUseFailsAtStart) {
  RunningServer first(Options());
  ASSERT_GT(first.port(), 0);
  ServeOptions o = Options();
  o.port = first.port();
  o.store_dir = tmp_.path() / "kv2";
  auto second = Server::Create(o);
  ASSERT_TRUE(second) << FormatError(second.error());
  Status st = (*second)->Run();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("cannot listen on 127.0.0.1:" + std::to_string(o.port)),
            std::string::npos)
      << st.error().message;
  // The first server still answers every request.
  EXPECT_EQ(first.Client()->Get("/health")->status, 200);
}

// `strata serve ARGS` as a child process: its stderr until the ready line (the port it prints),
// then SIGTERM.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> all = {STRATA_CLI_PATH, "serve"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    err_ = fds[0];
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int st = 0;
      waitpid(pid_, &st, 0);
    }
    if (err_ >= 0) close(err_);
  }
  // The port of the ready line, or -1 when the process ends or 60 s pass first; `stderr_text`
  // gets what it printed.
  int WaitReady(std::string* stderr_text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::smatch m;
    const std::regex ready(R"(listening on http://[0-9.]+:([0-9]+))");
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{err_, POLLIN, 0};
      if (poll(&p, 1, 1000) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(err_, buf, sizeof buf);
      if (n <= 0) return -1;
      stderr_text->append(buf, static_cast<size_t>(n));
      if (std::regex_search(*stderr_text, m, ready)) return std::stoi(m[1]);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int err_ = -1;
};

TEST_F(ServeTest, LlamaServerCommandLineRunsWithItsMeaning) {
  const std::string model = TinyModelPath(1).string();
  ServeProcess p({"-m",
                  model,
                  "-c",
                  "512",
                  "-np",
                  "2",
                  "-ngl",
                  "0",
                  "-t",
                  "1",
                  "-tb",
                  "1",
                  "-fa",
                  "auto",
                  "-b",
                  "256",
                  "-ub",
                  "128",
                  "-ctk",
                  "f16",
                  "-ctv",
                  "f16",
                  "--host",
                  "127.0.0.1",
                  "--port",
                  "0",
                  "--api-key",
                  "k1",
                  "-a",
                  "tiny",
                  "--jinja",
                  "-n",
                  "3",
                  "--temp",
                  "0",
                  "--top-k",
                  "40",
                  "--top-p",
                  "0.95",
                  "--min-p",
                  "0.05",
                  "--repeat-penalty",
                  "1.0",
                  "--seed",
                  "7",
                  "--no-mmap",
                  "--mlock",
                  "--metrics",
                  "--reasoning-format",
                  "auto",
                  "--reasoning-budget",
                  "-1",
                  "--slot-save-path",
                  (tmp_.path() / "slots").string(),
                  "--no-slots"});
  std::string err;
  const int port = p.WaitReady(&err);
  ASSERT_GT(port, 0) << err;
  EXPECT_NE(err.find("(ctx 512, parallel 2)"), std::string::npos) << err;
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(60, 0);
  EXPECT_EQ(c.Get("/v1/models")->status, 401);  // --api-key
  c.set_bearer_token_auth("k1");
  EXPECT_EQ(json::parse(c.Get("/v1/models")->body)["data"][0]["id"], "tiny");  // -a
  auto res = c.Post("/v1/chat/completions", UserChat(json::object()).dump(), "application/json");
  ASSERT_TRUE(res);
  json r = json::parse(res->body);
  EXPECT_EQ(r["usage"]["completion_tokens"], 3) << r.dump();  // -n 3
  EXPECT_EQ(r["choices"][0]["finish_reason"], "length");
  EXPECT_TRUE(std::filesystem::is_directory(tmp_.path() / "slots"));  // --slot-save-path
  // --no-slots: llama-server's 501 naming the flag that turns the endpoint on.
  auto slots = c.Get("/slots");
  ASSERT_TRUE(slots);
  EXPECT_EQ(slots->status, 501);
  EXPECT_NE(json::parse(slots->body)["error"]["message"].get<std::string>().find("--slots"),
            std::string::npos)
      << slots->body;
}

TEST_F(ServeTest, SlotsShowEachSequenceAndWhatItHolds) {
  ServeOptions o = Options();
  o.parallel = 2;
  RunningServer server(o);
  auto c = server.Client();
  auto slots = [&] {
    auto res = c->Get("/slots");
    EXPECT_TRUE(res && res->status == 200);
    return res ? json::parse(res->body) : json();
  };
  json before = slots();
  ASSERT_EQ(before.size(), 2u) << before.dump();
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(before[i]["id"], i);
    EXPECT_EQ(before[i]["n_ctx"], 1024);  // per sequence, as --ctx
    EXPECT_EQ(before[i]["is_processing"], false);
    EXPECT_EQ(before[i]["n_prompt_tokens"], 0);
  }
  int status = 0;
  json r =
      Post(*c, "/completion",
           {{"prompt", "The build compiles every file."}, {"n_predict", 3}, {"temperature", 0}},
           &status);
  ASSERT_EQ(status, 200) << r.dump();
  json after = slots();
  const json& used = after[r["id_slot"].get<int>()];
  // The sequence keeps the prompt for the next request to reuse (the reply is trimmed off when the
  // prompt's checkpoint is stored); tokens_cached, as llama-server's, counts what it held when the
  // reply ended: the prompt and the 3 tokens but the last.
  EXPECT_EQ(used["n_prompt_tokens"], r["tokens_evaluated"]) << after.dump();
  ASSERT_EQ(r["stop_type"], "limit") << r.dump();
  EXPECT_EQ(r["tokens_cached"], r["tokens_evaluated"].get<size_t>() + 3 - 1) << r.dump();
  EXPECT_EQ(used["is_processing"], false);
  EXPECT_EQ(after[1 - r["id_slot"].get<int>()]["n_prompt_tokens"], 0);
}

TEST_F(ServeTest, EmbeddingsAreRefusedSayingWhy) {
  RunningServer server(Options());
  auto c = server.Client();
  for (const char* path : {"/v1/embeddings", "/embeddings", "/embedding"}) {
    int status = 0;
    json r = Post(*c, path, {{"input", "hello"}, {"model", "tiny"}}, &status);
    // llama-server's answer when it computes no embeddings: 501, not_supported_error.
    EXPECT_EQ(status, 501) << path;
    EXPECT_EQ(r["error"]["type"], "not_supported_error") << r.dump();
    EXPECT_EQ(r["error"]["code"], 501);
    // The tiny model declares no pooling type: a generation model.
    EXPECT_NE(r["error"]["message"].get<std::string>().find("not an embedding model"),
              std::string::npos)
        << r.dump();
  }
}

// -to / --timeout (llama-server's) on the command line bounds the read of a request: a client that
// sends half a request and stalls is cut within the timeout (2 s here; the default is 30 s, so a
// flag that did not take effect would leave it connected past the 15 s bound).
TEST_F(ServeTest, TimeoutFlagCutsAStalledRequest) {
  for (const char* flag : {"-to", "--timeout"}) {
    ServeProcess p({"-m", TinyModelPath(1).string(), "-c", "512", "-t", "1", "--port", "0",
                    "--slot-save-path", (tmp_.path() / "kv").string(), flag, "2"});
    std::string err;
    const int port = p.WaitReady(&err);
    ASSERT_GT(port, 0) << err;
    const int fd = ConnectLoopback(port);
    ASSERT_GE(fd, 0);
    const std::string half =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mess";
    ASSERT_EQ(::send(fd, half.data(), half.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(half.size()));
    // Read until the server closes the connection (it may answer 408 first), within 15 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    bool closed = false;
    std::string got;
    while (!closed && std::chrono::steady_clock::now() < deadline) {
      pollfd pf{fd, POLLIN, 0};
      if (poll(&pf, 1, 250) <= 0) continue;
      char buf[512];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) closed = true;
      if (n > 0) got.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    EXPECT_TRUE(closed) << flag << ": still connected after 15 s; got: " << got;
  }
}

// A TCP connection from `source` (a loopback address, so that one test can be several clients)
// to 127.0.0.1:`port` that has sent half a request line: the server reads it until --timeout.
int HalfRequestFrom(const char* source, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  inet_pton(AF_INET, source, &from.sin_addr);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::string half = "GET /health HTTP/1.1\r\nHo";
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0 ||
      ::send(fd, half.data(), half.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(half.size())) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// How many of `fds` the server has closed (end of stream or reset) once `want` have been seen or
// `ms` have passed; closed ones are removed from `fds`.
size_t WaitForClosed(std::vector<int>* fds, size_t want, int ms) {
  size_t closed = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (closed < want && std::chrono::steady_clock::now() < deadline) {
    for (auto it = fds->begin(); it != fds->end();) {
      pollfd p{*it, POLLIN, 0};
      char c;
      if (poll(&p, 1, 0) > 0 && ::recv(*it, &c, 1, MSG_DONTWAIT) <= 0) {
        ::close(*it);
        it = fds->erase(it);
        ++closed;
      } else {
        ++it;
      }
    }
    if (closed < want) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return closed;
}

// --max-connections-per-client and --max-connections set low on the command line are enforced: a
// third connection from one address (cap 2) closes one of that client's two, and a fourth open
// connection of any address (cap 3) closes one more; the others stay open (--timeout 120 keeps
// every half-sent request waiting meanwhile, the defaults 32 and 128 would close none), and a
// newcomer is still answered.
TEST_F(ServeTest, ConnectionCapFlagsSetLowAreEnforced) {
  ServeProcess p({"-m",
                  TinyModelPath(1).string(),
                  "-c",
                  "512",
                  "-t",
                  "1",
                  "--port",
                  "0",
                  "--slot-save-path",
                  (tmp_.path() / "kv").string(),
                  "-np",
                  "1",
                  "--max-queue",
                  "0",
                  "-to",
                  "120",
                  "--max-connections",
                  "3",
                  "--max-connections-per-client",
                  "2"});
  std::string err;
  const int port = p.WaitReady(&err);
  ASSERT_GT(port, 0) << err;
  std::vector<int> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(HalfRequestFrom("127.0.0.2", port));
    ASSERT_GE(open.back(), 0) << "cannot connect from 127.0.0.2";
  }
  EXPECT_EQ(WaitForClosed(&open, 1, 30000), 1u) << "the per-client cap closed nothing";
  EXPECT_EQ(WaitForClosed(&open, 1, 1000), 0u) << "the per-client cap closed more than one";
  for (const char* source : {"127.0.0.3", "127.0.0.4"}) {
    open.push_back(HalfRequestFrom(source, port));
    ASSERT_GE(open.back(), 0) << source;
  }
  EXPECT_EQ(WaitForClosed(&open, 1, 30000), 1u) << "the total cap closed nothing";
  EXPECT_EQ(WaitForClosed(&open, 1, 1000), 0u) << "the total cap closed more than one";
  EXPECT_EQ(open.size(), 3u);
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(60, 0);
  auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  for (int fd : open) ::close(fd);
}

}  // namespace
}  // namespace strata::testing
