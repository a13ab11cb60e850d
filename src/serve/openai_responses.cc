// openai_responses.cc: the Responses request parser (see openai_responses.h).
#include "serve/openai_responses.h"

#include <fmt/format.h>

#include "serve/request_json.h"
#include "serve/request_members.h"

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

// `text`: its `format` (text, json_object, json_schema with the schema beside the type) as the
// grammar; `verbosity` has no effect; other members are refused.
ApiResult<bool> ReadText(const json& text, ServeRequest* out) {
  if (!text.is_object()) return BadRequest("text", "must be an object");
  for (const auto& [key, value] : text.items()) {
    if (key == "format" && !value.is_null()) {
      const json* schema =
          value.is_object() && value.contains("schema") ? &value["schema"] : nullptr;
      if (auto ok = ReadOutputFormat(value, "text.format", schema, out); !ok) return ok;
    } else if (key != "verbosity" && key != "format") {
      return BadRequest("text." + key, "is not a member strata serve knows (format, verbosity)");
    }
  }
  return true;
}
bool IsDisabled(const json& v) { return v == "disabled"; }
bool IsEmptyString(const json& v) { return v == ""; }

using enum MemberRule;
// OpenAI's create-response members; the sampling members are
// SamplingMembers() (docs/serve.md has the table).
constexpr MemberSpec kMembers[] = {
    {"model", kHonoured},
    {"input", kHonoured},
    {"instructions", kHonoured},
    {"tools", kHonoured},
    {"tool_choice", kHonoured},
    {"stream", kHonoured},
    {"max_output_tokens", kHonoured},
    {"stop", kHonoured},
    {"previous_response_id", kRefused, "this server keeps no responses (send the whole input)",
     IsEmptyString},
    {"conversation", kRefused, "this server keeps no conversations (send the whole input)"},
    {"background", kRefused, "responses run in the foreground (background must be false)", IsFalse},
    {"prompt", kRefused, "stored prompt templates are not available on a local server"},
    {"text", kHonoured},
    {"top_logprobs", kRefused, "log probabilities are not returned"},
    {"max_tool_calls", kRefused, "the number of tool calls is not bounded by this server"},
    {"truncation", kRefused,
     "the input is never truncated: a prompt over the context is refused (413)", IsDisabled},
    {"parallel_tool_calls", kNoEffect,
     "a reply holds the tool calls the model writes; false does not limit them to one"},
    {"reasoning", kNoEffect,
     "the model's chat template decides whether it reasons (the effort is not passed to it)"},
    {"include", kNoEffect,
     "no encrypted reasoning, logprobs or tool sources are produced that it could include"},
    {"metadata", kNoEffect, "tags of stored responses: this server stores none"},
    {"client_metadata", kNoEffect, "tags for the provider's logs"},
    {"store", kNoEffect, "this server stores no responses"},
    {"user", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"safety_identifier", kNoEffect, "an end-user id for the provider's abuse monitoring"},
    {"service_tier", kNoEffect, "there is one tier"},
    {"prompt_cache_key", kNoEffect,
     "every prefix is matched by its tokens, whatever the key (docs/serve.md)"},
    {"stream_options", kNoEffect, "its only option, include_obfuscation, pads events"},
};

}  // namespace

ApiResult<ServeRequest> ParseResponses(const json& body) {
  ServeRequest out;
  out.api = Api::kResponses;
  if (auto ok = CheckMembers(body, {kMembers, SamplingMembers()}, "Responses", &out.no_effect); !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
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
  if (const json* text = r.Raw("text"); text != nullptr && !text->is_null()) {
    if (auto ok = ReadText(*text, &out); !ok) return tl::unexpected(ok.error());
  }
  return out;
}

}  // namespace strata::serve
