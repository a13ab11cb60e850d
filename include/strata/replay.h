// replay.h: cache accounting of logged sessions: `strata replay` (one log), `strata usage` (every
// harness log on the machine, below) and `strata explain` (why one request missed, below).
//
// `strata replay`: runs a session log through an assembly layout and a provider cache
// model and reports, per request and in total, the input, cache read, cache write and uncached
// tokens, the hit ratio and the cost (docs/replay.md states the rules and the log formats).
//
// Each model request of the log is replayed with one of three layouts:
//   recorded  (the default for `strata record` files) exactly what the client sent: each recorded
//             request's canonical prompt (tools, system, messages as the provider caches them,
//             its own cache_control breakpoints; docs/replay.md, "Canonical prompts");
//   strata    rebuilt by the ContextSession of assemble.h: stable tools and system blocks,
//             history, and the date/time in the volatile tail after the newest user message;
//   naive     rebuilt as a simple client sends it: today's date (the day, not the clock) and the
//             working directory at the top of the system prompt, then persona, rules and
//             instructions, tools in the order given, the renderer's breakpoints; it misses when
//             the day or the directory changes (a millisecond clock on top would miss on every
//             request and say nothing about real clients).
// The request is rendered for the cache model's API (anthropic: Messages with breakpoints;
// openai: Responses; deepseek: Chat Completions; block-hash and radix: ChatML text), tokenized
// with a real tokenizer (accounting.h), and passed to the cache model. Tokens never span a
// content-block boundary or a cache breakpoint (each block is tokenized on its own, as providers
// cache whole blocks), which also lets unchanged blocks reuse their tokens from the previous
// request.
//
// The cache models (docs/replay.md, "Cache models"):
//   anthropic  explicit breakpoints, at most 4 per request (later ones are ignored and noted); an
//              entry is the prefix up to a breakpoint, written only when it holds at least the
//              model's minimum cacheable tokens (1024; 2048 for Haiku 3/3.5; 4096 for Opus 4.5+
//              and Haiku 4.5); a read looks for a live entry at each breakpoint and at up to 20
//              block boundaries before it, and takes the longest; TTL 5 min or 1 h from the last
//              use (a hit refreshes it); writes cost 1.25x (5 min) / 2x (1 h), reads 0.1x.
//   openai     automatic for prompts of at least 1024 tokens; hits are the longest live prefix of
//              1024 + 128k tokens; retention 10 minutes from last use; reads 0.1x.
//   deepseek   automatic; 64-token storage units; retention 1 h; reads 0.1x.
//   block-hash vLLM-style: full 16-token blocks keyed by a hash chained through the parent block;
//              no expiry; optional LRU capacity.
//   radix      SGLang-style radix tree at token granularity; no expiry; optional LRU capacity.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/accounting.h"
#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

// ---- The layout ----

enum class ReplayLayout { kStrata, kNaive, kRecorded };
const char* ReplayLayoutName(ReplayLayout layout);  // "strata", "naive", "recorded"
Result<ReplayLayout> ParseReplayLayout(std::string_view name);

struct ReplayOptions {
  CacheModelOptions cache;
  ReplayLayout layout = ReplayLayout::kStrata;
  // anthropic: the first N breakpoints get a 1 h TTL; 0 with a log that recorded 1 h cache writes
  // (Claude Code): all of them.
  int long_ttl_breakpoints = 0;
  std::string model;  // overrides the transcript's model id when non-empty
  // Where cache.pricing comes from, for the report's `prices` line: "" the cache model's default
  // (DefaultPricing), else e.g. "claude-opus-4-5 list price" or "--price".
  std::string price_source;
  // Logs that omit the client's system prompt and tools (Claude Code, Codex): a stable stand-in
  // block of as many tokens as the first request's recorded input exceeds its modelled input is
  // added to the system text (docs/replay.md, "The unlogged prefix"). Off: the log as it is.
  // With it, a first request that recorded a cache read (a prefix the provider held before the
  // log starts: a subagent reading what its siblings cached) sets warm_prefix_tokens to that read.
  bool fill_unlogged_prefix = false;
  // A prefix cached before the log starts, in tokens: before the first request the cache model
  // is given a request of that request's first tokens up to it (anthropic: up to the last block
  // boundary or breakpoint at or below it), so the first request can read it. 0: an empty cache.
  size_t warm_prefix_tokens = 0;
  // OpenHands output.jsonl (TranscriptFormat::kOpenHands): the instance_id to replay; "" reads
  // the file's only instance.
  std::string instance;
  // Called with every rebuilt request (1-based index, bytes, layer map, breakpoints), e.g. to
  // write them out for `strata explain`. May be empty.
  std::function<void(size_t, std::string_view, const LayerMap&, const std::vector<Breakpoint>&)>
      on_request;
};

