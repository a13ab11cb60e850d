// prompt_plan.cc: request -> template conversation -> rendered prompt and its shared cuts (see
// prompt_plan.h).
#include "local/prompt_plan.h"

#include <algorithm>
#include <map>

namespace strata::serve {
namespace {

TemplateMessage ToTemplate(const Message& m, const std::map<std::string, std::string>& names,
                           const std::string* reasoning) {
  TemplateMessage out;
  out.content = m.text;
  switch (m.role) {
    case Role::kUser:
      out.role = "user";
      break;
    case Role::kAssistant:
      out.role = "assistant";
      if (reasoning != nullptr) out.reasoning = *reasoning;
      for (const ToolCall& c : m.tool_calls)
        out.tool_calls.push_back({c.id, c.name, c.arguments_json});
      break;
    case Role::kToolResult: {
      out.role = "tool";
      out.tool_call_id = m.tool_call_id;
      auto it = names.find(m.tool_call_id);
      if (it != names.end()) out.tool_name = it->second;
      break;
    }
    case Role::kContextUpdate:
      out.role = "system";
      break;
  }
  return out;
}

TemplateToolChoice ToTemplate(ToolChoice choice) {
  if (choice == ToolChoice::kRequired) return TemplateToolChoice::kRequired;
  if (choice == ToolChoice::kNone) return TemplateToolChoice::kNone;
  return TemplateToolChoice::kAuto;
}

// The prefix of `conversation` holding its first `n` messages, rendered without a generation
// prompt; its length when that render is a byte prefix of `full`, else 0.
size_t CutAt(const ConversationTemplate& chat_template, TemplateConversation conversation, size_t n,
             const std::string& full) {
  conversation.messages.resize(n);
  auto rendered = chat_template.Render(conversation, /*add_generation_prompt=*/false);
  if (!rendered || rendered->text.empty() || rendered->text.size() >= full.size()) return 0;
  return full.starts_with(rendered->text) ? rendered->text.size() : 0;
}

}  // namespace

TemplateConversation ToTemplateConversation(const ServeRequest& request) {
  TemplateConversation out;
  if (!request.system.empty()) out.messages.push_back({"system", request.system, "", {}, "", ""});
  std::map<std::string, std::string> names;  // tool call id -> tool name
  for (size_t i = 0; i < request.messages.size(); ++i) {
    const Message& m = request.messages[i];
    for (const ToolCall& c : m.tool_calls) names[c.id] = c.name;
    const auto reasoning = request.reasoning.find(i);
    out.messages.push_back(
        ToTemplate(m, names, reasoning == request.reasoning.end() ? nullptr : &reasoning->second));
  }
  for (const ToolDefinition& t : request.tools)
    out.tools.push_back({t.name, t.description, t.input_schema_json});
  out.tool_choice = ToTemplate(request.tool_choice);
  return out;
}

ApiResult<PromptPlan> PlanPrompt(const ConversationTemplate& chat_template,
                                 const ServeRequest& request, const ThinkingOptions& thinking) {
  TemplateConversation conversation = ToTemplateConversation(request);
  conversation.enable_thinking = thinking.enable && request.enable_thinking.value_or(true);
  conversation.extract_reasoning = thinking.extract;
  conversation.reasoning_effort = request.reasoning_effort;
  auto rendered = chat_template.Render(conversation, /*add_generation_prompt=*/true);
  if (!rendered) return BadRequest("messages", rendered.error().message);
  PromptPlan plan;
  plan.prompt = std::move(*rendered);
  const std::string& full = plan.prompt.text;
  const size_t n_system = request.system.empty() ? 0 : 1;
  if (n_system > 0 || !conversation.tools.empty()) {
    if (size_t cut = CutAt(chat_template, conversation, n_system, full)) plan.cuts.push_back(cut);
  }
  size_t last_assistant = 0;
  for (size_t i = 0; i < conversation.messages.size(); ++i) {
    if (conversation.messages[i].role == "assistant") last_assistant = i + 1;
  }
  if (last_assistant > n_system && last_assistant < conversation.messages.size()) {
    if (size_t cut = CutAt(chat_template, conversation, last_assistant, full))
      plan.cuts.push_back(cut);
  }
  std::sort(plan.cuts.begin(), plan.cuts.end());
  plan.cuts.erase(std::unique(plan.cuts.begin(), plan.cuts.end()), plan.cuts.end());
  return plan;
}

}  // namespace strata::serve
