// openai_responses.cc: the Responses request parser (see openai_responses.h).
#include "serve/openai_responses.h"

#include <fmt/format.h>

#include "serve/request_json.h"

namespace strata::serve {
namespace {

using nlohmann::json;

ApiResult<bool> AddMessageItem(JsonObjectReader& r, const std::string& path, ServeRequest* out) {
  std::string role;
  STRATA_API_TRY(r.RequiredString("role", &role));
  const json* content = r.Raw("content");
  auto text = TextContent(content != nullptr ? *content : json(), path + ".content", "\n\n");
  if (!text) return tl::unexpected(text.error());
  if (role == "system" || role == "developer") {
    AddSystemText(std::move(*text), out);
    return true;
  }
  if (role != "user" && role != "assistant")
    return BadRequest(path + ".role", "must be one of system, developer, user, assistant");
  Message m;
  m.role = role == "user" ? Role::kUser : Role::kAssistant;
  m.text = std::move(*text);
  out->messages.push_back(std::move(m));
  return true;
}

ApiResult<bool> AddFunctionCall(JsonObjectReader& r, ServeRequest* out) {
  ToolCall call;
  STRATA_API_TRY(r.RequiredString("call_id", &call.id));
  STRATA_API_TRY(r.RequiredString("name", &call.name));
  std::string arguments = "{}";
  STRATA_API_TRY(r.String("arguments", &arguments));
  call.arguments = nlohmann::json::parse(arguments, nullptr, false);
  if (!call.arguments.is_object()) call.arguments = json::object();
  // Consecutive assistant items (text, then function calls) form one assistant message.
  if (out->messages.empty() || out->messages.back().role != Role::kAssistant) {
    Message m;
    m.role = Role::kAssistant;
    out->messages.push_back(std::move(m));
  }
  out->messages.back().tool_calls.push_back(std::move(call));
  return true;
}

ApiResult<bool> AddItem(const json& item, const std::string& path, ServeRequest* out) {
  JsonObjectReader r(item, path, {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.ExpectObject("an input item"));
  std::string type = "message";
  STRATA_API_TRY(r.String("type", &type));
  if (type == "message") return AddMessageItem(r, path, out);
  if (type == "function_call") return AddFunctionCall(r, out);
  if (type == "function_call_output") {
    Message result;
    result.role = Role::kToolResult;
    STRATA_API_TRY(r.RequiredString("call_id", &result.tool_call_id));
    const json* output = r.Raw("output");
    auto text = TextContent(output != nullptr ? *output : json(), path + ".output");
    if (!text) return tl::unexpected(text.error());
    result.text = std::move(*text);
    out->messages.push_back(std::move(result));
    return true;
  }
  if (type == "reasoning") return true;  // the model's earlier reasoning: not replayed
  return BadRequest(path + ".type", fmt::format("'{}' items are not supported", type));
}

ApiResult<bool> AddTools(JsonObjectReader& r, ServeRequest* out) {
  STRATA_API_TRY_ASSIGN(const json* tools, r.Array("tools"));
  for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
    JsonObjectReader t((*tools)[i], r.PathOf("tools", i), {}, JsonStrictness::kLenient);
    STRATA_API_TRY(t.ExpectObject("a tool"));
    std::string type = "function";
    STRATA_API_TRY(t.String("type", &type));
    if (type != "function") {
      // Built-in and namespace tools are not offered to the model; the request says so.
      std::string name;
      STRATA_API_TRY(t.String("name", &name));
      out->ignored_tools.push_back(name.empty() ? type : type + ":" + name);
      continue;
    }
    auto tool = ToolFields(t, "parameters");
    if (!tool) return tl::unexpected(tool.error());
    out->tools.push_back(std::move(*tool));
  }
  return true;
}

}  // namespace

ApiResult<ServeRequest> ParseResponses(const json& body) {
  ServeRequest out;
  out.api = Api::kResponses;
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  std::string previous;
  STRATA_API_TRY(r.String("previous_response_id", &previous));
  if (!previous.empty())
    return BadRequest("previous_response_id",
                      "is not supported: this server keeps no responses (send the whole input)");
  STRATA_API_TRY(r.String("instructions", &out.system));
  const json* input = r.Raw("input");
  if (input == nullptr) return BadRequest("input", "is required (a string or an array of items)");
  if (input->is_string()) {
    Message m;
    m.text = input->get<std::string>();
    out.messages.push_back(std::move(m));
  } else if (input->is_array()) {
    for (size_t i = 0; i < input->size(); ++i) {
      auto ok = AddItem((*input)[i], r.PathOf("input", i), &out);
      if (!ok) return tl::unexpected(ok.error());
    }
  } else {
    return BadRequest("input", "must be a string or an array of items");
  }
  if (out.messages.empty()) return BadRequest("input", "holds no message");
  if (auto ok = AddTools(r, &out); !ok) return tl::unexpected(ok.error());
  if (const json* choice = r.Raw("tool_choice")) out.tool_choice = ToolChoiceOf(*choice);
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  STRATA_API_TRY(ReadSampling(r, "max_output_tokens", "", &out));
  return out;
}

}  // namespace strata::serve
