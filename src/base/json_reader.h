// json_reader.h: the one way strata reads JSON input, with one documented strictness.
//
// Every JSON strata reads (session files, its own transcripts, foreign logs, captured requests)
// goes through ParseJson, so a syntax error always carries `path:line:col` and a reason. Members
// are read through JsonObjectReader, which names the full path of a bad member
// (`history[3].tool_calls[0].id`) and the type it must have. Strictness:
//   - kStrict, for strata's own formats: a member the reader never asked for is an error that names
//     it and the closest known member ("did you mean 'tool_calls'?").
//   - kLenient, for formats other programs write (Claude Code logs, Codex rollouts, requests):
//   unknown
//     members are ignored, since those programs add members in every release; wrong types of the
//     members strata does read are still errors.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace strata {

// Parses `text` (UTF-8 JSON). `path` names the file in errors; `first_line` is the 1-based line of
// text[0] in that file (a JSONL line), so a location points at the real line. Errors: kParse with
// the line and column of the byte where parsing failed and nlohmann's reason.
Result<nlohmann::json> ParseJson(std::string_view text, std::string_view path, int first_line = 1);

// `s` with each byte that does not belong to well-formed UTF-8 written as the text "\xFF", so a
// message quoting input bytes is text (and can be written as JSON).
std::string EscapeInvalidUtf8(std::string_view s);

enum class JsonStrictness { kStrict, kLenient };

// Reads the members of one JSON object. `member_path` is the object's own path ("" at the top,
// "history[3]" below); `where` is the location errors carry (file, and line for JSONL).
// Each accessor leaves `*out` untouched when the member is absent and returns an error when it is
// present with the wrong type. Call Finish() after the last accessor (kStrict: unknown members).
class JsonObjectReader {
 public:
  JsonObjectReader(const nlohmann::json& object, std::string member_path, Location where,
                   JsonStrictness strictness);

  // Fails unless the value given at construction is an object; name it in the message ("a turn").
  Status ExpectObject(std::string_view what) const;

  bool Has(std::string_view key);
  Status String(std::string_view key, std::string* out);
  Status RequiredString(std::string_view key, std::string* out);
  Status Bool(std::string_view key, bool* out);
  // Integers in [min, max]; a fraction, a string or a value out of range is an error.
  Status Int(std::string_view key, int64_t* out, int64_t min = 0, int64_t max = INT64_MAX);
  Status StringArray(std::string_view key, std::vector<std::string>* out);
  // An object of string values, as (key, value) pairs in sorted key order.
  Status StringMap(std::string_view key, std::vector<std::pair<std::string, std::string>>* out);
  // The raw member (any type); nullptr when absent. Marks it as read.
  const nlohmann::json* Raw(std::string_view key);
  // An array member: nullptr when absent, an error when present and not an array.
  Result<const nlohmann::json*> Array(std::string_view key);

  // The path of member `key` ("history[3].id") and of element `index` of it
  // ("history[3].tools[0]").
  std::string PathOf(std::string_view key) const;
  std::string PathOf(std::string_view key, size_t index) const;
  const Location& where() const { return where_; }

  // An error of kind kParse at this object's location: "<path>: <message>".
  tl::unexpected<Error> Fail(std::string_view key, std::string_view message) const;

  // kStrict: the first member no accessor asked for, as an error naming the closest known member.
  Status Finish() const;

 private:
  const nlohmann::json* Find(std::string_view key);

  const nlohmann::json& object_;
  std::string path_;
  Location where_;
  JsonStrictness strictness_;
  std::vector<std::string> known_;  // every key an accessor asked for, present or not
};

// The candidate nearest to `word` by edit distance, or "" when none is within half its length.
std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace strata
