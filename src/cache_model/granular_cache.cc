// granular_cache.cc: the automatic prefix caches (granular_cache.h). Entries are keyed by chained
// prefix hashes; the hash map is only looked up, never iterated into output, and eviction follows
// a use sequence number, so reports are deterministic.
#include "cache_model/granular_cache.h"

#include <fmt/format.h>

#include <map>
#include <unordered_map>

namespace strata {
namespace {

// A set of 64-bit keys in one open-addressed array (linear probing, load at most 7/8, any size:
// the keys are hashes, a slot is the key modulo the size): 9 to 14 bytes a key, where an
// unordered_map node holding an Entry took about 64. For the caches whose entries neither expire
// nor are evicted (radix and block-hash without a capacity), which key an entry per token (radix)
// or per 16 once it has left the chain (GranularCache::LeaveChain).
class KeySet {
 public:
  size_t size() const { return size_; }
  size_t bytes() const { return slots_.capacity() * sizeof(uint64_t); }

  bool Contains(uint64_t key) const {
    if (slots_.empty()) return false;
    key = Stored(key);
    for (size_t i = Slot(key, slots_.size());; i = Next(i, slots_.size())) {
      if (slots_[i] == key) return true;
      if (slots_[i] == 0) return false;
    }
  }

  // Room for `n` keys in all: one allocation before a request's keys go in, not a doubling (the
  // old and the new array are held at once while moving).
  void Reserve(size_t n) {
    if (n * 8 <= slots_.size() * 7) return;
    std::vector<uint64_t> bigger(std::max(n * 8 / 7 + 1, slots_.size() + slots_.size() / 2), 0);
    for (uint64_t k : slots_) {
      if (k != 0) Place(&bigger, k);
    }
    slots_.swap(bigger);
  }

  void Insert(uint64_t key) {
    Reserve(std::max<size_t>(size_ + 1, 1024));
    size_ += Place(&slots_, Stored(key));
  }

 private:
  static uint64_t Stored(uint64_t key) { return key == 0 ? 0x9E3779B97F4A7C15ULL : key; }
  static size_t Slot(uint64_t key, size_t n) { return size_t(key % n); }
  static size_t Next(size_t i, size_t n) { return i + 1 == n ? 0 : i + 1; }

  // Puts `key` into `slots`; 1 when it was not there.
  static size_t Place(std::vector<uint64_t>* slots, uint64_t key) {
    for (size_t i = Slot(key, slots->size());; i = Next(i, slots->size())) {
      if ((*slots)[i] == key) return 0;
      if ((*slots)[i] == 0) {
        (*slots)[i] = key;
        return 1;
      }
    }
  }

  std::vector<uint64_t> slots_;  // 0: empty
  size_t size_ = 0;
};

class GranularCache final : public CacheModel {
 public:
  GranularCache(const CacheModelOptions& o, size_t minimum, size_t granule, double retention_s)
      : CacheModel(o.kind, o.use_default_pricing ? DefaultPricing(o.kind) : o.pricing),
        kind_(o.kind),
        minimum_(minimum),
        granule_(granule),
        retention_s_(retention_s),
        capacity_(o.capacity_tokens),
        immortal_(retention_s <= 0 && o.capacity_tokens == 0) {}

  std::string Describe() const override {
    std::string name = CacheModelName(kind_);
    std::string rule =
        "prefixes of " + std::to_string(minimum_) + " + k*" + std::to_string(granule_) + " tokens";
    std::string ttl = retention_s_ > 0 ? ", retention " + fmt::format("{:g}", retention_s_) + " s"
                                       : ", no expiry";
    std::string cap =
        capacity_ > 0 ? ", LRU capacity " + std::to_string(capacity_) + " tokens" : "";
    const char* source = (kind_ == CacheModelKind::kOpenAi || kind_ == CacheModelKind::kDeepSeek)
                             ? "docs/replay.md: Cache models, hosted providers"
                             : "docs/replay.md: Cache models, engines";
    return name + ": automatic, " + rule + ttl + cap + " (" + source + ")";
  }

