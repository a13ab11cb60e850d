// conversation_template.cc: whole conversations through the model's chat template and replies
// parsed back, both by llama.cpp's common library (see conversation_template.h). This file
// includes common's headers, which carry their own JSON library behind a wrapper: it includes no
// strata header that brings in nlohmann/json.
#include "local/conversation_template.h"

#include <chat.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <exception>

namespace strata {

struct ConversationTemplate::Impl {
  common_chat_templates_ptr templates;
};

ConversationTemplate::ConversationTemplate(std::unique_ptr<Impl> impl, std::string source)
    : impl_(std::move(impl)), source_(std::move(source)) {}
ConversationTemplate::~ConversationTemplate() = default;

Result<std::unique_ptr<ConversationTemplate>> ConversationTemplate::Make(
    const llama_model* model, const std::string& source) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->templates = common_chat_templates_init(model, source);
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the chat template does not parse: {}", e.what()));
  }
  std::string text = common_chat_templates_source(impl->templates.get());
  std::unique_ptr<ConversationTemplate> out(
      new ConversationTemplate(std::move(impl), std::move(text)));
  // The probe: a conversation rendered with and without one tool.
  TemplateConversation probe;
  probe.messages = {{"system", "s", "", {}, "", ""}, {"user", "u", "", {}, "", ""}};
  auto without = out->Apply(probe, true);
  probe.tools = {{"strata_probe_tool", "d", R"({"type":"object"})"}};
  auto with = out->Apply(probe, true);
  out->describes_tools_ = !without || !with || with->text != without->text;
  try {
    out->supports_thinking_ =
        common_chat_templates_support_enable_thinking(out->impl_->templates.get());
  } catch (const std::exception&) {
    out->supports_thinking_ = false;  // the probe conversation does not render: no switch
  }
  return out;
}

namespace {

common_chat_msg ToCommon(const TemplateMessage& m) {
  common_chat_msg out;
  out.role = m.role;
  out.content = m.content;
  out.reasoning_content = m.reasoning;
  out.tool_call_id = m.tool_call_id;
  out.tool_name = m.tool_name;
  for (const TemplateToolCall& call : m.tool_calls)
    out.tool_calls.push_back({call.name, call.arguments, call.id});
  return out;
}

// The "# Tools" system text for a template that does not describe tools (see the header).
std::string ToolsText(const std::vector<TemplateTool>& tools) {
  std::string out =
      "# Tools\n\nYou may call one or more functions to assist with the user query. The "
      "functions, one JSON object per line:\n<tools>\n";
  for (const TemplateTool& t : tools) {
    out += fmt::format(
        R"({{"type":"function","function":{{"name":{},"description":{},"parameters":{}}}}})",
        common_json::make(t.name).dump_safe(), common_json::make(t.description).dump_safe(),
        t.parameters.empty() ? "{}" : t.parameters);
    out += "\n";
  }
  return out +
         "</tools>\n\nTo call a function, answer with <tool_call>{\"name\": NAME, \"arguments\": "
         "{...}}</tool_call>.";
}

common_chat_tool_choice ToCommon(TemplateToolChoice choice) {
  switch (choice) {
    case TemplateToolChoice::kRequired:
      return COMMON_CHAT_TOOL_CHOICE_REQUIRED;
    case TemplateToolChoice::kNone:
      return COMMON_CHAT_TOOL_CHOICE_NONE;
    case TemplateToolChoice::kAuto:
      break;
  }
  return COMMON_CHAT_TOOL_CHOICE_AUTO;
}

}  // namespace

Result<RenderedPrompt> ConversationTemplate::Render(const TemplateConversation& conversation,
                                                    bool add_generation_prompt) const {
  if (describes_tools_ || conversation.tools.empty())
    return Apply(conversation, add_generation_prompt);
  TemplateConversation described = conversation;
  const std::string tools = ToolsText(conversation.tools);
  if (!described.messages.empty() && described.messages[0].role == "system") {
    described.messages[0].content += "\n\n" + tools;
  } else {
    described.messages.insert(described.messages.begin(), {"system", tools, "", {}, "", ""});
  }
  described.tools.clear();
  return Apply(described, add_generation_prompt);
}

