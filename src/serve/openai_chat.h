// openai_chat.h: POST /v1/chat/completions, the OpenAI Chat Completions request as strata's
// prompt types (messages with text parts, tool calls and tool results; tools; tool_choice;
// stream; max_tokens / max_completion_tokens; temperature; top_p; seed; stop).
#pragma once

#include <nlohmann/json.hpp>

#include "serve/serve_request.h"

namespace strata::serve {

// Errors: 400 naming the member ("'messages[1].role' must be one of system, developer, user,
// assistant, tool").
ApiResult<ServeRequest> ParseChatCompletions(const nlohmann::json& body);

}  // namespace strata::serve
