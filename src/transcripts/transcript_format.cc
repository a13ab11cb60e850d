// transcript_format.cc: telling a log's format from its first lines (accounting.h
// DetectTranscriptFormat), so that `strata replay` and `strata explain --log` read a Claude Code
// log or a Codex rollout without --format.
//
// Each format has a member no other format's line carries; the first line that shows one decides
// (a Claude Code log may open with lines of its own bookkeeping, a Codex rollout with its
// session_meta). Only the first kLinesRead non-blank lines are read: the answer never depends on
// how long the log is.
#include <nlohmann/json.hpp>
#include <optional>

#include "strata/accounting.h"
#include "transcripts/transcript.h"

namespace strata {
namespace {

constexpr int kLinesRead = 20;

bool Has(const nlohmann::json& j, const char* key) { return j.contains(key); }

bool TypeIn(const nlohmann::json& j, std::initializer_list<std::string_view> types) {
  if (!j.contains("type") || !j["type"].is_string()) return false;
  const std::string& t = j["type"].get_ref<const std::string&>();
  for (std::string_view x : types) {
    if (t == x) return true;
  }
  return false;
}

// The format one JSON object shows, or nullopt when it shows none.
std::optional<TranscriptFormat> FormatOf(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  // recorded_requests.h: {"api", "request", "usage", ...}.
  if (Has(j, "api") && Has(j, "request")) return TranscriptFormat::kRecorded;
  // OpenHands output.jsonl: one instance per line.
  if (Has(j, "instance_id") && Has(j, "history")) return TranscriptFormat::kOpenHands;
  // A SWE-agent .traj written on one line.
  if (Has(j, "trajectory") || (Has(j, "history") && Has(j, "info"))) {
    return TranscriptFormat::kSweAgent;
  }
  // Codex rollouts: {"timestamp", "type", "payload"} with Codex's record types.
  if (Has(j, "payload") &&
      TypeIn(j, {"session_meta", "response_item", "turn_context", "event_msg", "compacted"})) {
    return TranscriptFormat::kCodex;
  }
  // Claude Code: every line names its session or message (uuid, sessionId, leafUuid for a
  // summary line, messageId for a file-history snapshot), and a conversation line carries the
  // API's message object (strata's events carry `text`).
  if (Has(j, "type") &&
      (Has(j, "uuid") || Has(j, "sessionId") || Has(j, "leafUuid") || Has(j, "messageId") ||
       Has(j, "parentUuid") || (Has(j, "message") && j["message"].is_object()))) {
    return TranscriptFormat::kClaudeCode;
  }
  // strata's own events: {"type": context | user | assistant | tool_result, "text", "time", ...}.
  if (TypeIn(j, {"context", "user", "assistant", "tool_result"})) return TranscriptFormat::kStrata;
  return std::nullopt;
}

}  // namespace

Result<TranscriptFormat> DetectTranscriptFormat(std::string_view log, std::string_view path) {
  size_t pos = 0;
  int read = 0;
  bool first_parsed = false;  // the first non-blank line is a JSON value of its own
  while (pos < log.size() && read < kLinesRead) {
    size_t end = log.find('\n', pos);
    if (end == std::string_view::npos) end = log.size();
    std::string_view line = log.substr(pos, end - pos);
    pos = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (++read == 1) first_parsed = !j.is_discarded();
    if (j.is_discarded()) continue;  // a line cut short, or one line of a pretty-printed document
    if (auto f = FormatOf(j)) return *f;
  }
  if (read == 0) {
    return MakeError(ErrorKind::kInvalidArgument, "no model requests found: the log is empty",
                     {std::string(path)});
  }
  // A document over several lines (a SWE-agent .traj is written indented).
  if (!first_parsed) {
    auto j = nlohmann::json::parse(log, nullptr, false);
    if (auto f = FormatOf(j)) return *f;
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   std::string("cannot tell which log this is from its first lines: give "
                               "--format (") +
                       kTranscriptFormatsHelp + ")",
                   {std::string(path)});
}

}  // namespace strata
