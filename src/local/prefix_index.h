// prefix_index.h: an in-memory index of stored checkpoints by their token prefixes, to find the
// longest stored prefix of a request's tokens without reading files (vLLM / SGLang style block
// hashes). Tokens are grouped in blocks of kBlockTokens; block k's hash chains the hash of blocks
// 0..k-1 with its own token ids, so equal hashes mean equal token prefixes (up to collisions,
// which the token-by-token check below rules out). A checkpoint of T tokens is filed under the
// chained hash of its floor(T / kBlockTokens) full blocks; a lookup walks the request's chain from
// its longest full-block prefix down and, for each entry filed there, compares the entry's tokens
// with the request's one by one. Each entry is also filed under the chained hash of every one of
// its full-block prefixes, so Sharing finds the entries sharing the most full blocks with a
// request (a longer checkpoint whose start the request shares); a share shorter than one block is
// found by comparing the first block of every entry. So the index answers the longest common
// prefix of a request with any stored checkpoint, to the token. The index is rebuilt at start from
// the checkpoint headers (ReadCheckpointSummary) of the files whose identity matches the server's.
// Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::serve {

inline constexpr size_t kBlockTokens = 16;

struct IndexEntry {
  std::string key;            // the checkpoint's key (file stem)
  uint64_t prefix_bytes = 0;  // length of its prefix text
  std::vector<int32_t> tokens;
  std::string prefix_text;  // its prefix text (to look the file up with; may be empty)
  uint64_t file_bytes = 0;  // the checkpoint file's size (what a restore reads); 0: unknown
};

struct SharedEntry {
  IndexEntry entry;
  size_t shared = 0;  // leading tokens the entry and the request have in common
};

class PrefixIndex {
 public:
  void Add(IndexEntry entry);  // replaces an entry of the same key
  void Remove(const std::string& key);
  bool Contains(const std::string& key) const;
  size_t size() const;

  // Entries whose tokens are an exact prefix of `tokens`, longest first.
  std::vector<IndexEntry> Matches(std::span<const int32_t> tokens) const;
  // The entries sharing the most full blocks with `tokens`, whether or not they are a prefix of
  // it, each with the exact count of leading tokens shared; when none shares a full block, every
  // entry sharing at least one leading token. Most shared first, then fewest tokens (the
  // cheapest to restore: a checkpoint's bytes grow with its tokens), then by key.
  std::vector<SharedEntry> Sharing(std::span<const int32_t> tokens) const;

  // The chained block hashes of `tokens`: element k is the hash of the first k full blocks
  // (element 0, of none, is the seed).
  static std::vector<uint64_t> BlockHashes(std::span<const int32_t> tokens);

 private:
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::vector<std::string>> by_hash_;   // chain hash -> keys
  std::unordered_map<uint64_t, std::vector<std::string>> by_block_;  // every block prefix -> keys
  std::unordered_map<std::string, IndexEntry> by_key_;
};

}  // namespace strata::serve
