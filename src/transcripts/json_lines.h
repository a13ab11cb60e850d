// json_lines.h (private): splits a JSONL log into parsed lines for the transcript readers. Every
// line goes through ParseJson (base/json_reader.h), so a syntax error names path:line:col and why.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace strata {

struct JsonLine {
  Location where;  // the file and the 1-based line (blank lines counted)
  nlohmann::json value;
};

// The non-blank lines of `text`, each one JSON object. Errors: kParse at the line for text that is
// not JSON or a value that is not an object.
Result<std::vector<JsonLine>> ParseJsonLines(std::string_view text, std::string_view path);

}  // namespace strata
