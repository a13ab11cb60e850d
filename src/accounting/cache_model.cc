// cache_model.cc: the provider and engine prompt-cache models (rules documented in
// cache_model.h, sources in REFERENCE.md). Cache contents are keyed by chained prefix hashes; the
// hash maps are only looked up, never iterated into output, so reports are deterministic.
#include "strata/cache_model.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace strata {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ---- Anthropic ----------------------------------------------------------------------------

class AnthropicCache final : public CacheModel {
 public:
  explicit AnthropicCache(const CacheModelOptions& o)
      : CacheModel(CacheModelKind::kAnthropic,
                   o.use_default_pricing ? DefaultPricing(CacheModelKind::kAnthropic) : o.pricing),
        options_(o) {}

  std::string Describe() const override {
    return "anthropic: explicit breakpoints (max " + std::to_string(options_.max_breakpoints) +
           "), lookback " + std::to_string(options_.lookback_blocks) +
           " blocks, per-model minimum, TTL 5m/1h refreshed on hit (REFERENCE.md: Hosted provider "
           "prompt caching)";
  }

  CacheUsage Process(const CacheRequest& r) override {
    CacheUsage u;
    const size_t n = r.tokens.size();
    u.input_tokens = n;
    std::vector<uint64_t> h = PrefixHashes(r.tokens);
    std::vector<TokenBreakpoint> bps;
    for (const auto& bp : r.breakpoints) {
      if (bp.tokens == 0 || bp.tokens > n) continue;
      if (bps.size() == options_.max_breakpoints) {
        u.notes.push_back("breakpoint at token " + std::to_string(bp.tokens) +
                          " ignored: at most " + std::to_string(options_.max_breakpoints) +
                          " breakpoints");
        continue;
      }
      bps.push_back(bp);
    }
    const double now = r.time_s;
    auto live = [&](size_t len) -> Entry* {
      auto it = entries_.find(h[len] ^ len);
      if (it == entries_.end() || it->second.length != len) return nullptr;
      if (it->second.expires <= now) {
        entries_.erase(it);
        return nullptr;
      }
      return &it->second;
    };
    // Read: the longest live entry at a breakpoint or up to lookback_blocks boundaries before it.
    size_t read = 0;
    Entry* hit = nullptr;
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
        if (Entry* e = live(len)) {
          read = len;
          hit = e;
          break;
        }
      }
    }
    if (hit != nullptr) hit->expires = now + Seconds(hit->ttl);
    // Write: each breakpoint beyond the hit that meets the minimum becomes an entry; the tokens
    // between the last cached point and it are written at its TTL's price.
    const size_t minimum = options_.minimum_tokens > 0 ? options_.minimum_tokens
                                                       : AnthropicMinimumCacheableTokens(r.model);
    size_t covered = read;
    for (const auto& bp : bps) {
      if (Entry* e = live(bp.tokens)) {  // already cached (e.g. below the hit): refresh it
        e->expires = now + Seconds(e->ttl);
        covered = std::max(covered, bp.tokens);
        continue;
      }
      if (bp.tokens <= covered) continue;
      if (bp.tokens < minimum) {
        u.notes.push_back("breakpoint at token " + std::to_string(bp.tokens) + " below the " +
                          std::to_string(minimum) + "-token minimum: not cached");
        continue;
      }
      size_t written = bp.tokens - covered;
      u.cache_write_tokens += written;
      if (bp.ttl == CacheTtl::k1h) u.cache_write_1h_tokens += written;
      covered = bp.tokens;
      entries_[h[bp.tokens] ^ bp.tokens] = Entry{bp.tokens, bp.ttl, now + Seconds(bp.ttl)};
    }
    u.cache_read_tokens = read;
    u.uncached_tokens = n - read - u.cache_write_tokens;
    u.cost = Cost(u);
    return u;
  }

 private:
  struct Entry {
    size_t length = 0;
    CacheTtl ttl = CacheTtl::k5m;
    double expires = 0;
  };
  static double Seconds(CacheTtl ttl) { return ttl == CacheTtl::k1h ? 3600.0 : 300.0; }

  CacheModelOptions options_;
  std::unordered_map<uint64_t, Entry> entries_;
};

