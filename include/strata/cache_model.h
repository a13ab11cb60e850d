// cache_model.h: provider and engine prompt-cache models for cache accounting (SPEC.md §6).
//
// A CacheModel is a small, documented rule set that replays what a provider's prompt cache would
// do with a sequence of requests: how many input tokens each one reads from the cache, writes to
// it, and processes uncached, and what that costs. The rules and their sources (REFERENCE.md,
// "Hosted provider prompt caching" and "Engines: prefix KV reuse"):
//   anthropic  explicit breakpoints, at most 4 per request (later ones are ignored and noted); an
//              entry is the prefix up to a breakpoint, written only when it holds at least the
//              model's minimum cacheable tokens (AnthropicMinimumCacheableTokens); a read looks
//              for a live entry at each breakpoint and at up to `lookback_blocks` (20) block
//              boundaries before it, and takes the longest; TTL 5 min or 1 h from the last use
//              (a hit refreshes it); writes cost 1.25x (5 min) / 2x (1 h), reads 0.1x.
//   openai     automatic for prompts of at least 1024 tokens; every prefix of 1024 + 128k tokens
//              of a request is cached, and a hit is the longest such prefix still live (so hits
//              come in 128-token steps); retention 10 minutes from last use (configurable); no
//              write premium, reads 0.1x.
//   deepseek   automatic; 64-token storage units: hits are whole units of the longest cached
//              prefix; retention 1 h (configurable); reads 0.1x.
//   block-hash vLLM-style: full 16-token blocks keyed by a hash chained through the parent block;
//              a hit is the run of leading blocks present; no expiry; optional LRU capacity.
//   radix      SGLang-style radix tree at token granularity: a hit is the longest common prefix
//              with any cached sequence; no expiry; optional LRU capacity.
// Token sequences are compared exactly (prefix hashes chained over token ids). A model is
// stateful: Process() requests in time order. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strata/render.h"
#include "strata/status.h"
#include "strata/tokenizer.h"

namespace strata {

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

// Anthropic's minimum cacheable prompt for `model` (REFERENCE.md): 4096 for Opus 4.5 and later
// and Haiku 4.5; 2048 for Haiku 3 / 3.5; 1024 otherwise (Sonnet 4.x, Opus 4 / 4.1, unknown).
size_t AnthropicMinimumCacheableTokens(std::string_view model);

// A cache breakpoint in tokens: the prefix [0, tokens) may be cached.
struct TokenBreakpoint {
  size_t tokens = 0;
  CacheTtl ttl = CacheTtl::k5m;
};

struct CacheRequest {
  std::span<const TokenId> tokens;           // the whole prompt
  std::vector<TokenBreakpoint> breakpoints;  // anthropic only; ascending
  std::vector<size_t> block_ends;            // token offsets of content-block boundaries, ascending
                                             // (anthropic lookback); may be empty
  double time_s = 0;  // seconds on any fixed clock; non-decreasing across calls
  std::string model;  // provider model id (anthropic minimum size)
};

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

class CacheModel {
 public:
  virtual ~CacheModel() = default;
  CacheModelKind kind() const { return kind_; }
  const Pricing& pricing() const { return pricing_; }
  // One line naming the rules and their source, for reports.
  virtual std::string Describe() const = 0;
  // Accounts one request and updates the cache.
  virtual CacheUsage Process(const CacheRequest& request) = 0;

 protected:
  CacheModel(CacheModelKind kind, Pricing pricing) : kind_(kind), pricing_(pricing) {}
  double Cost(const CacheUsage& usage) const;

 private:
  CacheModelKind kind_;
  Pricing pricing_;
};

std::unique_ptr<CacheModel> MakeCacheModel(const CacheModelOptions& options);

// Prefix hashes of `tokens`: h[0] is a constant and h[i + 1] chains h[i] with tokens[i], so two
// sequences share h[k] exactly when (with overwhelming probability) their first k tokens agree.
std::vector<uint64_t> PrefixHashes(std::span<const TokenId> tokens);

}  // namespace strata
