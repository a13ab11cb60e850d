// connection_guard tests: the connection table's caps (per client, in all), which connection an
// over-cap newcomer closes (the oldest not in a handler, idle before still-sending), and the
// refusal when every candidate is busy. Each connection is one end of a socketpair: a closed one
// reads end-of-file at the other end.
#include "serve/connection_guard.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace strata::serve {
namespace {

struct Pair {
  int server = -1, client = -1;
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    server = fds[0];
    client = fds[1];
  }
  ~Pair() {
    ::close(server);
    ::close(client);
  }
  // The server end was shut down: the client end reads end-of-file at once.
  bool Closed() const {
    pollfd p{client, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char c;
    return ::recv(client, &c, 1, MSG_DONTWAIT) == 0;
  }
};

ConnectionLimits Caps(int total, int per_client) {
  ConnectionLimits l;
  l.max_connections = total;
  l.max_connections_per_client = per_client;
  return l;
}

void Tick() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

TEST(ConnectionTableTest, ANewcomerOverTheClientCapClosesThatClientsOldestIdleConnection) {
  ConnectionTable table(Caps(10, 3));
  Pair a1, a2, a3, b1, a4;
  ASSERT_TRUE(table.Admit(a1.server, "10.0.0.1", 1));
  Tick();
  ASSERT_TRUE(table.Admit(a2.server, "10.0.0.1", 2));
  Tick();
  ASSERT_TRUE(table.Admit(b1.server, "10.0.0.2", 1));  // another client: its own cap
  ASSERT_TRUE(table.Admit(a3.server, "10.0.0.1", 3));
  table.Set(a1.server, ConnectionTable::State::kReading);  // a1 still sends: idle ones go first
  ASSERT_TRUE(table.Admit(a4.server, "10.0.0.1", 4));
  EXPECT_FALSE(a1.Closed());
  EXPECT_TRUE(a2.Closed());  // the oldest idle of 10.0.0.1
  EXPECT_FALSE(a3.Closed());
  EXPECT_FALSE(b1.Closed());
  EXPECT_NE(table.RenderMetrics().find("{reason=\"evicted\"} 1\n"), std::string::npos);
}

TEST(ConnectionTableTest, ANewcomerOverTheTotalCapClosesTheOldestOfAllAndBusyOnesStay) {
  ConnectionTable table(Caps(3, 3));
  Pair a, b, c, d;
  ASSERT_TRUE(table.Admit(a.server, "10.0.0.1", 1));
  table.MarkBusy("10.0.0.1", 1);  // a handler runs on it: never closed for a newcomer
  Tick();
  ASSERT_TRUE(table.Admit(b.server, "10.0.0.2", 1));
  table.Set(b.server, ConnectionTable::State::kReading);
  Tick();
  ASSERT_TRUE(table.Admit(c.server, "10.0.0.3", 1));
  table.Set(c.server, ConnectionTable::State::kReading);
  ASSERT_TRUE(table.Admit(d.server, "10.0.0.4", 1));
  EXPECT_FALSE(a.Closed());
  EXPECT_TRUE(b.Closed());  // the oldest not busy
  EXPECT_FALSE(c.Closed());
}

TEST(ConnectionTableTest, WhenEveryConnectionOverTheCapIsBusyTheNewcomerIsRefused) {
  ConnectionTable table(Caps(2, 2));
  Pair a, b, c;
  ASSERT_TRUE(table.Admit(a.server, "10.0.0.1", 1));
  ASSERT_TRUE(table.Admit(b.server, "10.0.0.1", 2));
  table.MarkBusy("10.0.0.1", 1);
  table.MarkBusy("10.0.0.1", 2);
  EXPECT_FALSE(table.Admit(c.server, "10.0.0.1", 3));
  EXPECT_FALSE(a.Closed());
  EXPECT_FALSE(b.Closed());
  EXPECT_NE(table.RenderMetrics().find("{reason=\"refused\"} 1\n"), std::string::npos);
  table.Remove(b.server);  // a connection ends: room again
  EXPECT_TRUE(table.Admit(c.server, "10.0.0.1", 3));
  EXPECT_NE(table.RenderMetrics().find("strata_serve_connections_open 2\n"), std::string::npos);
}

}  // namespace
}  // namespace strata::serve
