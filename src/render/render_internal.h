// render_internal.h: pieces the provider renderers share: writing a system block's parts into a
// JSON string (or raw text) while recording each part's span, and writing a cache_control member.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "strata/chat_template.h"
#include "strata/render.h"

namespace strata::render_internal {

// Appends the non-empty parts joined by "\n\n", JSON-escaped when `escape`, recording one span per
// part (offsets relative to out->bytes). Returns false when every part is empty.
bool AppendParts(const std::vector<TextPart>& parts, bool escape, RenderedPart* out);

// The text of the parts joined by "\n\n" (empty parts skipped).
std::string JoinParts(const std::vector<TextPart>& parts);

// Records a breakpoint at the current end of out->bytes and writes
// ,"cache_control":{"type":"ephemeral"[,"ttl":"1h"]} (1 h for the first `long_ttl` breakpoints).
void AppendCacheControl(size_t index, int long_ttl, const std::string& layer, RenderedPart* out);

enum class OpenAiApi { kChat, kResponses };

// The head of an OpenAI request, shared by Chat Completions and Responses:
// `{"model":...[,"prompt_cache_key":...][,"tools":[...]],"messages"|"input":[` then the two system
// blocks as system messages (object and list left open), one tools span per tool and one span per
// system part; sets out->has_items. Chat nests each tool under "function"; Responses writes it
// flat.
void AppendOpenAiHead(const PromptHead& head, const RenderOptions& options, OpenAiApi api,
                      RenderedPart* out);
// Closes an OpenAI request: the volatile tail as a text part of the newest user message (reopened
// when the new input ends with one, else a new user message; span "tail"), then `]}`. `preceded`:
// an item was already written to the list.
void AppendOpenAiTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                      OpenAiApi api, RenderedPart* out);

// `,"tools":[...]` with one span per tool (`nested`: Chat Completions' {"type","function":{...}}).
void AppendOpenAiTools(const PromptHead& head, bool nested, RenderedPart* out);

// Appends `open`, then `text` as a quoted JSON string, then `close`: the shape of most members
// the renderers write ({"type":"text","text":<text>}).
void AppendQuoted(std::string_view open, std::string_view text, std::string_view close,
                  std::string* out);

// A tool call's arguments as canonical JSON; null arguments are the empty object.
std::string CanonicalArguments(const ToolCall& call);

// Layer span helpers.
LayerSpan Span(std::string layer, Volatility volatility, std::string source, size_t begin,
               size_t end);

std::unique_ptr<Renderer> MakeAnthropicRenderer();
std::unique_ptr<Renderer> MakeOpenAiChatRenderer();
std::unique_ptr<Renderer> MakeOpenAiResponsesRenderer();
std::unique_ptr<Renderer> MakeChatTemplateRenderer(const ChatTemplate* chat_template);

}  // namespace strata::render_internal
