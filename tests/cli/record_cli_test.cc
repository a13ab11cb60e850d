// record CLI tests: `strata record` between a test client and a stub upstream (node,
// tests/record/stub_upstream.mjs, canned content and usage): bodies and streams pass through
// unchanged, credentials reach the upstream only, and each model request is one line of the file.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <chrono>
#include <thread>

#include "strata/record.h"
#include "support/test_support.h"
#include "transcripts/recorded_requests.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// A child process whose stdout is read line by line; SIGTERM and reaped on destruction.
class Child {
 public:
  explicit Child(std::vector<std::string> argv) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;  // dup2 below clears it on fd 1
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      _exit(127);
    }
    ::close(fds[1]);
    out_ = fds[0];
  }
  ~Child() { Stop(); }
  // The next stdout line (without LF), or "" at end of output.
  // Bounded: 60 s without a byte ends the line (a child that never prints fails, not hangs).
  std::string ReadLine() {
    std::string line;
    char c;
    pollfd p{out_, POLLIN, 0};
    while (::poll(&p, 1, 60000) == 1 && ::read(out_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  // SIGTERM (or `sig`), then the exit status (-1 when killed by a signal). Bounded: a child
  // that has not exited 30 s after the signal is killed and -2 returned (a test fails, not hangs).
  int Stop(int sig = SIGTERM) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, sig);
    int status = 0;
    int result = 0;
    for (int i = 0; i < 3000 && (result = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool stuck = result == 0;
    if (stuck) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    ::close(out_);
    if (stuck) return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

// The port in "listening <port>" (stub) or "...http://127.0.0.1:<port>, ..." (strata record).
int PortOf(const std::string& line) {
  size_t colon = line.find("127.0.0.1:");
  if (colon != std::string::npos) return std::atoi(line.c_str() + colon + 10);
  return line.starts_with("listening ") ? std::atoi(line.c_str() + 10) : 0;
}

struct HttpResponse {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;  // de-chunked
};

std::string Dechunk(std::string_view chunked) {
  std::string out;
  while (!chunked.empty()) {
    size_t eol = chunked.find("\r\n");
    size_t size = std::strtoul(std::string(chunked.substr(0, eol)).c_str(), nullptr, 16);
    if (eol == std::string_view::npos || size == 0) break;
    out.append(chunked.substr(eol + 2, size));
    chunked.remove_prefix(std::min(chunked.size(), eol + 2 + size + 2));
  }
  return out;
}

// One HTTP/1.1 request on a fresh connection (Connection: close), read to the end.
HttpResponse Send(int port, const std::string& method, const std::string& target,
                  const std::string& body, const std::string& extra_headers = "") {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  HttpResponse response;
  // Bounded: a server killed or stalled mid-exchange ends the request within 30 s.
  const timeval limit{30, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return response;
  }
  std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                        "Content-Type: application/json\r\nConnection: close\r\n" + extra_headers +
                        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  (void)!::write(fd, request.data(), request.size());
  std::string raw;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) raw.append(buf, static_cast<size_t>(n));
  ::close(fd);
  size_t split = raw.find("\r\n\r\n");
  if (split == std::string::npos) return response;
  response.head = raw.substr(0, split);
  response.status = std::atoi(raw.c_str() + 9);
  std::string rest = raw.substr(split + 4);
  bool chunked = response.head.find("chunked") != std::string::npos;
  response.body = chunked ? Dechunk(rest) : rest;
  return response;
}

bool HaveNode() { return std::system("node --version >/dev/null 2>&1") == 0; }

constexpr const char* kCredentials =
    "Authorization: Bearer sk-secret-bearer-123\r\nx-api-key: sk-ant-secret-456\r\n"
    "Cookie: session=secret-cookie-789\r\n";

// A stub upstream and `strata record` in front of it, for one test.
class RecordCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveNode()) GTEST_SKIP() << "node not found (scripts/setup.sh installs it)";
    fs::create_directories(dir_.path() / "bodies");
    stub_ = std::make_unique<Child>(std::vector<std::string>{
        "node", std::string(STRATA_SOURCE_DIR) + "/tests/record/stub_upstream.mjs", "--bodies",
        (dir_.path() / "bodies").string()});
    stub_port_ = PortOf(stub_->ReadLine());
    ASSERT_GT(stub_port_, 0);
    record_ = std::make_unique<Child>(std::vector<std::string>{
        STRATA_CLI_PATH, "record", "--upstream", "http://127.0.0.1:" + std::to_string(stub_port_),
        "--listen", "127.0.0.1:0", "--out", out().string()});
    std::string banner = record_->ReadLine();
    port_ = PortOf(banner);
    ASSERT_GT(port_, 0) << banner;
  }
  fs::path out() const { return dir_.path() / "requests.jsonl"; }
  // The record file's lines, parsed, after strata record has stopped.
  std::vector<nlohmann::json> StopAndReadLines() {
    EXPECT_EQ(record_->Stop(), 0);
    std::vector<nlohmann::json> lines;
    std::istringstream in(testing::ReadAll(out()));
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
  }
  std::string StubBody(int n) const {
    return testing::ReadAll(dir_.path() / "bodies" / (std::to_string(n) + ".body"));
  }

  testing::TempDir dir_;
  std::unique_ptr<Child> stub_, record_;
  int stub_port_ = 0, port_ = 0;
};

