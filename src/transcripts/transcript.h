// transcript.h (private): agent session transcripts, the provider-neutral input of replay
// (formats: docs/replay.md).
//
// A Transcript is the record of a session: the context the harness had (model, persona, tools,
// cwd, instruction sources) and the messages in order, each assistant message standing for one
// model request made just before it. One reader per log format fills it:
//   strata       strata_transcript.h: strata's own JSONL transcript format (strict);
//   claude-code  claude_code_log.h: Claude Code session logs (lenient);
//   codex        codex_rollout.h: Codex CLI rollouts (lenient);
//   openhands    openhands_output.h: OpenHands evaluation output.jsonl (lenient);
//   swe-agent    swe_agent_trajectory.h: SWE-agent .traj trajectories (lenient);
//   recorded     recorded_requests.h: `strata record` files (their conversation).
// Redacted spans of sanitised logs are expanded by redaction.h.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/accounting.h"
#include "strata/assemble.h"
#include "strata/status.h"

namespace strata {

enum class TranscriptEventKind {
  kContext,     // the harness's context changed (replaces the fields the line names)
  kUser,        // a user message starts a turn
  kAssistant,   // a model request was made, and this is its answer
  kToolResult,  // the result of one tool call
  kCompaction,  // the harness replaced the conversation so far by `message.text` (a summary and
                // the user messages it kept); later requests start from the context and it
};

struct TranscriptEvent {
  TranscriptEventKind kind = TranscriptEventKind::kUser;
  std::string time;       // RFC 3339; may be empty (then the previous event's time is used)
  double time_s = 0;      // seconds since 1970 (0 when `time` is empty)
  ContextInputs context;  // kContext
  Message message;        // kUser, kAssistant, kToolResult
  std::optional<RecordedUsage> recorded;  // kAssistant
  // kAssistant, when the log tells (0 otherwise), seconds since 1970: when the request was sent
  // (the time of the line it answers, by the log's parent link) and when its answer completed
  // (its last line). A request sent before the previous one's answer completed ran concurrently.
  double sent_s = 0, done_s = 0;
  // kAssistant: the provider's request id when the log gives one (Claude Code's requestId; a
  // resumed session's file repeats its parent's requests, `strata usage` counts each once), the
  // answer's output tokens, and how many of the cache write were 1 h entries (Claude Code's
  // usage.cache_creation.ephemeral_1h_input_tokens; the rest are 5 min).
  std::string request_id;
  size_t output_tokens = 0;
  size_t recorded_write_1h = 0;
};

struct Transcript {
  std::string format;  // a TranscriptFormatName
  // The provider the harness sent its requests to, when the log says or the format implies it:
  // "anthropic" (Claude Code), "openai" (Codex, unless its session_meta names another
  // model_provider, whose name is kept); "" unknown.
  std::string provider;
  std::vector<TranscriptEvent> events;
  std::vector<std::string> warnings;  // "path:line: ..." notes, e.g. a last line cut short
  // Lines of the log not read: not a JSON object (json_lines.h ForEachJsonLine), each named in
  // `warnings` (the first of a file, with the count).
  size_t skipped_lines = 0;
  size_t RequestCount() const;  // number of kAssistant events
};

// An event of `kind` at `time` (RFC 3339 or ""), its message's role set from the kind and its
// text to `text`.
TranscriptEvent MakeEvent(TranscriptEventKind kind, std::string time, std::string text = {});

// Appends `event` to `out`; consecutive user messages are joined into one (a harness may log a
// command and its expansion as two).
void AppendEvent(Transcript* out, TranscriptEvent event);

// Parses `log` (bytes in `format`; `path` labels errors, kParse with the line number).
// `instance` picks one instance of an OpenHands output.jsonl (empty: its only one); for other
// formats it must be empty (kInvalidArgument otherwise).
Result<Transcript> ParseTranscript(std::string_view log, std::string_view path,
                                   TranscriptFormat format, std::string_view instance = {});

// Which --format reads which log, for the errors that ask for one: "claude-code for Claude Code
// session logs, codex for Codex rollouts, ..., strata for strata's JSONL".
extern const char kTranscriptFormatsHelp[];

// kInvalidArgument unless `transcript` holds a model request: an empty file, or a log read with
// the wrong format (the message says which formats read which logs). `path` labels the error.
Status ExpectRequests(const Transcript& transcript, std::string_view path);

// Reads `path` ("-": standard input) and parses it as `format` (a TranscriptFormatName).
Result<Transcript> LoadTranscript(const std::filesystem::path& path, std::string_view format);

// Seconds since 1970 of an RFC 3339 date-time (millisecond precision); nullopt when it is not one.
std::optional<double> ParseRfc3339Seconds(std::string_view text);

}  // namespace strata
