// tls_tunnel.cc: the TCP connect with a timeout, the OpenSSL handshake (chain and host name
// verified unless tls_verify is off; the URL's client certificate, if any), and the pump thread
// between the socketpair and the SSL connection. See tls_tunnel.h.
#include "shared_store/tls_tunnel.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace strata::shared_store {

struct TlsTunnel::SslState {
  SSL_CTX* ctx = nullptr;
  SSL* ssl = nullptr;
  ~SslState() {
    if (ssl != nullptr) SSL_free(ssl);
    if (ctx != nullptr) SSL_CTX_free(ctx);
  }
};

namespace {

tl::unexpected<RedisFailure> Fail(SharedError kind, std::string message) {
  return tl::unexpected(RedisFailure{kind, std::move(message)});
}

std::string SslErrorText() {
  const unsigned long e = ERR_get_error();
  if (e == 0) return std::strerror(errno);
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  return buf;
}

void SetTimeouts(int fd, int timeout_ms) {
  timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000L};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// A non-blocking connect bounded by timeout_ms; the socket is blocking again on return.
tl::expected<int, RedisFailure> ConnectTcp(const std::string& host, int port, int timeout_ms) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
    return Fail(SharedError::kUnreachable, host + ": " + gai_strerror(rc));
  std::string last = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = ::poll(&p, 1, timeout_ms) == 1 ? 0 : -1;
      int err = rc == 0 ? 0 : ETIMEDOUT;
      socklen_t len = sizeof err;
      if (rc == 0) getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      errno = err;
      rc = err == 0 ? 0 : -1;
    }
    if (rc == 0) {
      fcntl(fd, F_SETFL, flags);
      SetTimeouts(fd, timeout_ms);
      const int on = 1;
      setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
      freeaddrinfo(found);
      return fd;
    }
    last = std::strerror(errno);
    ::close(fd);
  }
  freeaddrinfo(found);
  return Fail(last == std::strerror(ETIMEDOUT) ? SharedError::kTimeout : SharedError::kUnreachable,
              "connect " + host + ":" + service + ": " + last);
}

// Writes all of `data` to a blocking descriptor; false when the peer is gone.
bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// TLS 1.3: a server that refuses our client certificate (or its absence) says so after the
// handshake, in an alert sent where session tickets would have been. The first record after the
// handshake is awaited (up to kFirstRecordMs) so a refusal is reported here as kAuth, not later
// as a connection lost on the first command.
constexpr int kFirstRecordMs = 200;
tl::expected<void, RedisFailure> AwaitRefusal(SSL* ssl, int fd, const std::string& host) {
  if (SSL_version(ssl) != TLS1_3_VERSION) return {};
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, kFirstRecordMs) != 1) return {};  // no tickets, no alert: go on
  char byte = 0;
  const int n = SSL_peek(ssl, &byte, 1);  // a ticket is consumed; no application data is yet
  if (n > 0 || SSL_get_error(ssl, n) == SSL_ERROR_WANT_READ) return {};
  const std::string why = SslErrorText();
  return Fail(RefusedByPeer(why) ? SharedError::kAuth : SharedError::kUnreachable,
              "TLS: " + host + " closed the connection after the handshake: " + why);
}

}  // namespace

