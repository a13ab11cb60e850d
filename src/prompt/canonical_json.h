// canonical_json.h: canonical JSON serialization for tool definitions, schemas, tool-call
// arguments, and every string the renderers write.
//
// A tool schema that means the same thing must always serialize to the same bytes, whatever order
// its keys arrived in and however a number was spelled, or a reconnecting tool server would move
// the cache prefix. The form follows RFC 8785 (JCS) in spirit: object members sorted by the UTF-8
// bytes of their keys, no insignificant whitespace, strings with only the mandatory escapes, and
// numbers in one spelling: integral values (|x| < 2^53) as integers, "-0" as 0, every other double
// in its shortest round-trip form (std::to_chars). Non-ASCII characters are written as UTF-8.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "strata/status.h"

namespace strata {

// Appends the canonical form of `value` to `*out`.
void AppendCanonicalJson(const nlohmann::json& value, std::string* out);

// The canonical form of `value` as a new string.
std::string CanonicalJson(const nlohmann::json& value);

// JSON text (ToolCall::arguments_json, ToolDefinition::input_schema_json, prompt.h) parsed: "" and
// null give an empty object. Errors: kParse at `label`:line:column where parsing stopped.
Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view label);

// Appends the canonical form of JSON text `text` ("" and null: {}). Text that is not JSON is
// appended as a JSON string holding it (so nothing is dropped) and the result is false.
bool AppendCanonicalJsonText(std::string_view text, std::string* out);

// Appends `text` escaped for the inside of a JSON string (no quotes): `"`, `\` and control
// characters below U+0020 are escaped (\n, \t, ... or \u00XX); everything else is copied. Escaping
// is per character, so escaping two pieces and concatenating equals escaping their concatenation;
// the renderers rely on that to give each layer its own byte range inside one JSON string.
void AppendJsonEscaped(std::string_view text, std::string* out);

// Appends `text` as a quoted JSON string.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace strata
