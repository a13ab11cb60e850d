// generation.h: the reply to a prepared prompt: tokens sampled by the sequence's own common
// sampler (temperature, top_p, seed; greedy at temperature 0), decoded one at a time into the
// sequence (each step batched with the other sequences' by the engine), parsed as they
// grow by the template's reply parser (text, reasoning, tool calls) and handed over as deltas.
// It ends at an end-of-generation token, a stop string (request stops and the format's own; the
// text is cut before it, and text that may be the start of a stop string is held back until it
// is not), max_tokens, the end of the context, or cancellation (the client went away). A stop
// string is matched as each token is sampled, on the engine's scheduler thread, so the token
// that completes it is the last sampled and is not decoded (as llama-server's process_token).
// usage.completion_tokens counts every token sampled, an end-of-generation one included
// (llama-server's n_decoded).
#pragma once

#include <chrono>
#include <functional>
#include <span>
#include <vector>

#include "local/conversation_template.h"
#include "local/sequence_pool.h"
#include "local/token_sampler.h"
#include "wire/reply_writer.h"

namespace strata::serve {

struct GenerationLimits {
  int max_tokens = 0;  // > 0
  std::vector<std::string> stops;
  std::vector<std::string> request_stops;  // the ones the request sent (a subset of stops)
  SamplingOptions sampling;
  bool parse_tool_calls = true;
};

struct GenerationHooks {
  std::function<void()> on_first_token;                           // once, before the first delta
  std::function<bool(const std::vector<ReplyDelta>&)> on_deltas;  // false: stop (client gone)
  std::function<bool()> cancelled;
  // The prompt tokens of `input` decoded so far, after each engine step that took some.
  std::function<void(size_t done)> on_prefill;
};

// `seq` holds the prompt but its last tokens, `input` (at least one): the engine decodes them
// (batched with the other sequences' work; hooks.cancelled is polled between its steps) and
// samples the first token in the step that decodes the last of them. Fills reply->reply, finish,
// stop_sequence, tokens, sampled_tokens, usage.completion_tokens and usage.reasoning_tokens
// (reasoning_tokens.h).
// Errors: kIo when llama.cpp fails or "cancelled".
Status Generate(const LocalModel& model, const RenderedPrompt& prompt,
                const GenerationLimits& limits, std::span<const int32_t> input, Sequence& seq,
                const GenerationHooks& hooks, FinishedReply* reply);

// The length of `text` that can be shown while the reply grows: all of it, less a suffix that is
// the start of one of `stops` (it may yet become that stop string).
size_t ShowableLength(std::string_view text, const std::vector<std::string>& stops);

}  // namespace strata::serve
