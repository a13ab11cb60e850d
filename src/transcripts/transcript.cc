// transcript.cc: what every transcript reader shares (transcript.h): event construction, the
// joining of consecutive user messages, and the choice of reader by format.
#include "transcripts/transcript.h"

#include "base/enum_names.h"
#include "base/time.h"
#include "io/file_io.h"
#include "transcripts/claude_code_log.h"
#include "transcripts/codex_rollout.h"
#include "transcripts/openhands_output.h"
#include "transcripts/recorded_requests.h"
#include "transcripts/strata_transcript.h"
#include "transcripts/swe_agent_trajectory.h"

namespace strata {
namespace {

constexpr EnumName<TranscriptFormat> kFormatNames[] = {
    {TranscriptFormat::kStrata, "strata"},       {TranscriptFormat::kClaudeCode, "claude-code"},
    {TranscriptFormat::kCodex, "codex"},         {TranscriptFormat::kRecorded, "recorded"},
    {TranscriptFormat::kOpenHands, "openhands"}, {TranscriptFormat::kSweAgent, "swe-agent"},
};

}  // namespace

const char* TranscriptFormatName(TranscriptFormat format) {
  return NameOf(kFormatNames, format).data();  // the table's literals end in NUL
}

Result<TranscriptFormat> ParseTranscriptFormat(std::string_view name) {
  return ParseName(kFormatNames, name, "transcript format");
}

size_t Transcript::RequestCount() const {
  size_t n = 0;
  for (const auto& e : events) n += e.kind == TranscriptEventKind::kAssistant;
  return n;
}

std::optional<double> ParseRfc3339Seconds(std::string_view text) {
  std::optional<int64_t> millis = ParseRfc3339Millis(text);
  if (!millis) return std::nullopt;
  return static_cast<double>(*millis) / 1000.0;
}

TranscriptEvent MakeEvent(TranscriptEventKind kind, std::string time, std::string text) {
  TranscriptEvent e;
  e.kind = kind;
  switch (kind) {
    case TranscriptEventKind::kContext:
    case TranscriptEventKind::kUser:
    case TranscriptEventKind::kCompaction:
      e.message.role = Role::kUser;
      break;
    case TranscriptEventKind::kAssistant:
      e.message.role = Role::kAssistant;
      break;
    case TranscriptEventKind::kToolResult:
      e.message.role = Role::kToolResult;
      break;
  }
  e.message.text = std::move(text);
  e.time = std::move(time);
  e.time_s = ParseRfc3339Seconds(e.time).value_or(0);
  return e;
}

void AppendEvent(Transcript* out, TranscriptEvent event) {
  if (event.kind == TranscriptEventKind::kUser && !out->events.empty() &&
      out->events.back().kind == TranscriptEventKind::kUser) {
    out->events.back().message.text += "\n\n" + event.message.text;
    return;
  }
  out->events.push_back(std::move(event));
}

Result<Transcript> ParseTranscript(std::string_view log, std::string_view path,
                                   TranscriptFormat format, std::string_view instance) {
  if (!instance.empty() && format != TranscriptFormat::kOpenHands) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--instance picks one instance of an OpenHands output.jsonl (--format "
                     "openhands); a " +
                         std::string(TranscriptFormatName(format)) + " log holds one session",
                     {std::string(path)});
  }
  switch (format) {
    case TranscriptFormat::kStrata:
      return ParseStrataTranscript(log, path);
    case TranscriptFormat::kClaudeCode:
      return ImportClaudeCode(log, path);
    case TranscriptFormat::kCodex:
      return ImportCodexRollout(log, path);
    case TranscriptFormat::kRecorded:
      return ImportRecorded(log, path);
    case TranscriptFormat::kOpenHands:
      return ImportOpenHands(log, path, instance);
    case TranscriptFormat::kSweAgent:
      return ImportSweAgentTrajectory(log, path);
  }
  return MakeError(ErrorKind::kInvalidArgument, "unknown transcript format");
}

const char kTranscriptFormatsHelp[] =
    "claude-code for Claude Code session logs, codex for Codex rollouts, recorded for `strata "
    "record` files, openhands for an OpenHands output.jsonl, swe-agent for a SWE-agent .traj, "
    "strata for strata's JSONL";

Status ExpectRequests(const Transcript& transcript, std::string_view path) {
  if (transcript.RequestCount() > 0) return {};
  return MakeError(ErrorKind::kInvalidArgument,
                   "no model requests found reading it as --format " + transcript.format +
                       ": check the format (" + kTranscriptFormatsHelp + "; see docs/replay.md)",
                   {std::string(path)});
}

Result<Transcript> LoadTranscript(const std::filesystem::path& path, std::string_view format) {
  STRATA_TRY_ASSIGN(TranscriptFormat parsed, ParseTranscriptFormat(format));
  STRATA_TRY_ASSIGN(std::string bytes, ReadInputBytes(path));
  return ParseTranscript(bytes, path.string(), parsed);
}

}  // namespace strata