Result<RenderedPrompt> ConversationTemplate::Apply(const TemplateConversation& conversation,
                                                   bool add_generation_prompt) const {
  common_chat_templates_inputs inputs;
  for (const TemplateMessage& m : conversation.messages) inputs.messages.push_back(ToCommon(m));
  for (const TemplateTool& t : conversation.tools)
    inputs.tools.push_back({t.name, t.description, t.parameters});
  inputs.tool_choice = ToCommon(conversation.tool_choice);
  inputs.use_jinja = true;
  inputs.add_generation_prompt = add_generation_prompt;
  inputs.enable_thinking = conversation.enable_thinking;
  inputs.reasoning_format = conversation.extract_reasoning ? COMMON_REASONING_FORMAT_DEEPSEEK
                                                           : COMMON_REASONING_FORMAT_NONE;
  if (!conversation.reasoning_effort.empty()) {
    inputs.chat_template_kwargs["reasoning_effort"] =
        nlohmann::ordered_json(conversation.reasoning_effort).dump();
  }
  inputs.now = std::chrono::system_clock::time_point{};  // determinism: no clock in the prompt
  try {
    common_chat_params params = common_chat_templates_apply(impl_->templates.get(), inputs);
    RenderedPrompt out;
    out.text = std::move(params.prompt);
    out.stops = std::move(params.additional_stops);
    out.generation_prompt = std::move(params.generation_prompt);
    out.format = static_cast<int>(params.format);
    out.parser = std::move(params.parser);
    out.extract_reasoning = conversation.extract_reasoning;
    out.thinking_start = std::move(params.thinking_start_tag);
    out.thinking_end = std::move(params.thinking_end_tags);
    return out;
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the chat template fails on this conversation: {}", e.what()));
  }
}

struct ReplyParser::Impl {
  common_chat_parser_params params;
  common_chat_msg previous;
};

ReplyParser::ReplyParser(const RenderedPrompt& prompt, bool parse_tool_calls)
    : impl_(std::make_unique<Impl>()) {
  impl_->params.format = static_cast<common_chat_format>(prompt.format);
  impl_->params.generation_prompt = prompt.generation_prompt;
  impl_->params.parse_tool_calls = parse_tool_calls;
  impl_->params.reasoning_format =
      prompt.extract_reasoning ? COMMON_REASONING_FORMAT_DEEPSEEK : COMMON_REASONING_FORMAT_NONE;
  if (!prompt.parser.empty()) impl_->params.parser.load(prompt.parser);
}
ReplyParser::~ReplyParser() = default;

std::vector<ReplyDelta> ReplyParser::Update(const std::string& generated, bool partial) {
  common_chat_msg now;
  try {
    now = common_chat_parse(generated, partial, impl_->params);
  } catch (const std::exception&) {
    if (partial) return {};  // an unfinished construct: wait for more text
    now = common_chat_msg{};
    now.content = generated;  // the final text does not parse: hand it over as text
  }
  for (size_t i = 0; i < now.tool_calls.size(); ++i) {
    if (now.tool_calls[i].id.empty()) now.tool_calls[i].id = fmt::format("call_{}", i);
  }
  std::vector<ReplyDelta> out;
  for (const common_chat_msg_diff& d : common_chat_msg_diff::compute_diffs(impl_->previous, now)) {
    ReplyDelta delta;
    delta.content = d.content_delta;
    delta.reasoning = d.reasoning_content_delta;
    if (d.tool_call_index != std::string::npos) {
      delta.tool_index = static_cast<int>(d.tool_call_index);
      delta.tool_id = d.tool_call_delta.id;
      delta.tool_name = d.tool_call_delta.name;
      delta.tool_arguments = d.tool_call_delta.arguments;
    }
    out.push_back(std::move(delta));
  }
  reply_.content = now.content;
  reply_.reasoning = now.reasoning_content;
  reply_.tool_calls.clear();
  for (const common_chat_tool_call& c : now.tool_calls)
    reply_.tool_calls.push_back({c.id, c.name, c.arguments});
  impl_->previous = std::move(now);
  return out;
}

}  // namespace strata
