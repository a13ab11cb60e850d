// openai_responses.cc: the OpenAI Responses renderer. Like Chat Completions it carries no cache
// directive; the conversation is the `input` item list: system blocks and notices as system
// messages, assistant text as output_text, tool calls and results as function_call and
// function_call_output items.
#include "prompt/canonical_json.h"
#include "render/render_internal.h"

namespace strata::render_internal {
namespace {

void AppendSystem(std::string_view text, std::string* out) {
  AppendQuoted("{\"role\":\"system\",\"content\":[{\"type\":\"input_text\",\"text\":", text, "}]}",
               out);
}

// Appends the items of one message, comma-separated, preceded by a comma when `*preceded`.
void AppendItems(const Message& m, bool* preceded, std::string* out) {
  auto sep = [&] {
    if (*preceded) *out += ",";
    *preceded = true;
  };
  switch (m.role) {
    case Role::kUser:
      sep();
      AppendQuoted("{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":", m.text,
                   "}]}", out);
      return;
    case Role::kContextUpdate:
      sep();
      AppendSystem(m.text, out);
      return;
    case Role::kToolResult:
      sep();
      AppendQuoted("{\"type\":\"function_call_output\",\"call_id\":", m.tool_call_id,
                   ",\"output\":", out);
      AppendJsonString(m.text, out);
      *out += "}";
      return;
    case Role::kAssistant:
      if (!m.text.empty() || m.tool_calls.empty()) {
        sep();
        AppendQuoted("{\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":",
                     m.text, "}]}", out);
      }
      for (const auto& call : m.tool_calls) {
        sep();
        AppendQuoted("{\"type\":\"function_call\",\"call_id\":", call.id, ",\"name\":", out);
        AppendJsonString(call.name, out);
        *out += ",\"arguments\":";
        AppendJsonString(CanonicalArguments(call), out);
        *out += "}";
      }
      return;
  }
}

class OpenAiResponsesRenderer : public Renderer {
 public:
  Provider provider() const override { return Provider::kOpenAiResponses; }
  std::string_view separator() const override { return ","; }

  void RenderHead(const PromptHead& head, const RenderOptions& options,
                  RenderedPart* out) const override {
    AppendOpenAiHead(head, options, OpenAiApi::kResponses, out);
  }

  void AppendHistory(std::span<const Message> messages, bool preceded,
                     std::string* out) const override {
    for (const auto& m : messages) AppendItems(m, &preceded, out);
  }

  void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (const auto& m : new_input) {
      size_t begin = b.size() + (preceded ? 1 : 0);
      AppendItems(m, &preceded, &b);
      out->spans.push_back(Span(m.role == Role::kContextUpdate ? "epoch" : "input",
                                Volatility::kTurn, "", begin, b.size()));
    }
    AppendOpenAiTail(new_input, preceded, tail, OpenAiApi::kResponses, out);
  }
};

}  // namespace

std::unique_ptr<Renderer> MakeOpenAiResponsesRenderer() {
  return std::make_unique<OpenAiResponsesRenderer>();
}

}  // namespace strata::render_internal
