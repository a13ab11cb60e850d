// redis_bulk_read.cc: RedisConnection::GetInto, the read path of a checkpoint's chunks. hiredis
// would read each reply into its own buffer and then copy it into a reply object (two copies
// before the caller's); here the GETs go out on the connection's socket as RESP and each bulk
// reply's bytes are received straight into the caller's buffer (one copy, from the kernel), with
// a window of GETs in flight so Redis always has the next reply to send. The connection's hiredis
// reader is idle throughout (every earlier reply was consumed), so the stream stays in step.
#include <fmt/format.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shared_store/redis_connection.h"

namespace strata::shared_store {
namespace {

constexpr size_t kStagingBytes = 4096;  // reads of reply lines (a payload goes to its buffer)

// The RESP reader over one socket: reply lines through a small staging buffer, payloads into
// their destination.
class BulkReader {
 public:
  explicit BulkReader(int fd) : fd_(fd) {}

  // errno-style result: 0, EAGAIN (timeout), EPIPE (closed by the peer), or another errno.
  int Line(std::string& out) {
    for (;;) {
      const size_t nl = pending_.find("\r\n", pos_);
      if (nl != std::string::npos) {
        out.assign(pending_, pos_, nl - pos_);
        pos_ = nl + 2;
        return 0;
      }
      if (int e = Fill(); e != 0) return e;
    }
  }
  // Receives `n` bytes into `dst` (discards them when dst is null), then the reply's CRLF.
  int Payload(char* dst, size_t n) {
    const size_t buffered = std::min(n, pending_.size() - pos_);
    if (dst != nullptr) std::memcpy(dst, pending_.data() + pos_, buffered);
    pos_ += buffered;
    for (size_t have = buffered; have < n;) {
      if (dst == nullptr) {
        if (int e = Fill(); e != 0) return e;
        const size_t take = std::min(n - have, pending_.size() - pos_);
        pos_ += take;
        have += take;
        continue;
      }
      const ssize_t got = ::recv(fd_, dst + have, n - have, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return got == 0 ? EPIPE : errno;
      have += static_cast<size_t>(got);
    }
    std::string crlf;
    if (int e = Line(crlf); e != 0) return e;
    return crlf.empty() ? 0 : EPROTO;
  }
  bool Idle() const { return pos_ == pending_.size(); }

 private:
  int Fill() {
    if (pos_ > 0) {
      pending_.erase(0, pos_);
      pos_ = 0;
    }
    char buf[kStagingBytes];
    ssize_t got = -1;
    do got = ::recv(fd_, buf, sizeof buf, 0);
    while (got < 0 && errno == EINTR);
    if (got <= 0) return got == 0 ? EPIPE : errno;
    pending_.append(buf, static_cast<size_t>(got));
    return 0;
  }

  int fd_;
  std::string pending_;
  size_t pos_ = 0;
};

std::string GetCommand(std::string_view key) {
  return fmt::format("*2\r\n$3\r\nGET\r\n${}\r\n{}\r\n", key.size(), key);
}

int SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0) return errno;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return 0;
}

}  // namespace

RedisFailure RedisConnection::IoFailure(int error, size_t done, size_t total) {
  const std::string where = fmt::format(" after {} of {} chunks", done, total);
  if (error == EAGAIN || error == EWOULDBLOCK)
    return Drop(fmt::format("no reply within {} ms{}", options_.timeout_ms, where),
                SharedError::kTimeout);
  if (error == EPROTO) return Drop("a reply out of step" + where, SharedError::kProtocol);
  return Drop(fmt::format("connection lost: {}{}", std::strerror(error), where),
              SharedError::kUnreachable);
}

RedisResult<std::optional<BulkShort>> RedisConnection::GetInto(
    const std::vector<BulkTarget>& targets, size_t depth,
    const std::function<void(size_t)>& on_read) {
  if (auto st = Connect(); !st) return tl::unexpected(st.error());
  const int fd = context_->fd;
  const size_t window = std::max<size_t>(depth, 1);
  std::optional<BulkShort> short_reply;
  std::string error_reply;
  BulkReader reader(fd);
  size_t sent = 0;
  auto send_upto = [&](size_t until) {
    std::string cmds;
    for (; sent < std::min(until, targets.size()); ++sent) cmds += GetCommand(targets[sent].key);
    return cmds.empty() ? 0 : SendAll(fd, cmds);
  };
  if (int e = send_upto(window); e != 0) return tl::unexpected(IoFailure(e, 0, targets.size()));
  std::string line;
  for (size_t i = 0; i < sent; ++i) {
    if (int e = reader.Line(line); e != 0) return tl::unexpected(IoFailure(e, i, targets.size()));
    const bool in_step = !short_reply && error_reply.empty();
    if (line.starts_with("-")) {
      if (error_reply.empty()) error_reply = line.substr(1);
    } else if (!line.starts_with("$")) {
      return tl::unexpected(IoFailure(EPROTO, i, targets.size()));
    } else if (const long long n = std::atoll(line.c_str() + 1); n < 0) {
      if (in_step) short_reply = BulkShort{i, -1};
    } else {
      const bool fits = in_step && static_cast<size_t>(n) == targets[i].len;
      if (!fits && in_step) short_reply = BulkShort{i, n};
      if (int e = reader.Payload(fits ? targets[i].dst : nullptr, static_cast<size_t>(n)); e != 0)
        return tl::unexpected(IoFailure(e, i, targets.size()));
      if (fits && on_read) on_read(i);
    }
    // After a short or error reply only the GETs already sent are read (and discarded).
    if (!short_reply && error_reply.empty())
      if (int e = send_upto(i + 1 + window); e != 0)
        return tl::unexpected(IoFailure(e, i + 1, targets.size()));
  }
  if (!reader.Idle()) return tl::unexpected(IoFailure(EPROTO, sent, targets.size()));
  if (!error_reply.empty()) return tl::unexpected(ErrorReplyFailure(error_reply));
  return short_reply;
}

}  // namespace strata::shared_store
