// server_slow_test.cc: strata serve end to end in the test process (tiny generated model,
// scratch store, 127.0.0.1 on a free port): usage and cached tokens, the shared system + tools
// cut across sessions, restore after a restart (equal tokens to a cold run at temperature 0),
// streaming, eight clients on two sequences, the bad-input table, a full queue, a client that
// disconnects, and Claude Code's captured requests.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <fstream>
#include <future>
#include <sstream>

#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

using nlohmann::json;

size_t Cached(const json& chat) { return chat["usage"]["prompt_tokens_details"]["cached_tokens"]; }
std::string Text(const json& chat) {
  const json& c = chat["choices"][0]["message"]["content"];
  return c.is_string() ? c.get<std::string>() : "";
}

void SendAll(int fd, const std::string& s) {
  EXPECT_EQ(::send(fd, s.data(), s.size(), 0), static_cast<ssize_t>(s.size()));
}

std::string RawPost(const std::string& path, const std::string& body) {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST_F(ServeTest, ChatCompletionsAnswersWithUsageAndHealthAndModels) {
  RunningServer server(Options());
  auto c = server.Client();
  auto health = c->Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto models = c->Get("/v1/models");
  ASSERT_TRUE(models);
  EXPECT_EQ(json::parse(models->body)["data"][0]["id"], "tiny-1");
  int status = 0;
  json r = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"), &status);
  EXPECT_EQ(status, 200) << r.dump();
  EXPECT_EQ(r["object"], "chat.completion");
  EXPECT_EQ(r["choices"][0]["message"]["role"], "assistant");
  EXPECT_GT(r["usage"]["prompt_tokens"].get<int>(), 20);
  EXPECT_LE(r["usage"]["completion_tokens"].get<int>(), 6);
  EXPECT_EQ(Cached(r), 0u);  // a new store: nothing to reuse
  const auto log = server.log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("api=chat.completions status=200"), std::string::npos) << log[0];
  EXPECT_NE(log[0].find("prefilled="), std::string::npos);
}

TEST_F(ServeTest, SecondSessionRestoresTheSharedSystemAndToolsCut) {
  ServeOptions o = Options();
  size_t first_prompt = 0;
  {
    RunningServer server(o);
    auto c = server.Client();
    json a = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
    first_prompt = a["usage"]["prompt_tokens"];
  }
  RunningServer server(o);  // a new process state: only the store remains
  auto c = server.Client();
  json b = Post(*c, "/v1/chat/completions", ChatBody("Rename the helper in src/util.cc please."));
  const size_t cached = Cached(b);
  EXPECT_GT(cached, 20u) << b.dump();                            // the system + tools cut
  EXPECT_LT(cached, b["usage"]["prompt_tokens"].get<size_t>());  // not the other first message
  EXPECT_LT(cached, first_prompt);
  auto metrics = c->Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("strata_checkpoint_hits_total 1"), std::string::npos)
      << metrics->body;
}

TEST_F(ServeTest, RestartRestoresThePromptAndGreedyTokensEqualAColdRun) {
  ServeOptions o = Options();
  json cold, warm;
  {
    RunningServer server(o);
    auto c = server.Client();
    cold = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  }
  {
    RunningServer server(o);
    auto c = server.Client();
    warm = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
    auto metrics = c->Get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metrics->body.find("strata_prompt_tokens_restored_total 0"), std::string::npos);
  }
  const size_t prompt = warm["usage"]["prompt_tokens"];
  EXPECT_EQ(Cached(warm), prompt - 1) << warm.dump();  // all but the last token, decoded for logits
  EXPECT_EQ(Text(warm), Text(cold));
  EXPECT_EQ(warm["usage"]["completion_tokens"], cold["usage"]["completion_tokens"]);
  ServeOptions fresh = o;
  fresh.store_dir = tmp_.path() / "other-kv";
  RunningServer server(fresh);
  auto c = server.Client();
  json again = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  EXPECT_EQ(Cached(again), 0u);
  EXPECT_EQ(Text(again), Text(cold));
}