// ---- The report ----

// Why a request read less of the cache than the previous request left in it (docs/replay.md,
// "Drops and their causes"). The first six follow from the log and the cache model predicts them;
// the last two are what the model cannot predict.
enum class DropCause {
  kCompaction,      // the harness replaced the conversation by a summary (a new prefix)
  kTtlExpiry,       // the time since the previous request exceeds the entries' TTL / retention
  kToolsChange,     // the prompt changed inside the tool definitions
  kSystemChange,    // the prompt changed inside the system prompt (persona, rules, instructions)
  kMessagesChange,  // the prompt changed inside the earlier messages (history edited)
  kModelChange,     // another model id (caches are per model)
  kConcurrent,      // sent before the previous request's answer completed (its entry not yet there)
  kUnexplained,     // the provider read less and the log shows no reason
};
inline constexpr size_t kDropCauseCount = 8;
const char* DropCauseName(DropCause cause);  // "compaction", "ttl-expiry", "tools-change", ...

struct CacheDrop {
  DropCause cause = DropCause::kUnexplained;
  bool predicted = false;  // the cache model's read fell too (a cause the log shows)
  bool recorded = false;   // measured on the provider's recorded figures (else the model's)
  size_t held_tokens = 0;  // what the previous request left cached, in the figures' tokens:
                           // read + write (recorded automatic caches, which report no write:
                           // the longest minimum + k * granule prefix of its input; 0 below the
                           // minimum, so no drop follows a request too short to cache)
  size_t read_tokens = 0;  // what this request read, same tokens
  size_t lost_tokens = 0;  // held - read
  std::string detail;      // the evidence: "gap 6m 12s > TTL 5m", "tools at token 1234 (tools[3])"
};

struct TurnReport {
  size_t index = 0;                       // 1-based request number
  std::string time;                       // RFC 3339 of the request, when known
  CacheUsage usage;                       // the model's figures
  size_t ideal_read_tokens = 0;           // tokens shared with the previous request (upper bound)
  std::optional<RecordedUsage> recorded;  // the provider's own figures, when the log has them
  size_t recorded_write_1h = 0;  // of recorded->cache_write_tokens, the 1 h entries (Claude Code)
  // The log shows a compaction since the previous request (the transcript readers' compaction
  // event: Claude Code's compact_boundary and summary, Codex's `compacted` item): this request
  // starts a new prefix, opened by the summary. `strata usage` and explain read the same event.
  bool after_compaction = false;
  // Set when the request read less than the previous one left cached, beyond a tolerance of 2%
  // and one cache granule: on the recorded figures when both requests recorded usage (any fall,
  // not only below half), else on the model's. The cause comes from the log's evidence.
  std::optional<CacheDrop> drop;
};

struct DropTotal {
  size_t count = 0;
  size_t lost_tokens = 0;
};

struct ReplayTotals {
  size_t input_tokens = 0, cache_read_tokens = 0, cache_write_tokens = 0, uncached_tokens = 0;
  size_t ideal_read_tokens = 0;
  double cost = 0;
  double hit_ratio = 0;        // cache_read / input
  double ideal_hit_ratio = 0;  // ideal_read / input
  bool has_recorded = false;
  RecordedUsage recorded;        // sums over the requests that recorded usage
  size_t recorded_write_1h = 0;  // of recorded.cache_write_tokens, the 1 h entries
  double recorded_hit_ratio = 0;
  // Over all the requests whose recorded cache read is > 0: the mean of |modelled read -
  // recorded read| / recorded read, and how many there were; the same without the requests whose
  // drop the model did not predict (concurrent, unexplained), and how many those were.
  double mean_read_error = 0;
  size_t cached_requests = 0;
  double mean_read_error_predictable = 0;
  size_t unpredicted_drops = 0;
  // Drops by cause (index: DropCause), and the recorded prompt cost (dollars): what the session
  // paid for its prompts by the recorded figures (uncached input, reads, 5 min and 1 h writes at
  // their multipliers; no output), and what the lost tokens cost beyond a cache read (written
  // again, or sent uncached).
  std::array<DropTotal, kDropCauseCount> drops{};
  double recorded_cost = 0;
  double lost_cost = 0;
};

