// openai_shared.h (private): what the OpenAI codecs (openai_chat.cc, openai_responses.cc) render
// alike: the head of the request (model, prompt_cache_key, tools, the two system blocks as system
// messages) and its close (the volatile tail as a text part of the newest user message). Each
// codec gives its OpenAiShape.
#pragma once

#include <span>
#include <string_view>

#include "render/render_internal.h"

namespace strata::wire {

// Where the two OpenAI APIs differ in the shared parts.
struct OpenAiShape {
  bool nested_tools;        // Chat: {"type":"function","function":{...}}; Responses: flat
  const char* list_open;    // `,"messages":[` or `,"input":[`
  const char* system_open;  // a system message up to its text's opening quote
  const char* system_close;
  const char* text_part;  // a user text part up to its text: {"type":"text","text":
};

// The head of an OpenAI request: `{"model":...[,"prompt_cache_key":...][,"tools":[...]],` then
// the conversation list with the two system blocks as system messages (object and list left
// open), one tools span per tool and one span per system part; sets out->has_items.
void AppendOpenAiHead(const PromptHead& head, const RenderOptions& options,
                      const OpenAiShape& shape, RenderedPart* out);
// Closes an OpenAI request: the volatile tail as a text part of the newest user message (reopened
// when the new input ends with one, else a new user message; span "tail"), then `]}`. `preceded`:
// an item was already written to the list.
void AppendOpenAiTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                      const OpenAiShape& shape, RenderedPart* out);
// `,"tools":[...]` with one span per tool (`nested`: Chat Completions' {"type","function":{...}}).
void AppendOpenAiTools(const PromptHead& head, bool nested, RenderedPart* out);

}  // namespace strata::wire
