// anthropic.cc: the Anthropic Messages renderer. Prefix order is tools -> system -> messages;
// cache_control breakpoints close system block 1 (tools + stable system text), system block 2,
// and the new input's last content block, so every cut sits on a stable/volatile boundary.
// Consecutive non-assistant messages (user text, tool results, context-update notices) share one
// user message, as the API wants tool results right after the assistant turn that asked for them.
#include "prompt/canonical_json.h"
#include "render/render_internal.h"

namespace strata::render_internal {
namespace {

void AppendBlock(const Message& m, std::string* out) {
  switch (m.role) {
    case Role::kUser:
    case Role::kContextUpdate:
      AppendQuoted("{\"type\":\"text\",\"text\":", m.text, "}", out);
      return;
    case Role::kToolResult:
      AppendQuoted("{\"type\":\"tool_result\",\"tool_use_id\":", m.tool_call_id,
                   ",\"content\":", out);
      AppendJsonString(m.text, out);
      if (m.is_error) *out += ",\"is_error\":true";
      *out += "}";
      return;
    case Role::kAssistant:
      return;  // not a user-side block
  }
}

void AppendAssistant(const Message& m, std::string* out) {
  *out += "{\"role\":\"assistant\",\"content\":[";
  bool first = true;
  if (!m.text.empty() || m.tool_calls.empty()) {
    AppendQuoted("{\"type\":\"text\",\"text\":", m.text, "}", out);
    first = false;
  }
  for (const auto& call : m.tool_calls) {
    if (!first) *out += ",";
    first = false;
    AppendQuoted("{\"type\":\"tool_use\",\"id\":", call.id, ",\"name\":", out);
    AppendJsonString(call.name, out);
    *out += ",\"input\":";
    AppendCanonicalJson(call.arguments.is_null() ? nlohmann::json::object() : call.arguments, out);
    *out += "}";
  }
  *out += "]}";
}

class AnthropicRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kAnthropic; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    std::string& b = out->bytes;
    b += "{\"model\":";
    AppendJsonString(options.model, &b);
    b += ",\"max_tokens\":" + std::to_string(options.max_tokens);
    if (!head.tools.empty()) {
      b += ",\"tools\":[";
      for (size_t i = 0; i < head.tools.size(); ++i) {
        if (i) b += ",";
        size_t begin = b.size();
        b += CanonicalToolJson(head.tools[i]);
        out->spans.push_back(
            Span("tools", Volatility::kStatic, head.tools[i].name, begin, b.size()));
      }
      b += "]";
    }
    bool system_open = false;
    size_t index = 0;
    for (const auto* block : {&head.block1, &head.block2}) {
      if (JoinParts(*block).empty()) continue;
      b += system_open ? "," : ",\"system\":[";
      system_open = true;
      b += "{\"type\":\"text\",\"text\":\"";
      AppendParts(*block, /*escape=*/true, out);
      b += "\"";
      AppendCacheControl(index++, options.long_ttl_breakpoints,
                         block == &head.block1 ? "system-block-1" : "system-block-2", out);
      b += "}";
    }
    if (system_open) b += "]";
    b += ",\"messages\":[";
    out->has_items = false;
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    size_t i = 0;
    while (i < messages.size()) {
      if (preceded) *out += ",";
      preceded = true;
      if (messages[i].role == Role::kAssistant) {
        AppendAssistant(messages[i], out);
        ++i;
        continue;
      }
      *out += "{\"role\":\"user\",\"content\":[";
      bool first = true;
      for (; i < messages.size() && messages[i].role != Role::kAssistant; ++i) {
        if (!first) *out += ",";
        first = false;
        AppendBlock(messages[i], out);
      }
      *out += "]}";
    }
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions& options, size_t breakpoints_before,
                  RenderedPart* out) const override {
    std::string& b = out->bytes;
    if (!new_input.empty() || !tail.empty()) {
      if (preceded) b += ",";
      b += "{\"role\":\"user\",\"content\":[";
      for (size_t i = 0; i < new_input.size(); ++i) {
        if (i) b += ",";
        size_t begin = b.size();
        AppendBlock(new_input[i], &b);
        bool notice = new_input[i].role == Role::kContextUpdate;
        if (i + 1 == new_input.size()) {
          b.pop_back();  // reopen the last block for its cache_control member
          out->spans.push_back(
              Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
          AppendCacheControl(breakpoints_before, options.long_ttl_breakpoints, "input", out);
          b += "}";
        } else {
          out->spans.push_back(
              Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
        }
      }
      if (!tail.empty()) {
        if (!new_input.empty()) b += ",";
        b += "{\"type\":\"text\",\"text\":";
        size_t begin = b.size();
        AppendJsonString(tail, &b);
        out->spans.push_back(Span("tail", Volatility::kTurn, "", begin, b.size()));
        b += "}";
      }
      b += "]}";
    }
    b += "]}";
  }
};

}  // namespace

std::unique_ptr<Renderer> MakeAnthropicRenderer() { return std::make_unique<AnthropicRenderer>(); }

}  // namespace strata::render_internal
