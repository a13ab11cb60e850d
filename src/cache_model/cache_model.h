// cache_model.h (private): the CacheModel interface behind replay's provider and engine cache
// models; the kinds, options, prices and usage figures are replay.h's public types.
//
// A CacheModel is a small, documented rule set that replays what a provider's prompt cache would
// do with a sequence of requests: how many input tokens each one reads from the cache, writes to
// it, and processes uncached, and what that costs. The rules (docs/replay.md, "Cache models",
// from the providers' prompt-caching documentation and the engines' prefix-reuse designs):
// Implementations: anthropic_cache.h (anthropic), granular_cache.h (the others).
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

#include "strata/accounting.h"
#include "strata/render.h"
#include "strata/status.h"

namespace strata {

// Anthropic's minimum cacheable prompt for `model` (Anthropic's prompt-caching documentation): 4096
// for Opus 4.5 and later and Haiku 4.5; 2048 for Haiku 3 / 3.5; 1024 otherwise (Sonnet 4.x, Opus 4
// / 4.1, unknown).
size_t AnthropicMinimumCacheableTokens(std::string_view model);

// The automatic caches' rule (granular_cache.h): every prefix of Minimum + k * Granule tokens is
// cached. openai 1024 / 128, deepseek 64 / 64, block-hash a block / a block, radix 1 / 1;
// anthropic (breakpoints; its minimum is per model, AnthropicMinimumCacheableTokens) 1 / 1.
size_t CacheMinimumTokens(const CacheModelOptions& options);
size_t CacheGranuleTokens(const CacheModelOptions& options);

// A cache breakpoint in tokens: the prefix [0, tokens) may be cached.
struct TokenBreakpoint {
  size_t tokens = 0;
  CacheTtl ttl = CacheTtl::k5m;
};

struct CacheRequest {
  std::span<const TokenId> tokens;  // the whole prompt
  // Leading tokens the caller knows equal those of the request this model processed last (0: not
  // known). A hint for speed only: the prefix hashes of those tokens are kept without comparing
  // them, so a replay costs each request's new tokens; the figures are the same.
  size_t known_prefix = 0;
  // known_prefix is exactly the tokens this request shares with the one the model processed last
  // (the caller compared them): the model then keeps no copy of a request's tokens to compare
  // with the next one (4 bytes a token).
  bool known_prefix_exact = false;
  // The previous request's tokens after its first known_prefix (empty when it had no more).
  // Needed on every request after one given with known_prefix_exact (the model kept no copy of
  // that one's tokens) and ignored otherwise: the automatic caches without expiry or capacity
  // (radix, block-hash) hash from them the prefixes the previous request cached that this one
  // does not share, which they key only then (granular_cache.h). Missing, those prefixes are lost
  // and later reads of them are not counted.
  std::span<const TokenId> previous_tail;
  std::vector<TokenBreakpoint> breakpoints;  // anthropic only; ascending
  std::vector<size_t> block_ends;            // token offsets of content-block boundaries, ascending
                                             // (anthropic lookback); may be empty
  double time_s = 0;  // seconds on any fixed clock; non-decreasing across calls
  std::string model;  // provider model id (anthropic minimum size; caches are per model)
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
  // Bytes the cache state holds (its containers' capacities; a hash-map node estimated at its
  // value and two pointers), for the memory tests and benchmarks. Not a rule: figures never
  // depend on it.
  virtual size_t HeldBytes() const = 0;

 protected:
  CacheModel(CacheModelKind kind, Pricing pricing) : kind_(kind), pricing_(pricing) {}
  double Cost(const CacheUsage& usage) const;

 private:
  CacheModelKind kind_;
  Pricing pricing_;
};

std::unique_ptr<CacheModel> MakeCacheModel(const CacheModelOptions& options);

// A value mixed into every cache key of a request for `model`: providers keep one cache per model,
// so a prefix cached for one model is never read for another.
uint64_t ModelSalt(std::string_view model);

// Prefix hashes of `tokens`: h[0] is a constant and h[i + 1] chains h[i] with tokens[i], so two
// sequences share h[k] exactly when (with overwhelming probability) their first k tokens agree.
std::vector<uint64_t> PrefixHashes(std::span<const TokenId> tokens);

// PrefixHashes(t)[k + 1] from h = PrefixHashes(t)[k] and next = t[k].
uint64_t ChainPrefixHash(uint64_t h, TokenId next);

// PrefixHashes across consecutive requests: the hashes of the prefix a request shares with the
// previous one are kept, so a replay hashes only each request's new tokens (the same values).
// Memory: every 16th hash (half a byte a token; all the hashes took 8), and the last request's
// tokens unless the caller gives the exact shared prefix; a hash between two kept ones is chained
// from the one below (at most 15 steps).
class PrefixHasher {
 public:
  // Takes the request's tokens, which must outlive the At calls that follow. `known`: leading
  // tokens the caller knows equal those of the previous call's (not compared); `exact`: the
  // tokens after them differ, so none are compared and none copied (a call after an exact one
  // that is not exact itself compares nothing beyond `known`).
  // `dropped`, when not null, receives the previous call's tokens after the shared ones when the
  // hasher kept a copy of them (the previous call was not exact): true then; false and cleared
  // otherwise (the caller has them).
  bool Update(std::span<const TokenId> tokens, size_t known = 0, bool exact = false,
              std::vector<TokenId>* dropped = nullptr);
  // PrefixHashes(tokens)[len] of the last Update's tokens; len at most their count.
  uint64_t At(size_t len) const;
  // Leading tokens the last Update shared with the one before it.
  size_t shared() const { return shared_; }
  // Bytes held: the kept hashes, and the copy of the last tokens (an inexact call).
  size_t HeldBytes() const {
    return kept_.capacity() * sizeof(uint64_t) + tokens_.capacity() * sizeof(TokenId);
  }

 private:
  static constexpr size_t kStride = 16;
  size_t shared_ = 0;
  size_t size_ = 0;                   // the last call's token count
  std::span<const TokenId> current_;  // the last call's tokens
  bool copied_ = true;                // tokens_ holds them (an inexact call)
  std::vector<TokenId> tokens_;
  std::vector<uint64_t> kept_{PrefixHashes({})};  // kept_[k]: the hash of the first k*16 tokens
};

}  // namespace strata
