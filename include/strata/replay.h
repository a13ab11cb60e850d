// replay.h: `strata replay`: runs a session log through an assembly layout and a provider cache
// model and reports, per request and in total, the input, cache read, cache write and uncached
// tokens, the hit ratio and the cost (docs/replay.md states the rules and the log formats).
//
// Each model request of the log is rebuilt from the conversation before it with one of two
// layouts:
//   strata  the ContextSession of assemble.h: stable tools and system blocks, history, and the
//           date/time in the volatile tail after the newest user message;
//   naive   what many harnesses used to do: the date/time and working directory at the top of the
//           system prompt, then persona, rules and instructions, tools in the order given.
// The request is rendered for the cache model's API (anthropic: Messages with breakpoints;
// openai: Responses; deepseek: Chat Completions; block-hash and radix: ChatML text), tokenized
// with a real tokenizer (tokenizer.h), and passed to the cache model. Tokens never span a
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

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/layers.h"
#include "strata/render.h"
#include "strata/status.h"
#include "strata/tokenizer.h"

namespace strata {

// read / input, 0 when input is 0: every hit ratio strata prints is this one quotient.
double HitRatio(size_t read_tokens, size_t input_tokens);

// ---- The cache model to replay against ----

enum class CacheModelKind { kAnthropic, kOpenAi, kDeepSeek, kBlockHash, kRadix };

// "anthropic", "openai", "deepseek", "block-hash", "radix".
const char* CacheModelName(CacheModelKind kind);
// The inverse of CacheModelName; also accepts "vllm" (block-hash) and "sglang" (radix).
// kInvalidArgument naming the accepted values otherwise.
Result<CacheModelKind> ParseCacheModelKind(std::string_view name);

// Prices in dollars per million tokens. Cost of a request =
//   (uncached * input + read * input * read_multiplier + write_5m * input * write_5m_multiplier
//    + write_1h * input * write_1h_multiplier) / 1e6.
struct Pricing {
  double input_per_mtok = 0;
  double read_multiplier = 0.1;
  double write_5m_multiplier = 1.0;
  double write_1h_multiplier = 1.0;
};

// Documented defaults: anthropic $3/Mtok (Sonnet 4.x), read 0.1, write 1.25 / 2.0; openai
// $1.25/Mtok (GPT-5), read 0.1, write 1.0; deepseek $0.28/Mtok (cache-miss price), read 0.1,
// write 1.0; block-hash and radix: a nominal 1 unit per million prefilled tokens, read 0
// (a local engine pays in compute for what it prefills, nothing for what it reuses).
Pricing DefaultPricing(CacheModelKind kind);

struct CacheModelOptions {
  CacheModelKind kind = CacheModelKind::kAnthropic;
  Pricing pricing;  // set use_default_pricing = false to use it
  bool use_default_pricing = true;
  double retention_s = -1;      // openai/deepseek retention; < 0: the default; 0: forever
  size_t capacity_tokens = 0;   // block-hash/radix LRU capacity; 0: unbounded
  size_t block_tokens = 16;     // block-hash block size
  size_t lookback_blocks = 20;  // anthropic
  size_t max_breakpoints = 4;   // anthropic
  size_t minimum_tokens = 0;    // anthropic: overrides the per-model minimum when > 0
};

// What the cache model says about one request.
struct CacheUsage {
  size_t input_tokens = 0;  // the whole prompt = read + write + uncached
  size_t cache_read_tokens = 0;
  size_t cache_write_tokens = 0;  // newly cached (5 min and 1 h together)
  size_t cache_write_1h_tokens = 0;
  size_t uncached_tokens = 0;
  double cost = 0;                 // dollars (or nominal units for engines), see Pricing
  std::vector<std::string> notes;  // rule applications worth reporting, e.g. an ignored breakpoint
  double HitRatio() const;         // read / input; 0 for an empty prompt
};

// Usage figures the provider reported for one request, when the log records them.
struct RecordedUsage {
  size_t input_tokens = 0;  // the whole prompt (uncached + cache read + cache write)
  size_t cache_read_tokens = 0;
  size_t cache_write_tokens = 0;
  double HitRatio() const;  // read / input; 0 for an empty prompt
};

// ---- The log and the layout ----

// strata: strata's own JSONL transcript; claude-code: Claude Code session logs
// (~/.claude/projects/*/*.jsonl); codex: Codex CLI rollouts. docs/replay.md describes each.
enum class TranscriptFormat { kStrata, kClaudeCode, kCodex };
const char* TranscriptFormatName(TranscriptFormat format);  // "strata", "claude-code", "codex"
Result<TranscriptFormat> ParseTranscriptFormat(std::string_view name);

enum class ReplayLayout { kStrata, kNaive };
const char* ReplayLayoutName(ReplayLayout layout);  // "strata", "naive"
Result<ReplayLayout> ParseReplayLayout(std::string_view name);

struct ReplayOptions {
  CacheModelOptions cache;
  ReplayLayout layout = ReplayLayout::kStrata;
  int long_ttl_breakpoints = 0;  // anthropic: the first N breakpoints get a 1 h TTL
  std::string model;             // overrides the transcript's model id when non-empty
  // Called with every rebuilt request (1-based index, bytes, layer map, breakpoints), e.g. to
  // write them out for `strata explain`. May be empty.
  std::function<void(size_t, std::string_view, const LayerMap&, const std::vector<Breakpoint>&)>
      on_request;
};

// ---- The report ----

struct TurnReport {
  size_t index = 0;                       // 1-based request number
  std::string time;                       // RFC 3339 of the request, when known
  CacheUsage usage;                       // the model's figures
  size_t ideal_read_tokens = 0;           // tokens shared with the previous request (upper bound)
  std::optional<RecordedUsage> recorded;  // the provider's own figures, when the log has them
};

struct ReplayTotals {
  size_t input_tokens = 0, cache_read_tokens = 0, cache_write_tokens = 0, uncached_tokens = 0;
  size_t ideal_read_tokens = 0;
  double cost = 0;
  double hit_ratio = 0;        // cache_read / input
  double ideal_hit_ratio = 0;  // ideal_read / input
  bool has_recorded = false;
  RecordedUsage recorded;  // sums over the requests that recorded usage
  double recorded_hit_ratio = 0;
};

struct ReplayReport {
  std::string transcript_format;
  std::string layout;
  std::string provider;   // cache model name
  std::string rules;      // one line naming the cache model's rules
  std::string tokenizer;  // Tokenizer::name()
  std::vector<TurnReport> turns;
  ReplayTotals totals;
  size_t bytes_tokenized = 0;  // request bytes that went through the tokenizer (memo misses)
  size_t request_bytes = 0;    // all request bytes
};

// Reads `log` (the bytes of a log in `format`; `path` labels errors) and replays it.
// Errors: kParse naming path:line for a malformed line (docs/replay.md states each format's
// strictness); kInvalidArgument when the log holds no model request (an empty file, or a log read
// with the wrong format) or its messages cannot form a conversation; errors from assembly or
// tokenization.
Result<ReplayReport> ReplayLog(std::string_view log, std::string_view path, TranscriptFormat format,
                               const Tokenizer& tokenizer, const ReplayOptions& options);

// A per-turn table with a totals line; recorded figures appear in extra columns when present.
std::string FormatReplayTable(const ReplayReport& report);
// {"transcript_format","layout","provider","rules","tokenizer","turns":[...],"totals":{...}}.
std::string FormatReplayJson(const ReplayReport& report);
// Two replays of one transcript side by side, per turn and in total.
std::string FormatReplayComparison(const ReplayReport& a, const ReplayReport& b);

}  // namespace strata