// The request log line times each phase (restore_ms with its read, verify and load parts, here
// after a restart); a Responses request's non-function tools are named in the log
// line and in the X-Strata-Ignored-Tools header.
TEST_F(ServeTest, RequestLogTimesPhasesAndNamesIgnoredTools) {
  ServeOptions o = Options();
  const json body = {
      {"model", "tiny"},
      {"instructions", kSystem},
      {"input", "Where are the tests?"},
      {"tools",
       {{{"type", "function"}, {"name", "shell"}, {"parameters", {{"type", "object"}}}},
        {{"type", "namespace"}, {"name", "multi_agent_v1"}, {"tools", json::array()}},
        {{"type", "web_search"}}}},
      {"max_output_tokens", 4},
      {"temperature", 0}};
  {
    RunningServer server(o);
    auto c = server.Client();
    auto res = c->Post("/v1/responses", body.dump(), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(res->get_header_value("X-Strata-Ignored-Tools"),
              "namespace:multi_agent_v1, web_search");
    const auto log = server.log();
    ASSERT_EQ(log.size(), 1u);
    EXPECT_NE(log[0].find(" restored=0 "), std::string::npos) << log[0];
    EXPECT_NE(log[0].find(" ignored_tools=namespace:multi_agent_v1,web_search"), std::string::npos)
        << log[0];
    for (const char* field :
         {" render_ms=", " tokenize_ms=", " queue_ms=", " lookup_ms=", " restore_ms=",
          " restore_read_ms=", " restore_verify_ms=", " restore_load_ms=", " prefill_ms=",
          " checkpoint_ms=", " sample_ms=", " store_ms="})
      EXPECT_NE(log[0].find(field), std::string::npos) << field << " in " << log[0];
  }
  RunningServer server(o);
  auto c = server.Client();
  json plain = body;
  plain["tools"] = json::array();
  plain["tools"].push_back(body["tools"][0]);
  auto res = c->Post("/v1/responses", body.dump(), "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  const auto log = server.log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].find(" restored=0 "), std::string::npos) << log[0];
  EXPECT_NE(log[0].find(" restore_load_ms="), std::string::npos) << log[0];
  auto other = c->Post("/v1/responses", plain.dump(), "application/json");
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->has_header("X-Strata-Ignored-Tools"));
  EXPECT_EQ(server.log().back().find("ignored_tools"), std::string::npos);
}

TEST_F(ServeTest, StreamedChatSendsChunksThenUsageThenDone) {
  RunningServer server(Options());
  auto c = server.Client();
  json body = ChatBody("Where are the tests?");
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  auto res = c->Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Type").find("text/event-stream"), std::string::npos);
  std::vector<json> events = SseData(res->body);
  ASSERT_GE(events.size(), 3u) << res->body;
  EXPECT_EQ(events.back(), "[DONE]");
  EXPECT_EQ(events[0]["choices"][0]["delta"]["role"], "assistant");
  const json& usage = events[events.size() - 2]["usage"];
  EXPECT_GT(usage["prompt_tokens"].get<int>(), 20);
  EXPECT_TRUE(usage["prompt_tokens_details"].contains("cached_tokens"));
  std::string streamed;
  for (const json& e : events) {
    if (e.is_object() && !e["choices"].empty() && e["choices"][0]["delta"].contains("content"))
      streamed += e["choices"][0]["delta"]["content"].get<std::string>();
  }
  json plain = Post(*c, "/v1/chat/completions", ChatBody("Where are the tests?"));
  EXPECT_EQ(streamed, Text(plain));
}

TEST_F(ServeTest, EightClientsOnTwoSequencesEachGetTheirOwnReply) {
  ServeOptions o = Options();
  o.parallel = 2;
  std::vector<std::string> serial(8), parallel(8);
  auto question = [](int i) {
    return "Question number " + std::to_string(i) + ": where is file " + std::to_string(i * 7) +
           "?";
  };
  {
    ServeOptions s = o;
    s.store_dir = tmp_.path() / "serial-kv";
    RunningServer server(s);
    auto c = server.Client();
    for (int i = 0; i < 8; ++i)
      serial[i] = Text(Post(*c, "/v1/chat/completions", ChatBody(question(i))));
  }
  RunningServer server(o);
  std::vector<std::thread> clients;
  std::vector<int> statuses(8, 0);
  for (int i = 0; i < 8; ++i) {
    clients.emplace_back([&, i] {
      auto c = server.Client();
      parallel[i] = Text(Post(*c, "/v1/chat/completions", ChatBody(question(i)), &statuses[i]));
    });
  }
  for (auto& t : clients) t.join();
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(statuses[i], 200) << i;
    EXPECT_EQ(parallel[i], serial[i]) << i;
  }
}

