// anthropic_cache.cc: Anthropic's prompt cache (anthropic_cache.h). An entry is the prefix up to
// a breakpoint, keyed by its chained prefix hash; the map is only looked up, never iterated into
// output, so reports are deterministic.
#include "cache_model/anthropic_cache.h"

#include <algorithm>
#include <unordered_map>

namespace strata {
namespace {

double TtlSeconds(CacheTtl ttl) { return ttl == CacheTtl::k1h ? 3600.0 : 300.0; }

class AnthropicCache final : public CacheModel {
 public:
  explicit AnthropicCache(const CacheModelOptions& o)
      : CacheModel(CacheModelKind::kAnthropic,
                   o.use_default_pricing ? DefaultPricing(CacheModelKind::kAnthropic) : o.pricing),
        options_(o) {}

  std::string Describe() const override {
    return "anthropic: explicit breakpoints (max " + std::to_string(options_.max_breakpoints) +
           "), lookback " + std::to_string(options_.lookback_blocks) +
           " blocks, per-model minimum, TTL 5m/1h refreshed on hit (docs/replay.md: Cache models)";
  }

  size_t HeldBytes() const override {
    return hasher_.HeldBytes() + entries_.bucket_count() * sizeof(void*) +
           entries_.size() * (sizeof(std::pair<const uint64_t, Entry>) + 2 * sizeof(void*));
  }

  CacheUsage Process(const CacheRequest& r) override {
    CacheUsage u;
    u.input_tokens = r.tokens.size();
    hasher_.Update(r.tokens, r.known_prefix, r.known_prefix_exact);
    salt_ = ModelSalt(r.model);
    now_ = r.time_s;
    std::vector<TokenBreakpoint> bps = UsableBreakpoints(r, &u);
    Entry* hit = nullptr;
    size_t read = LongestRead(r, bps, &hit);
    if (hit != nullptr) hit->expires = now_ + TtlSeconds(hit->ttl);
    Write(r, bps, read, &u);
    u.cache_read_tokens = read;
    u.uncached_tokens = u.input_tokens - read - u.cache_write_tokens;
    u.cost = Cost(u);
    return u;
  }

 private:
  struct Entry {
    size_t length = 0;
    CacheTtl ttl = CacheTtl::k5m;
    double expires = 0;
  };

  // The request's breakpoints within the prompt, the ones past max_breakpoints dropped (noted).
  std::vector<TokenBreakpoint> UsableBreakpoints(const CacheRequest& r, CacheUsage* u) const {
    std::vector<TokenBreakpoint> bps;
    for (const auto& bp : r.breakpoints) {
      if (bp.tokens == 0 || bp.tokens > r.tokens.size()) continue;
      if (bps.size() == options_.max_breakpoints) {
        u->notes.push_back("breakpoint at token " + std::to_string(bp.tokens) +
                           " ignored: at most " + std::to_string(options_.max_breakpoints) +
                           " breakpoints");
        continue;
      }
      bps.push_back(bp);
    }
    return bps;
  }

  uint64_t Key(size_t len) const { return hasher_.At(len) ^ len ^ salt_; }

  // The live entry for the prefix of `len` tokens of the current request, or nullptr (an expired
  // entry is dropped).
  Entry* Live(size_t len) {
    auto it = entries_.find(Key(len));
    if (it == entries_.end() || it->second.length != len) return nullptr;
    if (it->second.expires <= now_) {
      entries_.erase(it);
      return nullptr;
    }
    return &it->second;
  }

  // Read: the longest live entry at a breakpoint or up to lookback_blocks boundaries before it.
  size_t LongestRead(const CacheRequest& r, const std::vector<TokenBreakpoint>& bps, Entry** hit) {
    size_t read = 0;
    for (const auto& bp : bps) {
      std::vector<size_t> candidates{bp.tokens};
      auto upto = std::lower_bound(r.block_ends.begin(), r.block_ends.end(), bp.tokens);
      for (auto it = upto;
           it != r.block_ends.begin() && candidates.size() <= options_.lookback_blocks;) {
        --it;
        if (*it > 0) candidates.push_back(*it);
      }
      for (size_t len : candidates) {
        if (len <= read) break;
        if (Entry* e = Live(len)) {
          read = len;
          *hit = e;
          break;
        }
      }
    }
    return read;
  }

  // Write: each breakpoint beyond the hit that meets the minimum becomes an entry; the tokens
  // between the last cached point and it are written at its TTL's price.
  void Write(const CacheRequest& r, const std::vector<TokenBreakpoint>& bps, size_t read,
             CacheUsage* u) {
    const size_t minimum = options_.minimum_tokens > 0 ? options_.minimum_tokens
                                                       : AnthropicMinimumCacheableTokens(r.model);
    size_t covered = read;
    for (const auto& bp : bps) {
      if (Entry* e = Live(bp.tokens)) {  // already cached (e.g. below the hit): refresh it
        e->expires = now_ + TtlSeconds(e->ttl);
        covered = std::max(covered, bp.tokens);
        continue;
      }
      if (bp.tokens <= covered) continue;
      if (bp.tokens < minimum) {
        u->notes.push_back("breakpoint at token " + std::to_string(bp.tokens) + " below the " +
                           std::to_string(minimum) + "-token minimum: not cached");
        continue;
      }
      size_t written = bp.tokens - covered;
      u->cache_write_tokens += written;
      if (bp.ttl == CacheTtl::k1h) u->cache_write_1h_tokens += written;
      covered = bp.tokens;
      entries_[Key(bp.tokens)] = Entry{bp.tokens, bp.ttl, now_ + TtlSeconds(bp.ttl)};
    }
  }

  CacheModelOptions options_;
  std::unordered_map<uint64_t, Entry> entries_;
  PrefixHasher hasher_;
  uint64_t salt_ = 0;  // its ModelSalt
  double now_ = 0;
};

}  // namespace

std::unique_ptr<CacheModel> MakeAnthropicCache(const CacheModelOptions& options) {
  return std::make_unique<AnthropicCache>(options);
}

}  // namespace strata