struct ReplayReport {
  std::string transcript_format;
  std::string layout;
  std::string provider;  // cache model name
  std::string rules;     // one line naming the cache model's rules
  // The prices the costs use: "input $3.00/MTok, cache read 0.1x, write 1.25x (5 min) / 2x (1 h):
  // the anthropic default" (ReplayOptions::price_source names the source).
  std::string prices;
  std::string tokenizer;  // Tokenizer::name()
  std::vector<TurnReport> turns;
  ReplayTotals totals;
  size_t bytes_tokenized = 0;     // request bytes that went through the tokenizer (memo misses)
  size_t request_bytes = 0;       // all request bytes
  size_t prefix_fill_tokens = 0;  // the stand-in for an unlogged prefix (fill_unlogged_prefix)
  size_t prefix_warm_tokens = 0;  // the prefix cached before the first request (warm_prefix_tokens)
  std::vector<std::string> warnings;  // "path:line: ..." notes on the log (a last line cut short)
};

// Reads `log` (the bytes of a log in `format`; `path` labels errors) and replays it. A recorded
// file with the recorded layout is read one request at a time (memory holds one request body).
// Errors: kParse naming path:line for a malformed line (docs/replay.md states each format's
// strictness); kInvalidArgument when the log holds no model request (an empty file, or a log read
// with the wrong format) or its messages cannot form a conversation; errors from assembly or
// tokenization.
Result<ReplayReport> ReplayLog(std::string_view log, std::string_view path, TranscriptFormat format,
                               const Tokenizer& tokenizer, const ReplayOptions& options);

// ---- `strata replay` in one call ----

// A replay of the log in a file, with the choices `strata replay` leaves open settled from the
// log's own evidence (docs/replay.md, "Provider and tokenizer").
struct ReplayFileOptions {
  std::filesystem::path log;  // the log file; "-" reads standard input (labelled "<stdin>")
  // The log's format; nullopt: told from its bytes (DetectTranscriptFormat, accounting.h).
  std::optional<TranscriptFormat> format;
  // Claude Code and Codex logs (the format given or told) replay with
  // options.fill_unlogged_prefix set: the stand-in for the system prompt and tools they omit.
  bool fill_harness_prefix = false;
  // The cache model's name (ParseCacheModelKind). "": a recorded file's API (anthropic-messages:
  // anthropic, else openai); for other logs the provider they imply (a Codex log or an OpenAI
  // model: openai); else anthropic.
  std::string provider;
  std::string layout;  // ParseReplayLayout; "": recorded for a recorded file, else strata
  // Also replay the other layout of the same conversation: strata beside recorded or naive, naive
  // beside strata (the second report).
  bool compare = false;
  // A captured request (a JSON body, or a `strata record` file) whose tools and system become the
  // prefix of a log that lacks them; empty: none.
  std::filesystem::path prefix_from;
  // Price overrides; unset: the cache model's DefaultPricing.
  std::optional<double> input_per_mtok, read_multiplier, write_5m_multiplier, write_1h_multiplier;
  // Everything else (retention, long_ttl_breakpoints, model, instance, fill_unlogged_prefix,
  // warm_prefix_tokens, on_request). Its cache.kind, layout and pricing come from the members
  // above.
  ReplayOptions options;
};

// Loads the tokenizer for the model id the replay settled on (e.g. LoadTokenizerForModel of
// accounting.h with "auto"): the run's options.model, else the log's first model; an OpenAI log
// without one asks for "gpt-5".
using TokenizerLoader = std::function<Result<std::unique_ptr<Tokenizer>>(std::string_view model)>;

