// json_lines.h (private): what the transcript readers share: a JSONL log split into parsed lines
// (each through ParseJson of base/json_reader.h, so a syntax error names path:line:col and why),
// the loop that feeds them to a reader, and token counts read with one range.
#pragma once

#include <array>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
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

// Calls `on_line` with each non-blank line of `text`, parsed, in order (one line in memory at a
// time). When `warnings` is not null (the logs other programs write): a last line without a
// newline that is not complete JSON (a log still being written) is skipped with a note; any other
// line that is not a JSON object (cut short by a crash, binary junk, a bare value) is skipped
// with one note for the file naming the first such line, its error and the count
// (BrokenLinesWarning; ccusage likewise skips only the line); a lone UTF-16 surrogate escape is
// read as U+FFFD (base/lone_surrogates.h) with one note for the file (LoneSurrogateWarning).
// Each skipped line adds 1 to `*skipped_lines` when given. `warnings` null (strata's own format):
// all of these are errors. Errors: kParse at path:line:col for text that is not JSON, at the line
// for a value that is not an object (strict only); errors of `on_line`, a member error without a
// column given the member's column (member_location.h).
Status ForEachJsonLine(std::string_view text, std::string_view path,
                       const std::function<Status(JsonLine&&)>& on_line,
                       std::vector<std::string>* warnings, size_t* skipped_lines = nullptr);

// "path:LINE: N of M lines are not a JSON object, skipped (the first on this line: ERROR); the
// other lines are read": the one warning of a file whose `lines` lines held `count` broken ones.
std::string BrokenLinesWarning(std::string_view path, int first_line, std::string_view first_error,
                               size_t count, int lines);

// "path:LINE: N lone UTF-16 surrogate(s) read as U+FFFD ...": the one warning of a file whose
// `lines` lines held `count` lone surrogate escapes, the first on `first_line`.
std::string LoneSurrogateWarning(std::string_view path, int first_line, size_t count, int lines);

// One JSON document (not JSON lines: a SWE-agent trajectory, an opencode message file) read as
// ParseJson reads it, but a lone surrogate escape as U+FFFD with a LoneSurrogateWarning in
// `warnings`. nullopt with ParseJson's error in `*error` when it is not JSON.
std::optional<nlohmann::json> ParseJsonDocumentReadingLoneSurrogates(
    std::string_view text, std::string_view path, std::vector<std::string>* warnings, Error* error);

// The non-blank lines of `text`, each one JSON object (ForEachJsonLine's rules).
Result<std::vector<JsonLine>> ParseJsonLines(std::string_view text, std::string_view path,
                                             std::vector<std::string>* warnings = nullptr);

// Feeds each line of `jsonl` to `reader.Line(const JsonLine&)` (a Status) and returns
// `reader.Finish()` (the Transcript), with the warnings of skipped lines in its warnings and their
// count in its skipped_lines; the first error stops the reading.
template <class Reader>
Result<Transcript> ReadJsonLines(std::string_view jsonl, std::string_view path, Reader reader) {
  std::vector<std::string> warnings;
  size_t skipped = 0;
  STRATA_TRY(ForEachJsonLine(
      jsonl, path, [&](JsonLine&& line) { return reader.Line(line); }, &warnings, &skipped));
  Transcript t = reader.Finish();
  t.warnings.insert(t.warnings.end(), warnings.begin(), warnings.end());
  t.skipped_lines += skipped;
  return t;
}

// The object member `key` of `r` as a reader of the same strictness; nullopt when absent or null
// (Codex writes "info": null before the first request). Errors when present with another type.
Result<std::optional<JsonObjectReader>> ChildObject(JsonObjectReader& r, std::string_view key,
                                                    JsonStrictness strictness);

// The largest token count a log may give (10^12): larger is a corrupt log, and sums stay exact.
inline constexpr int64_t kMaxTokenCount = 1'000'000'000'000;

// The counts `names` of the object member `key` of `r`, or nullopt when `key` is absent or null.
// Errors (naming the member path, at r's location): `key` is not an object; a count that is not
// an integer from 0 to kMaxTokenCount (a string, a negative, a fraction, 1e30). An absent count
// is 0; an empty name is skipped. kStrict: an unknown member of `key` is an error too.
Result<std::optional<std::array<size_t, 3>>> ReadTokenCounts(
    JsonObjectReader& r, std::string_view key, const std::array<std::string_view, 3>& names,
    JsonStrictness strictness);

// The count `key` of `r`: 0 when absent; the errors of ReadTokenCounts.
Result<size_t> ReadTokenCount(JsonObjectReader& r, std::string_view key);

// "path:LINE: 'message.usage.input_tokens' must be an integer from 0 to ...: the line's usage is
// refused (not counted); the rest of the log is read": the warning of a line whose token counts
// ReadTokenCounts refused (`error`, at the line), for the lenient readers of usage.
std::string RefusedUsageWarning(const Error& error);

}  // namespace strata
