// messages.cc: the tool-result pairing rule, written once: which assistant message a tool result
// answers, and which calls of it are still waiting for their result.
#include <algorithm>
#include <set>

#include "strata/prompt.h"

namespace strata {

const Message* AskingMessage(std::span<const Message> history) {
  for (size_t i = history.size(); i-- > 0;) {
    if (history[i].role == Role::kToolResult) continue;
    return history[i].role == Role::kAssistant ? &history[i] : nullptr;
  }
  return nullptr;
}

bool AnswersToolCall(std::span<const Message> history, std::string_view tool_call_id) {
  const Message* asking = AskingMessage(history);
  return asking != nullptr &&
         std::any_of(asking->tool_calls.begin(), asking->tool_calls.end(),
                     [&](const ToolCall& call) { return call.id == tool_call_id; });
}

std::vector<std::string> UnansweredToolCalls(std::span<const Message> history) {
  const Message* asking = AskingMessage(history);
  if (asking == nullptr) return {};
  std::set<std::string_view> answered;
  for (const Message* m = asking + 1; m != history.data() + history.size(); ++m) {
    answered.insert(m->tool_call_id);  // every message after the asking one is a tool result
  }
  std::vector<std::string> open;
  for (const ToolCall& call : asking->tool_calls) {
    if (!answered.count(call.id)) open.push_back(call.id);
  }
  return open;
}

}  // namespace strata