// Reads and replays `run.log`: one report, or with `compare` two (run.layout's first). Errors: as
// ReplayLog, kNotFound / kIo / kLimit (past 256 MiB) for an unreadable log or prefix_from file,
// kInvalidArgument for an unknown provider or layout name, and the tokenizer loader's.
Result<std::vector<ReplayReport>> ReplayFile(const ReplayFileOptions& run,
                                             const TokenizerLoader& tokenizer);

// A per-turn table with a totals line; recorded figures appear in extra columns when present.
std::string FormatReplayTable(const ReplayReport& report);
// {"transcript_format","layout","provider","rules","tokenizer","turns":[...],"totals":{...}}.
std::string FormatReplayJson(const ReplayReport& report);
// Two replays of one transcript side by side, per turn and in total.
std::string FormatReplayComparison(const ReplayReport& a, const ReplayReport& b);

// ---- Usage ----
//
// `strata usage`: what the user's agent sessions cost and where their prompt cache broke,
// from the logs the harnesses keep on the user's machine (docs/usage.md).
//
// Reads, never writes (docs/usage.md, "Where the logs are"):
//   Claude Code  <home>/.config/claude/projects and <home>/.claude/projects (both, as ccusage
//                reads them; a request in both counted once by its id):
//                <project>/<session>.jsonl, its subagents' <session>/subagents/*.jsonl and
//                older flat <project>/agent-<id>.jsonl (each its own cache chain, counted in the
//                session its lines' sessionId names); $CLAUDE_CONFIG_DIR/projects when set, for
//                each of its comma-separated directories
//   Codex        <home>/.codex/sessions/**/rollout-*.jsonl ($CODEX_HOME/sessions when set)
//   opencode     <home>/.local/share/opencode/opencode.db (and opencode-<channel>.db), the
//                SQLite store of opencode 1.2 and later, opened read only, nothing created beside
//                it; and the older <home>/.local/share/opencode/storage/message/<session>/*.json,
//                one file per message; a message both hold is counted once, from the database;
//                a subagent's session (parent_id) is one more chain of its top-level session
//                ($XDG_DATA_HOME/opencode when set; opencode's session.sql.ts has the schema)
// The environment is not read when `home` is explicit (UsageOptions::home_explicit). Symlinked
// directories are followed (each directory once: a cycle ends). A directory that cannot be read,
// an override that does not exist, and an explicit home with none of the roots are warnings
// naming the paths.
//
// A line that is not a JSON object (cut short, binary junk) is skipped, the rest of its log read
// (one warning per file naming the first such line, and the count: UsageReport::skipped_lines).
// A Claude Code, Codex or opencode token count that is not an integer from 0 to 10^12 (negative,
// a string, a fraction, 1e30) refuses that line's (message's) usage with a warning naming the line
// and the member; the rest of the log counts. Claude Code's own assistant lines (model
// "<synthetic>": API errors, "No response requested.") are not requests: not counted, no model
// change. In a Codex rollout each turn_context sets the model of the requests after it (a switch is
// a model change); a rollout naming no model is priced at its provider's default with one warning
// for the file. Each request's recorded figures (input, cache read, cache write, output) are summed
// per session and per day (UTC), priced by the model's list prices (ModelPrice), and checked for
// cache drops: a request that read less than the previous one of its chain left cached, with its
// cause from the log's evidence (replay.h DropCause; drop_cause rules in docs/replay.md, "Drops and
// their causes"): a compaction, a model change, a gap beyond the entries' TTL (5 min, or 1 h when
// the log recorded 1 h writes), a request sent before the previous answer completed (concurrent),
// or unexplained. A request a resumed session's file repeats (same request id) is counted once.

// List prices of a model, dollars per million tokens, and the cache multipliers (Anthropic's and
// OpenAI's pricing pages; docs/usage.md, "Prices", names the sources). An id matches the longest
// family in the table it holds as a whole part ("gpt-5" matches "gpt-5-2025-08-07", not
// "gpt-5.2"), among the families with the same size variants ("mini", "nano", "pro": a mini
// never takes its parent's price). `known` is false when no family matches: then the default of
// `provider` (a Transcript provider: "anthropic" Sonnet; any other named one, OpenAI-style, GPT-5
// or its mini / nano for such an id) is used; with no provider, the id's look picks it (gpt-*,
// o1/o3/o4-*: GPT-5; else Sonnet).
struct ModelPrice {
  double input = 0, output = 0;
  double read_multiplier = 0.1, write_5m_multiplier = 1.25, write_1h_multiplier = 2.0;
  bool known = false;
};
ModelPrice PriceForModel(std::string_view model, std::string_view provider = {});

