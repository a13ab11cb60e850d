// request_json.cc: the request members the APIs share (see request_json.h).
#include "serve/request_json.h"

#include <fmt/format.h>

#include "serve/body_error.h"

namespace strata::serve {

ApiError ToApiError(const Error& error) {
  ApiError out{400, "invalid_request_error", error.message, ""};
  if (error.message.starts_with("'")) {
    const size_t end = error.message.find('\'', 1);
    if (end != std::string::npos) out.param = error.message.substr(1, end - 1);
  }
  return out;
}

ApiResult<nlohmann::json> ParseBody(std::string_view body) {
  auto parsed = ParseJson(body, "request body");
  if (!parsed) return tl::unexpected(DescribeBodyError(body, parsed.error()));
  if (!parsed->is_object()) {
    return tl::unexpected(
        ApiError{400, "invalid_request_error", "the body must be a JSON object", ""});
  }
  return std::move(*parsed);
}

ApiResult<std::string> TextContent(const nlohmann::json& value, const std::string& path,
                                   std::string_view separator) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return std::string();
  if (!value.is_array()) return BadRequest(path, "must be a string or an array of text parts");
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    const nlohmann::json& part = value[i];
    const std::string at = fmt::format("{}[{}]", path, i);
    if (i > 0) out += separator;
    if (part.is_string()) {
      out += part.get<std::string>();
      continue;
    }
    if (!part.is_object() || !part.contains("type") || !part["type"].is_string())
      return BadRequest(at, "must be an object with a string 'type'");
    const std::string type = part["type"].get<std::string>();
    if (type != "text" && type != "input_text" && type != "output_text")
      return BadRequest(at + ".type",
                        fmt::format("'{}' parts are not supported (text only)", type));
    if (!part.contains("text") || !part["text"].is_string())
      return BadRequest(at + ".text", "must be a string");
    out += part["text"].get<std::string>();
  }
  return out;
}

Status ReadSampling(JsonObjectReader& reader, std::string_view max_key,
                    std::string_view alt_max_key, ServeRequest* out) {
  int64_t max_tokens = 0;
  STRATA_TRY(reader.Int(max_key, &max_tokens, 1, 1 << 24));
  if (!alt_max_key.empty() && max_tokens == 0)
    STRATA_TRY(reader.Int(alt_max_key, &max_tokens, 1, 1 << 24));
  out->max_tokens = static_cast<int>(max_tokens);
  for (auto [key, field] : {std::pair{"temperature", &out->temperature}, {"top_p", &out->top_p}}) {
    const nlohmann::json* v = reader.Raw(key);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_number()) return reader.Fail(key, "must be a number");
    *field = v->get<double>();
  }
  int64_t seed = -1;
  STRATA_TRY(reader.Int("seed", &seed, INT64_MIN, INT64_MAX));
  if (seed >= 0) out->seed = static_cast<uint32_t>(seed);
  const nlohmann::json* stop = reader.Raw("stop");
  if (stop == nullptr) stop = reader.Raw("stop_sequences");
  if (stop != nullptr && stop->is_string()) {
    out->stop.push_back(stop->get<std::string>());
  } else if (stop != nullptr && !stop->is_null()) {
    if (!stop->is_array()) return reader.Fail("stop", "must be a string or an array of strings");
    for (const nlohmann::json& s : *stop) {
      if (!s.is_string()) return reader.Fail("stop", "must be a string or an array of strings");
      out->stop.push_back(s.get<std::string>());
    }
  }
  return {};
}

ApiResult<ToolDefinition> ToolFields(JsonObjectReader& reader, std::string_view schema_key) {
  ToolDefinition tool;
  STRATA_API_TRY(reader.RequiredString("name", &tool.name));
  STRATA_API_TRY(reader.String("description", &tool.description));
  const nlohmann::json* schema = reader.Raw(schema_key);
  if (schema != nullptr && !schema->is_null() && !schema->is_object())
    return BadRequest(reader.PathOf(schema_key), "must be a JSON Schema object");
  tool.input_schema =
      schema != nullptr && !schema->is_null() ? *schema : nlohmann::json{{"type", "object"}};
  return tool;
}

ToolChoice ToolChoiceOf(const nlohmann::json& value) {
  std::string name;
  if (value.is_string()) name = value.get<std::string>();
  if (value.is_object() && value.contains("type") && value["type"].is_string())
    name = value["type"].get<std::string>();
  if (name == "none") return ToolChoice::kNone;
  if (name == "required" || name == "any" || name == "function" || name == "tool")
    return ToolChoice::kRequired;
  return ToolChoice::kAuto;
}

void AddSystemText(std::string text, ServeRequest* out) {
  if (out->messages.empty()) {
    if (!out->system.empty() && !text.empty()) out->system += "\n\n";
    out->system += text;
    return;
  }
  Message m;
  m.role = Role::kContextUpdate;
  m.text = std::move(text);
  out->messages.push_back(std::move(m));
}

}  // namespace strata::serve