// ---- Automatic prefix caches at a fixed granularity ----------------------------------------

// Caches every prefix whose length is `minimum` + k * `granule` (k >= 0) of each request; a hit
// is the longest live run of such prefixes. Covers openai (1024 / 128), deepseek (64 / 64),
// block-hash (16 / 16) and radix (1 / 1).
class GranularCache final : public CacheModel {
 public:
  GranularCache(const CacheModelOptions& o, size_t minimum, size_t granule, double retention_s)
      : CacheModel(o.kind, o.use_default_pricing ? DefaultPricing(o.kind) : o.pricing),
        kind_(o.kind),
        minimum_(minimum),
        granule_(granule),
        retention_s_(retention_s),
        capacity_(o.capacity_tokens) {}

  std::string Describe() const override {
    std::string name = CacheModelName(kind_);
    std::string rule =
        "prefixes of " + std::to_string(minimum_) + " + k*" + std::to_string(granule_) + " tokens";
    std::string ttl = retention_s_ > 0 ? ", retention " + std::to_string(int(retention_s_)) + " s"
                                       : ", no expiry";
    std::string cap =
        capacity_ > 0 ? ", LRU capacity " + std::to_string(capacity_) + " tokens" : "";
    const char* source = (kind_ == CacheModelKind::kOpenAi || kind_ == CacheModelKind::kDeepSeek)
                             ? "REFERENCE.md: Hosted provider prompt caching"
                             : "REFERENCE.md: Engines: prefix KV reuse";
    return name + ": automatic, " + rule + ttl + cap + " (" + source + ")";
  }

  CacheUsage Process(const CacheRequest& r) override {
    CacheUsage u;
    const size_t n = r.tokens.size();
    u.input_tokens = n;
    const double now = r.time_s;
    if (n < minimum_) {
      u.uncached_tokens = n;
      if (n > 0 && minimum_ > granule_) {
        u.notes.push_back("prompt below the " + std::to_string(minimum_) +
                          "-token minimum: not cached");
      }
      u.cost = Cost(u);
      return u;
    }
    std::vector<uint64_t> h = PrefixHashes(r.tokens);
    size_t read = 0;
    for (size_t len = minimum_; len <= n; len += granule_) {
      auto it = entries_.find(h[len] ^ len);
      if (it == entries_.end() || it->second.length != len) break;
      if (retention_s_ > 0 && it->second.last_use + retention_s_ <= now) break;
      read = len;
    }
    size_t last = minimum_ + (n - minimum_) / granule_ * granule_;
    // Touch longest first, so LRU eviction takes the leaves before their parents.
    for (size_t len = last;; len -= granule_) {
      auto [it, inserted] = entries_.try_emplace(h[len] ^ len);
      if (!inserted) lru_.erase(it->second.seq);
      it->second.length = len;
      it->second.last_use = now;
      it->second.seq = next_seq_++;
      lru_.emplace(it->second.seq, it->first);
      if (len < minimum_ + granule_) break;
    }
    if (capacity_ > 0) {
      while (!lru_.empty() && lru_.size() * granule_ > capacity_) {
        entries_.erase(lru_.begin()->second);
        lru_.erase(lru_.begin());
      }
    }
    u.cache_read_tokens = read;
    u.cache_write_tokens = last > read ? last - read : 0;
    u.uncached_tokens = n - u.cache_read_tokens - u.cache_write_tokens;
    u.cost = Cost(u);
    return u;
  }

 private:
  struct Entry {
    size_t length = 0;
    double last_use = 0;
    uint64_t seq = 0;
  };
  CacheModelKind kind_;
  size_t minimum_, granule_;
  double retention_s_;
  size_t capacity_;
  uint64_t next_seq_ = 0;
  std::unordered_map<uint64_t, Entry> entries_;
  std::map<uint64_t, uint64_t> lru_;  // seq -> key, oldest first
};

}  // namespace