struct UsageOptions {
  // Where .config/claude, .claude, .codex and .local/share/opencode are looked for.
  std::filesystem::path home;
  // `home` was chosen explicitly (`--home`, $STRATA_USAGE_HOME): the harnesses' environment
  // variables ($CLAUDE_CONFIG_DIR, $CODEX_HOME, $XDG_CONFIG_HOME, $XDG_DATA_HOME) are not read
  // (an explicit choice beats the environment), and finding none of the roots is a warning
  // naming the paths looked at.
  bool home_explicit = false;
  // Overrides of the three log roots (empty: from `home` and the environment as above);
  // opencode's databases are read from the parent of opencode_storage (its data directory).
  std::filesystem::path claude_projects, codex_sessions, opencode_storage;
  std::string since;  // "YYYY-MM-DD" or "YYYYMMDD" (UTC): requests before that day are skipped
  // Keep sessions whose project path (or log path) contains this text, case-sensitively (on a
  // case-insensitive file system too: write it as the log spells it); "" all.
  std::string project;
  // A log larger than this is mapped read-only rather than read into memory (any size is read).
  size_t map_above_bytes = size_t{256} * 1024 * 1024;
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
  std::string path;     // the main log file (opencode: the database, or the message directory)
  std::string first_time, last_time;
  std::vector<std::string> models;  // in order of first use, log files read in path order
  UsageTotals totals;
  std::vector<UsageChain> chains;
};

struct DayUsage {
  std::string date;  // YYYY-MM-DD, UTC
  UsageTotals totals;
};

// A log file `strata usage` could not read (not JSON, a raw byte that is not UTF-8, unreadable,
// an opencode database that cannot be opened or has no message table): skipped, the other files
// still count.
struct SkippedLog {
  std::string path;
  std::string error;  // "path:line:col: error: message" (FormatError), the line when known
};

struct UsageReport {
  std::vector<SessionUsage> sessions;  // worst first: most lost cost, then most cost, then id
  std::vector<DayUsage> days;          // in date order
  UsageTotals totals;
  size_t files = 0;          // log files looked at (the skipped ones included)
  size_t skipped_lines = 0;  // lines not read, not a JSON object (each file's named in warnings)
  std::vector<SkippedLog> skipped;    // in scan order (each also one warning)
  std::vector<std::string> warnings;  // "path:line: ..." a file skipped, a line cut short, lone
                                      // UTF-16 surrogates read as U+FFFD
};

// Scans the logs `options` names. A log that cannot be read (an I/O error, or a line a reader
// refuses otherwise than above) is skipped, listed in `skipped` and
// named in a warning with the line of its error (the others still count); lone UTF-16 surrogate
// escapes are read as U+FFFD with one warning per file (transcripts/json_lines.h). Errors:
// kInvalidArgument for a malformed `since`.
Result<UsageReport> ScanUsage(const UsageOptions& options);

// One row per session (worst first), one per day, and the totals with the tokens lost per cause.
std::string FormatUsageTable(const UsageReport& report);
// {"sessions":[...],"days":[...],"totals":{...},"skipped_files":[...],"warnings":[...]}
// (docs/usage.md states the fields); bytes that are not UTF-8 (a path) are written as U+FFFD.
std::string FormatUsageJson(const UsageReport& report);
// A self-contained HTML page (no network: inline CSS, inline SVG charts, one inline script for
// sorting): the totals, the day and session tables, and per session a chart of each request's
// cached, written and uncached tokens with the drops marked by cause.
std::string FormatUsageHtml(const UsageReport& report);
// Writes FormatUsageHtml(report) to `path` atomically (a reader sees the old file or the new one).
// Errors: kIo naming the path; the file is unchanged then.
Status WriteUsageHtml(const std::filesystem::path& path, const UsageReport& report);

