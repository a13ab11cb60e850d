// replay.h: `strata replay`: runs a transcript through an assembly layout and a cache model and
// reports, per request and in total, the input, cache read, cache write and uncached tokens, the
// hit ratio and the cost (SPEC.md §6; docs/replay.md).
//
// Each assistant message of the transcript stands for one request, rebuilt from the conversation
// before it with one of two layouts:
//   strata  the ContextSession of assemble.h: stable tools and system blocks, history, and the
//           date/time in the volatile tail after the newest user message;
//   naive   what many harnesses used to do: the date/time and working directory at the top of the
//           system prompt, then persona, rules and instructions, tools in the order given.
// The request is rendered for the cache model's API (anthropic: Messages with breakpoints;
// openai: Responses; deepseek: Chat Completions; block-hash and radix: ChatML text), tokenized
// with a real tokenizer, and passed to the cache model. Tokens never span a content-block
// boundary or a cache breakpoint (each block is tokenized on its own, as providers cache whole
// blocks), which also lets unchanged blocks reuse their tokens from the previous request.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strata/cache_model.h"
#include "strata/status.h"
#include "strata/tokenizer.h"
#include "strata/transcript.h"

namespace strata {

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
  std::string rules;      // CacheModel::Describe()
  std::string tokenizer;  // Tokenizer::name()
  std::vector<TurnReport> turns;
  ReplayTotals totals;
  size_t bytes_tokenized = 0;  // request bytes that went through the tokenizer (memo misses)
  size_t request_bytes = 0;    // all request bytes
};

// Replays `transcript`. Errors: kInvalidArgument when the transcript's messages cannot form a
// conversation (e.g. a tool result for an unknown call), errors from assembly or tokenization.
Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options);

// A per-turn table with a totals line; recorded figures appear in extra columns when present.
std::string FormatReplayTable(const ReplayReport& report);
// {"transcript_format","layout","provider","rules","tokenizer","turns":[...],"totals":{...}}.
std::string FormatReplayJson(const ReplayReport& report);
// Two replays of one transcript side by side, per turn and in total.
std::string FormatReplayComparison(const ReplayReport& a, const ReplayReport& b);

}  // namespace strata
