// json_lines.h (private): what the transcript readers share: a JSONL log split into parsed lines
// (each through ParseJson of base/json_reader.h, so a syntax error names path:line:col and why),
// the loop that feeds them to a reader, and token counts read with one range.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "base/json_reader.h"
#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

struct JsonLine {
  Location where;  // the file and the 1-based line (blank lines counted)
  nlohmann::json value;
};

// The non-blank lines of `text`, each one JSON object. Errors: kParse at the line for text that is
// not JSON or a value that is not an object.
Result<std::vector<JsonLine>> ParseJsonLines(std::string_view text, std::string_view path);

// Feeds each line of `jsonl` to `reader.Line(const JsonLine&)` (a Status) and returns
// `reader.Finish()` (the Transcript); the first error stops the reading.
template <class Reader>
Result<Transcript> ReadJsonLines(std::string_view jsonl, std::string_view path, Reader reader) {
  STRATA_TRY_ASSIGN(std::vector<JsonLine> lines, ParseJsonLines(jsonl, path));
  for (const JsonLine& line : lines) STRATA_TRY(reader.Line(line));
  return reader.Finish();
}

// The largest token count a log may give (10^12): larger is a corrupt log, and sums stay exact.
inline constexpr int64_t kMaxTokenCount = 1'000'000'000'000;

// The counts `names` of the object member `key` of `r`, or nullopt when `key` is absent or null.
// Errors (naming the member path, at r's location): `key` is not an object; a count that is not
// an integer from 0 to kMaxTokenCount (a string, a negative, a fraction, 1e30). An absent count
// is 0. kStrict: an unknown member of `key` is an error too.
Result<std::optional<std::array<size_t, 3>>> ReadTokenCounts(
    JsonObjectReader& r, std::string_view key, const std::array<std::string_view, 3>& names,
    JsonStrictness strictness);

}  // namespace strata