const char* CacheModelName(CacheModelKind kind) {
  switch (kind) {
    case CacheModelKind::kAnthropic:
      return "anthropic";
    case CacheModelKind::kOpenAi:
      return "openai";
    case CacheModelKind::kDeepSeek:
      return "deepseek";
    case CacheModelKind::kBlockHash:
      return "block-hash";
    case CacheModelKind::kRadix:
      return "radix";
  }
  return "?";
}

Result<CacheModelKind> ParseCacheModelKind(std::string_view name) {
  for (auto k : {CacheModelKind::kAnthropic, CacheModelKind::kOpenAi, CacheModelKind::kDeepSeek,
                 CacheModelKind::kBlockHash, CacheModelKind::kRadix}) {
    if (name == CacheModelName(k)) return k;
  }
  if (name == "vllm") return CacheModelKind::kBlockHash;
  if (name == "sglang") return CacheModelKind::kRadix;
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown provider '" + std::string(name) +
                       "' (anthropic, openai, deepseek, block-hash|vllm, radix|sglang)");
}

Pricing DefaultPricing(CacheModelKind kind) {
  switch (kind) {
    case CacheModelKind::kAnthropic:
      return {3.0, 0.1, 1.25, 2.0};
    case CacheModelKind::kOpenAi:
      return {1.25, 0.1, 1.0, 1.0};
    case CacheModelKind::kDeepSeek:
      return {0.28, 0.1, 1.0, 1.0};
    case CacheModelKind::kBlockHash:
    case CacheModelKind::kRadix:
      return {1.0, 0.0, 1.0, 1.0};
  }
  return {};
}

size_t AnthropicMinimumCacheableTokens(std::string_view model) {
  std::string m = Lower(model);
  auto has = [&](std::string_view s) { return m.find(s) != std::string::npos; };
  if (has("haiku-4-5") || has("haiku-4.5")) return 4096;
  if (has("opus-4-5") || has("opus-4.5") || has("opus-4-6") || has("opus-4.6") || has("opus-4-7") ||
      has("opus-5")) {
    return 4096;
  }
  if (has("haiku-3") || has("3-haiku") || has("3-5-haiku")) return 2048;
  return 1024;
}

double CacheUsage::HitRatio() const {
  return input_tokens == 0 ? 0.0 : double(cache_read_tokens) / double(input_tokens);
}

double CacheModel::Cost(const CacheUsage& u) const {
  const Pricing& p = pricing_;
  double w5 = double(u.cache_write_tokens - u.cache_write_1h_tokens);
  return (double(u.uncached_tokens) * p.input_per_mtok +
          double(u.cache_read_tokens) * p.input_per_mtok * p.read_multiplier +
          w5 * p.input_per_mtok * p.write_5m_multiplier +
          double(u.cache_write_1h_tokens) * p.input_per_mtok * p.write_1h_multiplier) /
         1e6;
}

std::vector<uint64_t> PrefixHashes(std::span<const TokenId> tokens) {
  std::vector<uint64_t> h(tokens.size() + 1);
  h[0] = 0x5354524154410000ULL;  // "STRATA"
  for (size_t i = 0; i < tokens.size(); ++i) {
    h[i + 1] = Mix(h[i] ^ (uint64_t(uint32_t(tokens[i])) * 0x100000001b3ULL));
  }
  return h;
}

std::unique_ptr<CacheModel> MakeCacheModel(const CacheModelOptions& o) {
  auto retention = [&](double def) { return o.retention_s < 0 ? def : o.retention_s; };
  switch (o.kind) {
    case CacheModelKind::kAnthropic:
      return std::make_unique<AnthropicCache>(o);
    case CacheModelKind::kOpenAi:
      return std::make_unique<GranularCache>(o, 1024, 128, retention(600));
    case CacheModelKind::kDeepSeek:
      return std::make_unique<GranularCache>(o, 64, 64, retention(3600));
    case CacheModelKind::kBlockHash: {
      size_t b = std::max<size_t>(1, o.block_tokens);
      return std::make_unique<GranularCache>(o, b, b, retention(0));
    }
    case CacheModelKind::kRadix:
      return std::make_unique<GranularCache>(o, 1, 1, retention(0));
  }
  return nullptr;
}

}  // namespace strata
