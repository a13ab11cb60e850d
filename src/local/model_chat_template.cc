// model_chat_template.cc: the model's Jinja chat template through llama.cpp's common library,
// probed once for the one-message-at-a-time property (see model_chat_template.h). This file
// includes common's headers, which carry their own JSON library behind a wrapper: it includes no
// strata header that brings in nlohmann/json.
#include "local/model_chat_template.h"

#include <chat.h>
#include <fmt/format.h>

#include <array>
#include <exception>
#include <map>
#include <string>
#include <vector>

namespace strata {
namespace {

constexpr std::string_view kWhitespace = " \t\r\n";

struct Wrapper {
  std::string open, close;
  bool operator==(const Wrapper&) const = default;
};

// What the probe learned: the start text and each role's wrappers.
struct Shape {
  std::string start;
  std::map<std::string, Wrapper, std::less<>> roles;
  std::string generation_prompt;
  bool trims = false;  // the template strips whitespace around the content
};

// The probe conversation: every role strata renders, each at a first and a later position.
constexpr std::array<const char*, 7> kProbeRoles = {"system", "system", "user",     "assistant",
                                                    "system", "user",   "assistant"};

std::string Sentinel(size_t i) { return fmt::format("strata-probe-{}", i); }
std::string Padded(size_t i) { return " \n" + Sentinel(i) + "\n "; }

class JinjaRender {
 public:
  JinjaRender(common_chat_templates_ptr templates, bool thinking)
      : templates_(std::move(templates)), thinking_(thinking) {}

  // The render of the first `n` probe messages.
  Result<std::string> Render(size_t n, bool add_generation_prompt) const {
    common_chat_templates_inputs inputs;
    for (size_t i = 0; i < n; ++i) {
      common_chat_msg msg;
      msg.role = kProbeRoles[i];
      msg.content = Padded(i);
      inputs.messages.push_back(std::move(msg));
    }
    inputs.use_jinja = true;
    inputs.add_generation_prompt = add_generation_prompt;
    inputs.enable_thinking = thinking_;
    inputs.now = std::chrono::system_clock::time_point{};  // determinism: no clock in the prompt
    try {
      return common_chat_templates_apply(templates_.get(), inputs).prompt;
    } catch (const std::exception& e) {
      return MakeError(
          ErrorKind::kInvalidArgument,
          fmt::format("the model's chat template fails to render {} message(s): {}", n, e.what()));
    }
  }

 private:
  common_chat_templates_ptr templates_;
  bool thinking_;
};

tl::unexpected<Error> Refuse(size_t i, std::string_view rule) {
  return MakeError(
      ErrorKind::kInvalidArgument,
      fmt::format("the model's chat template cannot be rendered one message at a time: message "
                  "{} ({}) {}; strata needs a prefix that does not change with what follows it "
                  "(use a model whose template renders each message the same way wherever it "
                  "stands, or one without a template for ChatML)",
                  i, kProbeRoles[i], rule));
}

// Splits the text message `i` added into its wrappers (and the start text for message 0).
Status LearnMessage(size_t i, std::string_view added, Shape* shape) {
  const std::string padded = Padded(i), core = Sentinel(i);
  std::string_view content = padded;
  size_t at = added.find(content);
  bool trims = false;
  if (at == std::string_view::npos) {
    content = core;
    at = added.find(content);
    trims = true;
  }
  if (at == std::string_view::npos || added.find(content, at + 1) != std::string_view::npos)
    return Refuse(i, "does not show its content exactly once");
  if (i > 0 && trims != shape->trims) return Refuse(i, "trims its content unlike message 0");
  shape->trims = trims;
  Wrapper w{std::string(added.substr(0, at)), std::string(added.substr(at + content.size()))};
  auto [it, fresh] = shape->roles.emplace(kProbeRoles[i], w);
  if (i == 0) return {};  // message 0's open may hold the start text: settled by a later system
  if (fresh) return {};
  if (i == 1) {  // the second system message: message 0's open is start + this open
    const Wrapper first = it->second;
    if (first.close != w.close || !first.open.ends_with(w.open))
      return Refuse(i, "is wrapped unlike the first system message");
    shape->start = first.open.substr(0, first.open.size() - w.open.size());
    it->second = w;
    return {};
  }
  if (!(it->second == w)) return Refuse(i, "is wrapped unlike an earlier message of its role");
  return {};
}

Result<Shape> Probe(const JinjaRender& jinja) {
  Shape shape;
  std::string before;
  for (size_t i = 0; i < kProbeRoles.size(); ++i) {
    STRATA_TRY_ASSIGN(std::string through, jinja.Render(i + 1, false));
    if (!through.starts_with(before))
      return Refuse(i, "changes the text rendered for the messages before it");
    STRATA_TRY(LearnMessage(i, std::string_view(through).substr(before.size()), &shape));
    before = std::move(through);
  }
  STRATA_TRY_ASSIGN(std::string with_prompt, jinja.Render(kProbeRoles.size(), true));
  if (!with_prompt.starts_with(before))
    return Refuse(kProbeRoles.size() - 1, "is rendered differently before a generation prompt");
  shape.generation_prompt = with_prompt.substr(before.size());
  return shape;
}

class ModelChatTemplate : public ChatTemplate {
 public:
  explicit ModelChatTemplate(Shape shape) : shape_(std::move(shape)) {}
  std::string_view name() const override { return "model"; }
  size_t AppendMessage(std::string_view role, std::string_view content,
                       std::string* out) const override {
    auto it = shape_.roles.find(role);
    if (it == shape_.roles.end()) it = shape_.roles.find("user");
    if (shape_.trims) {
      const size_t first = content.find_first_not_of(kWhitespace);
      content = first == std::string_view::npos
                    ? std::string_view()
                    : content.substr(first, content.find_last_not_of(kWhitespace) - first + 1);
    }
    *out += it->second.open;
    const size_t at = out->size();
    out->append(content);
    *out += it->second.close;
    return at;
  }
  void AppendGenerationPrompt(std::string* out) const override { *out += shape_.generation_prompt; }
  void AppendStart(std::string* out) const override { *out += shape_.start; }

 private:
  Shape shape_;
};

}  // namespace

Result<std::unique_ptr<ChatTemplate>> MakeModelChatTemplate(const llama_model* model,
                                                            std::string_view source,
                                                            bool enable_thinking) {
  if (source.empty()) return MakeChatMlTemplate();
  common_chat_templates_ptr templates;
  try {
    templates = common_chat_templates_init(model, std::string(source));
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the model's chat template does not parse: {}", e.what()));
  }
  JinjaRender jinja(std::move(templates), enable_thinking);
  STRATA_TRY_ASSIGN(Shape shape, Probe(jinja));
  return std::unique_ptr<ChatTemplate>(std::make_unique<ModelChatTemplate>(std::move(shape)));
}

}  // namespace strata
