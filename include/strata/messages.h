// messages.h: the provider-neutral conversation a session keeps (SPEC.md §4, "history").
//
// The history is append-only between baseline rebuilds: a rendered message never changes, which is
// what lets the renderers cache its bytes. A turn's "new input" is the run of non-assistant
// messages after the last assistant message (the user message, or the tool results of a tool-call
// streak, plus any context-update notice); everything before it is history proper.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace strata {

enum class Role {
  kUser,           // a user message
  kAssistant,      // model output: text and/or tool calls
  kToolResult,     // the result of one tool call (tool_call_id names it)
  kContextUpdate,  // a context-epoch notice: changed sources, rendered as a system message
};

struct ToolCall {
  std::string id;                                       // provider call id, e.g. "toolu_01"
  std::string name;                                     // the tool's name
  nlohmann::json arguments = nlohmann::json::object();  // serialized canonically
};

struct Message {
  Role role = Role::kUser;
  std::string text;                  // UTF-8; for kToolResult the result text
  std::vector<ToolCall> tool_calls;  // kAssistant only
  std::string tool_call_id;          // kToolResult only
  bool is_error = false;             // kToolResult only: the tool failed
};

}  // namespace strata