// ---- Explain ----
//
// `strata explain`: why a request missed the cache (docs/explain.md).
//
// Given two consecutive rendered requests A and B, finds the first byte where they differ, the
// first token (the same block-wise tokenization replay uses), the layer and source of B that own
// that byte (from B's layer map, else A's, else the JSON member it falls in), the breakpoints of
// A that lie after it (their cached prefixes cannot be read by B), and how many tokens become
// uncached as a result.
//
// Two provider requests as a client sent them (JSON bodies without a layer map, e.g. captured by
// `strata record`) are compared in their canonical prompt form (docs/replay.md, "Canonical
// prompts"): tools, system and messages as the provider caches them, without cache_control,
// metadata, stream, max_tokens and the other members that are not prompt text, a string content
// equal to one text block. Offsets are then offsets in the canonical form, the position names the
// block (`system[2]`, `messages[3].content[0]`) and the character in it, a breakpoint that moved
// forward is no difference, and members that differ outside the prompt are listed.

// One rendered request with what is known about its structure.
struct ExplainInput {
  std::string bytes;
  LayerMap layers;                      // may be empty
  std::vector<Breakpoint> breakpoints;  // may be empty
  std::string model;                    // the request's "model" member when it has one, else ""
  // The provider API (RequestApiName) when the input is a bare provider request body (JSON with
  // messages or input, no layer map); Explain then compares canonical prompts. "" otherwise.
  std::string api;
};

// Reads what `strata assemble` prints: either the request itself (breakpoints are found from its
// "cache_control" members), or {"request": "<the request bytes as a string>", "layers": [layer
// map], "breakpoints": [{"offset", "ttl", "layer"}]} as `strata assemble --with-layers` prints. A
// single trailing newline is not part of the request; a chat-template render (text holding
// `<|im_start|>`-style special tokens) is read as text. Errors (kParse, naming `path` and, for
// JSON, the line and column): an empty file, bytes that are not UTF-8 text, JSON that is not an
// object or is cut short, text that is neither JSON nor a chat-template render, a
// layers/breakpoints member of the wrong shape.
Result<ExplainInput> ParseExplainInput(std::string_view text, std::string_view path);
// The {"request","layers","breakpoints"} form of `input`.
std::string FormatExplainInput(const ExplainInput& input);
// A layer map as printed by `strata assemble --layers` (FormatLayerMap). Errors: kParse (naming
// `path`) for text that is not a JSON array of objects or a member of the wrong type.
Result<LayerMap> ParseLayerMap(std::string_view text, std::string_view path);

// ParseExplainInput of the file at `path` ("-": standard input, labelled "<stdin>"), with the
// layer map of the file at `layers_path` (ParseLayerMap) replacing its own when that is not empty.
// Errors: kNotFound / kIo for an unreadable file, kLimit past 256 MiB, then as the parsers.
Result<ExplainInput> LoadExplainInput(const std::filesystem::path& path,
                                      const std::filesystem::path& layers_path = {});
// Writes FormatExplainInput(input) to `path` atomically (a reader sees the old file or the new
// one). Errors: kIo naming the path; the file is unchanged then.
Status SaveExplainInput(const std::filesystem::path& path, const ExplainInput& input);

