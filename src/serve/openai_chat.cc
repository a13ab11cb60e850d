// openai_chat.cc: the Chat Completions API: the request parser (see openai_chat.h) and the reply
// writer (a chat.completion object, or chat.completion.chunk SSE events ending in [DONE], with
// usage incl. prompt_tokens_details.cached_tokens).
#include "serve/openai_chat.h"

#include <fmt/format.h>

#include "serve/reply_writer.h"
#include "serve/request_json.h"

namespace strata::serve {
namespace {

using nlohmann::json;

ApiResult<ToolCall> ParseToolCall(const json& value, const std::string& path) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a tool call"));
  ToolCall call;
  STRATA_API_TRY(r.String("id", &call.id));
  const json* fn = r.Raw("function");
  if (fn == nullptr || !fn->is_object()) return BadRequest(path + ".function", "must be an object");
  JsonObjectReader f(*fn, path + ".function", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(f.RequiredString("name", &call.name));
  std::string arguments = "{}";
  STRATA_API_TRY(f.String("arguments", &arguments));
  call.arguments = ArgumentsObject(arguments);
  return call;
}

ApiResult<bool> ParseMessage(const json& value, const std::string& path, ServeRequest* out) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a message"));
  std::string role;
  STRATA_API_TRY(r.RequiredString("role", &role));
  const json* content = r.Raw("content");
  auto text = TextContent(content != nullptr ? *content : json(), path + ".content");
  if (!text) return tl::unexpected(text.error());
  Message m;
  m.text = std::move(*text);
  if (role == "system" || role == "developer") {
    AddSystemText(std::move(m.text), out);
    return true;
  } else if (role == "user") {
    m.role = Role::kUser;
  } else if (role == "assistant") {
    m.role = Role::kAssistant;
    STRATA_API_TRY_ASSIGN(const json* calls, r.Array("tool_calls"));
    for (size_t i = 0; calls != nullptr && i < calls->size(); ++i) {
      auto call = ParseToolCall((*calls)[i], r.PathOf("tool_calls", i));
      if (!call) return tl::unexpected(call.error());
      m.tool_calls.push_back(std::move(*call));
    }
  } else if (role == "tool") {
    m.role = Role::kToolResult;
    STRATA_API_TRY(r.RequiredString("tool_call_id", &m.tool_call_id));
  } else {
    return BadRequest(path + ".role", "must be one of system, developer, user, assistant, tool");
  }
  out->messages.push_back(std::move(m));
  return true;
}

ApiResult<ToolDefinition> ParseTool(const json& value, const std::string& path) {
  JsonObjectReader r(value, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("a tool"));
  const json* fn = r.Raw("function");
  if (fn == nullptr || !fn->is_object()) return BadRequest(path + ".function", "must be an object");
  JsonObjectReader f(*fn, path + ".function", {}, JsonStrictness::kLenient);
  ToolDefinition tool;
  STRATA_API_TRY(f.RequiredString("name", &tool.name));
  STRATA_API_TRY(f.String("description", &tool.description));
  auto schema = SchemaMember(f.Raw("parameters"), path + ".function.parameters");
  if (!schema) return tl::unexpected(schema.error());
  tool.input_schema = std::move(*schema);
  return tool;
}

}  // namespace

ApiResult<ServeRequest> ParseChatCompletions(const json& body) {
  ServeRequest out;
  out.api = Api::kChatCompletions;
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  STRATA_API_TRY_ASSIGN(const json* messages, r.Array("messages"));
  if (messages == nullptr || messages->empty())
    return BadRequest("messages", "is required (a non-empty array)");
  for (size_t i = 0; i < messages->size(); ++i) {
    auto ok = ParseMessage((*messages)[i], r.PathOf("messages", i), &out);
    if (!ok) return tl::unexpected(ok.error());
  }
  STRATA_API_TRY_ASSIGN(const json* tools, r.Array("tools"));
  for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
    auto tool = ParseTool((*tools)[i], r.PathOf("tools", i));
    if (!tool) return tl::unexpected(tool.error());
    out.tools.push_back(std::move(*tool));
  }
  if (const json* choice = r.Raw("tool_choice")) out.tool_choice = ToolChoiceOf(*choice);
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  if (const json* so = r.Raw("stream_options"); so != nullptr && so->is_object())
    out.include_usage = so->value("include_usage", false);
  STRATA_API_TRY(ReadSampling(r, "max_completion_tokens", "max_tokens", &out));
  return out;
}

}  // namespace strata::serve
