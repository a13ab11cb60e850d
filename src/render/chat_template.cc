// chat_template.cc: the text renderer for local inference and the built-in ChatML template. The
// text is built one message at a time through a ChatTemplate, so a conversation's rendered prefix
// never depends on later messages; llama.cpp's real templates plug in through the same interface.
#include "strata/render.h"

#include "prompt/canonical_json.h"
#include "render/render_internal.h"

namespace strata {
namespace {

class ChatMlTemplate : public ChatTemplate {
 public:
  std::string_view name() const override { return "chatml"; }
  size_t AppendMessage(std::string_view role, std::string_view content,
                       std::string* out) const override {
    *out += "<|im_start|>";
    out->append(role);
    *out += "\n";
    size_t at = out->size();
    out->append(content);
    *out += "<|im_end|>\n";
    return at;
  }
  void AppendGenerationPrompt(std::string* out) const override {
    *out += "<|im_start|>assistant\n";
  }
};

}  // namespace

std::unique_ptr<ChatTemplate> MakeChatMlTemplate() { return std::make_unique<ChatMlTemplate>(); }

namespace render_internal {
namespace {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kUser:
      return "user";
    case Role::kAssistant:
      return "assistant";
    case Role::kToolResult:
      return "tool";
    case Role::kContextUpdate:
      return "system";
  }
  return "user";
}

std::string Content(const Message& m) {
  if (m.role == Role::kToolResult) {
    return "<tool_response>\n" + m.text + "\n</tool_response>";
  }
  std::string content = m.text;
  for (const auto& call : m.tool_calls) {
    if (!content.empty()) content += "\n";
    content += "<tool_call>\n{\"arguments\":";
    AppendCanonicalJsonText(call.arguments_json, &content);
    content += ",\"name\":";
    AppendJsonString(call.name, &content);
    content += "}\n</tool_call>";
  }
  return content;
}

class ChatTemplateRenderer : public Renderer {
 public:
  explicit ChatTemplateRenderer(const ChatTemplate* chat_template) : template_(chat_template) {
    if (template_ == nullptr) {
      owned_ = MakeChatMlTemplate();
      template_ = owned_.get();
    }
  }
  Provider provider() const override { return Provider::kChatTemplate; }
  std::string_view separator() const override { return ""; }

  void RenderHead(const PromptHead& head, const RenderOptions&, RenderedPart* out) const override {
    template_->AppendStart(&out->bytes);
    // Block 1 text, then the tools as canonical JSON lines, in the first system message.
    std::string block1 = JoinParts(head.block1);
    std::string tools;
    if (!head.tools.empty()) {
      tools = "# Tools\n";
      for (const auto& t : head.tools) tools += "\n" + CanonicalToolJson(t);
    }
    std::string content = block1;
    if (!content.empty() && !tools.empty()) content += "\n\n";
    size_t tools_at = content.size();
    content += tools;
    if (!content.empty()) {
      size_t at = template_->AppendMessage("system", content, &out->bytes);
      RenderedPart parts;
      AppendParts(head.block1, /*escape=*/false, &parts);
      for (auto span : parts.spans) {
        span.begin += at;
        span.end += at;
        out->spans.push_back(span);
      }
      if (!tools.empty()) {
        out->spans.push_back(
            Span("tools", Volatility::kStatic, "", at + tools_at, at + tools_at + tools.size()));
      }
    }
    std::string block2 = JoinParts(head.block2);
    if (!block2.empty()) {
      size_t at = template_->AppendMessage("system", block2, &out->bytes);
      RenderedPart parts;
      AppendParts(head.block2, /*escape=*/false, &parts);
      for (auto span : parts.spans) {
        span.begin += at;
        span.end += at;
        out->spans.push_back(span);
      }
    }
  }

  void AppendHistory(std::span<const Message> messages, bool, std::string* out) const override {
    for (const auto& m : messages) template_->AppendMessage(RoleName(m.role), Content(m), out);
  }

  void RenderTail(std::span<const Message> new_input, bool, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (size_t i = 0; i < new_input.size(); ++i) {
      const Message& m = new_input[i];
      std::string content = Content(m);
      size_t tail_at = std::string::npos;
      if (i + 1 == new_input.size() && m.role == Role::kUser && !tail.empty()) {
        content += "\n\n";
        tail_at = content.size();
        content.append(tail);
      }
      size_t begin = b.size();
      size_t at = template_->AppendMessage(RoleName(m.role), content, &b);
      if (tail_at == std::string::npos) {
        out->spans.push_back(Span(m.role == Role::kContextUpdate ? "epoch" : "input",
                                  Volatility::kTurn, "", begin, b.size()));
      } else {
        out->spans.push_back(Span("input", Volatility::kTurn, "", begin, at + tail_at - 2));
        out->spans.push_back(
            Span("tail", Volatility::kTurn, "", at + tail_at, at + tail_at + tail.size()));
      }
    }
    if (!tail.empty() && (new_input.empty() || new_input.back().role != Role::kUser)) {
      size_t at = template_->AppendMessage("user", tail, &b);
      out->spans.push_back(Span("tail", Volatility::kTurn, "", at, at + tail.size()));
    }
    template_->AppendGenerationPrompt(&b);
  }

 private:
  const ChatTemplate* template_;
  std::unique_ptr<ChatTemplate> owned_;
};

}  // namespace

std::unique_ptr<Renderer> MakeChatTemplateRenderer(const ChatTemplate* chat_template) {
  return std::make_unique<ChatTemplateRenderer>(chat_template);
}

}  // namespace render_internal
}  // namespace strata
