// tls_tunnel.h: TLS for `rediss://` under hiredis 0.14, which has no TLS of its own (hiredis_ssl
// arrived in 1.0). The tunnel connects to the server, does the TLS handshake with OpenSSL
// (verifying the certificate chain and the host name unless told not to), and hands hiredis one
// end of a socketpair; a thread pumps bytes between the other end and the SSL connection, so
// hiredis reads and writes plaintext only on a local socket and every byte on the network is TLS.
// When either side closes, the thread closes the other, which hiredis sees as a lost connection.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tl/expected.hpp>

#include "shared_store/redis_connection.h"

namespace strata::shared_store {

class TlsTunnel {
 public:
  // Connects to url.host:url.port within timeout_ms and completes the handshake. Errors:
  // kUnreachable (connect), kTimeout, kAuth (certificate verification failed).
  static tl::expected<std::unique_ptr<TlsTunnel>, RedisFailure> Open(
      const SharedStoreOptions& options);
  ~TlsTunnel();
  TlsTunnel(const TlsTunnel&) = delete;
  TlsTunnel& operator=(const TlsTunnel&) = delete;

  // The plaintext end for redisConnectFd (hiredis owns and closes it from then on).
  int TakeClientFd();
  // OpenSSL's error when the pump stopped on a TLS error (such as the server's alert refusing a
  // missing or untrusted client certificate, which TLS 1.3 sends after the handshake); empty when
  // it stopped because a side closed.
  std::string Failure() const;

 private:
  TlsTunnel() = default;
  void Pump();

  struct SslState;
  std::unique_ptr<SslState> ssl_;
  int net_fd_ = -1;     // the TCP socket to Redis
  int pump_fd_ = -1;    // our end of the socketpair
  int client_fd_ = -1;  // hiredis's end until taken
  mutable std::mutex failure_mu_;
  std::string failure_;
  std::thread thread_;
};

// True when an OpenSSL error text is the server's alert refusing our certificate ("tlsv13 alert
// certificate required", "sslv3 alert bad certificate", "tlsv1 alert unknown ca"): kAuth.
bool RefusedByPeer(std::string_view ssl_error);

}  // namespace strata::shared_store