  CacheUsage Process(const CacheRequest& r) override {
    // Hashed on every request, so that known_prefix always refers to the one before. The previous
    // request's tokens after the shared ones: the hasher's copy, else the caller's.
    std::vector<TokenId> copy;
    const bool copied =
        hasher_.Update(r.tokens, r.known_prefix, r.known_prefix_exact, immortal_ ? &copy : nullptr);
    tokens_ = r.tokens;
    previous_tail_ = copied ? std::span<const TokenId>(copy) : r.previous_tail;
    salt_ = ModelSalt(r.model);
    CacheUsage u = Account(r.tokens.size(), r.time_s);
    tokens_ = {};
    previous_tail_ = {};
    return u;
  }

  size_t HeldBytes() const override {
    size_t entry_node = sizeof(std::pair<const uint64_t, Entry>) + 2 * sizeof(void*);
    return keys_.bytes() + hasher_.HeldBytes() + entries_.size() * entry_node +
           entries_.bucket_count() * sizeof(void*) + lru_.size() * (2 * sizeof(uint64_t) + 32) +
           chain_keys_.capacity() * sizeof(uint64_t);
  }

 private:
  // Process once the request is hashed: its figures, and the cache updated.
  CacheUsage Account(size_t n, double now) {
    CacheUsage u;
    u.input_tokens = n;
    if (n < minimum_) {
      LeaveChain(Common(n));
      u.uncached_tokens = n;
      if (n > 0 && minimum_ > granule_) {
        u.notes.push_back("prompt below the " + std::to_string(minimum_) +
                          "-token minimum: not cached");
      }
      u.cost = Cost(u);
      return u;
    }
    const size_t last = minimum_ + (n - minimum_) / granule_ * granule_;
    const size_t read =
        capacity_ > 0 ? ReadAndTouchAll(n, last, now) : ReadAndTouchNew(n, last, now);
    u.cache_read_tokens = read;
    u.cache_write_tokens = last > read ? last - read : 0;
    u.uncached_tokens = n - u.cache_read_tokens - u.cache_write_tokens;
    u.cost = Cost(u);
    return u;
  }

  struct Entry {
    size_t length = 0;
    double last_use = 0;  // for an entry of the chain: chain_time_ instead (see below)
    uint64_t seq = 0;
  };

  bool Live(double last_use, double now) const {
    return retention_s_ <= 0 || last_use + retention_s_ > now;
  }

  // Granule lengths (minimum_ + k * granule_) at or below `tokens`.
  size_t Granules(size_t tokens) const {
    return tokens < minimum_ ? 0 : (tokens - minimum_) / granule_ + 1;
  }

  // Without a capacity (no LRU order to keep), in time linear in the request's new tokens. The
  // chain is the run of entries the last cached request touched that the requests since still
  // share; they were all used at chain_time_, which stands for their last_use (written into them
  // only when they leave the chain). A hit within the shared prefix is then one check of
  // chain_time_; only lengths beyond it are looked up, and only they are written. The entries
  // beyond the shared prefix leave the chain before the look-up: when the hasher knows less than
  // the tokens shared (a request compared after an exact one), the look-up finds them there.
  size_t ReadAndTouchNew(size_t n, size_t last, double now) {
    const size_t common = Common(n);
    const size_t kept = std::min(Granules(common), ChainSize());
    LeaveChain(common);
    size_t read = 0, len = minimum_;
    bool scan = true;
    if (kept > 0) {
      if (Live(chain_time_, now)) {
        read = minimum_ + (kept - 1) * granule_;
        len = read + granule_;
      } else {
        scan = false;  // the shortest prefix expired: no hit
      }
    }
    for (; scan && len <= n; len += granule_) {
      if (immortal_) {
        if (!keys_.Contains(Key(len))) break;
        read = len;
        continue;
      }
      auto it = entries_.find(Key(len));
      if (it == entries_.end() || it->second.length != len || !Live(it->second.last_use, now))
        break;
      read = len;
    }
    if (immortal_) {  // no last use to keep: the chain is its length, and keyed when it leaves
      chain_size_ = Granules(last);
    }
    for (size_t k = ChainSize(); k < Granules(last); ++k) {
      const size_t at = minimum_ + k * granule_;
      const uint64_t key = Key(at);
      Entry& e = entries_[key];
      e.length = at;
      e.last_use = now;
      chain_keys_.push_back(key);
    }
    chain_time_ = now;
    chain_salt_ = salt_;
    return read;
  }

  // Tokens of the request shared with the chain's: none for another model.
  size_t Common(size_t n) const { return salt_ == chain_salt_ ? std::min(hasher_.shared(), n) : 0; }

