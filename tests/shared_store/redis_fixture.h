// redis_fixture.h: a real redis-server (Debian's) for the shared-store tests: started by the test
// on 127.0.0.1 and a free port with a scratch directory and no persistence, optionally with a
// password, a memory limit or TLS (a self-signed certificate made with the openssl command; with
// client authentication also a test CA and a client certificate it signed), and stopped (or
// killed) by it. Tests skip when redis-server is not installed.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "shared_store/redis_connection.h"
#include "support/test_support.h"

namespace strata::testing {

inline std::string RedisServerPath() {
  for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
    if (::access(p, X_OK) == 0) return p;
  return {};
}

// A port nothing listens on right now (bound to 0 and released).
inline int FreeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct RedisConfig {
  std::string password;
  std::string maxmemory;               // e.g. "2mb"
  std::string policy = "allkeys-lru";  // maxmemory-policy
  bool tls = false;
  // With tls: `--tls-auth-clients yes` against a CA of the test's (ca.pem); Url() names the
  // client certificate it signed (client.pem, client.key) in its query.
  bool tls_client_auth = false;
};

class RedisServer {
 public:
  explicit RedisServer(RedisConfig config = {}) : config_(std::move(config)) {
    std::signal(SIGPIPE, SIG_IGN);  // as strata serve does: a write to a closed socket is an error
    Start();
  }
  ~RedisServer() { Stop(); }

  bool running() const { return pid_ > 0; }
  int port() const { return port_; }
  const std::filesystem::path& dir() const { return dir_.path(); }
  std::string Url() const {
    const std::string auth = config_.password.empty() ? "" : ":" + config_.password + "@";
    const std::string d = dir().string();
    const std::string query =
        config_.tls_client_auth
            ? "?tls_cert_file=" + d + "/client.pem&tls_key_file=" + d + "/client.key"
            : "";
    return std::string(config_.tls ? "rediss://" : "redis://") + auth +
           (config_.tls ? "localhost" : "127.0.0.1") + ":" + std::to_string(port_) + query;
  }
  SharedStoreOptions Options(int timeout_ms = 2000) const {
    SharedStoreOptions o;
    o.url = *ParseSharedStoreUrl(Url());
    o.timeout_ms = timeout_ms;
    o.retry_ms = 0;
    o.warn = [](std::string_view) {};
    if (config_.tls) o.tls_ca_file = (dir() / "cert.pem").string();
    return o;
  }
  // SIGKILL, as a crash.
  void Kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  void Stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 200; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    Kill();
  }
  // SIGSTOP / SIGCONT: a Redis that accepts connections and answers nothing.
  void Pause() { ::kill(pid_, SIGSTOP); }
  void Resume() { ::kill(pid_, SIGCONT); }
  // Starts again on the same port (an empty Redis: a restart without persistence).
  void Restart() {
    Stop();
    Start(/*same_port=*/true);
  }
  // One command on a connection of its own (the test's view of Redis).
  shared_store::RedisResult<shared_store::Reply> Command(
      const std::vector<std::string_view>& args) {
    if (!conn_) {
      options_ = Options();
      conn_ = std::make_unique<shared_store::RedisConnection>(options_);
    }
    return conn_->Command(args);
  }

 private:
  void MakeCertificate() {
    const std::string d = dir().string();
    const std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
        "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
        d + "/key.pem -out " + d + "/cert.pem >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    if (!config_.tls_client_auth) return;
    const std::string ca =  // a CA, then a client key and certificate it signs
        "cd " + d +
        " && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=strata-test-ca "
        "-keyout ca.key -out ca.pem && openssl req -newkey rsa:2048 -nodes "
        "-subj /CN=strata-client -keyout client.key -out client.csr && openssl x509 -req "
        "-in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -out client.pem";
    ASSERT_EQ(std::system(("(" + ca + ") >/dev/null 2>&1").c_str()), 0) << ca;
  }
  std::vector<std::string> Args() const {
    std::vector<std::string> a = {
        "redis-server", "--bind", "127.0.0.1",    "--save",           "",  "--appendonly",
        "no",           "--dir",  dir().string(), "--protected-mode", "no"};
    if (config_.tls) {
      const std::string d = dir().string();
      const bool clients = config_.tls_client_auth;
      a.insert(a.end(), {"--port", "0", "--tls-auth-clients", clients ? "yes" : "no"});
      a.insert(a.end(), {"--tls-port", std::to_string(port_), "--tls-cert-file", d + "/cert.pem",
                         "--tls-key-file", d + "/key.pem", "--tls-ca-cert-file",
                         d + (clients ? "/ca.pem" : "/cert.pem")});
    } else {
      a.insert(a.end(), {"--port", std::to_string(port_)});
    }
    if (!config_.password.empty()) a.insert(a.end(), {"--requirepass", config_.password});
    if (!config_.maxmemory.empty())
      a.insert(a.end(), {"--maxmemory", config_.maxmemory, "--maxmemory-policy", config_.policy});
    return a;
  }
  void Start(bool same_port = false) {
    const std::string exe = RedisServerPath();
    if (exe.empty()) return;
    if (!same_port) port_ = FreeLoopbackPort();
    if (config_.tls && !std::filesystem::exists(dir() / "cert.pem")) MakeCertificate();
    const std::vector<std::string> args = Args();
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<char*> argv;
      for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
      argv.push_back(nullptr);
      const std::string log = (dir() / "redis.log").string();
      if (FILE* f = std::freopen(log.c_str(), "a", stdout)) (void)f;
      ::execv(exe.c_str(), argv.data());
      ::_exit(127);
    }
    conn_.reset();
    for (int i = 0; i < 500; ++i) {  // up to 5 s for the port to answer PING
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      auto ping = Command({"PING"});
      if (ping || ping.error().kind == SharedError::kAuth) return;
      conn_.reset();
    }
    ADD_FAILURE() << "redis-server did not answer on port " << port_;
  }

  RedisConfig config_;
  TempDir dir_;
  int port_ = 0;
  pid_t pid_ = -1;
  SharedStoreOptions options_;
  std::unique_ptr<shared_store::RedisConnection> conn_;
};

#define STRATA_REQUIRE_REDIS()                                                      \
  do {                                                                              \
    if (RedisServerPath().empty()) GTEST_SKIP() << "redis-server is not installed"; \
  } while (0)

}  // namespace strata::testing