struct Explanation {
  bool identical = false;
  size_t first_byte = 0;   // offset of the first differing byte (== the shorter size if a prefix)
  size_t first_char = 0;   // the same offset in Unicode code points (what an editor shows)
  size_t first_token = 0;  // tokens equal before it
  std::string layer;       // owning layer of B at first_byte (or A's, or a JSON member name)
  std::string source;      // instruction key / tool name, when the span has one
  std::string volatility;  // of the owning span, when known
  std::vector<Breakpoint> invalidated;  // A's breakpoints after first_byte
  // Explicit breakpoints: A's tokens between first_token and its last breakpoint. Automatic caching
  // (OpenAI APIs, or requests without breakpoints): A's whole prompt was cached, so all of A's
  // tokens from first_token on.
  size_t lost_cached_tokens = 0;
  size_t uncached_tokens = 0;  // B's tokens from first_token to its end
  bool automatic = false;      // automatic prefix caching (no breakpoints)
  // The cause class (replay.h DropCause names): "tools-change", "system-change",
  // "messages-change" from the owning layer, "model-change" when the models differ; "" when
  // identical or B only extends A.
  std::string cause;
  size_t tokens_a = 0, tokens_b = 0;
  std::string context_a, context_b;  // up to 40 bytes on each side of the difference
  std::string tokenizer;
  // Canonical prompts (both inputs bare provider requests of one API); empty/false otherwise.
  std::string api;       // RequestApiName
  std::string position;  // "system[2], character 17" (code points into the block); "" identical
  bool prompt_extends = false;                 // B's prompt starts with all of A's
  std::vector<std::string> outside_prompt;     // top-level members that differ and are not prompt
  std::vector<std::string> invalidated_paths;  // the block each invalidated breakpoint closes
  // A request of a log (ExplainLogRequest); 0 / false / "" otherwise.
  size_t request = 0;        // B's 1-based request number in the log (A is the one before)
  bool compaction = false;   // the log shows a compaction between A and B (cause "compaction")
  std::string cause_detail;  // the evidence for a cause replay found: "gap 6m 12s > TTL 5m"
  // With a cache model (Explain given one; every ExplainLogRequest): what A left cached and B read
  // by that provider's rules, and whether that is a drop by replay's rule (FindDrop: B read less
  // than A left cached, beyond 2% and one granule; docs/replay.md, "Drops and their causes").
  // lost_cached_tokens is then cached_tokens - read_tokens, cause the drop's cause, "" without a
  // drop (a compaction's cause excepted, above): a prompt below the provider's minimum leaves
  // nothing cached, so a change after it loses nothing. provider "": the byte view only.
  std::string provider;        // CacheModelName
  size_t minimum_tokens = 0;   // the smallest prompt the provider caches for A's model
  size_t cached_tokens = 0;    // A left cached (the model's read + write), or the drop's held
  size_t read_tokens = 0;      // B read
  bool drop = false;           // replay's drop rule fires
  bool drop_recorded = false;  // measured on the log's recorded figures (ExplainLogRequest)
};

// `cache`: the provider whose rules give the cached, read and lost tokens (the fields above); A
// then B go through a fresh cache model at the same moment (no expiry). nullptr: the byte view
// (lost_cached_tokens from A's invalidated breakpoints, or all of A from the first difference for
// automatic caching).
Result<Explanation> Explain(const ExplainInput& a, const ExplainInput& b,
                            const Tokenizer& tokenizer, const CacheModelOptions* cache = nullptr);

// Request `n` (1-based, at least 2) of a session log explained against request n-1, both rebuilt
// as `strata replay` rebuilds them with `options` (layout, cache model, the stand-in for an
// unlogged prefix), with the fields above. A compaction between the two is the cause: the log's
// own mark, read by the transcript readers replay and `strata usage` read (Claude Code's
// compact_boundary and summary, Codex's `compacted` item; TurnReport::after_compaction). B then
// starts a new prefix opened by the summary: what A left cached and B cannot read is lost to the
// compaction (replay's drop at B; 0 without one), B's uncached tokens are the new prefix's. Else
// a drop replay finds at B
// whose cause the bytes cannot show (ttl-expiry, model-change, concurrent, unexplained) names
// the cause, with its evidence in cause_detail. provider, cached_tokens, read_tokens, drop and
// lost_cached_tokens are replay's own figures for B (no drop at B: no cause), so explain and
// replay agree.
// Errors: kInvalidArgument when n is below 2 or beyond the log's requests (naming how many it
// holds); ReplayLog's errors.
Result<Explanation> ExplainLogRequest(std::string_view log, std::string_view path,
                                      TranscriptFormat format, size_t n, const Tokenizer& tokenizer,
                                      const ReplayOptions& options);

// `strata explain --log` in one call: request n of `run.log` against n-1 (ExplainLogRequest),
// with the provider, layout and tokenizer settled as ReplayFile settles them. Errors: as
// ExplainLogRequest and ReplayFile.
Result<Explanation> ExplainLogFile(const ReplayFileOptions& run, size_t n,
                                   const TokenizerLoader& tokenizer);
std::string FormatExplanation(const Explanation& e);
std::string FormatExplanationJson(const Explanation& e);

}  // namespace strata
