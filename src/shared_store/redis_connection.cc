// redis_connection.cc: connecting (TCP through hiredis, TLS through TlsTunnel), AUTH and SELECT,
// pipelined commands, and the classification of every failure. See redis_connection.h.
#include "shared_store/redis_connection.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "shared_store/tls_tunnel.h"

namespace strata::shared_store {
namespace {

std::string ContextError(const redisContext* c) {
  if (c == nullptr) return "cannot allocate a hiredis context";
  return c->errstr[0] != 0 ? c->errstr : std::strerror(c->err == REDIS_ERR_IO ? errno : EIO);
}

bool TimedOut(const redisContext* c) {
  return c != nullptr && c->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace

SharedError ClassifyErrorReply(std::string_view text) {
  if (text.starts_with("OOM")) return SharedError::kFull;
  if (text.starts_with("NOAUTH") || text.starts_with("WRONGPASS") ||
      text.find("invalid password") != std::string_view::npos ||
      text.find("AUTH <password> called without any password") != std::string_view::npos)
    return SharedError::kAuth;
  if (text.starts_with("LOADING") || text.starts_with("MASTERDOWN"))
    return SharedError::kUnreachable;
  return SharedError::kProtocol;
}

RedisConnection::RedisConnection(const SharedStoreOptions& options) : options_(options) {}

RedisConnection::~RedisConnection() {
  if (context_ != nullptr) redisFree(context_);
  tunnel_.reset();
}

RedisFailure RedisConnection::Drop(std::string message, SharedError kind) {
  if (const std::string tls = tunnel_ ? tunnel_->Failure() : std::string(); !tls.empty()) {
    message += " (TLS: " + tls + ")";
    if (RefusedByPeer(tls)) kind = SharedError::kAuth;
  }
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
  tunnel_.reset();
  retry_at_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.retry_ms);
  const std::string url = RedactedUrl(options_.url);
  last_failure_ = {kind, message.starts_with(url) ? message : fmt::format("{}: {}", url, message)};
  return last_failure_;
}

tl::expected<void, RedisFailure> RedisConnection::Connect() {
  if (context_ != nullptr) return {};
  if (std::chrono::steady_clock::now() < retry_at_) return tl::unexpected(last_failure_);
  const timeval tv{options_.timeout_ms / 1000, (options_.timeout_ms % 1000) * 1000L};
  if (options_.url.tls) {
    auto tunnel = TlsTunnel::Open(options_);
    if (!tunnel) return tl::unexpected(Drop(tunnel.error().message, tunnel.error().kind));
    tunnel_ = std::move(*tunnel);
    context_ = redisConnectFd(tunnel_->TakeClientFd());
  } else {
    context_ = redisConnectWithTimeout(options_.url.host.c_str(), options_.url.port, tv);
  }
  if (context_ == nullptr || context_->err != 0) {
    const SharedError kind = TimedOut(context_) || (context_ != nullptr && errno == ETIMEDOUT)
                                 ? SharedError::kTimeout
                                 : SharedError::kUnreachable;
    return tl::unexpected(Drop("cannot connect: " + ContextError(context_), kind));
  }
  redisSetTimeout(context_, tv);
  if (!options_.url.tls) redisEnableKeepAlive(context_);  // TCP only (not the tunnel's socketpair)
  std::vector<std::vector<std::string_view>> hello;
  if (!options_.url.password.empty()) {
    if (options_.url.user.empty())
      hello.push_back({"AUTH", options_.url.password});
    else
      hello.push_back({"AUTH", options_.url.user, options_.url.password});
  }
  const std::string db = std::to_string(options_.url.db);
  hello.push_back(options_.url.db != 0 ? std::vector<std::string_view>{"SELECT", db}
                                       : std::vector<std::string_view>{"PING"});
  auto replies = Pipeline(hello);
  if (!replies) return tl::unexpected(Drop(replies.error().message, replies.error().kind));
  return {};
}

RedisResult<std::vector<Reply>> RedisConnection::Pipeline(
    const std::vector<std::vector<std::string_view>>& cmds) {
  if (auto st = Connect(); !st) return tl::unexpected(st.error());
  for (const auto& args : cmds) {
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    for (std::string_view a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    redisAppendCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lens.data());
  }
  std::vector<Reply> out;
  std::string error_reply;
  for (size_t i = 0; i < cmds.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK) {
      const SharedError kind =
          TimedOut(context_) ? SharedError::kTimeout : SharedError::kUnreachable;
      return tl::unexpected(
          Drop((kind == SharedError::kTimeout
                    ? "no reply within " + std::to_string(options_.timeout_ms) + " ms"
                    : "connection lost: " + ContextError(context_)),
               kind));
    }
    Reply reply(static_cast<redisReply*>(raw));
    if (reply->type == REDIS_REPLY_ERROR && error_reply.empty())
      error_reply.assign(reply->str, reply->len);
    out.push_back(std::move(reply));
  }
  if (!error_reply.empty()) return tl::unexpected(ErrorReplyFailure(error_reply));
  return out;
}

RedisFailure RedisConnection::ErrorReplyFailure(const std::string& error_reply) {
  const SharedError kind = ClassifyErrorReply(error_reply);
  if (kind == SharedError::kAuth) return Drop(error_reply, kind);  // AUTH again on reconnect
  return {kind, fmt::format("{}: {}", RedactedUrl(options_.url), error_reply)};
}

RedisResult<Reply> RedisConnection::Command(const std::vector<std::string_view>& args) {
  auto replies = Pipeline({args});
  if (!replies) return tl::unexpected(replies.error());
  return std::move(replies->front());
}

}  // namespace strata::shared_store