constexpr const char* kAnthropicBody = R"({
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "stream": true,
  "system": [{"type": "text", "text": "You help.", "cache_control": {"type": "ephemeral"}}],
  "tools": [{"name": "Bash", "description": "Run a command",
             "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}}],
  "messages": [{"role": "user", "content": "say hi \u00e9"}]
})";

// The harness gets the stub's stream byte for byte; the stub gets the harness's body and
// credentials; the file gets the body, the API, the usage the stream reported, and no credential.
TEST_F(RecordCliTest, StreamedAnthropicRequestPassesThroughAndIsRecorded) {
  HttpResponse direct = Send(stub_port_, "POST", "/v1/messages?beta=true", kAnthropicBody);
  HttpResponse relayed =
      Send(port_, "POST", "/v1/messages?beta=true", kAnthropicBody, kCredentials);
  ASSERT_EQ(relayed.status, 200) << relayed.head;
  EXPECT_NE(relayed.head.find("text/event-stream"), std::string::npos) << relayed.head;
  EXPECT_EQ(relayed.body, direct.body);
  EXPECT_NE(relayed.body.find("\"input_json_delta\""), std::string::npos);
  EXPECT_EQ(StubBody(2), kAnthropicBody);
  auto headers = nlohmann::json::parse(testing::ReadAll(dir_.path() / "bodies" / "2.headers.json"));
  EXPECT_EQ(headers["url"], "/v1/messages?beta=true");
  EXPECT_EQ(headers["headers"]["authorization"], "Bearer sk-secret-bearer-123");
  EXPECT_EQ(headers["headers"]["x-api-key"], "sk-ant-secret-456");
  auto lines = StopAndReadLines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["api"], "anthropic-messages");
  EXPECT_EQ(lines[0]["request"], nlohmann::json::parse(kAnthropicBody));
  EXPECT_EQ(lines[0]["usage"], nlohmann::json::parse(R"({"input_tokens":11,
    "cache_creation_input_tokens":1500,"cache_read_input_tokens":0,"output_tokens":7})"));
  EXPECT_EQ(lines[0]["status"], 200);
  EXPECT_GT(lines[0]["started_ms"].get<int64_t>(), 0);
  EXPECT_LE(lines[0]["ttft_ms"].get<int64_t>(), lines[0]["total_ms"].get<int64_t>());
  std::string file = testing::ReadAll(out());
  for (const char* secret : {"sk-secret-bearer-123", "sk-ant-secret-456", "secret-cookie-789"}) {
    EXPECT_EQ(file.find(secret), std::string::npos) << secret;
  }
  // The body's own escape (\u00e9) is kept as sent.
  EXPECT_NE(file.find("say hi \\u00e9"), std::string::npos);
  // replay's reader of recorded files takes the line, with the whole prompt as input.
  std::vector<RecordedRequest> read;
  auto count = ReadRecordedRequests(
      file, out().string(),
      [&](RecordedRequest&& r) {
        read.push_back(std::move(r));
        return Status{};
      },
      nullptr);
  ASSERT_TRUE(count) << count.error().message;
  ASSERT_EQ(read.size(), 1u);
  ASSERT_TRUE(read[0].usage);
  EXPECT_EQ(read[0].usage->input_tokens, 11u + 1500u);
  EXPECT_EQ(read[0].usage->cache_write_tokens, 1500u);
  EXPECT_EQ(read[0].usage->cache_read_tokens, 0u);
}

