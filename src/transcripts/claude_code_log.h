// claude_code_log.h (private): reads Claude Code session logs (~/.claude/projects/*/*.jsonl) into
// a Transcript (format: docs/replay.md, "claude-code").
//
// One request per requestId: Claude Code logs each content block of one API response on its own
// line with the same requestId, interleaved with the tool results, and they are regrouped. User
// text, tool results and the usage Anthropic returned (input + cache read + cache creation tokens)
// are kept; thinking blocks are not replayed. Sidechain (subagent) lines in a main session file are
// skipped; a subagent's own file (every line `isSidechain: true`) is read as its conversation.
// Lines without a requestId or message id are each their own request. Lenient
// (base/json_reader.h kLenient): unknown members are ignored, but a member the reader uses with the
// wrong type (a usage count that is a string, negative or fractional) is an error at path:line.
#pragma once

#include <string_view>

#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

Result<Transcript> ImportClaudeCode(std::string_view jsonl, std::string_view path);

// Both conversations of one file, read in one pass: the main one (lines without isSidechain) and
// the sidechain lines (older Claude Code logged its subagents' requests in the session's file),
// each an empty transcript when the file has none of its lines.
// `session_id`: the first sessionId the lines give ("" when none does): an older flat subagent
// file (<project>/agent-<id>.jsonl) gives the session it ran in.
struct ClaudeCodeChains {
  Transcript main, sidechain;
  std::string session_id;
};
Result<ClaudeCodeChains> ImportClaudeCodeChains(std::string_view jsonl, std::string_view path);

}  // namespace strata
