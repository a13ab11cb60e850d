// request_json.h: reading the members every API's request shares, with errors that name the
// member (the JSON path, e.g. 'messages[2].content'): text given as a string or an array of text
// parts, JSON Schemas, sampling settings. Built on base/json_reader.h (lenient: members strata
// does not use are ignored).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/json_reader.h"
#include "wire/serve_request.h"

namespace strata::serve {

// A parse error of base/json_reader as a 400 naming the member.
ApiError ToApiError(const Error& error);

// Propagates a Status / Result error of the JSON reader as an ApiError.
#define STRATA_API_TRY(expr)                                    \
  do {                                                          \
    if (auto strata_api_st = (expr); !strata_api_st)            \
      return tl::unexpected(ToApiError(strata_api_st.error())); \
  } while (0)

// Moves the value of a Result into `lhs`, or returns its error as an ApiError.
#define STRATA_API_TRY_ASSIGN(lhs, expr) \
  STRATA_API_TRY_ASSIGN_IMPL(STRATA_CONCAT(strata_api_, __LINE__), lhs, expr)
#define STRATA_API_TRY_ASSIGN_IMPL(tmp, lhs, expr)          \
  auto tmp = (expr);                                        \
  if (!tmp) return tl::unexpected(ToApiError(tmp.error())); \
  lhs = std::move(*tmp)

// Whether member `key` is present and not null (a null member is taken as absent).
bool Given(JsonObjectReader& reader, std::string_view key);

// The body as a JSON object. Errors: 400 "invalid JSON at line:col" or "must be a JSON object".
ApiResult<nlohmann::json> ParseBody(std::string_view body);

// Text given as a string or as an array of parts whose text-bearing ones ({"type": "text" |
// "input_text" | "output_text", "text": ...}) are joined by `separator`; other part types
// (images, documents) are refused by name. `path` names the member in errors.
ApiResult<std::string> TextContent(const nlohmann::json& value, const std::string& path,
                                   std::string_view separator = "");
// The same for a member that may be absent (nullptr: ""), read in place: a request's text is held
// once more as the string, never as a copy of its JSON too.
ApiResult<std::string> TextContent(const nlohmann::json* value, const std::string& path,
                                   std::string_view separator = "");

// Members of the sampling settings shared by the APIs: temperature, top_p, seed, stop (string or
// array of strings) and the token limit under `max_key` (and `alt_max_key` when not empty).
Status ReadSampling(JsonObjectReader& reader, std::string_view max_key,
                    std::string_view alt_max_key, ServeRequest* out);

// A structured-output format ({"type": "text" | "json_object" | "json_schema"}) as out->grammar:
// text sets none, json_object the grammar of any JSON object, json_schema the grammar of `schema`
// (where the API puts it; nullptr when absent: 400). `path` names the format in errors.
ApiResult<bool> ReadOutputFormat(const nlohmann::json& format, const std::string& path,
                                 const nlohmann::json* schema, ServeRequest* out);

// A JSON Schema as out->grammar (400 naming `path` when common cannot convert it).
ApiResult<bool> SchemaGrammar(const nlohmann::json& schema, const std::string& path,
                              ServeRequest* out);

// llama-server's `grammar` member (GBNF text, start rule root) as out->grammar; 400 when another
// structured-output member already set one.
ApiResult<bool> ReadGrammar(JsonObjectReader& reader, ServeRequest* out);

// OpenAI's reasoning effort (`value`: Chat's reasoning_effort, Responses' reasoning.effort, named
// `path`), as llama-server reads it: "none" renders the template with thinking off, another
// non-empty string becomes the template's reasoning_effort variable. A non-string is 400.
ApiResult<bool> ReadReasoningEffort(const nlohmann::json& value, const std::string& path,
                                    ServeRequest* out);

// A tool definition's members: `name` (required), `description`, and the JSON Schema under
// `schema_key` (absent means {"type":"object"}; present, it must be an object).
ApiResult<ToolDefinition> ToolFields(JsonObjectReader& reader, std::string_view schema_key);

// "auto" / "none" / "required" / "any" (Anthropic), or an object naming a type.
ToolChoice ToolChoiceOf(const nlohmann::json& value);

// A system or developer message: before the first conversation message it joins `system` (blank
// line between parts), later it becomes a Role::kContextUpdate message.
void AddSystemText(std::string text, ServeRequest* out);

}  // namespace strata::serve
