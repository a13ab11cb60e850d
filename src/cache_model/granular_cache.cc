// granular_cache.cc: the automatic prefix caches (granular_cache.h). Entries are keyed by chained
// prefix hashes; the hash map is only looked up, never iterated into output, and eviction follows
// a use sequence number, so reports are deterministic.
#include "cache_model/granular_cache.h"

#include <map>
#include <unordered_map>

namespace strata {
namespace {

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
                             ? "docs/replay.md: Cache models, hosted providers"
                             : "docs/replay.md: Cache models, engines";
    return name + ": automatic, " + rule + ttl + cap + " (" + source + ")";
  }

  CacheUsage Process(const CacheRequest& r) override {
    CacheUsage u;
    const size_t n = r.tokens.size();
    u.input_tokens = n;
    const double now = r.time_s;
    // Hashed on every request, so that known_prefix always refers to the one before.
    const std::vector<uint64_t>& h = hasher_.Hashes(r.tokens, r.known_prefix);
    if (n < minimum_) {
      u.uncached_tokens = n;
      if (n > 0 && minimum_ > granule_) {
        u.notes.push_back("prompt below the " + std::to_string(minimum_) +
                          "-token minimum: not cached");
      }
      u.cost = Cost(u);
      return u;
    }
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
  PrefixHasher hasher_;
  std::map<uint64_t, uint64_t> lru_;  // seq -> key, oldest first
};

}  // namespace

std::unique_ptr<CacheModel> MakeGranularCache(const CacheModelOptions& options, size_t minimum,
                                              size_t granule, double retention_s) {
  return std::make_unique<GranularCache>(options, minimum, granule, retention_s);
}

}  // namespace strata
