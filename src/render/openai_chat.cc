// openai_chat.cc: the OpenAI Chat Completions renderer. No cache directive exists in this API
// (caching is automatic by prefix), so none is written; the optional prompt_cache_key sits before
// the tools so it never moves the prefix. The two system blocks are two system messages; a
// context-update notice is a system message at its place in the conversation.
#include "prompt/canonical_json.h"
#include "render/render_internal.h"

namespace strata::render_internal {
namespace {

void AppendMessage(const Message& m, std::string* out) {
  switch (m.role) {
    case Role::kUser:
      AppendQuoted("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":", m.text, "}]}",
                   out);
      return;
    case Role::kContextUpdate:
      AppendQuoted("{\"role\":\"system\",\"content\":", m.text, "}", out);
      return;
    case Role::kToolResult:
      AppendQuoted("{\"role\":\"tool\",\"tool_call_id\":", m.tool_call_id, ",\"content\":", out);
      AppendJsonString(m.text, out);
      *out += "}";
      return;
    case Role::kAssistant:
      *out += "{\"role\":\"assistant\",\"content\":";
      if (m.text.empty() && !m.tool_calls.empty()) {
        *out += "null";
      } else {
        AppendJsonString(m.text, out);
      }
      if (!m.tool_calls.empty()) {
        *out += ",\"tool_calls\":[";
        for (size_t i = 0; i < m.tool_calls.size(); ++i) {
          if (i) *out += ",";
          AppendQuoted("{\"id\":", m.tool_calls[i].id,
                       ",\"type\":\"function\",\"function\":{\"name\":", out);
          AppendJsonString(m.tool_calls[i].name, out);
          *out += ",\"arguments\":";
          AppendJsonString(CanonicalArguments(m.tool_calls[i]), out);
          *out += "}}";
        }
        *out += "]";
      }
      *out += "}";
      return;
  }
}

class OpenAiChatRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kOpenAiChat; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    AppendOpenAiHead(head, options, OpenAiApi::kChat, out);
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    for (const auto& m : messages) {
      if (preceded) *out += ",";
      preceded = true;
      AppendMessage(m, out);
    }
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (size_t i = 0; i < new_input.size(); ++i) {
      if (preceded) b += ",";
      preceded = true;
      size_t begin = b.size();
      AppendMessage(new_input[i], &b);
      bool notice = new_input[i].role == Role::kContextUpdate;
      out->spans.push_back(
          Span(notice ? "epoch" : "input", Volatility::kTurn, "", begin, b.size()));
    }
    AppendOpenAiTail(new_input, preceded, tail, OpenAiApi::kChat, out);
  }
};

}  // namespace

std::unique_ptr<Renderer> MakeOpenAiChatRenderer() {
  return std::make_unique<OpenAiChatRenderer>();
}

}  // namespace strata::render_internal
