// redis_connection.h: one hiredis connection to the shared tier (plain TCP, or TLS through a
// TlsTunnel), with connect and command timeouts, AUTH and SELECT, and every failure classified as a
// SharedError (checkpoint.h lists them). A failed connection is closed; the next command
// reconnects, but not before retry_ms has passed since the failure.
#pragma once

#include <hiredis/hiredis.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "strata/checkpoint.h"

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

// GetInto's target: the value of `key` is expected to be `len` bytes, received into `dst`.
struct BulkTarget {
  std::string key;
  char* dst = nullptr;
  size_t len = 0;
};
// The first target whose value was missing (bytes -1) or of another length.
struct BulkShort {
  size_t index = 0;
  long long bytes = -1;
};

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
  // GET of each target's key, each value received straight into its `dst` (one copy, no reply
  // object; redis_bulk_read.cc), with `depth` GETs in flight; `on_read(i)` after target i is
  // whole. A value that is missing or of another length is returned as a BulkShort (the GETs
  // already sent are read and discarded; nothing after it is written). Failures as Pipeline's,
  // their message ending in "after i of n chunks".
  RedisResult<std::optional<BulkShort>> GetInto(const std::vector<BulkTarget>& targets,
                                                size_t depth,
                                                const std::function<void(size_t)>& on_read);

 private:
  tl::expected<void, RedisFailure> Connect();
  RedisFailure Drop(std::string message, SharedError kind);
  RedisFailure IoFailure(int error, size_t done, size_t total);    // an errno of GetInto's socket
  RedisFailure ErrorReplyFailure(const std::string& error_reply);  // a `-ERR ...` reply's text

  const SharedStoreOptions& options_;
  redisContext* context_ = nullptr;
  std::unique_ptr<TlsTunnel> tunnel_;
  std::chrono::steady_clock::time_point retry_at_{};
  RedisFailure last_failure_;
};

// The SharedError of an error reply's text ("OOM command not allowed ..." -> kFull, ...).
SharedError ClassifyErrorReply(std::string_view text);

}  // namespace strata::shared_store
