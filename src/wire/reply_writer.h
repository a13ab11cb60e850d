// reply_writer.h: how a reply goes back to the client in each API's own shape: the non-streamed
// response body, or the SSE events of a stream (flushed per token by the server), with usage.
// One writer per API, in its codec's *_serve.cc file (serve_codec.h).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "wire/reply.h"
#include "wire/serve_request.h"

namespace strata::serve {

// Token counts of one request. prompt = cached + prefilled.
struct Usage {
  size_t prompt_tokens = 0;
  size_t cached_tokens = 0;     // reused: a live sequence's KV or a restored checkpoint
  size_t restored_tokens = 0;   // the part of cached_tokens read from the store (disk)
  size_t prefilled_tokens = 0;  // decoded for this request
  size_t stored_tokens = 0;     // extent of the checkpoints written before the reply (0: none)
  // Every token sampled for the reply, an end-of-generation one included (llama-server's
  // n_decoded, its completion_tokens / output_tokens / tokens_predicted / predicted_n).
  size_t completion_tokens = 0;
  size_t reasoning_tokens = 0;  // of completion_tokens: the thinking's (local/reasoning_tokens.h)
};

enum class FinishReason { kStop, kLength, kToolCalls };

struct FinishedReply {
  ParsedReply reply;
  FinishReason finish = FinishReason::kStop;
  std::string stop_sequence;  // the stop string that ended the reply, if one did
  // kLength by the server's own output cap (-n), below the request's limit and the context's room:
  // the request did not ask for the bound, so Messages reports it as an end of turn, and a
  // Responses stream ends with response.completed (not response.incomplete).
  bool server_capped = false;
  Usage usage;
  // When asked for: each generated token's (end-of-generation tokens and those of a stop string
  // left out, as llama-server leaves them out).
  std::vector<TokenLogprob> logprobs;
  std::vector<int32_t> tokens;  // the generated tokens (end-of-generation ones left out)
  // Milliseconds (steady clock) of the prompt's lookup, restore and prefill, and of generation
  // (llama-server's timings.prompt_ms and predicted_ms).
  double prompt_ms = 0, predicted_ms = 0;
  // The tokens the sequence held when the reply ended: the prompt and the generated tokens decoded
  // into it (every one but the last sampled), llama-server's tokens_cached. A text prompt's
  // sequence is trimmed back to the prompt afterwards, for its checkpoint (StorePrompt).
  size_t tokens_held = 0;
  // Every token sampled for the reply, an end-of-generation one included (llama-server's
  // n_decoded): usage.completion_tokens unless the reply was cancelled.
  size_t sampled_tokens = 0;
};

struct ResponseMeta {
  std::string id;       // e.g. "chatcmpl-3"
  std::string model;    // the model name the client asked for (or the alias)
  int64_t created = 0;  // Unix seconds
  bool include_usage = false;
  bool logprobs = false;  // the request asked for log probabilities
  int slot = -1;          // the live sequence serving the request (llama-server's id_slot)
  std::string prompt;     // raw-prompt APIs: the prompt text, which llama-server echoes
  bool return_tokens = false;
};

// How far a prompt's prefill is (llama-server's prompt_progress): its tokens, those reused, those
// in the sequence so far (reused included), and milliseconds since the request's prefill began.
struct PromptProgress {
  size_t total = 0, cache = 0, processed = 0;
  int64_t time_ms = 0;
};

// {"total", "cache", "processed", "time_ms"}, llama-server's result_prompt_progress.
nlohmann::json ProgressJson(const PromptProgress& p);

class ReplyWriter {
 public:
  virtual ~ReplyWriter() = default;
  // SSE text of one prompt progress event (a streamed request with return_progress); it may come
  // before Start, while the prompt is prefilled.
  virtual std::string Progress(const PromptProgress&) { return ""; }
  // SSE text before the first delta; `prompt` holds the prompt's counts.
  virtual std::string Start(const Usage& prompt) = 0;
  virtual std::string Delta(const ReplyDelta& delta) = 0;
  // SSE text that ends the stream.
  virtual std::string Finish(const FinishedReply& reply) = 0;
  // The non-streamed response.
  virtual nlohmann::json Body(const FinishedReply& reply) = 0;
};

// The writer of `api` (its codec's, serve_codec.h).
std::unique_ptr<ReplyWriter> MakeReplyWriter(Api api, const ResponseMeta& meta);

// One SSE event: "event: <name>\n" (when `event` is not empty), "data: <json>\n\n".
std::string SseEvent(std::string_view event, const nlohmann::json& data);

// The API's error body for `error` (OpenAI: {"error":{message,type,param,code}}; Anthropic:
// {"type":"error","error":{type,message}}).
nlohmann::json ErrorBody(Api api, const ApiError& error);

// A token's log probability in OpenAI's shape, with llama-server's `id`:
// {"id", "token", "bytes", "logprob", "top_logprobs": [{"id", "token", "bytes", "logprob"}]}
// (the token text cut to its valid UTF-8 prefix, the bytes whole).
nlohmann::json LogprobJson(const TokenLogprob& entry);
nlohmann::json LogprobsJson(const std::vector<TokenLogprob>& entries);  // an array of them

// A tool call's arguments text as a JSON object (invalid JSON: {} ).
nlohmann::json ArgumentsObject(const std::string& arguments);

}  // namespace strata::serve
