// render_internal.h: pieces the provider renderers share: writing a system block's parts into a
// JSON string (or raw text) while recording each part's span, and writing a cache_control member.
#pragma once

#include <memory>
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

// The part of an OpenAI request before the conversation, shared by Chat Completions and
// Responses: `{"model":...[,"prompt_cache_key":...][,"tools":[...]]` (object left open), one
// tools span per tool. Chat nests each tool under "function"; Responses writes it flat.
void AppendOpenAiRequestStart(const PromptHead& head, const RenderOptions& options, OpenAiApi api,
                              RenderedPart* out);

// Layer span helpers.
LayerSpan Span(std::string layer, Volatility volatility, std::string source, size_t begin,
               size_t end);

std::unique_ptr<Renderer> MakeAnthropicRenderer();
std::unique_ptr<Renderer> MakeOpenAiChatRenderer();
std::unique_ptr<Renderer> MakeOpenAiResponsesRenderer();
std::unique_ptr<Renderer> MakeChatTemplateRenderer(const ChatTemplate* chat_template);

}  // namespace strata::render_internal