TEST_F(ServeTest, BadInputsGetTheirDocumentedStatusAndTheServerKeepsServing) {
  ServeOptions o = Options();
  o.alias = "tiny";
  o.api_key = "secret";
  o.max_body_bytes = 64 * 1024;
  RunningServer server(o);
  auto c = server.Client();
  c->set_bearer_token_auth("secret");
  struct Case {
    std::string name, path, body;
    int status;
    std::string names;  // text the error message must hold
  };
  std::string long_text;
  for (int i = 0; i < 1500; ++i) long_text += "word" + std::to_string(i) + " ";
  const std::vector<Case> cases = {
      {"bad JSON", "/v1/chat/completions", "{\"messages\": [", 400, "not valid JSON"},
      {"not an object", "/v1/chat/completions", "[1,2]", 400, "JSON object"},
      {"messages not an array", "/v1/chat/completions", R"({"messages":"hi"})", 400, "messages"},
      {"role of the wrong type", "/v1/chat/completions", R"({"messages":[{"role":5}]})", 400,
       "messages[0].role"},
      {"unknown role", "/v1/chat/completions", R"({"messages":[{"role":"robot","content":"x"}]})",
       400, "messages[0].role"},
      {"content of the wrong type", "/v1/messages",
       R"({"max_tokens":5,"messages":[{"role":"user","content":7}]})", 400, "messages[0].content"},
      {"max_tokens missing", "/v1/messages", R"({"messages":[{"role":"user","content":"x"}]})", 400,
       "max_tokens"},
      {"temperature a string", "/v1/chat/completions",
       R"({"temperature":"hot","messages":[{"role":"user","content":"x"}]})", 400, "temperature"},
      {"unknown model", "/v1/chat/completions",
       R"({"model":"gpt-9","messages":[{"role":"user","content":"x"}]})", 404, "gpt-9"},
      {"previous_response_id", "/v1/responses", R"({"input":"x","previous_response_id":"r1"})", 400,
       "previous_response_id"},
      {"prompt longer than the context", "/v1/chat/completions",
       json{{"messages", {{{"role", "user"}, {"content", long_text}}}}}.dump(), 413,
       "the context holds 1024"},
      {"huge body", "/v1/chat/completions", std::string(100 * 1024, ' '), 413, "exceeds"},
      {"unknown path", "/v1/nothing", "{}", 404, "no such endpoint"},
  };
  for (const Case& k : cases) {
    auto res = c->Post(k.path, k.body, "application/json");
    ASSERT_TRUE(res) << k.name;
    EXPECT_EQ(res->status, k.status) << k.name << ": " << res->body;
    EXPECT_NE(res->body.find(k.names), std::string::npos) << k.name << ": " << res->body;
  }
  auto anon = server.Client();
  auto denied = anon->Post("/v1/chat/completions", ChatBody("x").dump(), "application/json");
  ASSERT_TRUE(denied);
  EXPECT_EQ(denied->status, 401);
  anon->set_default_headers({{"x-api-key", "secret"}});
  EXPECT_EQ(anon->Post("/v1/chat/completions", ChatBody("x").dump(), "application/json")->status,
            200);
  EXPECT_EQ(c->Get("/health")->status, 200);
}

