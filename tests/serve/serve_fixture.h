// serve_fixture.h: a strata serve instance in the test process on 127.0.0.1 and a free port, on
// the tiny generated model and a scratch store, with an HTTP client (Debian's cpp-httplib, the
// server's own). Servers are stopped and joined by the fixture; tests skip when the llama.cpp
// vocabulary files are missing.
#pragma once

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "local/local_fixture.h"
#include "strata/serve.h"

namespace strata::testing {

// The JSON payloads of an SSE body's data lines ("[DONE]" as a string).
inline std::vector<nlohmann::json> SseData(const std::string& body) {
  using nlohmann::json;
  std::vector<json> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("data: ")) continue;
    const std::string data = line.substr(6);
    out.push_back(data == "[DONE]" ? json("[DONE]") : json::parse(data, nullptr, false));
  }
  return out;
}

// A TCP connection to 127.0.0.1:`port`, or -1.
inline int ConnectLoopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The tiny model (seed 1) with `adjust` applied to its options, written once as `name`.
inline std::filesystem::path TinyVariantPath(const std::string& name,
                                             void (*adjust)(TestModelOptions&)) {
  static TempDir dir;
  const std::filesystem::path out = dir.path() / name;
  if (!std::filesystem::exists(out)) {
    TestModelOptions o;
    o.vocab_path = VocabPath();
    adjust(o);
    if (auto st = WriteTestModel(o, out); !st) ADD_FAILURE() << FormatError(st.error());
  }
  return out;
}

// "<think>" and "</think>" added to the vocabulary as single (user-defined) tokens, as Qwen3's
// GGUF carries them, for reasoning templates.
inline std::filesystem::path ThinkModelPath() {
  return TinyVariantPath("tiny-think.gguf", [](TestModelOptions& o) {
    o.added_tokens = {"<think>", "</think>"};
  });
}

// An embedding model: llama.pooling_type 1 (mean).
inline std::filesystem::path EmbeddingModelPath() {
  return TinyVariantPath("tiny-embed.gguf", [](TestModelOptions& o) { o.pooling_type = 1; });
}

// A chat template of the pinned llama.cpp source (models/templates/<name>).
inline std::filesystem::path LlamaTemplatePath(const char* name) {
  return std::filesystem::path(STRATA_LLAMA_VOCAB_DIR) / "templates" / name;
}

// GBNF matching exactly `text` (a reply forced on a random model).
inline std::string LiteralGrammar(const std::string& text) {
  std::string out = "root ::= \"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

class RunningServer {
 public:
  explicit RunningServer(ServeOptions options) {
    options.log = [this](std::string_view line) {
      std::lock_guard lock(mu_);
      log_.emplace_back(line);
    };
    auto created = Server::Create(std::move(options));
    if (!created) {
      ADD_FAILURE() << FormatError(created.error());
      return;
    }
    server_ = std::move(*created);
    std::promise<int> ready;
    auto port = ready.get_future();
    thread_ = std::thread([this, &ready] {
      Status st = server_->Run([&](int p) { ready.set_value(p); });
      if (!st) ready.set_value(-1);
    });
    port_ = port.get();
  }
  ~RunningServer() {
    if (server_) server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> log() const {
    std::lock_guard lock(mu_);
    return log_;
  }
  std::unique_ptr<httplib::Client> Client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_read_timeout(120, 0);
    return c;
  }

 private:
  std::unique_ptr<Server> server_;
  std::thread thread_;
  int port_ = -1;
  mutable std::mutex mu_;
  std::vector<std::string> log_;
};

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(STRATA_LLAMA_VOCAB_DIR).empty() || !std::filesystem::exists(VocabPath()))
      GTEST_SKIP() << "llama.cpp vocabulary files not available";
  }
  ServeOptions Options() const {
    ServeOptions o;
    o.model = TinyModelPath(1);
    o.port = 0;
    o.n_ctx = 1024;
    o.parallel = 1;
    o.n_threads = 1;
    o.store_dir = tmp_.path() / "kv";
    return o;
  }
  static nlohmann::json Post(httplib::Client& c, const std::string& path,
                             const nlohmann::json& body, int* status = nullptr) {
    auto res = c.Post(path, body.dump(), "application/json");
    if (!res) {
      ADD_FAILURE() << "no response from " << path;
      return {};
    }
    if (status != nullptr) *status = res->status;
    return nlohmann::json::parse(res->body, nullptr, false);
  }
  // A chat request: system + one tool + the user's message, greedy, 6 tokens.
  static nlohmann::json ChatBody(const std::string& user, const std::string& system = kSystem) {
    return {{"model", "tiny"},
            {"messages",
             {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", user}}}},
            {"tools",
             {{{"type", "function"},
               {"function",
                {{"name", "read_file"},
                 {"description", "Reads a file of the project."},
                 {"parameters",
                  {{"type", "object"}, {"properties", {{"path", {{"type", "string"}}}}}}}}}}}},
            {"max_tokens", 6},
            {"temperature", 0}};
  }
  static constexpr const char* kSystem =
      "You are a coding agent working in the user's project. Answer briefly. Read files before "
      "changing them, run the tests after each change, and report what you did.";

  TempDir tmp_;
};

}  // namespace strata::testing
