// transcript.h: agent session transcripts for `strata replay` (SPEC.md §6; format: docs/replay.md).
//
// A Transcript is the provider-neutral record of a session: the context the harness had (model,
// persona, tools, cwd, instruction sources) and the messages in order, each assistant message
// standing for one model request made just before it. Three readers fill it:
//   strata       strata's own JSONL transcript format (one event object per line);
//   claude-code  Claude Code session logs (~/.claude/projects/*/*.jsonl): one request per
//                requestId (its content blocks are logged one line each), user text, tool results,
//                and the usage Anthropic returned (input, cache read, cache creation tokens);
//   codex        Codex CLI rollouts: response_item messages, function calls and outputs,
//                turn_context (cwd, model) and token_count events (input and cached input tokens
//                of the last request, duplicates collapsed).
// Redacted text in the form "[REDACTED_<KIND> len=<N> sha=<H>]" (as in sanitised fixtures) is
// replaced by SynthesizeText(N, H): deterministic English-like text of exactly N bytes, so the
// token counts are plausible and identical across runs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/assemble.h"
#include "strata/status.h"

namespace strata {

// Usage figures the provider reported for one request, when the transcript records them.
struct RecordedUsage {
  size_t input_tokens = 0;  // the whole prompt (uncached + cache read + cache write)
  size_t cache_read_tokens = 0;
  size_t cache_write_tokens = 0;
};

enum class TranscriptEventKind {
  kContext,     // the harness's context changed (replaces the fields the line names)
  kUser,        // a user message starts a turn
  kAssistant,   // a model request was made, and this is its answer
  kToolResult,  // the result of one tool call
};

struct TranscriptEvent {
  TranscriptEventKind kind = TranscriptEventKind::kUser;
  std::string time;       // RFC 3339; may be empty (then the previous event's time is used)
  double time_s = 0;      // seconds since 1970 (0 when `time` is empty)
  ContextInputs context;  // kContext
  Message message;        // kUser, kAssistant, kToolResult
  std::optional<RecordedUsage> recorded;  // kAssistant
};

struct Transcript {
  std::string format;  // "strata", "claude-code" or "codex"
  std::vector<TranscriptEvent> events;
  size_t RequestCount() const;  // number of kAssistant events
};

// Parsers. `path` labels errors (kParse with the line number for malformed lines).
Result<Transcript> ParseStrataTranscript(std::string_view jsonl, std::string_view path);
Result<Transcript> ImportClaudeCode(std::string_view jsonl, std::string_view path);
Result<Transcript> ImportCodexRollout(std::string_view jsonl, std::string_view path);

// Reads `path` and parses it as `format` ("strata", "claude-code", "codex").
Result<Transcript> LoadTranscript(const std::filesystem::path& path, std::string_view format);

// Writes `transcript` in strata's JSONL format (ParseStrataTranscript reads it back).
std::string FormatStrataTranscript(const Transcript& transcript);

// Deterministic text of exactly `length` bytes (ASCII words, spaces and newlines) seeded by `seed`.
std::string SynthesizeText(size_t length, std::string_view seed);
// `text` with every "[REDACTED_<KIND> len=<N> sha=<H>]" replaced by SynthesizeText(N, H).
std::string ExpandRedactions(std::string_view text);

// Seconds since 1970 of an RFC 3339 date-time; nullopt when it is not one.
std::optional<double> ParseRfc3339Seconds(std::string_view text);

}  // namespace strata
