// shared_store_url.cc: parses `redis://[[user]:password@]host[:port][/db]` and
// `rediss://...[?tls_cert_file=...]` (ParseSharedStoreUrl in shared_store.h) and prints a URL
// without its password.
#include <fmt/format.h>

#include <charconv>

#include "strata/checkpoint.h"

namespace strata {
namespace {

Result<int> Number(std::string_view text, std::string_view what, int max) {
  int v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0 || v > max)
    return MakeError(
        ErrorKind::kInvalidArgument,
        fmt::format("--shared-store: {} '{}' is not a number from 0 to {}", what, text, max));
  return v;
}

std::string PercentDecoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    int hex = 0;
    if (s[i] == '%' && i + 2 < s.size() &&
        std::from_chars(s.data() + i + 1, s.data() + i + 3, hex, 16).ptr == s.data() + i + 3) {
      out.push_back(static_cast<char>(hex));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The `?name=value&...` of a rediss:// URL into `out`.
Status ParseQuery(std::string_view query, SharedStoreUrl& out) {
  if (!out.tls)
    return MakeError(ErrorKind::kInvalidArgument,
                     "--shared-store: query parameters (tls_cert_file, ...) need rediss://");
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const size_t eq = pair.find('=');
    const std::string_view name = pair.substr(0, eq);
    const std::string value =
        eq == std::string_view::npos ? std::string() : PercentDecoded(pair.substr(eq + 1));
    std::string* field = name == "tls_ca_file"     ? &out.tls_ca_file
                         : name == "tls_cert_file" ? &out.tls_cert_file
                         : name == "tls_key_file"  ? &out.tls_key_file
                                                   : nullptr;
    if (field == nullptr || value.empty())
      return MakeError(ErrorKind::kInvalidArgument,
                       fmt::format("--shared-store: query parameter '{}' is {} (known: "
                                   "tls_ca_file, tls_cert_file, tls_key_file, each =PATH)",
                                   name, field == nullptr ? "unknown" : "empty"));
    *field = value;
  }
  if (out.tls_cert_file.empty() != out.tls_key_file.empty())
    return MakeError(ErrorKind::kInvalidArgument,
                     "--shared-store: tls_cert_file and tls_key_file go together (a client "
                     "certificate and its private key)");
  return {};
}

}  // namespace

Result<SharedStoreUrl> ParseSharedStoreUrl(std::string_view url) {
  SharedStoreUrl out;
  std::string_view rest;
  if (url.starts_with("redis://")) {
    rest = url.substr(8);
  } else if (url.starts_with("rediss://")) {
    rest = url.substr(9);
    out.tls = true;
  } else {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--shared-store: the URL must start with redis:// or rediss:// (TLS), as "
                     "in redis://:password@host:6379/0");
  }
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    STRATA_TRY(ParseQuery(rest.substr(q + 1), out));
    rest = rest.substr(0, q);
  }
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view auth = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const size_t colon = auth.find(':');
    out.user = PercentDecoded(auth.substr(0, colon));
    if (colon != std::string_view::npos) out.password = PercentDecoded(auth.substr(colon + 1));
    if (colon == std::string_view::npos) std::swap(out.user, out.password);  // redis://pass@host
  }
  if (const size_t slash = rest.find('/'); slash != std::string_view::npos) {
    const std::string_view db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty()) {
      STRATA_TRY_ASSIGN(out.db, Number(db, "database", 1 << 20));
    }
  }
  std::string_view host = rest;
  if (host.starts_with('[')) {  // [ipv6]:port
    const size_t close = host.find(']');
    if (close == std::string_view::npos)
      return MakeError(ErrorKind::kInvalidArgument, "--shared-store: unclosed '[' in the host");
    out.host = std::string(host.substr(1, close - 1));
    host = host.substr(close + 1);
    if (host.starts_with(':')) {
      STRATA_TRY_ASSIGN(out.port, Number(host.substr(1), "port", 65535));
    }
  } else {
    const size_t colon = host.rfind(':');
    out.host = std::string(host.substr(0, colon));
    if (colon != std::string_view::npos) {
      STRATA_TRY_ASSIGN(out.port, Number(host.substr(colon + 1), "port", 65535));
    }
  }
  if (out.host.empty())
    return MakeError(ErrorKind::kInvalidArgument,
                     "--shared-store: the URL names no host (redis://host:port)");
  return out;
}

std::string RedactedUrl(const SharedStoreUrl& url) {
  const bool v6 = url.host.find(':') != std::string::npos;
  std::string auth;
  if (!url.password.empty()) auth = url.user + ":***@";
  return fmt::format("{}://{}{}{}{}:{}/{}", url.tls ? "rediss" : "redis", auth, v6 ? "[" : "",
                     url.host, v6 ? "]" : "", url.port, url.db);
}

}  // namespace strata