tl::expected<std::unique_ptr<TlsTunnel>, RedisFailure> TlsTunnel::Open(
    const SharedStoreOptions& options) {
  auto fd = ConnectTcp(options.url.host, options.url.port, options.timeout_ms);
  if (!fd) return tl::unexpected(fd.error());
  std::unique_ptr<TlsTunnel> t(new TlsTunnel());
  t->net_fd_ = *fd;
  t->ssl_ = std::make_unique<SslState>();
  SslState& s = *t->ssl_;
  s.ctx = SSL_CTX_new(TLS_client_method());
  if (s.ctx == nullptr) return Fail(SharedError::kProtocol, "TLS: " + SslErrorText());
  SSL_CTX_set_min_proto_version(s.ctx, TLS1_2_VERSION);
  // Without this, an SSL_read that meets a TLS 1.3 session ticket keeps blocking for application
  // data while hiredis's next command waits in the socketpair: the pump would deadlock.
  SSL_CTX_clear_mode(s.ctx, SSL_MODE_AUTO_RETRY);
  if (options.tls_verify) {
    SSL_CTX_set_verify(s.ctx, SSL_VERIFY_PEER, nullptr);
    const bool loaded =
        options.tls_ca_file.empty()
            ? SSL_CTX_set_default_verify_paths(s.ctx) == 1
            : SSL_CTX_load_verify_locations(s.ctx, options.tls_ca_file.c_str(), nullptr) == 1;
    if (!loaded)
      return Fail(SharedError::kAuth,
                  "TLS: cannot load CA " + options.tls_ca_file + ": " + SslErrorText());
  }
  if (const SharedStoreUrl& u = options.url; !u.tls_cert_file.empty()) {
    if (SSL_CTX_use_certificate_chain_file(s.ctx, u.tls_cert_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(s.ctx, u.tls_key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(s.ctx) != 1)
      return Fail(SharedError::kAuth, "TLS: cannot use the client certificate " + u.tls_cert_file +
                                          " with key " + u.tls_key_file + ": " + SslErrorText());
  }
  s.ssl = SSL_new(s.ctx);
  SSL_set_fd(s.ssl, t->net_fd_);
  SSL_set_tlsext_host_name(s.ssl, options.url.host.c_str());
  if (options.tls_verify) SSL_set1_host(s.ssl, options.url.host.c_str());
  if (SSL_connect(s.ssl) != 1) {
    const long verify = SSL_get_verify_result(s.ssl);
    if (verify != X509_V_OK)
      return Fail(SharedError::kAuth, std::string("TLS: certificate of ") + options.url.host +
                                          " refused: " + X509_verify_cert_error_string(verify));
    const std::string why = SslErrorText();
    return Fail(RefusedByPeer(why) ? SharedError::kAuth
                : errno == EAGAIN  ? SharedError::kTimeout
                                   : SharedError::kUnreachable,
                "TLS handshake with " + options.url.host + ": " + why);
  }
  if (auto refused = AwaitRefusal(s.ssl, t->net_fd_, options.url.host); !refused)
    return tl::unexpected(refused.error());
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    return Fail(SharedError::kUnreachable, std::string("socketpair: ") + std::strerror(errno));
  t->pump_fd_ = pair[0];
  t->client_fd_ = pair[1];
  t->thread_ = std::thread([p = t.get()] { p->Pump(); });
  return t;
}

std::string TlsTunnel::Failure() const {
  std::lock_guard lock(failure_mu_);
  return failure_;
}

bool RefusedByPeer(std::string_view ssl_error) {
  return ssl_error.find("alert") != std::string_view::npos &&
         (ssl_error.find("certificate") != std::string_view::npos ||
          ssl_error.find("unknown ca") != std::string_view::npos);
}

int TlsTunnel::TakeClientFd() {
  const int fd = client_fd_;
  client_fd_ = -1;
  return fd;
}

// Until either side closes: TLS records from Redis go to hiredis, hiredis's bytes go out as TLS.
void TlsTunnel::Pump() {
  sigset_t pipe;  // a peer that closed makes SSL_write fail with EPIPE here, not kill the process
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  char buf[64 * 1024];
  SSL* ssl = ssl_->ssl;
  for (;;) {
    if (SSL_pending(ssl) == 0) {
      pollfd p[2] = {{net_fd_, POLLIN, 0}, {pump_fd_, POLLIN, 0}};
      if (::poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::recv(pump_fd_, buf, sizeof buf, 0);
        if (n <= 0 || SSL_write(ssl, buf, static_cast<int>(n)) <= 0) break;
      }
      if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    }
    const int n = SSL_read(ssl, buf, sizeof buf);
    if (n <= 0) {
      const int error = SSL_get_error(ssl, n);
      if (error == SSL_ERROR_WANT_READ) continue;
      if (error == SSL_ERROR_SSL) {  // e.g. the server's alert refusing our certificate
        std::lock_guard lock(failure_mu_);
        failure_ = SslErrorText();
      }
      break;
    }
    if (!WriteAll(pump_fd_, buf, static_cast<size_t>(n))) break;
  }
  ::shutdown(pump_fd_, SHUT_RDWR);  // hiredis sees the connection closed
}

TlsTunnel::~TlsTunnel() {
  if (client_fd_ >= 0) ::close(client_fd_);
  if (pump_fd_ >= 0) ::shutdown(pump_fd_, SHUT_RDWR);
  if (net_fd_ >= 0) ::shutdown(net_fd_, SHUT_RDWR);
  if (thread_.joinable()) thread_.join();
  if (pump_fd_ >= 0) ::close(pump_fd_);
  ssl_.reset();
  if (net_fd_ >= 0) ::close(net_fd_);
}

}  // namespace strata::shared_store
