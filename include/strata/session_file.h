// session_file.h: the JSON session file `strata assemble` reads (format: docs/assemble.md), and
// the instruction sources of a project directory.
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

// Parses session-file JSON. `path` labels errors. Errors: kParse for malformed JSON (located at
// the line and column where parsing failed) or a member of the wrong type (the message names the
// member), kInvalidArgument for a bad value: an unknown role, a `now` that is not RFC 3339, an
// unknown tool_order, a second tool with the same name, a tool result whose tool_call_id answers
// no call of the preceding assistant message, options.max_tokens below 1, or
// options.long_ttl_breakpoints outside 0-4.
Result<SessionFile> ParseSessionFile(std::string_view json_text, std::string_view path);

// Reads and parses the session file at `path` (kNotFound / kIo from reading).
Result<SessionFile> LoadSessionFile(const std::filesystem::path& path);

// True for "YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)" (RFC 3339 date-time; 't'/'z' allowed).
bool IsRfc3339(std::string_view text);

// The instruction sources of project directory `project`, found by Discover (discover.h) with
// `project` as both the project root and the working directory: its AGENTS.md, CLAUDE.md and
// GEMINI.md (a symlinked pair once), local files and their `@path` imports, in precedence order;
// key = the source's display path ("AGENTS.md"). None when there are none. Errors: kNotFound when
// `project` does not exist, kInvalidArgument when it is not a directory.
// Discovery's diagnostics (paths relative to `project`) are appended to `diagnostics` when it is
// not null: an error-severity one means a file was refused (binary, invalid UTF-8, over the 4 MiB
// read limit, unreadable) and its text is missing from the result; a warning means a file was
// skipped or loaded with a caveat (e.g. a directory named AGENTS.md, a missing import); notes are
// informational (e.g. a generated copy of AGENTS.md skipped). Callers should show them: the
// sources alone cannot tell a missing AGENTS.md from a refused one.
Result<std::vector<InstructionSource>> LoadProjectInstructions(
    const std::filesystem::path& project, std::vector<Diagnostic>* diagnostics = nullptr);

}  // namespace strata
