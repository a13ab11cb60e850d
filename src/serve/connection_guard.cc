// connection_guard.cc: the connection table, the stream with a whole-request deadline and the
// connection loop of strata serve (connection_guard.h).
#include "serve/connection_guard.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace strata::serve {
namespace {

using Clock = std::chrono::steady_clock;

// poll(2) on one descriptor, EINTR retried with the time left: >0 ready, 0 timeout, <0 error.
int PollOne(int fd, short events, int timeout_ms) {
  const Clock::time_point end = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, timeout_ms);
    if (r >= 0 || errno != EINTR) return r;
    timeout_ms = static_cast<int>(std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count()));
  }
}

ssize_t SendAll(int fd, std::string_view bytes, int timeout_ms) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    if (PollOne(fd, POLLOUT, timeout_ms) <= 0) return -1;
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    sent += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(sent);
}

// A whole answer written straight to the socket, for connections httplib never parses a request
// of (refused) or whose request ran out of time. Best effort: the connection closes next.
void Answer(int fd, int status, std::string_view reason, std::string_view type,
            std::string_view message) {
  const std::string body =
      fmt::format(R"({{"error":{{"type":"{}","message":"{}"}}}})", type, message);
  const std::string head = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: "
      "close\r\n\r\n",
      status, reason, body.size());
  (void)SendAll(fd, head + body, 1000);
}

void AddressOf(const sockaddr_storage& addr, std::string* ip, int* port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    *port = ntohs(in->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    *port = ntohs(in6->sin6_port);
  }
  *ip = text;
}

void PeerOf(int fd, std::string* ip, int* port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  *port = 0;
  ip->clear();
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) AddressOf(addr, ip, port);
}

// Closing a connection whose client may still be sending (a body refused unread, a request out of
// time): the kernel would answer the unread bytes with a reset, which can destroy the answer before
// the client reads it. So: no more writes, then what arrives is read and dropped until the client
// closes, 2 s pass or 4 MiB were dropped.
void LingeringClose(int fd) {
  ::shutdown(fd, SHUT_WR);
  const Clock::time_point end = Clock::now() + std::chrono::seconds(2);
  char sink[16384];
  for (size_t dropped = 0; dropped < (4u << 20);) {
    const int64_t left =
        std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    if (left <= 0 || PollOne(fd, POLLIN, static_cast<int>(left)) <= 0) break;
    const ssize_t n = ::recv(fd, sink, sizeof sink, 0);
    if (n <= 0) break;
    dropped += static_cast<size_t>(n);
  }
}

