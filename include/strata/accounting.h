// accounting.h: the vocabulary of cache accounting that log readers, cache models and replay
// share: the provider cache model to apply and its prices, the usage a model computes, the usage a
// provider recorded, and the log formats strata reads (docs/replay.md states each rule).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/export.h"
#include "strata/status.h"

namespace STRATA_EXPORT strata {

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

// ---- The log formats ----

// The provider API a captured request was written for (`strata record` files, explain inputs):
// "anthropic-messages" (POST /v1/messages), "openai-chat" (POST /v1/chat/completions),
// "openai-responses" (POST /v1/responses).
enum class RequestApi { kAnthropicMessages, kOpenAiChat, kOpenAiResponses };
const char* RequestApiName(RequestApi api);
// The inverse of RequestApiName; kInvalidArgument naming the accepted values otherwise.
Result<RequestApi> ParseRequestApi(std::string_view name);

// strata: strata's own JSONL transcript; claude-code: Claude Code session logs
// (~/.claude/projects/*/*.jsonl, subagent files included); codex: Codex CLI and Codex Desktop
// rollouts; recorded: the requests `strata record` captured (one line per request, full body and
// the provider's usage); openhands: an OpenHands evaluation output.jsonl (one instance per line,
// system prompt and tools in history[0], usage per response); swe-agent: a SWE-agent `.traj`
// trajectory (one JSON document; only the total input is recorded). docs/replay.md describes each.
enum class TranscriptFormat { kStrata, kClaudeCode, kCodex, kRecorded, kOpenHands, kSweAgent };
// "strata", "claude-code", "codex", "recorded", "openhands", "swe-agent"
const char* TranscriptFormatName(TranscriptFormat format);
Result<TranscriptFormat> ParseTranscriptFormat(std::string_view name);

// ---- Accounting the requests a harness sends ----

class Tokenizer;

// A cache breakpoint of an accounted request, in tokens.
struct TokenBreakpointReport {
  std::string block;  // the canonical block it closes, e.g. "system[1]", "messages[3].content[0]"
  size_t tokens = 0;  // the prefix [0, tokens) it marks
  std::string ttl;    // "5m" or "1h"
};

// What the cache model says about one request a harness rendered and sent.
struct AccountedRequest {
  CacheUsage usage;          // read / write / uncached tokens, cost, notes
  size_t shared_tokens = 0;  // leading tokens equal to the previous request's (the bound
                             // any cache can reach)
  std::vector<TokenBreakpointReport> breakpoints;  // the request's own, in order
};

// Accounts a conversation's requests, one after another, under one provider's cache model
// (the rules of replay.h), as `strata replay --layout recorded` accounts recorded requests: each
// request body is read as its provider caches it (its canonical prompt, docs/replay.md), cut at
// every content block and breakpoint, tokenized with `tokenizer` piece by piece, and passed to
// the cache model, which remembers what earlier requests cached. Not thread-safe.
class RequestAccountant {
 public:
  // `tokenizer` must outlive the accountant.
  RequestAccountant(const Tokenizer& tokenizer, const CacheModelOptions& options);
  RequestAccountant(RequestAccountant&&) noexcept;
  RequestAccountant& operator=(RequestAccountant&&) noexcept;
  ~RequestAccountant();

  // Accounts `request` (a request body for `api`) sent at `time_s` seconds on any fixed clock
  // (non-decreasing; an earlier time is taken as the previous request's). Errors: kParse for a
  // body that is not JSON or a prompt member of the wrong shape (naming the member path);
  // kInvalidArgument from the tokenizer.
  Result<AccountedRequest> Account(std::string_view request, RequestApi api, double time_s);

  // "anthropic: explicit breakpoints, ..." (the cache model's rules, one line).
  std::string Describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The request API a render provider writes: anthropic -> anthropic-messages, openai-chat,
// openai-responses. kInvalidArgument for the chat-template text render (no provider API).
Result<RequestApi> RequestApiOfProvider(std::string_view provider);

}  // namespace strata
