// serve_request.h (private): one generation request as strata's prompt types, whatever API it
// arrived in (the codecs' parsers, serve_codec.h, produce it), and
// the error every parser and the server answer with (HTTP status + the member it names).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "strata/accounting.h"  // RequestApi
#include "strata/prompt.h"
#include "strata/status.h"

namespace strata::serve {

// The API a request arrived in: the same enum `strata record` and explain use.
using Api = RequestApi;
// The name strata serve gives `api` in logs and metrics: "messages", "chat.completions",
// "responses" (serve_codec.h).
const char* ApiName(Api api);

enum class ToolChoice { kAuto, kRequired, kNone };

struct ServeRequest {
  Api api = Api::kOpenAiChat;
  std::string model;
  std::string system;  // the leading system / developer text (joined by blank lines)
  std::vector<ToolDefinition> tools;
  // The conversation. Role::kContextUpdate carries a system or developer message that comes
  // after the first non-system message (rendered with the system role).
  std::vector<Message> messages;
  // The reasoning (thinking) the client sent back with its assistant messages, by index into
  // `messages`: Anthropic thinking blocks, Responses reasoning items, Chat's reasoning_content
  // (llama-server's member). It goes to the chat template with its message; the template decides
  // whether to render it (Qwen3's renders it only for the turns after the last user message).
  std::map<size_t, std::string> reasoning;
  ToolChoice tool_choice = ToolChoice::kAuto;
  bool stream = false;
  bool include_usage = false;  // Chat Completions stream_options.include_usage
  int max_tokens = 0;          // 0: not given (the server uses the rest of the context)
  std::optional<double> temperature, top_p;
  // common's sampler settings beyond the OpenAI ones (llama-server's request members, Anthropic's
  // top_k): unset members take the server's defaults (its --top-k, --min-p, ... flags).
  std::optional<int> top_k, repeat_last_n;
  std::optional<double> min_p, repeat_penalty, presence_penalty, frequency_penalty;
  std::optional<uint32_t> seed;
  std::vector<std::string> stop;
  // GBNF the reply must match (structured output: a JSON Schema's grammar by common's
  // json_schema_to_grammar, or llama-server's `grammar`); empty: none.
  std::string grammar;
  // Log probabilities of the generated tokens (Chat `logprobs`, Responses `include`
  // message.output_text.logprobs, llama-server's `n_probs`), with the `top_logprobs` likeliest
  // candidates of each step.
  bool logprobs = false;
  int top_logprobs = 0;
  // llama-server's reasoning_budget_tokens / thinking_budget_tokens (Chat): the most tokens the
  // reply may think; unset: the server's --reasoning-budget.
  std::optional<int> reasoning_budget;
  // Anthropic's thinking.budget_tokens: the most tokens the reply may think, bounding it together
  // with the server's --reasoning-budget (the smaller wins; unlike reasoning_budget, which
  // replaces the server's).
  std::optional<int> thinking_budget;
  // Anthropic's thinking {"type": "disabled"}: false renders the chat template with thinking off
  // (where it has a switch, as llama-server's reasoning_effort "none"); unset: the server's choice.
  std::optional<bool> enable_thinking;
  // OpenAI's reasoning_effort (Chat) / reasoning.effort (Responses) other than "none" ("none"
  // sets enable_thinking false): the chat template's reasoning_effort variable, as llama-server
  // passes it (templates that read it, gpt-oss's, render it into the system part); empty: unset.
  std::string reasoning_effort;
  // llama-server's return_progress (streamed requests of every API): prompt progress events while
  // the prompt is prefilled.
  bool return_progress = false;
  // A raw prompt (llama-server's /completion, OpenAI's legacy /v1/completions): no messages, no
  // chat template; the text is tokenized as llama-server tokenizes it (BOS added, special tokens
  // parsed), or `prompt_tokens` are taken as given when the prompt was token ids.
  bool raw = false;
  std::string prompt;
  std::vector<int32_t> prompt_tokens;
  bool return_tokens = false;  // llama-server's: the generated token ids in the response
  // Members present that the API documents as having no effect on the reply here (`metadata`,
  // `store`, ...; request_members.h), for the log line.
  std::vector<std::string> no_effect;
  // Tools of the request the model is not offered (Responses tools of a type other than
  // `function`: `web_search`, `namespace`, ...), as `type` or `type:name`, in request order. The
  // server names them in its log line and in the X-Strata-Ignored-Tools response header.
  std::vector<std::string> ignored_tools;
  // Client text left out of the prompt by the client registry (strata/discover.h), as
  // `<member>:<client>/<entry>`, e.g. "system[0]:claude-code/billing-header-cch". Named in the
  // log line and the X-Strata-Left-Out response header.
  std::vector<std::string> left_out;
};

// A request the server refuses: the HTTP status, the API's error type and a message that names
// the offending member (e.g. "messages[2].content: expected a string or an array").
struct ApiError {
  int status = 400;
  std::string type = "invalid_request_error";
  std::string message;
  std::string param;  // the member path, when one is at fault
};

template <class T>
using ApiResult = tl::expected<T, ApiError>;

inline tl::unexpected<ApiError> BadRequest(std::string param, std::string message) {
  return tl::unexpected(ApiError{400, "invalid_request_error", param + ": " + message, param});
}

}  // namespace strata::serve
