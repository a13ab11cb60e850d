// record.h: recording what a harness sends its provider (`strata record`, docs/record.md).
//
// `strata record` is a pass-through endpoint: a harness is pointed at it (ANTHROPIC_BASE_URL,
// OPENAI_BASE_URL, a Codex custom provider), it forwards each request unchanged to the upstream
// and streams the answer back byte for byte, and it appends one JSON line per model request to a
// file, so that replay and explain work on exactly what the client sent:
//
//   {"api": "anthropic-messages" | "openai-chat" | "openai-responses",
//    "request": <the request body, as sent, with insignificant whitespace removed>,
//    "usage": <the token counts of the usage object the provider reported, or null>,
//    "status": <HTTP status>, "started_ms": <Unix time, ms>, "ttft_ms": <ms to the first
//    response byte>, "total_ms": <ms to the last response byte>}
//
// Usage comes from the JSON body, or from the server-sent events of a stream: Anthropic
// `message_start` (message.usage) updated by each `message_delta` (usage), the OpenAI Chat
// Completions chunk that carries `usage` (the last, with stream_options.include_usage), the
// Responses `response.completed` event (response.usage). Only the documented counts of it are
// written (anything else an upstream puts in usage, an echoed header say, is left out):
//   anthropic-messages: input_tokens, output_tokens, cache_creation_input_tokens,
//     cache_read_input_tokens, cache_creation.{ephemeral_5m_input_tokens,
//     ephemeral_1h_input_tokens}
//   openai-chat: prompt_tokens, completion_tokens, total_tokens, prompt_tokens_details.
//     {cached_tokens, audio_tokens}, completion_tokens_details.{reasoning_tokens, audio_tokens,
//     accepted_prediction_tokens, rejected_prediction_tokens}
//   openai-responses: input_tokens, output_tokens, total_tokens,
//   input_tokens_details.cached_tokens,
//     output_tokens_details.reasoning_tokens
// each kept only when an integer; null when none is. Headers are never written: credentials
// (Authorization, x-api-key, cookies) reach the upstream and nowhere else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "strata/accounting.h"  // RequestApi, RequestApiName: the line's "api"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

// The API of a request path (a query string is ignored): a path ending in /messages is Anthropic
// Messages, /chat/completions OpenAI Chat Completions, /responses OpenAI Responses, whatever
// prefix the base URL adds (/v1, /openai/v1). Anything else (/v1/models, /v1/messages/count_tokens)
// is not a model request: nullopt, forwarded but not recorded.
std::optional<RequestApi> RecordedApiOfPath(std::string_view path);

// A request body as one line of JSON: the bytes as sent, less whitespace outside strings (a
// pretty-printed body would otherwise break the one-line-per-request file). Every member, its
// order, number spelling and string escape stays as sent. Errors: kParse (with the JSON's
// line:col) when the body is not one JSON value; `label` names it in the message.
Result<std::string> CompactJsonBody(std::string_view body, std::string_view label);

// One exchange between a harness and the upstream, as recorded.
struct RecordedExchange {
  RequestApi api = RequestApi::kAnthropicMessages;
  std::string request_body;  // the bytes the harness sent (and the upstream received)
  std::string usage_json;    // JSON text of the usage object the provider reported (read from
                             // the response by the endpoint); "" or "null": none
  int status = 0;            // the upstream's HTTP status
  int64_t started_ms = 0;    // Unix time the request arrived, ms
  int64_t ttft_ms = 0;       // from arrival to the first response body byte, ms
  int64_t total_ms = 0;      // from arrival to the last response body byte, ms
};

// The file line of an exchange, newline included (shape at the top of this file: usage reduced to
// its documented counts). A body that is not JSON is written as a JSON string in "request".
std::string FormatRecordLine(const RecordedExchange& exchange);

// The record file: opened for appending (created when missing); each Append writes one whole line
// with a single O_APPEND write under a lock (a mutex, and flock for other processes appending to
// the same file), so lines from concurrent requests never interleave. A line is whole or absent:
// a write cut short by an error is cut back (ftruncate); one cut short by a kill leaves an
// unterminated last line, which Open sets aside (appended to `<path>.torn`, then cut off) before
// anything is appended, its byte count in `*torn_bytes` when not null. A reader can thus meet a
// torn line only at the end of the file (the JSONL readers skip it with a warning). Errors: kIo
// naming the path.
class RecordFile {
 public:
  static Result<std::unique_ptr<RecordFile>> Open(const std::filesystem::path& path,
                                                  size_t* torn_bytes = nullptr);
  ~RecordFile();
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  Status Append(std::string_view line);

 private:
  RecordFile(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::filesystem::path path_;
  std::mutex mutex_;
};

// ---- The endpoint ----

// The HTTP side of `strata record`: a loopback endpoint that forwards every request to the
// upstream and streams the answer back, recording model requests as above. Built on the Debian
// cpp-httplib (with OpenSSL for https upstreams), it is linked into the strata-record executable
// and not into libstrata.so, which holds llama.cpp's vendored copy of the same inline code.
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
