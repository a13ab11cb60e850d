// usage.h: `strata usage`: what the user's agent sessions cost and where their prompt cache broke,
// from the logs the harnesses keep on the user's machine (docs/usage.md).
//
// Reads, never writes (docs/usage.md, "Where the logs are"):
//   Claude Code  <home>/.claude/projects/<project>/<session>.jsonl, and its subagents'
//                <session>/subagents/*.jsonl (each its own cache chain, counted in the session);
//                $CLAUDE_CONFIG_DIR/projects when set
//   Codex        <home>/.codex/sessions/**/rollout-*.jsonl ($CODEX_HOME/sessions when set)
//   opencode     <home>/.local/share/opencode/storage/message/<session>/*.json, one file per
//   message
//                ($XDG_DATA_HOME/opencode when set)
// Each request's recorded figures (input, cache read, cache write, output) are summed per session
// and per day (UTC), priced by the model's list prices (ModelPrice), and checked for cache drops:
// a request that read less than the previous one of its chain left cached, with its cause from the
// log's evidence (replay.h DropCause; drop_cause rules in docs/replay.md, "Drops and their
// causes"): a compaction, a model change, a gap beyond the entries' TTL (5 min, or 1 h when the
// log recorded 1 h writes), a request sent before the previous answer completed (concurrent), or
// unexplained. A request a resumed session's file repeats (same request id) is counted once.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/accounting.h"
#include "strata/export.h"
#include "strata/replay.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

// List prices of a model, dollars per million tokens, and the cache multipliers (Anthropic's and
// OpenAI's pricing pages; docs/usage.md, "Prices"). `known` is false when the model id is not in
// the table: then the provider's default (anthropic: Sonnet; openai: GPT-5) is used.
struct ModelPrice {
  double input = 0, output = 0;
  double read_multiplier = 0.1, write_5m_multiplier = 1.25, write_1h_multiplier = 2.0;
  bool known = false;
};
ModelPrice PriceForModel(std::string_view model);

struct UsageOptions {
  std::filesystem::path home;  // where .claude, .codex and .local/share/opencode are looked for
  // Overrides of the three log roots (empty: from `home` and the environment as above).
  std::filesystem::path claude_projects, codex_sessions, opencode_storage;
  std::string since;    // "YYYY-MM-DD" or "YYYYMMDD" (UTC): requests before that day are skipped
  std::string project;  // keep sessions whose project path contains this text ("" all)
  // Called after each log file with (files done, files in all); may be empty.
  std::function<void(size_t, size_t)> progress;
};

struct UsageTotals {
  size_t requests = 0;
  size_t input_tokens = 0;  // whole prompts: uncached + cache read + cache write
  size_t cache_read_tokens = 0, cache_write_tokens = 0, output_tokens = 0;
  double cost = 0;       // dollars at list prices
  double lost_cost = 0;  // what the drops' lost tokens cost beyond a cache read
  std::array<DropTotal, kDropCauseCount> drops{};
  double HitRatio() const;  // cache read / input
  size_t LostTokens() const;
  void Add(const UsageTotals& other);
};

struct UsageRequest {
  std::string time;  // RFC 3339
  RecordedUsage usage;
  size_t output_tokens = 0;
  double cost = 0;
  std::optional<CacheDrop> drop;
};

// One cache chain: a session's main conversation, or one subagent's.
struct UsageChain {
  std::string label;  // "main" or the subagent file's name
  std::vector<UsageRequest> requests;
};

struct SessionUsage {
  std::string source;   // "claude-code", "codex", "opencode"
  std::string id;       // the session id (file name without .jsonl, or opencode's id)
  std::string project;  // the project directory (cwd), "" when the log does not say
  std::string path;     // the main log file (opencode: the message directory)
  std::string first_time, last_time;
  std::vector<std::string> models;  // in order of first use, log files read in path order
  UsageTotals totals;
  std::vector<UsageChain> chains;
};

struct DayUsage {
  std::string date;  // YYYY-MM-DD, UTC
  UsageTotals totals;
};

struct UsageReport {
  std::vector<SessionUsage> sessions;  // worst first: most lost cost, then most cost, then id
  std::vector<DayUsage> days;          // in date order
  UsageTotals totals;
  size_t files = 0;                   // log files read
  std::vector<std::string> warnings;  // "path:line: ..." a file skipped or a line cut short
};

// Scans the logs `options` names. A log that cannot be read is skipped with a warning naming it
// (the others still count). Errors: kInvalidArgument for a malformed `since`.
Result<UsageReport> ScanUsage(const UsageOptions& options);

// One row per session (worst first), one per day, and the totals with the tokens lost per cause.
std::string FormatUsageTable(const UsageReport& report);
// {"sessions":[...],"days":[...],"totals":{...},"warnings":[...]} (docs/usage.md states the
// fields).
std::string FormatUsageJson(const UsageReport& report);
// A self-contained HTML page (no network: inline CSS, inline SVG charts, one inline script for
// sorting): the totals, the day and session tables, and per session a chart of each request's
// cached, written and uncached tokens with the drops marked by cause.
std::string FormatUsageHtml(const UsageReport& report);
// Writes FormatUsageHtml(report) to `path` atomically (a reader sees the old file or the new one).
// Errors: kIo naming the path; the file is unchanged then.
Status WriteUsageHtml(const std::filesystem::path& path, const UsageReport& report);

}  // namespace strata
