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
    return AppendMessageParts(role, std::span<const std::string_view>(&content, 1), out);
  }
  // Room for the whole message first: appending a huge content, then the end marker, would grow
  // the buffer twice (two copies of the message held at once).
  size_t AppendMessageParts(std::string_view role, std::span<const std::string_view> content,
                            std::string* out) const override {
    size_t size = 0;
    for (std::string_view part : content) size += part.size();
    constexpr std::string_view kStart = "<|im_start|>", kEnd = "<|im_end|>\n";
    out->reserve(out->size() + kStart.size() + role.size() + 1 + size + kEnd.size());
    out->append(kStart);
    out->append(role);
    *out += "\n";
    size_t at = out->size();
    for (std::string_view part : content) out->append(part);
    out->append(kEnd);
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

// A message's content is its text between what the Hermes-style format writes around it (tool
// results in <tool_response>, tool calls after the text); the text is not copied (it may be huge).
struct AroundText {
  std::string before, after;
};

AroundText Around(const Message& m) {
  if (m.role == Role::kToolResult) return {"<tool_response>\n", "\n</tool_response>"};
  AroundText around;
  bool any = !m.text.empty();
  for (const auto& call : m.tool_calls) {
    if (any) around.after += "\n";
    around.after += "<tool_call>\n{\"arguments\":";
    AppendCanonicalJsonText(call.arguments_json, &around.after);
    around.after += ",\"name\":";
    AppendJsonString(call.name, &around.after);
    around.after += "}\n</tool_call>";
    any = true;
  }
  return around;
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
    for (const auto& m : messages) {
      AroundText around = Around(m);
      const std::string_view parts[] = {around.before, m.text, around.after};
      template_->AppendMessageParts(RoleName(m.role), parts, out);
    }
  }

  void RenderTail(std::span<const Message> new_input, bool, std::string_view tail,
                  const RenderOptions&, size_t, RenderedPart* out) const override {
    std::string& b = out->bytes;
    for (size_t i = 0; i < new_input.size(); ++i) {
      const Message& m = new_input[i];
      AroundText around = Around(m);
      const bool with_tail = i + 1 == new_input.size() && m.role == Role::kUser && !tail.empty();
      std::vector<std::string_view> parts = {around.before, m.text, around.after};
      if (with_tail) parts.insert(parts.end(), {"\n\n", tail});
      const size_t content = around.before.size() + m.text.size() + around.after.size();
      size_t begin = b.size();
      size_t at = template_->AppendMessageParts(RoleName(m.role), parts, &b);
      if (!with_tail) {
        out->spans.push_back(Span(m.role == Role::kContextUpdate ? "epoch" : "input",
                                  Volatility::kTurn, "", begin, b.size()));
      } else {
        out->spans.push_back(Span("input", Volatility::kTurn, "", begin, at + content));
        out->spans.push_back(
            Span("tail", Volatility::kTurn, "", at + content + 2, at + content + 2 + tail.size()));
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
