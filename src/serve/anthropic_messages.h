// anthropic_messages.h: POST /v1/messages and /v1/messages/count_tokens, the Anthropic Messages
// request as Claude Code sends it, as strata's prompt types: `system` as a string or text blocks;
// messages whose content is a string or blocks (text, tool_use, tool_result with string or
// block content, thinking / redacted_thinking dropped); system-role messages inside `messages`;
// tools with input_schema; tool_choice; stream; max_tokens; temperature; top_p; stop_sequences.
// Claude Code's billing block (strata/client.h) is left out of the prompt unless
// `client_text.keep`; ServeRequest::left_out names it.
// cache_control, thinking, metadata, context_management, output_config and other members are
// accepted and ignored (the server caches every prefix without being asked).
#pragma once

#include <nlohmann/json.hpp>

#include "serve/serve_request.h"
#include "strata/client.h"

namespace strata::serve {

// Errors: 400 naming the member. `count_tokens`: max_tokens is not required.
ApiResult<ServeRequest> ParseMessages(const nlohmann::json& body, bool count_tokens = false,
                                      const ClientTextOptions& client_text = {});

}  // namespace strata::serve
