// chat_template.h: the text render for local inference (the local provider of render.h).
//
// A chat template turns role-tagged messages into the exact text a local model is prefilled
// with. strata's text renderer asks the template for one message at a time, so the rendered
// prefix of a conversation never depends on what follows it (the property the KV bootstrap
// checkpoint needs). The built-in template is ChatML:
//   <|im_start|>{role}\n{content}<|im_end|>\n      per message
//   <|im_start|>assistant\n                        the generation prompt
// Tool calls and results are written into the content Hermes-style (<tool_call>{json}</tool_call>,
// <tool_response>..</tool_response>). A model's own Jinja template plugs in by implementing
// ChatTemplate: strata chat does so with llama.cpp's template engine (src/local), which accepts a
// template only when it renders each message the same way wherever it stands, so that rendering one
// message at a time gives exactly the text the template would give for the whole conversation.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "strata/export.h"

namespace STRATA_EXPORT strata {

class ChatTemplate {
 public:
  virtual ~ChatTemplate() = default;
  // Names the template in reports and checkpoint identities, e.g. "chatml".
  virtual std::string_view name() const = 0;
  // Appends one message; `role` is "system", "user", "assistant" or "tool". Returns the offset in
  // *out where `content` begins, copied verbatim (so layer spans can point into it).
  virtual size_t AppendMessage(std::string_view role, std::string_view content,
                               std::string* out) const = 0;
  // Appends the text that asks the model to answer.
  virtual void AppendGenerationPrompt(std::string* out) const = 0;
  // Appends the text a template writes once, before the first message (e.g. a begin-of-text
  // marker); the text render writes it at the start of the head. ChatML has none.
  virtual void AppendStart(std::string* /*out*/) const {}
};

std::unique_ptr<ChatTemplate> MakeChatMlTemplate();

}  // namespace strata
