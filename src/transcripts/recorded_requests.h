// recorded_requests.h (private): the file `strata record` writes and `strata replay --format
// recorded` reads: one JSON object per line, one line per model request the harness sent, in the
// order the requests were received (docs/replay.md, "Recorded requests").
//
// A line:
//   {"api": "anthropic-messages" | "openai-chat" | "openai-responses",
//    "request": {...},      the full request body exactly as the harness sent it (a JSON object)
//    "usage": {...} | null, the provider's own usage object, unchanged (from the JSON response or
//                           the SSE stream: Anthropic's message_start usage updated by
//                           message_delta; the Chat Completions final chunk's usage; the
//                           Responses response.completed usage); null or absent when the
//                           response carried none (an error, a stream cut short)
//    "status": 200,         the upstream's HTTP status (0 when no response arrived)
//    "started_ms": N,       when the request arrived, milliseconds since 1970-01-01T00:00:00Z
//    "ttft_ms": N | null,   milliseconds from started_ms to the first response body byte
//    "total_ms": N}         milliseconds from started_ms to the end of the response
// Required: api, request. Members of a newer writer that this reader does not know are ignored.
// Credentials (Authorization, x-api-key, cookies) are never written: a line holds no headers.
// The usage read from each API (RecordedUsage, input = the whole prompt):
//   anthropic-messages  input_tokens + cache_read_input_tokens + cache_creation_input_tokens,
//                       cache_read_input_tokens, cache_creation_input_tokens;
//   openai-chat         prompt_tokens, prompt_tokens_details.cached_tokens, 0;
//   openai-responses    input_tokens, input_tokens_details.cached_tokens, 0.
// Every count must be an integer from 0 to 10^12 (a string, a negative, a fraction or 1e30 is an
// error naming the line and the member), so sums stay exact.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "strata/accounting.h"
#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

struct RecordedRequest {
  Location where;  // file and line
  RequestApi api = RequestApi::kAnthropicMessages;
  nlohmann::json body;
  std::optional<RecordedUsage> usage;
  int status = 0;
  int64_t started_ms = 0;
  std::optional<int64_t> ttft_ms;
  int64_t total_ms = 0;
};

// The usage `usage` (the provider's object for `api`) records. Errors: kParse at `where`, naming
// the member (`usage.prompt_tokens_details.cached_tokens`), for a count out of range.
Result<RecordedUsage> ReadProviderUsage(const nlohmann::json& usage, RequestApi api,
                                        const Location& where);

// Calls `on_request` with each line of `text` in order (a line is parsed, handed over and
// dropped, so memory holds one request at a time). Returns the number of requests. `warnings`
// (may be null) receives a note for a last line cut short (a file still being written), which is
// skipped. Errors: kParse naming path:line:col for a line that is not JSON, and path:line with the
// member path for a missing or wrong-shape member; errors from `on_request`.
Result<size_t> ReadRecordedRequests(std::string_view text, std::string_view path,
                                    const std::function<Status(RecordedRequest&&)>& on_request,
                                    std::vector<std::string>* warnings);

// The conversation of a recorded file as a Transcript, for replaying it with another layout: the
// tools, system and model of the requests become the context, each request's messages beyond the
// previous request's become user, tool-result and assistant events (the answer to request N is
// the assistant message request N+1 adds; the last request's answer is not in the file), and
// each request's usage is its assistant event's recorded usage.
Result<Transcript> ImportRecorded(std::string_view text, std::string_view path);

}  // namespace strata
