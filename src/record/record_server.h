// record_server.h (private): the HTTP side of `strata record`: a loopback endpoint that forwards
// every request to the upstream and streams the answer back, recording model requests (record.h).
//
// Built on the Debian cpp-httplib (0.11.4, with OpenSSL for https upstreams). It is linked into the
// strata-record executable only (tools/strata/CMakeLists.txt; `strata record` execs it), never into
// a binary that also holds llama.cpp's vendored httplib (another version of the same inline code)
// nor into the static `strata` (its own libcrypto and libstdc++ copies).
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "strata/status.h"

namespace strata {

struct RecordServerOptions {
  // Where requests go: http:// or https://, host, optional port and path prefix; the request's
  // path and query are appended to the prefix ("https://api.anthropic.com",
  // "http://127.0.0.1:8080/proxy").
  std::string upstream;
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;        // 0: a free port, reported through on_listening
  std::filesystem::path out;  // the record file, appended to
  // Called once the socket is bound, with the port (before any request is served).
  std::function<void(int port)> on_listening;
  // Upstream read timeout between two bytes of a response, seconds.
  int upstream_timeout_s = 600;
};

// Serves until SIGINT or SIGTERM, then returns ok. Errors: kInvalidArgument for an upstream that is
// not an http(s) URL, kIo when the record file cannot be opened or the address cannot be bound.
Status RunRecordServer(const RecordServerOptions& options);

}  // namespace strata