// Chat Completions streamed, Responses as JSON: each line has its API and the usage the stub
// sent; a GET, a HEAD and a body that is not a JSON object are forwarded (the stub's answer comes
// back) and not recorded.
TEST_F(RecordCliTest, OpenAiRequestsAreRecordedAndOtherPathsOnlyForwarded) {
  std::string chat = R"({"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},)"
                     R"("messages":[{"role":"user","content":"hi"}]})";
  std::string responses = R"({"model":"gpt-5","input":[{"role":"user","content":"hi"}]})";
  HttpResponse c = Send(port_, "POST", "/v1/chat/completions", chat, kCredentials);
  EXPECT_EQ(c.status, 200);
  EXPECT_NE(c.body.find("data: [DONE]"), std::string::npos);
  HttpResponse r = Send(port_, "POST", "/v1/responses", responses, kCredentials);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(nlohmann::json::parse(r.body)["usage"]["input_tokens"], 1300);
  HttpResponse models = Send(port_, "GET", "/v1/models", "", kCredentials);
  EXPECT_EQ(models.status, 404);
  // A HEAD (Claude Code's connectivity check, HEAD /) gets the stub's status, not a 502.
  HttpResponse head = Send(port_, "HEAD", "/", "", kCredentials);
  EXPECT_EQ(head.status, 404) << head.head;
  HttpResponse not_json = Send(port_, "POST", "/v1/messages", "not json", kCredentials);
  EXPECT_EQ(not_json.status, 400);  // the stub's answer, passed back
  EXPECT_EQ(StubBody(1), chat);
  EXPECT_EQ(StubBody(2), responses);
  auto lines = StopAndReadLines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["api"], "openai-chat");
  EXPECT_EQ(lines[0]["usage"], nlohmann::json::parse(R"({"prompt_tokens":31,
    "completion_tokens":4,"total_tokens":35,"prompt_tokens_details":{"cached_tokens":16}})"));
  EXPECT_EQ(lines[1]["api"], "openai-responses");
  EXPECT_EQ(lines[1]["usage"]["input_tokens_details"]["cached_tokens"], 1152);
  EXPECT_EQ(lines[1]["request"], nlohmann::json::parse(responses));
}

// An upstream that does not answer: the harness gets a 502 saying so; nothing is recorded.
TEST(RecordCliErrorsTest, UnreachableUpstreamIs502AndNotRecorded) {
  testing::TempDir dir;
  // A port nothing listens on: bind one, then close it.
  int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ::bind(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&addr), &len);
  int dead_port = ntohs(addr.sin_port);
  ::close(probe);
  fs::path out = dir.path() / "r.jsonl";
  Child record({STRATA_CLI_PATH, "record", "--upstream",
                "http://127.0.0.1:" + std::to_string(dead_port), "--listen", "127.0.0.1:0", "--out",
                out.string()});
  int port = PortOf(record.ReadLine());
  ASSERT_GT(port, 0);
  HttpResponse r = Send(port, "POST", "/v1/messages", R"({"model":"m","messages":[]})");
  EXPECT_EQ(r.status, 502);
  EXPECT_NE(r.body.find("did not answer"), std::string::npos) << r.body;
  EXPECT_EQ(record.Stop(), 0);
  EXPECT_EQ(testing::ReadAll(out), "");
}