// httplib's SocketStream (buffered reads, MSG_NOSIGNAL writes, the same readiness rules) but with
// one deadline for all reads of a request instead of a timeout restarted by every byte.
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(int fd, const ConnectionLimits& limits) : fd_(fd), limits_(limits) {}

  // Waits up to keep_alive_timeout_s for the first byte of the next request.
  bool WaitForRequest() {
    if (off_ < size_) return true;
    return PollOne(fd_, POLLIN, limits_.keep_alive_timeout_s * 1000) > 0;
  }
  void StartRequest() {
    deadline_ = Clock::now() + std::chrono::seconds(limits_.request_timeout_s);
    expired_ = false;
  }
  bool expired() const { return expired_; }

  bool is_readable() const override { return off_ < size_ || WaitReadable(); }
  bool is_writable() const override {
    if (PollOne(fd_, POLLOUT, limits_.write_timeout_s * 1000) <= 0) return false;
    // Alive: nothing to read, or something (not an orderly close) to peek at.
    if (PollOne(fd_, POLLIN, 0) == 0) return true;
    char c;
    return ::recv(fd_, &c, 1, MSG_PEEK) > 0;
  }
  ssize_t read(char* ptr, size_t size) override {
    if (off_ >= size_) {
      if (!WaitReadable()) return -1;
      ssize_t n;
      do {
        n = ::recv(fd_, buf_, sizeof buf_, 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      off_ = 0;
      size_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, size_ - off_);
    std::memcpy(ptr, buf_ + off_, n);
    off_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (expired_ || !is_writable()) return -1;  // after a 408 nothing more is sent
    ssize_t n;
    do {
      n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    PeerOf(fd_, &ip, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    port = 0;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
      AddressOf(addr, &ip, &port);
  }
  socket_t socket() const override { return fd_; }

 private:
  // Readable before the deadline; past it, the request is answered 408 (once) and reads fail.
  bool WaitReadable() const {
    if (expired_) return false;
    const int64_t left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
    const int r = left > 0 ? PollOne(fd_, POLLIN, static_cast<int>(left)) : 0;
    if (r == 0) {
      expired_ = true;
      Answer(fd_, 408, "Request Timeout", "request_timeout",
             fmt::format("the request (line, headers and body) did not arrive within {} s",
                         limits_.request_timeout_s));
    }
    return r > 0;
  }

  int fd_;
  const ConnectionLimits& limits_;
  Clock::time_point deadline_ = Clock::now();
  mutable bool expired_ = false;
  char buf_[4096];
  size_t off_ = 0, size_ = 0;
};

}  // namespace

ConnectionTable::Entry* ConnectionTable::Find(int fd) {
  for (Entry& e : entries_)
    if (e.fd == fd) return &e;
  return nullptr;
}

ConnectionTable::Entry* ConnectionTable::FindPeer(const std::string& address, int port) {
  for (Entry& e : entries_)
    if (e.port == port && e.address == address) return &e;
  return nullptr;
}

ConnectionTable::Entry* ConnectionTable::Victim(const std::string& address) {
  Entry* best = nullptr;
  for (Entry& e : entries_) {
    if (e.closing || e.state == State::kBusy || (!address.empty() && e.address != address))
      continue;
    // Idle (between requests) before reading (sending a request), then the oldest.
    const bool better = best == nullptr ||
                        (e.state == State::kIdle && best->state != State::kIdle) ||
                        (e.state == best->state && e.since < best->since);
    if (better) best = &e;
  }
  return best;
}

int ConnectionTable::Count(const std::string& address) const {
  int n = 0;
  for (const Entry& e : entries_)
    if (!e.closing && (address.empty() || e.address == address)) ++n;
  return n;
}

bool ConnectionTable::Admit(int fd, const std::string& address, int port) {
  std::lock_guard lock(mu_);
  std::vector<Entry*> victims;
  auto evict_until = [&](const std::string& scope, int cap) {
    while (Count(scope) >= cap) {
      Entry* v = Victim(scope);
      if (v == nullptr) return false;
      v->closing = true;  // tentatively: undone when the newcomer is refused
      victims.push_back(v);
    }
    return true;
  };
  if (!evict_until(address, limits_.max_connections_per_client) ||
      !evict_until("", limits_.max_connections)) {
    for (Entry* v : victims) v->closing = false;
    ++refused_;
    return false;
  }
  for (Entry* v : victims) ::shutdown(v->fd, SHUT_RDWR);  // its thread sees the close and leaves
  evicted_ += victims.size();
  entries_.push_back({fd, address, port, State::kIdle, Clock::now(), false, false});
  return true;
}

void ConnectionTable::Set(int fd, State state) {
  std::lock_guard lock(mu_);
  if (Entry* e = Find(fd)) {
    e->state = state;
    e->since = Clock::now();
  }
}

void ConnectionTable::MarkBusy(const std::string& address, int port) {
  std::lock_guard lock(mu_);
  if (Entry* e = FindPeer(address, port)) {
    e->state = State::kBusy;
    e->since = Clock::now();
  }
}

void ConnectionTable::CloseAfterResponse(const std::string& address, int port) {
  std::lock_guard lock(mu_);
  if (Entry* e = FindPeer(address, port)) e->close_after_response = true;
}

bool ConnectionTable::TakeCloseAfterResponse(int fd) {
  std::lock_guard lock(mu_);
  Entry* e = Find(fd);
  return e != nullptr && std::exchange(e->close_after_response, false);
}

void ConnectionTable::Remove(int fd) {
  std::lock_guard lock(mu_);
  std::erase_if(entries_, [fd](const Entry& e) { return e.fd == fd; });
}

void ConnectionTable::CloseIdle() {
  std::lock_guard lock(mu_);
  for (Entry& e : entries_) {
    if (e.state == State::kBusy || e.closing) continue;
    e.closing = true;
    ::shutdown(e.fd, SHUT_RDWR);
  }
}

void ConnectionTable::CountTimeout() {
  std::lock_guard lock(mu_);
  ++timeouts_;
}

std::string ConnectionTable::RenderMetrics() const {
  std::lock_guard lock(mu_);
  return fmt::format(
      "# HELP strata_serve_connections_open Open HTTP connections.\n"
      "# TYPE strata_serve_connections_open gauge\n"
      "strata_serve_connections_open {}\n"
      "# HELP strata_serve_connections_closed_total Connections closed by the server's bounds: "
      "evicted (oldest idle over a cap), refused (over a cap, all busy), request_timeout "
      "(request not received in time).\n"
      "# TYPE strata_serve_connections_closed_total counter\n"
      "strata_serve_connections_closed_total{{reason=\"evicted\"}} {}\n"
      "strata_serve_connections_closed_total{{reason=\"refused\"}} {}\n"
      "strata_serve_connections_closed_total{{reason=\"request_timeout\"}} {}\n",
      entries_.size(), evicted_, refused_, timeouts_);
}

GuardedServer::GuardedServer(ConnectionLimits limits) : limits_(limits), table_(limits) {
  // A thread per admitted connection, and a few for newcomers being admitted or refused.
  const size_t threads = static_cast<size_t>(limits_.max_connections) + 4;
  new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // The socket-level timeouts httplib sets on each accepted socket (SO_RCVTIMEO, SO_SNDTIMEO);
  // DeadlineStream waits with poll and keeps the request deadline itself.
  set_read_timeout(limits_.request_timeout_s, 0);
  set_write_timeout(limits_.write_timeout_s, 0);
  set_keep_alive_timeout(limits_.keep_alive_timeout_s);
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  PeerOf(sock, &address, &port);
  bool ret = false;
  bool linger = false;  // the client may still be sending
  if (!table_.Admit(sock, address, port)) {
    Answer(sock, 503, "Service Unavailable", "overloaded_error",
           fmt::format("too many open connections (at most {} in all, {} per client), all busy: "
                       "retry later",
                       limits_.max_connections, limits_.max_connections_per_client));
    linger = true;
  } else {
    DeadlineStream strm(sock, limits_);
    for (size_t left = keep_alive_max_count_; svr_sock_ != INVALID_SOCKET && left > 0; --left) {
      table_.Set(sock, ConnectionTable::State::kIdle);
      if (!strm.WaitForRequest()) break;
      table_.Set(sock, ConnectionTable::State::kReading);
      strm.StartRequest();
      bool closed = false;
      ret = process_request(strm, left == 1, closed, nullptr);
      if (strm.expired()) table_.CountTimeout();
      linger = strm.expired() || table_.TakeCloseAfterResponse(sock);
      if (!ret || closed || linger) break;
    }
    table_.Remove(sock);
  }
  if (linger) LingeringClose(sock);
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

}  // namespace strata::serve
