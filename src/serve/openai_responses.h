// openai_responses.h: POST /v1/responses as Codex CLI sends it, as strata's prompt types:
// `instructions` (system text), `input` as a string or items (messages of role system /
// developer / user / assistant with text parts, function_call, function_call_output; reasoning
// items dropped), function tools (flat {type, name, description, parameters}), tool_choice,
// stream, max_output_tokens, temperature, top_p. `store: true` is answered statelessly (nothing
// is kept, the response says store: false); previous_response_id is refused (400) because the
// server keeps no responses. reasoning, metadata, include, prompt_cache_key, client_metadata,
// text, parallel_tool_calls and other members are accepted and ignored.
#pragma once

#include <nlohmann/json.hpp>

#include "serve/serve_request.h"

namespace strata::serve {

ApiResult<ServeRequest> ParseResponses(const nlohmann::json& body);

}  // namespace strata::serve
