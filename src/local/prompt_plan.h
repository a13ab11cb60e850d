// prompt_plan.h: a request's prompt as the model sees it: the conversation converted from
// strata's prompt types to the template's, rendered by the model's chat template, and the cuts
// where checkpoints are shared by later requests:
//   - the end of the system + tools part (the same for every session of an agent in a project);
//   - the end of the last completed turn (the last assistant message before the new input; the
//     next request of the same conversation shares it).
// A cut is kept only when its render is a byte prefix of the whole prompt's.
#pragma once

#include <string>
#include <vector>

#include "local/conversation_template.h"
#include "wire/serve_request.h"

namespace strata::serve {

// The request's conversation for the template: the system text first (when not empty), the
// messages in order (context updates as system messages; tool results carry the name of the call
// they answer), tools with their schemas as canonical JSON (sorted keys).
TemplateConversation ToTemplateConversation(const ServeRequest& request);

struct PromptPlan {
  RenderedPrompt prompt;     // the whole prompt, with the generation prompt
  std::vector<size_t> cuts;  // byte offsets into prompt.text, ascending, each < its size
};

// How thinking is rendered and parsed. strata chat: its reasoning mode, extracted. strata serve:
// as llama-server, thinking on when the template supports it (ConversationTemplate::
// supports_thinking), extracted unless --reasoning-format none.
struct ThinkingOptions {
  bool enable = false;  // the template's enable_thinking
  bool extract = true;  // the reply's thinking parsed into its reasoning
};

// An assistant message's reasoning (sent back by the client) goes to the template, which decides
// whether to render it. A request that turns thinking off (ServeRequest::enable_thinking false)
// renders with enable_thinking off whatever `thinking` says. Errors: 400 when the template cannot
// render the conversation.
ApiResult<PromptPlan> PlanPrompt(const ConversationTemplate& chat_template,
                                 const ServeRequest& request, const ThinkingOptions& thinking = {});

}  // namespace strata::serve
