// connection_guard.h (private): strata serve's HTTP connections kept within bounds that slow or
// numerous clients cannot get round (cpp-httplib 0.11.4 alone restarts its read timeout with every
// byte and gives each connection a pool thread for as long as the client keeps it open).
//
// - A whole-request deadline: a request's line, headers and body must all arrive within
//   `request_timeout_s` of its first byte, however the bytes trickle in; past it the client gets
//   408 and the connection is closed.
// - Caps on open connections, per client address and in total. A connection over a cap closes the
//   oldest connection that is not running a handler (waiting between requests, or still sending
//   one) of that client (per-client cap) or of all (total cap); when every such connection is
//   busy in a handler, the newcomer gets 503 and is closed.
// - Every admitted connection has a thread of its own (the pool holds max_connections + 4), and
//   the caps keep room beside the generation workers (parallel + max_queue): /health and /metrics
//   are answered whatever the generation workers and slow clients do.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace strata::serve {

struct ConnectionLimits {
  int request_timeout_s = 30;  // line + headers + body, from the request's first byte
  int write_timeout_s = 600;   // per write
  int keep_alive_timeout_s = 5;
  int max_connections = 128;            // open at once, all clients
  int max_connections_per_client = 32;  // open at once from one address
};

// The open connections, each in one state; thread-safe.
class ConnectionTable {
 public:
  enum class State { kIdle, kReading, kBusy };
  explicit ConnectionTable(ConnectionLimits limits) : limits_(limits) {}

  // Admits `fd` from `address`:`port` when within both caps, after closing (shutdown) the oldest
  // connection not in a handler of the client, then of all, as needed; false (nothing changed)
  // when the connections over a cap are all busy.
  bool Admit(int fd, const std::string& address, int port);
  void Set(int fd, State state);
  // From a handler, which knows its request's peer: its connection runs a handler (not evictable)
  // or must close once the response is written (a refused body not read).
  void MarkBusy(const std::string& address, int port);
  void CloseAfterResponse(const std::string& address, int port);
  bool TakeCloseAfterResponse(int fd);
  void Remove(int fd);
  // Shuts down every connection not in a handler (server stop).
  void CloseIdle();
  void CountTimeout();
  // Prometheus lines: strata_serve_connections_open, strata_serve_connections_closed_total
  // {reason="evicted"|"refused"|"request_timeout"}.
  std::string RenderMetrics() const;

 private:
  struct Entry {
    int fd = -1;
    std::string address;
    int port = 0;
    State state = State::kIdle;
    std::chrono::steady_clock::time_point since;  // entered its state
    bool closing = false;                         // shut down by an eviction
    bool close_after_response = false;
  };
  Entry* Find(int fd);
  Entry* FindPeer(const std::string& address, int port);
  // The oldest entry not busy nor closing whose address is `address` (any when empty).
  Entry* Victim(const std::string& address);
  int Count(const std::string& address) const;

  ConnectionLimits limits_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
  uint64_t evicted_ = 0, refused_ = 0, timeouts_ = 0;
};

// httplib::Server whose connections go through a ConnectionTable and a stream with a
// whole-request deadline (process_request is httplib's own parser and router).
class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(ConnectionLimits limits);
  ConnectionTable& connections() { return table_; }
  const ConnectionLimits& limits() const { return limits_; }

 private:
  bool process_and_close_socket(socket_t sock) override;
  ConnectionLimits limits_;
  ConnectionTable table_;
};

}  // namespace strata::serve
