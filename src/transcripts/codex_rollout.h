// codex_rollout.h (private): reads Codex CLI rollouts into a Transcript (format: docs/replay.md,
// "codex").
//
// session_meta gives the cwd and the base instructions (the persona); developer messages before
// task_started become rules and user-role context messages (AGENTS.md, environment) instruction
// sources; later messages, function and custom tool calls and their outputs form the conversation;
// each token_count event whose running total changed closes one request and records its
// last_token_usage (Codex repeats a snapshot unchanged: duplicates collapse); one that follows the
// output of a tool (Codex 0.171 writes an answer's count after the output of the tool it called)
// is the calling answer's. Lenient
// (base/json_reader.h kLenient): unknown members are ignored; a member the reader uses with the
// wrong type is an error at path:line.
#pragma once

#include <string_view>

#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

Result<Transcript> ImportCodexRollout(std::string_view jsonl, std::string_view path);

}  // namespace strata
