// request_json.cc: the request members the APIs share (see request_json.h).
#include "wire/request_json.h"

#include <fmt/format.h>

#include "wire/body_error.h"
#include "wire/json_schema_grammar.h"

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

ApiResult<std::string> TextContent(const nlohmann::json* value, const std::string& path,
                                   std::string_view separator) {
  if (value == nullptr) return std::string();
  return TextContent(*value, path, separator);
}

bool Given(JsonObjectReader& reader, std::string_view key) {
  const nlohmann::json* v = reader.Raw(key);
  return v != nullptr && !v->is_null();
}

Status ReadSampling(JsonObjectReader& reader, std::string_view max_key,
                    std::string_view alt_max_key, ServeRequest* out) {
  int64_t max_tokens = 0;
  STRATA_TRY(reader.Int(max_key, &max_tokens, 1, 1 << 24));
  if (!alt_max_key.empty() && max_tokens == 0)
    STRATA_TRY(reader.Int(alt_max_key, &max_tokens, 1, 1 << 24));
  out->max_tokens = static_cast<int>(max_tokens);
  struct Real {
    const char* key;
    std::optional<double>* field;
    double min, max;
  };
  // Ranges: OpenAI's for its members (temperature 0-2, penalties -2-2); llama-server takes any
  // value of its own, and these bounds only keep the sampler's arithmetic meaningful.
  for (const Real& m : {Real{"temperature", &out->temperature, 0, 2},
                        {"top_p", &out->top_p, 0, 1},
                        {"min_p", &out->min_p, 0, 1},
                        {"repeat_penalty", &out->repeat_penalty, 0, 10},
                        {"presence_penalty", &out->presence_penalty, -2, 2},
                        {"frequency_penalty", &out->frequency_penalty, -2, 2}}) {
    const nlohmann::json* v = reader.Raw(m.key);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_number()) return reader.Fail(m.key, "must be a number");
    const double x = v->get<double>();
    if (x < m.min || x > m.max)
      return reader.Fail(m.key, fmt::format("must be between {} and {}", m.min, m.max));
    *m.field = x;
  }
  for (auto [key, field] :
       {std::pair{"top_k", &out->top_k}, {"repeat_last_n", &out->repeat_last_n}}) {
    int64_t n = -2;
    STRATA_TRY(reader.Int(key, &n, -1, 1 << 20));
    if (n != -2) *field = static_cast<int>(n);
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

ApiResult<bool> SchemaGrammar(const nlohmann::json& schema, const std::string& path,
                              ServeRequest* out) {
  if (!schema.is_object() && !schema.is_boolean())
    return BadRequest(path, "must be a JSON Schema object");
  if (!out->grammar.empty())
    return BadRequest(path, "only one structured-output member may be given");
  auto grammar = GrammarOfJsonSchema(schema.dump());
  if (!grammar) return BadRequest(path, grammar.error().message);
  out->grammar = std::move(*grammar);
  return true;
}

ApiResult<bool> ReadReasoningEffort(const nlohmann::json& value, const std::string& path,
                                    ServeRequest* out) {
  if (value.is_null()) return true;
  if (!value.is_string())
    return BadRequest(path, "must be a string (none, minimal, low, medium, high)");
  const std::string& effort = value.get_ref<const std::string&>();
  if (effort == "none") {
    out->enable_thinking = false;
  } else {
    out->reasoning_effort = effort;
  }
  return true;
}

ApiResult<bool> ReadGrammar(JsonObjectReader& r, ServeRequest* out) {
  std::string grammar;
  STRATA_API_TRY(r.String("grammar", &grammar));
  if (!grammar.empty() && !out->grammar.empty())
    return BadRequest("grammar", "only one structured-output member may be given");
  if (!grammar.empty()) out->grammar = std::move(grammar);
  return true;
}

ApiResult<bool> ReadOutputFormat(const nlohmann::json& format, const std::string& path,
                                 const nlohmann::json* schema, ServeRequest* out) {
  if (!format.is_object() || !format.contains("type") || !format["type"].is_string())
    return BadRequest(path, "must be an object with a string 'type'");
  const std::string type = format["type"].get<std::string>();
  if (type == "text") return true;
  if (type == "json_object") {
    // llama-server's json_object may carry a schema; without one, any JSON object.
    const nlohmann::json any = {{"type", "object"}};
    return SchemaGrammar(schema != nullptr && !schema->is_null() ? *schema : any, path, out);
  }
  if (type != "json_schema")
    return BadRequest(path + ".type", "must be text, json_object or json_schema");
  if (schema == nullptr || schema->is_null())
    return BadRequest(path, "json_schema: the schema is missing");
  return SchemaGrammar(*schema, path, out);
}

ApiResult<ToolDefinition> ToolFields(JsonObjectReader& reader, std::string_view schema_key) {
  ToolDefinition tool;
  STRATA_API_TRY(reader.RequiredString("name", &tool.name));
  STRATA_API_TRY(reader.String("description", &tool.description));
  const nlohmann::json* schema = reader.Raw(schema_key);
  if (schema != nullptr && !schema->is_null() && !schema->is_object())
    return BadRequest(reader.PathOf(schema_key), "must be a JSON Schema object");
  tool.input_schema_json =
      schema != nullptr && !schema->is_null() ? schema->dump() : R"({"type":"object"})";
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
