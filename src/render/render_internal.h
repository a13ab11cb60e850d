// render_internal.h: pieces the provider renderers share: writing a system block's parts into a
// JSON string (or raw text) while recording each part's span, and writing a cache_control member.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

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

// Appends `open`, then `text` as a quoted JSON string, then `close`: the shape of most members
// the renderers write ({"type":"text","text":<text>}).
void AppendQuoted(std::string_view open, std::string_view text, std::string_view close,
                  std::string* out);

// A tool call's arguments as canonical JSON; null arguments are the empty object.
std::string CanonicalArguments(const ToolCall& call);

// Layer span helpers.
LayerSpan Span(std::string layer, Volatility volatility, std::string source, size_t begin,
               size_t end);

// The provider renderers are the wire codecs' (src/wire/codec.h); MakeRenderer is in codec.cc.
std::unique_ptr<Renderer> MakeChatTemplateRenderer(const ChatTemplate* chat_template);

}  // namespace strata::render_internal
