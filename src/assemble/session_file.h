// session_file.h: the JSON session file `strata assemble` reads (format and strictness:
// docs/assemble.md). The format is strata's own, so it is read strictly: a member the format does
// not have is an error naming the closest member it does have, and a member of the wrong type is
// an error naming its full path (`history[3].tool_calls[0].id`).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "strata/assemble.h"
#include "strata/status.h"

namespace strata {

struct SessionFile {
  ContextInputs inputs;
  TurnInputs turn;
  std::vector<Message> history;  // the conversation before the new user message
  std::string user;              // the new user message; empty: no new turn (e.g. mid-streak)
  AssembleOptions options;
};

// Parses session-file JSON. `path` labels errors (every error carries it). Errors:
//   kParse: malformed JSON (at the line and column where parsing failed); a member of the wrong
//     type ("'history[1].tool_calls[0].id' must be a string"); an unknown member ("'histroy' is
//     not a known member; did you mean 'history'? (known: ...)").
//   kInvalidArgument: a bad value: an unknown role, a `now` that is not an RFC 3339 date-time, an
//     unknown tool_order, a second tool with the same name, a tool result whose tool_call_id
//     answers no call of the preceding assistant message (AnswersToolCall, prompt.h),
//     options.max_tokens below 1 or beyond a 32-bit integer, options.long_ttl_breakpoints
//     outside 0-4.
Result<SessionFile> ParseSessionFile(std::string_view json_text, std::string_view path);

// Reads and parses the session file at `path`; "-" reads standard input (labelled "<stdin>" in
// errors). Errors: kNotFound / kIo / kLimit from reading (ReadInputBytes), then as
// ParseSessionFile.
Result<SessionFile> LoadSessionFile(const std::filesystem::path& path);

}  // namespace strata
