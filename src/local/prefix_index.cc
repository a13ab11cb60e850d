// prefix_index.cc: block-hash index over checkpoint token prefixes (see prefix_index.h).
#include "local/prefix_index.h"

#include <algorithm>

#include "base/common_prefix.h"
#include "base/hash.h"

namespace strata::serve {

std::vector<uint64_t> PrefixIndex::BlockHashes(std::span<const int32_t> tokens) {
  std::vector<uint64_t> out{SplitMix64Mix(0x5354524154414b56ull)};  // "STRATAKV"
  for (size_t end = kBlockTokens; end <= tokens.size(); end += kBlockTokens) {
    uint64_t h = out.back();
    for (size_t i = end - kBlockTokens; i < end; ++i)
      h = SplitMix64Mix(h ^ static_cast<uint32_t>(tokens[i]));
    out.push_back(h);
  }
  return out;
}

void PrefixIndex::Add(IndexEntry entry) {
  std::lock_guard lock(mu_);
  if (by_key_.contains(entry.key)) return;
  const std::vector<uint64_t> chain = BlockHashes(entry.tokens);
  by_hash_[chain.back()].push_back(entry.key);
  for (size_t k = 1; k < chain.size(); ++k) by_block_[chain[k]].push_back(entry.key);
  std::string key = entry.key;
  by_key_.emplace(std::move(key), std::move(entry));
}

void PrefixIndex::Remove(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return;
  const std::vector<uint64_t> chain = BlockHashes(it->second.tokens);
  auto drop = [&key](std::vector<std::string>& keys) {
    keys.erase(std::remove(keys.begin(), keys.end(), key), keys.end());
  };
  drop(by_hash_[chain.back()]);
  for (size_t k = 1; k < chain.size(); ++k) drop(by_block_[chain[k]]);
  by_key_.erase(it);
}

bool PrefixIndex::Contains(const std::string& key) const {
  std::lock_guard lock(mu_);
  return by_key_.contains(key);
}

size_t PrefixIndex::size() const {
  std::lock_guard lock(mu_);
  return by_key_.size();
}

std::vector<IndexEntry> PrefixIndex::Matches(std::span<const int32_t> tokens) const {
  const std::vector<uint64_t> chain = BlockHashes(tokens);
  std::vector<IndexEntry> out;
  std::lock_guard lock(mu_);
  for (size_t k = chain.size(); k-- > 0;) {
    auto it = by_hash_.find(chain[k]);
    if (it == by_hash_.end()) continue;
    for (const std::string& key : it->second) {
      const IndexEntry& e = by_key_.at(key);
      if (e.tokens.size() <= tokens.size() &&
          CommonPrefixLength<int32_t>(e.tokens, tokens) == e.tokens.size())
        out.push_back(e);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const IndexEntry& a, const IndexEntry& b) {
    return a.tokens.size() > b.tokens.size();
  });
  return out;
}

std::vector<SharedEntry> PrefixIndex::Sharing(std::span<const int32_t> tokens) const {
  const std::vector<uint64_t> chain = BlockHashes(tokens);
  std::vector<SharedEntry> out;
  std::lock_guard lock(mu_);
  // Entries filed at block level k share at least k blocks; any entry sharing more is filed at a
  // higher level too, so the highest level with an entry holds the best ones.
  for (size_t k = chain.size(); k-- > 1 && out.empty();) {
    auto it = by_block_.find(chain[k]);
    if (it == by_block_.end()) continue;
    for (const std::string& key : it->second) {
      const IndexEntry& e = by_key_.at(key);
      const size_t shared = CommonPrefixLength<int32_t>(e.tokens, tokens);
      if (shared >= k * kBlockTokens) out.push_back({e, shared});  // not a hash collision
    }
  }
  // No entry shares a full block: the entries sharing 1 to kBlockTokens - 1 leading tokens (the
  // template's opening, a system text that differs early). Each comparison stops within the first
  // block, so this scan costs at most kBlockTokens comparisons per entry.
  if (out.empty() && !tokens.empty()) {
    for (const auto& [key, e] : by_key_) {
      const size_t shared = CommonPrefixLength<int32_t>(e.tokens, tokens);
      if (shared > 0) out.push_back({e, shared});
    }
  }
  // Most shared first; among equal shares the shortest checkpoint (the cheapest file to restore),
  // then the key, so the order never depends on insertion or hash-map order.
  std::sort(out.begin(), out.end(), [](const SharedEntry& a, const SharedEntry& b) {
    if (a.shared != b.shared) return a.shared > b.shared;
    if (a.entry.tokens.size() != b.entry.tokens.size())
      return a.entry.tokens.size() < b.entry.tokens.size();
    return a.entry.key < b.entry.key;
  });
  return out;
}

}  // namespace strata::serve