// kill -9 at random moments while four clients send 2 MB bodies at once (each run once it has
// recorded a line), six times over, then one clean run: the file ends in LF, every line in it is
// whole (its body intact), and replay's reader takes every line without a warning. A line cut short
// by a kill was set aside by the next run.
TEST(RecordCliCrashTest, KilledMidWriteLeavesOnlyWholeLines) {
  if (!HaveNode()) GTEST_SKIP() << "node not found (scripts/setup.sh installs it)";
  testing::TempDir dir;
  Child stub({"node", std::string(STRATA_SOURCE_DIR) + "/tests/record/stub_upstream.mjs"});
  const int stub_port = PortOf(stub.ReadLine());
  ASSERT_GT(stub_port, 0);
  const fs::path out = dir.path() / "r.jsonl";
  const std::vector<std::string> argv = {
      STRATA_CLI_PATH, "record",      "--upstream", "http://127.0.0.1:" + std::to_string(stub_port),
      "--listen",      "127.0.0.1:0", "--out",      out.string()};
  constexpr size_t kPad = 2u << 20;
  auto* previous = ::signal(SIGPIPE, SIG_IGN);  // a write to a killed server must not end the test
  std::mt19937 rng(26);
  for (int round = 0; round < 6; ++round) {
    Child record(argv);
    const int port = PortOf(record.ReadLine());
    ASSERT_GT(port, 0);
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c) {
      clients.emplace_back([&, c] {
        for (int i = 0; !stop; ++i) {
          Send(port, "POST", "/v1/messages",
               R"({"model":"m","max_tokens":8,"n":)" + std::to_string(i) +
                   R"(,"messages":[{"role":"user","content":")" +
                   std::string(kPad, static_cast<char>('a' + c)) + R"("}]})");
        }
      });
    }
    // Once this run has recorded a line (or 20 s passed), kill it at a random moment within the
    // next 0.7 s, while the clients keep sending.
    const auto size = [&] {
      std::error_code ec;
      const auto n = fs::file_size(out, ec);
      return ec ? uintmax_t{0} : n;
    };
    const uintmax_t before = size();
    for (int i = 0; i < 400 && size() == before; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 700)(rng)));
    record.Stop(SIGKILL);
    stop = true;
    for (auto& t : clients) t.join();
  }
  Child last(argv);  // opens the file: sets aside a torn last line
  ASSERT_GT(PortOf(last.ReadLine()), 0);
  EXPECT_EQ(last.Stop(), 0);
  ::signal(SIGPIPE, previous);
  const std::string file = testing::ReadAll(out);
  ASSERT_FALSE(file.empty()) << "no request was recorded before the kills";
  EXPECT_EQ(file.back(), '\n');
  std::istringstream in(file);
  size_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(j.is_object()) << "line " << lines + 1 << " is torn (" << line.size() << " bytes)";
    const std::string content = j["request"]["messages"][0]["content"];
    ASSERT_EQ(content.size(), kPad);
    EXPECT_EQ(content.find_first_not_of(content[0]), std::string::npos);
  }
  std::vector<std::string> warnings;
  auto read = ReadRecordedRequests(
      file, out.string(), [](RecordedRequest&&) { return Status{}; }, &warnings);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(*read, lines);
  EXPECT_TRUE(warnings.empty());
}

// A SIGTERM that arrives as soon as the port is announced (before the listen has begun: httplib's
// stop() does nothing then) still stops the recorder, with status 0.
TEST(RecordCliSignalTest, SigtermRightAfterThePortLineStopsTheRecorder) {
  testing::TempDir dir;
  const std::vector<std::string> argv = {
      STRATA_CLI_PATH, "record",      "--upstream", "http://127.0.0.1:1",
      "--listen",      "127.0.0.1:0", "--out",      (dir.path() / "r.jsonl").string()};
  for (int i = 0; i < 20; ++i) {
    Child record(argv);
    ASSERT_GT(PortOf(record.ReadLine()), 0);
    EXPECT_EQ(record.Stop(), 0) << "run " << i << ": not stopped within 30 s of SIGTERM";
  }
}

TEST(RecordCliErrorsTest, BadFlagsAreUsageErrors) {
  testing::TempDir dir;
  auto bad_url = testing::RunCli({"record", "--upstream", "api.anthropic.com", "--out", "r.jsonl"},
                                 dir.path());
  EXPECT_EQ(bad_url.exit_code, 2);
  EXPECT_NE(bad_url.err.find("not an http:// or https:// URL"), std::string::npos) << bad_url.err;
  auto bad_listen = testing::RunCli(
      {"record", "--upstream", "http://127.0.0.1:1", "--listen", "localhost", "--out", "r.jsonl"},
      dir.path());
  EXPECT_EQ(bad_listen.exit_code, 2);
  EXPECT_NE(bad_listen.err.find("is not HOST:PORT"), std::string::npos) << bad_listen.err;
  auto missing = testing::RunCli({"record", "--upstream", "http://127.0.0.1:1"}, dir.path());
  EXPECT_EQ(missing.exit_code, 2);
}

}  // namespace
}  // namespace strata