TEST_F(ServeTest, ASlowClientIsDisconnectedAfterTheReadTimeout) {
  ServeOptions o = Options();
  o.read_timeout_s = 1;
  RunningServer server(o);
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  SendAll(fd,
          "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mess");
  char buf[512];
  const ssize_t n = ::recv(fd, buf, sizeof buf, 0);  // returns when the server gives up
  EXPECT_LE(n, static_cast<ssize_t>(sizeof buf));
  ::close(fd);
  auto c = server.Client();
  EXPECT_EQ(c->Get("/health")->status, 200);
}

// What a socket holds within `ms` (until the peer closes or the time is up).
std::string ReadFor(int fd, int ms) {
  std::string out;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  char buf[4096];
  while (std::chrono::steady_clock::now() < end) {
    timeval tv{0, 50 * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n == 0) break;
    if (n > 0) out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// The value of a /metrics line starting with `name` (-1 when absent).
double Metric(httplib::Client& c, const std::string& name) {
  auto res = c.Get("/metrics");
  if (!res) return -1;
  const size_t at = res->body.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(res->body.substr(at + name.size() + 2));
}

// 64 connections from this address, each sending a request one byte every 2 s (a slowloris): every
// /health asked meanwhile is answered (a newcomer over the per-client cap closes the oldest
// connection still sending), the slow requests that outlive the whole-request deadline (not
// restarted by each byte) get 408, and /metrics counts both. ~12 s.
TEST_F(ServeTest, SixtyFourSlowClientsCannotStallHealth) {
  ServeOptions o = Options();
  o.read_timeout_s = 5;
  o.max_connections_per_client = 16;
  RunningServer server(o);
  const std::string request = "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  std::vector<int> slow;
  for (int i = 0; i < 64; ++i) {
    const int fd = ConnectLoopback(server.port());
    ASSERT_GE(fd, 0);
    slow.push_back(fd);
    (void)::send(fd, request.data(), 1, MSG_NOSIGNAL);
  }
  int asked = 0, answered = 0;
  std::string unanswered;
  const auto start = std::chrono::steady_clock::now();
  for (size_t tick = 1; std::chrono::steady_clock::now() - start < std::chrono::seconds(9);
       ++tick) {
    if (tick % 4 == 0) {  // every 2 s: one more byte on each slow connection
      for (int fd : slow) (void)::send(fd, request.data() + tick / 4, 1, MSG_NOSIGNAL);
    }
    auto c = server.Client();
    c->set_connection_timeout(3, 0);
    c->set_read_timeout(3, 0);
    const auto sent = std::chrono::steady_clock::now();
    auto res = c->Get("/health");
    ++asked;
    if (res && res->status == 200) {
      ++answered;
    } else {  // say how it failed, for a failure seen only on a loaded machine
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - sent)
                          .count();
      unanswered += fmt::format(
          " [tick {}: {} after {} ms]", tick,
          res ? "status " + std::to_string(res->status) : httplib::to_string(res.error()), ms);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_EQ(answered, asked) << unanswered;
  int timed_out = 0, closed = 0;
  for (int fd : slow) {
    const std::string got = ReadFor(fd, 100);
    timed_out += got.starts_with("HTTP/1.1 408") ? 1 : 0;
    closed += got.empty() ? 1 : 0;  // closed for a newcomer, nothing answered
    ::close(fd);
  }
  EXPECT_GT(timed_out, 0);
  EXPECT_GE(closed, 64 - 16);
  auto c = server.Client();
  EXPECT_GE(Metric(*c, "strata_serve_connections_closed_total{reason=\"evicted\"}"), 48);
  EXPECT_GE(Metric(*c, "strata_serve_connections_closed_total{reason=\"request_timeout\"}"), 1);
}

// A declared Content-Length over the cap is answered 413 before any body byte is read: the client
// that sent one byte of its 10 GB gets the answer, and the connection is closed.
TEST_F(ServeTest, ADeclaredLengthOverTheCapIs413AtOnce) {
  ServeOptions o = Options();
  o.read_timeout_s = 30;
  RunningServer server(o);
  const int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  SendAll(fd,
          "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          "Content-Length: 10000000000\r\n\r\n{");
  const std::string got = ReadFor(fd, 10000);  // far less than the read timeout
  ::close(fd);
  EXPECT_TRUE(got.starts_with("HTTP/1.1 413")) << got;
  EXPECT_NE(got.find("10000000000 bytes"), std::string::npos) << got;
  EXPECT_NE(got.find("Connection: close"), std::string::npos) << got;
  auto c = server.Client();
  EXPECT_EQ(c->Get("/health")->status, 200);
}

// Bytes that are not UTF-8 inside a request's text: 400 naming the member on every POST endpoint
// (once a 500 from an unprintable error message), logged and counted.
TEST_F(ServeTest, InvalidUtf8Is400NamingTheMemberOnEveryPostEndpoint) {
  RunningServer server(Options());
  auto c = server.Client();
  const std::string bad = "caf\xC3(";  // a lead byte without its continuation
  const std::string chat = R"({"messages":[{"role":"user","content":")" + bad + R"("}]})";
  struct Case {
    std::string path, body, member;
  };
  const std::vector<Case> cases = {
      {"/v1/chat/completions", chat, "messages[0].content"},
      {"/chat/completions", chat, "messages[0].content"},
      {"/v1/responses", R"({"input":[{"role":"user","content":")" + bad + R"("}]})",
       "input[0].content"},
      {"/v1/messages",
       R"({"max_tokens":5,"messages":[{"role":"user","content":")" + bad + R"("}]})",
       "messages[0].content"},
      {"/v1/messages/count_tokens", chat, "messages[0].content"},
      {"/completion", R"({"n_predict":2,"prompt":")" + bad + R"("})", "prompt"},
      {"/completions", R"({"n_predict":2,"prompt":")" + bad + R"("})", "prompt"},
      {"/v1/completions", R"({"max_tokens":2,"prompt":")" + bad + R"("})", "prompt"},
      {"/tokenize", R"({"content":")" + bad + R"("})", "content"},
      {"/detokenize", R"({"tokens":[1],"note":")" + bad + R"("})", "note"},
      {"/apply-template", chat, "messages[0].content"},
  };
  for (const Case& k : cases) {
    auto res = c->Post(k.path, k.body, "application/json");
    ASSERT_TRUE(res) << k.path;
    EXPECT_EQ(res->status, 400) << k.path << ": " << res->body;
    const json error = json::parse(res->body, nullptr, false);
    ASSERT_TRUE(error.is_object()) << k.path << ": " << res->body;
    const std::string message = error["error"]["message"];
    EXPECT_NE(message.find(k.member + ": not valid UTF-8"), std::string::npos)
        << k.path << ": " << message;
    if (k.path == "/v1/chat/completions" || k.path == "/v1/responses")
      EXPECT_EQ(error["error"]["param"], k.member) << k.path;
  }
  int logged = 0;
  for (const std::string& line : server.log())
    logged += line.find("status=400") != std::string::npos &&
              line.find("not valid UTF-8") != std::string::npos;
  EXPECT_EQ(logged, static_cast<int>(cases.size()));
  auto metrics = c->Get("/metrics");
  ASSERT_TRUE(metrics);
  for (const char* line : {"strata_requests_total{api=\"messages\",status=\"400\"} 2\n",
                           "strata_requests_total{api=\"chat.completions\",status=\"400\"} 2\n",
                           "strata_requests_total{api=\"tokenize\",status=\"400\"} 1\n",
                           "strata_requests_total{api=\"detokenize\",status=\"400\"} 1\n",
                           "strata_requests_total{api=\"apply-template\",status=\"400\"} 1\n"})
    EXPECT_NE(metrics->body.find(line), std::string::npos) << line << metrics->body;
}

// The peak resident memory of this process (VmHWM), bytes; ResetPeak starts a new peak there.
size_t PeakRss() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmHWM:")) return std::stoull(line.substr(6)) * 1024;
  return 0;
}
void ResetPeak() { std::ofstream("/proc/self/clear_refs") << "5"; }

// POSTs `body` to `path` on a connection of its own, straight from the caller's bytes (no copy,
// so that this process's peak memory is the server's), and returns the whole answer; bounded by a
// 120 s receive timeout.
std::string PostInPlace(int port, const std::string& path, const std::string& body) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "";
  timeval tv{120, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  const std::string head = "POST " + path +
                           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           "Connection: close\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n";
  bool sent = true;
  for (std::string_view part : {std::string_view(head), std::string_view(body)}) {
    while (sent && !part.empty()) {
      const ssize_t n = ::send(fd, part.data(), part.size(), MSG_NOSIGNAL);
      sent = n > 0;
      if (sent) part.remove_prefix(static_cast<size_t>(n));
    }
  }
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
    answer.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return answer;
}

// A prompt with more bytes than the context can hold tokens of, whatever it tokenizes to, is
// refused (413) before it is tokenized, with the least token count; and its memory is a small
// multiple of its body: a 15 MB body (under the 16 MiB cap) raises the server's peak by less than
// 4 times its bytes, alone or four at once (the body, the parsed JSON and the request's text each
// hold it once; the tokenizer alone took 50 times it).
TEST_F(ServeTest, APromptOverTheContextInBytesIs413BeforeTokenizing) {
  // The allocator policy `strata serve` sets for its process (tools/strata/cmd_serve.cc): without
  // it glibc keeps freed large blocks in each thread's arena, which adds to the peak.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  RunningServer server(Options());
  std::string words;
  while (words.size() < 15'000'000) words += "plan the next step carefully ";
  const std::string body =
      json{{"messages", {{{"role", "user"}, {"content", words}}}}, {"max_tokens", 4}}.dump();
  words.clear();
  words.shrink_to_fit();
  ResetPeak();
  size_t before = PeakRss();
  const std::string answer = PostInPlace(server.port(), "/v1/chat/completions", body);
  const size_t growth = PeakRss() - before;
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 413")) << answer.substr(0, 400);
  EXPECT_NE(answer.find("at least"), std::string::npos) << answer.substr(0, 400);
  EXPECT_NE(answer.find("the context holds 1024"), std::string::npos) << answer.substr(0, 400);
  EXPECT_LT(growth, 4 * body.size()) << "one request: the peak grew by " << growth << " bytes";
  ResetPeak();
  before = PeakRss();
  std::vector<std::thread> clients;
  std::vector<std::string> answers(4);
  for (std::string& a : answers)
    clients.emplace_back([&] { a = PostInPlace(server.port(), "/v1/chat/completions", body); });
  for (std::thread& t : clients) t.join();
  const size_t growth4 = PeakRss() - before;
  for (const std::string& a : answers) EXPECT_TRUE(a.starts_with("HTTP/1.1 413")) << a;
  EXPECT_LT(growth4, 4 * 4 * body.size()) << "four at once: the peak grew by " << growth4;
  auto count = server.Client()->Post(
      "/v1/messages/count_tokens",
      json{{"messages", {{{"role", "user"}, {"content", body}}}}}.dump(), "application/json");
  ASSERT_TRUE(count);
  EXPECT_EQ(count->status, 413) << count->body;
}

// The auth scheme is case-insensitive: "bearer KEY" and "BEARER KEY" are let in, a wrong key not.
TEST_F(ServeTest, TheBearerSchemeIsCaseInsensitive) {
  ServeOptions o = Options();
  o.api_key = "secret";
  RunningServer server(o);
  auto c = server.Client();
  for (const char* auth : {"Bearer secret", "bearer secret", "BEARER secret"}) {
    auto res = c->Get("/v1/models", {{"Authorization", auth}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << auth;
  }
  for (const char* auth : {"bearer Secret", "bearersecret", "Basic secret"}) {
    auto res = c->Get("/v1/models", {{"Authorization", auth}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 401) << auth;
  }
}

TEST_F(ServeTest, AFullQueueGets503AndADisconnectCancelsTheGeneration) {
  ServeOptions o = Options();
  o.max_queue = 0;
  RunningServer server(o);
  json body = ChatBody("Tell me a long story.");
  body["stream"] = true;
  body["max_tokens"] = 900;
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  SendAll(fd, RawPost("/v1/chat/completions", body.dump()));
  char buf[4096];
  ASSERT_GT(::recv(fd, buf, sizeof buf, 0), 0);  // headers: the request holds the sequence
  auto c = server.Client();
  int status = 0;
  json refused = Post(*c, "/v1/chat/completions", ChatBody("x"), &status);
  EXPECT_EQ(status, 503) << refused.dump();
  EXPECT_EQ(refused["error"]["type"], "overloaded_error");
  ::close(fd);
  // The cancelled request frees its sequence: the next one is served.
  int next = 0;
  for (int attempt = 0; attempt < 200 && next != 200; ++attempt) {
    Post(*c, "/v1/chat/completions", ChatBody("x"), &next);
    if (next != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(next, 200);
  bool cancelled = false;
  for (const std::string& line : server.log())
    cancelled |= line.find("status=499 cancelled") != std::string::npos;
  EXPECT_TRUE(cancelled);
}

// Claude Code's captured requests (a growing conversation): each is answered with the Messages
// SSE grammar, and each later one reads most of its prompt from the cache.
TEST_F(ServeTest, ClaudeCodeRequestsStreamAndReuseTheirPrefix) {
  const std::filesystem::path dir = "/work/shared/corpus/requests/claude-code-2.1.328";
  if (!std::filesystem::exists(dir / "000.json")) GTEST_SKIP() << "corpus not available";
  ServeOptions o = Options();
  o.n_ctx = 32768;
  RunningServer server(o);
  auto c = server.Client();
  for (int i = 0; i < 4; ++i) {
    std::ifstream in(dir / fmt::format("{:03}.json", i));
    json body = json::parse(in);
    body["max_tokens"] = 4;
    auto res = c->Post("/v1/messages?beta=true", body.dump(), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body.substr(0, 500);
    std::vector<json> events = SseData(res->body);
    ASSERT_GE(events.size(), 3u);
    EXPECT_EQ(events.front()["type"], "message_start");
    EXPECT_EQ(events[events.size() - 2]["type"], "message_delta");
    EXPECT_EQ(events.back()["type"], "message_stop");
    const json& usage = events.front()["message"]["usage"];
    const size_t read = usage["cache_read_input_tokens"], input = usage["input_tokens"],
                 created = usage["cache_creation_input_tokens"];
    if (i > 0) EXPECT_GT(read, (read + input + created) / 2) << i << ": " << usage.dump();
  }
}

// cpp-httplib's stop() does nothing until listen_after_bind() has begun: a Stop() that comes
// between the bind (on_ready) and the listen, as a SIGTERM right after the port line does, must
// still end Run. Here Stop() runs while on_ready holds Run back from listening.
TEST_F(ServeTest, StopBeforeTheListenBeginsEndsRun) {
  auto created = Server::Create(Options());
  ASSERT_TRUE(created) << FormatError(created.error());
  Server& server = **created;
  std::thread stopper;
  auto run = std::async(std::launch::async, [&] {
    return server.Run([&](int) {
      stopper = std::thread([&] { server.Stop(); });
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    });
  });
  const bool ended = run.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
  if (!ended) server.Stop();  // the listen has begun by now: this one ends it
  EXPECT_TRUE(ended) << "a Stop() before the listen began was lost";
  const Status status = run.get();
  EXPECT_TRUE(status) << status.error().message;
  stopper.join();
}

}  // namespace
}  // namespace strata::testing
