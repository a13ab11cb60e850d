// serve_codec.h (private): the `strata serve` half of each wire codec (codec.h): parsing a request
// body into strata's prompt types (ServeRequest) and writing the reply in the API's own shape
// (reply_writer.h). Each API's half is its *_serve.cc file; this table is the one place that
// dispatches on the API. Built into the serve library: structured output goes through llama.cpp's
// grammar code (json_schema_grammar.h).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <span>

#include "strata/discover.h"
#include "wire/reply_writer.h"
#include "wire/serve_request.h"

namespace strata::serve {

struct ServeCodec {
  Api api;
  const char* name;       // in logs, metrics and POST /tokenize: "messages"
  const char* id_prefix;  // of the response ids: "msg" ("msg-3")
  // The POST routes served (the first is the prefix naming the API of any path under it, e.g.
  // for the error body of a refused request).
  std::span<const char* const> routes;
  // Errors: 400 naming the member. `client_text`: what the client registry leaves out (the APIs
  // whose clients send none ignore it).
  ApiResult<ServeRequest> (*parse)(const nlohmann::json& body,
                                   const ClientTextOptions& client_text);
  std::unique_ptr<ReplyWriter> (*make_writer)(const ResponseMeta& meta);
  // The API's error body for `error`.
  nlohmann::json (*error_body)(const ApiError& error);
};

const ServeCodec& ServeCodecFor(Api api);
std::span<const ServeCodec* const> AllServeCodecs();
// The API of a request path: the codec whose first route prefixes it, else Chat Completions.
Api ApiOfPath(std::string_view path);

// Anthropic Messages (anthropic_messages_serve.cc): POST /v1/messages and
// /v1/messages/count_tokens as Claude Code sends them: `system` as a string or text blocks;
// messages whose content is a string or blocks (text, tool_use, tool_result with string or block
// content, thinking as the assistant turn's reasoning, redacted_thinking dropped); system-role
// messages inside `messages`; tools with input_schema; tool_choice; stream; max_tokens;
// temperature; top_p; stop_sequences; llama-server's grammar. Replies carry the model's thinking
// as thinking blocks (streamed: thinking_delta, then an empty signature_delta).
// Claude Code's billing block (strata/discover.h) is left out of the prompt unless
// `client_text.keep`; ServeRequest::left_out names it. Members are checked against the API's table
// (request_members.h). `count_tokens`: max_tokens is not required.
ApiResult<ServeRequest> ParseMessages(const nlohmann::json& body, bool count_tokens = false,
                                      const ClientTextOptions& client_text = {});
std::unique_ptr<ReplyWriter> MakeMessagesWriter(const ResponseMeta& meta);

// OpenAI Chat Completions (openai_chat_serve.cc): POST /v1/chat/completions (messages with text
// parts, tool calls and tool results, an assistant's reasoning_content; tools; tool_choice;
// stream; max_tokens / max_completion_tokens; temperature; top_p; seed; stop; logprobs /
// top_logprobs and llama-server's n_probs, written as choices[].logprobs.content; llama-server's
// reasoning_budget_tokens and return_progress). Replies carry the thinking as reasoning_content.
// Errors: 400 naming the member
// ("'messages[1].role' must be one of system, developer, user, assistant, tool").
ApiResult<ServeRequest> ParseChatCompletions(const nlohmann::json& body);
std::unique_ptr<ReplyWriter> MakeChatCompletionsWriter(const ResponseMeta& meta);

// OpenAI Responses (openai_responses_serve.cc): POST /v1/responses as Codex CLI sends it:
// `instructions` (system text), `input` as a string or items (messages of role system /
// developer / user / assistant with text parts, function_call, function_call_output; a
// reasoning item's reasoning_text parts as the reasoning of the assistant turn it opens), function
// tools (flat {type, name, description, parameters}), tool_choice, stream, max_output_tokens,
// temperature, top_p, include "message.output_text.logprobs" with top_logprobs (logprobs on the
// output_text part and its delta events). `store: true` is answered statelessly (nothing is kept,
// the response says store: false); previous_response_id is refused (400) because the server keeps
// no responses. Other members: the API's table (request_members.h). Replies carry the thinking as a
// reasoning item (streamed: response.reasoning_text.delta / .done).
ApiResult<ServeRequest> ParseResponses(const nlohmann::json& body);
std::unique_ptr<ReplyWriter> MakeResponsesWriter(const ResponseMeta& meta);

// The codecs' rows (serve_codec.cc's table holds them).
extern const ServeCodec kMessagesServeCodec;
extern const ServeCodec kChatCompletionsServeCodec;
extern const ServeCodec kResponsesServeCodec;

// The raw-prompt codecs (llama_completion_serve.cc): llama-server's POST /completion (and
// /completions) and OpenAI's legacy POST /v1/completions. The prompt (a string, or token ids)
// reaches the model without a chat template; ServeRequest::raw is set. They are not APIs of
// RequestApi (nothing records or replays them): `api` is Chat Completions, whose error shape
// they share; the route table is RawPromptServeCodecs().
extern const ServeCodec kCompletionServeCodec;
extern const ServeCodec kOaiCompletionsServeCodec;
std::span<const ServeCodec* const> RawPromptServeCodecs();

}  // namespace strata::serve