  uint64_t Key(size_t len) const { return hasher_.At(len) ^ len ^ salt_; }

  // The entries of the chain beyond `common` shared tokens leave it: their last use was
  // chain_time_ (immortal: they are keyed now).
  void LeaveChain(size_t common) {
    const size_t kept = std::min(Granules(common), ChainSize());
    if (immortal_) {
      KeyLeaving(kept);
      chain_size_ = kept;
      return;
    }
    for (size_t k = kept; k < chain_keys_.size(); ++k) {
      auto it = entries_.find(chain_keys_[k]);
      if (it != entries_.end()) it->second.last_use = chain_time_;
    }
    chain_keys_.resize(kept);
  }

  size_t ChainSize() const { return immortal_ ? chain_size_ : chain_keys_.size(); }

  // Immortal: puts the keys of the chain's entries from granule `kept` on into keys_. They are
  // prefixes of the previous request, whose tokens are this one's up to hasher_.shared() and
  // previous_tail_ after; hashed in one pass, from the hash of the first one's shared part.
  // While on the chain they needed no key: a request reads them through Common(), and one that
  // does not share them cannot match them (they are longer than what it shares, or of another
  // model).
  void KeyLeaving(size_t kept) {
    if (kept >= chain_size_) return;
    const size_t shared = hasher_.shared();
    size_t pos = std::min(minimum_ + kept * granule_, shared);
    uint64_t h = hasher_.At(pos);
    keys_.Reserve(keys_.size() + (chain_size_ - kept));
    for (size_t k = kept; k < chain_size_; ++k) {
      const size_t len = minimum_ + k * granule_;
      for (; pos < len; ++pos) {
        if (pos >= shared && pos - shared >= previous_tail_.size()) return;  // not given: lost
        h = ChainPrefixHash(h, pos < shared ? tokens_[pos] : previous_tail_[pos - shared]);
      }
      keys_.Insert(h ^ len ^ chain_salt_);
    }
  }

  // With an LRU capacity: every prefix of the request read and touched (eviction order needs
  // each entry's use sequence).
  size_t ReadAndTouchAll(size_t n, size_t last, double now) {
    size_t read = 0;
    for (size_t len = minimum_; len <= n; len += granule_) {
      auto it = entries_.find(Key(len));
      if (it == entries_.end() || it->second.length != len) break;
      if (!Live(it->second.last_use, now)) break;
      read = len;
    }
    // Touch longest first, so LRU eviction takes the leaves before their parents.
    for (size_t len = last;; len -= granule_) {
      auto [it, inserted] = entries_.try_emplace(Key(len));
      if (!inserted) lru_.erase(it->second.seq);
      it->second.length = len;
      it->second.last_use = now;
      it->second.seq = next_seq_++;
      lru_.emplace(it->second.seq, it->first);
      if (len < minimum_ + granule_) break;
    }
    while (!lru_.empty() && lru_.size() * granule_ > capacity_) {
      entries_.erase(lru_.begin()->second);
      lru_.erase(lru_.begin());
    }
    return read;
  }
  CacheModelKind kind_;
  size_t minimum_, granule_;
  double retention_s_;
  size_t capacity_;
  // No expiry and no capacity: the entries are the chain (chain_size_ long, unkeyed) and keys_.
  const bool immortal_;
  KeySet keys_;
  size_t chain_size_ = 0;
  std::span<const TokenId> tokens_;         // during Process: the request's tokens
  std::span<const TokenId> previous_tail_;  // and the previous one's after hasher_.shared()
  uint64_t next_seq_ = 0;
  std::unordered_map<uint64_t, Entry> entries_;
  PrefixHasher hasher_;
  std::map<uint64_t, uint64_t> lru_;  // seq -> key, oldest first (with a capacity)
  std::vector<uint64_t> chain_keys_;  // the chain's entry keys, by granule (without a capacity)
  double chain_time_ = 0;
  uint64_t chain_salt_ = 0;  // the model of the chain's entries
  uint64_t salt_ = 0;        // ModelSalt of the request being processed
};

}  // namespace

std::unique_ptr<CacheModel> MakeGranularCache(const CacheModelOptions& options, size_t minimum,
                                              size_t granule, double retention_s) {
  return std::make_unique<GranularCache>(options, minimum, granule, retention_s);
}

}  // namespace strata
