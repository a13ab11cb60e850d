// openai_shared.cc: the request shape the two OpenAI codecs share (openai_shared.h).
#include "wire/openai_shared.h"

#include "prompt/canonical_json.h"

namespace strata::wire {

using namespace render_internal;  // the renderers' shared pieces

void AppendOpenAiHead(const PromptHead& head, const RenderOptions& options,
                      const OpenAiShape& shape, RenderedPart* out) {
  std::string& b = out->bytes;
  b += "{\"model\":";
  AppendJsonString(options.model, &b);
  if (!options.prompt_cache_key.empty()) {
    b += ",\"prompt_cache_key\":";
    AppendJsonString(options.prompt_cache_key, &b);
  }
  if (!head.tools.empty()) AppendOpenAiTools(head, shape.nested_tools, out);
  // The two system blocks open the conversation list as system messages.
  b += shape.list_open;
  bool any = false;
  for (const auto* block : {&head.block1, &head.block2}) {
    if (JoinParts(*block).empty()) continue;
    if (any) b += ",";
    any = true;
    b += shape.system_open;
    AppendParts(*block, /*escape=*/true, out);
    b += shape.system_close;
  }
  out->has_items = any;
}

void AppendOpenAiTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                      const OpenAiShape& shape, RenderedPart* out) {
  std::string& b = out->bytes;
  const char* part = shape.text_part;
  if (!tail.empty()) {
    if (!new_input.empty() && new_input.back().role == Role::kUser) {
      b.resize(b.size() - 2);  // reopen the user message's content array: drop "]}"
      out->spans.back().end = b.size();
      b += ",";
    } else {
      if (preceded) b += ",";
      b += "{\"role\":\"user\",\"content\":[";
    }
    b += part;
    size_t begin = b.size();
    AppendJsonString(tail, &b);
    out->spans.push_back(Span("tail", Volatility::kTurn, "", begin, b.size()));
    b += "}]}";
  }
  b += "]}";
}

void AppendOpenAiTools(const PromptHead& head, bool nested, RenderedPart* out) {
  std::string& b = out->bytes;
  b += ",\"tools\":[";
  for (size_t i = 0; i < head.tools.size(); ++i) {
    if (i) b += ",";
    size_t begin = b.size();
    const ToolDefinition& t = head.tools[i];
    b += nested ? "{\"type\":\"function\",\"function\":{\"description\":"
                : "{\"type\":\"function\",\"description\":";
    AppendJsonString(t.description, &b);
    b += ",\"name\":";
    AppendJsonString(t.name, &b);
    b += ",\"parameters\":";
    AppendCanonicalJsonText(t.input_schema_json, &b);
    b += nested ? "}}" : "}";
    out->spans.push_back(Span("tools", Volatility::kStatic, t.name, begin, b.size()));
  }
  b += "]";
}

}  // namespace strata::wire
