// redis_connection.h: one hiredis connection to the shared tier (plain TCP, or TLS through a
// TlsTunnel), with connect and command timeouts, AUTH and SELECT, and every failure classified as a
// SharedError (shared_store.h lists them). A failed connection is closed; the next command
// reconnects, but not before retry_ms has passed since the failure.
#pragma once

#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "strata/shared_store.h"

namespace strata::shared_store {

struct RedisFailure {
  SharedError kind = SharedError::kProtocol;
  std::string message;
};

struct ReplyFree {
  void operator()(redisReply* r) const {
    if (r != nullptr) freeReplyObject(r);
  }
};
using Reply = std::unique_ptr<redisReply, ReplyFree>;
template <class T>
using RedisResult = tl::expected<T, RedisFailure>;

class TlsTunnel;

class RedisConnection {
 public:
  explicit RedisConnection(const SharedStoreOptions& options);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends the commands in one pipeline and returns their replies in order. An error reply of any
  // command is a failure (OOM -> kFull, NOAUTH/WRONGPASS -> kAuth, others kProtocol); a read or
  // write error closes the connection (kUnreachable, or kTimeout when the timeout expired).
  RedisResult<std::vector<Reply>> Pipeline(const std::vector<std::vector<std::string_view>>& cmds);
  // One command.
  RedisResult<Reply> Command(const std::vector<std::string_view>& args);

 private:
  tl::expected<void, RedisFailure> Connect();
  RedisFailure Drop(std::string message, SharedError kind);

  const SharedStoreOptions& options_;
  redisContext* context_ = nullptr;
  std::unique_ptr<TlsTunnel> tunnel_;
  std::chrono::steady_clock::time_point retry_at_{};
  RedisFailure last_failure_;
};

// The SharedError of an error reply's text ("OOM command not allowed ..." -> kFull, ...).
SharedError ClassifyErrorReply(std::string_view text);

}  // namespace strata::shared_store
