// model_chat_template.h: a model's own chat template (the GGUF's tokenizer.chat_template, run by
// llama.cpp's Jinja engine in its `common` library, as llama-server runs it) behind strata's
// ChatTemplate, which renders one message at a time.
//
// A Jinja template renders a whole conversation, so it is probed once: a conversation of sentinel
// messages (system, system, user, assistant, system, user, assistant) is rendered through message
// i for every i, and the template is accepted only when
//   - the render through message i is a byte prefix of the render through message i + 1, and the
//     render without the generation prompt a byte prefix of the render with it;
//   - each message's added text is <open><content><close>, with the same open and close for a role
//     wherever it stands (the first message may be preceded by a start text written once);
//   - the content appears verbatim, or stripped of surrounding whitespace (then AppendMessage
//     strips it too, as the template would).
// A template that breaks a rule is refused with a message naming the message index, the role and
// the rule, because strata could not checkpoint a prefix that changes with what follows it.
// Roles other than system, user and assistant (e.g. "tool") are written with the user wrappers.
// The template sees a fixed clock (1970-01-01), so a template that prints the date cannot put the
// real one in the prefix.
#pragma once

#include <memory>
#include <string_view>

#include "strata/chat_template.h"
#include "strata/status.h"

struct llama_model;

namespace strata {

// The chat template for `model`: its own (`source`, the tokenizer.chat_template text) when
// `source` is not empty, else the built-in ChatML. `enable_thinking` is passed to the template
// (reasoning mode). Errors: kInvalidArgument when the template fails to render or breaks a rule
// above (the message says which and what to do).
Result<std::unique_ptr<ChatTemplate>> MakeModelChatTemplate(const llama_model* model,
                                                            std::string_view source,
                                                            bool enable_thinking);

}  // namespace strata
