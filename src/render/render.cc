// render.cc: provider names, the renderer factory, request flattening, and the helpers the
// provider renderers share (system parts with spans, cache_control members).
#include "strata/render.h"

#include "prompt/canonical_json.h"
#include "render/provider_names.h"
#include "render/render_internal.h"

namespace strata {

const char* ProviderName(Provider provider) {
  return NameOf(kProviderNames, provider).data();  // the names are literals: NUL-terminated
}

std::string ProviderNameList() { return NameList(kProviderNames); }

Result<Provider> ParseProvider(std::string_view name) {
  if (auto provider = ValueOf(kProviderNames, name)) return *provider;
  return MakeError(ErrorKind::kInvalidArgument, "unknown provider '" + std::string(name) +
                                                    "' (expected one of " +
                                                    NameList(kProviderNames) + ")");
}

std::unique_ptr<Renderer> MakeRenderer(Provider provider, const ChatTemplate* chat_template) {
  switch (provider) {
    case Provider::kAnthropic:
      return render_internal::MakeAnthropicRenderer();
    case Provider::kOpenAiChat:
      return render_internal::MakeOpenAiChatRenderer();
    case Provider::kOpenAiResponses:
      return render_internal::MakeOpenAiResponsesRenderer();
    case Provider::kChatTemplate:
      return render_internal::MakeChatTemplateRenderer(chat_template);
  }
  return nullptr;
}

std::string RenderedRequest::Flatten() const {
  std::string out;
  out.reserve(size);
  for (auto s : segments) out.append(s);
  return out;
}

namespace render_internal {

LayerSpan Span(std::string layer, Volatility volatility, std::string source, size_t begin,
               size_t end) {
  return LayerSpan{std::move(layer), volatility, std::move(source), begin, end};
}

bool AppendParts(const std::vector<TextPart>& parts, bool escape, RenderedPart* out) {
  bool any = false;
  for (const auto& part : parts) {
    if (part.text.empty()) continue;
    if (any) out->bytes += escape ? "\\n\\n" : "\n\n";
    size_t begin = out->bytes.size();
    if (escape) {
      AppendJsonEscaped(part.text, &out->bytes);
    } else {
      out->bytes += part.text;
    }
    out->spans.push_back(
        Span(LayerName(part.kind), part.volatility, part.source, begin, out->bytes.size()));
    any = true;
  }
  return any;
}

std::string JoinParts(const std::vector<TextPart>& parts) {
  std::string out;
  for (const auto& part : parts) {
    if (part.text.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += part.text;
  }
  return out;
}

void AppendOpenAiHead(const PromptHead& head, const RenderOptions& options, OpenAiApi api,
                      RenderedPart* out) {
  std::string& b = out->bytes;
  b += "{\"model\":";
  AppendJsonString(options.model, &b);
  if (!options.prompt_cache_key.empty()) {
    b += ",\"prompt_cache_key\":";
    AppendJsonString(options.prompt_cache_key, &b);
  }
  const bool nested = api == OpenAiApi::kChat;
  if (!head.tools.empty()) AppendOpenAiTools(head, nested, out);
  // The two system blocks open the conversation list as system messages.
  b += nested ? ",\"messages\":[" : ",\"input\":[";
  bool any = false;
  for (const auto* block : {&head.block1, &head.block2}) {
    if (JoinParts(*block).empty()) continue;
    if (any) b += ",";
    any = true;
    b += nested ? "{\"role\":\"system\",\"content\":\""
                : "{\"role\":\"system\",\"content\":[{\"type\":\"input_text\",\"text\":\"";
    AppendParts(*block, /*escape=*/true, out);
    b += nested ? "\"}" : "\"}]}";
  }
  out->has_items = any;
}

void AppendOpenAiTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                      OpenAiApi api, RenderedPart* out) {
  std::string& b = out->bytes;
  const char* part = api == OpenAiApi::kChat ? "{\"type\":\"text\",\"text\":"
                                             : "{\"type\":\"input_text\",\"text\":";
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
    AppendCanonicalJson(t.input_schema, &b);
    b += nested ? "}}" : "}";
    out->spans.push_back(Span("tools", Volatility::kStatic, t.name, begin, b.size()));
  }
  b += "]";
}

void AppendCacheControl(size_t index, int long_ttl, const std::string& layer, RenderedPart* out) {
  bool long_lived = static_cast<int>(index) < long_ttl;
  out->breakpoints.push_back(
      Breakpoint{out->bytes.size(), long_lived ? CacheTtl::k1h : CacheTtl::k5m, layer});
  out->bytes += long_lived ? ",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}"
                           : ",\"cache_control\":{\"type\":\"ephemeral\"}";
}

void AppendQuoted(std::string_view open, std::string_view text, std::string_view close,
                  std::string* out) {
  out->append(open);
  AppendJsonString(text, out);
  out->append(close);
}

std::string CanonicalArguments(const ToolCall& call) {
  return CanonicalJson(call.arguments.is_null() ? nlohmann::json::object() : call.arguments);
}

}  // namespace render_internal
}  // namespace strata
